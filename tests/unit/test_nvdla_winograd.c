/* Unit tests of nv_full's Winograd arithmetic (golden/nvdla/conv_winograd.c). The transforms are checked against
 * what they must compute, not against themselves: with weights transformed by software from a 3x3 kernel g as
 * U = (2G) g (2G)^T (G of F(2x2, 3x3) scaled by 2 so that U is integral), At (sum_c Bt d_c B . U_c) A is exactly 4 x
 * the direct 3x3 convolution, for every output of the tile, while the PRA neither truncates nor saturates. A wrong
 * transform (one sign of Bt, of At, or Bt transposed) breaks that identity, which the seeded-bug cases show; the
 * PRA's rounding and saturation and the weight layout are checked by hand. */
#include "conv_winograd.h"
#include "rng.h"
#include "unit.h"

enum { NC = 8, NK = 3 }; /* channels (a multiple of 4), kernels */
static const int G2[4][3] = {{2, 0, 0}, {1, 1, 1}, {1, -1, 1}, {0, 0, 2}};

typedef struct layer {
    int32_t d[NC][6][6];     /* an extended input, enough for a 4x4 output (two tiles a side) */
    int32_t g[NK][NC][3][3]; /* the 3x3 kernels */
    int32_t uw[NK][NC][16];  /* their transforms, (2G) g (2G)^T */
} layer_t;

static int32_t data(const void *ctx, uint32_t c, uint32_t y, uint32_t x) { return ((const layer_t *)ctx)->d[c][y][x]; }
static int32_t weight(const void *ctx, uint32_t k, uint32_t c, uint32_t pos)
{
    return ((const layer_t *)ctx)->uw[k][c][pos];
}

static void draw(layer_t *L, rng_t *r, int dmax, int gmax)
{
    for (int c = 0; c < NC; c++) {
        for (int y = 0; y < 6; y++)
            for (int x = 0; x < 6; x++) L->d[c][y][x] = (int32_t)rng_range(r, 0, 2 * dmax) - dmax;
        for (int k = 0; k < NK; k++) {
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) L->g[k][c][a][b] = (int32_t)rng_range(r, 0, 2 * gmax) - gmax;
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) {
                    int32_t s = 0;
                    for (int a = 0; a < 3; a++)
                        for (int b = 0; b < 3; b++) s += G2[i][a] * L->g[k][c][a][b] * G2[j][b];
                    L->uw[k][c][i * 4 + j] = s;
                }
        }
    }
}

static int64_t direct(const layer_t *L, int k, int oy, int ox)
{
    int64_t s = 0;
    for (int c = 0; c < NC; c++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) s += (int64_t)L->d[c][oy + a][ox + b] * L->g[k][c][a][b];
    return s;
}

/* 200 random layers at INT8-like and INT16-like magnitudes: every output equals 4 x the direct convolution. */
static void test_identity(unit_t *u)
{
    rng_t r;
    rng_seed_stream(&r, 1, "winograd_identity");
    static layer_t L;
    unsigned bad = 0, n = 0;
    for (int it = 0; it < 200; it++) {
        const bool wide = it & 1; /* |Bt d B| <= 4 max|d|: 31 stays within 8 bits, 8191 within 16 */
        draw(&L, &r, wide ? 8191 : 31, wide ? 60 : 5);
        const conv_wino_src_t s = {
            .C = NC, .bits = wide ? 16 : 8, .trunc = 0, .ctx = &L, .data = data, .weight = weight};
        for (int k = 0; k < NK; k++)
            for (int oy = 0; oy < 4; oy++)
                for (int ox = 0; ox < 4; ox++, n++)
                    if (conv_wino_output(&s, (uint32_t)k, (uint32_t)oy, (uint32_t)ox) != 4 * direct(&L, k, oy, ox))
                        bad++;
    }
    CHECK(bad == 0, "%u of %u outputs differ from 4 x the direct convolution", bad, n);
}

/* Seeded bugs: transforms with one mistake, applied to the same layers, must break the identity (so the identity
 * test above would catch them in the model). Each returns the output for (oy, ox) of tile 0. */
