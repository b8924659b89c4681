#include "dp_atom32.h"
#include "nvdla_fp16.h"
#include "nvdla_dp_math.h"
#include "pdp_fp16.h"
#include "pdp_golden.h"
#include "sdp_fp16.h"
#include "sdp_golden.h"
#include "sdp_ew.h"
#include "sdp_lut.h"
#include "sdp_opdma32.h"
#include <stdlib.h>
#include <string.h>

enum { SDP_RDMA = 0x8000, SDP = 0x9000, PDP_RDMA = 0xA000, PDP = 0xB000 };
enum { PREC_INT8 = 0, PREC_INT16 = 1, PREC_FP16 = 2 };

bool cube32_alloc(const nvdla_dp_ctx_t *ctx, const char *unit, int group, cube32_t *c, uint32_t w, uint32_t h,
                  uint32_t ch, uint32_t esz)
{
    *c = (cube32_t){.w = w, .h = h, .c = ch, .esz = esz, .lanes = NV_ATOM32 / esz};
    c->s = (ch + c->lanes - 1) / c->lanes;
    uint64_t bytes = (uint64_t)c->s * h * w * NV_ATOM32;
    if (bytes > NV_CUBE_MAX_BYTES) {
        nv_dp_error(ctx, "%s grp %d: cube %ux%ux%u (%llu bytes) is beyond the golden model's limit; layer not modelled",
                    unit, group, w, h, ch, (unsigned long long)bytes);
        return false;
    }
    c->v = calloc((size_t)c->s * h * w * c->lanes, sizeof *c->v);
    if (!c->v) abort();
    return true;
}

static uint64_t atom_addr(const place32_t *p, uint32_t s, uint32_t y, uint32_t x)
{
    return p->space | (uint32_t)(p->base + s * p->surf + y * p->line + x * NV_ATOM32); /* modulo 2^32 */
}

void cube32_read(const nvdla_dp_ctx_t *ctx, cube32_t *c, const place32_t *p)
{
    uint8_t b[NV_ATOM32];
    for (uint32_t s = 0; s < c->s; s++)
        for (uint32_t y = 0; y < c->h; y++)
            for (uint32_t x = 0; x < c->w; x++) {
                mem_read(ctx->mem, atom_addr(p, s, y, x), b, NV_ATOM32);
                int32_t *a = cube32_atom(c, s, y, x);
                for (uint32_t l = 0; l < c->lanes; l++)
                    a[l] = (int32_t)(c->esz == 2 ? nv_sx(b[2 * l] | (b[2 * l + 1] << 8), 16) : nv_sx(b[l], 8));
            }
}

/* Writes every atom (values already in range) and emits the box: lines of w atoms, one surface per lane group. */
void cube32_write(const nvdla_dp_ctx_t *ctx, const cube32_t *c, const place32_t *p, const char *unit, int group)
{
    uint8_t b[NV_ATOM32];
    for (uint32_t s = 0; s < c->s; s++)
        for (uint32_t y = 0; y < c->h; y++)
            for (uint32_t x = 0; x < c->w; x++) {
                const int32_t *a = cube32_atom(c, s, y, x);
                for (uint32_t l = 0; l < c->lanes; l++) {
                    if (c->esz == 2) {
                        b[2 * l] = (uint8_t)a[l];
                        b[2 * l + 1] = (uint8_t)((uint32_t)a[l] >> 8);
                    } else b[l] = (uint8_t)a[l];
                }
                mem_write(ctx->mem, atom_addr(p, s, y, x), b, NV_ATOM32);
            }
    nvdla_box_t box = {.kind = NVDLA_BOX_LINES,
                       .group = group,
                       .space = p->space,
                       .addr = p->base,
                       .line_bytes = NV_ATOM32 * c->w,
                       .lines = c->h,
                       .surfs = c->s,
                       .line_stride = p->line,
                       .surf_stride = p->surf};
    snprintf(box.unit, sizeof box.unit, "%s", unit);
    ctx->emit(ctx->user, &box);
}

