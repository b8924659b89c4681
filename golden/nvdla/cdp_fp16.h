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
    uint16_t datin_offset;  /* D_DATIN_OFFSET's 16 bits: the FP16 value of a channel outside the cube */
    cdp_lut_stats_t *stats; /* NULL, or where the lookups count their outcomes (coverage; not a register) */
} cdp_fp16_cfg_t;

/* The output of the channel at win[4], from the FP16 values of the channels around it (win[4 + d] is channel
 * k + d; a channel outside the cube is datin_offset, as cmod makes it). */
uint16_t cdp_fp16_element(const cdp_fp16_cfg_t *c, const cdp_lut_t *t, const uint16_t win[9]);
#endif
