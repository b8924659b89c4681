/* SDP, PDP and CDP jobs on nv_full (nvf_gen.h), memory to memory, INT8, INT16 or FP16, input and output each in DBB or
 * CVSRAM. FP16 jobs draw FP16/FP32 values wherever the unit reads its registers as such (SDP's operands, CDP's LUT
 * entries, bounds and slopes, PDP's reciprocals and padding values) and FP16 inputs with their corners. Registers as NVIDIA's firmware
 * programs nv_full (nvdla_sw kmd/firmware sdp.c, pdp.c, cdp.c; the c906fc6 build without DLA_SMALL_CONFIG runs
 * NVIDIA's regression loadables on it): every field the unit reads is written, none with junk (nv_full stores more
 * fields than nv_small: batch, Winograd, compression, NaN flushing). What the golden model computes for 32-byte
 * atoms bounds the draws: SDP's BS (X1) and BN (X2) stages with register operands and its converter (operand DMAs
 * and the EW stage off), PDP's max, min and average pooling (split in width in pdp_random_split), CDP's LUT (linear or exponent LE table, LO table,
 * under- and overflow, square sum or its bypass, multiplier or its bypass). */
#ifndef NV_FULL_ABSENT
#include "nv_full_regs.h"
#include "nvf_gen.h"
#include "pdp_gen.h"
#include "dp_atom32.h"     /* sdp32_fp16_stage: the X stage's FP16 form, as the model reads it */
#include "cdp_fp16.h"      /* cdp_fp16_element, cdp16_*, cdp_*: the element arithmetic of the expected outputs */
#include "nvdla_fp16.h"    /* FP16/FP17/FP32 primitives: the same */
#include "pdp_fp16.h"      /* pdp_fp16_pool_one: the same */
#include "pdp_golden.h"    /* pdp_pool_one with nv_full's widths: the same */
#include "nvdla_dp_math.h" /* nv_sx */
#include "sdp_fp16.h"      /* sdp_fp16_element */
#include "sdp_golden.h"    /* sdp_x_stage, sdp_cvt_bits: the same */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOB_TIMEOUT 600000u
enum { INTR_SDP = 0x1u, INTR_CDP = 0x4u, INTR_PDP = 0x10u }; /* GLB status bit of group 0; << 1 for group 1 */

static unsigned log2u(uint64_t v) { return v ? 63u - (unsigned)__builtin_clzll(v) : 0; }

/* A job's frame: precision, input and output places and cubes, the job name's tag. */
typedef struct frame {
    nvf_prec_t prec;
    nvf_fp16_mix_t mix; /* FP16 input: how its values are drawn */
    nvf_place_t src, dst;
    nvf_cube_t in, out;
} frame_t;

/* A job's output as the generator predicts it, checked after the job completed (nvf_expect_cube). */
typedef struct expect {
    char what[16];
    nvf_place_t at;
    nvf_cube_t q;
    nvf_elem_fn elem;
    void *ctx; /* freed with its `input` */
    uint8_t *input;
    /* NULL, or writes the job for NVIDIA's C model (+nvf_oracle=): lines "<job as tests/oracle's driver reads
     * it>\t<expected outputs>\t<job name>", hexadecimal, at most FP_PDP_MAX (4096) values a job line */
    void (*oracle)(FILE *f, const void *ctx, const char *name);
} expect_t;

enum { ORACLE_MAX = 4096 }; /* tests/oracle/nvdla_fp_sweep.h FP_PDP_MAX: values in one job line */

/* What a test's jobs draw: anything the model computes, every job FP16 (the *_random_fp16 tests), or every job INT8
 * or INT16 average pooling (pdp_random_avg) */
typedef enum { DRAW_ANY, DRAW_FP16, DRAW_INT_AVG, DRAW_SPLIT } dp_draw_t; /* DRAW_SPLIT: PDP split width */

static void frame_places(rng_t *r, int k, frame_t *f, dp_draw_t draw)
{
    f->prec = draw == DRAW_FP16      ? NVF_FP16
              : draw == DRAW_INT_AVG ? (rng_chance(r, 50) ? NVF_INT16 : NVF_INT8)
                                     : nvf_draw_prec(r, NVF_DRAW_DP);
    if (f->prec == NVF_FP16) f->mix = nvf_fp16_draw_mix(r);
    f->src = nvf_place(r, k, 0, 35);
    f->dst = nvf_place(r, k, 1, 35);
}

/* The input's bytes (kept for the expected output; FP16 values for an FP16 input) and the output's (gap bytes must
 * survive). */
static uint8_t *frame_data(program_t *p, rng_t *r, const frame_t *f, bool fp16_in)
{
    uint8_t *in = fp16_in ? nvf_fill_fp16_keep(p, r, f->src, nvf_cube_bytes(&f->in), &f->mix)
                          : nvf_fill_keep(p, r, f->src, nvf_cube_bytes(&f->in));
    nvf_fill(p, r, f->dst, nvf_cube_bytes(&f->out));
    return in;
}

static void expect_set(expect_t *e, const char *what, const frame_t *f, nvf_elem_fn elem, void *ctx, uint8_t *input)
{
    snprintf(e->what, sizeof e->what, "%s", what);
    e->at = f->dst, e->q = f->out, e->elem = elem, e->ctx = ctx, e->input = input;
}

/* The job's part of its round's name: precision (an FP16 job's with its input mix: m<special %>e<emin>_<emax>),
 * places, mode. */
static void job_tag(char *tag, size_t n, const frame_t *f, const char *what)
{
    char mix[32] = "";
    if (f->prec == NVF_FP16) snprintf(mix, sizeof mix, ".m%ue%d_%d", f->mix.special_pct, f->mix.emin, f->mix.emax);
    snprintf(tag, n, "%s%s.%s2%s.%s", nvf_prec[f->prec].name, mix, f->src.cv ? "cv" : "dbb", f->dst.cv ? "cv" : "dbb",
             what);
}

/* ---- SDP ---------------------------------------------------------------------------------------------------- */
/* A 16-bit register operand: small or anything. */
static uint32_t opnd(rng_t *r)
{
    return (rng_chance(r, 50) ? rng_range(r, 0, 15) - 8 : (uint32_t)rng_next(r)) & 0xFFFF;
}

/* An FP16 register operand: mostly 1/8 .. 8 (either sign), some corners (NaN, Inf, 0, denormals), some any bits. */
static uint32_t fp16_opnd(rng_t *r)
{
    static const nvf_fp16_mix_t m = {15, -3, 3};
    return rng_chance(r, 10) ? (uint32_t)rng_next(r) & 0xFFFF : nvf_fp16_value(r, &m);
}

void nvf_sdp_x_put(dp_wlist_t *l, uint32_t cfg, const sdp_x_cfg_t *c)
{
    dp_put(l, cfg,
           (uint32_t)c->bypass | (uint32_t)c->alu_bypass << 1 | c->algo << 2 | (uint32_t)c->mul_bypass << 4 |
               (uint32_t)c->prelu << 5 | (uint32_t)c->relu_bypass << 6);
    dp_put(l, cfg + 0x4, (uint32_t)c->alu_src | c->alu_shift << 8); /* ALU_CFG: SRC 1 = memory */
    dp_put(l, cfg + 0x8, (uint16_t)c->alu_reg);
    dp_put(l, cfg + 0xc, (uint32_t)c->mul_src | c->mul_shift << 8); /* MUL_CFG */
    dp_put(l, cfg + 0x10, (uint16_t)c->mul_reg);
}

const char *nvf_sdp_x_stage(dp_wlist_t *l, rng_t *r, uint32_t cfg, sdp_x_cfg_t *c, bool fp16)
{
    const bool on = rng_chance(r, 70), alu = rng_chance(r, 60), mul = rng_chance(r, 60), relu = rng_chance(r, 50);
    const bool prelu = mul && rng_chance(r, 25);
    const unsigned algo = rng_below(r, 3), ash = rng_chance(r, 80) ? rng_range(r, 0, 8) : rng_range(r, 0, 63);
    const uint32_t aop = fp16 ? fp16_opnd(r) : opnd(r);
    const unsigned msh = rng_chance(r, 80) ? rng_range(r, 0, 8) : rng_range(r, 0, 63); /* the model's 6 bits */
    const uint32_t mop = fp16 ? fp16_opnd(r) : opnd(r);
    *c = (sdp_x_cfg_t){.bypass = !on,
                       .alu_bypass = !alu,
                       .mul_bypass = !mul,
                       .prelu = prelu,
                       .relu_bypass = !relu,
                       .algo = algo,
                       .alu_shift = ash,
                       .mul_shift = msh,
                       .alu_reg = (int16_t)aop,
                       .mul_reg = (int16_t)mop};
    nvf_sdp_x_put(l, cfg, c);
    return !on ? "byp" : alu && mul ? "alumul" : alu ? "alu" : mul ? "mul" : relu ? "relu" : "pass";
}

