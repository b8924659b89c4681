/* Unit tests of the SDP/PDP/CDP golden arithmetic against the worked examples and quirks of
 * shared/spec/nvdla_datapath.md, each computed by the model (not pasted results). */
#include "cdp_golden.h"
#include "dp_atom32.h"
#include "mem.h"
#include "nvdla_dp_math.h"
#include "pdp_golden.h"
#include "sdp_golden.h"
#include "unit.h"
#include <stdio.h>
#include <string.h>

static void test_rsr(unit_t *u)
{
    CHECK_EQ(nv_rsr(-5, 1, 49, 32), (uint64_t)-3); /* -2.5 -> -3: ties away from zero */
    CHECK_EQ(nv_rsr(5, 1, 49, 32), 3);             /* +2.5 -> +3 */
    CHECK_EQ(nv_rsr(-7, 2, 49, 32), (uint64_t)-2); /* -1.75 -> -2 */
    CHECK_EQ(nv_rsr(1000, 0, 49, 8), 127);         /* s = 0: saturate only */
    CHECK_EQ(nv_rsr(-(1ll << 40), 49, 49, 32), 0); /* s >= in_w -> 0 */
    CHECK_EQ(nv_shl_sat32(0x7FFF, 20), INT32_MAX); /* saturating operand shift */
    CHECK_EQ(nv_shl_sat32(-2, 40), (uint64_t)(int64_t)INT32_MIN);
}

static void test_sdp(unit_t *u)
{
    sdp_x_cfg_t c = {.alu_bypass = true, .mul_bypass = true, .relu_bypass = true, .mul_shift = 1};
    CHECK_EQ(sdp_x_stage(&c, 5, 0, 0), 3); /* MUL bypassed: the shift still applies */
    c.bypass = true;
    CHECK_EQ(sdp_x_stage(&c, 5, 0, 0), 5); /* stage bypass: unchanged */
    sdp_x_cfg_t p = {.alu_bypass = true, .prelu = true, .relu_bypass = true, .mul_shift = 4};
    CHECK_EQ(sdp_x_stage(&p, 100, 0, 3), 100);            /* PReLU positive: no multiply, no shift */
    CHECK_EQ(sdp_x_stage(&p, -100, 0, 3), (uint64_t)-19); /* -300/16 = -18.75 -> -19 */
    sdp_x_cfg_t s = {.algo = 3, .mul_bypass = true, .relu_bypass = false};
    CHECK_EQ(sdp_x_stage(&s, -10, 4, 0), 0); /* reserved algo = SUM, then ReLU */
    s.relu_bypass = true;
    CHECK_EQ(sdp_x_stage(&s, -10, 4, 0), (uint64_t)-6);
    sdp_x_cfg_t mx = {.algo = 0, .alu_shift = 2, .mul_bypass = true, .relu_bypass = true};
    CHECK_EQ(sdp_x_stage(&mx, 5, 3, 0), 12); /* MAX(x, op << shift) */
    CHECK_EQ(sdp_cvt(1000, 0, 1, 0), 127);   /* pass-through converter saturates to int8 */
    CHECK_EQ((uint8_t)sdp_cvt(-5, 0, 1, 1), (uint8_t)-3);
    CHECK_EQ((uint8_t)sdp_cvt(7, 10, 0xFFFF, 0), 3); /* (7-10) * -1 */
}