static const int BT_OK[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
static const int AT_OK[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
static int64_t mutant(const layer_t *L, int k, int oy, int ox, int bug)
{
    int bt[4][4], at[2][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) bt[i][j] = bug == 2 ? BT_OK[j][i] : BT_OK[i][j]; /* 2: Bt transposed */
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++) at[i][j] = AT_OK[i][j];
    if (bug == 0) bt[3][3] = 1; /* row 3 as 1+3 instead of 1-3 */
    if (bug == 1) at[1][3] = 1; /* At's second row ending in +1 */
    int64_t m[4][4] = {{0}};
    for (int c = 0; c < NC; c++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                int64_t v = 0;
                for (int a = 0; a < 4; a++)
                    for (int b = 0; b < 4; b++) v += bt[i][a] * L->d[c][a][b] * bt[j][b];
                m[i][j] += v * L->uw[k][c][i * 4 + j];
            }
    int64_t y = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) y += at[oy][a] * m[a][b] * at[ox][b];
    return y;
}
static void test_seeded_bugs(unit_t *u)
{
    rng_t r;
    rng_seed_stream(&r, 2, "winograd_bugs");
    static layer_t L;
    for (int bug = 0; bug < 3; bug++) {
        unsigned caught = 0, ok = 0;
        for (int it = 0; it < 20; it++) {
            draw(&L, &r, 31, 5);
            for (int k = 0; k < NK; k++)
                for (int o = 0; o < 4; o++) {
                    const int oy = o / 2, ox = o % 2;
                    caught += mutant(&L, k, oy, ox, bug) != 4 * direct(&L, k, oy, ox);
                    ok += mutant(&L, k, oy, ox, -1) == 4 * direct(&L, k, oy, ox); /* the unmutated form agrees */
                }
        }
        CHECK(caught > 0, "seeded bug %d: no output differs from the direct convolution", bug);
        CHECK(ok == 20 * NK * 4, "bug %d: the matrix form without a bug differs in %u outputs", bug, 20 * NK * 4 - ok);
    }
}

/* The PRA's shift rounds half away from zero and saturates to the element width (csc_cvt.cpp, ACFIXT). */
static void test_pra_round_sat(unit_t *u)
{
    int32_t d[16] = {0}, o[16];
    d[5] = 3; /* a lone centre element: Bt d B puts +-3 at 5, 6, 9, 10 */
    conv_wino_pra(d, 16, 1, o);
    CHECK_EQ(o[5], 2);            /* 3 / 2 = 1.5 -> 2 */
    CHECK_EQ(o[6], (uint64_t)-2); /* -1.5 -> -2 */
    CHECK_EQ(o[10], 2);           /* (-1)(-1) 3 */
    CHECK_EQ(o[0], 0);
    for (int i = 0; i < 16; i++) d[i] = i % 2 ? 127 : -128; /* INT8 corners: sums beyond 8 bits saturate */
    conv_wino_pra(d, 8, 0, o);
    int sat = 0;
    for (int i = 0; i < 16; i++) sat += o[i] == 127 || o[i] == -128;
    CHECK(sat > 0, "no INT8 PRA output saturated");
    conv_wino_pra(d, 16, 0, o); /* the same tile at 16 bits: exact */
    CHECK_EQ(o[0], 0);          /* rows 0 and 2 are equal: (row 0 - row 2) is 0 before the columns */
    /* PRA_TRUNCATE 3 shifts by 2, as nv_full's RTL does (NV_NVDLA_CSC_dl.v:2159; cmod would shift by 3) */
    CHECK_EQ(conv_wino_pra_shift(0), 0);
    CHECK_EQ(conv_wino_pra_shift(2), 2);
    CHECK_EQ(conv_wino_pra_shift(3), 2);
    const int64_t m[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    int64_t y[4];
    conv_wino_poa(m, y);
    /* At m A by hand: rows 0+1+2 = (15, 18, 21, 24), 1-2-3 = (-17, -18, -19, -20) */
    CHECK_EQ(y[0], 15 + 18 + 21);
    CHECK_EQ(y[1], (uint64_t)(int64_t)(18 - 21 - 24));
    CHECK_EQ(y[2], (uint64_t)(int64_t)(-17 - 18 - 19));
    CHECK_EQ(y[3], (uint64_t)(int64_t)(-18 + 19 + 20));
}

/* NVIDIA's Winograd weight layout: groups of 16 kernels at INT16 (32 at INT8), blocks of 4 channels, kernel, 4x4
 * position, channel (cmod csc.cpp SendWeightToMacSequencerWinoConvCommon). */
static void test_weight_layout(unit_t *u)
{
    const uint32_t C = 32, per_kernel = 16 * C * 2; /* INT16 */
    CHECK_EQ(conv_wino_weight_offset(0, 0, 0, C, 20, 2), 0);
    CHECK_EQ(conv_wino_weight_offset(0, 1, 0, C, 20, 2), 2);        /* channel inner */
    CHECK_EQ(conv_wino_weight_offset(0, 0, 1, C, 20, 2), 8);        /* then the position */
    CHECK_EQ(conv_wino_weight_offset(1, 0, 0, C, 20, 2), 128);      /* then the kernel */
    CHECK_EQ(conv_wino_weight_offset(0, 4, 0, C, 20, 2), 128 * 16); /* then the block of 4 channels (16 kernels) */
    CHECK_EQ(conv_wino_weight_offset(17, 5, 3, C, 20, 2),           /* last group: 4 kernels */
             16 * per_kernel + 1 * 128 * 4 + 1 * 128 + 3 * 8 + 1 * 2);
    CHECK_EQ(conv_wino_weight_offset(33, 0, 0, 64, 40, 1), 32 * 16 * 64 + 64); /* INT8: groups of 32 */
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_winograd"};
    UNIT_RUN(&u, test_identity);
    UNIT_RUN(&u, test_seeded_bugs);
    UNIT_RUN(&u, test_pra_round_sat);
    UNIT_RUN(&u, test_weight_layout);
    return unit_done(&u);
}
