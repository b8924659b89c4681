/* PDP on the fly on nv_full (nvf_gen.h): SDP reads a cube from memory (DBB or CVSRAM), runs its BS (X1) and BN (X2)
 * stages with register operands and its converter, and streams its output into PDP (SDP's OUTPUT_DST = PDP, PDP's
 * FLYING_MODE on), which pools it (max, min, average with padding values, kernels, strides, padding) into memory:
 * INT8, INT16 or FP16 throughout. Programmed as NVIDIA's firmware does for a fused SDP -> PDP (kmd/firmware/sdp.c
 * without the write DMA's registers, pdp.c with src_data.type DLA_MEM_HW: PDP_RDMA untouched, no source registers,
 * SPLIT_NUM 0, which pdp.c:355 asserts), PDP enabled first so that it is waiting for SDP's stream (as nv_small's
 * pdp_onfly, tb/nvdla/pdp_gen.c). The generator predicts every pooled element itself (SDP's element arithmetic, then
 * the pooling of nvf_dp_gen.c's PDP jobs), so golden-only runs check the golden model's nv_full path too
 * (dp_atom32.c pdp32_fly_run). docs/nvdla_nv_full.md, "PDP on the fly". */
#ifndef NV_FULL_ABSENT
#include "nv_full_regs.h"
#include "nvf_gen.h"
#include "dp_atom32.h"     /* sdp32_fp16_stage, pdp32_fp16_cfg: the stages' FP16 forms as the model reads them */
#include "nvdla_dp_math.h" /* nv_sx */
#include "nvdla_fp16.h"    /* nv_fp16_to_fp17, nv_fp17_mul */
#include "pdp_fp16.h"      /* pdp_fp16_pool_one, pdp_fp16_kernel_width */
#include "pdp_gen.h"       /* pdp_pick_geom */
#include "pdp_golden.h"    /* pdp_pool_one with nv_full's widths */
#include "sdp_fp16.h"      /* sdp_fp16_element */
#include "sdp_golden.h"    /* sdp_x_stage, sdp_cvt_bits */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOB_TIMEOUT 600000u
enum { INTR_SDP = 0x1u, INTR_PDP = 0x10u }; /* GLB status bits of group 0; << 1 for group 1 */

/* KMD's 1/k (firmware pdp.c recip_kernel_size), as nvf_dp_gen.c writes them: Q0.16 for INT8/INT16, FP17 for FP16 */
static const uint32_t recip[2][8] = {{0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2aaa, 0x2492, 0x2000},
                                     {0x7c00, 0x7800, 0x7555, 0x7400, 0x7266, 0x7155, 0x7092, 0x7000}};

/* What the generator predicts: SDP's output plane by plane (mid, c x hi x wi, the output precision's bits), then
 * PDP's pooling of a plane. */
typedef struct fly_ref {
    pdp_geom_t geo;
    bool fp16;
    pdp_fp16_cfg_t f16;
    pdp_pool_cfg_t pool;
    uint32_t esz;
    int32_t *mid;
    nvf_place_t dst; /* PDP's output (nvf_pdp_fly_draw) */
    nvf_cube_t out;
} fly_ref_t;

static int32_t fly_elem(const void *ctx, uint32_t ch, uint32_t oy, uint32_t ox)
{
    const fly_ref_t *c = ctx;
    const pdp_geom_t *g = &c->geo;
    const int32_t *plane = c->mid + (size_t)ch * g->wi * g->hi;
    if (!c->fp16)
        return pdp_pool_one(&c->pool, c->esz == 2 ? &pdp_avg_nvf_int16 : &pdp_avg_nvf_int8, plane, g->wi, g->hi, ox,
                            oy);
    uint16_t *h = malloc(sizeof *h * g->wi * g->hi);
    if (!h) abort();
    for (uint32_t i = 0; i < g->wi * g->hi; i++) h[i] = (uint16_t)plane[i];
    const int32_t v = pdp_fp16_pool_one(&c->f16, h, g->wi, g->hi, ox, oy);
    free(h);
    return v;
}

