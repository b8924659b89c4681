#include "sdp_golden.h"
#include "nvdla_dp_math.h"
#include "nvdla_regs.h"
#include <stdlib.h>

enum { RDMA = 0x8000, SDP = 0x9000 };

int64_t sdp_x_stage(const sdp_x_cfg_t *c, int64_t x, int64_t op_a, int64_t op_m)
{
    if (c->bypass) return x;
    int64_t a = x;
    if (!c->alu_bypass) {
        int64_t o = nv_shl_sat32(op_a, c->alu_shift);
        switch (c->algo) {
        case 0: a = x > o ? x : o; break;
        case 1: a = x < o ? x : o; break;
        default: a = x + o; break; /* SUM; 3 (reserved) behaves as SUM */
        }
    }
    int64_t t;
    if (c->mul_bypass) t = nv_rsr(a, c->mul_shift, 49, 32); /* the shift still applies */
    else if (c->prelu && a >= 0) t = nv_sx(a, 32);          /* PReLU positive side: no shift */
    else t = nv_rsr(a * op_m, c->mul_shift, 49, 32);
    if (!c->relu_bypass && t < 0) t = 0;
    return t;
}

int8_t sdp_cvt(int64_t t, uint32_t offset, uint32_t scale, uint32_t shift)
{
    return sdp_cvt_sat(t, offset, scale, shift, NULL);
}

int8_t sdp_cvt_sat(int64_t t, uint32_t offset, uint32_t scale, uint32_t shift, bool *sat17)
{
    return (int8_t)sdp_cvt_bits(t, offset, scale, shift, 8, sat17);
}

int32_t sdp_cvt_bits(int64_t t, uint32_t offset, uint32_t scale, uint32_t shift, unsigned bits, bool *sat17)
{
    int64_t d = t - nv_sx(offset, 32);
    int64_t p = d * nv_sx(scale & 0xFFFF, 16);
    int64_t y17 = nv_rsr(p, shift & 63, 49, 17);
    if (sat17) *sat17 = y17 != nv_rsr(p, shift & 63, 49, 63); /* §2.7: the 17-bit stage clipped */
    return (int32_t)nv_sat(y17, bits);
}

sdp_x_cfg_t sdp_x_cfg(const nvdla_pp_t *sdp, uint32_t cfg)
{
    uint32_t v = nvdla_pp_reg(sdp, SDP + cfg), alu = nvdla_pp_reg(sdp, SDP + cfg + 4),
             mul = nvdla_pp_reg(sdp, SDP + cfg + 12);
    sdp_x_cfg_t c = {
        .bypass = v & 1,
        .alu_bypass = (v >> 1) & 1,
        .algo = (v >> 2) & 3,
        .mul_bypass = (v >> 4) & 1,
        .prelu = (v >> 5) & 1,
        .relu_bypass = (v >> 6) & 1,
        .alu_src = alu & 1,
        .alu_shift = (alu >> 8) & 63,
        .alu_reg = nv_sx(nvdla_pp_reg(sdp, SDP + cfg + 8), 16),
        .mul_src = mul & 1,
        .mul_shift = (mul >> 8) & 63,
        .mul_reg = nv_sx(nvdla_pp_reg(sdp, SDP + cfg + 16), 16),
    };
    return c;
}

/* An operand DMA (BRDMA / NRDMA), §2.3. */
typedef struct op_dma {
    bool on, alu, mul, two_byte, per_elem;
    unsigned bpe;
    uint32_t base, line, surf;
} op_dma_t;

static op_dma_t op_dma(const nvdla_pp_t *rdma, uint32_t cfg_off, uint32_t base_off, uint32_t line_off,
                       uint32_t surf_off)
{
    uint32_t v = nvdla_pp_reg(rdma, RDMA + cfg_off);
    unsigned use = (v >> 1) & 3;
    op_dma_t d = {.on = !(v & 1), .alu = use != 0, .mul = use != 1, .two_byte = (v >> 3) & 1, .per_elem = (v >> 4) & 1};
    d.bpe = (use >= 2 ? 2u : 1u) * (d.two_byte ? 2u : 1u);
    d.base = nvdla_pp_reg(rdma, RDMA + base_off) & ~7u;
    d.line = nvdla_pp_reg(rdma, RDMA + line_off) & ~7u;
    d.surf = nvdla_pp_reg(rdma, RDMA + surf_off) & ~7u;
    return d;
}

static int64_t op_elem(const mem_t *m, uint32_t a, bool two_byte)
{
    if (two_byte) return nv_sx(mem_read8(m, a) | (mem_read8(m, a + 1) << 8), 16);
    return nv_sx(mem_read8(m, a), 8);
}

