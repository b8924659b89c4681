/* CDP at FP16 (cdp_fp16.h), each step as cmod's hls_wrapper/cdp_hls_wrapper.cpp does it (line numbers of that
 * file): HLS_CDP_lookup_fp16 (:411) for the input and the square sum, HLS_CDP_lookup_lut (:170) for each table. The
 * index arithmetic is cmod's host float and double arithmetic (a float divided by pow(2, select) in double, then
 * rounded to float), which C11 on the same IEEE types reproduces; nv_full's RTL computes the same steps, the linear
 * index as a fixed-point shift of the FP32 difference with 16 truncated fraction bits, which equals it since the
 * division by a power of two is exact (NV_NVDLA_CDP_DP_LUT_CTRL_unit.v:2081-2127; docs/nvdla_nv_full.md, "CDP at
 * FP16"). Not modelled: a denormal difference (below 2^-126), which the RTL reads with an implicit 1 (:2087). */
#include "cdp_fp16.h"
#include "nvdla_fp16.h"
#include <math.h>
#include <string.h>

enum { LE_UPPER = 64, LO_UPPER = 256 };

static float as_float(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}
static uint32_t as_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}
static bool nan16(uint32_t v) { return ((v >> 10) & 0x1F) == 0x1F && (v & 0x3FF); }

typedef struct lut_out {
    uint32_t y; /* FP17 */
    bool uflow, oflow, hit;
} lut_out_t;

/* HLS_CDP_lookup_lut (:170-408). */
static lut_out_t lookup(uint32_t sum, const int16_t *lut, int upper, bool exp_mode, uint32_t start, uint32_t end,
                        uint16_t uflow_scale, uint16_t oflow_scale, int index_offset, int index_select)
{
    lut_out_t o = {0};
    const uint32_t sub = nv_fp32_sub(sum, start);
    const float f = as_float(sub);
    int index = 0;
    uint16_t offset = 0;
    o.uflow = f <= 0 || isnan(f); /* :251 */
    if (!o.uflow && exp_mode) {   /* :257-279: the exponent of the difference, its next 16 bits the fraction */
        index = (int)((sub >> 23) & 0xFF) - 127 - index_offset;
        offset = (uint16_t)((sub >> 7) & 0xFFFF);
        if (index < 0) o.uflow = true; /* (cmod also shifts the fraction, which an underflow does not use) */
        else if (index >= upper) o.oflow = true;
    } else if (!o.uflow) { /* :281-292 */
        double scaled = index_select >= 0 ? (double)f / pow(2, index_select) : (double)f * pow(2, -index_select);
        float shifted = (float)scaled;
        o.oflow = shifted >= upper;
        if (!o.oflow) { /* (cmod converts an overflowing value too, unused then, and undefined in C) */
            index = (int)shifted;
            offset = (uint16_t)((shifted - (float)index) * 0x10000);
        }
    }
    if (o.uflow) { /* :305-348: the first entry plus the slope times the distance below the start */
        uint32_t d = sub;
        if (exp_mode) { /* the distance from start + 2^offset (:319-341) */
            float base = index_offset <= -127 ? 0 : (float)pow(2, index_offset);
            d = nv_fp32_sub(sum, nv_fp32_add(start, as_bits(base)));
        }
        o.y = nv_fp17_add(nv_fp17_mul(nv_fp32_to_fp17(d), nv_fp16_to_fp17(uflow_scale)),
                          nv_fp16_to_fp17((uint16_t)lut[0]));
    } else if (o.oflow) { /* :349-371: the last entry plus the slope times the distance past the end */
        o.y = nv_fp17_add(nv_fp17_mul(nv_fp32_to_fp17(nv_fp32_sub(sum, end)), nv_fp16_to_fp17(oflow_scale)),
                          nv_fp16_to_fp17((uint16_t)lut[upper]));
    } else { /* :372-398: L0 + (L1 - L0) x fraction, the difference in FP32 */
        uint32_t l0 = (uint16_t)lut[index], l1 = (uint16_t)lut[index + 1];
        uint32_t diff = nv_fp32_to_fp17(nv_fp32_sub(nv_fp16_to_fp32(l1), nv_fp16_to_fp32(l0)));
        o.y = nv_fp17_add(nv_fp17_mul(diff, nv_uint16_to_fp17(offset)), nv_fp16_to_fp17(l0));
        o.hit = true;
    }
    return o;
}

uint16_t cdp_fp16_element(const cdp_fp16_cfg_t *c, const cdp_lut_t *t, const uint16_t win[9])
{
    uint32_t x17[9], x32[9], sq[9];
    for (int i = 0; i < 9; i++) {
        uint32_t v = win[i];
        if (c->nan_to_zero && nan16(v)) v = 0; /* cdp/NV_NVDLA_cdp.cpp:677-682 */
        x17[i] = nv_fp16_to_fp17(v);           /* cdp_icvt.cpp: Fp16ToFp17, no offset or scale */
        x32[i] = nv_fp17_to_fp32(x17[i]);      /* :514 */
        sq[i] = c->sqsum_bypass ? x32[i] : nv_fp32_mul(x32[i], x32[i]);
    }
    uint32_t sum = sq[4]; /* :560-600: (k-1 + k+1) + k, then + (k-2 + k+2), + (k-3 + k+3), + (k-4 + k+4) */
    if (!c->sqsum_bypass) {
        sum = nv_fp32_add(nv_fp32_add(sq[3], sq[5]), sq[4]);
        for (unsigned d = 2; d <= c->normalz_len + 1; d++) sum = nv_fp32_add(sum, nv_fp32_add(sq[4 - d], sq[4 + d]));
    }
    lut_out_t le = lookup(sum, t->le, LE_UPPER, c->le_exponent, c->le_start, c->le_end, c->le_uflow, c->le_oflow,
                          c->le_index_offset, c->le_index_select);
    lut_out_t lo =
        lookup(sum, t->lo, LO_UPPER, false, c->lo_start, c->lo_end, c->lo_uflow, c->lo_oflow, 0, c->lo_index_select);
    if (c->stats) c->stats->le[le.uflow ? 0 : le.hit ? 1 : 2]++, c->stats->lo[lo.uflow ? 0 : lo.hit ? 1 : 2]++;
    /* :626-655, as at INT16: both under (over): that priority; one hit: it; else the hybrid priority (1: LO) */
    bool use_lo = le.uflow && lo.uflow   ? c->uflow_lo
                  : le.oflow && lo.oflow ? c->oflow_lo
                  : le.hit != lo.hit     ? lo.hit
                                         : c->hybrid_lo;
    uint32_t y = use_lo ? lo.y : le.y;
    if (c->mul_bypass) y = isnan(as_float(x32[4])) ? x17[4] : y; /* :657-680: a NaN input passes */
    else y = nv_fp17_mul(x17[4], y);
    return (uint16_t)nv_fp17_to_fp16(y); /* cdp_ocvt.cpp: Fp17ToFp16, no offset or scale */
}