/* An SDP job's precisions (SDP_RDMA's input, SDP's processing and output): one precision throughout, or an FP16 job's
 * mixtures the model computes (FP16 processing to an INT16 output, INT16 processing to an FP16 output). */
typedef enum { SDP_SAME, SDP_FP16_TO_INT16, SDP_INT16_TO_FP16 } sdp_mixed_t;
static const struct {
    const char *tag;
    unsigned in, proc, out;
} sdp_precs[] = {[SDP_SAME] = {"", 0, 0, 0},
                 [SDP_FP16_TO_INT16] = {"2int16.", NVF_FP16, NVF_FP16, NVF_INT16},
                 [SDP_INT16_TO_FP16] = {"int16in.", NVF_INT16, NVF_INT16, NVF_FP16}};

typedef struct sdp_ref {
    sdp_x_cfg_t bs, bn;
    uint32_t off, scale, shift;
    sdp_mixed_t mixed;
    bool fp16_proc;
    sdp_fp16_cfg_t f16; /* FP16 processing: the stages as the registers say (FP16 operands) */
    nvf_cube_t in;
    const uint8_t *bytes;
} sdp_ref_t;

/* BS, BN and the converter on one element, the output precision's bits out: integer stages and converter, or FP16
 * stages in FP32 (sdp_fp16_element), or INT16 stages and the converter's 17 bits made FP16 (Int17ToFp16). */
static int32_t sdp_elem(const void *ctx, uint32_t ch, uint32_t y, uint32_t x)
{
    const sdp_ref_t *c = ctx;
    const int32_t in = nvf_elem(c->bytes, &c->in, ch, y, x);
    if (c->fp16_proc) return sdp_fp16_element(&c->f16, (uint16_t)in);
    int64_t t = sdp_x_stage(&c->bs, in, c->bs.alu_reg, c->bs.mul_reg);
    t = sdp_x_stage(&c->bn, t, c->bn.alu_reg, c->bn.mul_reg);
    if (c->mixed == SDP_INT16_TO_FP16)
        return (int32_t)nv_int17_to_fp16((uint32_t)sdp_cvt_bits(t, c->off, c->scale, c->shift, 17, NULL));
    return sdp_cvt_bits(t, c->off, c->scale, c->shift, 8 * c->in.esz, NULL);
}

/* The job's elements in (c, y, x) order, in lines of at most ORACLE_MAX: FP16 processing only (the oracle's INT16
 * datapath has no shifts). */
static void sdp_oracle(FILE *f, const void *ctx, const char *name)
{
    const sdp_ref_t *c = ctx;
    if (!c->fp16_proc) return;
    const nvf_cube_t *q = &c->in;
    const uint32_t n = q->c * q->h * q->w;
    for (uint32_t k0 = 0; k0 < n; k0 += ORACLE_MAX) {
        const uint32_t m = n - k0 < ORACLE_MAX ? n - k0 : ORACLE_MAX;
        fprintf(f, "sdp %x 2 %x %x %x %x", c->f16.nan_to_zero, c->f16.out_int16 ? 1u : 2u, c->off, c->scale & 0xFFFF,
                c->shift);
        const sdp_fp16_stage_t *st[2] = {&c->f16.x1, &c->f16.x2};
        for (int i = 0; i < 2; i++)
            fprintf(f, " %x %x %x %x %x %x %x %x", st[i]->bypass, st[i]->alu_bypass, st[i]->algo, st[i]->mul_bypass,
                    st[i]->prelu, st[i]->relu_bypass, st[i]->alu_op, st[i]->mul_op);
        fprintf(f, " %x", m);
        for (int pass = 0; pass < 2; pass++) {
            for (uint32_t k = k0; k < k0 + m; k++) {
                const uint32_t ch = k / (q->h * q->w), y = k / q->w % q->h, x = k % q->w;
                const uint16_t v = (uint16_t)(pass ? sdp_elem(c, ch, y, x) : nvf_elem(c->bytes, q, ch, y, x));
                fprintf(f, pass && k == k0 ? "%x" : " %x", v);
            }
            fputc('\t', f);
        }
        fprintf(f, "%s\n", name);
    }
}

static void sdp_job(program_t *p, rng_t *r, int k, int g, dp_draw_t draw, char *tag, size_t n, expect_t *e)
{
    frame_t f;
    frame_places(r, k, &f, draw);
    const uint32_t esz = nvf_prec[f.prec].esz, lanes = 32 / esz;
    const uint32_t w = rng_range(r, 1, rng_chance(r, 20) ? 24 : 6), h = rng_range(r, 1, rng_chance(r, 20) ? 8 : 5),
                   c = rng_chance(r, 15) ? rng_range(r, 1, lanes) : rng_range(r, 1, 3 * lanes);
    f.in = nvf_cube(r, w, h, c, esz), f.out = nvf_cube(r, w, h, c, esz);
    nvf_cube_sdp(&f.in), nvf_cube_sdp(&f.out);
    sdp_ref_t *ref = calloc(1, sizeof *ref);
    if (!ref) abort();
    /* FP16 jobs: FP16 throughout (60 %), FP16 to INT16 (20 %) or INT16 to FP16 (20 %); both 2 bytes an element */
    const unsigned mix = f.prec != NVF_FP16 ? 0 : rng_below(r, 100);
    ref->mixed = mix < 60 ? SDP_SAME : mix < 80 ? SDP_FP16_TO_INT16 : SDP_INT16_TO_FP16;
    const uint32_t in_pr = ref->mixed == SDP_SAME ? f.prec : sdp_precs[ref->mixed].in,
                   proc = ref->mixed == SDP_SAME ? f.prec : sdp_precs[ref->mixed].proc,
                   out_pr = ref->mixed == SDP_SAME ? f.prec : sdp_precs[ref->mixed].out;
    ref->fp16_proc = proc == NVF_FP16;
    ref->in = f.in;
    ref->bytes = frame_data(p, r, &f, in_pr == NVF_FP16);
    expect_set(e, "SDP output", &f, sdp_elem, ref, (uint8_t *)ref->bytes);
    e->oracle = sdp_oracle;
    dp_wlist_t l = {.n = 0};
    dp_put(&l, NVDLA_SDP_RDMA_D_DATA_CUBE_WIDTH_0, w - 1), dp_put(&l, NVDLA_SDP_RDMA_D_DATA_CUBE_HEIGHT_0, h - 1);
    dp_put(&l, NVDLA_SDP_RDMA_D_DATA_CUBE_CHANNEL_0, c - 1);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW_0, f.src.addr), dp_put(&l, NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE_0, f.in.line);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE_0, f.in.surf_reg);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_DMA_CFG_0, nvf_ram(f.src));
    dp_put(&l, NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0, in_pr << 2 | proc << 4 | out_pr << 6); /* memory input, batch 1 */
    dp_put(&l, NVDLA_SDP_RDMA_D_BRDMA_CFG_0, 1), dp_put(&l, NVDLA_SDP_RDMA_D_NRDMA_CFG_0, 1); /* operand DMAs off */
    dp_put(&l, NVDLA_SDP_RDMA_D_ERDMA_CFG_0, 1);
    dp_put(&l, NVDLA_SDP_D_DATA_CUBE_WIDTH_0, w - 1), dp_put(&l, NVDLA_SDP_D_DATA_CUBE_HEIGHT_0, h - 1);
    dp_put(&l, NVDLA_SDP_D_DATA_CUBE_CHANNEL_0, c - 1);
    dp_put(&l, NVDLA_SDP_D_DST_BASE_ADDR_LOW_0, f.dst.addr), dp_put(&l, NVDLA_SDP_D_DST_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_SDP_D_DST_LINE_STRIDE_0, f.out.line), dp_put(&l, NVDLA_SDP_D_DST_SURFACE_STRIDE_0, f.out.surf_reg);
    dp_put(&l, NVDLA_SDP_D_DST_DMA_CFG_0, nvf_ram(f.dst));
    /* memory input, output to memory, no Winograd, batch 1; FP16 processing: NaN inputs and operands +0 or not */
    ref->f16.nan_to_zero = ref->fp16_proc && rng_chance(r, 50);
    dp_put(&l, NVDLA_SDP_D_FEATURE_MODE_CFG_0, (uint32_t)ref->f16.nan_to_zero << 3);
    dp_put(&l, NVDLA_SDP_D_DATA_FORMAT_0, proc | out_pr << 2);
    const char *bs = nvf_sdp_x_stage(&l, r, NVDLA_SDP_D_DP_BS_CFG_0, &ref->bs, ref->fp16_proc);
    nvf_sdp_x_stage(&l, r, NVDLA_SDP_D_DP_BN_CFG_0, &ref->bn, ref->fp16_proc);
    ref->f16.x1 = sdp32_fp16_stage(&ref->bs), ref->f16.x2 = sdp32_fp16_stage(&ref->bn);
    ref->f16.out_int16 = out_pr == NVF_INT16;
    dp_put(&l, NVDLA_SDP_D_DP_EW_CFG_0, 0x53); /* EW (Y) bypassed, its ALU, multiplier and LUT too */
    /* converter: near identity (values spread over the output range) or anything; unused by FP16 processing
     * (sdp_c.cpp), drawn all the same */
    const bool wild = rng_chance(r, 30);
    ref->off = wild ? (uint32_t)((int32_t)rng_next(r) >> rng_range(r, 0, 31)) : rng_range(r, 0, 16) - 8;
    ref->scale = wild ? (uint32_t)rng_next(r) & 0xFFFF : rng_range(r, 1, 4);
    ref->shift = wild ? rng_range(r, 0, 63) : rng_range(r, 0, 4);
    dp_put(&l, NVDLA_SDP_D_CVT_OFFSET_0, ref->off), dp_put(&l, NVDLA_SDP_D_CVT_SCALE_0, ref->scale);
    dp_put(&l, NVDLA_SDP_D_CVT_SHIFT_0, ref->shift);
    char what[40];
    snprintf(what, sizeof what, "%s%s%s", sdp_precs[ref->mixed].tag, ref->f16.nan_to_zero ? "nan0." : "", bs);
    job_tag(tag, n, &f, what);
    nvf_pointers(p, NVDLA_SDP_S_POINTER_0, NVDLA_SDP_RDMA_S_POINTER_0, g);
    dp_emit_shuffled(p, r, &l);
    nvf_enable(p, r, NVDLA_SDP_D_OP_ENABLE_0, NVDLA_SDP_RDMA_D_OP_ENABLE_0);
}