/* SDP's registers (from memory, output to PDP) and its prediction into ref->mid; returns its stages' tag. */
static const char *sdp_part(dp_wlist_t *l, rng_t *r, nvf_prec_t prec, nvf_place_t src, const nvf_cube_t *in,
                            const uint8_t *bytes, fly_ref_t *ref, char *tag, size_t n)
{
    const pdp_geom_t *g = &ref->geo;
    dp_put(l, NVDLA_SDP_RDMA_D_DATA_CUBE_WIDTH_0, g->wi - 1), dp_put(l, NVDLA_SDP_RDMA_D_DATA_CUBE_HEIGHT_0, g->hi - 1);
    dp_put(l, NVDLA_SDP_RDMA_D_DATA_CUBE_CHANNEL_0, g->c - 1);
    dp_put(l, NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW_0, src.addr), dp_put(l, NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_HIGH_0, 0);
    dp_put(l, NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE_0, in->line);
    dp_put(l, NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE_0, in->surf_reg);
    dp_put(l, NVDLA_SDP_RDMA_D_SRC_DMA_CFG_0, nvf_ram(src));
    dp_put(l, NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0, prec << 2 | prec << 4 | prec << 6);      /* memory input, batch 1 */
    dp_put(l, NVDLA_SDP_RDMA_D_BRDMA_CFG_0, 1), dp_put(l, NVDLA_SDP_RDMA_D_NRDMA_CFG_0, 1); /* operand DMAs off */
    dp_put(l, NVDLA_SDP_RDMA_D_ERDMA_CFG_0, 1);
    dp_put(l, NVDLA_SDP_D_DATA_CUBE_WIDTH_0, g->wi - 1), dp_put(l, NVDLA_SDP_D_DATA_CUBE_HEIGHT_0, g->hi - 1);
    dp_put(l, NVDLA_SDP_D_DATA_CUBE_CHANNEL_0, g->c - 1);
    const bool fp16 = prec == NVF_FP16, nan0 = fp16 && rng_chance(r, 50);
    /* memory input, OUTPUT_DST PDP (bit 1), no Winograd, batch 1; FP16: SDP's own NaN flush drawn */
    dp_put(l, NVDLA_SDP_D_FEATURE_MODE_CFG_0, 2u | (uint32_t)nan0 << 3);
    dp_put(l, NVDLA_SDP_D_DATA_FORMAT_0, prec | prec << 2);
    sdp_x_cfg_t bs, bn;
    const char *bs_tag = nvf_sdp_x_stage(l, r, NVDLA_SDP_D_DP_BS_CFG_0, &bs, fp16);
    nvf_sdp_x_stage(l, r, NVDLA_SDP_D_DP_BN_CFG_0, &bn, fp16);
    dp_put(l, NVDLA_SDP_D_DP_EW_CFG_0, 0x53); /* EW (Y) bypassed, its ALU, multiplier and LUT too */
    const bool wild = rng_chance(r, 30);      /* the converter: near identity, or anything (unused at FP16) */
    const uint32_t off = wild ? (uint32_t)((int32_t)rng_next(r) >> rng_range(r, 0, 31)) : rng_range(r, 0, 16) - 8,
                   scale = wild ? (uint32_t)rng_next(r) & 0xFFFF : rng_range(r, 1, 4),
                   shift = wild ? rng_range(r, 0, 63) : rng_range(r, 0, 4);
    dp_put(l, NVDLA_SDP_D_CVT_OFFSET_0, off), dp_put(l, NVDLA_SDP_D_CVT_SCALE_0, scale);
    dp_put(l, NVDLA_SDP_D_CVT_SHIFT_0, shift);
    const sdp_fp16_cfg_t f16 = {
        .x1 = sdp32_fp16_stage(&bs), .x2 = sdp32_fp16_stage(&bn), .nan_to_zero = nan0, .out_int16 = false};
    for (uint32_t ch = 0; ch < g->c; ch++)
        for (uint32_t y = 0; y < g->hi; y++)
            for (uint32_t x = 0; x < g->wi; x++) {
                const int32_t v = nvf_elem(bytes, in, ch, y, x);
                int32_t *o = &ref->mid[((size_t)ch * g->hi + y) * g->wi + x];
                if (fp16) {
                    *o = sdp_fp16_element(&f16, (uint16_t)v);
                    continue;
                }
                int64_t t = sdp_x_stage(&bs, v, bs.alu_reg, bs.mul_reg);
                t = sdp_x_stage(&bn, t, bn.alu_reg, bn.mul_reg);
                *o = sdp_cvt_bits(t, off, scale, shift, 8 * in->esz, NULL);
            }
    snprintf(tag, n, "%s%s", nan0 ? "nan0." : "", bs_tag);
    return tag;
}

/* PDP's registers on the fly (no PDP_RDMA, no source) and its pooling configuration in ref; returns the job tag's
 * pooling part. */
