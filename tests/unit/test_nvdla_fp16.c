/* The golden model's floating point (golden/nvdla/nvdla_fp16.c) against NVIDIA's C model without ../shared: every
 * sweep of tests/oracle/nvdla_fp_sweep.h (all 65,536 FP16 and 131,072 FP17 inputs of the conversions, 1,015,876
 * pairs per binary operation: the special classes crossed, then a million random pairs) digested and compared with
 * cmod's digests in tests/unit/data/nvdla_fp_digests.tsv (kept equal to cmod's by tests/test_nvdla_fp_oracle.py,
 * which also names the first differing case); then single cases, each a rule of cmod's arithmetic, with the
 * result cmod gives (read with the oracle's `eval`); then PDP's FP16 pooling (pdp_fp16.c) on small jobs, each with
 * cmod's output (its wrappers, driven by the oracle), and one (a kernel 8 wide) worked by hand from the RTL; then
 * SDP's FP16 X stages (sdp_fp16.c) on small jobs with cmod's sdp_hls_wrapper's output; then a whole FP16 CDP layer
 * (cdp32_run, cdp_fp16.c) from registers and memory, against the outputs of cmod's HLS_CDP_lookup_fp16. */
#include "unit.h"
#include "nvdla_fp16.h"
#include "pdp_fp16.h"
#include "sdp_fp16.h"
#include "cdp_fp16.h"
#include "dp_atom32.h"
#include "../oracle/nvdla_fp_sweep.h"

static uint32_t u1(uint32_t (*f)(uint32_t), uint32_t a) { return f(a); }

static uint32_t call(int op, uint32_t a, uint32_t b)
{
    switch (op) {
    case FP16_ADD: return nv_fp16_add(a, b);
    case FP16_SUB: return nv_fp16_sub(a, b);
    case FP16_MUL: return nv_fp16_mul(a, b);
    case FP16_MAX: return nv_fp16_max(a, b);
    case FP16_MIN: return nv_fp16_min(a, b);
    case FP17_ADD: return nv_fp17_add(a, b);
    case FP17_SUB: return nv_fp17_sub(a, b);
    case FP17_MUL: return nv_fp17_mul(a, b);
    case FP17_MAX: return nv_fp17_max(a, b);
    case FP17_MIN: return nv_fp17_min(a, b);
    case FP32_ADD: return nv_fp32_add(a, b);
    case FP32_SUB: return nv_fp32_sub(a, b);
    case FP32_MUL: return nv_fp32_mul(a, b);
    case FP32_MAX: return nv_fp32_max(a, b);
    case FP32_MIN: return nv_fp32_min(a, b);
    case FP32_RELU: return u1(nv_fp32_relu, a);
    case FP16_TO_FP17: return u1(nv_fp16_to_fp17, a);
    case FP17_TO_FP16: return u1(nv_fp17_to_fp16, a);
    case FP16_TO_FP32: return u1(nv_fp16_to_fp32, a);
    case FP32_TO_FP16: return u1(nv_fp32_to_fp16, a);
    case FP17_TO_FP32: return u1(nv_fp17_to_fp32, a);
    case FP32_TO_FP17: return u1(nv_fp32_to_fp17, a);
    case FP16_TO_INT16: return u1(nv_fp16_to_int16, a);
    case INT17_TO_FP16: return u1(nv_int17_to_fp16, a);
    default: return nv_uint16_to_fp17(a);
    }
}
static uint64_t sweep_digest(int op)
{
    fp_sweep_t w;
    uint32_t a, b;
    uint64_t h = FP_DIGEST_INIT;
    fp_sweep_start(&w, op);
    while (fp_sweep_next(&w, &a, &b)) h = fp_digest_add(h, call(op, a, b));
    return h;
}

static const char *data_path(char *buf, size_t n)
{
    static const char *const cands[] = {"tests/unit/data", "data", "../../tests/unit/data"};
    for (size_t i = 0; i < sizeof cands / sizeof *cands; i++) {
        snprintf(buf, n, "%s/nvdla_fp_digests.tsv", cands[i]);
        FILE *f = fopen(buf, "r");
        if (f) {
            fclose(f);
            return buf;
        }
    }
    snprintf(buf, n, "tests/unit/data/nvdla_fp_digests.tsv");
    return buf;
}