/* ---- PDP ---------------------------------------------------------------------------------------------------- */
/* KMD's 1/k (firmware pdp.c recip_kernel_size): Q0.16 for INT8/INT16 (unused by max/min, written as the firmware
 * does), FP17 for FP16 (average pooling multiplies by them) */
static const uint32_t recip[2][8] = {{0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2aaa, 0x2492, 0x2000},
                                     {0x7c00, 0x7800, 0x7555, 0x7400, 0x7266, 0x7155, 0x7092, 0x7000}};

typedef struct pdp_ref {
    pdp_geom_t geo;
    bool fp16;
    pdp_fp16_cfg_t f16;
    pdp_pool_cfg_t pool; /* INT8/INT16: reciprocals and padding values as the unit reads them */
    nvf_cube_t in;
    const uint8_t *bytes;
} pdp_ref_t;

/* FP16: the channel's input plane through the FP16 pooling (max, min, or average with its padding values). */
static int32_t pdp_fp16_elem(const pdp_ref_t *c, uint32_t ch, uint32_t oy, uint32_t ox)
{
    const pdp_geom_t *g = &c->geo;
    uint16_t *plane = malloc(sizeof *plane * g->wi * g->hi);
    if (!plane) abort();
    for (uint32_t y = 0; y < g->hi; y++)
        for (uint32_t x = 0; x < g->wi; x++) plane[y * g->wi + x] = (uint16_t)nvf_elem(c->bytes, &c->in, ch, y, x);
    const int32_t v = pdp_fp16_pool_one(&c->f16, plane, g->wi, g->hi, ox, oy);
    free(plane);
    return v;
}

/* INT8/INT16: the channel's input plane through the model's pooling with nv_full's widths (max and min never take a
 * padded position; average adds the padding values); FP16 as above. */
static int32_t pdp_elem(const void *ctx, uint32_t ch, uint32_t oy, uint32_t ox)
{
    const pdp_ref_t *c = ctx;
    if (c->fp16) return pdp_fp16_elem(c, ch, oy, ox);
    const pdp_geom_t *g = &c->geo;
    int32_t *plane = malloc(sizeof *plane * g->wi * g->hi);
    if (!plane) abort();
    for (uint32_t y = 0; y < g->hi; y++)
        for (uint32_t x = 0; x < g->wi; x++) plane[y * g->wi + x] = nvf_elem(c->bytes, &c->in, ch, y, x);
    const int32_t v =
        pdp_pool_one(&c->pool, c->in.esz == 2 ? &pdp_avg_nvf_int16 : &pdp_avg_nvf_int8, plane, g->wi, g->hi, ox, oy);
    free(plane);
    return v;
}

/* One line per channel: its input plane and its outputs (planes of more than ORACLE_MAX values are left out). */
static void pdp_oracle(FILE *f, const void *ctx, const char *name)
{
    const pdp_ref_t *c = ctx;
    const pdp_geom_t *g = &c->geo;
    if (!c->fp16 || g->wi * g->hi > ORACLE_MAX) return;
    for (uint32_t ch = 0; ch < g->c; ch++) {
        fprintf(f, "pdp %x %x %x %x %x %x %x %x %x %x %x %x %x %x", g->method, g->kw, g->kh, g->sw, g->sh, g->pl, g->pt,
                g->pr, g->pb, g->wi, g->hi, c->f16.nan_to_zero, c->f16.recip_w, c->f16.recip_h);
        for (int k = 0; k < 7; k++) fprintf(f, " %x", c->f16.pad[k]);
        for (uint32_t y = 0; y < g->hi; y++)
            for (uint32_t x = 0; x < g->wi; x++) fprintf(f, " %x", (uint16_t)nvf_elem(c->bytes, &c->in, ch, y, x));
        fputc('\t', f);
        for (uint32_t y = 0; y < g->ho; y++)
            for (uint32_t x = 0; x < g->wo; x++) fprintf(f, y || x ? " %x" : "%x", (uint16_t)pdp_elem(c, ch, y, x));
        fprintf(f, "\t%s\n", name);
    }
}