static void pdp_part(dp_wlist_t *l, rng_t *r, nvf_prec_t prec, nvf_place_t dst, const nvf_cube_t *out, fly_ref_t *ref,
                     char *tag, size_t n)
{
    const pdp_geom_t *g = &ref->geo;
    const bool fp16 = prec == NVF_FP16, padded = g->pl || g->pr || g->pt || g->pb;
    ref->pool = (pdp_pool_cfg_t){.method = g->method,
                                 .kw = g->kw,
                                 .kh = g->kh,
                                 .sw = g->sw,
                                 .sh = g->sh,
                                 .pl = g->pl,
                                 .pt = g->pt,
                                 .pr = g->pr,
                                 .pb = g->pb,
                                 .recip_w = recip[fp16][g->kw - 1],
                                 .recip_h = recip[fp16][g->kh - 1]};
    /* NAN_FLUSH_TO_ZERO drawn but without effect on the fly (dp_atom32.c pdp32_fp16: the RTL flushes PDP_RDMA's
     * stream only) */
    const bool nan_reg = fp16 && rng_chance(r, 50);
    ref->f16 = pdp32_fp16_cfg(&ref->pool, false);
    uint32_t pad[7] = {0};
    bool pad_drawn = false;
    if (fp16 && g->method == 0 && padded && rng_chance(r, 25)) { /* as nvf_dp_gen.c: n x v, v one FP16 value */
        static const nvf_fp16_mix_t m = {0, -4, 4};
        const uint32_t v = nv_fp16_to_fp17(nvf_fp16_value(r, &m));
        for (unsigned i = 0; i < 7; i++) pad[i] = ref->f16.pad[i] = nv_fp17_mul(v, pdp_fp16_kernel_width(i + 1));
        pad_drawn = pad[0];
    }
    if (!fp16 && g->method == 0) { /* as nvf_dp_gen.c: the firmware's 1/k mostly, padding values natural or any */
        if (!rng_chance(r, 70))
            ref->pool.recip_w = (uint32_t)rng_next(r) & 0x1FFFF, ref->pool.recip_h = (uint32_t)rng_next(r) & 0x1FFFF;
        const int32_t half = ref->esz == 2 ? 32768 : 128, unit = (int32_t)rng_below(r, 2 * (uint32_t)half) - half;
        const bool natural = rng_chance(r, 60);
        pad_drawn = padded && rng_chance(r, 75);
        for (unsigned i = 0; i < 7; i++)
            pad[i] = !pad_drawn ? 0 : natural ? (uint32_t)(unit * (int32_t)(i + 1)) & 0x7FFFF : rng_next(r) & 0x7FFFF;
        for (unsigned k = 1; k <= 7; k++) ref->pool.pv[k] = nv_sx(pad[k - 1], 19);
    }
    dp_put(l, NVDLA_PDP_D_DATA_CUBE_IN_WIDTH_0, g->wi - 1), dp_put(l, NVDLA_PDP_D_DATA_CUBE_IN_HEIGHT_0, g->hi - 1);
    dp_put(l, NVDLA_PDP_D_DATA_CUBE_IN_CHANNEL_0, g->c - 1);
    dp_put(l, NVDLA_PDP_D_DATA_CUBE_OUT_WIDTH_0, g->wo - 1), dp_put(l, NVDLA_PDP_D_DATA_CUBE_OUT_HEIGHT_0, g->ho - 1);
    dp_put(l, NVDLA_PDP_D_DATA_CUBE_OUT_CHANNEL_0, g->c - 1);
    dp_put(l, NVDLA_PDP_D_OPERATION_MODE_CFG_0, g->method); /* FLYING_MODE 0: on the fly; SPLIT_NUM 0 */
    dp_put(l, NVDLA_PDP_D_NAN_FLUSH_TO_ZERO_0, nan_reg);
    dp_put(l, NVDLA_PDP_D_PARTIAL_WIDTH_IN_0, 0), dp_put(l, NVDLA_PDP_D_PARTIAL_WIDTH_OUT_0, 0);
    dp_put(l, NVDLA_PDP_D_POOLING_KERNEL_CFG_0, (g->kw - 1) | (g->kh - 1) << 8 | (g->sw - 1) << 16 | (g->sh - 1) << 20);
    dp_put(l, NVDLA_PDP_D_RECIP_KERNEL_WIDTH_0, ref->pool.recip_w);
    dp_put(l, NVDLA_PDP_D_RECIP_KERNEL_HEIGHT_0, ref->pool.recip_h);
    dp_put(l, NVDLA_PDP_D_POOLING_PADDING_CFG_0, g->pl | g->pt << 4 | g->pr << 8 | g->pb << 12);
    for (unsigned i = 0; i < 7; i++) dp_put(l, NVDLA_PDP_D_POOLING_PADDING_VALUE_1_CFG_0 + 4 * i, pad[i]);
    dp_put(l, NVDLA_PDP_D_DST_BASE_ADDR_LOW_0, dst.addr), dp_put(l, NVDLA_PDP_D_DST_BASE_ADDR_HIGH_0, 0);
    dp_put(l, NVDLA_PDP_D_DST_LINE_STRIDE_0, out->line), dp_put(l, NVDLA_PDP_D_DST_SURFACE_STRIDE_0, out->surf);
    dp_put(l, NVDLA_PDP_D_DST_RAM_CFG_0, nvf_ram(dst));
    dp_put(l, NVDLA_PDP_D_DATA_FORMAT_0, prec);
    snprintf(tag, n, "%s%s.k%ux%u.s%ux%u",
             g->method == 0   ? "avg"
             : g->method == 1 ? "max"
                              : "min",
             pad_drawn ? ".padv"
             : nan_reg ? ".pnan0"
                       : "",
             g->kw, g->kh, g->sw, g->sh);
}