static void test_pdp(unit_t *u)
{
    CHECK_EQ((uint8_t)pdp_rq(127 * 2 + 1, 0x8000, 31, 8), (uint8_t)-128); /* spec sketch asserts */
    CHECK_EQ(pdp_rq(256, 0x8000, 31, 8), 0);
    CHECK_EQ((uint64_t)pdp_rq(-3, 0x8000, 31, 8), (uint64_t)-2); /* -1.5 -> -2 */
    CHECK_EQ((uint64_t)pdp_rq(-5, 0x5555, 31, 8), (uint64_t)-2); /* -1.666 -> -2 */
    /* 3x3 average, stride 1, pad 1 all round, pad value 1x = 9 per element: corner window has 4 real */
    pdp_pool_cfg_t c = {.method = 0,
                        .kw = 3,
                        .kh = 3,
                        .sw = 1,
                        .sh = 1,
                        .pl = 1,
                        .pt = 1,
                        .pr = 1,
                        .pb = 1,
                        .recip_w = 0x5555,
                        .recip_h = 0x5555};
    for (int n = 1; n <= 7; n++) c.pv[n] = 9 * n;
    int32_t plane[9] = {9, 9, 9, 9, 9, 9, 9, 9, 9};
    const pdp_avg_bits_t *ns = &pdp_avg_nv_small;
    CHECK_EQ(pdp_pool_one(&c, ns, plane, 3, 3, 0, 0), 9); /* all nine count 9: average 9 */
    CHECK_EQ(pdp_pool_one(&c, &pdp_avg_nvf_int8, plane, 3, 3, 0, 0), 9);
    c.method = 1;
    plane[4] = 50;
    CHECK_EQ(pdp_pool_one(&c, ns, plane, 3, 3, 0, 0), 50); /* max over real elements only */
    c.method = 2;
    CHECK_EQ(pdp_pool_one(&c, ns, plane, 3, 3, 0, 0), 9);
    /* nv_full INT16: a 2x2 corner window of one real 30000 and three padded elements of 30000 (pad n = n x 30000, 19
     * bits) averages 30000; INT8's 11-bit rows would wrap it */
    c.method = 0, c.kw = c.kh = 2, c.recip_w = c.recip_h = 0x8000;
    for (int n = 1; n <= 7; n++) c.pv[n] = 30000 * n;
    for (int i = 0; i < 9; i++) plane[i] = 30000;
    CHECK_EQ(pdp_pool_one(&c, &pdp_avg_nvf_int16, plane, 3, 3, 0, 0), 30000);
    CHECK(pdp_pool_one(&c, &pdp_avg_nvf_int8, plane, 3, 3, 0, 0) != 30000, "INT8 widths wrap");
    /* nv_full INT8 keeps the column sum with the 2-D pad in 14 bits, nv_small in 15: a 1x2 window, one real row of 127
     * and a bottom pad of 8191: 8318 (nv_small) or -8066 (nv_full), times 1/16 (520, -504), times 1/8 */
    pdp_pool_cfg_t w = {.method = 0, .kw = 1, .kh = 2, .sw = 1, .sh = 1, .pb = 1, .recip_w = 0x1000, .recip_h = 0x2000};
    w.pv[1] = 8191;
    int32_t one[1] = {127};
    CHECK_EQ((uint64_t)pdp_pool_one(&w, &pdp_avg_nvf_int8, one, 1, 1, 0, 0), (uint64_t)-63);
    CHECK_EQ(pdp_pool_one(&w, ns, one, 1, 1, 0, 0), 65);
}

