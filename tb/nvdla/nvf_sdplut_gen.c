/* sdp_random_lut's LUT draw (nvf_sdplut_gen.h). Every outcome of a lookup needs the tables placed against the
 * values that reach them: LE and LO overlapping (both hit, one hits, both under, both over) or apart with a gap
 * between them (one under and the other over: the hybrid priority's second case), the LE table linear or exponent
 * (an offset above 0 underflows below start + 2^offset; one far below 0 overflows early), every priority bit,
 * the slopes outside the tables small or any 16 bits with shifts both ways. Table entries a noisy ramp or any 16
 * bits. A fifth of the draws ignore the values (any start, any select the model computes). Registers as NVIDIA's
 * firmware programs them (kmd/firmware/common.c update_lut: S_LUT_ACCESS_CFG with the table and WRITE, then the
 * entries in order, LE then LO; S_LUT_CFG, S_LUT_INFO, the starts, ends and slopes), and the table writes also in the
 * other ways the RTL's store takes (write_table below). */
#ifndef NV_FULL_ABSENT
#include "nvf_sdplut_gen.h"
#include "nv_full_regs.h"
#include <stdio.h>

enum { ACCESS_WRITE = 1u << 17, TABLE_LO = 1u << 16 };

static int log2_floor(uint64_t v) { return v ? 63 - __builtin_clzll(v) : 0; }

/* The select that makes n entries cover about `span` values (0..26: the model computes 0..31). */
static int select_for(rng_t *r, int64_t span, unsigned n)
{
    int s = log2_floor((uint64_t)(span > 0 ? span : 1)) - log2_floor(n) + (int)rng_range(r, 0, 2) - 1;
    return s < 0 ? 0 : s > 26 ? 26 : s;
}

