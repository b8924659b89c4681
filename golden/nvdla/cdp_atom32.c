/* CDP of a configuration with 32-byte atoms (nv_full), from memory to memory (dp_atom32.h). INT8 is the nv_small
 * model's element arithmetic (cdp_golden.c) over 32 lanes; INT16 follows NVIDIA's cmod, read for its arithmetic
 * (cdp/NV_NVDLA_cdp.cpp lookup_lut with USE_HLS, hls/cdp_libs/cdp_icvt.cpp and cdp_ocvt.cpp), each step with its
 * evidence below; FP16 follows cmod's FP16 path (cdp_fp16.c) but for the channels outside the cube, +0 as nv_full's
 * RTL reads them (CDP_FP16_OUTSIDE, cdp_fp16.h). Refused, by name: an INT16 index select where cmod's
 * own arithmetic is undefined. */
#include "cdp_fp16.h"
#include "cdp_golden.h"
#include "dp_atom32.h"
#include "nv_lut_select.h"
#include "nvdla_dp_math.h"
#include <math.h>
#include <stdlib.h>

enum { RDMA = 0xC000, CDP = 0xD000, LE_LAST = CDP_LE_N - 1, LO_LAST = CDP_LO_N - 1, INTERP_BITS = 56 };

/* cmod's convert(): the value in double, divided by 2^shift, then +-0.5 and truncated (half away from zero), a
 * magnitude of 2^63 or more saturated, then clamped to `bits` signed bits. Done in double as cmod does, so that a
 * value beyond 2^53 rounds as it does there. */
int64_t cdp16_convert(int64_t v, int shift, unsigned bits)
{
    const int64_t hi = (int64_t)((1ull << (bits - 1)) - 1), lo = -hi - 1;
    double f = ldexp((double)v, -shift);
    double r = v > 0 ? f + 0.5 : f - 0.5;
    int64_t out = r >= 9223372036854775807.0 ? INT64_MAX : r <= -9223372036854775808.0 ? INT64_MIN : (int64_t)r;
    return out > hi ? hi : out < lo ? lo : out;
}

/* hls cdp_icvt, INT16: IntSubExt<16,16,17>(in, offset), IntMulExt<17,16,33>(., scale), IntShiftRight<33,5,17>
 * (ac_fixed AC_RND_INF, AC_SAT: round half away from zero, saturate). The offset register is cast to 16 bits. */
int64_t cdp16_icvt(int16_t in, uint32_t offset, uint32_t scale, uint32_t shift)
{
    int64_t d17 = (int64_t)in - nv_sx(offset & 0xFFFF, 16);
    return nv_sat((int64_t)nv_rshift_round((nv_i128)d17 * nv_sx(scale & 0xFFFF, 16), shift & 31), 17);
}

/* hls cdp_ocvt, INT16: the 33-bit product, IntSubExt<33,32,34>(m, offset), IntMulExt<34,16,50>(., scale),
 * IntShiftRightSat<50,6,16>. */
int16_t cdp16_ocvt(int64_t m, uint32_t offset, uint32_t scale, uint32_t shift)
{
    int64_t d = nv_sx(m, 33) - nv_sx(offset, 32);
    return (int16_t)nv_sat((int64_t)nv_rshift_round((nv_i128)d * nv_sx(scale & 0xFFFF, 16), shift & 63), 16);
}

typedef struct lut_out {
    int64_t y;
    bool uflow, oflow, hit;
} lut_out_t;

/* An index select field as cmod reads it: bit 6 the sign, bits [5:0] (cdp_lut_*_index_select_ | 0xFFFFFF80). */
static int frac_bits(uint32_t select) { return (select & 0x40) ? (int)(select | 0xFFFFFF80u) : (int)(select & 0xFF); }

/* One linear table (cmod: raw table when LE_FUNCTION is linear, density table always): the index is
 * (x - start) >> frac (<< -frac when negative); underflow when the index < 0 or x - start <= 0, overflow when it is
 * past the last entry; a hit interpolates with the offset's 16 fraction bits. */