static void test_sweeps_match_cmod(unit_t *u)
{
    char path[256], line[256], name[64];
    FILE *f = fopen(data_path(path, sizeof path), "r");
    CHECK(f != NULL, "%s: cannot open", path);
    if (!f) return;
    bool seen[FP_OPS] = {false};
    unsigned ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        unsigned long long cases, digest;
        if (line[0] == '#') continue;
        int op = sscanf(line, "%63s %llu %llx", name, &cases, &digest) == 3 ? fp_op_find(name) : -1;
        CHECK(op >= 0, "%s:%u: expected '<operation> <cases> <digest>'", path, ln);
        if (op < 0) continue;
        seen[op] = true;
        CHECK(cases == fp_sweep_cases(op), "%s:%u: %s has %llu cases in the table, %llu in the sweep", path, ln, name,
              cases, (unsigned long long)fp_sweep_cases(op));
        uint64_t ours = sweep_digest(op);
        CHECK(ours == digest,
              "%s: %llu cases, digest %016llx, cmod's %016llx (python3 -m tests.test_nvdla_fp_oracle names the first "
              "differing case)",
              name, cases, (unsigned long long)ours, digest);
    }
    fclose(f);
    for (int op = 0; op < FP_OPS; op++) CHECK(seen[op], "%s: no digest in %s", fp_op_table[op].name, path);
}

typedef struct hand {
    int op;
    uint32_t a, b, want;
    const char *rule;
} hand_t;

static const hand_t hand[] = {
    {FP16_ADD, 0x3c00, 0x3c00, 0x4000, "1 + 1 = 2"},
    {FP16_ADD, 0x3c00, 0x1000, 0x3c00, "1 + 2^-11: a tie, to even (down)"},
    {FP16_ADD, 0x3c01, 0x1000, 0x3c02, "(1 + 2^-10) + 2^-11: a tie, to even (up)"},
    {FP16_ADD, 0x7bff, 0x7bff, 0x7bff, "overflow saturates to the largest finite value"},
    {FP16_ADD, 0x7c00, 0x3c00, 0x7c00, "Inf + 1: no rounding carry, Inf passes"},
    {FP16_ADD, 0x7c00, 0x7c00, 0x7bff, "Inf + Inf: the carry saturates"},
    {FP16_ADD, 0x3c00, 0xbc00, 0x0000, "1 + -1 = +0 (the first operand's sign)"},
    {FP16_ADD, 0xbc00, 0x3c00, 0x8000, "-1 + 1 = -0"},
    {FP16_ADD, 0x0001, 0x0001, 0x0401, "a denormal is read as 1.m x 2^-15: 2 x (1 + 2^-10) x 2^-15"},
    {FP16_ADD, 0x0400, 0x8001, 0x0000, "a result below the smallest normal flushes to zero"},
    {FP16_SUB, 0x3c00, 0x3c00, 0x0000, "1 - 1 = +0"},
    {FP16_MUL, 0x3c00, 0x0001, 0x0000, "a product below the smallest normal flushes to zero"},
    {FP16_MUL, 0x7bff, 0x4000, 0x7bff, "overflow saturates"},
    {FP16_MUL, 0x7e01, 0x3c00, 0x7e01, "a NaN passes unchanged"},
    {FP16_MUL, 0x3c00, 0xfe00, 0xfe00, "the second operand's NaN"},
    {FP16_MUL, 0x7c01, 0x7e00, 0x7c01, "two NaN: the first"},
    {FP16_MUL, 0x0000, 0x7c00, 0x0000, "0 x Inf = 0"},
    {FP16_MUL, 0x8000, 0x3c00, 0x8000, "-0 x 1 = -0"},
    {FP16_MAX, 0x8000, 0x0000, 0x0000, "max(-0, +0) = +0"},
    {FP16_MIN, 0x8000, 0x0000, 0x8000, "min(-0, +0) = -0"},
    {FP16_MAX, 0x7c00, 0x7c01, 0x7c01, "a NaN wins max"},
    {FP16_MAX, 0xfc00, 0x7bff, 0x7bff, "max(-Inf, 65504)"},
    {FP16_TO_FP17, 0x0001, 0x1c00, 0, "the smallest denormal, normalised: 2^-24"},
    {FP16_TO_FP17, 0x7c00, 0xfbff, 0, "Inf saturates"},
    {FP16_TO_FP17, 0xfc00, 0x1fbff, 0, "-Inf saturates"},
    {FP16_TO_FP17, 0x7e00, 0xfe00, 0, "a NaN keeps its mantissa"},
    {FP17_TO_FP16, 0x1c00, 0x0001, 0, "2^-24, the smallest denormal"},
    {FP17_TO_FP16, 0x1800, 0x0000, 0, "2^-25: a tie, to even (zero)"},
    {FP17_TO_FP16, 0x1801, 0x0001, 0, "just above 2^-25: up"},
    {FP17_TO_FP16, 0xbc00, 0x7bff, 0, "65536 saturates"},
    {FP17_TO_FP16, 0xfc00, 0x7bff, 0, "FP17's Inf saturates"},
    {FP17_TO_FP16, 0xfe00, 0x7e00, 0, "a NaN keeps its mantissa"},
    {FP16_TO_FP32, 0x7e00, 0x7f800200, 0, "a NaN's mantissa is not shifted"},
    {FP16_TO_FP32, 0x0001, 0x33800000, 0, "2^-24"},
    {FP32_TO_FP16, 0x7f800400, 0x7c00, 0, "a NaN keeps its low 10 mantissa bits: here an Inf"},
    {FP32_TO_FP16, 0x477ff000, 0x7bff, 0, "65520 rounds past the top: saturates"},
    {FP32_TO_FP16, 0x33000000, 0x0000, 0, "2^-25: a tie, to even"},
    {FP32_TO_FP16, 0x33000001, 0x0001, 0, "above 2^-25: up"},
    {FP17_TO_FP32, 0x00001, 0x30002000, 0, "FP17's denormal read as 1.m x 2^-31 (DENORM_NO)"},
    {FP32_TO_FP17, 0x2f800000, 0x00000, 0, "2^-32: below FP17's normals, flushed (DENORM_NO)"},
    {FP17_ADD, 0x00001, 0x00001, 0x00401, "FP17 denormals as FP16's"},
    {FP32_ADD, 0x3f800000, 0x33800000, 0x3f800000, "1 + 2^-24: a tie, to even"},
    {FP32_MUL, 0x7f7fffff, 0x40000000, 0x7f7fffff, "overflow saturates"},
    {UINT16_TO_FP17, 0x8000, 0x7800, 0, "0.5"},
    {UINT16_TO_FP17, 0xffff, 0x7c00, 0, "65535 / 65536 rounds to 1"},
    {UINT16_TO_FP17, 0x0001, 0x3c00, 0, "2^-16"},
};