static void pdp_job(program_t *p, rng_t *r, int k, int g, dp_draw_t draw, char *tag, size_t n, expect_t *e)
{
    frame_t f;
    frame_places(r, k, &f, draw);
    const uint32_t esz = nvf_prec[f.prec].esz, lanes = 32 / esz;
    pdp_geom_t geo;
    /* nv_small's constraints (exact tiling, pads < kernel), without split and within 12 x 10 outputs: nv_full's line
     * buffer holds at least nv_small's MaxW in atoms, so one pass suffices (firmware splits only past it) */
    pdp_pick_geom(r, &geo, 12, 10, 3 * lanes, false);
    /* pdp_random_split: split width (2-4 passes of at most 6 outputs, as nv_small's jobs), redrawn until split */
    for (int tries = 0; draw == DRAW_SPLIT && geo.parts < 2 && tries < 64; tries++)
        pdp_pick_geom(r, &geo, 12, 10, 3 * lanes, true);
    if (draw == DRAW_INT_AVG) geo.method = 0;
    const bool fp16 = f.prec == NVF_FP16;
    f.in = nvf_cube(r, geo.wi, geo.hi, geo.c, esz), f.out = nvf_cube(r, geo.wo, geo.ho, geo.c, esz);
    pdp_ref_t *ref = calloc(1, sizeof *ref);
    if (!ref) abort();
    ref->geo = geo, ref->in = f.in, ref->fp16 = fp16;
    /* FP16: NaN inputs flushed or not; average's padding values (FP17, PAD_VALUE_n the sum of n padding elements of
     * one value v: n x v) in a quarter of the jobs with padding, else 0 as NVIDIA's firmware requires at FP16
     * (pdp.c asserts it; the golden model and cmod compute them, vectors/nvdla/txn_fp16/pdp_fp16_average_pad) */
    const bool nan_to_zero = fp16 && rng_chance(r, 50), padded = geo.pl || geo.pr || geo.pt || geo.pb;
    ref->pool = (pdp_pool_cfg_t){.method = geo.method,
                                 .kw = geo.kw,
                                 .kh = geo.kh,
                                 .sw = geo.sw,
                                 .sh = geo.sh,
                                 .pl = geo.pl,
                                 .pt = geo.pt,
                                 .pr = geo.pr,
                                 .pb = geo.pb,
                                 .recip_w = recip[fp16][geo.kw - 1],
                                 .recip_h = recip[fp16][geo.kh - 1]};
    ref->f16 = pdp32_fp16_cfg(&ref->pool, nan_to_zero);
    uint32_t pad[7] = {0};
    bool pad_drawn = false;
    if (fp16 && geo.method == 0 && padded && rng_chance(r, 25)) {
        static const nvf_fp16_mix_t m = {0, -4, 4};
        const uint32_t v = nv_fp16_to_fp17(nvf_fp16_value(r, &m));
        for (unsigned i = 0; i < 7; i++) pad[i] = ref->f16.pad[i] = nv_fp17_mul(v, pdp_fp16_kernel_width(i + 1));
        pad_drawn = pad[0];
    }
    if (!fp16 && geo.method == 0) {
        /* INT8/INT16 average: the firmware's 1/k mostly, else any 17 bits (RQ's positive wrap); padding values the
         * sum of n elements of one value (the firmware's use) or any 19 bits (the row and column wraps) */
        if (!rng_chance(r, 70))
            ref->pool.recip_w = (uint32_t)rng_next(r) & 0x1FFFF, ref->pool.recip_h = (uint32_t)rng_next(r) & 0x1FFFF;
        const int32_t half = esz == 2 ? 32768 : 128, unit = (int32_t)rng_below(r, 2 * (uint32_t)half) - half;
        const bool natural = rng_chance(r, 60);
        pad_drawn = padded && rng_chance(r, 75);
        for (unsigned i = 0; i < 7; i++)
            pad[i] = !pad_drawn ? 0 : natural ? (uint32_t)(unit * (int32_t)(i + 1)) & 0x7FFFF : rng_next(r) & 0x7FFFF;
        for (unsigned n = 1; n <= 7; n++) ref->pool.pv[n] = nv_sx(pad[n - 1], 19);
    }
    ref->bytes = frame_data(p, r, &f, fp16);
    expect_set(e, "PDP output", &f, pdp_elem, ref, (uint8_t *)ref->bytes);
    e->oracle = pdp_oracle;
    dp_wlist_t l = {.n = 0};
    dp_put(&l, NVDLA_PDP_RDMA_D_DATA_CUBE_IN_WIDTH_0, geo.wi - 1);
    dp_put(&l, NVDLA_PDP_RDMA_D_DATA_CUBE_IN_HEIGHT_0, geo.hi - 1);
    dp_put(&l, NVDLA_PDP_RDMA_D_DATA_CUBE_IN_CHANNEL_0, geo.c - 1);
    dp_put(&l, NVDLA_PDP_RDMA_D_FLYING_MODE_0, 1); /* off the fly: from memory */
    dp_put(&l, NVDLA_PDP_RDMA_D_SRC_BASE_ADDR_LOW_0, f.src.addr), dp_put(&l, NVDLA_PDP_RDMA_D_SRC_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_PDP_RDMA_D_SRC_LINE_STRIDE_0, f.in.line);
    dp_put(&l, NVDLA_PDP_RDMA_D_SRC_SURFACE_STRIDE_0, f.in.surf);
    dp_put(&l, NVDLA_PDP_RDMA_D_SRC_RAM_CFG_0, nvf_ram(f.src));
    dp_put(&l, NVDLA_PDP_RDMA_D_DATA_FORMAT_0, f.prec);
    /* split: PARTIAL_WIDTH_* {FIRST [9:0], LAST [19:10], MID [29:20]} - 1, the input widths as NVIDIA's firmware
     * (pdp.c:341) and nv_small's jobs (pdp_gen.c) derive them, each pass re-reading the kernel's overlap */
    uint32_t pin = 0, pout = 0;
    if (geo.parts > 1) {
        const uint32_t in_first = (geo.of - 1) * geo.sw + geo.kw - geo.pl, in_mid = geo.om * geo.sw,
                       in_last = geo.wi - in_first - (geo.parts - 2) * in_mid;
        pin = (in_first - 1) | (in_last - 1) << 10 | (in_mid - 1) << 20;
        pout = (geo.of - 1) | (geo.ol - 1) << 10 | (geo.om - 1) << 20;
    }
    dp_put(&l, NVDLA_PDP_RDMA_D_OPERATION_MODE_CFG_0, geo.parts - 1); /* split_num - 1 */
    dp_put(&l, NVDLA_PDP_RDMA_D_POOLING_KERNEL_CFG_0, (geo.kw - 1) | (geo.sw - 1) << 4);
    dp_put(&l, NVDLA_PDP_RDMA_D_POOLING_PADDING_CFG_0, geo.pl);
    dp_put(&l, NVDLA_PDP_RDMA_D_PARTIAL_WIDTH_IN_0, pin);
    dp_put(&l, NVDLA_PDP_D_DATA_CUBE_IN_WIDTH_0, geo.wi - 1), dp_put(&l, NVDLA_PDP_D_DATA_CUBE_IN_HEIGHT_0, geo.hi - 1);
    dp_put(&l, NVDLA_PDP_D_DATA_CUBE_IN_CHANNEL_0, geo.c - 1);
    dp_put(&l, NVDLA_PDP_D_DATA_CUBE_OUT_WIDTH_0, geo.wo - 1);
    dp_put(&l, NVDLA_PDP_D_DATA_CUBE_OUT_HEIGHT_0, geo.ho - 1);
    dp_put(&l, NVDLA_PDP_D_DATA_CUBE_OUT_CHANNEL_0, geo.c - 1);
    dp_put(&l, NVDLA_PDP_D_OPERATION_MODE_CFG_0, geo.method | 1u << 4 | (geo.parts - 1) << 8); /* off the fly */
    dp_put(&l, NVDLA_PDP_D_NAN_FLUSH_TO_ZERO_0, nan_to_zero);
    dp_put(&l, NVDLA_PDP_D_PARTIAL_WIDTH_IN_0, pin), dp_put(&l, NVDLA_PDP_D_PARTIAL_WIDTH_OUT_0, pout);
    dp_put(&l, NVDLA_PDP_D_POOLING_KERNEL_CFG_0,
           (geo.kw - 1) | (geo.kh - 1) << 8 | (geo.sw - 1) << 16 | (geo.sh - 1) << 20);
    dp_put(&l, NVDLA_PDP_D_RECIP_KERNEL_WIDTH_0, ref->pool.recip_w);
    dp_put(&l, NVDLA_PDP_D_RECIP_KERNEL_HEIGHT_0, ref->pool.recip_h);
    dp_put(&l, NVDLA_PDP_D_POOLING_PADDING_CFG_0, geo.pl | geo.pt << 4 | geo.pr << 8 | geo.pb << 12);
    for (unsigned i = 0; i < 7; i++) /* average pooling's pad values: max and min never take padding */
        dp_put(&l, NVDLA_PDP_D_POOLING_PADDING_VALUE_1_CFG_0 + 4 * i, pad[i]);
    dp_put(&l, NVDLA_PDP_D_SRC_BASE_ADDR_LOW_0, f.src.addr), dp_put(&l, NVDLA_PDP_D_SRC_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_PDP_D_SRC_LINE_STRIDE_0, f.in.line), dp_put(&l, NVDLA_PDP_D_SRC_SURFACE_STRIDE_0, f.in.surf);
    dp_put(&l, NVDLA_PDP_D_DST_BASE_ADDR_LOW_0, f.dst.addr), dp_put(&l, NVDLA_PDP_D_DST_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_PDP_D_DST_LINE_STRIDE_0, f.out.line), dp_put(&l, NVDLA_PDP_D_DST_SURFACE_STRIDE_0, f.out.surf);
    dp_put(&l, NVDLA_PDP_D_DST_RAM_CFG_0, nvf_ram(f.dst));
    dp_put(&l, NVDLA_PDP_D_DATA_FORMAT_0, f.prec);
    char what[32];
    snprintf(what, sizeof what, "%s%s.k%ux%u.s%ux%u%s",
             geo.method == 0   ? "avg"
             : geo.method == 1 ? "max"
                               : "min",
             pad_drawn              ? ".padv"
             : ref->f16.nan_to_zero ? ".nan0"
                                    : "",
             geo.kw, geo.kh, geo.sw, geo.sh, geo.parts > 1 ? ".split" : "");
    job_tag(tag, n, &f, what);
    nvf_pointers(p, NVDLA_PDP_S_POINTER_0, NVDLA_PDP_RDMA_S_POINTER_0, g);
    dp_emit_shuffled(p, r, &l);
    nvf_enable(p, r, NVDLA_PDP_D_OP_ENABLE_0, NVDLA_PDP_RDMA_D_OP_ENABLE_0);
}

