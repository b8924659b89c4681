/* SDP's Y LUT at FP16 (sdp_lut_fp16.h). */
#include "sdp_lut_fp16.h"
#include "nv_lut_select.h"
#include "nvdla_fp16.h"

enum { FRAC = 35 /* yLutFracSize */ };
#define FRAC_MASK ((1ull << FRAC) - 1)

/* x - start (FpSub on FP32): its exponent and mantissa when positive, or false (sign set, zero or NaN: underflow;
 * sdp_y_idx.cpp tests these three before anything else, so an Inf difference goes on as a number). */
static bool difference(uint32_t x, uint32_t start, uint32_t *e, uint32_t *m)
{
    const uint32_t d = nv_fp32_sub(x, start);
    *e = (d >> 23) & 0xFF, *m = d & 0x7FFFFF;
    return !(d >> 31) && !(*e == 0 && *m == 0) && !(*e == 0xFF && *m);
}

/* A linear table: FpFloatToIntFrac<8, 23, 8, 9, 35>(x - start, select). The unbiased exponent wraps at 8 signed bits
 * (an Inf's 128 reads as -128), the mantissa always has its implied 1; the integer saturates at 511 (9 bits), the
 * fraction is the 35 bits below the binary point. At or past the last entry it overflows. */
static nv_lut_state_t linear(uint32_t x, uint32_t start, int sel, unsigned last, unsigned *idx, uint64_t *frac)
{
    uint32_t e, m;
    if (!difference(x, start, &e, &m)) return NV_LUT_UFLOW;
    const int abs_expo = (int)(int8_t)(uint8_t)(e - 127), lshift = abs_expo - sel - 23; /* -278..232 */
    const uint64_t p1 = m | 1u << 23;
    uint64_t i = 511, f = 0;
    if (lshift < 0) {
        i = -lshift >= 24 ? 0 : p1 >> -lshift;
        if (i > 511) i = 511;
        const int s = FRAC + lshift;
        f = s >= 0 ? (p1 << s) & FRAC_MASK : -s >= 24 ? 0 : p1 >> -s;
    }
    if (i >= last) return NV_LUT_OFLOW;
    *idx = (unsigned)i, *frac = f;
    return NV_LUT_HIT;
}

/* The LE exponent table: the difference's unbiased exponent minus the offset; its mantissa the fraction. */
static nv_lut_state_t exponent(uint32_t x, uint32_t start, int offset, unsigned *idx, uint64_t *frac)
{
    uint32_t e, m;
    if (!difference(x, start, &e, &m)) return NV_LUT_UFLOW;
    const int se = (int)e - 127;
    if (se < offset) return NV_LUT_UFLOW;
    if (se - offset >= SDP_LUT_LE_N - 1) return NV_LUT_OFLOW;
    *idx = (unsigned)(se - offset), *frac = (uint64_t)m << (FRAC - 23);
    return NV_LUT_HIT;
}

/* Outside the table: y0 + (x - (offset + bias)) * scale, sdp_y_inp.cpp's FP16 branch in its order. */
static uint32_t slope(uint16_t y0, uint32_t x, uint32_t offset, uint32_t bias, uint16_t scale)
{
    const uint32_t a = nv_fp32_to_fp17(nv_fp32_sub(x, nv_fp32_add(offset, bias)));
    return nv_fp17_to_fp32(nv_fp17_add(nv_fp16_to_fp17(y0), nv_fp17_mul(a, nv_fp16_to_fp17(scale))));
}

/* 2^offset as the host's float (pow(2.0, offset) made float): a denormal below 2^-126. */
static uint32_t pow2_fp32(int k) { return k >= -126 ? (uint32_t)(k + 127) << 23 : 1u << (k + 149); }

uint32_t sdp_lut_fp16(const sdp_lut_cfg_t *c, const sdp_lut_t *t, uint32_t x, sdp_lut_out_t *out)
{
    unsigned le_i = 0, lo_i = 0;
    uint64_t le_f = 0, lo_f = 0;
    const uint32_t le_start = (uint32_t)c->le_start, lo_start = (uint32_t)c->lo_start;
    const nv_lut_state_t le = c->le_linear ? linear(x, le_start, c->le_index_select, SDP_LUT_LE_N - 1, &le_i, &le_f)
                                           : exponent(x, le_start, c->le_index_offset, &le_i, &le_f);
    const nv_lut_state_t lo = linear(x, lo_start, c->lo_index_select, SDP_LUT_LO_N - 1, &lo_i, &lo_f);
    const bool use_lo = nv_lut_use_lo(le, lo, c->uflow_lo, c->oflow_lo, c->hybrid_lo);
    const nv_lut_state_t s = use_lo ? lo : le;
    const int16_t *tab = use_lo ? t->lo : t->le;
    const unsigned last = use_lo ? SDP_LUT_LO_N - 1 : SDP_LUT_LE_N - 1;
    const unsigned entry = s == NV_LUT_HIT ? (use_lo ? lo_i : le_i) : s == NV_LUT_OFLOW ? last : 0;
    if (out) *out = (sdp_lut_out_t){.le = le, .lo = lo, .use_lo = use_lo, .entry = entry};
    const uint16_t y0 = (uint16_t)tab[entry];
    if (s == NV_LUT_HIT) {
        const uint64_t f = use_lo ? lo_f : le_f;
        const uint32_t a0 = f ? nv_frac_to_fp17((1ull << FRAC) - f, FRAC) : 0x7C00 /* 1.0 */,
                       a1 = nv_frac_to_fp17(f, FRAC);
        return nv_fp17_to_fp32(nv_fp17_add(nv_fp17_mul(a0, nv_fp16_to_fp17(y0)),
                                           nv_fp17_mul(a1, nv_fp16_to_fp17((uint16_t)tab[entry + 1]))));
    }
    if (s == NV_LUT_OFLOW)
        return use_lo ? slope(y0, x, (uint32_t)c->lo_end, 0, (uint16_t)c->slopes.lo_oflow_scale)
                      : slope(y0, x, (uint32_t)c->le_end, 0, (uint16_t)c->slopes.le_oflow_scale);
    if (use_lo) return slope(y0, x, lo_start, 0, (uint16_t)c->slopes.lo_uflow_scale);
    return slope(y0, x, le_start, c->le_linear ? 0 : pow2_fp32(c->le_index_offset), (uint16_t)c->slopes.le_uflow_scale);
}
