/* SDP's Y LUT at INT8/INT16 (sdp_lut.h). */
#include "sdp_lut.h"
#include "nv_lut_select.h"
#include "nvdla_dp_math.h"

enum { SDP = 0x9000, FRAC = 35 /* yLutFracSize: the fraction's bits */ };

void sdp_lut_cfg_write(sdp_lut_t *t, uint32_t data)
{
    t->addr = data & 0x3FF, t->table_lo = (data >> 16) & 1, t->write = (data >> 17) & 1;
}

void sdp_lut_data_write(sdp_lut_t *t, uint32_t data)
{
    if (t->write && t->table_lo && t->addr < SDP_LUT_LO_N) t->lo[t->addr] = (int16_t)(data & 0xFFFF);
    if (t->write && !t->table_lo && t->addr < SDP_LUT_LE_N) t->le[t->addr] = (int16_t)(data & 0xFFFF);
    sdp_lut_data_read(t);
}

void sdp_lut_data_read(sdp_lut_t *t) { t->addr = (t->addr + 1) & 0x3FF; }

sdp_lut_cfg_t sdp_lut_cfg_read(const nvdla_pp_t *sdp)
{
    const uint32_t cfg = nvdla_pp_reg(sdp, SDP + 0x10), info = nvdla_pp_reg(sdp, SDP + 0x14);
    const uint32_t les = nvdla_pp_reg(sdp, SDP + 0x28), lesh = nvdla_pp_reg(sdp, SDP + 0x2c);
    const uint32_t los = nvdla_pp_reg(sdp, SDP + 0x30), losh = nvdla_pp_reg(sdp, SDP + 0x34);
    return (sdp_lut_cfg_t){.le_linear = cfg & 1,
                           .uflow_lo = (cfg >> 4) & 1,
                           .oflow_lo = (cfg >> 5) & 1,
                           .hybrid_lo = (cfg >> 6) & 1,
                           .le_index_offset = (int)nv_sx(info & 0xFF, 8),
                           .le_index_select = (int)nv_sx((info >> 8) & 0xFF, 8),
                           .lo_index_select = (int)nv_sx((info >> 16) & 0xFF, 8),
                           .le_start = nv_sx(nvdla_pp_reg(sdp, SDP + 0x18), 32),
                           .le_end = nv_sx(nvdla_pp_reg(sdp, SDP + 0x1c), 32),
                           .lo_start = nv_sx(nvdla_pp_reg(sdp, SDP + 0x20), 32),
                           .lo_end = nv_sx(nvdla_pp_reg(sdp, SDP + 0x24), 32),
                           .slopes = nv_lut_slopes_decode(les, lesh, los, losh)};
}

const char *sdp_lut_refusal(const sdp_lut_cfg_t *c)
{
    /* cmod masks the fraction with (1ull << select) - 1 and shifts by select - 35: undefined C for a negative
     * select, and a 32-bit signed LE fraction past bit 31; the exponent table's underflow adds 1 << offset, undefined
     * from 32 */
    if ((c->le_linear && (c->le_index_select < 0 || c->le_index_select > 31)) || c->lo_index_select < 0 ||
        c->lo_index_select > 31)
        return "an index select outside 0..31 (cmod's fraction arithmetic is undefined C there)";
    if (!c->le_linear && c->le_index_offset > 31)
        return "an LE exponent index offset above 31 (cmod's underflow bias 1 << offset is undefined C there)";
    return 0;
}

/* A linear table (LE linear, LO always): (x - start) >> select, saturated to 9 bits (IntSignedShiftRightTZ), and
 * the bits shifted out as a 35-bit fraction; x <= start underflows, an index at or past the last entry overflows. */
static nv_lut_state_t linear(int64_t x, int64_t start, int sel, int last, int64_t *idx, int64_t *frac)
{
    if (x <= start) return NV_LUT_UFLOW;
    const uint64_t u = (uint64_t)(x - start); /* < 2^32 */
    const uint64_t i = u >> sel;
    if (i >= (uint64_t)last) return NV_LUT_OFLOW;
    *idx = (int64_t)i, *frac = (int64_t)((u & ((1ull << sel) - 1)) << (FRAC - sel));
    return NV_LUT_HIT;
}