/* nv_full's RTL as nv_small's: SDP_RDMA's NV_NVDLA_SDP_MRDMA_ig.v:237 and the write DMA's NV_NVDLA_SDP_WDMA_cmd.v:199
 * (cfg_mode_1x1_pack) move a 1x1 cube as one request of all its surfaces' atoms from the base address, the line and
 * surface strides unused. NVIDIA's cmod asserts the stride equals one atom (NV_NVDLA_sdp.cpp:391 and :1489) where the
 * RTL ignores it. Issue 38: without this, conv_random seeds 2 and 25 (1x1 outputs of 3 surfaces, strides with gaps)
 * failed on the RTL as stray writes at base + 32. */
void sdp32_place_1x1(place32_t *p, uint32_t w, uint32_t h)
{
    if (w == 1 && h == 1) p->surf = NV_ATOM32;
}

bool dp32_aligned(const nvdla_dp_ctx_t *ctx, const char *what, int group, const place32_t *p)
{
    if (!((p->base | p->line | p->surf) & (NV_ATOM32 - 1))) return true;
    nv_dp_error(ctx, "%s grp %d: address or stride not a multiple of 32 (the atom; arnvdla.h stores bits [31:5])", what,
                group);
    return false;
}

uint32_t dp32_esz(const nvdla_dp_ctx_t *ctx, const char *what, int group, unsigned prec)
{
    if (prec == PREC_INT8 || prec == PREC_INT16) return prec == PREC_INT16 ? 2 : 1;
    nv_dp_error(ctx, "%s grp %d: precision %s is not computed by the golden model for 32-byte atoms yet", what, group,
                prec == PREC_FP16 ? "FP16" : "3 (reserved)");
    return 0;
}

/* One X stage (BS at 0x58, BN at 0x6c) with register operands only. */
bool sdp32_stage_cfg(const nvdla_pp_t *sdp, const nvdla_dp_ctx_t *ctx, int group, uint32_t off, const char *name,
                     sdp_x_cfg_t *c)
{
    *c = sdp_x_cfg(sdp, off);
    if (c->bypass || !((!c->alu_bypass && c->alu_src) || (!c->mul_bypass && c->mul_src))) return true;
    nv_dp_error(ctx, "SDP grp %d: %s takes an operand from memory: operand DMAs are not computed for 32-byte atoms yet",
                group, name);
    return false;
}

sdp_fp16_stage_t sdp32_fp16_stage(const sdp_x_cfg_t *x)
{
    return (sdp_fp16_stage_t){.bypass = x->bypass,
                              .alu_bypass = x->alu_bypass,
                              .mul_bypass = x->mul_bypass,
                              .prelu = x->prelu,
                              .relu_bypass = x->relu_bypass,
                              .algo = x->algo,
                              .alu_op = (uint32_t)x->alu_reg & 0xFFFF,
                              .mul_op = (uint32_t)x->mul_reg & 0xFFFF};
}

void sdp32_run(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group)
{
    sdp32_run_lut(sdp, rdma, NULL, ctx, group, NULL);
}

