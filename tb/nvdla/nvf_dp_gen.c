/* SDP, PDP and CDP jobs on nv_full (nvf_gen.h), memory to memory, INT8 or INT16 (FP16 drawn and refused with its
 * reason until the golden model computes it), input and output each in DBB or CVSRAM. Registers as NVIDIA's firmware
 * programs nv_full (nvdla_sw kmd/firmware sdp.c, pdp.c, cdp.c; the c906fc6 build without DLA_SMALL_CONFIG runs
 * NVIDIA's regression loadables on it): every field the unit reads is written, none with junk (nv_full stores more
 * fields than nv_small: batch, Winograd, compression, NaN flushing). What the golden model computes for 32-byte
 * atoms bounds the draws: SDP's BS (X1) and BN (X2) stages with register operands and its converter (operand DMAs
 * and the EW stage off), PDP's max and min pooling without split, CDP's LUT (linear or exponent LE table, LO table,
 * under- and overflow, square sum or its bypass, multiplier or its bypass). */
#ifndef NV_FULL_ABSENT
#include "nv_full_regs.h"
#include "nvf_gen.h"
#include "pdp_gen.h"
#include "cdp_golden.h" /* cdp16_*, cdp_*: the element arithmetic of the expected outputs */
#include "sdp_golden.h" /* sdp_x_stage, sdp_cvt_bits: the same */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOB_TIMEOUT 600000u
enum { INTR_SDP = 0x1u, INTR_CDP = 0x4u, INTR_PDP = 0x10u }; /* GLB status bit of group 0; << 1 for group 1 */

static unsigned log2u(uint64_t v) { return v ? 63u - (unsigned)__builtin_clzll(v) : 0; }

/* A job's frame: precision, input and output places and cubes, the job name's tag. */
typedef struct frame {
    nvf_prec_t prec;
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
    bool check; /* false: not predicted (FP16) */
} expect_t;

static void frame_places(rng_t *r, int k, frame_t *f)
{
    f->prec = nvf_draw_prec(r);
    f->src = nvf_place(r, k, 0, 35);
    f->dst = nvf_place(r, k, 1, 35);
}

/* The input's bytes (kept for the expected output) and the output's (gap bytes must survive). */
static uint8_t *frame_data(program_t *p, rng_t *r, const frame_t *f)
{
    uint8_t *in = nvf_fill_keep(p, r, f->src, nvf_cube_bytes(&f->in));
    nvf_fill(p, r, f->dst, nvf_cube_bytes(&f->out));
    return in;
}

static void expect_set(expect_t *e, const char *what, const frame_t *f, nvf_elem_fn elem, void *ctx, uint8_t *input)
{
    snprintf(e->what, sizeof e->what, "%s", what);
    /* the predictions are integer arithmetic: an FP16 job (once drawn) is checked by the golden comparison alone,
     * until they learn FP16 */
    e->check = f->prec != NVF_FP16;
    e->at = f->dst, e->q = f->out, e->elem = elem, e->ctx = ctx, e->input = input;
}

/* The job's part of its round's name: precision, places, mode. */
static void job_tag(char *tag, size_t n, const frame_t *f, const char *what)
{
    snprintf(tag, n, "%s.%s2%s.%s", nvf_prec[f->prec].name, f->src.cv ? "cv" : "dbb", f->dst.cv ? "cv" : "dbb", what);
}

/* ---- SDP ---------------------------------------------------------------------------------------------------- */
/* A 16-bit register operand: small or anything. */
static uint32_t opnd(rng_t *r)
{
    return (rng_chance(r, 50) ? rng_range(r, 0, 15) - 8 : (uint32_t)rng_next(r)) & 0xFFFF;
}