static void test_rules(unit_t *u)
{
    for (size_t i = 0; i < sizeof hand / sizeof *hand; i++) {
        const hand_t *h = &hand[i];
        bool unary = !fp_op_table[h->op].binary;
        uint32_t want = unary ? h->b : h->want, got = call(h->op, h->a, unary ? 0 : h->b);
        if (unary) CHECK(got == want, "%s(%x): %x, cmod %x (%s)", fp_op_table[h->op].name, h->a, got, want, h->rule);
        else
            CHECK(got == want, "%s(%x, %x): %x, cmod %x (%s)", fp_op_table[h->op].name, h->a, h->b, got, want, h->rule);
    }
}

typedef struct pdp_case {
    const char *job; /* the oracle's "pdp ..." line (tests/oracle/nvdla_fp_sweep.h) */
    const char *want;
    const char *rule;
} pdp_case_t;

static const pdp_case_t pdp_cases[] = {
    {"pdp 0 2 2 2 2 0 0 0 0 2 2 0 7800 7800 0 0 0 0 0 0 0 3c00 4000 4200 4400", "4100",
     "average of 1, 2, 3, 4: 10 x 0.5 x 0.5"},
    {"pdp 0 3 3 1 1 1 1 1 1 3 3 0 7555 7555 7c00 8000 8200 8400 8500 8600 8700 3c00 4000 4200 4400 4500 4600 4700 "
     "4800 4880",
     "3f8d 4155 40aa 42aa 4500 4400 4271 44aa 4355", "average 3x3, padding 1 on every side, padding values 1..7"},
    {"pdp 1 2 2 1 1 0 0 0 0 2 2 0 0 0 0 0 0 0 0 0 0 7e01 7e02 7e03 3c00", "7e03",
     "max: in a row the first NaN stays, across rows the later row's wins"},
    {"pdp 2 2 2 1 1 0 0 0 0 2 2 1 0 0 0 0 0 0 0 0 0 7e01 7e02 bc00 3c00", "bc00", "min, NaN flushed to zero"},
    {"pdp 0 2 1 1 1 0 0 0 0 2 1 0 7800 7c00 0 0 0 0 0 0 0 7bff 7bff", "7bff",
     "65504 + 65504 in FP17 (no overflow), halved"},
    {"pdp 0 2 1 1 1 0 0 0 0 2 1 0 7800 7c00 0 0 0 0 0 0 0 1 1", "1", "two denormals: exact in FP17, back to 2^-24"},
    /* worked by hand: a row of eight 1.0 is 8.0; the top padding value 1.0 times the kernel width 8.0 (the RTL's
     * 17'h8800, cal2d.v:8780; cmod reads past its table here) adds 8.0; 16 x 1/8 x 1/2 = 1.0 */
    {"pdp 0 8 2 1 1 0 1 0 0 8 1 0 7000 7800 7c00 0 0 0 0 0 0 3c00 3c00 3c00 3c00 3c00 3c00 3c00 3c00", "3c00",
     "a kernel 8 wide: the padding times 8.0"},
};