bool sdp32_compute_lut(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const sdp_lut_t *lut, const nvdla_dp_ctx_t *ctx,
                       int group, sdp_lut_stats_t *stats, cube32_t *out, place32_t *dst)
{
    uint32_t w = nvdla_pp_bits(sdp, SDP + 0x3c, 12, 0) + 1, h = nvdla_pp_bits(sdp, SDP + 0x40, 12, 0) + 1,
             ch = nvdla_pp_bits(sdp, SDP + 0x44, 12, 0) + 1;
    if (w != nvdla_pp_bits(rdma, SDP_RDMA + 0x0c, 12, 0) + 1 || h != nvdla_pp_bits(rdma, SDP_RDMA + 0x10, 12, 0) + 1 ||
        ch != nvdla_pp_bits(rdma, SDP_RDMA + 0x14, 12, 0) + 1) {
        nv_dp_error(ctx, "SDP grp %d: SDP and SDP_RDMA cube sizes differ (they must be equal)", group);
        return false;
    }
    /* SDP_RDMA.D_FEATURE_MODE_CFG: IN_PRECISION [3:2], PROC [5:4], OUT [7:6]; SDP.D_DATA_FORMAT: PROC [1:0], OUT [3:2] */
    unsigned in_prec = nvdla_pp_bits(rdma, SDP_RDMA + 0x70, 3, 2), proc = nvdla_pp_bits(sdp, SDP + 0xbc, 1, 0),
             out_prec = nvdla_pp_bits(sdp, SDP + 0xbc, 3, 2);
    /* FP16 processing (sdp_fp16.c) of FP16 input, to FP16 or INT16 (sdp_c.cpp:48: Fp16ToInt16); INT16 processing to
     * FP16 (sdp_c.cpp:64: the 17-bit converter output through Int17ToFp16). cmod widens the input to FP32 only when it
     * processes in FP16 (NV_NVDLA_sdp.cpp:933); other mixtures (INT8 with FP16) are not computed. */
    const bool fp16 = proc == PREC_FP16, out_fp16 = out_prec == PREC_FP16;
    if ((fp16 || in_prec == PREC_FP16 || out_fp16) &&
        !(fp16 && in_prec == PREC_FP16 && (out_fp16 || out_prec == PREC_INT16)) &&
        !(proc == PREC_INT16 && in_prec == PREC_INT16 && out_fp16)) {
        nv_dp_error(ctx,
                    "SDP grp %d: FP16 with another precision (input %u, processing %u, output %u; 1 INT16, 2 FP16): "
                    "FP16 to FP16 or INT16, and INT16 to FP16, are computed for 32-byte atoms",
                    group, in_prec, proc, out_prec);
        return false;
    }
    uint32_t in_esz = fp16 ? 2 : dp32_esz(ctx, "SDP", group, in_prec),
             out_esz = fp16 || out_fp16 ? 2 : dp32_esz(ctx, "SDP", group, out_prec);
    if (!in_esz || !out_esz || (!fp16 && !dp32_esz(ctx, "SDP", group, proc))) return false;
    if (in_esz != out_esz) { /* the atom layouts differ (32 vs 16 lanes): not yet */
        nv_dp_error(ctx, "SDP grp %d: input and output precisions differ: not computed for 32-byte atoms yet", group);
        return false;
    }
    /* Y (EW): its ALU and multiplier at INT8/INT16/FP16 with register or memory operands (ERDMA), then its LUT when
     * the caller holds the table (sdp_lut.h; at FP16 sdp_lut_fp16.h, where no configuration is undefined in cmod) */
    const sdp_ew_cfg_t ew = sdp_ew_cfg(sdp);
    const sdp_lut_cfg_t lc = sdp_lut_cfg_read(sdp);
    const bool with_lut = !ew.bypass && !ew.lut_bypass;
    if (with_lut && !fp16 && lut && sdp_lut_refusal(&lc)) {
        nv_dp_error(ctx, "SDP grp %d: the EW (Y) stage's LUT with %s: not computed", group, sdp_lut_refusal(&lc));
        return false;
    }
    if (!ew.bypass && ((with_lut && !lut) || (!ew.alu_bypass && ew.algo == 3))) {
        nv_dp_error(ctx,
                    "SDP grp %d: the EW (Y) stage %s: not computed for 32-byte atoms yet (its ALU and multiplier at "
                    "INT8/INT16/FP16 are, and its LUT when the table is held)",
                    group, with_lut ? "with its LUT" : "in ALU mode EQL (equal mode)");
        return false;
    }
    /* BS and BN with register or memory operands (BRDMA, NRDMA: sdp_opdma32.h), in the processing precision's
     * groups of channels (32 at INT8, 16 at INT16 and FP16) */
    const sdp_x_cfg_t bs = sdp_x_cfg(sdp, 0x58), bn = sdp_x_cfg(sdp, 0x6c);
    const unsigned proc_lanes = proc == PREC_INT8 ? 32 : 16;
    const sdp_opdma32_t bd = sdp_opdma32(rdma, SDP_OPDMA_B, proc_lanes),
                        nd = sdp_opdma32(rdma, SDP_OPDMA_N, proc_lanes);
    const sdp_opdma32_t ed = sdp_opdma32(rdma, SDP_OPDMA_E, proc_lanes);
    bool bs_a, bs_m, bn_a, bn_m, ew_a, ew_m;
    sdp_x_wants(&bs, &bs_a, &bs_m), sdp_x_wants(&bn, &bn_a, &bn_m), sdp_ew_wants(&ew, &ew_a, &ew_m);
    if (!sdp_opdma32_check(ctx, group, "BS", bs_a, bs_m, &bd, proc == PREC_INT8) ||
        !sdp_opdma32_check(ctx, group, "BN", bn_a, bn_m, &nd, proc == PREC_INT8) ||
        !sdp_opdma32_check(ctx, group, "EW", ew_a, ew_m, &ed, proc == PREC_INT8))
        return false;
    place32_t src = {.space = nvdla_pp_bits(rdma, SDP_RDMA + 0x74, 0, 0) ? 0 : NVDLA_CV_SPACE,
                     .base = nvdla_pp_reg(rdma, SDP_RDMA + 0x18),
                     .line = nvdla_pp_reg(rdma, SDP_RDMA + 0x20),
                     .surf = nvdla_pp_reg(rdma, SDP_RDMA + 0x24)};
    *dst = (place32_t){.space = nvdla_pp_bits(sdp, SDP + 0xb4, 0, 0) ? 0 : NVDLA_CV_SPACE,
                       .base = nvdla_pp_reg(sdp, SDP + 0x48),
                       .line = nvdla_pp_reg(sdp, SDP + 0x50),
                       .surf = nvdla_pp_reg(sdp, SDP + 0x54)};
    sdp32_place_1x1(&src, w, h), sdp32_place_1x1(dst, w, h);
    /* on the fly to PDP the write DMA is idle: its place is not checked */
    if (!dp32_aligned(ctx, "SDP_RDMA", group, &src) ||
        (!sdp_golden_to_pdp(sdp) && !dp32_aligned(ctx, "SDP", group, dst)))
        return false;
    cube32_t in;
    if (!cube32_alloc(ctx, "SDP", group, &in, w, h, ch, in_esz)) return false;
    if (!cube32_alloc(ctx, "SDP", group, out, w, h, ch, out_esz)) {
        free(in.v);
        return false;
    }
    cube32_read(ctx, &in, &src);
    const uint32_t off = nvdla_pp_reg(sdp, SDP + 0xc0), scale = nvdla_pp_reg(sdp, SDP + 0xc4),
                   shift = nvdla_pp_reg(sdp, SDP + 0xc8) & 63;
    const sdp_fp16_cfg_t f16 = {.x1 = sdp32_fp16_stage(&bs),
                                .x2 = sdp32_fp16_stage(&bn),
                                .y = sdp_ew_fp16_stage(&ew),
                                .nan_to_zero = nvdla_pp_bits(sdp, SDP + 0xb0, 3, 3),
                                .out_int16 = out_prec == PREC_INT16,
                                .lut_cfg = &lc,
                                .lut = with_lut ? lut : NULL,
                                .stats = stats};
    for (uint32_t s = 0; s < in.s; s++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                const int32_t *ia = cube32_atom(&in, s, y, x);
                int32_t *oa = cube32_atom(out, s, y, x);
                for (uint32_t l = 0; l < in.lanes; l++) { /* pad lanes too, from their own bytes */
                    sdp_x_cfg_t b = bs, n = bn;           /* register operands, or this element's from memory */
                    if (bd.on) sdp_opdma32_fetch(&bd, ctx->mem, s, y, x, l, w == 1 && h == 1, &b.alu_reg, &b.mul_reg);
                    if (nd.on) sdp_opdma32_fetch(&nd, ctx->mem, s, y, x, l, w == 1 && h == 1, &n.alu_reg, &n.mul_reg);
                    if (fp16) {
                        sdp_fp16_cfg_t e = f16;
                        e.x1 = sdp32_fp16_stage(&b), e.x2 = sdp32_fp16_stage(&n);
                        if (ed.on) sdp32_ew_fp16_fetch(&ed, ctx->mem, s, y, x, l, w == 1 && h == 1, &e);
                        oa[l] = sdp_fp16_element(&e, (uint16_t)ia[l]);
                        if (f16.out_int16) oa[l] = (int16_t)oa[l]; /* signed, as PDP on the fly pools it */
                        continue;
                    }
                    int64_t t = sdp_x_stage(&b, ia[l], b.alu_reg, b.mul_reg);
                    t = sdp_x_stage(&n, t, n.alu_reg, n.mul_reg);
                    if (!ew.bypass) { /* memory operands through their converters, register ones as they are */
                        int64_t ea = ew.alu.reg, em = ew.mul.reg, ra = 0, rm = 0;
                        if (ed.on) {
                            sdp_opdma32_fetch(&ed, ctx->mem, s, y, x, l, w == 1 && h == 1, &ra, &rm);
                            if (ed.alu) ea = sdp_ew_cvt(&ew.alu, ra);
                            if (ed.mul) em = sdp_ew_cvt(&ew.mul, rm);
                        }
                        t = sdp_ew_int(&ew, t, ea, em);
                        if (with_lut) {
                            sdp_lut_out_t o;
                            t = sdp_lut_int(&lc, lut, t, &o);
                            if (stats) stats->n[sdp_lut_outcome(&o)]++;
                        }
                    }
                    int32_t y = sdp_cvt_bits(t, off, scale, shift, out_fp16 ? 17 : 8 * out_esz, NULL);
                    oa[l] = out_fp16 ? (int32_t)nv_int17_to_fp16((uint32_t)y) : y;
                }
            }
    free(in.v);
    return true;
}

