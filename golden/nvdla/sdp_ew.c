/* SDP's Y (EW) stage at INT8/INT16 (sdp_ew.h). */
#include "sdp_ew.h"
#include "nvdla_dp_math.h"

enum { SDP = 0x9000 };

static sdp_ew_opnd_t opnd_cfg(const nvdla_pp_t *sdp, uint32_t off)
{
    const uint32_t cfg = nvdla_pp_reg(sdp, SDP + off);
    return (sdp_ew_opnd_t){.src_mem = cfg & 1,
                           .cvt_bypass = (cfg >> 1) & 1,
                           .reg = nv_sx(nvdla_pp_reg(sdp, SDP + off + 0x4), 32),
                           .offset = nv_sx(nvdla_pp_reg(sdp, SDP + off + 0x8), 32),
                           .scale = nv_sx(nvdla_pp_reg(sdp, SDP + off + 0xc) & 0xFFFF, 16),
                           .truncate = nvdla_pp_reg(sdp, SDP + off + 0x10) & 63};
}

sdp_ew_cfg_t sdp_ew_cfg(const nvdla_pp_t *sdp)
{
    const uint32_t v = nvdla_pp_reg(sdp, SDP + 0x80);
    return (sdp_ew_cfg_t){.bypass = v & 1,
                          .alu_bypass = (v >> 1) & 1,
                          .algo = (v >> 2) & 3,
                          .mul_bypass = (v >> 4) & 1,
                          .prelu = (v >> 5) & 1,
                          .lut_bypass = (v >> 6) & 1,
                          .truncate = nvdla_pp_reg(sdp, SDP + 0xac) & 0x3FF,
                          .alu = opnd_cfg(sdp, 0x84),
                          .mul = opnd_cfg(sdp, 0x98)};
}

void sdp_ew_wants(const sdp_ew_cfg_t *c, bool *want_alu, bool *want_mul)
{
    *want_alu = !c->bypass && !c->alu_bypass && c->alu.src_mem;
    *want_mul = !c->bypass && !c->mul_bypass && c->mul.src_mem;
}

/* Y_cvt (sdp_y_cvt.cpp): IntSubExt to 33 bits, IntMulExt to 49, IntShiftRight to 32 (round half away, saturate). */
int64_t sdp_ew_cvt(const sdp_ew_opnd_t *o, int64_t op16)
{
    if (o->cvt_bypass) return op16;
    return nv_rsr((op16 - o->offset) * o->scale, o->truncate, 49, 32);
}

int64_t sdp_ew_int(const sdp_ew_cfg_t *c, int64_t x, int64_t alu_op, int64_t mul_op)
{
    if (c->bypass) return x;
    int64_t m = x;
    if (!c->mul_bypass && !(c->prelu && x >= 0)) /* Y_mul: 32 x 32 bits, >> EW_TRUNCATE */
        m = nv_rsr(x * mul_op, c->truncate, 64, 32);
    if (c->alu_bypass) return m;
    switch (c->algo) { /* Y_alu: 33 bits, saturated to 32 */
    case 0: return m > alu_op ? m : alu_op;
    case 1: return m < alu_op ? m : alu_op;
    default: return nv_sat(m + alu_op, 32); /* SUM (EQL refused by the caller) */
    }
}
