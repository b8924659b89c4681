/* SDP's X stages at FP16 as NVIDIA's C model computes them (cmod hls/sdp/sdp_x.cpp, sdp_c.cpp, driven by
 * hls_wrapper/sdp_hls_wrapper.cpp; docs/nvdla_nv_full.md, "FP16"): the FP16 input widened to FP32, BS (X1) and BN
 * (X2), each an ALU, a multiplier and a ReLU on FP32 with FP16 register operands, the EW (Y) stage's multiplier and ALU
 * (sdp_ew_fp16.h) and its LUT (sdp_lut_fp16.h), then the converter back to FP16. */
#ifndef SDP_FP16_H
#define SDP_FP16_H
#include "sdp_ew_fp16.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct sdp_fp16_stage {
    bool bypass, alu_bypass, mul_bypass, prelu, relu_bypass;
    unsigned algo;           /* 0 MAX, 1 MIN, 2 SUM, 3 EQL */
    uint32_t alu_op, mul_op; /* D_DP_B?_ALU_SRC_VALUE / _MUL_SRC_VALUE: FP16 */
} sdp_fp16_stage_t;

typedef struct sdp_fp16_cfg {
    sdp_fp16_stage_t x1, x2;
    sdp_ew_fp16_t y;  /* the EW (Y) stage after X2 (sdp_ew_fp16.h); zero-initialised: bypassed */
    bool nan_to_zero; /* D_FEATURE_MODE_CFG.NAN_TO_ZERO: NaN inputs and operands read as +0 */
    bool out_int16;   /* D_DATA_FORMAT.OUT_PRECISION INT16: the FP16 result converted (sdp_c.cpp: Fp16ToInt16) */
    /* Y's LUT after its multiplier and ALU (sdp_lut_fp16.h) when the stage is on and lut is not NULL; stats (may be
     * NULL) counts its lookups' outcomes (coverage) */
    const struct sdp_lut_cfg *lut_cfg;
    const struct sdp_lut *lut;
    struct sdp_lut_stats *stats;
} sdp_fp16_cfg_t;

/* One element, FP16 in, FP16 (or INT16) out. */
uint16_t sdp_fp16_element(const sdp_fp16_cfg_t *c, uint16_t in);
/* The FP32 value Y's LUT reads for an element (X1, X2, Y's multiplier and ALU), for generators aiming the LUT. */
uint32_t sdp_fp16_lut_input(const sdp_fp16_cfg_t *c, uint16_t in);
/* One element from CACC (the convolution on the fly, NV_NVDLA_sdp.cpp:969): its FP32 bits, not widened. */
uint16_t sdp_fp32_element(const sdp_fp16_cfg_t *c, uint32_t in);
#endif