void sdp32_run_lut(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const sdp_lut_t *lut, const nvdla_dp_ctx_t *ctx,
                   int group, sdp_lut_stats_t *stats)
{
    cube32_t out;
    place32_t dst;
    if (!sdp32_compute_lut(sdp, rdma, lut, ctx, group, stats, &out, &dst)) return;
    cube32_write(ctx, &out, &dst, "SDP", group);
    free(out.v);
}

pdp_fp16_cfg_t pdp32_fp16_cfg(const pdp_pool_cfg_t *p, bool nan_to_zero)
{
    return (pdp_fp16_cfg_t){.method = p->method,
                            .kw = p->kw,
                            .kh = p->kh,
                            .sw = p->sw,
                            .sh = p->sh,
                            .pl = p->pl,
                            .pt = p->pt,
                            .recip_w = p->recip_w & 0x1FFFF,
                            .recip_h = p->recip_h & 0x1FFFF,
                            .nan_to_zero = nan_to_zero};
}

/* PDP at FP16 (pdp_fp16.c), lane by lane: the values are FP16 bits (cube32_read sign-extends them). */
static void pdp32_fp16(const nvdla_pp_t *pdp, const pdp_pool_cfg_t *p, bool onfly, const cube32_t *in, cube32_t *out)
{
    /* NAN_FLUSH_TO_ZERO acts on PDP_RDMA's stream only: NV_NVDLA_PDP_nan.v sits between PDP_RDMA and the core
     * (NV_NVDLA_pdp.v:275), SDP's stream enters after it (cal1d.v:495); cmod flushes OFF_FLYING only
     * (NV_NVDLA_pdp.cpp:549) */
    pdp_fp16_cfg_t c = pdp32_fp16_cfg(p, !onfly && nvdla_pp_bits(pdp, PDP + 0x28, 0, 0));
    /* D_POOLING_PADDING_VALUE_n_CFG: 19 bits stored, the low 17 an FP17 value (NV_NVDLA_pdp.cpp:516-522 passes the
     * register, pdp_hls_wrapper.cpp:50-51 cuts it to vFp17Type) */
    for (unsigned n = 0; n < 7; n++) c.pad[n] = nvdla_pp_reg(pdp, PDP + 0x44 + 4 * n) & 0x1FFFF;
    uint16_t *plane = malloc((size_t)in->w * in->h * sizeof *plane);
    if (!plane) abort();
    for (uint32_t s = 0; s < in->s; s++)
        for (uint32_t l = 0; l < in->lanes; l++) {
            for (uint32_t y = 0; y < in->h; y++)
                for (uint32_t x = 0; x < in->w; x++)
                    plane[(size_t)y * in->w + x] = (uint16_t)cube32_atom(in, s, y, x)[l];
            for (uint32_t oy = 0; oy < out->h; oy++)
                for (uint32_t ox = 0; ox < out->w; ox++)
                    cube32_atom(out, s, oy, ox)[l] = pdp_fp16_pool_one(&c, plane, in->w, in->h, ox, oy);
        }
    free(plane);
}