/* Operands of lane `lane` at (s,y,x). */
static void op_fetch(const op_dma_t *d, const mem_t *m, uint32_t s, uint32_t y, uint32_t x, bool one_by_one,
                     unsigned lane, int64_t *alu, int64_t *mul)
{
    uint32_t g =
        (d->per_elem && !one_by_one) ? d->base + s * d->surf + y * d->line + x * 8 * d->bpe : d->base + s * 8 * d->bpe;
    uint32_t a = g + lane * d->bpe, esz = d->two_byte ? 2 : 1;
    if (d->alu && d->mul) { /* BOTH: ALU first, then MUL */
        *alu = op_elem(m, a, d->two_byte);
        *mul = op_elem(m, a + esz, d->two_byte);
    } else if (d->alu) *alu = op_elem(m, a, d->two_byte);
    else *mul = op_elem(m, a, d->two_byte);
}

/* Checks that the DMA supplies exactly what the stage consumes (§2.3 enabling rules). */
static void check_dma(const nvdla_dp_ctx_t *ctx, const char *stage, const sdp_x_cfg_t *c, const op_dma_t *d)
{
    bool want_a = !c->bypass && !c->alu_bypass && c->alu_src, want_m = !c->bypass && !c->mul_bypass && c->mul_src;
    if (!want_a && !want_m) return;
    if (!d->on || d->alu != want_a || d->mul != want_m)
        nv_dp_error(ctx,
                    "SDP %s: the stage takes %s%s%s from memory but its operand DMA is %s "
                    "(spec nvdla_datapath.md §2.3: illegal, the RTL stalls)",
                    stage, want_a ? "ALU" : "", want_a && want_m ? "+" : "", want_m ? "MUL" : "",
                    d->on ? "set to other operands" : "disabled");
}

bool sdp_golden_runnable(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma)
{
    if (!nvdla_pp_ready(sdp)) return false;
    if (nvdla_pp_bits(sdp, SDP + 0xb0, 0, 0)) return false; /* flying: input from CACC (not modelled) */
    return nvdla_pp_ready(rdma);
}

bool sdp_golden_flying(const nvdla_pp_t *sdp) { return nvdla_pp_bits(sdp, SDP + 0xb0, 0, 0); }

bool sdp_golden_rdma_nothing(const nvdla_pp_t *rdma)
{
    return nvdla_pp_bits(rdma, RDMA + 0x70, 0, 0) && nvdla_pp_bits(rdma, RDMA + 0x28, 0, 0) &&
           nvdla_pp_bits(rdma, RDMA + 0x40, 0, 0); /* FLYING_MODE, BRDMA_DISABLE, NRDMA_DISABLE */
}

bool sdp_golden_to_pdp(const nvdla_pp_t *sdp) { return nvdla_pp_bits(sdp, SDP + 0xb0, 1, 1); }

