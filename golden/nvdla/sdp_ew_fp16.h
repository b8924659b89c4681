/* SDP's Y (EW) stage at FP16 processing, its multiplier and ALU (LUT bypassed), as NVIDIA's C model computes it
 * (cmod hls/sdp/sdp_y.cpp, sdp_y_cvt.cpp, sdp_y_core.cpp; docs/nvdla_nv_full.md, "SDP's EW stage at FP16"). The stage
 * works on X2's FP32 output. An operand from memory (ERDMA's 16 bits) is FP16: Y_cvt makes a NaN +0 under
 * D_FEATURE_MODE_CFG.NAN_TO_ZERO and widens it to FP32 (Fp16ToFp32); its offset, scale, truncate and bypass are not
 * read at FP16. A register operand (D_DP_EW_{ALU,MUL}_SRC_VALUE) is FP32, its 32 bits as they are, never flushed
 * (Y_core has no NaN flush; nv_full's NV_NVDLA_SDP_CORE_y.v wires the register to the core, NAN_TO_ZERO to the
 * converters only). The multiplier first (Y_mul: FpMul, PReLU passing a value of sign 0, EW_TRUNCATE unused), then
 * the ALU (Y_alu: FpAlu, SUM FpAdd, MAX FpMax, MIN FpMin; EQL is refused by the caller), the stage's value the first
 * operand of each. */
#ifndef SDP_EW_FP16_H
#define SDP_EW_FP16_H
#include <stdbool.h>
#include <stdint.h>

typedef struct sdp_ew_fp16 {
    bool on, alu_bypass, mul_bypass, prelu; /* on: the stage not bypassed (zero-initialised: off) */
    unsigned algo;                          /* 0 MAX, 1 MIN, 2 SUM */
    uint32_t alu_op, mul_op;                /* FP32: the register, or the memory operand through sdp_ew_fp16_cvt */
} sdp_ew_fp16_t;

/* The stage as its registers configure it (sdp_ew_cfg), with its register operands: the caller puts a memory
 * operand in place (sdp_ew_fp16_cvt) for each element. */
struct sdp_ew_cfg; /* sdp_ew.h */
sdp_ew_fp16_t sdp_ew_fp16_stage(const struct sdp_ew_cfg *c);
/* Y_cvt at FP16: a memory operand's FP16 bits (the low 16 of op) to the FP32 the core reads. */
uint32_t sdp_ew_fp16_cvt(uint32_t op, bool nan_to_zero);
/* Y_mul then Y_alu on x (FP32 bits); the stage bypassed (!on) returns x. */
uint32_t sdp_ew_fp16(const sdp_ew_fp16_t *e, uint32_t x);
#endif