static void test_pdp(unit_t *u)
{
    static fp_pdp_job_t j;
    for (size_t i = 0; i < sizeof pdp_cases / sizeof *pdp_cases; i++) {
        const pdp_case_t *pc = &pdp_cases[i];
        CHECK(fp_pdp_parse(pc->job, &j), "case %zu: job not parsed", i);
        pdp_fp16_cfg_t c = {.method = j.method,
                            .kw = j.kw,
                            .kh = j.kh,
                            .sw = j.sw,
                            .sh = j.sh,
                            .pl = j.pl,
                            .pt = j.pt,
                            .recip_w = j.recip_w,
                            .recip_h = j.recip_h,
                            .nan_to_zero = j.nan_to_zero};
        memcpy(c.pad, j.pad, sizeof c.pad);
        char got[256] = "";
        size_t n = 0;
        for (unsigned oy = 0; oy < fp_pdp_ho(&j); oy++)
            for (unsigned ox = 0; ox < fp_pdp_wo(&j); ox++)
                n += (size_t)snprintf(got + n, sizeof got - n, n ? " %x" : "%x",
                                      pdp_fp16_pool_one(&c, j.v, j.w, j.h, ox, oy));
        CHECK(!strcmp(got, pc->want), "case %zu (%s): %s, cmod %s", i, pc->rule, got, pc->want);
    }
}

static const pdp_case_t sdp_cases[] = {
    {"sdp 0 2 2 0 1 0 0 0 2 0 0 1 3c00 4000 1 0 0 0 0 0 0 0 4 3c00 bc00 7e00 1", "4400 8000 7e00 4000",
     "(x + 1) x 2: -1 + 1 = -0, a NaN passes, 2^-24 + 1 = 1"},
    {"sdp 1 2 2 0 1 0 0 0 3 1 0 0 3c00 0 0 1 0 0 1 0 0 c000 4 3c00 bc00 7e00 1", "0 0 0 0",
     "EQL gives the integer 0 or 1 (an FP32 denormal, flushed by the product), then ReLU"},
    {"sdp 1 2 2 0 1 0 0 0 0 0 0 0 7e00 7e00 1 0 0 0 0 0 0 0 3 fe00 3c00 bc00", "0 0 0",
     "NAN_TO_ZERO: the input NaN and the NaN operands read as +0"},
    {"sdp 0 2 2 0 1 0 0 1 0 0 1 1 0 c000 0 1 0 0 1 1 0 4000 4 3c00 bc00 8000 fc00", "3c00 4000 0 7bff",
     "PReLU: positives pass, -0 x -2 = +0, -Inf is -max FP32, its product saturates"},
    {"sdp 0 2 2 0 1 0 0 0 1 1 0 1 7bff 0 0 0 2 1 0 1 7bff 0 2 7bff 3c00", "7bff 7bff",
     "MIN, then SUM of 65504: in FP32, saturated only by the FP16 output"},
    {"sdp 0 2 2 0 1 0 0 1 0 0 0 1 0 7bff 1 0 0 0 0 0 0 0 2 7bff 1", "7bff 1bff",
     "65504 x 65504 saturates; 2^-24 x 65504"},
};

