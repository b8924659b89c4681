/* conv_round (issue 23): CACC rounding at truncation >= 17, where CACC's sticky bit ignores the accumulator's
 * bits below t - 16 (golden/nvdla, rtl/nvdla/conv/nvdla_conv_pkg.sv cacc_round). Random layers almost never
 * put a negative sum whose guide bit is set and whose only other set bit lies near that edge, so a wrong edge
 * survived mutation testing. This test takes conv_perf's 1x1 64 -> 64 layer (16x16 pixels) and rewrites its
 * data and weights so that every pixel's sum is a chosen value: -2^t + 2^(t-1) + 2^i for each bit i below the
 * guide bit (one sticky bit at every position, the edge included), the exact halves, and their neighbours;
 * the truncation t is 17 + (seed - 1) % 4. The golden model predicts the output; both roundings differ there. */
#include "conv_round_gen.h"
#include "conv_gen.h"
#include "nvdla_regs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ATOM = 8, W = 16, H = 16, C = 64, K = 64, NW = 5 };
/* Weights by channel, the same for every kernel: 59 x 127 carry the bulk, then 64, 16, 4, 1 make any sum exact. */
static int weight_of(unsigned c) { return c < C - 4 ? 127 : (int[]){64, 16, 4, 1}[c - (C - 4)]; }

static op_t *find_op(program_t *p, op_kind_t kind, uint64_t addr)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->ops[i].kind == kind && p->ops[i].addr == addr) return &p->ops[i];
    return NULL;
}

/* Channel values x[0..C) with sum_c x[c] * weight_of(c) == target (greedy from the largest weight). */
static int solve(int64_t target, int8_t *x)
{
    int64_t rem = target;
    for (unsigned c = 0; c < C; c++) {
        int64_t w = weight_of(c), v = rem >= 0 ? (rem + w / 2) / w : -((-rem + w / 2) / w);
        v = v < -128 ? -128 : v > 127 ? 127 : v;
        x[c] = (int8_t)v;
        rem -= v * w;
    }
    return rem == 0 ? 0 : -1;
}

int conv_round(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    if (conv_perf(p, 2, err, errlen)) return -1; /* shape 2: 1x1, 64 -> 64 channels, 16x16 */
    unsigned t = 17 + (unsigned)((seed ? seed - 1 : 0) % 4);
    op_t *clip = find_op(p, OP_WRITE, NVDLA_CACC_D_CLIP_CFG_0),
         *ls_w = find_op(p, OP_WRITE, NVDLA_CDMA_D_LINE_STRIDE_0),
         *ss_w = find_op(p, OP_WRITE, NVDLA_CDMA_D_SURF_STRIDE_0),
         *src_w = find_op(p, OP_WRITE, NVDLA_CDMA_D_DAIN_ADDR_LOW_0_0),
         *wts_w = find_op(p, OP_WRITE, NVDLA_CDMA_D_WEIGHT_ADDR_LOW_0);
    op_t *data = src_w ? find_op(p, OP_MEM, src_w->data) : NULL, *wts = wts_w ? find_op(p, OP_MEM, wts_w->data) : NULL;
    if (!clip || !ls_w || !ss_w || !data || !wts || wts->nbytes < (size_t)C * K) {
        snprintf(err, errlen, "conv_round: conv_perf's program no longer has the registers and images it rewrites");
        return -1;
    }
    clip->data = t;
    /* weights: w[k][c] at (k/8)*8*C + (c/8)*64 + (k%8)*8 + c%8 (1x1, groups of 8 kernels: conv_golden.c) */
    for (unsigned k = 0; k < K; k++)
        for (unsigned c = 0; c < C; c++)
            wts->bytes[(k / ATOM) * ATOM * C + (c / ATOM) * ATOM * ATOM + (k % ATOM) * ATOM + c % ATOM] =
                (uint8_t)(int8_t)weight_of(c);
    /* one target sum per pixel: every sticky position, exact halves, neighbours, a few of each sign */
    int64_t half = (int64_t)1 << (t - 1), targets[W * H];
    unsigned n = 0;
    for (unsigned i = 0; i + 1 < t && n < W * H; i++) targets[n++] = -2 * half + half + ((int64_t)1 << i);
    for (unsigned i = 0; i + 1 < t && n < W * H; i++) targets[n++] = -half - ((int64_t)1 << i);
    int64_t edges[] = {-half, -3 * half, half, 3 * half, -half + 1, -half - 1, half - 1, half + 1, 0, -1};
    int64_t cap = 0; /* the largest sum int8 data reaches with these weights */
    for (unsigned c = 0; c < C; c++) cap += 127 * weight_of(c);
    for (unsigned i = 0; i < sizeof edges / sizeof *edges && n < W * H; i++)
        if (edges[i] <= cap && edges[i] >= -cap) targets[n++] = edges[i];
    for (uint64_t z = seed * 0x9E3779B97F4A7C15ull; n < W * H; n++) { /* the rest: sums near +-half */
        z = z * 6364136223846793005ull + 1442695040888963407ull;
        targets[n] =
            ((z >> 40) & 1 ? -1 : 1) * (half + (int64_t)((z >> 8) % (uint64_t)(half / 2))) - (int64_t)((z >> 50) & 1);
    }
    uint32_t ls = ls_w->data, ss = ss_w->data;
    for (unsigned px = 0; px < W * H; px++) {
        int8_t x[C];
        if (solve(targets[px], x)) {
            snprintf(err, errlen, "conv_round: sum %lld not reachable with int8 data", (long long)targets[px]);
            return -1;
        }
        for (unsigned c = 0; c < C; c++) {
            uint64_t off = (uint64_t)(c / ATOM) * ss + (px / W) * ls + (px % W) * ATOM + c % ATOM;
            if (off >= data->nbytes) {
                snprintf(err, errlen, "conv_round: data byte %llu outside conv_perf's image", (unsigned long long)off);
                return -1;
            }
            data->bytes[off] = (uint8_t)x[c];
        }
    }
    for (size_t i = 0; i < p->n; i++) /* name the jobs after this test */
        if (p->ops[i].kind == OP_JOB && p->ops[i].text && !strncmp(p->ops[i].text, "conv_perf", 9)) {
            char *name = malloc(strlen(p->ops[i].text) + 32);
            if (!name) abort();
            sprintf(name, "conv_round.t%u%s", t, p->ops[i].text + 9);
            free(p->ops[i].text);
            p->ops[i].text = name;
        }
    free(p->name);
    p->name = strdup("conv_round");
    return 0;
}