static void test_cdp(unit_t *u)
{
    CHECK_EQ(cdp_icvt(127, 0x80, 1, 0), 255); /* 127 - (-128), 9-bit saturation */
    CHECK_EQ(cdp_icvt(-128, 0x7F, 1, 0), (uint64_t)-255);
    CHECK_EQ((uint8_t)cdp_ocvt(-5, 0, 1, 1), (uint8_t)-3);
    cdp_lut_t t = {0};
    t.lo[5] = 100;
    t.lo[6] = 200;
    /* LO left shift of -32 is by 0 (mod 32): X = 5 hits LO[5] */
    cdp_lut_cfg_t c = {.le_linear = true, .le_start22 = 0x1FFFFF, .le_start = 0x1FFFFF, .lo_index_select = 0x20};
    CHECK_EQ(cdp_lut_lookup(&c, &t, 5), 100);
    c.lo_index_select = 1; /* X = 11 -> idx 5, frac 0.5 -> 150 */
    CHECK_EQ(cdp_lut_lookup(&c, &t, 11), 150);
    /* le_min 39-bit wrap: start 2^37-1, EXP offset 38 -> 2^37-1 + 2^38 wraps negative, so X - le_min
     * is huge positive and the uflow slope saturates to +32767 (without the wrap: -32768). */
    cdp_lut_cfg_t w = {.le_linear = false,
                       .le_start = (1ll << 37) - 1,
                       .le_start22 = 0x3FFFFF,
                       .le_index_offset = 38,
                       .slopes.le_uflow_scale = 1,
                       .slopes.le_uflow_shift = 15};
    CHECK_EQ(cdp_lut_lookup(&w, &t, 0), 32767);
    /* LE underflow is "<=": X equal to the start underflows */
    cdp_lut_cfg_t e = {.le_linear = true,
                       .le_start = 10,
                       .le_start22 = 10,
                       .lo_start22 = 0x1FFFFF,
                       .lo_start = 0x1FFFFF,
                       .slopes.le_uflow_scale = 1,
                       .slopes.le_uflow_shift = 0};
    t.le[0] = 7;
    CHECK_EQ(cdp_lut_lookup(&e, &t, 10), 7); /* uflow row: LE[0] + (10 - 10) */
    CHECK_EQ(cdp_lut_lookup(&e, &t, 9), 6);
    /* LUT port: the pointer saturates at the last entry */
    cdp_lut_t p = {0};
    cdp_lut_cfg_write(&p, 0x20000 | 63);
    for (int i = 0; i < 4; i++) cdp_lut_data_write(&p, (uint32_t)(1000 + i));
    CHECK_EQ(p.le[63], 1000);
    CHECK_EQ(p.le[64], 1003);
    CHECK_EQ(p.addr, 64);
}

/* nv_full's INT16 CDP (cdp_atom32.c), each value worked by hand through NVIDIA's cmod (cdp/NV_NVDLA_cdp.cpp
 * lookup_lut, convert(); hls/cdp_libs/cdp_icvt.cpp, cdp_ocvt.cpp). */
