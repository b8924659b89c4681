/* SDP's X stages at FP16 (sdp_fp16.h), the order of cmod's sdp_hls_wrapper::sdp (sdp_hls_wrapper.cpp:520-560):
 * the input widened (NV_NVDLA_sdp.cpp:953, Fp16ToFp32), a NaN flushed, X1, X2, Y, the converter (sdp_c.cpp). */
#include "sdp_fp16.h"
#include "nvdla_fp16.h"
#include "sdp_lut_fp16.h"

enum { ALU_MAX = 0, ALU_MIN = 1, ALU_SUM = 2 };

static bool nan32(uint32_t v) { return ((v >> 23) & 0xFF) == 0xFF && (v & 0x7FFFFF); }
static bool nan16(uint32_t v) { return ((v >> 10) & 0x1F) == 0x1F && (v & 0x3FF); }

/* An FP16 register operand: +0 for a NaN under NAN_TO_ZERO (X_alu and X_mul, sdp_x.cpp), widened to FP32. */
static uint32_t operand(uint32_t op, bool nan_to_zero)
{
    op &= 0xFFFF;
    return nv_fp16_to_fp32(nan_to_zero && nan16(op) ? 0 : op);
}

/* NV_NVDLA_SDP_CORE_x (sdp_x.cpp): X_alu, X_mul, X_trt (nothing at FP16), X_relu. */
static uint32_t x_stage(const sdp_fp16_stage_t *s, uint32_t d, bool nan_to_zero)
{
    if (!s->alu_bypass) { /* FpAlu (sdp.h:559): EQL gives the integer 0 (equal bits) or 1 */
        uint32_t op = operand(s->alu_op, nan_to_zero);
        d = s->algo == ALU_SUM   ? nv_fp32_add(d, op)
            : s->algo == ALU_MAX ? nv_fp32_max(d, op)
            : s->algo == ALU_MIN ? nv_fp32_min(d, op)
                                 : d != op;
    }
    if (!s->mul_bypass && !(s->prelu && !(d >> 31))) /* PReLU: a value of sign 0 passes */
        d = nv_fp32_mul(d, operand(s->mul_op, nan_to_zero));
    return s->relu_bypass ? d : nv_fp32_relu(d);
}

uint16_t sdp_fp16_element(const sdp_fp16_cfg_t *c, uint16_t in) { return sdp_fp32_element(c, nv_fp16_to_fp32(in)); }

/* Up to the LUT's input: the NaN flush, X1, X2, Y's multiplier and ALU. */
static uint32_t to_lut(const sdp_fp16_cfg_t *c, uint32_t d)
{
    if (c->nan_to_zero && nan32(d)) d = 0; /* sdp_hls_wrapper.cpp:530-536 */
    if (!c->x1.bypass) d = x_stage(&c->x1, d, c->nan_to_zero);
    if (!c->x2.bypass) d = x_stage(&c->x2, d, c->nan_to_zero);
    return sdp_ew_fp16(&c->y, d); /* sdp_hls_wrapper.cpp:561-564: Y unless bypassed */
}

uint32_t sdp_fp16_lut_input(const sdp_fp16_cfg_t *c, uint16_t in) { return to_lut(c, nv_fp16_to_fp32(in)); }

uint16_t sdp_fp32_element(const sdp_fp16_cfg_t *c, uint32_t d)
{
    d = to_lut(c, d);
    if (c->y.on && c->lut) { /* sdp_y.cpp: Y_idx after Y_core, no NaN flush between */
        sdp_lut_out_t o;
        d = sdp_lut_fp16(c->lut_cfg, c->lut, d, &o);
        if (c->stats) c->stats->n[sdp_lut_outcome(&o)]++;
    }
    uint32_t h = nv_fp32_to_fp16(d); /* sdp_c.cpp:45-48: Fp32ToFp16, then Fp16ToInt16 for an INT16 output */
    return (uint16_t)(c->out_int16 ? nv_fp16_to_int16(h) : h);
}