/* One fused job k in register group g: SDP (group g) -> PDP (group g); its expectation checked after both are done. */
static void fly_job(program_t *p, rng_t *r, uint64_t seed, int k, int g, bool corrupt)
{
    prog_job(p, "%s", "pdp_random_fly"); /* named below, once drawn */
    const size_t job_op = p->n - 1;
    const nvf_prec_t prec = nvf_draw_prec(r, NVF_DRAW_DP);
    const uint32_t esz = nvf_prec[prec].esz, lanes = 32 / esz;
    fly_ref_t *ref = calloc(1, sizeof *ref);
    if (!ref) abort();
    ref->esz = esz, ref->fp16 = prec == NVF_FP16;
    /* within nv_full's line buffer in one pass (no split on the fly), as nvf_dp_gen.c's PDP jobs */
    pdp_pick_geom(r, &ref->geo, 12, 10, 3 * lanes, false);
    const pdp_geom_t *geo = &ref->geo;
    nvf_fp16_mix_t mix = {0, 0, 0};
    if (ref->fp16) mix = nvf_fp16_draw_mix(r);
    const nvf_place_t src = nvf_place(r, 2 * k, 0, 35), dst = nvf_place(r, 2 * k, 1, 35);
    nvf_cube_t in = nvf_cube(r, geo->wi, geo->hi, geo->c, esz), out = nvf_cube(r, geo->wo, geo->ho, geo->c, esz);
    nvf_cube_sdp(&in);
    uint8_t *bytes = ref->fp16 ? nvf_fill_fp16_keep(p, r, src, nvf_cube_bytes(&in), &mix)
                               : nvf_fill_keep(p, r, src, nvf_cube_bytes(&in));
    nvf_fill(p, r, dst, nvf_cube_bytes(&out));
    ref->mid = malloc(sizeof *ref->mid * geo->c * geo->hi * geo->wi);
    if (!ref->mid) abort();
    dp_wlist_t l = {.n = 0};
    char stag[40], ptag[48];
    sdp_part(&l, r, prec, src, &in, bytes, ref, stag, sizeof stag);
    pdp_part(&l, r, prec, dst, &out, ref, ptag, sizeof ptag);
    char name[200], fmix[32] = "";
    if (ref->fp16) snprintf(fmix, sizeof fmix, ".m%ue%d_%d", mix.special_pct, mix.emin, mix.emax);
    snprintf(name, sizeof name, "pdp_random_fly.s%llu.j%d.%s%s.%s2%s.%s.%s", (unsigned long long)seed, k,
             nvf_prec[prec].name, fmix, src.cv ? "cv" : "dbb", dst.cv ? "cv" : "dbb", stag, ptag);
    free(p->ops[job_op].text);
    p->ops[job_op].text = strdup(name);
    nvf_pointers(p, NVDLA_SDP_S_POINTER_0, NVDLA_SDP_RDMA_S_POINTER_0, g);
    nvf_pointers(p, NVDLA_PDP_S_POINTER_0, 0, g);
    dp_emit_shuffled(p, r, &l);
    nvf_enable(p, r, NVDLA_PDP_D_OP_ENABLE_0, 0); /* PDP waits for SDP's stream */
    nvf_enable(p, r, NVDLA_SDP_D_OP_ENABLE_0, NVDLA_SDP_RDMA_D_OP_ENABLE_0);
    nvf_wait_done(p, (INTR_SDP | INTR_PDP) << g, JOB_TIMEOUT);
    prog_check_golden(p);
    nvf_expect_cube(p, "PDP output", dst, &out, fly_elem, ref, corrupt);
    free(bytes);
    free(ref->mid);
    free(ref);
}