static void test_sdp(unit_t *u)
{
    static fp_sdp_job_t j;
    for (size_t i = 0; i < sizeof sdp_cases / sizeof *sdp_cases; i++) {
        const pdp_case_t *sc = &sdp_cases[i];
        CHECK(fp_sdp_parse(sc->job, &j), "case %zu: job not parsed", i);
        sdp_fp16_cfg_t c = {.nan_to_zero = j.nan_to_zero, .out_int16 = j.out == 1};
        sdp_fp16_stage_t *st[2] = {&c.x1, &c.x2};
        for (int k = 0; k < 2; k++) {
            const unsigned *f = j.stage[k];
            *st[k] = (sdp_fp16_stage_t){.bypass = f[0],
                                        .alu_bypass = f[1],
                                        .algo = f[2],
                                        .mul_bypass = f[3],
                                        .prelu = f[4],
                                        .relu_bypass = f[5],
                                        .alu_op = f[6],
                                        .mul_op = f[7]};
        }
        char got[256] = "";
        size_t n = 0;
        for (unsigned k = 0; k < j.n; k++)
            n += (size_t)snprintf(got + n, sizeof got - n, n ? " %x" : "%x", sdp_fp16_element(&c, j.v[k]));
        CHECK(!strcmp(got, sc->want), "case %zu (%s): %s, cmod %s", i, sc->rule, got, sc->want);
    }
}

static char cdp_err[256];
static void cdp_emit(void *user, const nvdla_box_t *b) { (void)user, (void)b; }
static void cdp_error(void *user, const char *msg)
{
    (void)user;
    snprintf(cdp_err, sizeof cdp_err, "%s", msg);
}

/* Two pixels of 20 FP16 channels (two surfaces, the second with 12 pad lanes), 5 then 9 channels summed; settings
 * 1: LE linear, LO select -2, a NaN input, D_DATIN_OFFSET 1.0; 2: LE exponent (offset -6), multiplier bypassed, NaN
 * flushed, offset 0. The expected outputs (all 32 lanes of each pixel) are those of cmod's HLS_CDP_lookup_fp16
 * through the oracle (tests/test_nvdla_fp_oracle.py's driver, "cdp" jobs), fed as nv_full's RTL reads the channels
 * outside the cube (+0, CDP_FP16_OUTSIDE): cmod's own feeding (the offset there) gives settings 1 other values in
 * channels 0, 1 and 18-31 (those within two channels of the cube's edge, and the pad lanes). */