static lut_out_t linear(const int16_t *t, int last, int64_t x, int64_t start, int64_t end, int frac, int64_t us,
                        int ush, int64_t os, int osh)
{
    lut_out_t o = {0};
    int64_t tmp = x - start, idx = frac < 0 ? (int64_t)((uint64_t)tmp << -frac) : tmp >> frac;
    if (idx < 0 || tmp <= 0) {
        o.uflow = true;
        o.y = cdp16_convert(t[0] + cdp16_convert(tmp * us, ush, INTERP_BITS), 0, 16);
    } else if (idx >= last) {
        o.oflow = true;
        o.y = cdp16_convert(t[last] + cdp16_convert((x - end) * os, osh, INTERP_BITS), 0, 16);
    } else {
        o.hit = true;
        int64_t off = frac < 0 ? 0 : tmp % (1ll << frac);
        off = frac > 16 ? off >> (frac - 16) : off << (16 - frac);
        o.y = cdp16_convert(t[idx] + cdp16_convert(((int64_t)t[idx + 1] - t[idx]) * off, 16, INTERP_BITS), 0, 16);
    }
    return o;
}

/* The exponent raw table: index floor(log2(x - start)) - offset. */
static lut_out_t exponent(const cdp_lut_cfg_t *c, const int16_t *t, int64_t x)
{
    lut_out_t o = {0};
    const int off = (int)(int8_t)(c->le_index_offset & 0xFF);
    int64_t tmp = x - c->le_start;
    int log_sum = tmp <= 0 ? 0 : 63 - __builtin_clzll((unsigned long long)tmp);
    int idx = log_sum - off;
    if (idx < 0 || tmp <= 0) {
        o.uflow = true;
        int64_t base = off < 0 ? 0 : 1ll << off;
        o.y = cdp16_convert(
            t[0] + cdp16_convert((tmp - base) * c->slopes.le_uflow_scale, c->slopes.le_uflow_shift, INTERP_BITS), 0,
            16);
    } else if (idx >= LE_LAST) {
        o.oflow = true;
        o.y = cdp16_convert(t[LE_LAST] + cdp16_convert((x - c->le_end) * c->slopes.le_oflow_scale,
                                                       c->slopes.le_oflow_shift, INTERP_BITS),
                            0, 16);
    } else {
        o.hit = true;
        int64_t f = tmp - (1ll << log_sum); /* the part below the leading one, kept to 16 bits */
        f = log_sum > 16 ? f >> (log_sum - 16) : f << (16 - log_sum);
        o.y = cdp16_convert(t[idx] + cdp16_convert(((int64_t)t[idx + 1] - t[idx]) * f, 16, INTERP_BITS), 0, 16);
    }
    return o;
}

int64_t cdp16_lut_lookup(const cdp_lut_cfg_t *c, const cdp_lut_t *t, int64_t x, int *unmodelled)
{
    const int le_frac = frac_bits(c->le_index_select), lo_frac = frac_bits(c->lo_index_select);
    const int off = (int)(int8_t)(c->le_index_offset & 0xFF);
    /* cmod shifts an int by these (1 << frac): beyond 30 its result is undefined, so not modelled */
    *unmodelled = (c->le_linear && (le_frac > 30 || le_frac < -30)) || lo_frac > 30 || lo_frac < -30 ||
                  (!c->le_linear && off > 62);
    if (*unmodelled) return 0;
    lut_out_t le = c->le_linear ? linear(t->le, LE_LAST, x, c->le_start, c->le_end, le_frac, c->slopes.le_uflow_scale,
                                         c->slopes.le_uflow_shift, c->slopes.le_oflow_scale, c->slopes.le_oflow_shift)
                                : exponent(c, t->le, x);
    lut_out_t lo = linear(t->lo, LO_LAST, x, c->lo_start, c->lo_end, lo_frac, c->slopes.lo_uflow_scale,
                          c->slopes.lo_uflow_shift, c->slopes.lo_oflow_scale, c->slopes.lo_oflow_shift);
    if (c->stats) c->stats->le[le.uflow ? 0 : le.hit ? 1 : 2]++, c->stats->lo[lo.uflow ? 0 : lo.hit ? 1 : 2]++;
    const nv_lut_state_t les = le.uflow   ? NV_LUT_UFLOW
                               : le.oflow ? NV_LUT_OFLOW
                                          : NV_LUT_HIT,
                         los = lo.uflow   ? NV_LUT_UFLOW
                               : lo.oflow ? NV_LUT_OFLOW
                                          : NV_LUT_HIT;
    const bool use_lo = nv_lut_use_lo(les, los, c->uflow_lo, c->oflow_lo, c->hybrid_lo); /* cmod's selection */
    return use_lo ? lo.y : le.y;
}