/* ---- CDP ---------------------------------------------------------------------------------------------------- */
/* A 38-bit LUT bound as {HIGH[5:0], LOW}; returns it as the unit reads it (sign-extended from bit 37). */
static int64_t put38(dp_wlist_t *l, uint32_t low_addr, int64_t v)
{
    dp_put(l, low_addr, (uint32_t)v);
    dp_put(l, low_addr + 4, (uint32_t)((uint64_t)v >> 32) & 0x3F);
    const int64_t top = (int64_t)1 << 37;
    return (int64_t)(((uint64_t)v & ((1ull << 38) - 1)) ^ (uint64_t)top) - top;
}

typedef struct cdp_ref {
    cdp_lut_cfg_t lc;
    cdp_lut_t lut;
    bool sq_byp, mul_byp;
    unsigned radius; /* channels each side in the square sum: NORMALZ_LEN + 1 */
    uint32_t ioff, isc, ish, ooff, osc, osh;
    bool fp16;
    cdp_fp16_cfg_t f16; /* FP16: the registers as FP16/FP32 values */
    nvf_cube_t in;
    const uint8_t *bytes;
} cdp_ref_t;

/* FP16: the channel from the FP16 values of the four channels each side (+0 outside the cube, as the RTL reads it:
 * CDP_FP16_OUTSIDE; cmod reads D_DATIN_OFFSET there). */
static int32_t cdp_fp16_elem(const cdp_ref_t *c, uint32_t ch, uint32_t y, uint32_t x)
{
    uint16_t win[9];
    for (int d = -4; d <= 4; d++) {
        const int j = (int)ch + d;
        win[4 + d] =
            j < 0 || j >= (int)c->in.c ? CDP_FP16_OUTSIDE : (uint16_t)nvf_elem(c->bytes, &c->in, (uint32_t)j, y, x);
    }
    return cdp_fp16_element(&c->f16, &c->lut, win);
}

static int64_t cdp_icvt_elem(const cdp_ref_t *c, uint32_t ch, uint32_t y, uint32_t x)
{
    if (ch >= c->in.c) return 0; /* past the cube: 0 after the converter (cmod feeds it the offset) */
    const int32_t e = nvf_elem(c->bytes, &c->in, ch, y, x);
    return c->in.esz == 2 ? cdp16_icvt((int16_t)e, c->ioff, c->isc, c->ish)
                          : cdp_icvt((int8_t)e, c->ioff, c->isc, c->ish);
}

/* The input converter, the square sum over the channel window (or its bypass), the LUT, the multiplier (or its
 * bypass) and the output converter on one element. */
static int32_t cdp_elem(const void *ctx, uint32_t ch, uint32_t y, uint32_t x)
{
    const cdp_ref_t *c = ctx;
    if (c->fp16) return cdp_fp16_elem(c, ch, y, x);
    const int64_t v = cdp_icvt_elem(c, ch, y, x);
    int64_t X = v;
    if (!c->sq_byp) {
        X = 0;
        for (int j = (int)ch - (int)c->radius; j <= (int)ch + (int)c->radius; j++)
            if (j >= 0) {
                const int64_t u = cdp_icvt_elem(c, (uint32_t)j, y, x);
                X += u * u;
            }
    }
    int unmodelled = 0;
    const int64_t yv =
        c->in.esz == 2 ? cdp16_lut_lookup(&c->lc, &c->lut, X, &unmodelled) : cdp_lut_lookup(&c->lc, &c->lut, X);
    const int64_t m = c->mul_byp ? yv : yv * v;
    return c->in.esz == 2 ? cdp16_ocvt(m, c->ooff, c->osc, c->osh) : cdp_ocvt(m, c->ooff, c->osc, c->osh);
}

/* LUT contents (random, a ramp or smooth) and the S_LUT_* settings, aimed at inputs of magnitude about 2^mag: the
 * tables' ranges start before, inside or past the inputs, so lookups underflow, hit and overflow; returns the LE
 * function's name for the job name. Written while CDP is idle (both groups share the LUT). */
