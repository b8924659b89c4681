/* CDP (+CDP_RDMA) golden model, nv_small INT8 (spec nvdla_datapath.md §4): input converter, LRN square
 * sum across channels, LE/LO lookup tables with their index arithmetic, interpolation, multiplier and
 * output converter. The LUT contents and S_LUT_* settings are shared by both groups. */
#ifndef CDP_GOLDEN_H
#define CDP_GOLDEN_H
#include "nv_lut_slopes.h"
#include "nvdla_dp.h"
#include <stdbool.h>
#include <stdint.h>

#define CDP_LE_N 65
#define CDP_LO_N 257

typedef struct cdp_lut {
    int16_t le[CDP_LE_N], lo[CDP_LO_N];
    uint32_t addr; /* LUT access pointer */
    bool table_lo, write_access;
} cdp_lut_t;

/* S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA writes (§4.1 LUT programming). */
void cdp_lut_cfg_write(cdp_lut_t *t, uint32_t data);
void cdp_lut_data_write(cdp_lut_t *t, uint32_t data);

/* How the lookups of a layer went, per table: [0] underflow, [1] hit, [2] overflow (functional coverage of nv_full's
 * CDP; counted only when cdp_lut_cfg_t.stats is set). */
typedef struct cdp_lut_stats {
    uint64_t le[3], lo[3];
} cdp_lut_stats_t;

/* The LUT settings of S_LUT_CFG .. S_LUT_LO_SLOPE_SHIFT. */
typedef struct cdp_lut_cfg {
    bool le_linear, uflow_lo, oflow_lo, hybrid_lo;
    uint32_t le_index_offset, le_index_select, lo_index_select;
    int64_t le_start, le_end, lo_start, lo_end; /* SX_38 */
    uint32_t le_start22, lo_start22;            /* bits [21:0] for the index path */
    nv_lut_slopes_t slopes;                     /* S_LUT_{LE,LO}_SLOPE_{SCALE,SHIFT}: SX_16 scales, SX_5 shifts */
    cdp_lut_stats_t *stats;                     /* NULL, or where the lookups count their outcomes (not a register) */
} cdp_lut_cfg_t;

/* The LUT settings of CDP's CONSUMER group (and the shared S_LUT_* registers). */
cdp_lut_cfg_t cdp_lut_cfg_read(const nvdla_pp_t *cdp);

/* INT16 (nv_full, NVIDIA's cmod cdp/NV_NVDLA_cdp.cpp lookup_lut and hls/cdp_libs; cdp_atom32.c). cdp16_convert is
 * cmod's convert(): v / 2^shift (shift may be negative) in double precision, rounded half away from zero,
 * saturated to a signed `bits`-bit value. */
int64_t cdp16_convert(int64_t v, int shift, unsigned bits);
/* Input converter: (in - offset) * scale, rounded right shift, saturated to 17 bits (hls cdp_icvt). */
int64_t cdp16_icvt(int16_t in, uint32_t offset, uint32_t scale, uint32_t shift);
/* LUT input x (square sum, 38 bits, or the converted value) -> 16-bit y, LE linear or exponent, LO linear; -1 in
 * *unmodelled (else 0) when an index select lies where cmod's arithmetic is undefined (|select| >= 31). */
int64_t cdp16_lut_lookup(const cdp_lut_cfg_t *c, const cdp_lut_t *t, int64_t x, int *unmodelled);
/* Output converter: (m - offset) * scale, rounded right shift by 6 bits, saturated to 16 bits (hls cdp_ocvt). */
int16_t cdp16_ocvt(int64_t m, uint32_t offset, uint32_t scale, uint32_t shift);

/* §4.4-4.6: LUT input X (unsigned square sum or signed value) -> 16-bit y. */
int64_t cdp_lut_lookup(const cdp_lut_cfg_t *c, const cdp_lut_t *t, int64_t x);
/* §4.3 step 1 and step 5. */
int64_t cdp_icvt(int8_t in, uint32_t offset, uint32_t scale, uint32_t shift);
int8_t cdp_ocvt(int64_t m, uint32_t offset, uint32_t scale, uint32_t shift);

bool cdp_golden_runnable(const nvdla_pp_t *cdp, const nvdla_pp_t *rdma);
void cdp_golden_run(const nvdla_pp_t *cdp, const nvdla_pp_t *rdma, const cdp_lut_t *lut, const nvdla_dp_ctx_t *ctx,
                    int group);
#endif
