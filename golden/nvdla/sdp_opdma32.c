/* SDP's operand DMAs with 32-byte atoms (sdp_opdma32.h). */
#include "sdp_opdma32.h"
#include "nvdla_dp_math.h"
#include <stdlib.h>

enum { SDP_RDMA = 0x8000 };

sdp_opdma32_t sdp_opdma32(const nvdla_pp_t *rdma, sdp_opdma_which_t which, unsigned lanes)
{
    static const char *const names[] = {"BRDMA", "NRDMA", "ERDMA"};
    /* D_xRDMA_CFG, then BASE_ADDR_LOW, _HIGH, LINE_STRIDE, SURFACE_STRIDE: 0x18 bytes a DMA (arnvdla.h) */
    const uint32_t cfg = SDP_RDMA + 0x28 + 0x18 * (uint32_t)which, v = nvdla_pp_reg(rdma, cfg);
    sdp_opdma32_t d = {.name = names[which],
                       .on = !(v & 1),
                       .use = (v >> 1) & 3,
                       .two_byte = (v >> 3) & 1,
                       .per_elem = (v >> 4) & 1,
                       .lanes = lanes};
    d.alu = d.use != 0, d.mul = d.use != 1; /* MUL 0, ALU 1, BOTH 2 */
    d.bpe = (d.use == 2 ? 2u : 1u) * (d.two_byte ? 2u : 1u);
    d.at = (place32_t){.space = (v >> 5) & 1 ? 0 : NVDLA_CV_SPACE, /* RAM_TYPE 1 MC (DBB), 0 CV (CVSRAM) */
                       .base = nvdla_pp_reg(rdma, cfg + 0x4),
                       .line = nvdla_pp_reg(rdma, cfg + 0xc),
                       .surf = nvdla_pp_reg(rdma, cfg + 0x10)};
    return d;
}

void sdp_x_wants(const sdp_x_cfg_t *c, bool *want_alu, bool *want_mul)
{
    *want_alu = !c->bypass && !c->alu_bypass && c->alu_src;
    *want_mul = !c->bypass && !c->mul_bypass && c->mul_src;
}

bool sdp_opdma32_check(const nvdla_dp_ctx_t *ctx, int group, const char *stage, bool want_alu, bool want_mul,
                       const sdp_opdma32_t *d, bool proc_int8)
{
    if (!d->on && !want_alu && !want_mul) return true;
    if (!d->on || d->use == 3 || d->alu != want_alu || d->mul != want_mul) {
        nv_dp_error(ctx,
                    "SDP grp %d: %s reads %s%s%s from memory but %s is %s (it must carry exactly the stage's memory "
                    "operands, spec nvdla_datapath.md 2.3: otherwise the RTL waits for data that never comes)",
                    group, stage, want_alu ? "ALU" : "", want_alu && want_mul ? "+" : "",
                    want_alu || want_mul ? (want_mul ? "MUL" : "") : "nothing", d->name,
                    !d->on        ? "disabled"
                    : d->use == 3 ? "set to DATA_USE 3 (reserved)"
                                  : "set to other operands");
        return false;
    }
    if (!proc_int8 && !d->two_byte) {
        nv_dp_error(ctx,
                    "SDP grp %d: %s reads 1-byte operands at INT16/FP16 processing (illegal: NV_NVDLA_SDP_BRDMA_ig.v "
                    "size_of_straight, cmod NV_NVDLA_sdp.cpp asserts 2 bytes)",
                    group, d->name);
        return false;
    }
    return dp32_aligned(ctx, d->name, group, &d->at);
}

static int64_t opnd(const mem_t *m, uint64_t a, bool two_byte)
{
    if (two_byte) return nv_sx(mem_read8(m, a) | (uint32_t)mem_read8(m, a + 1) << 8, 16);
    return nv_sx(mem_read8(m, a), 8);
}

void sdp_opdma32_fetch(const sdp_opdma32_t *d, const mem_t *m, uint32_t s, uint32_t y, uint32_t x, uint32_t lane,
                       bool one_by_one, int64_t *alu, int64_t *mul)
{
    const uint32_t group_bytes = d->lanes * d->bpe;
    const uint32_t off =
        d->per_elem && !one_by_one ? s * d->at.surf + y * d->at.line + x * group_bytes : s * group_bytes;
    const uint64_t a = d->at.space | (uint32_t)(d->at.base + off + lane * d->bpe); /* modulo 2^32 */
    const unsigned esz = d->two_byte ? 2 : 1;
    if (d->alu && d->mul) { /* BOTH: ALU first, then MUL (ExtractRdmaResponsePayload: data[2i], data[2i+1]) */
        *alu = opnd(m, a, d->two_byte);
        *mul = opnd(m, d->at.space | (uint32_t)(a + esz), d->two_byte);
    } else if (d->alu) *alu = opnd(m, a, d->two_byte);
    else *mul = opnd(m, a, d->two_byte);
}

void sdp32_ew_fp16_fetch(const sdp_opdma32_t *d, const mem_t *m, uint32_t s, uint32_t y, uint32_t x, uint32_t lane,
                         bool one_by_one, sdp_fp16_cfg_t *c)
{
    int64_t alu = 0, mul = 0;
    sdp_opdma32_fetch(d, m, s, y, x, lane, one_by_one, &alu, &mul);
    if (d->alu) c->y.alu_op = sdp_ew_fp16_cvt((uint32_t)alu, c->nan_to_zero);
    if (d->mul) c->y.mul_op = sdp_ew_fp16_cvt((uint32_t)mul, c->nan_to_zero);
}

bool sdp32_stage_opnd(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group,
                      uint32_t stage_off, sdp_opdma_which_t which, const char *name, uint32_t n, sdp_x_cfg_t *c,
                      sdp32_opnd_t *o)
{
    *o = (sdp32_opnd_t){.n = n};
    *c = sdp_x_cfg(sdp, stage_off);
    bool want_alu, want_mul;
    sdp_x_wants(c, &want_alu, &want_mul);
    if (!want_alu && !want_mul) return true;
    const sdp_opdma32_t d = sdp_opdma32(rdma, which, 16); /* FP16 processing: 16 channels a group */
    if (!sdp_opdma32_check(ctx, group, name, want_alu, want_mul, &d, false)) return false;
    if (d.per_elem) {
        nv_dp_error(ctx, "SDP grp %d: %s's operand DMA in PER_ELEMENT mode after an FP16 convolution: not computed",
                    group, name);
        return false;
    }
    if (want_alu) o->alu = calloc(n ? n : 1, sizeof *o->alu);
    if (want_mul) o->mul = calloc(n ? n : 1, sizeof *o->mul);
    if ((want_alu && !o->alu) || (want_mul && !o->mul)) abort();
    for (uint32_t k = 0; k < n; k++) {
        int64_t a = 0, m = 0;
        sdp_opdma32_fetch(&d, ctx->mem, k / d.lanes, 0, 0, k % d.lanes, false, &a, &m);
        if (o->alu) o->alu[k] = (uint16_t)a;
        if (o->mul) o->mul[k] = (uint16_t)m;
    }
    return true;
}

sdp_fp16_stage_t sdp32_opnd_stage(sdp_fp16_stage_t st, const sdp32_opnd_t *o, uint32_t k)
{
    if (o->alu && k < o->n) st.alu_op = o->alu[k];
    if (o->mul && k < o->n) st.mul_op = o->mul[k];
    return st;
}

void sdp32_opnd_free(sdp32_opnd_t *o)
{
    free(o->alu);
    free(o->mul);
    *o = (sdp32_opnd_t){0};
}
