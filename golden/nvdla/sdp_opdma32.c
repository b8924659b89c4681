/* SDP's operand DMAs with 32-byte atoms at FP16, PER_KERNEL (sdp_opdma32.h). */
#include "sdp_opdma32.h"
#include "nvdla_golden.h"
#include <stdlib.h>

enum { SDP_RDMA = 0x8000 };
enum { USE_MUL = 0, USE_ALU = 1, USE_BOTH = 2 }; /* D_BRDMA_CFG.BRDMA_DATA_USE (arnvdla.h) */

/* n operands from addr on, `stride` bytes apart: whole atoms, the pad lanes' too, as the DMA reads them */
static uint16_t *fetch(const nvdla_dp_ctx_t *ctx, uint64_t addr, uint32_t stride, uint32_t n)
{
    uint16_t *v = calloc(n ? n : 1, sizeof *v);
    if (!v) abort();
    for (uint32_t k = 0; k < n; k++) {
        uint8_t b[2];
        mem_read(ctx->mem, addr + (uint64_t)k * stride, b, 2);
        v[k] = (uint16_t)(b[0] | b[1] << 8);
    }
    return v;
}

bool sdp32_stage_opnd(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group,
                      uint32_t stage_off, uint32_t dma_off, const char *name, uint32_t n, sdp_x_cfg_t *c,
                      sdp32_opnd_t *o)
{
    *o = (sdp32_opnd_t){.n = n};
    *c = sdp_x_cfg(sdp, stage_off);
    const bool want_alu = !c->bypass && !c->alu_bypass && c->alu_src,
               want_mul = !c->bypass && !c->mul_bypass && c->mul_src;
    if (!want_alu && !want_mul) return true;
    /* D_BRDMA_CFG / D_NRDMA_CFG: DISABLE [0], DATA_USE [2:1], DATA_SIZE [3] (1 two bytes), DATA_MODE [4] (0
     * PER_KERNEL), RAM_TYPE [5] (1 MC) */
    const uint32_t v = nvdla_pp_reg(rdma, SDP_RDMA + dma_off);
    const unsigned use = (v >> 1) & 3;
    const bool on = !(v & 1), alu = use == USE_ALU || use == USE_BOTH, mul = use == USE_MUL || use == USE_BOTH;
    if (!on || alu != want_alu || mul != want_mul) {
        nv_dp_error(
            ctx,
            "SDP grp %d: %s takes %s%s%s from memory but its operand DMA is %s (the RTL waits for operands that "
            "never come)",
            group, name, want_alu ? "ALU" : "", want_alu && want_mul ? "+" : "", want_mul ? "MUL" : "",
            on ? "set to other operands" : "disabled");
        return false;
    }
    if ((v >> 4) & 1) {
        nv_dp_error(ctx, "SDP grp %d: %s's operand DMA in PER_ELEMENT mode: not computed for 32-byte atoms yet", group,
                    name);
        return false;
    }
    if (!((v >> 3) & 1)) {
        nv_dp_error(ctx, "SDP grp %d: %s's operand DMA with one-byte operands at FP16: not computed", group, name);
        return false;
    }
    const uint64_t space = (v >> 5) & 1 ? 0 : NVDLA_CV_SPACE;
    const uint64_t base = space | nvdla_pp_reg(rdma, SDP_RDMA + dma_off + 4);
    const uint32_t bpe = use == USE_BOTH ? 4 : 2;
    if (want_alu) o->alu = fetch(ctx, base, bpe, n);
    if (want_mul) o->mul = fetch(ctx, base + (use == USE_BOTH ? 2 : 0), bpe, n);
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
