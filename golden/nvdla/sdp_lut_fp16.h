/* SDP's Y (EW) stage LUT at FP16 processing on nv_full, as NVIDIA's C model computes it (docs/nvdla_nv_full.md,
 * "SDP's Y LUT at FP16"). The same table store and registers as at INT8/INT16 (sdp_lut.h), read differently: the
 * lookup's input is the Y core's FP32 output; S_LUT_{LE,LO}_{START,END} are FP32; the entries and the slope scales
 * are FP16 and the slope shifts unused. cmod hls/sdp/sdp_y_idx.cpp: each table's index and 35-bit fraction from the
 * FP32 difference x - start (FpSub; negative, zero or NaN underflows), the linear tables through FpFloatToIntFrac
 * (scaled by 2^-select, any signed select), the exponent table from that difference's unbiased exponent minus the
 * offset (its mantissa the fraction); the choice between the tables is nv_lut_select.h's. hls/sdp/sdp_y_inp.cpp: a
 * hit interpolates in FP17, (1 - f) y0 + f y1, f from the fraction (FpFractionToFloat, 1 - f exactly 1 when f is 0);
 * outside its table y0 + (x - (start or end + bias)) * scale, the difference in FP32 made FP17, the product and sum
 * in FP17; the bias is 2^offset as an FP32 (hls_wrapper/sdp_hls_wrapper.cpp: pow) for the exponent table's
 * underflow, else 0. The result is FP17 widened to FP32, for the output converter. */
#ifndef SDP_LUT_FP16_H
#define SDP_LUT_FP16_H
#include "sdp_lut.h"
#include <stdint.h>

/* The LUT on x (FP32 bits); its FP32 result. out (may be NULL): how it went, as sdp_lut_int reports it. */
uint32_t sdp_lut_fp16(const sdp_lut_cfg_t *c, const sdp_lut_t *t, uint32_t x, sdp_lut_out_t *out);
#endif
