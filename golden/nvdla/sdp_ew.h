/* SDP's Y (EW) stage with its ALU and multiplier, LUT bypassed, at INT8/INT16 processing, as NVIDIA's C model
 * computes it (cmod hls/sdp/sdp_y.cpp, sdp_y_core.cpp, sdp_y_cvt.cpp): the multiplier first, then the ALU (Y_mul
 * feeds Y_alu, NV_NVDLA_SDP_CORE_Y_core). An operand from memory (ERDMA, sdp_opdma32.h: 16 bits) goes through its
 * converter, ((op - offset) * scale) >> truncate rounded and saturated to 32 bits (or bypassed); a register
 * operand is the register's 32 bits as they are. The multiplier's 64-bit product is shifted right by EW_TRUNCATE
 * (10 bits), rounded, saturated to 32 bits; PReLU passes a value of sign 0. The ALU's max, min or sum is computed in
 * 33 bits and saturated to 32 (EQL, the "equal mode" that writes no output, is refused). */
#ifndef SDP_EW_H
#define SDP_EW_H
#include "nvdla_pp.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct sdp_ew_opnd {
    bool src_mem, cvt_bypass;
    int64_t reg;       /* D_DP_EW_x_SRC_VALUE, 32 bits sign-extended */
    int64_t offset;    /* D_DP_EW_x_CVT_OFFSET_VALUE, 32 bits */
    int64_t scale;     /* D_DP_EW_x_CVT_SCALE_VALUE, 16 bits */
    unsigned truncate; /* D_DP_EW_x_CVT_TRUNCATE_VALUE, 6 bits */
} sdp_ew_opnd_t;

typedef struct sdp_ew_cfg {
    bool bypass, alu_bypass, mul_bypass, prelu, lut_bypass;
    unsigned algo;     /* 0 MAX, 1 MIN, 2 SUM, 3 EQL */
    unsigned truncate; /* D_DP_EW_TRUNCATE_VALUE, 10 bits */
    sdp_ew_opnd_t alu, mul;
} sdp_ew_cfg_t;

/* The EW registers of SDP's CONSUMER group (model offsets 0x80..0xac of SDP's window). */
sdp_ew_cfg_t sdp_ew_cfg(const nvdla_pp_t *sdp);
/* An operand from memory (16 bits, sign-extended) through its converter (Y_cvt at INT). */
int64_t sdp_ew_cvt(const sdp_ew_opnd_t *o, int64_t op16);
/* The stage on x (X2's 32-bit output) with the operands the ALU and multiplier read: the register's, or the
 * memory's after sdp_ew_cvt. Returns the 32-bit value the output converter reads. */
int64_t sdp_ew_int(const sdp_ew_cfg_t *c, int64_t x, int64_t alu_op, int64_t mul_op);
/* The operands the stage reads from memory (what ERDMA must carry). */
void sdp_ew_wants(const sdp_ew_cfg_t *c, bool *want_alu, bool *want_mul);
#endif