static const char *lut_program(program_t *p, rng_t *r, unsigned mag, bool sq_byp, cdp_ref_t *ref)
{
    const unsigned style = rng_below(r, 3);
    const int base = (int)rng_range(r, 0, 4000) - 2000, step = (int)rng_range(r, 0, 800) - 400;
    prog_write(p, NVDLA_CDP_S_LUT_ACCESS_CFG_0, 0x20000); /* LE table, write, from entry 0 */
    for (int i = 0; i < 65; i++) {
        ref->lut.le[i] = (int16_t)(style == 0 ? (int)(rng_next(r) & 0xFFFF) : base + step * i);
        prog_write(p, NVDLA_CDP_S_LUT_ACCESS_DATA_0, (uint16_t)ref->lut.le[i]);
    }
    prog_write(p, NVDLA_CDP_S_LUT_ACCESS_CFG_0, 0x30000); /* LO table */
    for (int i = 0; i < 257; i++) {
        ref->lut.lo[i] = (int16_t)(style == 0 ? (int)(rng_next(r) & 0xFFFF)
                                              : base - step * i / 4 + (style == 2 ? (int)rng_range(r, 0, 64) - 32 : 0));
        prog_write(p, NVDLA_CDP_S_LUT_ACCESS_DATA_0, (uint16_t)ref->lut.lo[i]);
    }
    dp_wlist_t l = {.n = 0};
    const bool linear = rng_chance(r, 50);
    const uint32_t prio = rng_below(r, 8);
    dp_put(&l, NVDLA_CDP_S_LUT_CFG_0, linear | prio << 4); /* LE function, the three priorities */
    ref->lc.le_linear = linear, ref->lc.uflow_lo = prio & 1, ref->lc.oflow_lo = prio >> 1 & 1;
    ref->lc.hybrid_lo = prio >> 2 & 1;
    /* where the tables start: below the inputs (hits), at them (half underflow) or far above (all underflow) */
    const int64_t full = (int64_t)1 << mag, lo_in = sq_byp ? -full : 0;
    const unsigned where = rng_below(r, 4);
    const int64_t le_start = where == 0 ? lo_in : where == 1 ? lo_in / 2 : where == 2 ? full / 4 : 2 * full;
    /* index select: about 64 (LE) or 256 (LO) entries over the input range, sometimes far fewer (overflow) */
    const int span_log = (int)mag + (sq_byp ? 1 : 0) + (int)rng_range(r, 0, 4) - 3;
    int le_sel = span_log - 6 - (rng_chance(r, 30) ? (int)rng_range(r, 1, 6) : 0);
    int lo_sel = span_log - 8 - (rng_chance(r, 30) ? (int)rng_range(r, 1, 6) : 0);
    le_sel = le_sel < 0 ? 0 : le_sel > 30 ? 30 : le_sel, lo_sel = lo_sel < 0 ? 0 : lo_sel > 30 ? 30 : lo_sel;
    /* exponent table: index floor(log2(x - start)) - offset; an offset a few below log2 of the smallest inputs */
    const int le_off = linear ? 0 : (int)rng_range(r, 0, mag > 6 ? mag - 6 : 0) - (rng_chance(r, 20) ? 70 : 0);
    dp_put(&l, NVDLA_CDP_S_LUT_INFO_0, ((uint32_t)le_off & 0xFF) | (uint32_t)le_sel << 8 | (uint32_t)lo_sel << 16);
    ref->lc.le_index_offset = (uint32_t)le_off & 0xFF;
    ref->lc.le_index_select = (uint32_t)le_sel, ref->lc.lo_index_select = (uint32_t)lo_sel;
    const int64_t lo_start = rng_chance(r, 50) ? le_start : lo_in - (int64_t)rng_below(r, 64);
    ref->lc.le_start = put38(&l, NVDLA_CDP_S_LUT_LE_START_LOW_0, le_start);
    ref->lc.le_end = put38(&l, NVDLA_CDP_S_LUT_LE_END_LOW_0, le_start + ((int64_t)64 << le_sel));
    ref->lc.lo_start = put38(&l, NVDLA_CDP_S_LUT_LO_START_LOW_0, lo_start);
    ref->lc.lo_end = put38(&l, NVDLA_CDP_S_LUT_LO_END_LOW_0, lo_start + ((int64_t)256 << lo_sel));
    ref->lc.le_start22 = (uint32_t)le_start & 0x3FFFFF, ref->lc.lo_start22 = (uint32_t)lo_start & 0x3FFFFF;
    /* slopes of the under- and overflow lines: scale [15:0] underflow, [31:16] overflow; shift [4:0], [9:5] */
    const uint32_t les = (uint32_t)rng_next(r), los = (uint32_t)rng_next(r), lesh = rng_below(r, 1024),
                   losh = rng_below(r, 1024);
    dp_put(&l, NVDLA_CDP_S_LUT_LE_SLOPE_SCALE_0, les), dp_put(&l, NVDLA_CDP_S_LUT_LO_SLOPE_SCALE_0, los);
    dp_put(&l, NVDLA_CDP_S_LUT_LE_SLOPE_SHIFT_0, lesh), dp_put(&l, NVDLA_CDP_S_LUT_LO_SLOPE_SHIFT_0, losh);
    ref->lc.slopes.le_uflow_scale = (int16_t)les, ref->lc.slopes.le_oflow_scale = (int16_t)(les >> 16);
    ref->lc.slopes.lo_uflow_scale = (int16_t)los, ref->lc.slopes.lo_oflow_scale = (int16_t)(los >> 16);
    ref->lc.slopes.le_uflow_shift = (int)(lesh & 31) - (lesh & 16 ? 32 : 0); /* signed 5-bit fields */
    ref->lc.slopes.le_oflow_shift = (int)(lesh >> 5 & 31) - (lesh >> 5 & 16 ? 32 : 0);
    ref->lc.slopes.lo_uflow_shift = (int)(losh & 31) - (losh & 16 ? 32 : 0);
    ref->lc.slopes.lo_oflow_shift = (int)(losh >> 5 & 31) - (losh >> 5 & 16 ? 32 : 0);
    dp_emit_shuffled(p, r, &l);
    return linear ? "linear" : "exponent";
}

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* An FP16 slope (the under- and overflow lines' scales are FP16 at FP16): 0, small, or any bits. */
static uint16_t fp16_slope(rng_t *r)
{
    static const nvf_fp16_mix_t m = {0, -8, 1};
    const unsigned k = rng_below(r, 10);
    return k < 3 ? 0 : k < 9 ? nvf_fp16_value(r, &m) : (uint16_t)rng_next(r);
}

/* The FP16 form of lut_program (cmod HLS_CDP_lookup_lut): FP16 entries (random, a ramp or a noisy ramp), start and
 * end as FP32 values in the LOW registers, signed index selects and offset in S_LUT_INFO, FP16 slopes; aimed at LUT
 * inputs between 2^mag_lo and 2^mag (the square sum, or the value itself when bypassed) so that lookups underflow,
 * hit and overflow. */
static const char *lut_program_fp16(program_t *p, rng_t *r, int mag_lo, int mag, bool sq_byp, cdp_ref_t *ref)
{
    const unsigned style = rng_below(r, 3);
    static const nvf_fp16_mix_t entries = {5, -6, 6};
    const float base = ((float)rng_range(r, 0, 4000) - 2000) / 500, step = ((float)rng_range(r, 0, 800) - 400) / 1000;
    prog_write(p, NVDLA_CDP_S_LUT_ACCESS_CFG_0, 0x20000); /* LE table, write, from entry 0 */
    for (int i = 0; i < 65; i++) {
        ref->lut.le[i] =
            (int16_t)(style == 0 ? nvf_fp16_value(r, &entries) : nv_fp32_to_fp16(f32_bits(base + step * (float)i)));
        prog_write(p, NVDLA_CDP_S_LUT_ACCESS_DATA_0, (uint16_t)ref->lut.le[i]);
    }
    prog_write(p, NVDLA_CDP_S_LUT_ACCESS_CFG_0, 0x30000); /* LO table */
    for (int i = 0; i < 257; i++) {
        const float noise = style == 2 ? ((float)rng_range(r, 0, 64) - 32) / 256 : 0;
        ref->lut.lo[i] = (int16_t)(style == 0 ? nvf_fp16_value(r, &entries)
                                              : nv_fp32_to_fp16(f32_bits(base - step * (float)i / 4 + noise)));
        prog_write(p, NVDLA_CDP_S_LUT_ACCESS_DATA_0, (uint16_t)ref->lut.lo[i]);
    }
    dp_wlist_t l = {.n = 0};
    const bool linear = rng_chance(r, 50);
    const uint32_t prio = rng_below(r, 8);
    dp_put(&l, NVDLA_CDP_S_LUT_CFG_0, linear | prio << 4);
    cdp_fp16_cfg_t *c = &ref->f16;
    c->le_exponent = !linear, c->uflow_lo = prio & 1, c->oflow_lo = prio >> 1 & 1, c->hybrid_lo = prio >> 2 & 1;
    /* where the tables start: below the inputs (hits), among them (half underflow) or far above (all underflow) */
    const float full = ldexpf(1, mag), lo_in = sq_byp ? -full : 0;
    const unsigned where = rng_below(r, 4);
    const float le_start = where == 0 ? lo_in : where == 1 ? lo_in / 2 : where == 2 ? full / 4 : 2 * full;
    const int span_log = mag + (sq_byp ? 1 : 0) + (int)rng_range(r, 0, 4) - 3;
    int le_sel = span_log - 6 - (rng_chance(r, 30) ? (int)rng_range(r, 1, 6) : 0);
    int lo_sel = span_log - 8 - (rng_chance(r, 30) ? (int)rng_range(r, 1, 6) : 0);
    le_sel = le_sel < -30 ? -30 : le_sel > 30 ? 30 : le_sel, lo_sel = lo_sel < -30 ? -30 : lo_sel > 30 ? 30 : lo_sel;
    /* exponent table: index = exponent of (x - start) - offset: the smallest inputs' exponent or a few below (hits
     * and underflow), or 64 below the largest (overflow) */
    const int le_off = linear              ? 0
                       : rng_chance(r, 15) ? mag - 64 - (int)rng_range(r, 1, 8)
                                           : mag_lo - (int)rng_range(r, 0, 4);
    c->le_index_offset = linear ? 0 : le_off, c->le_index_select = le_sel, c->lo_index_select = lo_sel;
    dp_put(&l, NVDLA_CDP_S_LUT_INFO_0,
           ((uint32_t)le_off & 0xFF) | ((uint32_t)le_sel & 0xFF) << 8 | ((uint32_t)lo_sel & 0xFF) << 16);
    const float lo_start = rng_chance(r, 50) ? le_start : lo_in - ldexpf((float)rng_below(r, 64), mag - 8);
    const float le_end = linear ? le_start + ldexpf(64, le_sel) : le_start + ldexpf(1, le_off + 64),
                lo_end = lo_start + ldexpf(256, lo_sel);
    c->le_start = f32_bits(le_start), c->le_end = f32_bits(le_end);
    c->lo_start = f32_bits(lo_start), c->lo_end = f32_bits(lo_end);
    dp_put(&l, NVDLA_CDP_S_LUT_LE_START_LOW_0, c->le_start), dp_put(&l, NVDLA_CDP_S_LUT_LE_START_HIGH_0, 0);
    dp_put(&l, NVDLA_CDP_S_LUT_LE_END_LOW_0, c->le_end), dp_put(&l, NVDLA_CDP_S_LUT_LE_END_HIGH_0, 0);
    dp_put(&l, NVDLA_CDP_S_LUT_LO_START_LOW_0, c->lo_start), dp_put(&l, NVDLA_CDP_S_LUT_LO_START_HIGH_0, 0);
    dp_put(&l, NVDLA_CDP_S_LUT_LO_END_LOW_0, c->lo_end), dp_put(&l, NVDLA_CDP_S_LUT_LO_END_HIGH_0, 0);
    /* slopes: underflow [15:0], overflow [31:16], FP16; the shifts are not used at FP16 (written all the same) */
    c->le_uflow = fp16_slope(r), c->le_oflow = fp16_slope(r), c->lo_uflow = fp16_slope(r), c->lo_oflow = fp16_slope(r);
    dp_put(&l, NVDLA_CDP_S_LUT_LE_SLOPE_SCALE_0, c->le_uflow | (uint32_t)c->le_oflow << 16);
    dp_put(&l, NVDLA_CDP_S_LUT_LO_SLOPE_SCALE_0, c->lo_uflow | (uint32_t)c->lo_oflow << 16);
    dp_put(&l, NVDLA_CDP_S_LUT_LE_SLOPE_SHIFT_0, rng_below(r, 1024));
    dp_put(&l, NVDLA_CDP_S_LUT_LO_SLOPE_SHIFT_0, rng_below(r, 1024));
    dp_emit_shuffled(p, r, &l);
    return linear ? "linear" : "exponent";
}

/* An FP16 CDP job's registers and the prediction's configuration: the converters are not used at FP16 (cmod's
 * cdp_icvt/cdp_ocvt: Fp16ToFp17 and back); D_DATIN_OFFSET, an FP16 value or 0, is what cmod reads a channel past the
 * cube as, where the RTL reads +0 whatever it holds (CDP_FP16_OUTSIDE): drawn so that the oracle test counts the
 * difference. */
static const char *cdp_fp16_regs(program_t *p, rng_t *r, dp_wlist_t *l, const frame_t *f, bool sq_byp, bool mul_byp,
                                 unsigned len, cdp_ref_t *ref)
{
    static const nvf_fp16_mix_t offs = {10, -4, 4};
    cdp_fp16_cfg_t *c = &ref->f16;
    c->sqsum_bypass = sq_byp, c->mul_bypass = mul_byp, c->normalz_len = len;
    c->nan_to_zero = rng_chance(r, 50);
    c->datin_offset = rng_chance(r, 50) ? 0 : nvf_fp16_value(r, &offs);
    /* the LUT's input: the value (|x| in 2^emin .. 2^(emax+1)) or the sum of 2 len + 3 squares */
    const int lo = f->mix.emin, hi = f->mix.emax + 1;
    const int mag_lo = sq_byp ? lo : 2 * lo, mag = sq_byp ? hi : 2 * hi + (int)log2u(2 * len + 3) + 1;
    const char *le = lut_program_fp16(p, r, mag_lo, mag, sq_byp, ref);
    dp_put(l, NVDLA_CDP_D_NAN_FLUSH_TO_ZERO_0, c->nan_to_zero);
    dp_put(l, NVDLA_CDP_D_DATIN_OFFSET_0, c->datin_offset), dp_put(l, NVDLA_CDP_D_DATIN_SCALE_0, 1);
    dp_put(l, NVDLA_CDP_D_DATIN_SHIFTER_0, 0);
    dp_put(l, NVDLA_CDP_D_DATOUT_OFFSET_0, 0), dp_put(l, NVDLA_CDP_D_DATOUT_SCALE_0, 1);
    dp_put(l, NVDLA_CDP_D_DATOUT_SHIFTER_0, 0);
    return le;
}

/* One line per pixel: the LUT settings, both tables, the pixel's channels (rounded up to the driver's groups of 4
 * with the input offset, which is what a channel past the cube reads as) and the real channels' outputs. */
static void cdp_oracle(FILE *f, const void *ctx, const char *name)
{
    const cdp_ref_t *c = ctx;
    if (!c->fp16) return;
    const cdp_fp16_cfg_t *k = &c->f16;
    const uint32_t n = (c->in.c + 3) / 4 * 4;
    for (uint32_t y = 0; y < c->in.h; y++)
        for (uint32_t x = 0; x < c->in.w; x++) {
            fprintf(f, "cdp %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x", k->le_exponent, k->uflow_lo,
                    k->oflow_lo, k->hybrid_lo, k->sqsum_bypass, k->mul_bypass, k->nan_to_zero, k->normalz_len,
                    k->le_start, k->le_end, k->lo_start, k->lo_end, (unsigned)k->le_index_offset & 0xFF,
                    (unsigned)k->le_index_select & 0xFF, (unsigned)k->lo_index_select & 0xFF, k->le_uflow, k->le_oflow,
                    k->lo_uflow, k->lo_oflow, k->datin_offset);
            for (int i = 0; i < 65; i++) fprintf(f, " %x", (uint16_t)c->lut.le[i]);
            for (int i = 0; i < 257; i++) fprintf(f, " %x", (uint16_t)c->lut.lo[i]);
            fprintf(f, " %x", n);
            for (uint32_t ch = 0; ch < n; ch++)
                fprintf(f, " %x", ch < c->in.c ? (uint16_t)nvf_elem(c->bytes, &c->in, ch, y, x) : k->datin_offset);
            fputc('\t', f);
            for (uint32_t ch = 0; ch < c->in.c; ch++) fprintf(f, ch ? " %x" : "%x", (uint16_t)cdp_elem(c, ch, y, x));
            fprintf(f, "\t%s\n", name);
        }
}

/* An INT8/INT16 CDP job's converters and LUT (lut_program), aimed at the converted inputs' magnitude. */
static const char *cdp_int_regs(program_t *p, rng_t *r, dp_wlist_t *l, uint32_t esz, bool sq_byp, bool mul_byp,
                                unsigned len, cdp_ref_t *ref)
{
    /* input converter: scale 1-3 and a small shift (the input's magnitude kept), sometimes anything */
    const bool wild = rng_chance(r, 20);
    const uint32_t ioff = wild ? (uint32_t)rng_next(r) & 0xFFFF : (uint32_t)((int)rng_range(r, 0, 16) - 8) & 0xFFFF;
    const uint32_t isc = wild ? (uint32_t)rng_next(r) & 0xFFFF : rng_range(r, 1, 3),
                   ish = wild ? rng_below(r, 32) : rng_range(r, 0, 1);
    /* magnitude of the LUT input: the converted element (8 or 16 bits), or a sum of 2*len+3 squares */
    const unsigned vmag = (esz == 2 ? 15 : 7) + (wild ? 0 : log2u(isc)) - (wild ? 0 : ish);
    const unsigned mag = sq_byp ? vmag : 2 * vmag + log2u(2 * len + 3);
    const char *le = lut_program(p, r, mag, sq_byp, ref);
    ref->ioff = ioff, ref->isc = isc, ref->ish = ish;
    dp_put(l, NVDLA_CDP_D_NAN_FLUSH_TO_ZERO_0, 0);
    dp_put(l, NVDLA_CDP_D_DATIN_OFFSET_0, ioff), dp_put(l, NVDLA_CDP_D_DATIN_SCALE_0, isc);
    dp_put(l, NVDLA_CDP_D_DATIN_SHIFTER_0, ish);
    /* output converter: a shift that brings |lut * x * scale| (LUT entries up to 2^15) near the output's range */
    const bool tame = rng_chance(r, 75);
    const uint32_t osc = tame ? rng_range(r, 1, 8) : (uint32_t)rng_next(r) & 0xFFFF;
    const int typ =
        15 + (mul_byp ? 0 : (int)vmag) + (int)log2u(osc) - (esz == 2 ? 14 : 6) + (int)rng_range(r, 0, 4) - 2;
    const uint32_t osh = tame ? (uint32_t)(typ < 0 ? 0 : typ > 63 ? 63 : typ) : rng_below(r, 64);
    ref->ooff = tame ? (uint32_t)((int)rng_range(r, 0, 64) - 32) : (uint32_t)rng_next(r);
    ref->osc = osc, ref->osh = osh;
    dp_put(l, NVDLA_CDP_D_DATOUT_OFFSET_0, ref->ooff);
    dp_put(l, NVDLA_CDP_D_DATOUT_SCALE_0, osc), dp_put(l, NVDLA_CDP_D_DATOUT_SHIFTER_0, osh);
    return le;
}

static void cdp_job(program_t *p, rng_t *r, int k, int g, dp_draw_t draw, char *tag, size_t n, expect_t *e)
{
    frame_t f;
    frame_places(r, k, &f, draw);
    const uint32_t esz = nvf_prec[f.prec].esz, lanes = 32 / esz;
    const uint32_t w = rng_range(r, 1, rng_chance(r, 20) ? 24 : 8), h = rng_range(r, 1, 6),
                   c = rng_chance(r, 15) ? rng_range(r, 1, 8) : rng_range(r, 1, 3 * lanes);
    f.in = nvf_cube(r, w, h, c, esz), f.out = nvf_cube(r, w, h, c, esz);
    cdp_ref_t *ref = calloc(1, sizeof *ref);
    if (!ref) abort();
    const bool sq_byp = rng_chance(r, 30), mul_byp = rng_chance(r, 40), fp16 = f.prec == NVF_FP16;
    const unsigned len = rng_below(r, 4); /* 3, 5, 7, 9 channels */
    dp_wlist_t l = {.n = 0};
    const char *le = fp16 ? cdp_fp16_regs(p, r, &l, &f, sq_byp, mul_byp, len, ref)
                          : cdp_int_regs(p, r, &l, esz, sq_byp, mul_byp, len, ref);
    ref->sq_byp = sq_byp, ref->mul_byp = mul_byp, ref->radius = len + 1, ref->in = f.in, ref->fp16 = fp16;
    ref->bytes = frame_data(p, r, &f, fp16);
    expect_set(e, "CDP output", &f, cdp_elem, ref, (uint8_t *)ref->bytes);
    e->oracle = cdp_oracle;
    dp_put(&l, NVDLA_CDP_RDMA_D_DATA_CUBE_WIDTH_0, w - 1), dp_put(&l, NVDLA_CDP_RDMA_D_DATA_CUBE_HEIGHT_0, h - 1);
    dp_put(&l, NVDLA_CDP_RDMA_D_DATA_CUBE_CHANNEL_0, c - 1);
    dp_put(&l, NVDLA_CDP_RDMA_D_SRC_BASE_ADDR_LOW_0, f.src.addr), dp_put(&l, NVDLA_CDP_RDMA_D_SRC_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_CDP_RDMA_D_SRC_LINE_STRIDE_0, f.in.line);
    dp_put(&l, NVDLA_CDP_RDMA_D_SRC_SURFACE_STRIDE_0, f.in.surf);
    dp_put(&l, NVDLA_CDP_RDMA_D_SRC_DMA_CFG_0, nvf_ram(f.src));
    dp_put(&l, NVDLA_CDP_RDMA_D_SRC_COMPRESSION_EN_0, 0);
    dp_put(&l, NVDLA_CDP_RDMA_D_DATA_FORMAT_0, f.prec);
    dp_put(&l, NVDLA_CDP_D_FUNC_BYPASS_0, sq_byp | mul_byp << 1);
    dp_put(&l, NVDLA_CDP_D_DST_BASE_ADDR_LOW_0, f.dst.addr), dp_put(&l, NVDLA_CDP_D_DST_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_CDP_D_DST_LINE_STRIDE_0, f.out.line), dp_put(&l, NVDLA_CDP_D_DST_SURFACE_STRIDE_0, f.out.surf);
    dp_put(&l, NVDLA_CDP_D_DST_DMA_CFG_0, nvf_ram(f.dst));
    dp_put(&l, NVDLA_CDP_D_DST_COMPRESSION_EN_0, 0);
    dp_put(&l, NVDLA_CDP_D_DATA_FORMAT_0, f.prec);
    dp_put(&l, NVDLA_CDP_D_LRN_CFG_0, len);
    nvf_pointers(p, NVDLA_CDP_S_POINTER_0, NVDLA_CDP_RDMA_S_POINTER_0, g);
    dp_emit_shuffled(p, r, &l);
    nvf_enable(p, r, NVDLA_CDP_D_OP_ENABLE_0, NVDLA_CDP_RDMA_D_OP_ENABLE_0);
    char what[48];
    snprintf(what, sizeof what, "%s%s%s%s", le, sq_byp ? ".sqbyp" : "", mul_byp ? ".mulbyp" : "",
             fp16 && ref->f16.nan_to_zero ? ".nan0" : "");
    job_tag(tag, n, &f, what);
}

/* ---- the tests ---------------------------------------------------------------------------------------------- */
typedef void (*job_fn)(program_t *p, rng_t *r, int k, int g, dp_draw_t draw, char *tag, size_t n, expect_t *e);

/* 1-3 rounds of one job, or two back to back in both groups (the second programmed while the first runs; not for
 * CDP, whose LUT both groups share and which is reprogrammed only while CDP is idle). */
static int dp_run(program_t *p, uint64_t seed, const char *stream, job_fn job, uint32_t intr, bool b2b, bool corrupt,
                  dp_draw_t draw)
{
    rng_t r;
    rng_seed_stream(&r, seed, stream);
    int rounds = (int)rng_range(&r, 1, 3), g = 0;
    for (int k = 0; k < rounds; k++) {
        const bool two = b2b && rng_chance(&r, 25);
        prog_job(p, "%s", stream); /* named below, once its jobs are drawn */
        const size_t job_op = p->n - 1;
        char tag[2][80] = {"", ""};
        expect_t e[2] = {{.elem = NULL}, {.elem = NULL}};
        job(p, &r, 2 * k, g, draw, tag[0], sizeof tag[0], &e[0]);
        uint32_t bits = intr << g;
        if (two) {
            job(p, &r, 2 * k + 1, g ^ 1, draw, tag[1], sizeof tag[1], &e[1]);
            bits |= intr << (g ^ 1);
            g ^= 1;
        }
        char name[240];
        snprintf(name, sizeof name, "%s.s%llu.j%d.%s%s%s", stream + 4, (unsigned long long)seed, k, tag[0],
                 two ? ".b2b." : "", tag[1]);
        free(p->ops[job_op].text);
        p->ops[job_op].text = strdup(name);
        nvf_wait_done(p, bits, JOB_TIMEOUT);
        prog_check_golden(p);
        for (int j = 0; j < 2; j++)
            if (e[j].elem) {
                if (p->notes && e[j].oracle) e[j].oracle(p->notes, e[j].ctx, name);
                nvf_expect_cube(p, e[j].what, e[j].at, &e[j].q, e[j].elem, e[j].ctx, corrupt && !k && !j);
                free(e[j].ctx);
                free(e[j].input);
            }
        g ^= 1;
    }
    return 0;
}

int nvf_sdp_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_sdp_random", sdp_job, INTR_SDP, true, false, DRAW_ANY);
}

