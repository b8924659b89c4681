/* SDP's Y (EW) stage at FP16 (sdp_ew_fp16.h). */
#include "sdp_ew_fp16.h"
#include "nvdla_fp16.h"
#include "sdp_ew.h"

enum { ALU_MAX = 0, ALU_MIN = 1, ALU_SUM = 2 };

sdp_ew_fp16_t sdp_ew_fp16_stage(const struct sdp_ew_cfg *c)
{
    return (sdp_ew_fp16_t){.on = !c->bypass,
                           .alu_bypass = c->alu_bypass,
                           .mul_bypass = c->mul_bypass,
                           .prelu = c->prelu,
                           .algo = c->algo,
                           .alu_op = (uint32_t)c->alu.reg,
                           .mul_op = (uint32_t)c->mul.reg};
}

/* sdp_y_cvt.cpp cvt(), cfg_precision FP16: IsNaN<5,10> made +0 (sign cleared too) under NAN_TO_ZERO, then Fp16ToFp32 */
uint32_t sdp_ew_fp16_cvt(uint32_t op, bool nan_to_zero)
{
    op &= 0xFFFF;
    if (nan_to_zero && ((op >> 10) & 0x1F) == 0x1F && (op & 0x3FF)) op = 0;
    return nv_fp16_to_fp32(op);
}

uint32_t sdp_ew_fp16(const sdp_ew_fp16_t *e, uint32_t d)
{
    if (!e->on) return d;
    if (!e->mul_bypass && !(e->prelu && !(d >> 31))) /* Y_mul: FpMul(data, op); PReLU passes sign 0 (+0 too) */
        d = nv_fp32_mul(d, e->mul_op);
    if (e->alu_bypass) return d;
    return e->algo == ALU_SUM   ? nv_fp32_add(d, e->alu_op) /* Y_alu: FpAlu(algo, data, op) */
           : e->algo == ALU_MAX ? nv_fp32_max(d, e->alu_op)
                                : nv_fp32_min(d, e->alu_op);
}
