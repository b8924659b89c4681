/* Unit tests of nv_full's Winograd arithmetic at FP16 (golden/nvdla/conv_wino_fp16.c). The PRA's FP17 steps are
 * pinned by hand where a different rounding gives a different FP16 (each sum rounded to nearest even, in cmod's order,
 * then FP17 -> FP16 saturating), the cell's POA and NaN by hand, and the whole layer against what it must compute:
 * with weights U = (2G) g (2G)^T of small integer 3x3 kernels g and small integer data, every output is 4 x the
 * direct 3x3 convolution (within the cell's alignment losses, far below 1), and a wrong transform breaks that. */
#include "conv_fp16.h"
#include "conv_wino_fp16.h"
#include "nvdla_fp16.h"
#include "rng.h"
#include "unit.h"
#include <math.h>
#include <string.h>

static uint16_t h(float f) /* exact for the small values used here */
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return (uint16_t)nv_fp32_to_fp16(b);
}
static double f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* out[5] = (d5 + d9) + (d6 + d10) (rows 1+2, then columns 1+2): each sum rounds to FP17's 10 bits. */
static void test_pra_rounding(unit_t *u)
{
    uint16_t d[16] = {0}, o[16];
    d[5] = 0x3c00, d[9] = 0x1000, d[6] = 0x1000; /* 1.0, 2^-11, 2^-11 */
    conv_wino_fp16_pra(d, o);
    /* 1 + 2^-11 is a tie: even, 1.0; then 1.0 + 2^-11 again 1.0. Summed exactly it would be 1 + 2^-10 (0x3c01); with
     * ties away from zero 0x3c01 then 0x3c02 */
    CHECK_EQ(o[5], 0x3c00);
    memset(d, 0, sizeof d);
    d[5] = 0x3c01, d[9] = 0x1000; /* 1 + 2^-10 + 2^-11: a tie, to even 0x3c02 (truncation would keep 0x3c01) */
    conv_wino_fp16_pra(d, o);
    CHECK_EQ(o[5], 0x3c02);
    CHECK_EQ(o[6], 0xbc02); /* row 1 column 2: m6 - m5 = 0 - m5 */
    /* row 2: m9 = d9 - d5 = -(1 + 2^-11), a tie, to even -1.0; then m9 + m10 = -1.0 and m10 - m9 = +1.0 */
    CHECK_EQ(o[9], 0xbc00);
    CHECK_EQ(o[10], 0x3c00);
    memset(d, 0, sizeof d);
    d[5] = d[9] = 0x7bff; /* 65504 + 65504 fits FP17 (131008), FP17 -> FP16 saturates */
    conv_wino_fp16_pra(d, o);
    CHECK_EQ(o[5], 0x7bff);
    CHECK_EQ(o[9], 0); /* 65504 - 65504: +0 (the first operand's sign) */
    memset(d, 0, sizeof d);
    d[5] = 0x7c00; /* Inf: FP16 -> FP17 makes it the largest finite value; FP17 -> FP16 saturates */
    conv_wino_fp16_pra(d, o);
    CHECK_EQ(o[5], 0x7bff);
    CHECK_EQ(o[9], 0xfbff);
    memset(d, 0, sizeof d);
    d[0] = 0x7e01; /* a NaN keeps its payload and sign through the FP17 sums */
    conv_wino_fp16_pra(d, o);
    CHECK_EQ(o[0], 0x7e01);
    memset(d, 0, sizeof d);
    d[0] = 0x0001; /* a denormal: FP17 normalises it exactly, back to the same FP16 */
    conv_wino_fp16_pra(d, o);
    CHECK_EQ(o[0], 0x0001);
}

/* The cell by hand: all 64 products 1.0 x 1.0 give pp1 = 4 a position; y0 = 9 positions x 4, y1 = 4 (1+1+1 rows,
 * 1-1-1 columns) ... and a NaN weight makes all four results that NaN. */
