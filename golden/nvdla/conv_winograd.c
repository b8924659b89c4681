/* Winograd F(2x2, 3x3) arithmetic at INT8/INT16 (conv_winograd.h). The adds are written in cmod's order, row by row,
 * so that a reader can hold them against csc_cvt.cpp and cmac.h line by line. */
#include "conv_winograd.h"
#include "nvdla_dp_math.h"

void conv_wino_pra(const int32_t d[16], unsigned bits, unsigned trunc, int32_t out[16])
{
    int64_t m[16], t[16];
    /* M = Ct x d (csc_cvt.cpp m_row0..3): rows 0-2, 1+2, 2-1, 1-3 */
    for (int i = 0; i < 4; i++) {
        m[i] = (int64_t)d[i] - d[i + 8];
        m[i + 4] = (int64_t)d[i + 4] + d[i + 8];
        m[i + 8] = (int64_t)d[i + 8] - d[i + 4];
        m[i + 12] = (int64_t)d[i + 4] - d[i + 12];
    }
    /* T = M x C (o_col0..3): columns 0-2, 1+2, 2-1, 1-3 */
    for (int i = 0; i < 4; i++) {
        t[4 * i] = m[4 * i] - m[4 * i + 2];
        t[4 * i + 1] = m[4 * i + 1] + m[4 * i + 2];
        t[4 * i + 2] = m[4 * i + 2] - m[4 * i + 1];
        t[4 * i + 3] = m[4 * i + 1] - m[4 * i + 3];
    }
    /* IntShiftRight<18, 2, bits>: ac_fixed with AC_RND_INF (half away from zero) and AC_SAT (nvdla_common.h ACFIXT) */
    for (int i = 0; i < 16; i++) out[i] = (int32_t)nv_sat((int64_t)nv_rshift_round(t[i], trunc), bits);
}

unsigned conv_wino_pra_shift(unsigned pra_truncate) { return pra_truncate == 3 ? 2 : pra_truncate; }

void conv_wino_poa(const int64_t m[16], int64_t y[4])
{
    int64_t p2[8];
    /* phase 2 (cmac.h): At on the rows: 0+1+2, 1-2-3 */
    for (int i = 0; i < 4; i++) {
        p2[i] = m[i] + m[i + 4] + m[i + 8];
        p2[i + 4] = m[i + 4] - m[i + 8] - m[i + 12];
    }
    /* phase 3: A on the columns, result[r * 2 + c] */
    for (int r = 0; r < 2; r++) {
        y[r * 2] = p2[r * 4] + p2[r * 4 + 1] + p2[r * 4 + 2];
        y[r * 2 + 1] = p2[r * 4 + 1] - p2[r * 4 + 2] - p2[r * 4 + 3];
    }
}

int64_t conv_wino_output(const conv_wino_src_t *s, uint32_t k, uint32_t oy, uint32_t ox)
{
    const uint32_t y0 = oy & ~1u, x0 = ox & ~1u;
    int64_t m[16] = {0}, y[4];
    for (uint32_t c = 0; c < s->C; c++) {
        int32_t d[16], v[16];
        for (uint32_t pos = 0; pos < 16; pos++) d[pos] = s->data(s->ctx, c, y0 + pos / 4, x0 + pos % 4);
        conv_wino_pra(d, s->bits, s->trunc, v);
        for (uint32_t pos = 0; pos < 16; pos++) m[pos] += (int64_t)v[pos] * s->weight(s->ctx, k, c, pos);
    }
    conv_wino_poa(m, y);
    return y[(oy & 1) * 2 + (ox & 1)];
}

uint64_t conv_wino_weight_offset(uint32_t k, uint32_t c, uint32_t pos, uint32_t C, uint32_t K, uint32_t esz)
{
    const uint32_t kg = esz == 2 ? 16 : 32, g = k / kg, kk = k % kg, gn = K - g * kg < kg ? K - g * kg : kg;
    const uint64_t per_kernel = 16ull * C * esz;
    return g * kg * per_kernel + (uint64_t)(c / 4) * 64 * esz * gn + (uint64_t)kk * 64 * esz + pos * 4 * esz +
           (c % 4) * esz;
}