/* A table: a noisy ramp (LO's four times finer) or any 16 bits. */
static void table(rng_t *r, int16_t *t, unsigned n, bool lo)
{
    const bool any = rng_chance(r, 40);
    const int32_t base = (int32_t)rng_range(r, 0, 4000) - 2000, step = (int32_t)rng_range(r, 0, 400) - 200;
    for (unsigned i = 0; i < n; i++) {
        int32_t v = any ? (int16_t)rng_next(r) : base + step * (int32_t)i / (lo ? 4 : 1) + (int32_t)rng_range(r, 0, 40);
        t[i] = (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
    }
}

/* One table through S_LUT_ACCESS_CFG/DATA, in one of the ways the RTL's store takes (NV_NVDLA_SDP_reg.v: a 10-bit
 * pointer that every data access advances, past the table and wrapping; a write stores only with ACCESS_TYPE write
 * inside the table): plainly from entry 0 (60 %); after 1-3 data writes under ACCESS_TYPE read (stored nowhere); or
 * from 1021-1023, the first writes dropped and the pointer wrapping to entry 0 without a new CFG. Then 0-2 writes past
 * the end (dropped). Bits [31:16] of every data word are junk (the RTL keeps [15:0]). bad: the entry written with
 * bit 15 flipped, or -1. */
static void write_table(program_t *p, rng_t *r, const int16_t *t, int n, uint32_t table, int bad)
{
    const unsigned way = rng_chance(r, 60) ? 0 : rng_chance(r, 50) ? 1 : 2, k = rng_range(r, 1, 3);
    if (way == 1) {
        prog_write(p, NVDLA_SDP_S_LUT_ACCESS_CFG_0, table | rng_below(r, (unsigned)n)); /* read type: nothing stored */
        for (unsigned i = 0; i < k; i++) prog_write(p, NVDLA_SDP_S_LUT_ACCESS_DATA_0, (uint32_t)rng_next(r));
    }
    prog_write(p, NVDLA_SDP_S_LUT_ACCESS_CFG_0, ACCESS_WRITE | table | (way == 2 ? 1024 - k : 0));
    if (way == 2)
        for (unsigned i = 0; i < k; i++) prog_write(p, NVDLA_SDP_S_LUT_ACCESS_DATA_0, (uint32_t)rng_next(r));
    for (int i = 0; i < n; i++)
        prog_write(p, NVDLA_SDP_S_LUT_ACCESS_DATA_0,
                   ((uint32_t)(uint16_t)t[i] ^ (i == bad ? 0x8000u : 0)) | (dp_junk(r) & 0xFFFF0000u));
    for (unsigned i = rng_below(r, 3); i > 0; i--) prog_write(p, NVDLA_SDP_S_LUT_ACCESS_DATA_0, (uint32_t)rng_next(r));
}

void nvf_sdplut_write(program_t *p, rng_t *r, const nvf_sdplut_t *l, int corrupt)
{
    const bool lo_first = rng_chance(r, 50);
    for (int k = 0; k < 2; k++)
        if ((k == 0) != lo_first) write_table(p, r, l->tab.le, SDP_LUT_LE_N, 0, corrupt);
        else write_table(p, r, l->tab.lo, SDP_LUT_LO_N, TABLE_LO, corrupt - SDP_LUT_LE_N);
}

/* A slope's shift: mostly small (-2..4: the slope's value stays visible), else any of the 5-bit field's -16..15. */
static int shift5(rng_t *r) { return rng_chance(r, 60) ? (int)rng_range(r, 0, 6) - 2 : (int)rng_range(r, 0, 31) - 16; }

static int64_t scale16(rng_t *r)
{
    return rng_chance(r, 60) ? (int64_t)rng_range(r, 0, 64) - 32 : (int16_t)rng_next(r);
}

/* The S_LUT_* registers of c (the same fields at every precision: at FP16 the starts and ends are FP32 bits, the
 * scales FP16 bits). */
void nvf_sdplut_put(dp_wlist_t *l, const sdp_lut_cfg_t *c)
{
    dp_put(l, NVDLA_SDP_S_LUT_CFG_0,
           (uint32_t)c->le_linear | (uint32_t)c->uflow_lo << 4 | (uint32_t)c->oflow_lo << 5 |
               (uint32_t)c->hybrid_lo << 6);
    dp_put(l, NVDLA_SDP_S_LUT_INFO_0,
           ((uint32_t)c->le_index_offset & 0xFF) | ((uint32_t)c->le_index_select & 0xFF) << 8 |
               ((uint32_t)c->lo_index_select & 0xFF) << 16);
    dp_put(l, NVDLA_SDP_S_LUT_LE_START_0, (uint32_t)c->le_start),
        dp_put(l, NVDLA_SDP_S_LUT_LE_END_0, (uint32_t)c->le_end);
    dp_put(l, NVDLA_SDP_S_LUT_LO_START_0, (uint32_t)c->lo_start),
        dp_put(l, NVDLA_SDP_S_LUT_LO_END_0, (uint32_t)c->lo_end);
    dp_put(l, NVDLA_SDP_S_LUT_LE_SLOPE_SCALE_0,
           ((uint32_t)c->slopes.le_uflow_scale & 0xFFFF) | ((uint32_t)c->slopes.le_oflow_scale & 0xFFFF) << 16);
    dp_put(l, NVDLA_SDP_S_LUT_LE_SLOPE_SHIFT_0,
           ((uint32_t)c->slopes.le_uflow_shift & 31) | ((uint32_t)c->slopes.le_oflow_shift & 31) << 5);
    dp_put(l, NVDLA_SDP_S_LUT_LO_SLOPE_SCALE_0,
           ((uint32_t)c->slopes.lo_uflow_scale & 0xFFFF) | ((uint32_t)c->slopes.lo_oflow_scale & 0xFFFF) << 16);
    dp_put(l, NVDLA_SDP_S_LUT_LO_SLOPE_SHIFT_0,
           ((uint32_t)c->slopes.lo_uflow_shift & 31) | ((uint32_t)c->slopes.lo_oflow_shift & 31) << 5);
}

void nvf_sdplut_draw(rng_t *r, dp_wlist_t *l, int64_t lo, int64_t hi, nvf_sdplut_t *o)
{
    sdp_lut_cfg_t *c = &o->cfg;
    *c = (sdp_lut_cfg_t){.le_linear = rng_chance(r, 50),
                         .uflow_lo = rng_chance(r, 50),
                         .oflow_lo = rng_chance(r, 50),
                         .hybrid_lo = rng_chance(r, 50)};
    const int64_t span = hi - lo + 1;
    const unsigned layout = rng_below(r, 5); /* 0, 1 overlapping; 2 LE above LO; 3 LO above LE; 4 any */
    const int64_t q = span / 4 + 1;
    int64_t le_at = lo - q + (int64_t)rng_below(r, (uint32_t)(3 * q < 0xFFFFFFF ? 3 * q : 0xFFFFFFF));
    int64_t lo_at = lo - q + (int64_t)rng_below(r, (uint32_t)(3 * q < 0xFFFFFFF ? 3 * q : 0xFFFFFFF));
    int64_t le_span = span / (layout >= 2 ? 3 : 1), lo_span = le_span;
    if (layout == 2) le_at = lo + 2 * span / 3;
    if (layout == 3) le_at = lo, lo_at = lo + 2 * span / 3;
    c->le_index_select = select_for(r, le_span, 64), c->lo_index_select = select_for(r, lo_span, 256);
    /* apart: the lower table ends a third of the way up, the upper one starts at two thirds (a gap between) */
    if (layout == 2) lo_at = lo + span / 3 - ((int64_t)256 << c->lo_index_select);
    if (layout == 3 && c->le_linear) le_at = lo + span / 3 - ((int64_t)64 << c->le_index_select);
    if (!c->le_linear) { /* exponent: hits from start + 2^offset; overflows from 2^(64 + offset) above start */
        const int P = log2_floor((uint64_t)(span > 0 ? span : 1));
        c->le_index_offset = rng_chance(r, 50) ? (int)rng_range(r, P > 3 ? (uint32_t)P / 2 : 1, P > 1 ? (uint32_t)P : 1)
                                               : P - 63 - (int)rng_range(r, 0, 4);
        c->le_index_select = (int)rng_range(r, 0, 255) - 128; /* unused by the exponent table */
    }
    if (layout == 4) {
        le_at = (int32_t)rng_next(r) >> rng_below(r, 32), lo_at = (int32_t)rng_next(r) >> rng_below(r, 32);
        c->lo_index_select = (int)rng_below(r, 32);
        if (c->le_linear) c->le_index_select = (int)rng_below(r, 32);
        else c->le_index_offset = (int)rng_range(r, 0, 159) - 128;
    }
    c->le_start = le_at < INT32_MIN ? INT32_MIN : le_at > INT32_MAX ? INT32_MAX : le_at;
    c->lo_start = lo_at < INT32_MIN ? INT32_MIN : lo_at > INT32_MAX ? INT32_MAX : lo_at;
    /* the ends: where the tables end (the RTL takes them as registers: drawn near the true end, or anything) */
    const int64_t le_len = c->le_linear ? (int64_t)64 << c->le_index_select
                                        : (int64_t)1 << (c->le_index_offset + 64 > 40  ? 40
                                                         : c->le_index_offset + 64 < 0 ? 0
                                                                                       : c->le_index_offset + 64);
    const int64_t le_end = c->le_start + le_len, lo_end = c->lo_start + ((int64_t)256 << c->lo_index_select);
    c->le_end = rng_chance(r, 80) ? (le_end > INT32_MAX ? INT32_MAX : le_end) : (int32_t)rng_next(r);
    c->lo_end = rng_chance(r, 80) ? (lo_end > INT32_MAX ? INT32_MAX : lo_end) : (int32_t)rng_next(r);
    c->slopes.le_uflow_scale = scale16(r), c->slopes.le_oflow_scale = scale16(r);
    c->slopes.lo_uflow_scale = scale16(r), c->slopes.lo_oflow_scale = scale16(r);
    c->slopes.le_uflow_shift = shift5(r), c->slopes.le_oflow_shift = shift5(r);
    c->slopes.lo_uflow_shift = shift5(r), c->slopes.lo_oflow_shift = shift5(r);
    table(r, o->tab.le, SDP_LUT_LE_N, false);
    table(r, o->tab.lo, SDP_LUT_LO_N, true);
    nvf_sdplut_put(l, c);
    static const char *const lay[] = {"ovl", "ovl", "leabove", "loabove", "any"};
    snprintf(o->tag, sizeof o->tag, ".lut_%s_%s.p%d%d%d", c->le_linear ? "lin" : "exp", lay[layout], c->uflow_lo,
             c->oflow_lo, c->hybrid_lo);
}
#endif
