/* The operand sweeps on which the golden model's floating point (golden/nvdla/nvdla_fp16.c) is compared with
 * NVIDIA's C model (cmod/hls/vlibs): one table of operations, one deterministic list of operands per operation, one
 * digest of the results. Shared, unchanged, by both sides of the oracle (nvdla_fp_cmod.cpp on cmod, nvdla_fp_ours.c
 * on the golden model; tests/test_nvdla_fp_oracle.py compares them) and by the unit test (tests/unit/
 * test_nvdla_fp16.c checks the golden model's digests against tests/unit/data/nvdla_fp_digests.tsv, which the
 * oracle test keeps equal to cmod's). C11 and C++98 (cmod's headers need g++ in gnu++98 mode). The cases:
 * - a unary operation whose input has at most 17 bits: every input;
 * - FP32 input: the special values, then FP_SWEEP_RANDOM random operands;
 * - a binary operation: every pair of the special values (126 per format: both signs of exponents 0, 1, 2,
 *   bias - 1, bias, bias + 1, top - 2, top - 1, top with mantissas 0, 1, 2, half, half + 1, all ones - 1, all
 *   ones: zeros, denormals, Inf, NaN payloads, the largest values), then FP_SWEEP_RANDOM random pairs, half of
 *   them with the second operand's exponent within m + 3 of the first's (cancellation, alignment, ties). */
#ifndef NVDLA_FP_SWEEP_H
#define NVDLA_FP_SWEEP_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FP_SWEEP_RANDOM 1000000u

enum fp_op_id {
    FP16_ADD,
    FP16_SUB,
    FP16_MUL,
    FP16_MAX,
    FP16_MIN,
    FP17_ADD,
    FP17_SUB,
    FP17_MUL,
    FP17_MAX,
    FP17_MIN,
    FP32_ADD,
    FP32_SUB,
    FP32_MUL,
    FP32_MAX,
    FP32_MIN,
    FP32_RELU,
    FP16_TO_FP17,
    FP17_TO_FP16,
    FP16_TO_FP32,
    FP32_TO_FP16,
    FP17_TO_FP32,
    FP32_TO_FP17,
    UINT16_TO_FP17,
    FP16_TO_INT16,
    INT17_TO_FP16,
    FP_OPS
};

typedef struct fp_op_desc {
    const char *name;
    unsigned e, m; /* the input format (UINT16: e 0, m 16) */
    int binary;
} fp_op_desc_t;

static const fp_op_desc_t fp_op_table[FP_OPS] = {
    {"fp16_add", 5, 10, 1},      {"fp16_sub", 5, 10, 1},     {"fp16_mul", 5, 10, 1},       {"fp16_max", 5, 10, 1},
    {"fp16_min", 5, 10, 1},      {"fp17_add", 6, 10, 1},     {"fp17_sub", 6, 10, 1},       {"fp17_mul", 6, 10, 1},
    {"fp17_max", 6, 10, 1},      {"fp17_min", 6, 10, 1},     {"fp32_add", 8, 23, 1},       {"fp32_sub", 8, 23, 1},
    {"fp32_mul", 8, 23, 1},      {"fp32_max", 8, 23, 1},     {"fp32_min", 8, 23, 1},       {"fp32_relu", 8, 23, 0},
    {"fp16_to_fp17", 5, 10, 0},  {"fp17_to_fp16", 6, 10, 0}, {"fp16_to_fp32", 5, 10, 0},   {"fp32_to_fp16", 8, 23, 0},
    {"fp17_to_fp32", 6, 10, 0},  {"fp32_to_fp17", 8, 23, 0}, {"uint16_to_fp17", 0, 16, 0}, {"fp16_to_int16", 5, 10, 0},
    {"int17_to_fp16", 0, 17, 0},
};

/* One operation of a backend: b is 0 for a unary one. */
typedef uint32_t (*fp_fn_t)(uint32_t a, uint32_t b);