static void test_cdp16(unit_t *u)
{
    /* convert(): half away from zero, negative shifts multiply, saturation, and the double's rounding past 2^53 */
    CHECK_EQ(cdp16_convert(5, 1, 16), 3);
    CHECK_EQ(cdp16_convert(-5, 1, 16), (uint64_t)-3);
    CHECK_EQ(cdp16_convert(-7, 2, 16), (uint64_t)-2); /* -1.75 - 0.5 = -2.25, truncated */
    CHECK_EQ(cdp16_convert(3, -2, 16), 12);
    CHECK_EQ(cdp16_convert(100000, 0, 16), 32767);
    CHECK_EQ(cdp16_convert(-100000, 0, 16), (uint64_t)-32768);
    CHECK_EQ(cdp16_convert(1ll << 62, -4, 56), (1ull << 55) - 1); /* 2^66: cmod's exp > 62 saturation */
    CHECK_EQ(cdp16_convert((1ll << 54) + 1, 0, 56), 1ull << 54);  /* (double)(2^54 + 1) is 2^54 */
    /* input converter: 16-bit offset (upper bits dropped), 17-bit saturation, rounding */
    CHECK_EQ(cdp16_icvt(32767, 0xFFFF, 1, 0), 32768);
    CHECK_EQ(cdp16_icvt(-32768, 0x7FFF, 1, 0), (uint64_t)-65535);
    CHECK_EQ(cdp16_icvt(30000, 0, 3, 0), 65535);
    CHECK_EQ(cdp16_icvt(5, 0, 1, 1), 3);
    CHECK_EQ(cdp16_icvt(-5, 0, 1, 1), (uint64_t)-3);
    CHECK_EQ(cdp16_icvt(5, 0x10001, 1, 0), 4);
    /* output converter: 32-bit offset, 6-bit shift, 16-bit saturation */
    CHECK_EQ(cdp16_ocvt(5, 0, 1, 1), 3);
    CHECK_EQ((uint16_t)cdp16_ocvt(-5, 0, 1, 1), (uint16_t)-3);
    CHECK_EQ(cdp16_ocvt(40000, 0, 1, 0), 32767);
    CHECK_EQ(cdp16_ocvt(0, 0xFFFFFFFF, 2, 0), 2);
    CHECK_EQ(cdp16_ocvt(5, 0, 1, 0x41), 3); /* the shift field is 6 bits */
    cdp_lut_t t = {0};
    int bad = 0;
    /* CDP_L0_0's settings: LE linear, every start and end 0, selects 0, slopes 1, every priority LO */
    cdp_lut_cfg_t a = {.le_linear = true,
                       .uflow_lo = true,
                       .oflow_lo = true,
                       .hybrid_lo = true,
                       .slopes.le_uflow_scale = 1,
                       .slopes.le_oflow_scale = 1,
                       .slopes.lo_uflow_scale = 1,
                       .slopes.lo_oflow_scale = 1};
    t.le[0] = 7, t.lo[0] = -5, t.lo[100] = 42, t.lo[CDP_LO_N - 1] = 100;
    CHECK_EQ(cdp16_lut_lookup(&a, &t, 0, &bad), (uint64_t)-5);  /* x - start <= 0: both underflow, LO */
    CHECK_EQ(cdp16_lut_lookup(&a, &t, -3, &bad), (uint64_t)-8); /* bypassed square sum: LO[0] + (-3 - 0) * 1 */
    CHECK_EQ(cdp16_lut_lookup(&a, &t, 1000, &bad), 1100);       /* both overflow: LO[256] + (x - end) * 1 */
    CHECK_EQ(cdp16_lut_lookup(&a, &t, 100, &bad), 42);          /* LE overflows, LO hits: LO, no fraction */
    CHECK_EQ(cdp16_lut_lookup(&a, &t, 1ll << 40, &bad), 32767); /* the sum saturates to 16 bits */
    CHECK_EQ(bad, 0);
    /* LE linear with a fraction: start 16, select 2; LO underflows (start 1000) */
    cdp_lut_cfg_t b = {.le_linear = true, .le_start = 16, .le_index_select = 2, .lo_start = 1000};
    cdp_lut_t l = {0};
    l.le[1] = 100, l.le[2] = 200, l.le[8] = -77;
    CHECK_EQ(cdp16_lut_lookup(&b, &l, 23, &bad), 175); /* idx 1, offset 3 << 14: 100 + 100 * 3/4 */
    b.le_index_select = 0x7F;                          /* -1: the index shifts left, no fraction */
    CHECK_EQ(cdp16_lut_lookup(&b, &l, 20, &bad), (uint64_t)-77);
    /* LE exponent: offset 2 */
    cdp_lut_cfg_t e = {.le_index_offset = 2,
                       .lo_start = 1000,
                       .slopes.le_uflow_scale = 3,
                       .slopes.le_uflow_shift = 1,
                       .slopes.le_oflow_scale = 1};
    l.le[0] = 10, l.le[1] = 100, l.le[2] = 300, l.le[37] = 1234, l.le[CDP_LE_N - 1] = 5;
    CHECK_EQ(cdp16_lut_lookup(&e, &l, 12, &bad), 200);         /* log2 3, idx 1, (12 - 8) << 13: half way */
    CHECK_EQ(cdp16_lut_lookup(&e, &l, 3, &bad), 8);            /* idx -1: LE[0] + (3 - 2^2) * 3 / 2 -> -1.5 -> -2 */
    CHECK_EQ(cdp16_lut_lookup(&e, &l, 1ll << 39, &bad), 1234); /* log2 39, idx 37, no fraction */
    e.le_index_offset = 0xC4;                                  /* -60: x = 16 gives idx 64, overflow */
    CHECK_EQ(cdp16_lut_lookup(&e, &l, 16, &bad), 21);          /* LE over, LO under: hybrid priority (LE) */
    CHECK_EQ(bad, 0);
    /* a select where cmod shifts an int by 31 or more: refused */
    b.le_index_select = 31;
    cdp16_lut_lookup(&b, &l, 20, &bad);
    CHECK_EQ(bad, 1);
}

