/* sdp_random_lut_fp16's LUT draw (nvf_sdplut_gen.h: nvf_sdplut_draw_fp16). The INT draw's layouts (nvf_sdplut_gen.c:
 * the tables overlapping, apart either way round, or anywhere) in FP32: the starts FP32 values placed against the
 * finite values that reach the LUT, a linear table's select the power of two that makes its entries cover about its
 * share of them (any signed byte at FP16: a negative one makes entries finer than 1), the exponent table's offset
 * near the span's exponent (values below start + 2^offset underflow) or 64 below it (overflows); the ends FP32 near
 * the true ends or any finite value; the slope scales and the entries FP16, moderate, with corners (0, denormals,
 * Inf, NaN, 65504) in a share; the shifts (unused at FP16) anything. */
#ifndef NV_FULL_ABSENT
#include "nvdla_fp16.h"
#include "nvf_gen.h"
#include "nvf_sdplut_gen.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static int clamp8(int v) { return v < -128 ? -128 : v > 127 ? 127 : v; }

/* The select that makes n entries cover about span: 2^select * n ~ span, give or take a factor of 2. */
static int select_for(rng_t *r, float span, unsigned n)
{
    return clamp8((int)floorf(log2f(span / (float)n)) + (int)rng_range(r, 0, 2) - 1);
}

/* A table: a noisy ramp of FP16 values (LO's four times finer), or FP16 values with corners. */
static void table(rng_t *r, int16_t *t, unsigned n, bool lo)
{
    static const nvf_fp16_mix_t corners = {20, -6, 6};
    const bool any = rng_chance(r, 25);
    const float base = (float)((int)rng_range(r, 0, 800) - 400) / 100.0f,
                step = (float)((int)rng_range(r, 0, 200) - 100) / 400.0f;
    for (unsigned i = 0; i < n; i++) {
        const float v = base + step * (float)i / (lo ? 4.0f : 1.0f) + (float)rng_range(r, 0, 100) / 1000.0f;
        t[i] = (int16_t)(any ? nvf_fp16_value(r, &corners) : nv_fp32_to_fp16(fbits(v)));
    }
}

/* A slope's scale: FP16 mostly 1/16 .. 4 of either sign, else with corners. */
static int64_t scale16(rng_t *r)
{
    static const nvf_fp16_mix_t mod = {0, -4, 2}, corners = {30, -8, 8};
    return rng_chance(r, 75) ? nvf_fp16_value(r, &mod) : nvf_fp16_value(r, &corners);
}

/* Any finite FP32 of moderate size, either sign. */
static uint32_t any_fp32(rng_t *r) { return (rng_next(r) & 0x807FFFFFu) | rng_range(r, 100, 160) << 23; }

void nvf_sdplut_draw_fp16(rng_t *r, dp_wlist_t *l, float lo, float hi, nvf_sdplut_t *o)
{
    sdp_lut_cfg_t *c = &o->cfg;
    *c = (sdp_lut_cfg_t){.le_linear = rng_chance(r, 50),
                         .uflow_lo = rng_chance(r, 50),
                         .oflow_lo = rng_chance(r, 50),
                         .hybrid_lo = rng_chance(r, 50)};
    if (lo > hi) lo = -1.0f, hi = 1.0f;
    float span = hi - lo;
    if (!(span > 0.0f) || !isfinite(span)) span = fabsf(hi) > 1.0f && isfinite(hi) ? fabsf(hi) : 1.0f;
    const unsigned layout = rng_below(r, 5); /* 0, 1 overlapping; 2 LE above LO; 3 LO above LE; 4 any */
    const float q = span / 4.0f, u1 = (float)rng_below(r, 1000) / 1000.0f, u2 = (float)rng_below(r, 1000) / 1000.0f;
    float le_at = lo - q + 3.0f * q * u1, lo_at = lo - q + 3.0f * q * u2;
    const float part = span / (layout >= 2 && layout < 4 ? 3.0f : 1.0f);
    if (layout == 2) le_at = lo + 2.0f * span / 3.0f;
    if (layout == 3) le_at = lo, lo_at = lo + 2.0f * span / 3.0f;
    c->le_index_select = select_for(r, part, 64), c->lo_index_select = select_for(r, part, 256);
    /* apart: the lower table ends a third of the way up, the upper one starts at two thirds (a gap between) */
    if (layout == 2) lo_at = lo + span / 3.0f - ldexpf(256.0f, c->lo_index_select);
    if (layout == 3 && c->le_linear) le_at = lo + span / 3.0f - ldexpf(64.0f, c->le_index_select);
    if (!c->le_linear) { /* exponent: hits from start + 2^offset; overflows from 2^(64 + offset) above start */
        const int P = (int)floorf(log2f(span));
        c->le_index_offset = clamp8(rng_chance(r, 60) ? P - (int)rng_range(r, 0, 8) : P - 63 - (int)rng_range(r, 0, 3));
        c->le_index_select = (int)rng_range(r, 0, 255) - 128; /* unused by the exponent table */
    }
    uint32_t le_bits = fbits(le_at), lo_bits = fbits(lo_at);
    if (layout == 4) {
        le_bits = any_fp32(r), lo_bits = any_fp32(r);
        c->lo_index_select = (int)rng_range(r, 0, 255) - 128;
        if (c->le_linear) c->le_index_select = (int)rng_range(r, 0, 255) - 128;
        else c->le_index_offset = (int)rng_range(r, 0, 255) - 128;
    }
    c->le_start = (int32_t)le_bits, c->lo_start = (int32_t)lo_bits;
    /* the ends: where the tables end (registers the slopes start from: drawn near the true end, or anything) */
    float le_start, lo_start;
    memcpy(&le_start, &le_bits, 4), memcpy(&lo_start, &lo_bits, 4);
    const float le_end = le_start + (c->le_linear
                                         ? ldexpf(64.0f, c->le_index_select)
                                         : ldexpf(1.0f, c->le_index_offset + 64 > 120 ? 120 : c->le_index_offset + 64)),
                lo_end = lo_start + ldexpf(256.0f, c->lo_index_select);
    c->le_end = (int32_t)(rng_chance(r, 80) && isfinite(le_end) ? fbits(le_end) : any_fp32(r));
    c->lo_end = (int32_t)(rng_chance(r, 80) && isfinite(lo_end) ? fbits(lo_end) : any_fp32(r));
    c->slopes.le_uflow_scale = scale16(r), c->slopes.le_oflow_scale = scale16(r);
    c->slopes.lo_uflow_scale = scale16(r), c->slopes.lo_oflow_scale = scale16(r);
    c->slopes.le_uflow_shift = (int)rng_range(r, 0, 31) - 16, c->slopes.le_oflow_shift = (int)rng_range(r, 0, 31) - 16;
    c->slopes.lo_uflow_shift = (int)rng_range(r, 0, 31) - 16, c->slopes.lo_oflow_shift = (int)rng_range(r, 0, 31) - 16;
    table(r, o->tab.le, SDP_LUT_LE_N, false);
    table(r, o->tab.lo, SDP_LUT_LO_N, true);
    nvf_sdplut_put(l, c);
    static const char *const lay[] = {"ovl", "ovl", "leabove", "loabove", "any"};
    snprintf(o->tag, sizeof o->tag, ".lut_%s_%s.p%d%d%d", c->le_linear ? "lin" : "exp", lay[layout], c->uflow_lo,
             c->oflow_lo, c->hybrid_lo);
}
#endif