static inline int fp_op_find(const char *name)
{
    for (int i = 0; i < FP_OPS; i++)
        if (!strcmp(fp_op_table[i].name, name)) return i;
    return -1;
}

/* splitmix64 */
static inline uint64_t fp_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline unsigned fp_special_count(void) { return 2 * 9 * 7; }
static inline uint32_t fp_special(unsigned e, unsigned m, unsigned i)
{
    const uint32_t top = (1u << e) - 1, bias = (1u << (e - 1)) - 1, all = (1u << m) - 1;
    const uint32_t expos[9] = {0, 1, 2, bias - 1, bias, bias + 1, top - 2, top - 1, top};
    const uint32_t mants[7] = {0, 1, 2, 1u << (m - 1), (1u << (m - 1)) + 1, all - 1, all};
    uint32_t sign = i / 63, ex = expos[(i % 63) / 7], mt = mants[i % 7];
    return sign << (e + m) | ex << m | mt;
}

typedef struct fp_sweep {
    int op;
    uint64_t n, i, rng;
} fp_sweep_t;

static inline uint64_t fp_sweep_cases(int op)
{
    const fp_op_desc_t *d = &fp_op_table[op];
    uint64_t s = fp_special_count();
    if (d->binary) return s * s + FP_SWEEP_RANDOM;
    if (d->e + d->m + (d->e ? 1 : 0) <= 17) return 1ull << (d->e + d->m + (d->e ? 1 : 0));
    return s + FP_SWEEP_RANDOM;
}

static inline void fp_sweep_start(fp_sweep_t *w, int op)
{
    w->op = op;
    w->n = fp_sweep_cases(op);
    w->i = 0;
    w->rng = 0x6E76646C61667031ull ^ (uint64_t)op; /* "nvdlafp1" */
}

/* The next case's operands; 0 when the sweep is done. */
static inline int fp_sweep_next(fp_sweep_t *w, uint32_t *a, uint32_t *b)
{
    const fp_op_desc_t *d = &fp_op_table[w->op];
    const unsigned width = d->e + d->m + (d->e ? 1 : 0), s = fp_special_count();
    const uint32_t all = (uint32_t)((1ull << width) - 1);
    if (w->i >= w->n) return 0;
    uint64_t i = w->i++;
    *b = 0;
    if (!d->binary) {
        if (width <= 17) *a = (uint32_t)i;
        else *a = i < s ? fp_special(d->e, d->m, (unsigned)i) : (uint32_t)fp_rng_next(&w->rng) & all;
        return 1;
    }
    if (i < (uint64_t)s * s) {
        *a = fp_special(d->e, d->m, (unsigned)(i / s));
        *b = fp_special(d->e, d->m, (unsigned)(i % s));
        return 1;
    }
    uint64_t r = fp_rng_next(&w->rng);
    *a = (uint32_t)r & all;
    if (r >> 63) {
        *b = (uint32_t)(r >> 32) & all;
    } else { /* b's exponent near a's: alignment, cancellation, ties */
        const int top = (1 << d->e) - 1;
        int ex = (int)((*a >> d->m) & (uint32_t)top) + (int)((r >> 32) % (2 * d->m + 7)) - (int)(d->m + 3);
        ex = ex < 0 ? 0 : ex > top ? top : ex;
        uint32_t mant = (uint32_t)fp_rng_next(&w->rng) & ((1u << d->m) - 1);
        *b = (uint32_t)((r >> 40) & 1) << (d->e + d->m) | (uint32_t)ex << d->m | mant;
    }
    return 1;
}

/* FNV-1a 64 of the results, 4 bytes each, little-endian. */
static inline uint64_t fp_digest_add(uint64_t h, uint32_t r)
{
    for (int k = 0; k < 4; k++) h = (h ^ ((r >> (8 * k)) & 0xFF)) * 0x100000001B3ull;
    return h;
}
#define FP_DIGEST_INIT 0xCBF29CE484222325ull