static int rbk_boxes;
static char rbk_err[200];
static void rbk_emit(void *user, const nvdla_box_t *b) { (void)user, (void)b, rbk_boxes++; }
static void rbk_error(void *user, const char *msg)
{
    (void)user;
    snprintf(rbk_err, sizeof rbk_err, "%s", msg);
}

/* nv_full PDP (pdp32_run) from its registers: INT16 average 2x2, stride 1, padding 1 all round, padding values
 * n x 30000, reciprocals 1/2, over a 2x2 cube of 16 channels (one surface): lane 0 all 30000, so every output is
 * 30000 whatever its padding; lane 1 1000, so the middle window (no padding) is 1000. */
static void test_pdp32_avg(unit_t *u)
{
    mem_t *m = mem_new();
    const uint32_t in = 0x1000, out = 0x8000;
    for (uint32_t p = 0; p < 4; p++) {
        uint8_t a[32] = {0x30, 0x75, 0xe8, 0x03}; /* 30000, 1000 */
        mem_write(m, in + p * 32, a, 32);
    }
    nvdla_pp_t pdp, rdma;
    nvdla_pp_init(&pdp, 0xB000, 0x008);
    nvdla_pp_init(&rdma, 0xA000, 0x008);
    for (int w = 0; w < NVDLA_PP_WORDS; w++) pdp.mask[w] = rdma.mask[w] = 0xFFFFFFFFu;
    const uint32_t pr[][2] = {{0x0c, 1},      {0x10, 1},      {0x14, 15},          {0x18, 2},
                              {0x1c, 2},      {0x20, 15},     {0x24, 0 | 1u << 4}, {0x34, 0x0101},
                              {0x38, 0x8000}, {0x3c, 0x8000}, {0x40, 0x1111},      {0x70, out},
                              {0x78, 3 * 32}, {0x7c, 9 * 32}, {0x80, 1},           {0x84, 1}};
    for (size_t i = 0; i < sizeof pr / sizeof *pr; i++) nvdla_pp_write(&pdp, pdp.base + pr[i][0], pr[i][1]);
    for (uint32_t n = 1; n <= 7; n++) nvdla_pp_write(&pdp, pdp.base + 0x40 + 4 * n, 30000 * n);
    const uint32_t rr[][2] = {{0x0c, 1},      {0x10, 1},      {0x14, 15}, {0x1c, in},
                              {0x24, 2 * 32}, {0x28, 4 * 32}, {0x2c, 1},  {0x30, 1}};
    for (size_t i = 0; i < sizeof rr / sizeof *rr; i++) nvdla_pp_write(&rdma, rdma.base + rr[i][0], rr[i][1]);
    nvdla_pp_write(&pdp, pdp.base + 0x08, 1), nvdla_pp_write(&rdma, rdma.base + 0x08, 1);
    rbk_err[0] = 0, rbk_boxes = 0;
    nvdla_dp_ctx_t ctx = {.mem = m, .emit = rbk_emit, .error = rbk_error};
    pdp32_run(&pdp, &rdma, &ctx, 0);
    CHECK(!rbk_err[0], "INT16 average runs: %s", rbk_err);
    CHECK_EQ(rbk_boxes, 1); /* the output box */
    rbk_boxes = 0;
    for (uint32_t p = 0; p < 9; p++) {
        int16_t v;
        mem_read(m, out + p * 32, &v, 2);
        CHECK_EQ(v, 30000);
    }
    int16_t mid;
    mem_read(m, out + 4 * 32 + 2, &mid, 2);
    CHECK_EQ(mid, 1000);
    mem_free(m);
}