/* PDP at INT8 or INT16, lane by lane: MAX and MIN over the window's real elements (padding never wins, as in the
 * nv_small model), AVERAGE with nv_full's widths (pdp_golden.c pdp_avg_nvf_*). */
static void pdp32_int(const pdp_pool_cfg_t *c, const pdp_avg_bits_t *b, const cube32_t *in, cube32_t *out)
{
    int32_t *plane = malloc((size_t)in->w * in->h * sizeof *plane);
    if (!plane) abort();
    for (uint32_t s = 0; s < in->s; s++)
        for (uint32_t l = 0; l < in->lanes; l++) {
            for (uint32_t y = 0; y < in->h; y++)
                for (uint32_t x = 0; x < in->w; x++) plane[(size_t)y * in->w + x] = cube32_atom(in, s, y, x)[l];
            for (uint32_t oy = 0; oy < out->h; oy++)
                for (uint32_t ox = 0; ox < out->w; ox++)
                    cube32_atom(out, s, oy, ox)[l] = pdp_pool_one(c, b, plane, in->w, in->h, ox, oy);
        }
    free(plane);
}

/* PDP's layer of its CONSUMER group: the input from PDP_RDMA (rdma) or, on the fly, SDP's output cube (fly). */
static void pdp32_layer(const nvdla_pp_t *pdp, const nvdla_pp_t *rdma, const cube32_t *fly, const nvdla_dp_ctx_t *ctx,
                        int group)
{
    pdp_pool_cfg_t c = pdp_pool_cfg(pdp);
    uint32_t wi = nvdla_pp_bits(pdp, PDP + 0x0c, 12, 0) + 1, hi = nvdla_pp_bits(pdp, PDP + 0x10, 12, 0) + 1,
             ci = nvdla_pp_bits(pdp, PDP + 0x14, 12, 0) + 1;
    uint32_t wo = nvdla_pp_bits(pdp, PDP + 0x18, 12, 0) + 1, ho = nvdla_pp_bits(pdp, PDP + 0x1c, 12, 0) + 1;
    /* D_DATA_FORMAT [1:0] in PDP and PDP_RDMA: 0 INT8, 1 INT16, 2 FP16 */
    unsigned prec = nvdla_pp_bits(pdp, PDP + 0x84, 1, 0);
    if (rdma && (wi != nvdla_pp_bits(rdma, PDP_RDMA + 0x0c, 12, 0) + 1 ||
                 hi != nvdla_pp_bits(rdma, PDP_RDMA + 0x10, 12, 0) + 1 ||
                 ci != nvdla_pp_bits(rdma, PDP_RDMA + 0x14, 12, 0) + 1)) {
        nv_dp_error(ctx, "PDP grp %d: PDP_RDMA cube differs from PDP's", group);
        return;
    }
    if (fly && (wi != fly->w || hi != fly->h || ci != fly->c)) {
        nv_dp_error(ctx, "PDP grp %d: on the fly, PDP's input cube %ux%ux%u differs from SDP's output %ux%ux%u", group,
                    wi, hi, ci, fly->w, fly->h, fly->c);
        return;
    }
    if (nvdla_pp_bits(pdp, PDP + 0x20, 12, 0) + 1 != ci) {
        nv_dp_error(ctx, "PDP grp %d: OUT_CHANNEL differs from IN_CHANNEL", group);
        return;
    }
    if (rdma && prec != nvdla_pp_bits(rdma, PDP_RDMA + 0x30, 1, 0)) {
        nv_dp_error(ctx, "PDP grp %d: PDP and PDP_RDMA data formats differ", group);
        return;
    }
    const bool fp16 = prec == PREC_FP16;
    uint32_t esz = fp16 ? 2 : dp32_esz(ctx, "PDP", group, prec);
    if (!esz) return;
    if (fly && fly->esz != esz) {
        nv_dp_error(ctx,
                    "PDP grp %d: on the fly, PDP's data format (%u-byte elements) differs from SDP's output's (%u)",
                    group, esz, fly->esz);
        return;
    }
    /* NVIDIA's firmware asserts split_num == 1 on the fly (kmd/firmware/pdp.c:355): SDP's stream is not re-sent */
    if (fly && nvdla_pp_bits(pdp, PDP + 0x24, 15, 8)) {
        nv_dp_error(ctx,
                    "PDP grp %d: split width on the fly (SPLIT_NUM %u): not computed (NVIDIA's firmware forbids it)",
                    group, nvdla_pp_bits(pdp, PDP + 0x24, 15, 8));
        return;
    }
    if (c.method == 3) {
        nv_dp_error(ctx, "PDP grp %d: pooling method 3 is reserved", group);
        return;
    }
    if (c.method == 0 &&
        (c.kw > 8 || c.kh > 8)) { /* pdp_fp16_kernel_width(), pdp_fp16_cfg_t.pad, kw3 of pdp_pool_one */
        nv_dp_error(ctx,
                    "PDP grp %d: average pooling with a kernel of %ux%u: the RTL reads KERNEL_WIDTH[2:0] for it "
                    "(cal2d.v:6288, :8772) and counts a window's elements in 3 bits (cal1d.v:2782, cal2d.v:6221); "
                    "kernels up to 8x8 are computed",
                    group, c.kw, c.kh);
        return;
    }
    pdp_check_cfg(ctx, group, &c, wi, hi, wo, ho);
    place32_t dst = {.space = nvdla_pp_bits(pdp, PDP + 0x80, 0, 0) ? 0 : NVDLA_CV_SPACE,
                     .base = nvdla_pp_reg(pdp, PDP + 0x70),
                     .line = nvdla_pp_reg(pdp, PDP + 0x78),
                     .surf = nvdla_pp_reg(pdp, PDP + 0x7c)};
    if (!dp32_aligned(ctx, "PDP", group, &dst)) return;
    cube32_t in = {.v = NULL}, out;
    if (rdma) {
        place32_t src = {.space = nvdla_pp_bits(rdma, PDP_RDMA + 0x2c, 0, 0) ? 0 : NVDLA_CV_SPACE,
                         .base = nvdla_pp_reg(rdma, PDP_RDMA + 0x1c),
                         .line = nvdla_pp_reg(rdma, PDP_RDMA + 0x24),
                         .surf = nvdla_pp_reg(rdma, PDP_RDMA + 0x28)};
        if (!dp32_aligned(ctx, "PDP_RDMA", group, &src) || !cube32_alloc(ctx, "PDP", group, &in, wi, hi, ci, esz))
            return;
        cube32_read(ctx, &in, &src);
    }
    const cube32_t *from = rdma ? &in : fly;
    if (cube32_alloc(ctx, "PDP", group, &out, wo, ho, ci, esz)) {
        if (fp16) pdp32_fp16(pdp, &c, fly != NULL, from, &out);
        else pdp32_int(&c, esz == 2 ? &pdp_avg_nvf_int16 : &pdp_avg_nvf_int8, from, &out);
        cube32_write(ctx, &out, &dst, "PDP", group);
        free(out.v);
    }
    free(in.v);
}

void pdp32_run(const nvdla_pp_t *pdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group)
{
    pdp32_layer(pdp, rdma, NULL, ctx, group);
}

void pdp32_fly_pool(const nvdla_pp_t *pdp, const nvdla_dp_ctx_t *ctx, int group, const cube32_t *in)
{
    pdp32_layer(pdp, NULL, in, ctx, group);
}

void pdp32_fly_run(const nvdla_pp_t *sdp, const nvdla_pp_t *sdp_rdma, const struct sdp_lut *lut,
                   struct sdp_lut_stats *stats, const nvdla_pp_t *pdp, const nvdla_dp_ctx_t *ctx, int sdp_group,
                   int pdp_group)
{
    cube32_t mid;
    place32_t unused;
    if (!sdp32_compute_lut(sdp, sdp_rdma, lut, ctx, sdp_group, stats, &mid, &unused)) return;
    pdp32_layer(pdp, NULL, &mid, ctx, pdp_group);
    free(mid.v);
}
