/* Winograd F(2x2, 3x3) at FP16 (conv_wino_fp16.h). */
#include "conv_wino_fp16.h"
#include "conv_fp16.h"
#include "conv_winograd.h"
#include "nvdla_fp16.h"

static int nan16(uint16_t v) { return ((v >> 10) & 0x1F) == 0x1F && (v & 0x3FF); }

void conv_wino_fp16_pra(const uint16_t d[16], uint16_t out[16])
{
    uint32_t f[16], m[16];
    for (int i = 0; i < 16; i++) f[i] = nv_fp16_to_fp17(d[i]);
    /* M = Ct x d (csc_cvt.cpp m_row0..3, operands in its order): rows 0-2, 1+2, 2-1, 1-3 */
    for (int i = 0; i < 4; i++) {
        m[i] = nv_fp17_sub(f[i], f[i + 8]);
        m[i + 4] = nv_fp17_add(f[i + 4], f[i + 8]);
        m[i + 8] = nv_fp17_sub(f[i + 8], f[i + 4]);
        m[i + 12] = nv_fp17_sub(f[i + 4], f[i + 12]);
    }
    /* T = M x C (o_col0..3): columns 0-2, 1+2, 2-1, 1-3; then Fp17ToFp16 (the TRUNCATE loop at FP16) */
    for (int i = 0; i < 4; i++) {
        out[4 * i] = (uint16_t)nv_fp17_to_fp16(nv_fp17_sub(m[4 * i], m[4 * i + 2]));
        out[4 * i + 1] = (uint16_t)nv_fp17_to_fp16(nv_fp17_add(m[4 * i + 1], m[4 * i + 2]));
        out[4 * i + 2] = (uint16_t)nv_fp17_to_fp16(nv_fp17_sub(m[4 * i + 2], m[4 * i + 1]));
        out[4 * i + 3] = (uint16_t)nv_fp17_to_fp16(nv_fp17_sub(m[4 * i + 1], m[4 * i + 3]));
    }
}

void conv_wino_fp16_cell(const uint16_t dat[64], const uint16_t wt[64], uint64_t res[4])
{
    uint64_t nan;
    if (conv_fp16_nan(dat, wt, &nan)) { /* cmac.h:682-686; RTL NV_NVDLA_CMAC_CORE_mac.v:9443-9482 (sop_nan) */
        for (int i = 0; i < 4; i++) res[i] = nan;
        return;
    }
    int32_t prod[64];
    const uint32_t exp = conv_fp16_products(dat, wt, prod);
    /* pp_phase1 (cmac.h:695): four channels per position; then the POA, exact (38 bits hold it: |product| < 2^29) */
    int64_t m[16], y[4];
    for (int pos = 0; pos < 16; pos++)
        m[pos] = (int64_t)prod[pos * 4] + prod[pos * 4 + 1] + prod[pos * 4 + 2] + prod[pos * 4 + 3];
    conv_wino_poa(m, y);
    for (int i = 0; i < 4; i++) res[i] = (uint64_t)exp << 38 | ((uint64_t)y[i] & ((1ull << 38) - 1));
}

uint32_t conv_wino_fp16_output(const conv_wino_fp16_src_t *s, uint32_t k, uint32_t oy, uint32_t ox, int zero_weights)
{
    if (zero_weights) return 0; /* no weights: the cell is not enabled (as conv_fp16_output) */
    const uint32_t y0 = oy & ~1u, x0 = ox & ~1u, which = (oy & 1) * 2 + (ox & 1);
    uint64_t acc = 0;
    for (uint32_t b = 0; b * 4 < s->C; b++) { /* CSC: 4-channel blocks, each one cell, in order */
        uint16_t dat[64], wt[64];
        for (uint32_t ch = 0; ch < 4; ch++) {
            const uint32_t c = b * 4 + ch;
            uint16_t d[16], v[16];
            for (uint32_t pos = 0; pos < 16; pos++) {
                d[pos] = s->data(s->ctx, c, y0 + pos / 4, x0 + pos % 4);
                if (s->nan_flush && nan16(d[pos])) d[pos] = 0;
                uint16_t w = s->weight(s->ctx, k, c, pos);
                wt[pos * 4 + ch] = s->nan_flush && nan16(w) ? 0 : w;
            }
            conv_wino_fp16_pra(d, v);
            for (uint32_t pos = 0; pos < 16; pos++) dat[pos * 4 + ch] = v[pos];
        }
        uint64_t res[4];
        conv_wino_fp16_cell(dat, wt, res);
        acc = conv_fp16_acc_add(acc, res[which]);
    }
    return conv_fp16_acc_to_fp32(acc);
}