/* nv_small's line-buffer bound on an output line's width for a kernel of kh lines at stride sh (pdp_gen.c max_w) */
static uint32_t max_wo(unsigned kh, unsigned sh)
{
    const unsigned lines = (kh + sh - 1) / sh;
    return lines == 1 ? 128 : lines == 2 ? 64 : lines <= 4 ? 32 : 16;
}

/* One dimension of a pooling over n inputs with an exact tiling (pads below the kernel), as pdp_pick_geom's jobs:
 * drawn until one fits within `lim` outputs, else 1 x 1 at stride 1. */
static void pool_dim(rng_t *r, uint32_t n, uint32_t lim, unsigned *k, unsigned *st, unsigned *p0, unsigned *p1,
                     uint32_t *out)
{
    for (int tries = 0; tries < 64; tries++) {
        *k = rng_range(r, 1, 8);
        *st = rng_chance(r, 70) ? rng_range(r, 1, *k) : rng_range(r, 1, 8);
        const bool pads = rng_chance(r, 70);
        *p0 = pads ? rng_below(r, *k) : 0, *p1 = pads ? rng_below(r, *k) : 0;
        const uint32_t total = n + *p0 + *p1;
        if (total < *k || (total - *k) % *st) continue;
        *out = (total - *k) / *st + 1;
        if (*out <= lim) return;
    }
    *k = *st = 1, *p0 = *p1 = 0, *out = n;
}

nvf_pdp_fly_t *nvf_pdp_fly_draw(program_t *p, rng_t *r, dp_wlist_t *l, nvf_prec_t prec, uint32_t wi, uint32_t hi,
                                uint32_t c, nvf_place_t dst, char *tag, size_t n)
{
    fly_ref_t *ref = calloc(1, sizeof *ref);
    if (!ref) abort();
    ref->esz = nvf_prec[prec].esz, ref->fp16 = prec == NVF_FP16, ref->dst = dst;
    pdp_geom_t *g = &ref->geo;
    g->method = rng_below(r, 3), g->wi = wi, g->hi = hi, g->c = c, g->parts = 1;
    pool_dim(r, hi, 64, &g->kh, &g->sh, &g->pt, &g->pb, &g->ho);
    pool_dim(r, wi, max_wo(g->kh, g->sh), &g->kw, &g->sw, &g->pl, &g->pr, &g->wo);
    ref->out = nvf_cube(r, g->wo, g->ho, c, ref->esz);
    nvf_fill(p, r, dst, nvf_cube_bytes(&ref->out));
    ref->mid = malloc(sizeof *ref->mid * c * hi * wi);
    if (!ref->mid) abort();
    pdp_part(l, r, prec, dst, &ref->out, ref, tag, n);
    return ref;
}

int32_t *nvf_pdp_fly_mid(nvf_pdp_fly_t *f) { return f->mid; }

void nvf_pdp_fly_expect(program_t *p, nvf_pdp_fly_t *f, bool corrupt)
{
    /* INT8/INT16: the elements signed (a caller's FP16 layer with an INT16 output gives its bits: 0xFFFF is -1) */
    for (size_t i = 0; !f->fp16 && i < (size_t)f->geo.c * f->geo.hi * f->geo.wi; i++)
        f->mid[i] = (int32_t)nv_sx((uint32_t)f->mid[i], 8 * f->esz);
    nvf_expect_cube(p, "PDP output", f->dst, &f->out, fly_elem, f, corrupt);
    free(f->mid);
    free(f);
}

static int fly_run(program_t *p, uint64_t seed, bool corrupt)
{
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_pdp_random_fly");
    const int rounds = (int)rng_range(&r, 1, 3);
    for (int k = 0; k < rounds; k++) fly_job(p, &r, seed, k, k & 1, corrupt && !k);
    return 0;
}

int nvf_pdp_random_fly(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return fly_run(p, seed, false);
}

int nvf_pdp_fly_corrupt(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return fly_run(p, seed, true);
}
#else
#include "nvf_gen.h"
#include <stdio.h>
NVF_ABSENT(nvf_pdp_random_fly)
NVF_ABSENT(nvf_pdp_fly_corrupt)
NVF_ABSENT(nvf_conv_random_pdp)
NVF_ABSENT(nvf_conv_random_cmp_pdp)
NVF_ABSENT(nvf_pdp_random_split)
#endif