const char *nvf_sdp_x_stage(dp_wlist_t *l, rng_t *r, uint32_t cfg, sdp_x_cfg_t *c)
{
    const bool on = rng_chance(r, 70), alu = rng_chance(r, 60), mul = rng_chance(r, 60), relu = rng_chance(r, 50);
    const bool prelu = mul && rng_chance(r, 25);
    const unsigned algo = rng_below(r, 3), ash = rng_chance(r, 80) ? rng_range(r, 0, 8) : rng_range(r, 0, 63);
    const uint32_t aop = opnd(r);
    const unsigned msh = rng_chance(r, 80) ? rng_range(r, 0, 8) : rng_range(r, 0, 63); /* the model's 6 bits */
    const uint32_t mop = opnd(r);
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
    dp_put(l, cfg,
           (uint32_t)!on | (uint32_t)!alu << 1 | algo << 2 | (uint32_t)!mul << 4 | (uint32_t)prelu << 5 |
               (uint32_t)!relu << 6);
    dp_put(l, cfg + 0x4, ash << 8); /* ALU_CFG: register operand */
    dp_put(l, cfg + 0x8, aop);
    dp_put(l, cfg + 0xc, msh << 8); /* MUL_CFG: register operand */
    dp_put(l, cfg + 0x10, mop);
    return !on ? "byp" : alu && mul ? "alumul" : alu ? "alu" : mul ? "mul" : relu ? "relu" : "pass";
}

typedef struct sdp_ref {
    sdp_x_cfg_t bs, bn;
    uint32_t off, scale, shift;
    nvf_cube_t in;
    const uint8_t *bytes;
} sdp_ref_t;

/* BS, BN and the converter on one element, the precision's bits out (input precision = output precision). */
static int32_t sdp_elem(const void *ctx, uint32_t ch, uint32_t y, uint32_t x)
{
    const sdp_ref_t *c = ctx;
    int64_t t = sdp_x_stage(&c->bs, nvf_elem(c->bytes, &c->in, ch, y, x), c->bs.alu_reg, c->bs.mul_reg);
    t = sdp_x_stage(&c->bn, t, c->bn.alu_reg, c->bn.mul_reg);
    return sdp_cvt_bits(t, c->off, c->scale, c->shift, 8 * c->in.esz, NULL);
}