/* RUBIK contract (rubik_atom32.c), addressing as cmod's RubikRdma/WdmaSequenceContract: input 2x1 pixels, 64 INT16
 * channels (4 surfaces) contracted with x stride 2, y stride 2 into 4x2 pixels of 16 channels. Each input atom is
 * filled with its surface and pixel; out (x*2 + kx, y*2 + ky) must hold in surface ky*2 + kx, pixel x. */
static void test_rubik_contract(unit_t *u)
{
    mem_t *m = mem_new();
    const uint32_t in = 0x1000, out = 0x8000, surf = 0x100, line = 0x40, oline = 0x200, super = 0x400;
    for (uint32_t s = 0; s < 4; s++)
        for (uint32_t x = 0; x < 2; x++) {
            uint8_t a[32];
            for (int i = 0; i < 32; i++) a[i] = (uint8_t)(s * 16 + x * 4 + (i & 3));
            mem_write(m, in + s * surf + x * 32, a, 32);
        }
    nvdla_pp_t r;
    nvdla_pp_init(&r, NVDLA_RBK_MODEL_BASE, 0x008);
    for (int w = 0; w < NVDLA_PP_WORDS; w++) r.mask[w] = 0xFFFFFFFFu;
    const uint32_t regs[][2] = {{0x0c, 0x100}, {0x10, 1},     {0x14, 0x00000001}, {0x20, in},  {0x24, line},
                                {0x28, surf},  {0x30, 1},     {0x34, 15},         {0x3c, out}, {0x40, oline},
                                {0x48, super}, {0x4c, 0x800}, {0x54, 0x10001}};
    for (size_t i = 0; i < sizeof regs / sizeof *regs; i++) nvdla_pp_write(&r, r.base + regs[i][0], regs[i][1]);
    CHECK(nvdla_pp_write(&r, r.base + 0x08, 1), "D_OP_ENABLE enables group 0");
    nvdla_dp_ctx_t ctx = {.mem = m, .emit = rbk_emit, .error = rbk_error};
    CHECK(rubik32_run(&r, &ctx, 0), "contract runs: %s", rbk_err);
    for (uint32_t ky = 0; ky < 2; ky++)
        for (uint32_t x = 0; x < 2; x++)
            for (uint32_t kx = 0; kx < 2; kx++) {
                uint8_t a[32];
                mem_read(m, out + ky * oline + (x * 2 + kx) * 32, a, 32);
                CHECK_EQ(a[0], (ky * 2 + kx) * 16 + x * 4);
                CHECK_EQ(a[31], (ky * 2 + kx) * 16 + x * 4 + 3);
            }
    CHECK_EQ(rbk_boxes, 1); /* one super line of one surface: lines ky = 0, 1 */
    /* the reserved mode is refused by name (a fresh unit: group 0 of the first is locked by its enable) */
    nvdla_pp_t q;
    nvdla_pp_init(&q, NVDLA_RBK_MODEL_BASE, 0x008);
    for (int w = 0; w < NVDLA_PP_WORDS; w++) q.mask[w] = 0xFFFFFFFFu;
    nvdla_pp_write(&q, q.base + 0x0c, 0x103);
    CHECK(!rubik32_run(&q, &ctx, 0) && strstr(rbk_err, "mode 3 (reserved)"), "mode 3 refused: %s", rbk_err);
    mem_free(m);
}

static void rbk_regs(nvdla_pp_t *r, const uint32_t (*regs)[2], size_t n)
{
    nvdla_pp_init(r, NVDLA_RBK_MODEL_BASE, 0x008);
    for (int w = 0; w < NVDLA_PP_WORDS; w++) r->mask[w] = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) nvdla_pp_write(r, r->base + regs[i][0], regs[i][1]);
}

