/* CDP at FP16 as NVIDIA's C model computes it (cmod hls_wrapper/cdp_hls_wrapper.cpp HLS_CDP_lookup_fp16 and
 * HLS_CDP_lookup_lut, hls/cdp_libs; docs/nvdla_nv_full.md, "FP16"): the channels widened to FP17 and FP32, the sum of
 * squares in FP32 in cmod's order, the two LUT lookups (index arithmetic in the host's float, as cmod does it),
 * the interpolation in FP17, the product with the input and the conversion back to FP16. */
#ifndef CDP_FP16_H
#define CDP_FP16_H
#include "cdp_golden.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct cdp_fp16_cfg {
    bool le_exponent, uflow_lo, oflow_lo, hybrid_lo; /* S_LUT_CFG: LE_FUNCTION 0 is the exponent table */
    bool sqsum_bypass, mul_bypass, nan_to_zero;
    unsigned normalz_len;                                  /* 0..3: 3, 5, 7 or 9 channels */
    uint32_t le_start, le_end, lo_start, lo_end;           /* FP32: S_LUT_*_START/END_LOW */
    int le_index_offset, le_index_select, lo_index_select; /* S_LUT_INFO's bytes, signed */
    uint16_t le_uflow, le_oflow, lo_uflow, lo_oflow;       /* the slope scales: FP16 */
    uint16_t datin_offset;  /* D_DATIN_OFFSET's 16 bits: what cmod reads a channel outside the cube as (not the RTL) */
    cdp_lut_stats_t *stats; /* NULL, or where the lookups count their outcomes (coverage; not a register) */
} cdp_fp16_cfg_t;

/* What a channel outside the cube (below channel 0, past the last one, the pad lanes of the last atom included) reads
 * as at FP16 on nv_full's RTL: +0, inserted after the input converter (vmod/nvdla/cdp: NV_NVDLA_CDP_DP_cvtin.v:275-283
 * zeroes the converted lanes NV_NVDLA_CDP_RDMA_eg.v:475-544 flags past the channel count; NV_NVDLA_CDP_DP_bufferin.v
 * shifts zeros in before channel 0 and after the last group, :2390-2400 FIRST_C, :2547-2553 CUBE_END). At INT8/INT16
 * that is what cmod's D_DATIN_OFFSET there converts to; at FP16 cmod's converter ignores the offset, so cmod reads
 * such a channel as the offset itself (cdp/NV_NVDLA_cdp.cpp:520-640): a named difference, docs/nvdla_nv_full.md
 * "CDP at FP16". */
enum { CDP_FP16_OUTSIDE = 0x0000 };

/* The output of the channel at win[4], from the FP16 values of the channels around it (win[4 + d] is channel
 * k + d; a channel outside the cube is CDP_FP16_OUTSIDE on the RTL, datin_offset in cmod). */
uint16_t cdp_fp16_element(const cdp_fp16_cfg_t *c, const cdp_lut_t *t, const uint16_t win[9]);
#endif