/* CDP at FP16 (cdp_fp16.c), pixel by pixel: each channel from the FP16 values of the four channels on each side, a
 * channel outside the cube (below 0, past the last, pad lanes included) +0 as nv_full's RTL reads it
 * (CDP_FP16_OUTSIDE, cdp_fp16.h; cmod feeds the input offset's 16 bits there, cdp/NV_NVDLA_cdp.cpp:520-640, which its
 * FP16 converter does not subtract). The registers as cmod reads them (:1620-1652): LUT start and end as FP32
 * (their low words), the index offset and selects as signed bytes, the slope scales as FP16. */
static void cdp32_fp16(const nvdla_pp_t *cdp, const cdp_lut_t *lut, const cdp_lut_cfg_t *lc, const cube32_t *in,
                       cube32_t *out)
{
    const uint32_t byp = nvdla_pp_reg(cdp, CDP + 0x4c), info = nvdla_pp_reg(cdp, CDP + 0x14);
    const cdp_fp16_cfg_t c = {.le_exponent = !lc->le_linear,
                              .uflow_lo = lc->uflow_lo,
                              .oflow_lo = lc->oflow_lo,
                              .hybrid_lo = lc->hybrid_lo,
                              .sqsum_bypass = byp & 1,
                              .mul_bypass = (byp >> 1) & 1,
                              .nan_to_zero = nvdla_pp_bits(cdp, CDP + 0x6c, 0, 0),
                              .normalz_len = nvdla_pp_bits(cdp, CDP + 0x70, 1, 0),
                              .le_start = (uint32_t)lc->le_start,
                              .le_end = (uint32_t)lc->le_end,
                              .lo_start = (uint32_t)lc->lo_start,
                              .lo_end = (uint32_t)lc->lo_end,
                              .le_index_offset = (int8_t)(info & 0xFF),
                              .le_index_select = (int8_t)((info >> 8) & 0xFF),
                              .lo_index_select = (int8_t)((info >> 16) & 0xFF),
                              .le_uflow = (uint16_t)lc->slopes.le_uflow_scale,
                              .le_oflow = (uint16_t)lc->slopes.le_oflow_scale,
                              .lo_uflow = (uint16_t)lc->slopes.lo_uflow_scale,
                              .lo_oflow = (uint16_t)lc->slopes.lo_oflow_scale,
                              .datin_offset = (uint16_t)nvdla_pp_reg(cdp, CDP + 0x74),
                              .stats = lc->stats};
    const int n = (int)(in->lanes * in->s);
    for (uint32_t y = 0; y < in->h; y++)
        for (uint32_t x = 0; x < in->w; x++)
            for (int k = 0; k < n; k++) {
                uint16_t win[9];
                for (int d = -4; d <= 4; d++) {
                    int j = k + d;
                    win[4 + d] = j < 0 || j >= (int)in->c ? CDP_FP16_OUTSIDE
                                                          : (uint16_t)cube32_atom(in, (uint32_t)j / in->lanes, y,
                                                                                  x)[(uint32_t)j % in->lanes];
                }
                cube32_atom(out, (uint32_t)k / out->lanes, y, x)[(uint32_t)k % out->lanes] =
                    cdp_fp16_element(&c, lut, win);
            }
}