/* The LE exponent table: log2(x - start) (IntLog2) minus the index offset; below the offset underflows. */
static nv_lut_state_t exponent(int64_t x, int64_t start, int offset, int64_t *idx, int64_t *frac)
{
    if (x <= start) return NV_LUT_UFLOW;
    const uint64_t u = (uint64_t)(x - start);
    const int p = 63 - __builtin_clzll(u);
    if (p < offset) return NV_LUT_UFLOW;
    if (p - offset >= SDP_LUT_LE_N - 1) return NV_LUT_OFLOW;
    *idx = p - offset, *frac = (int64_t)((u & ((1ull << p) - 1)) << (FRAC - p));
    return NV_LUT_HIT;
}

/* Outside the table (sdp_y_inp.cpp): y0 + ((x - (start or end + bias)) * scale) >> shift (IntSignedShiftRight:
 * rounding half away from zero, a negative shift shifts left, saturated to 32 bits), saturated to 32 bits. */
static int64_t slope(int64_t y0, int64_t x, int64_t ob, int64_t scale, int shift)
{
    const nv_i128 b = (nv_i128)(x - ob) * scale;
    const nv_i128 c = shift >= 0 ? nv_rshift_round(b, (unsigned)shift) : b * ((nv_i128)1 << -shift);
    const int64_t c32 = c > INT32_MAX ? INT32_MAX : c < INT32_MIN ? INT32_MIN : (int64_t)c;
    return nv_sat(y0 + c32, 32);
}

int64_t sdp_lut_int(const sdp_lut_cfg_t *c, const sdp_lut_t *t, int64_t x, sdp_lut_out_t *out)
{
    int64_t le_i = 0, le_f = 0, lo_i = 0, lo_f = 0;
    const nv_lut_state_t le = c->le_linear ? linear(x, c->le_start, c->le_index_select, SDP_LUT_LE_N - 1, &le_i, &le_f)
                                           : exponent(x, c->le_start, c->le_index_offset, &le_i, &le_f);
    const nv_lut_state_t lo = linear(x, c->lo_start, c->lo_index_select, SDP_LUT_LO_N - 1, &lo_i, &lo_f);
    const bool use_lo = nv_lut_use_lo(le, lo, c->uflow_lo, c->oflow_lo, c->hybrid_lo);
    const nv_lut_state_t s = use_lo ? lo : le;
    const int16_t *tab = use_lo ? t->lo : t->le;
    const int last = use_lo ? SDP_LUT_LO_N - 1 : SDP_LUT_LE_N - 1;
    if (out)
        *out = (sdp_lut_out_t){.le = le,
                               .lo = lo,
                               .use_lo = use_lo,
                               .entry = s == NV_LUT_HIT     ? (unsigned)(use_lo ? lo_i : le_i)
                                        : s == NV_LUT_OFLOW ? (unsigned)last
                                                            : 0};
    if (s == NV_LUT_HIT) { /* (y0 (2^35 - f) + y1 f) >> 35, rounded half away from zero */
        const int64_t i = use_lo ? lo_i : le_i, f = use_lo ? lo_f : le_f;
        const nv_i128 o = (nv_i128)tab[i] * (((nv_i128)1 << FRAC) - f) + (nv_i128)tab[i + 1] * f;
        return (int64_t)nv_rshift_round(o, FRAC);
    }
    if (s == NV_LUT_OFLOW)
        return use_lo ? slope(tab[last], x, c->lo_end, c->slopes.lo_oflow_scale, c->slopes.lo_oflow_shift)
                      : slope(tab[last], x, c->le_end, c->slopes.le_oflow_scale, c->slopes.le_oflow_shift);
    if (use_lo) return slope(tab[0], x, c->lo_start, c->slopes.lo_uflow_scale, c->slopes.lo_uflow_shift);
    /* the exponent table's underflow starts at start + 2^offset (a positive offset) */
    const int64_t bias = !c->le_linear && c->le_index_offset > 0 ? (int64_t)1 << c->le_index_offset : 0;
    return slope(tab[0], x, c->le_start + bias, c->slopes.le_uflow_scale, c->slopes.le_uflow_shift);
}