static void sdp_job(program_t *p, rng_t *r, int k, int g, char *tag, size_t n, expect_t *e)
{
    frame_t f;
    frame_places(r, k, &f);
    const uint32_t esz = nvf_prec[f.prec].esz, lanes = 32 / esz;
    const uint32_t w = rng_range(r, 1, rng_chance(r, 20) ? 24 : 6), h = rng_range(r, 1, rng_chance(r, 20) ? 8 : 5),
                   c = rng_chance(r, 15) ? rng_range(r, 1, lanes) : rng_range(r, 1, 3 * lanes);
    f.in = nvf_cube(r, w, h, c, esz), f.out = nvf_cube(r, w, h, c, esz);
    sdp_ref_t *ref = calloc(1, sizeof *ref);
    if (!ref) abort();
    ref->in = f.in;
    ref->bytes = frame_data(p, r, &f);
    expect_set(e, "SDP output", &f, sdp_elem, ref, (uint8_t *)ref->bytes);
    dp_wlist_t l = {.n = 0};
    const uint32_t pr = f.prec; /* input = processing = output precision */
    dp_put(&l, NVDLA_SDP_RDMA_D_DATA_CUBE_WIDTH_0, w - 1), dp_put(&l, NVDLA_SDP_RDMA_D_DATA_CUBE_HEIGHT_0, h - 1);
    dp_put(&l, NVDLA_SDP_RDMA_D_DATA_CUBE_CHANNEL_0, c - 1);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW_0, f.src.addr), dp_put(&l, NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE_0, f.in.line);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE_0, f.in.surf);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_DMA_CFG_0, nvf_ram(f.src));
    dp_put(&l, NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0, pr << 2 | pr << 4 | pr << 6); /* memory input, batch 1 */
    dp_put(&l, NVDLA_SDP_RDMA_D_BRDMA_CFG_0, 1), dp_put(&l, NVDLA_SDP_RDMA_D_NRDMA_CFG_0, 1); /* operand DMAs off */
    dp_put(&l, NVDLA_SDP_RDMA_D_ERDMA_CFG_0, 1);
    dp_put(&l, NVDLA_SDP_D_DATA_CUBE_WIDTH_0, w - 1), dp_put(&l, NVDLA_SDP_D_DATA_CUBE_HEIGHT_0, h - 1);
    dp_put(&l, NVDLA_SDP_D_DATA_CUBE_CHANNEL_0, c - 1);
    dp_put(&l, NVDLA_SDP_D_DST_BASE_ADDR_LOW_0, f.dst.addr), dp_put(&l, NVDLA_SDP_D_DST_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_SDP_D_DST_LINE_STRIDE_0, f.out.line), dp_put(&l, NVDLA_SDP_D_DST_SURFACE_STRIDE_0, f.out.surf);
    dp_put(&l, NVDLA_SDP_D_DST_DMA_CFG_0, nvf_ram(f.dst));
    dp_put(&l, NVDLA_SDP_D_FEATURE_MODE_CFG_0, 0); /* memory input, output to memory, no Winograd, batch 1 */
    dp_put(&l, NVDLA_SDP_D_DATA_FORMAT_0, pr | pr << 2);
    const char *bs = nvf_sdp_x_stage(&l, r, NVDLA_SDP_D_DP_BS_CFG_0, &ref->bs);
    nvf_sdp_x_stage(&l, r, NVDLA_SDP_D_DP_BN_CFG_0, &ref->bn);
    dp_put(&l, NVDLA_SDP_D_DP_EW_CFG_0, 0x53); /* EW (Y) bypassed, its ALU, multiplier and LUT too */
    /* converter: near identity (values spread over the output range) or anything */
    const bool wild = rng_chance(r, 30);
    ref->off = wild ? (uint32_t)((int32_t)rng_next(r) >> rng_range(r, 0, 31)) : rng_range(r, 0, 16) - 8;
    ref->scale = wild ? (uint32_t)rng_next(r) & 0xFFFF : rng_range(r, 1, 4);
    ref->shift = wild ? rng_range(r, 0, 63) : rng_range(r, 0, 4);
    dp_put(&l, NVDLA_SDP_D_CVT_OFFSET_0, ref->off), dp_put(&l, NVDLA_SDP_D_CVT_SCALE_0, ref->scale);
    dp_put(&l, NVDLA_SDP_D_CVT_SHIFT_0, ref->shift);
    job_tag(tag, n, &f, bs);
    nvf_pointers(p, NVDLA_SDP_S_POINTER_0, NVDLA_SDP_RDMA_S_POINTER_0, g);
    dp_emit_shuffled(p, r, &l);
    nvf_enable(p, r, NVDLA_SDP_D_OP_ENABLE_0, NVDLA_SDP_RDMA_D_OP_ENABLE_0);
}

/* ---- PDP ---------------------------------------------------------------------------------------------------- */
/* KMD's 1/k in Q0.16 (firmware pdp.c recip_kernel_size, INT rows): unused by max/min, written as the firmware does */
static const uint32_t recip[8] = {0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2aaa, 0x2492, 0x2000};

typedef struct pdp_ref {
    pdp_geom_t geo;
    nvf_cube_t in;
    const uint8_t *bytes;
} pdp_ref_t;

/* Max or min over the window's elements inside the input (a padded position is never taken). */
static int32_t pdp_elem(const void *ctx, uint32_t ch, uint32_t oy, uint32_t ox)
{
    const pdp_ref_t *c = ctx;
    const pdp_geom_t *g = &c->geo;
    int32_t best = 0;
    bool any = false;
    for (unsigned ky = 0; ky < g->kh; ky++)
        for (unsigned kx = 0; kx < g->kw; kx++) {
            const int y = (int)(oy * g->sh + ky) - (int)g->pt, x = (int)(ox * g->sw + kx) - (int)g->pl;
            if (y < 0 || x < 0 || y >= (int)g->hi || x >= (int)g->wi) continue;
            const int32_t v = nvf_elem(c->bytes, &c->in, ch, (uint32_t)y, (uint32_t)x);
            if (!any || (g->method == 1 ? v > best : v < best)) best = v;
            any = true;
        }
    return best;
}