static inline uint64_t fp_sweep_digest(int op, fp_fn_t fn)
{
    fp_sweep_t w;
    uint32_t a, b;
    uint64_t h = FP_DIGEST_INIT;
    fp_sweep_start(&w, op);
    while (fp_sweep_next(&w, &a, &b)) h = fp_digest_add(h, fn(a, b));
    return h;
}

/* A PDP job at FP16 (one lane; cmod's lanes are independent): the pooling registers and a plane of FP16 values. */
#define FP_PDP_MAX 4096
typedef struct fp_pdp_job {
    unsigned method, kw, kh, sw, sh, pl, pt, pr, pb, w, h, nan_to_zero;
    uint32_t recip_w, recip_h, pad[7];
    uint16_t v[FP_PDP_MAX];
} fp_pdp_job_t;
/* Writes the (w + pl + pr - kw) / sw + 1 by (h + pt + pb - kh) / sh + 1 outputs, row-major. */
typedef void (*fp_pdp_fn_t)(const fp_pdp_job_t *job, uint16_t *out);

static inline unsigned fp_pdp_wo(const fp_pdp_job_t *j) { return (j->w + j->pl + j->pr - j->kw) / j->sw + 1; }
static inline unsigned fp_pdp_ho(const fp_pdp_job_t *j) { return (j->h + j->pt + j->pb - j->kh) / j->sh + 1; }

/* "pdp <method> <kw> <kh> <sw> <sh> <pl> <pt> <pr> <pb> <w> <h> <nan_to_zero> <recip_w> <recip_h> <pad 1..7>
 * <w*h values>", hexadecimal; 0 when malformed or not a whole tiling (the oracle test sends whole ones only). */
static inline int fp_pdp_parse(const char *line, fp_pdp_job_t *j)
{
    unsigned long f[21];
    char *end;
    const char *p = line;
    while (*p == ' ') p++;
    if (strncmp(p, "pdp ", 4)) return 0;
    p += 4;
    for (int k = 0; k < 21; k++, p = end) {
        f[k] = strtoul(p, &end, 16);
        if (end == p) return 0;
    }
    j->method = (unsigned)f[0], j->kw = (unsigned)f[1], j->kh = (unsigned)f[2], j->sw = (unsigned)f[3];
    j->sh = (unsigned)f[4], j->pl = (unsigned)f[5], j->pt = (unsigned)f[6], j->pr = (unsigned)f[7];
    j->pb = (unsigned)f[8], j->w = (unsigned)f[9], j->h = (unsigned)f[10], j->nan_to_zero = (unsigned)f[11];
    j->recip_w = (uint32_t)f[12], j->recip_h = (uint32_t)f[13];
    for (int k = 0; k < 7; k++) j->pad[k] = (uint32_t)f[14 + k];
    if (j->method > 2 || !j->kw || j->kw > 8 || !j->kh || j->kh > 8 || !j->sw || !j->sh || j->pl >= j->kw ||
        j->pr >= j->kw || j->pt >= j->kh || j->pb >= j->kh || !j->w || !j->h || j->w * j->h > FP_PDP_MAX ||
        j->w + j->pl + j->pr < j->kw || j->h + j->pt + j->pb < j->kh || (j->w + j->pl + j->pr - j->kw) % j->sw ||
        (j->h + j->pt + j->pb - j->kh) % j->sh)
        return 0;
    for (unsigned k = 0; k < j->w * j->h; k++, p = end) {
        j->v[k] = (uint16_t)strtoul(p, &end, 16);
        if (end == p) return 0;
    }
    return 1;
}

/* An SDP job (memory to memory, EW bypassed, register operands): NAN_TO_ZERO, the processing and output precisions
 * (1 INT16, 2 FP16) and the output converter's offset, scale and shift, then BS (X1) and BN (X2), each as bypass,
 * alu_bypass, algo, mul_bypass, prelu, relu_bypass, alu_op, mul_op, then the input values (FP16, or INT16 when the
 * processing is). */