/* RUBIK split then merge (cmod RubikWdmaSequenceSplit / Merge): a 3x2 INT16 cube of 20 channels (a full surface and
 * 4 lanes of a second) into 20 planes and back. Planes: element (c, y, x) at c * 0x100 + y * 0x40 + 2x, each line
 * written to its 32-byte boundary with zeros past its 3 elements; back in a cube, the lanes past channel 19 zero. */
static void test_rubik_split_merge(unit_t *u)
{
    mem_t *m = mem_new();
    const uint32_t in = 0x1000, planes = 0x4000, back = 0x9000;
    for (uint32_t s = 0; s < 2; s++)
        for (uint32_t y = 0; y < 2; y++)
            for (uint32_t x = 0; x < 3; x++)
                for (uint32_t l = 0; l < 16; l++) {
                    uint16_t v = s * 16 + l < 20 ? (uint16_t)((s * 16 + l) * 100 + y * 10 + x) : 0xEEEE;
                    mem_write(m, in + s * 0x200 + y * 0x80 + x * 32 + 2 * l, &v, 2);
                }
    for (uint32_t a = planes; a < planes + 20 * 0x100; a++) mem_write8(m, a, 0xAB);
    nvdla_dp_ctx_t ctx = {.mem = m, .emit = rbk_emit, .error = rbk_error};
    const uint32_t sp[][2] = {{0x0c, 0x101}, {0x10, 1}, {0x14, 0x10002}, {0x18, 19},     {0x20, in},   {0x24, 0x80},
                              {0x28, 0x200}, {0x30, 1}, {0x34, 19},      {0x3c, planes}, {0x40, 0x40}, {0x50, 0x100}};
    nvdla_pp_t r;
    rbk_regs(&r, sp, sizeof sp / sizeof *sp);
    rbk_boxes = 0;
    CHECK(rubik32_run(&r, &ctx, 0), "split runs: %s", rbk_err);
    CHECK_EQ(rbk_boxes, 20); /* one per plane */
    uint16_t v;
    mem_read(m, planes + 19 * 0x100 + 1 * 0x40 + 2 * 2, &v, 2);
    CHECK_EQ(v, 19 * 100 + 10 + 2);
    mem_read(m, planes + 5 * 0x100, &v, 2);
    CHECK_EQ(v, 500);
    uint8_t b;
    mem_read(m, planes + 3 * 0x100 + 0x40 + 6, &b, 1); /* past the 3 elements: zero up to the boundary */
    CHECK_EQ(b, 0);
    mem_read(m, planes + 3 * 0x100 + 0x40 + 31, &b, 1);
    CHECK_EQ(b, 0);
    mem_read(m, planes + 3 * 0x100 + 0x40 + 32, &b, 1); /* past the boundary: untouched */
    CHECK_EQ(b, 0xAB);
    const uint32_t mg[][2] = {{0x0c, 0x102}, {0x10, 1}, {0x14, 0x10002}, {0x18, 19},   {0x20, planes}, {0x24, 0x40},
                              {0x2c, 0x100}, {0x30, 1}, {0x3c, back},    {0x40, 0x80}, {0x4c, 0x200}};
    rbk_regs(&r, mg, sizeof mg / sizeof *mg);
    CHECK(rubik32_run(&r, &ctx, 0), "merge runs: %s", rbk_err);
    int bad = 0;
    for (uint32_t s = 0; s < 2; s++)
        for (uint32_t y = 0; y < 2; y++)
            for (uint32_t x = 0; x < 3; x++)
                for (uint32_t l = 0; l < 16; l++) {
                    mem_read(m, back + s * 0x200 + y * 0x80 + x * 32 + 2 * l, &v, 2);
                    uint16_t want = s * 16 + l < 20 ? (uint16_t)((s * 16 + l) * 100 + y * 10 + x) : 0;
                    bad += v != want;
                }
    CHECK_EQ(bad, 0); /* the cube back, its pad lanes zero */
    mem_free(m);
}