static void test_cdp32_fp16(unit_t *u)
{
    static const uint16_t vals[40] = {0x3c00, 0x4000, 0xbc00, 0x3800, 0x4400, 0x0001, 0x7e00, 0x3555, 0xc200, 0x2e66,
                                      0x4a00, 0x3c00, 0x3c00, 0x1400, 0xb800, 0x4900, 0x3000, 0x7bff, 0x3e00, 0x4100,
                                      0x4000, 0x3400, 0x3c01, 0xc000, 0x3a00, 0x4200, 0x0000, 0x8000, 0x4500, 0x3f00,
                                      0x3c00, 0xb400, 0x4100, 0x3200, 0x3b00, 0x2c00, 0x4300, 0x3d00, 0x3600, 0x4000};
    /* CDP registers (model map, CDP at 0xd000): S_LUT_CFG, S_LUT_INFO, LE/LO start and end (low words), slopes,
     * then D_FUNC_BYPASS, D_NAN_FLUSH_TO_ZERO, D_LRN_CFG, D_DATIN_OFFSET */
    static const uint32_t cfg[2][12] = {
        {0x51, 0xFE0100, 0x00000000, 0x42700000, 0x3f000000, 0x43480000, 0xb8003c00, 0x3a003400, 0, 0, 1, 0x3c00},
        {0x20, 0x0000FA, 0x3e800000, 0x447a0000, 0x00000000, 0x42480000, 0x3c003800, 0x3000b400, 2, 1, 3, 0x0000}};
    static const char *const want[2] = {
        "2cf2 30fd afbd 2b91 7e00 7e00 7e00 7e00 7e00 c4a4 e064 d14b d14f f64 b351 fbff fbff fbff fbff "
        "fbff 0 0 8000 8000 8000 8000 8000 8000 8000 8000 8000 8000 30c9 2579 2d93 b26e 2cd0 34af 0 "
        "8000 3a23 344e 31fe a5b4 32a3 23b4 2e54 1e6d 35a4 3060 2940 30e5 0 0 8000 8000 8000 8000 "
        "8000 8000 8000 8000 8000 8000",
        "3180 3180 3180 3180 3195 3193 31ed 31ed 31ed 31e9 31e9 3206 3206 357e 357e 357e 357e 357e 357e "
        "357e 357e 357e 314e 313a a000 a000 a000 a000 a000 a000 a000 a000 3153 3177 3177 3177 31a4 31a3 "
        "31a4 31a3 31a6 31a5 319c 319c 31aa 3186 317f 3186 3186 3178 3178 3176 3176 3135 3126 3123 a000 "
        "a000 a000 a000 a000 a000 a000 a000"};
    for (int k = 0; k < 2; k++) {
        mem_t *m = mem_new();
        for (uint32_t x = 0; x < 2; x++)
            for (uint32_t s = 0; s < 2; s++) {
                uint8_t a[32] = {0};
                for (uint32_t l = 0; l < 16 && s * 16 + l < 20; l++) {
                    a[2 * l] = (uint8_t)vals[x * 20 + s * 16 + l];
                    a[2 * l + 1] = (uint8_t)(vals[x * 20 + s * 16 + l] >> 8);
                }
                mem_write(m, 0x1000 + s * 0x40 + x * 32, a, 32);
            }
        nvdla_pp_t rdma, cdp;
        nvdla_pp_init(&rdma, 0xC000, 0x008);
        nvdla_pp_init(&cdp, 0xD000, 0x008);
        for (int w = 0; w < NVDLA_PP_WORDS; w++) rdma.mask[w] = cdp.mask[w] = 0xFFFFFFFFu;
        const uint32_t r[][2] = {{0x0c, 1},    {0x10, 0},    {0x14, 19}, {0x18, 0x1000},
                                 {0x20, 0x40}, {0x24, 0x40}, {0x28, 1},  {0x34, 2}};
        const uint32_t *c = cfg[k];
        const uint32_t d[][2] = {{0x10, c[0]},   {0x14, c[1]}, {0x18, c[2]}, {0x20, c[3]}, {0x28, c[4]},  {0x30, c[5]},
                                 {0x38, c[6]},   {0x40, c[7]}, {0x4c, c[8]}, {0x6c, c[9]}, {0x70, c[10]}, {0x74, c[11]},
                                 {0x50, 0x8000}, {0x58, 0x40}, {0x5c, 0x40}, {0x60, 1},    {0x68, 2}};
        for (size_t i = 0; i < sizeof r / sizeof *r; i++) nvdla_pp_write(&rdma, rdma.base + r[i][0], r[i][1]);
        for (size_t i = 0; i < sizeof d / sizeof *d; i++) nvdla_pp_write(&cdp, cdp.base + d[i][0], d[i][1]);
        static cdp_lut_t lut;
        for (int i = 0; i < CDP_LE_N; i++) lut.le[i] = (int16_t)(0x3000 + 37 * i);
        for (int i = 0; i < CDP_LO_N; i++) lut.lo[i] = (int16_t)(0x2c00 + 11 * i);
        nvdla_dp_ctx_t ctx = {.mem = m, .emit = cdp_emit, .error = cdp_error};
        cdp_err[0] = 0;
        CHECK(cdp32_run(&cdp, &rdma, &lut, &ctx, 0, NULL), "settings %d: CDP at FP16 runs: %s", k + 1, cdp_err);
        char got[512] = "";
        size_t n = 0;
        for (uint32_t x = 0; x < 2; x++)
            for (uint32_t s = 0; s < 2; s++) {
                uint8_t a[32];
                mem_read(m, 0x8000 + s * 0x40 + x * 32, a, 32);
                for (int l = 0; l < 16; l++)
                    n += (size_t)snprintf(got + n, sizeof got - n, n ? " %x" : "%x", a[2 * l] | a[2 * l + 1] << 8);
            }
        CHECK(!strcmp(got, want[k]), "settings %d: CDP at FP16 wrote\n%s\ncmod:\n%s", k + 1, got, want[k]);
        mem_free(m);
    }
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_fp16"};
    UNIT_RUN(&u, test_sweeps_match_cmod);
    UNIT_RUN(&u, test_rules);
    UNIT_RUN(&u, test_pdp);
    UNIT_RUN(&u, test_sdp);
    UNIT_RUN(&u, test_cdp32_fp16);
    return unit_done(&u);
}