typedef struct fp_sdp_job {
    unsigned nan_to_zero, proc, out, cvt_offset, cvt_scale, cvt_shift, stage[2][8], n;
    uint16_t v[FP_PDP_MAX];
} fp_sdp_job_t;
/* Writes the n outputs. */
typedef void (*fp_sdp_fn_t)(const fp_sdp_job_t *job, uint16_t *out);

/* "sdp <nan_to_zero> <proc> <out> <cvt offset, scale, shift> <BS: 8 fields> <BN: 8 fields> <n> <n values>",
 * hexadecimal; 0 when malformed. */
static inline int fp_sdp_parse(const char *line, fp_sdp_job_t *j)
{
    unsigned long f[23];
    char *end;
    const char *p = line;
    while (*p == ' ') p++;
    if (strncmp(p, "sdp ", 4)) return 0;
    p += 4;
    for (int k = 0; k < 23; k++, p = end) {
        f[k] = strtoul(p, &end, 16);
        if (end == p) return 0;
    }
    j->nan_to_zero = (unsigned)f[0], j->proc = (unsigned)f[1], j->out = (unsigned)f[2];
    j->cvt_offset = (unsigned)f[3], j->cvt_scale = (unsigned)f[4], j->cvt_shift = (unsigned)f[5];
    for (int k = 0; k < 16; k++) j->stage[k / 8][k % 8] = (unsigned)f[6 + k];
    j->n = (unsigned)f[22];
    if (!j->n || j->n > FP_PDP_MAX) return 0;
    for (unsigned k = 0; k < j->n; k++, p = end) {
        j->v[k] = (uint16_t)strtoul(p, &end, 16);
        if (end == p) return 0;
    }
    return 1;
}

/* A CDP job at FP16: the LUT settings (le_exponent, uflow_lo, oflow_lo, hybrid_lo, sqsum_bypass, mul_bypass,
 * nan_to_zero, normalz_len, le_start, le_end, lo_start, lo_end, le_index_offset, le_index_select, lo_index_select
 * (bytes), le_uflow, le_oflow, lo_uflow, lo_oflow (FP16 slopes), datin_offset), the 65 LE and 257 LO entries, then
 * one pixel's channels (n FP16 values, n a multiple of 4). */
#define FP_CDP_CFG 20
typedef struct fp_cdp_job {
    uint32_t cfg[FP_CDP_CFG];
    uint16_t le[65], lo[257];
    unsigned n;
    uint16_t v[FP_PDP_MAX];
} fp_cdp_job_t;
typedef void (*fp_cdp_fn_t)(const fp_cdp_job_t *job, uint16_t *out);

static inline int fp_cdp_parse(const char *line, fp_cdp_job_t *j)
{
    char *end;
    const char *p = line;
    while (*p == ' ') p++;
    if (strncmp(p, "cdp ", 4)) return 0;
    p += 4;
    unsigned long f;
    for (int k = 0; k < FP_CDP_CFG + 65 + 257 + 1; k++, p = end) {
        f = strtoul(p, &end, 16);
        if (end == p) return 0;
        if (k < FP_CDP_CFG) j->cfg[k] = (uint32_t)f;
        else if (k < FP_CDP_CFG + 65) j->le[k - FP_CDP_CFG] = (uint16_t)f;
        else if (k < FP_CDP_CFG + 65 + 257) j->lo[k - FP_CDP_CFG - 65] = (uint16_t)f;
        else j->n = (unsigned)f;
    }
    if (!j->n || j->n % 4 || j->n > FP_PDP_MAX || j->cfg[7] > 3) return 0;
    for (unsigned k = 0; k < j->n; k++, p = end) {
        j->v[k] = (uint16_t)strtoul(p, &end, 16);
        if (end == p) return 0;
    }
    return 1;
}