/* SDP's 1x1 packing with 32-byte atoms (spec nvdla_datapath.md 1.2; RTL NV_NVDLA_SDP_WDMA_cmd.v and _MRDMA_ig.v
 * cfg_mode_1x1_pack; issue 38): a 1x1x40 INT16 cube (3 surfaces) whose registers say surface stride 0x80 is read from
 * and written to base + 32 s, memory to memory through an identity SDP; the bytes the stride would name stay as they
 * were. */
static void test_sdp32_1x1(unit_t *u)
{
    mem_t *m = mem_new();
    const uint32_t in = 0x1000, out = 0x4000;
    for (uint32_t a = 0; a < 0x200; a++) mem_write8(m, in + a, (uint8_t)(a * 7 + 1)), mem_write8(m, out + a, 0xAB);
    nvdla_pp_t rdma, sdp;
    nvdla_pp_init(&rdma, 0x8000, 0x008);
    nvdla_pp_init(&sdp, 0x9000, 0x038);
    for (int w = 0; w < NVDLA_PP_WORDS; w++) rdma.mask[w] = sdp.mask[w] = 0xFFFFFFFFu;
    /* SDP_RDMA: 1x1x40, strides 0x40 / 0x80, operand DMAs off, INT16 in, DBB; SDP: the same cube out, every stage
     * bypassed, INT16 processing and output, converter scale 1 */
    const uint32_t rr[][2] = {{0x0c, 0}, {0x10, 0}, {0x14, 39}, {0x18, in}, {0x20, 0x40}, {0x24, 0x80},
                              {0x28, 1}, {0x40, 1}, {0x58, 1},  {0x70, 4},  {0x74, 1}};
    const uint32_t sr[][2] = {{0x3c, 0}, {0x40, 0}, {0x44, 39}, {0x48, out}, {0x50, 0x40}, {0x54, 0x80}, {0x58, 1},
                              {0x6c, 1}, {0x80, 1}, {0xb0, 0},  {0xb4, 1},   {0xbc, 5},    {0xc4, 1}};
    for (size_t i = 0; i < sizeof rr / sizeof *rr; i++) nvdla_pp_write(&rdma, rdma.base + rr[i][0], rr[i][1]);
    for (size_t i = 0; i < sizeof sr / sizeof *sr; i++) nvdla_pp_write(&sdp, sdp.base + sr[i][0], sr[i][1]);
    nvdla_pp_write(&rdma, rdma.base + 0x08, 1);
    nvdla_pp_write(&sdp, sdp.base + 0x38, 1);
    rbk_err[0] = 0;
    nvdla_dp_ctx_t ctx = {.mem = m, .emit = rbk_emit, .error = rbk_error};
    sdp32_run(&sdp, &rdma, &ctx, 0);
    CHECK(rbk_err[0] == 0, "1x1 SDP runs: %s", rbk_err);
    int bad = 0, touched = 0;
    for (uint32_t a = 0; a < 96; a++) bad += mem_read8(m, out + a) != mem_read8(m, in + a); /* 3 atoms, packed */
    for (uint32_t a = 96; a < 0x200; a++) touched += mem_read8(m, out + a) != 0xAB;         /* 0x80, 0x100: untouched */
    CHECK_EQ(bad, 0);
    CHECK_EQ(touched, 0);
    mem_free(m);
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_dp_golden"};
    UNIT_RUN(&u, test_rsr);
    UNIT_RUN(&u, test_sdp);
    UNIT_RUN(&u, test_pdp);
    UNIT_RUN(&u, test_cdp);
    UNIT_RUN(&u, test_cdp16);
    UNIT_RUN(&u, test_pdp32_avg);
    UNIT_RUN(&u, test_rubik_contract);
    UNIT_RUN(&u, test_rubik_split_merge);
    UNIT_RUN(&u, test_sdp32_1x1);
    return unit_done(&u);
}