static void test_cell(unit_t *u)
{
    uint16_t dat[64], wt[64];
    for (int i = 0; i < 64; i++) dat[i] = 0x3c00, wt[i] = 0x3c00;
    uint64_t r[4];
    conv_wino_fp16_cell(dat, wt, r);
    const double y[4] = {36, -12, -12, 4}; /* At 1 A with At rows (1,1,1,0), (0,1,-1,-1): 3x3, 3x-1, -1x3, 1 */
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(r[i] >> 38, r[0] >> 38); /* one exponent */
        CHECK(f32(conv_fp16_acc_to_fp32(conv_fp16_acc_add(0, r[i]))) == y[i], "result %d is %g", i,
              f32(conv_fp16_acc_to_fp32(conv_fp16_acc_add(0, r[i]))));
    }
    wt[37] = 0xfe05;
    dat[3] = 0x7d00;
    conv_wino_fp16_cell(dat, wt, r);
    for (int i = 0; i < 4; i++) CHECK_EQ(r[i], 0x3full << 38 | 1ull << 37 | 0x205ull << 27); /* the weight's NaN */
}

enum { NC = 8, NK = 2 };
static const int G2[4][3] = {{2, 0, 0}, {1, 1, 1}, {1, -1, 1}, {0, 0, 2}};
typedef struct layer {
    uint16_t d[NC][6][6];
    int g[NK][NC][3][3];
    uint16_t uw[NK][NC][16];
} layer_t;
static uint16_t data(const void *ctx, uint32_t c, uint32_t y, uint32_t x) { return ((const layer_t *)ctx)->d[c][y][x]; }
static uint16_t weight(const void *ctx, uint32_t k, uint32_t c, uint32_t pos)
{
    return ((const layer_t *)ctx)->uw[k][c][pos];
}

/* 200 layers of 8 channels and 2 kernels, data -4..4, kernels -2..2: |output - 4 x direct| < 2^-8 everywhere. */
static void test_identity(unit_t *u)
{
    rng_t r;
    rng_seed(&r, 38);
    layer_t L;
    unsigned bad = 0, n = 0;
    for (int layer = 0; layer < 200; layer++) {
        for (int c = 0; c < NC; c++) {
            for (int y = 0; y < 6; y++)
                for (int x = 0; x < 6; x++) L.d[c][y][x] = h((float)((int)rng_range(&r, 0, 8) - 4));
            for (int k = 0; k < NK; k++) {
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++) L.g[k][c][a][b] = (int)rng_range(&r, 0, 4) - 2;
                for (int i = 0; i < 4; i++)
                    for (int j = 0; j < 4; j++) {
                        int s = 0;
                        for (int a = 0; a < 3; a++)
                            for (int b = 0; b < 3; b++) s += G2[i][a] * L.g[k][c][a][b] * G2[j][b];
                        L.uw[k][c][i * 4 + j] = h((float)s);
                    }
            }
        }
        const conv_wino_fp16_src_t s = {.C = NC, .ctx = &L, .data = data, .weight = weight};
        for (uint32_t k = 0; k < NK; k++)
            for (uint32_t oy = 0; oy < 4; oy++)
                for (uint32_t ox = 0; ox < 4; ox++) {
                    double want = 0;
                    for (int c = 0; c < NC; c++)
                        for (int a = 0; a < 3; a++)
                            for (int b = 0; b < 3; b++)
                                want += 4.0 * L.g[k][c][a][b] * f32(nv_fp16_to_fp32(L.d[c][oy + a][ox + b]));
                    const double got = f32(conv_wino_fp16_output(&s, k, oy, ox, 0));
                    n++;
                    if (fabs(got - want) >= 1.0 / 256) {
                        if (bad++ < 3) CHECK(0, "layer %d k %u (%u,%u): %g, want %g", layer, k, oy, ox, got, want);
                    }
                }
    }
    CHECK(bad == 0, "%u of %u outputs differ from 4 x the direct convolution", bad, n);
    CHECK_EQ(n, 200 * NK * 16);
    /* a kernel past the last delivers +0 whatever the data */
    const conv_wino_fp16_src_t s = {.C = NC, .ctx = &L, .data = data, .weight = weight};
    CHECK_EQ(conv_wino_fp16_output(&s, 0, 0, 0, 1), 0);
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_wino_fp16"};
    UNIT_RUN(&u, test_pra_rounding);
    UNIT_RUN(&u, test_cell);
    UNIT_RUN(&u, test_identity);
    return unit_done(&u);
}