/* The drivers' command line, the same on both sides:
 *   digest [op ...]   one line per operation: name, cases, digest (every operation when none is named)
 *   dump <op>         one line per case: a, b, result (hexadecimal)
 *   eval              reads lines "<op> <a> [<b>]" (hexadecimal), writes each result; a line "pdp ..."
 *                     (fp_pdp_parse), "sdp ..." (fp_sdp_parse) or "cdp ..." (fp_cdp_parse) writes the job's
 *                     outputs on one line
 * Returns the exit status. */
static inline int fp_driver_main(int argc, char **argv, const fp_fn_t *fns, fp_pdp_fn_t pdp, fp_sdp_fn_t sdp,
                                 fp_cdp_fn_t cdp)
{
    if (argc >= 2 && !strcmp(argv[1], "digest")) {
        for (int op = 0; op < FP_OPS; op++) {
            int named = argc == 2;
            for (int k = 2; k < argc; k++) named |= !strcmp(argv[k], fp_op_table[op].name);
            if (named)
                printf("%s\t%llu\t%016llx\n", fp_op_table[op].name, (unsigned long long)fp_sweep_cases(op),
                       (unsigned long long)fp_sweep_digest(op, fns[op]));
        }
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "dump")) {
        int op = fp_op_find(argv[2]);
        if (op < 0) {
            fprintf(stderr, "error: unknown operation '%s'\n", argv[2]);
            return 2;
        }
        fp_sweep_t w;
        uint32_t a, b;
        fp_sweep_start(&w, op);
        while (fp_sweep_next(&w, &a, &b)) printf("%x %x %x\n", a, b, fns[op](a, b));
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "eval")) {
        static char line[1 << 16];
        static fp_pdp_job_t job;
        static fp_sdp_job_t sjob;
        static fp_cdp_job_t cjob;
        static uint16_t out[FP_PDP_MAX];
        char name[64];
        unsigned a, b;
        unsigned long n = 0;
        while (fgets(line, sizeof line, stdin)) {
            n++;
            b = 0;
            if (!strncmp(line, "cdp ", 4)) {
                if (!fp_cdp_parse(line, &cjob)) {
                    fprintf(stderr, "error: stdin:%lu: malformed cdp job\n", n);
                    return 2;
                }
                cdp(&cjob, out);
                for (unsigned k = 0; k < cjob.n; k++) printf(k ? " %x" : "%x", out[k]);
                printf("\n");
                continue;
            }
            if (!strncmp(line, "sdp ", 4)) {
                if (!fp_sdp_parse(line, &sjob)) {
                    fprintf(stderr, "error: stdin:%lu: malformed sdp job\n", n);
                    return 2;
                }
                sdp(&sjob, out);
                for (unsigned k = 0; k < sjob.n; k++) printf(k ? " %x" : "%x", out[k]);
                printf("\n");
                continue;
            }
            if (!strncmp(line, "pdp ", 4)) {
                if (!fp_pdp_parse(line, &job)) {
                    fprintf(stderr, "error: stdin:%lu: malformed pdp job\n", n);
                    return 2;
                }
                pdp(&job, out);
                for (unsigned k = 0; k < fp_pdp_wo(&job) * fp_pdp_ho(&job); k++) printf(k ? " %x" : "%x", out[k]);
                printf("\n");
                continue;
            }
            int got = sscanf(line, "%63s %x %x", name, &a, &b), op = got >= 2 ? fp_op_find(name) : -1;
            if (op < 0 || got != 2 + fp_op_table[op].binary) {
                fprintf(stderr, "error: stdin:%lu: expected '<op> <a>[ <b>]' in hexadecimal\n", n);
                return 2;
            }
            printf("%x\n", fns[op](a, b));
        }
        return 0;
    }
    fprintf(stderr, "usage: %s digest [op ...] | dump <op> | eval\n", argv[0]);
    return 2;
}
#endif