static void pdp_job(program_t *p, rng_t *r, int k, int g, char *tag, size_t n, expect_t *e)
{
    frame_t f;
    frame_places(r, k, &f);
    const uint32_t esz = nvf_prec[f.prec].esz, lanes = 32 / esz;
    pdp_geom_t geo;
    /* nv_small's constraints (exact tiling, pads < kernel), without split and within 12 x 10 outputs: nv_full's line
     * buffer holds at least nv_small's MaxW in atoms, so one pass suffices (firmware splits only past it) */
    pdp_pick_geom(r, &geo, 12, 10, 3 * lanes, false);
    if (geo.method == 0) geo.method = 1 + rng_below(r, 2); /* average: not computed for 32-byte atoms yet */
    f.in = nvf_cube(r, geo.wi, geo.hi, geo.c, esz), f.out = nvf_cube(r, geo.wo, geo.ho, geo.c, esz);
    pdp_ref_t *ref = calloc(1, sizeof *ref);
    if (!ref) abort();
    ref->geo = geo, ref->in = f.in;
    ref->bytes = frame_data(p, r, &f);
    expect_set(e, "PDP output", &f, pdp_elem, ref, (uint8_t *)ref->bytes);
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
    dp_put(&l, NVDLA_PDP_RDMA_D_OPERATION_MODE_CFG_0, 0); /* split_num - 1 */
    dp_put(&l, NVDLA_PDP_RDMA_D_POOLING_KERNEL_CFG_0, (geo.kw - 1) | (geo.sw - 1) << 4);
    dp_put(&l, NVDLA_PDP_RDMA_D_POOLING_PADDING_CFG_0, geo.pl);
    dp_put(&l, NVDLA_PDP_RDMA_D_PARTIAL_WIDTH_IN_0, 0);
    dp_put(&l, NVDLA_PDP_D_DATA_CUBE_IN_WIDTH_0, geo.wi - 1), dp_put(&l, NVDLA_PDP_D_DATA_CUBE_IN_HEIGHT_0, geo.hi - 1);
    dp_put(&l, NVDLA_PDP_D_DATA_CUBE_IN_CHANNEL_0, geo.c - 1);
    dp_put(&l, NVDLA_PDP_D_DATA_CUBE_OUT_WIDTH_0, geo.wo - 1);
    dp_put(&l, NVDLA_PDP_D_DATA_CUBE_OUT_HEIGHT_0, geo.ho - 1);
    dp_put(&l, NVDLA_PDP_D_DATA_CUBE_OUT_CHANNEL_0, geo.c - 1);
    dp_put(&l, NVDLA_PDP_D_OPERATION_MODE_CFG_0, geo.method | 1u << 4); /* off the fly, split_num - 1 = 0 */
    dp_put(&l, NVDLA_PDP_D_NAN_FLUSH_TO_ZERO_0, 0);
    dp_put(&l, NVDLA_PDP_D_PARTIAL_WIDTH_IN_0, 0), dp_put(&l, NVDLA_PDP_D_PARTIAL_WIDTH_OUT_0, 0);
    dp_put(&l, NVDLA_PDP_D_POOLING_KERNEL_CFG_0,
           (geo.kw - 1) | (geo.kh - 1) << 8 | (geo.sw - 1) << 16 | (geo.sh - 1) << 20);
    dp_put(&l, NVDLA_PDP_D_RECIP_KERNEL_WIDTH_0, recip[geo.kw - 1]);
    dp_put(&l, NVDLA_PDP_D_RECIP_KERNEL_HEIGHT_0, recip[geo.kh - 1]);
    dp_put(&l, NVDLA_PDP_D_POOLING_PADDING_CFG_0, geo.pl | geo.pt << 4 | geo.pr << 8 | geo.pb << 12);
    for (uint32_t a = NVDLA_PDP_D_POOLING_PADDING_VALUE_1_CFG_0; a <= NVDLA_PDP_D_POOLING_PADDING_VALUE_7_CFG_0; a += 4)
        dp_put(&l, a, 0); /* average pooling's pad values: max and min never take padding */
    dp_put(&l, NVDLA_PDP_D_SRC_BASE_ADDR_LOW_0, f.src.addr), dp_put(&l, NVDLA_PDP_D_SRC_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_PDP_D_SRC_LINE_STRIDE_0, f.in.line), dp_put(&l, NVDLA_PDP_D_SRC_SURFACE_STRIDE_0, f.in.surf);
    dp_put(&l, NVDLA_PDP_D_DST_BASE_ADDR_LOW_0, f.dst.addr), dp_put(&l, NVDLA_PDP_D_DST_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_PDP_D_DST_LINE_STRIDE_0, f.out.line), dp_put(&l, NVDLA_PDP_D_DST_SURFACE_STRIDE_0, f.out.surf);
    dp_put(&l, NVDLA_PDP_D_DST_RAM_CFG_0, nvf_ram(f.dst));
    dp_put(&l, NVDLA_PDP_D_DATA_FORMAT_0, f.prec);
    char what[32];
    snprintf(what, sizeof what, "%s.k%ux%u.s%ux%u", geo.method == 1 ? "max" : "min", geo.kw, geo.kh, geo.sw, geo.sh);
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
    nvf_cube_t in;
    const uint8_t *bytes;
} cdp_ref_t;

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
    ref->lc.le_uflow_scale = (int16_t)les, ref->lc.le_oflow_scale = (int16_t)(les >> 16);
    ref->lc.lo_uflow_scale = (int16_t)los, ref->lc.lo_oflow_scale = (int16_t)(los >> 16);
    ref->lc.le_uflow_shift = (int)(lesh & 31) - (lesh & 16 ? 32 : 0); /* signed 5-bit fields */
    ref->lc.le_oflow_shift = (int)(lesh >> 5 & 31) - (lesh >> 5 & 16 ? 32 : 0);
    ref->lc.lo_uflow_shift = (int)(losh & 31) - (losh & 16 ? 32 : 0);
    ref->lc.lo_oflow_shift = (int)(losh >> 5 & 31) - (losh >> 5 & 16 ? 32 : 0);
    dp_emit_shuffled(p, r, &l);
    return linear ? "linear" : "exponent";
}