int nvf_sdp_corrupt(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_sdp_random", sdp_job, INTR_SDP, true, true, DRAW_ANY);
}

int nvf_pdp_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_pdp_random", pdp_job, INTR_PDP, true, false, DRAW_ANY);
}

/* Every job INT8 or INT16 average pooling (its own seed stream): the RTL's wraps and rounding in every job. */
int nvf_pdp_random_avg(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_pdp_random_avg", pdp_job, INTR_PDP, true, false, DRAW_INT_AVG);
}

/* Every job with PDP's split width (its own seed stream), INT8/INT16/FP16. */
int nvf_pdp_random_split(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_pdp_random_split", pdp_job, INTR_PDP, true, false, DRAW_SPLIT);
}

int nvf_cdp_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_cdp_random", cdp_job, INTR_CDP, false, false, DRAW_ANY);
}

/* The same jobs, every one FP16 (their own seed streams): FP16's corners in every run of a few seeds. */
int nvf_sdp_random_fp16(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_sdp_random_fp16", sdp_job, INTR_SDP, true, false, DRAW_FP16);
}

int nvf_pdp_random_fp16(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_pdp_random_fp16", pdp_job, INTR_PDP, true, false, DRAW_FP16);
}

int nvf_cdp_random_fp16(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_cdp_random_fp16", cdp_job, INTR_CDP, false, false, DRAW_FP16);
}
#endif