void sdp_golden_run(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group,
                    const nv_acc_cube_t *flying, nv_cube_t *to_pdp, sdp_result_t *res)
{
    uint32_t w = nvdla_pp_bits(sdp, SDP + 0x3c, 12, 0) + 1, h = nvdla_pp_bits(sdp, SDP + 0x40, 12, 0) + 1,
             c = nvdla_pp_bits(sdp, SDP + 0x44, 12, 0) + 1;
    if (rdma && (w != nvdla_pp_bits(rdma, RDMA + 0x0c, 12, 0) + 1 || h != nvdla_pp_bits(rdma, RDMA + 0x10, 12, 0) + 1 ||
                 c != nvdla_pp_bits(rdma, RDMA + 0x14, 12, 0) + 1))
        nv_dp_error(ctx, "SDP grp %d: SDP and SDP_RDMA cube sizes differ (they must be equal)", group);
    const bool size_mismatch = flying && (w != flying->w || h != flying->h || c != flying->c);
    if (size_mismatch)
        nv_dp_error(ctx, "SDP grp %d: SDP.D_DATA_CUBE %ux%ux%u differs from the convolution output %ux%ux%u (CACC)",
                    group, w, h, c, flying->w, flying->h, flying->c);
    if ((rdma && nvdla_pp_bits(rdma, RDMA + 0x70, 7, 2) != 0) || nvdla_pp_bits(sdp, SDP + 0xbc, 3, 0) != 0)
        nv_dp_error(ctx, "SDP grp %d: precision fields are not INT8 (SDP_RDMA.D_FEATURE_MODE_CFG resets to INT16)",
                    group);
    if (!flying && !nvdla_pp_bits(rdma, RDMA + 0x74, 0, 0))
        nv_dp_error(ctx, "SDP grp %d: SDP_RDMA.D_SRC_DMA_CFG ram type 0 (CV SRAM): nv_small never completes", group);
    if (size_mismatch || nv_cube_too_big(ctx, "SDP", group, w, h, c)) {
        if (to_pdp) nv_cube_alloc(to_pdp, 1, 1, 1);
        *res = (sdp_result_t){0};
        return;
    }
    bool one = w == 1 && h == 1;
    nv_place_t src = {.packed1x1 = one};
    if (!flying)
        src = (nv_place_t){.base = nvdla_pp_reg(rdma, RDMA + 0x18) & ~7u,
                           .line_stride = nvdla_pp_reg(rdma, RDMA + 0x20) & ~7u,
                           .surf_stride = nvdla_pp_reg(rdma, RDMA + 0x24) & ~7u,
                           .packed1x1 = one};
    sdp_x_cfg_t bs = sdp_x_cfg(sdp, 0x58), bn = sdp_x_cfg(sdp, 0x6c);
    /* Flying input with SDP_RDMA idle (no operand stream): the stages take register operands only. */
    op_dma_t bd = {0}, nd = {0};
    if (rdma) {
        bd = op_dma(rdma, 0x28, 0x2c, 0x34, 0x38);
        nd = op_dma(rdma, 0x40, 0x44, 0x4c, 0x50);
    }
    check_dma(ctx, "BS", &bs, &bd);
    check_dma(ctx, "BN", &bn, &nd);
    bool bs_mem = !bs.bypass && ((!bs.alu_bypass && bs.alu_src) || (!bs.mul_bypass && bs.mul_src)) && bd.on;
    bool bn_mem = !bn.bypass && ((!bn.alu_bypass && bn.alu_src) || (!bn.mul_bypass && bn.mul_src)) && nd.on;
    uint32_t cvt_off = nvdla_pp_reg(sdp, SDP + 0xc0), cvt_scale = nvdla_pp_reg(sdp, SDP + 0xc4),
             cvt_shift = nvdla_pp_reg(sdp, SDP + 0xc8) & 63;

    nv_cube_t in = {0}, out;
    if (!flying) {
        nv_cube_alloc(&in, w, h, c);
        nv_cube_read(ctx, &in, &src);
    }
    nv_cube_alloc(&out, w, h, c);
    bool any = false;
    uint32_t nsat = 0;
    for (uint32_t s = 0; s < out.s; s++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                const int8_t *ia = flying ? NULL : nv_atom(&in, s, y, x);
                const int32_t *fa = flying ? nv_acc_atom(flying, s, y, x) : NULL;
                int8_t *oa = nv_atom(&out, s, y, x);
                for (unsigned l = 0; l < 8; l++) { /* pad lanes too, from their own bytes */
                    int64_t ba = bs.alu_reg, bm = bs.mul_reg, na = bn.alu_reg, nm = bn.mul_reg;
                    if (bs_mem) op_fetch(&bd, ctx->mem, s, y, x, one, l, &ba, &bm);
                    if (bn_mem) op_fetch(&nd, ctx->mem, s, y, x, one, l, &na, &nm);
                    if (!(bs.alu_src && bd.on)) ba = bs.alu_reg;
                    if (!(bs.mul_src && bd.on)) bm = bs.mul_reg;
                    if (!(bn.alu_src && nd.on)) na = bn.alu_reg;
                    if (!(bn.mul_src && nd.on)) nm = bn.mul_reg;
                    int64_t t = sdp_x_stage(&bs, flying ? fa[l] : ia[l], ba, bm);
                    t = sdp_x_stage(&bn, t, na, nm);
                    bool sat;
                    oa[l] = sdp_cvt_sat(t, cvt_off, cvt_scale, cvt_shift, &sat);
                    any |= oa[l] != 0;
                    nsat += sat;
                }
            }
    *res = (sdp_result_t){.unequal = any, .out_saturation = nsat};
    /* No "equal mode" in nv_small: D_DP_EW_CFG is don't-care and the output is always written. NVIDIA's
     * NV_NVDLA_sdp.v ties the WDMA's ew_bypass/ew_alu_bypass to 1 and ew_alu_algo to 0, and NV_NVDLA_SDP_core.v
     * holds cfg_mode_eql at 0 (this reverses spec nvdla.md 4.4, which read the WDMA module alone). */
    if (to_pdp) {
        *to_pdp = out;
    } else {
        if (!nvdla_pp_bits(sdp, SDP + 0xb4, 0, 0))
            nv_dp_error(ctx, "SDP grp %d: D_DST_DMA_CFG ram type 0 (CV SRAM): nv_small never completes", group);
        nv_place_t dst = {.base = nvdla_pp_reg(sdp, SDP + 0x48) & ~7u,
                          .line_stride = nvdla_pp_reg(sdp, SDP + 0x50) & ~7u,
                          .surf_stride = nvdla_pp_reg(sdp, SDP + 0x54) & ~7u,
                          .packed1x1 = one};
        nv_cube_write(ctx, &out, &dst, "SDP", group);
        nv_cube_free(&out);
    }
    nv_cube_free(&in);
}