static void cdp_job(program_t *p, rng_t *r, int k, int g, char *tag, size_t n, expect_t *e)
{
    frame_t f;
    frame_places(r, k, &f);
    const uint32_t esz = nvf_prec[f.prec].esz, lanes = 32 / esz;
    const uint32_t w = rng_range(r, 1, rng_chance(r, 20) ? 24 : 8), h = rng_range(r, 1, 6),
                   c = rng_chance(r, 15) ? rng_range(r, 1, 8) : rng_range(r, 1, 3 * lanes);
    f.in = nvf_cube(r, w, h, c, esz), f.out = nvf_cube(r, w, h, c, esz);
    cdp_ref_t *ref = calloc(1, sizeof *ref);
    if (!ref) abort();
    const bool sq_byp = rng_chance(r, 30), mul_byp = rng_chance(r, 40);
    const unsigned len = rng_below(r, 4); /* 3, 5, 7, 9 channels */
    /* input converter: scale 1-3 and a small shift (the input's magnitude kept), sometimes anything */
    const bool wild = rng_chance(r, 20);
    const uint32_t ioff = wild ? (uint32_t)rng_next(r) & 0xFFFF : (uint32_t)((int)rng_range(r, 0, 16) - 8) & 0xFFFF;
    const uint32_t isc = wild ? (uint32_t)rng_next(r) & 0xFFFF : rng_range(r, 1, 3),
                   ish = wild ? rng_below(r, 32) : rng_range(r, 0, 1);
    /* magnitude of the LUT input: the converted element (8 or 16 bits), or a sum of 2*len+3 squares */
    const unsigned vmag = (esz == 2 ? 15 : 7) + (wild ? 0 : log2u(isc)) - (wild ? 0 : ish);
    const unsigned mag = sq_byp ? vmag : 2 * vmag + log2u(2 * len + 3);
    const char *le = lut_program(p, r, mag, sq_byp, ref);
    ref->sq_byp = sq_byp, ref->mul_byp = mul_byp, ref->radius = len + 1, ref->in = f.in;
    ref->ioff = ioff, ref->isc = isc, ref->ish = ish;
    ref->bytes = frame_data(p, r, &f);
    expect_set(e, "CDP output", &f, cdp_elem, ref, (uint8_t *)ref->bytes);
    dp_wlist_t l = {.n = 0};
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
    dp_put(&l, NVDLA_CDP_D_NAN_FLUSH_TO_ZERO_0, 0);
    dp_put(&l, NVDLA_CDP_D_LRN_CFG_0, len);
    dp_put(&l, NVDLA_CDP_D_DATIN_OFFSET_0, ioff), dp_put(&l, NVDLA_CDP_D_DATIN_SCALE_0, isc);
    dp_put(&l, NVDLA_CDP_D_DATIN_SHIFTER_0, ish);
    /* output converter: a shift that brings |lut * x * scale| (LUT entries up to 2^15) near the output's range */
    const bool tame = rng_chance(r, 75);
    const uint32_t osc = tame ? rng_range(r, 1, 8) : (uint32_t)rng_next(r) & 0xFFFF;
    const int typ =
        15 + (mul_byp ? 0 : (int)vmag) + (int)log2u(osc) - (esz == 2 ? 14 : 6) + (int)rng_range(r, 0, 4) - 2;
    const uint32_t osh = tame ? (uint32_t)(typ < 0 ? 0 : typ > 63 ? 63 : typ) : rng_below(r, 64);
    ref->ooff = tame ? (uint32_t)((int)rng_range(r, 0, 64) - 32) : (uint32_t)rng_next(r);
    ref->osc = osc, ref->osh = osh;
    dp_put(&l, NVDLA_CDP_D_DATOUT_OFFSET_0, ref->ooff);
    dp_put(&l, NVDLA_CDP_D_DATOUT_SCALE_0, osc), dp_put(&l, NVDLA_CDP_D_DATOUT_SHIFTER_0, osh);
    nvf_pointers(p, NVDLA_CDP_S_POINTER_0, NVDLA_CDP_RDMA_S_POINTER_0, g);
    dp_emit_shuffled(p, r, &l);
    nvf_enable(p, r, NVDLA_CDP_D_OP_ENABLE_0, NVDLA_CDP_RDMA_D_OP_ENABLE_0);
    char what[40];
    snprintf(what, sizeof what, "%s%s%s", le, sq_byp ? ".sqbyp" : "", mul_byp ? ".mulbyp" : "");
    job_tag(tag, n, &f, what);
}

/* ---- the tests ---------------------------------------------------------------------------------------------- */
typedef void (*job_fn)(program_t *p, rng_t *r, int k, int g, char *tag, size_t n, expect_t *e);

/* 1-3 rounds of one job, or two back to back in both groups (the second programmed while the first runs; not for
 * CDP, whose LUT both groups share and which is reprogrammed only while CDP is idle). */
static int dp_run(program_t *p, uint64_t seed, const char *stream, job_fn job, uint32_t intr, bool b2b, bool corrupt)
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
        job(p, &r, 2 * k, g, tag[0], sizeof tag[0], &e[0]);
        uint32_t bits = intr << g;
        if (two) {
            job(p, &r, 2 * k + 1, g ^ 1, tag[1], sizeof tag[1], &e[1]);
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
                if (e[j].check)
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
    return dp_run(p, seed, "nvf_sdp_random", sdp_job, INTR_SDP, true, false);
}

int nvf_sdp_corrupt(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_sdp_random", sdp_job, INTR_SDP, true, true);
}

int nvf_pdp_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_pdp_random", pdp_job, INTR_PDP, true, false);
}

int nvf_cdp_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return dp_run(p, seed, "nvf_cdp_random", cdp_job, INTR_CDP, false, false);
}
#endif