bool cdp32_run(const nvdla_pp_t *cdp, const nvdla_pp_t *rdma, const cdp_lut_t *lut, const nvdla_dp_ctx_t *ctx,
               int group, cdp_lut_stats_t *stats)
{
    uint32_t w = nvdla_pp_bits(rdma, RDMA + 0x0c, 12, 0) + 1, h = nvdla_pp_bits(rdma, RDMA + 0x10, 12, 0) + 1,
             ch = nvdla_pp_bits(rdma, RDMA + 0x14, 12, 0) + 1;
    /* D_DATA_FORMAT [1:0], CDP_RDMA at 0x34, CDP at 0x68: 0 INT8, 1 INT16, 2 FP16 */
    unsigned prec = nvdla_pp_bits(cdp, CDP + 0x68, 1, 0);
    if (prec != nvdla_pp_bits(rdma, RDMA + 0x34, 1, 0)) {
        nv_dp_error(ctx, "CDP grp %d: CDP and CDP_RDMA data formats differ", group);
        return false;
    }
    const bool fp16 = prec == 2;
    const uint32_t esz = fp16 ? 2 : dp32_esz(ctx, "CDP", group, prec);
    if (!esz) return false;
    place32_t src = {.space = nvdla_pp_bits(rdma, RDMA + 0x28, 0, 0) ? 0 : NVDLA_CV_SPACE,
                     .base = nvdla_pp_reg(rdma, RDMA + 0x18),
                     .line = nvdla_pp_reg(rdma, RDMA + 0x20),
                     .surf = nvdla_pp_reg(rdma, RDMA + 0x24)};
    place32_t dst = {.space = nvdla_pp_bits(cdp, CDP + 0x60, 0, 0) ? 0 : NVDLA_CV_SPACE,
                     .base = nvdla_pp_reg(cdp, CDP + 0x50),
                     .line = nvdla_pp_reg(cdp, CDP + 0x58),
                     .surf = nvdla_pp_reg(cdp, CDP + 0x5c)};
    if (!dp32_aligned(ctx, "CDP_RDMA", group, &src) || !dp32_aligned(ctx, "CDP", group, &dst)) return false;
    const uint32_t byp = nvdla_pp_reg(cdp, CDP + 0x4c);
    const bool sq_byp = byp & 1, mul_byp = (byp >> 1) & 1;
    const int r = (int)nvdla_pp_bits(cdp, CDP + 0x70, 1, 0) + 1; /* NORMALZ_LEN: 3, 5, 7 or 9 channels */
    const uint32_t ioff = nvdla_pp_reg(cdp, CDP + 0x74), isc = nvdla_pp_reg(cdp, CDP + 0x78),
                   ish = nvdla_pp_reg(cdp, CDP + 0x7c), ooff = nvdla_pp_reg(cdp, CDP + 0x80),
                   osc = nvdla_pp_reg(cdp, CDP + 0x84), osh = nvdla_pp_reg(cdp, CDP + 0x88);
    cdp_lut_cfg_t lc = cdp_lut_cfg_read(cdp);
    lc.stats = stats;
    cube32_t in, out;
    if (!cube32_alloc(ctx, "CDP", group, &in, w, h, ch, esz)) return false;
    if (!cube32_alloc(ctx, "CDP", group, &out, w, h, ch, esz)) {
        free(in.v);
        return false;
    }
    cube32_read(ctx, &in, &src);
    if (fp16) {
        cdp32_fp16(cdp, lut, &lc, &in, &out);
        cube32_write(ctx, &out, &dst, "CDP", group);
        free(in.v);
        free(out.v);
        return true;
    }
    const int n = (int)(in.lanes * in.s);
    int64_t *v = malloc(sizeof *v * (size_t)n);
    if (!v) abort();
    bool ok = true;
    for (uint32_t y = 0; y < h && ok; y++)
        for (uint32_t x = 0; x < w && ok; x++) {
            /* channels past the cube (pad lanes too): cmod feeds the converter the input offset, so 0 after it */
            for (int k = 0; k < n; k++) {
                int32_t e = cube32_atom(&in, (uint32_t)k / in.lanes, y, x)[(uint32_t)k % in.lanes];
                v[k] = (uint32_t)k >= ch ? 0
                       : esz == 2        ? cdp16_icvt((int16_t)e, ioff, isc, ish)
                                         : cdp_icvt((int8_t)e, ioff, isc, ish);
            }
            for (int k = 0; k < n && ok; k++) {
                int64_t X = v[k]; /* square sum bypassed: the converted value itself */
                if (!sq_byp) {
                    X = 0;
                    for (int j = k - r; j <= k + r; j++)
                        if (j >= 0 && j < n) X += v[j] * v[j];
                }
                int unmodelled = 0;
                int64_t yv = esz == 2 ? cdp16_lut_lookup(&lc, lut, X, &unmodelled) : cdp_lut_lookup(&lc, lut, X);
                if (unmodelled) {
                    nv_dp_error(ctx,
                                "CDP grp %d: a LUT index select or offset beyond 30 (LUT_INFO 0x%x): cmod's arithmetic "
                                "is undefined there, not modelled",
                                group, nvdla_pp_reg(cdp, CDP + 0x14));
                    ok = false;
                    break;
                }
                int64_t m = mul_byp ? yv : yv * v[k];
                cube32_atom(&out, (uint32_t)k / out.lanes, y, x)[(uint32_t)k % out.lanes] =
                    esz == 2 ? cdp16_ocvt(m, ooff, osc, osh) : cdp_ocvt(m, ooff, osc, osh);
            }
        }
    free(v);
    if (ok) cube32_write(ctx, &out, &dst, "CDP", group);
    free(in.v);
    free(out.v);
    return ok;
}
