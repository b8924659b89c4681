/* sdp_random_mem: SDP jobs on nv_full (nvf_gen.h) whose X1 (BS) and X2 (BN) stages read their operands from memory
 * through the operand DMAs (BRDMA, NRDMA): per channel or per element, the ALU's, the multiplier's or both
 * (interleaved), 1 or 2 bytes at INT8 processing, 2 at INT16 and FP16 (the RTL's rule: 1 byte is illegal there), in
 * DBB or CVSRAM, each DMA with its own strides (gaps of whole groups) and a 1x1 cube's operands read straight whatever
 * the surface stride register says (golden/nvdla/sdp_opdma32.h: cmod's layout, the RTL's addressing). A stage draws
 * each operand it uses from memory in 70 % of the jobs, else from its register; INT8, INT16 or FP16 throughout
 * (FP16 operands FP16 values with their corners). Registers as NVIDIA's firmware programs them (kmd/firmware sdp.c:
 * D_xRDMA_CFG, the base address, line and surface strides). The generator predicts every output element from its own
 * copy of the operand bytes and its own addressing, so the golden model's operand fetch is checked on every job.
 * sdp_random_ew (its own seed stream) adds the EW (Y) stage: multiplier (PReLU) and ALU with register operands or ERDMA
 * ones through their converters, INT8/INT16 (golden/nvdla/sdp_ew.h); sdp_random_ew_fp16 (its own seed stream too) the
 * same at FP16: FP32 register operands, ERDMA's FP16 ones (sdp_ew_fp16.h). sdp_random_lut (its own stream) turns the EW
 * stage's LUT on at INT8/INT16, one job a round (the LUT and its settings are shared by both groups), its tables drawn
 * around the values that reach it (nvf_sdplut_gen.h), the multiplier and ALU each on in half. */
#ifndef NV_FULL_ABSENT
#include "nv_full_regs.h"
#include "nvf_gen.h"
#include "nvf_sdplut_gen.h" /* the LUT of sdp_random_lut */
#include "nv_lut_select.h"
#include "dp_atom32.h"    /* sdp32_fp16_stage: the X stage's FP16 form, as the model reads it */
#include "sdp_fp16.h"     /* sdp_fp16_element: the arithmetic of the expected outputs */
#include "sdp_ew.h"       /* sdp_ew_cvt, sdp_ew_int: the same */
#include "nvdla_fp16.h"   /* nv_fp16_to_fp32: FP16 values as FP32 register operands */
#include "sdp_ew_fp16.h"  /* sdp_ew_fp16_stage, sdp_ew_fp16_cvt: the same at FP16 */
#include "sdp_lut_fp16.h" /* sdp_lut_fp16: the LUT at FP16 (which entry a lookup reads) */
#include "sdp_golden.h"   /* sdp_x_stage, sdp_cvt_bits: the same */
#include "sdp_opdma32.h"  /* sdp_x_wants: the operands a stage reads from memory */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOB_TIMEOUT 600000u
enum { INTR_SDP = 0x1u, INTR_PDP = 0x10u };            /* GLB status bits of group 0; << 1 for group 1 */
enum { BS = 0, BN = 1, EW = 2, NSTAGE = 2, NDMA = 3 }; /* the X stages; their DMAs and ERDMA */
/* the tests of this file: X operands from memory; + the EW stage at INT8/INT16; + the EW stage at FP16; + the EW
 * stage's LUT at INT8/INT16; the same with one LUT entry written wrong (sdp_lut_corrupt); the LUT's output streamed
 * into PDP on the fly (sdp_random_lut_pdp, nvf_pdpfly_gen.c's pooling); the LUT at FP16 (sdp_random_lut_fp16) and its
 * negative (sdp_lut_fp16_corrupt). Every kind from K_LUT on has the LUT; from K_LUT_FP16 on it is FP16. */
typedef enum { K_MEM, K_EW, K_EW_FP16, K_LUT, K_LUT_CORRUPT, K_LUT_PDP, K_LUT_FP16, K_LUT_FP16_CORRUPT } mem_kind_t;

/* One stage's operand DMA as drawn: what it carries, its layout, its bytes (the generator's own copy). */
typedef struct opdma {
    bool on, alu, mul, two, per_elem;
    unsigned lanes, bpe; /* channels a group (the processing precision's), bytes a channel */
    nvf_place_t at;
    uint32_t line, surf; /* per element (not 1x1): the strides */
    uint32_t size;       /* of bytes */
    uint8_t *bytes;
} opdma_t;

typedef struct mref {
    sdp_x_cfg_t st[NSTAGE];
    sdp_ew_cfg_t ew; /* bypassed in sdp_random_mem */
    bool lut;        /* sdp_random_lut: the EW stage's LUT on, as drawn in lut_draw */
    nvf_sdplut_t lut_draw;
    opdma_t dma[NDMA];
    uint32_t off, scale, shift;
    bool fp16;
    sdp_fp16_cfg_t f16;
    nvf_cube_t in;
    uint8_t *bytes;
    nvf_pdp_fly_t *fly; /* sdp_random_lut_pdp: PDP's pooling of SDP's output, or NULL */
} mref_t;

/* Where operand k (0 ALU, 1 MUL) of channel ch at (y, x) is in the DMA's bytes, as the generator lays it out. */
static uint32_t op_off(const opdma_t *d, uint32_t ch, uint32_t y, uint32_t x, bool one, unsigned k)
{
    const uint32_t s = ch / d->lanes, g = d->lanes * d->bpe;
    const uint32_t o = d->per_elem && !one ? s * d->surf + y * d->line + x * g : s * g;
    return o + ch % d->lanes * d->bpe + (d->alu && d->mul && k ? (d->two ? 2u : 1u) : 0u);
}

/* Operand k of channel ch at (y, x). */
static int32_t op_at(const opdma_t *d, uint32_t ch, uint32_t y, uint32_t x, bool one, unsigned k)
{
    const uint8_t *b = d->bytes + op_off(d, ch, y, x, one, k);
    return d->two ? (int16_t)(b[0] | b[1] << 8) : (int8_t)b[0];
}

/* The value entering the output converter (INT8/INT16) before the EW stage's LUT. */
static int64_t pre_lut(const mref_t *c, uint32_t ch, uint32_t y, uint32_t x);

/* At FP16: the configuration of element (ch, y, x), its operands from memory in place, the LUT (when on) c's. */
static sdp_fp16_cfg_t fp16_cfg(const mref_t *c, uint32_t ch, uint32_t y, uint32_t x)
{
    sdp_x_cfg_t st[NSTAGE] = {c->st[BS], c->st[BN]};
    const bool one = c->in.w == 1 && c->in.h == 1;
    for (int i = 0; i < NSTAGE; i++) {
        const opdma_t *d = &c->dma[i];
        if (d->on && d->alu) st[i].alu_reg = op_at(d, ch, y, x, one, 0);
        if (d->on && d->mul) st[i].mul_reg = op_at(d, ch, y, x, one, 1);
    }
    sdp_fp16_cfg_t f = c->f16;
    f.x1 = sdp32_fp16_stage(&st[BS]), f.x2 = sdp32_fp16_stage(&st[BN]);
    if (!c->ew.bypass) { /* FP32 register operands; memory ones FP16 through Y_cvt */
        const opdma_t *e = &c->dma[EW];
        f.y = sdp_ew_fp16_stage(&c->ew);
        if (e->on && e->alu) f.y.alu_op = sdp_ew_fp16_cvt((uint32_t)op_at(e, ch, y, x, one, 0), f.nan_to_zero);
        if (e->on && e->mul) f.y.mul_op = sdp_ew_fp16_cvt((uint32_t)op_at(e, ch, y, x, one, 1), f.nan_to_zero);
    }
    if (c->lut) f.lut_cfg = &c->lut_draw.cfg, f.lut = &c->lut_draw.tab, f.stats = NULL;
    return f;
}

static int32_t mem_elem(const void *ctx, uint32_t ch, uint32_t y, uint32_t x)
{
    const mref_t *c = ctx;
    if (!c->fp16) {
        int64_t t = pre_lut(c, ch, y, x);
        if (c->lut) t = sdp_lut_int(&c->lut_draw.cfg, &c->lut_draw.tab, t, NULL);
        return sdp_cvt_bits(t, c->off, c->scale, c->shift, 8 * c->in.esz, NULL);
    }
    const sdp_fp16_cfg_t f = fp16_cfg(c, ch, y, x);
    return sdp_fp16_element(&f, (uint16_t)nvf_elem(c->bytes, &c->in, ch, y, x));
}

/* At FP16: the FP32 value entering the LUT. */
static uint32_t pre_lut_fp16(const mref_t *c, uint32_t ch, uint32_t y, uint32_t x)
{
    const sdp_fp16_cfg_t f = fp16_cfg(c, ch, y, x);
    return sdp_fp16_lut_input(&f, (uint16_t)nvf_elem(c->bytes, &c->in, ch, y, x));
}

/* The LUT's lookup of element (ch, y, x): which table and entry it reads. */
static sdp_lut_out_t lookup(const mref_t *c, uint32_t ch, uint32_t y, uint32_t x)
{
    sdp_lut_out_t o;
    if (c->fp16) sdp_lut_fp16(&c->lut_draw.cfg, &c->lut_draw.tab, pre_lut_fp16(c, ch, y, x), &o);
    else sdp_lut_int(&c->lut_draw.cfg, &c->lut_draw.tab, pre_lut(c, ch, y, x), &o);
    return o;
}

static int64_t pre_lut(const mref_t *c, uint32_t ch, uint32_t y, uint32_t x)
{
    sdp_x_cfg_t st[NSTAGE] = {c->st[BS], c->st[BN]};
    const bool one = c->in.w == 1 && c->in.h == 1;
    for (int i = 0; i < NSTAGE; i++) {
        const opdma_t *d = &c->dma[i];
        if (d->on && d->alu) st[i].alu_reg = op_at(d, ch, y, x, one, 0);
        if (d->on && d->mul) st[i].mul_reg = op_at(d, ch, y, x, one, 1);
    }
    const int32_t in = nvf_elem(c->bytes, &c->in, ch, y, x);
    int64_t t = sdp_x_stage(&st[BS], in, st[BS].alu_reg, st[BS].mul_reg);
    t = sdp_x_stage(&st[BN], t, st[BN].alu_reg, st[BN].mul_reg);
    if (!c->ew.bypass) { /* memory operands through their converters, register ones as they are */
        const opdma_t *e = &c->dma[EW];
        const int64_t ea = e->on && e->alu ? sdp_ew_cvt(&c->ew.alu, op_at(e, ch, y, x, one, 0)) : c->ew.alu.reg,
                      em = e->on && e->mul ? sdp_ew_cvt(&c->ew.mul, op_at(e, ch, y, x, one, 1)) : c->ew.mul.reg;
        t = sdp_ew_int(&c->ew, t, ea, em);
    }
    return t;
}

/* An operand value: INT small (-8..7) or any bits of its size; FP16 mostly 1/8 .. 8 of either sign, some corners,
 * some any bits. */
static uint32_t opnd(rng_t *r, bool fp16, bool two)
{
    static const nvf_fp16_mix_t m = {15, -3, 3};
    if (fp16) return rng_chance(r, 10) ? (uint32_t)rng_next(r) & 0xFFFF : nvf_fp16_value(r, &m);
    const uint32_t v = rng_chance(r, 50) ? rng_range(r, 0, 15) - 8 : (uint32_t)rng_next(r);
    return v & (two ? 0xFFFFu : 0xFFu);
}

/* sdp_lut_corrupt: the first LUT entry, in the order the check reads the output, whose flip (bit 15, as
 * nvf_sdplut_write writes it) changes an output element; -1 when none does. */
static int corrupt_entry(const mref_t *ref)
{
    mref_t *m = malloc(sizeof *m);
    if (!m) abort();
    *m = *ref; /* its table is flipped; the byte pointers are shared, read only */
    const uint32_t lanes = 32 / ref->in.esz;
    for (uint32_t sf = 0; sf < ref->in.s; sf++)
        for (uint32_t y = 0; y < ref->in.h; y++)
            for (uint32_t x = 0; x < ref->in.w; x++)
                for (uint32_t ch = sf * lanes; ch < ref->in.c && ch < (sf + 1) * lanes; ch++) {
                    const sdp_lut_out_t o = lookup(ref, ch, y, x);
                    const bool hit = (o.use_lo ? o.lo : o.le) == NV_LUT_HIT;
                    for (unsigned d = 0; d < (hit ? 2u : 1u); d++) {
                        int16_t *e = o.use_lo ? &m->lut_draw.tab.lo[o.entry + d] : &m->lut_draw.tab.le[o.entry + d];
                        *e ^= (int16_t)0x8000;
                        const bool seen = mem_elem(m, ch, y, x) != mem_elem(ref, ch, y, x);
                        *e ^= (int16_t)0x8000;
                        if (seen) {
                            free(m);
                            return (int)(o.entry + d) + (o.use_lo ? SDP_LUT_LE_N : 0);
                        }
                    }
                }
    free(m);
    return -1;
}

/* At FP16: whether any element's value entering the LUT is finite. */
static bool any_finite(const mref_t *c)
{
    for (uint32_t ch = 0; ch < c->in.c; ch++)
        for (uint32_t y = 0; y < c->in.h; y++)
            for (uint32_t x = 0; x < c->in.w; x++)
                if (((pre_lut_fp16(c, ch, y, x) >> 23) & 0xFF) != 0xFF) return true;
    return false;
}

/* One X stage: as nvf_sdp_x_stage draws it, then each operand it uses from memory (70 %) or its register. */
static void draw_stage(dp_wlist_t *l, rng_t *r, uint32_t cfg, sdp_x_cfg_t *c, bool fp16, char *mode, size_t n)
{
    const bool on = rng_chance(r, 85), alu = rng_chance(r, 65), mul = rng_chance(r, 65), relu = rng_chance(r, 50);
    const bool prelu = mul && rng_chance(r, 25);
    const bool amem = alu && rng_chance(r, 70), mmem = mul && rng_chance(r, 70);
    const unsigned algo = rng_below(r, 3), ash = rng_chance(r, 80) ? rng_range(r, 0, 8) : rng_range(r, 0, 63);
    const unsigned msh = rng_chance(r, 80) ? rng_range(r, 0, 8) : rng_range(r, 0, 63);
    const uint32_t aop = opnd(r, fp16, true), mop = opnd(r, fp16, true);
    *c = (sdp_x_cfg_t){.bypass = !on,
                       .alu_bypass = !alu,
                       .mul_bypass = !mul,
                       .prelu = prelu,
                       .relu_bypass = !relu,
                       .alu_src = amem,
                       .mul_src = mmem,
                       .algo = algo,
                       .alu_shift = ash,
                       .mul_shift = msh,
                       .alu_reg = (int16_t)aop,
                       .mul_reg = (int16_t)mop};
    nvf_sdp_x_put(l, cfg, c);
    if (!on) snprintf(mode, n, "byp");
    else if (!alu && !mul) snprintf(mode, n, "%s", relu ? "relu" : "pass");
    else /* an operand from memory: its name with m ("alum_mul": ALU from memory, MUL from its register) */
        snprintf(mode, n, "%s%s%s%s%s", alu ? "alu" : "", amem ? "m" : "", alu && mul ? "_" : "", mul ? "mul" : "",
                 mmem ? "m" : "");
}

/* The stage's DMA: disabled when the stage reads nothing from memory, else what it reads, laid out and filled. */
static void draw_dma(program_t *p, rng_t *r, dp_wlist_t *l, int k, unsigned slot, uint32_t cfg_reg, bool alu, bool mul,
                     nvf_prec_t prec, const nvf_cube_t *in, opdma_t *d, char *tag, size_t n)
{
    *d = (opdma_t){.on = alu || mul, .alu = alu, .mul = mul};
    if (!d->on) {
        dp_put(l, cfg_reg, 1); /* DISABLE */
        tag[0] = 0;
        return;
    }
    d->two = prec != NVF_INT8 || rng_chance(r, 50), d->per_elem = rng_chance(r, 50);
    d->lanes = prec == NVF_INT8 ? 32 : 16, d->bpe = (alu && mul ? 2u : 1u) * (d->two ? 2u : 1u);
    d->at = nvf_place(r, k, slot, 35);
    const uint32_t g = d->lanes * d->bpe, s = in->s;
    const bool one = in->w == 1 && in->h == 1;
    uint32_t surf_reg = s * g, size = s * g;
    if (d->per_elem) {
        dp_strides_atom(r, in->w, in->h, g, &d->line, &d->surf);
        surf_reg = d->surf; /* a 1x1 cube's operands are read straight: the register keeps the drawn stride */
        if (!one) size = dp_footprint_atom(in->w, in->h, s, d->line, d->surf, g);
    }
    d->bytes = malloc(size), d->size = size;
    if (!d->bytes) abort();
    for (uint32_t i = 0; i < size; i++) d->bytes[i] = (uint8_t)rng_next(r); /* gaps: any bytes */
    /* every operand slot (pad lanes too) a drawn value of its size */
    const uint32_t esz = d->two ? 2 : 1, pixels = d->per_elem && !one ? in->w * in->h : 1;
    for (uint32_t ss = 0; ss < s; ss++)
        for (uint32_t px = 0; px < pixels; px++) {
            const uint32_t y = px / in->w, x = px % in->w;
            const uint32_t base = d->per_elem && !one ? ss * d->surf + y * d->line + x * g : ss * g;
            for (uint32_t b = 0; b < g; b += esz) {
                const uint32_t v = opnd(r, prec == NVF_FP16, d->two);
                d->bytes[base + b] = (uint8_t)v;
                if (d->two) d->bytes[base + b + 1] = (uint8_t)(v >> 8);
            }
        }
    prog_mem(p, nvf_addr(d->at), d->bytes, size);
    const unsigned use = alu && mul ? 2 : alu ? 1 : 0; /* DATA_USE: MUL 0, ALU 1, BOTH 2 */
    dp_put(l, cfg_reg,
           use << 1 | (uint32_t)d->two << 3 | (uint32_t)d->per_elem << 4 | (uint32_t)(d->at.cv ? 0 : 1) << 5);
    dp_put(l, cfg_reg + 0x4, d->at.addr), dp_put(l, cfg_reg + 0x8, 0); /* BASE_ADDR_LOW, _HIGH */
    dp_put(l, cfg_reg + 0xc, d->per_elem ? d->line : 0), dp_put(l, cfg_reg + 0x10, surf_reg);
    snprintf(tag, n, ".%s%s%s%s", d->per_elem ? "pe" : "pc", d->two ? "2" : "1", alu && mul ? "both" : "",
             d->at.cv ? "cv" : "");
}

/* A 32-bit register operand of EW: small or any bits. */
static uint32_t ew_reg(rng_t *r)
{
    return rng_chance(r, 50) ? rng_range(r, 0, 64) - 32 : (uint32_t)rng_next(r) >> rng_below(r, 17);
}

/* A 32-bit register operand of EW at FP16: an FP32 value. Moderate ones with every mantissa bit (FP32 rounding),
 * FP16 values widened, large (the output's FP16 saturates), tiny (FP16 denormals, flushes), FP32's corners (+-0,
 * denormals, +-Inf, NaNs whose low 10 bits are zero or not: FP32 -> FP16 keeps those), or any bits. */
static uint32_t ew_reg_fp32(rng_t *r)
{
    static const nvf_fp16_mix_t m = {15, -3, 3};
    const uint32_t sign = rng_chance(r, 50) ? 0x80000000u : 0, mant = (uint32_t)rng_next(r) & 0x7FFFFF;
    const unsigned kind = rng_below(r, 100);
    if (kind < 50) return sign | (uint32_t)rng_range(r, 127 - 3, 127 + 3) << 23 | mant;
    if (kind < 60) return nv_fp16_to_fp32(nvf_fp16_value(r, &m));
    if (kind < 70) return sign | (uint32_t)rng_range(r, 127 + 8, 127 + 20) << 23 | mant;
    if (kind < 77) return sign | (uint32_t)rng_range(r, 127 - 30, 127 - 12) << 23 | mant;
    if (kind < 95) switch (rng_below(r, 7)) {
        case 0: return sign;                                                           /* +-0 */
        case 1: return sign | (mant ? mant : 1);                                       /* denormal */
        case 2: return sign | 0x7F800000u;                                             /* +-Inf */
        case 3: return sign | 0x7F800000u | (mant ? mant : 0x400000);                  /* NaN, any payload */
        case 4: return sign | 0x7F800000u | (mant & ~0x3FFu ? mant & ~0x3FFu : 0x400); /* NaN, low 10 bits 0 */
        case 5: return sign | 0x7F7FFFFFu;                                             /* the largest */
        default: return sign | 0x00800000u;                                            /* the smallest normal */
        }
    return (uint32_t)rng_next(r);
}

/* An EW operand's registers: from memory (70 %, its converter bypassed in 40 %, else offset, scale, truncate near
 * identity or anything; at FP16 the converter's registers are drawn the same and unused) or its register. */
static void draw_ew_opnd(dp_wlist_t *l, rng_t *r, uint32_t cfg, sdp_ew_opnd_t *o, bool fp16)
{
    const bool wild = rng_chance(r, 25);
    *o =
        (sdp_ew_opnd_t){.src_mem = rng_chance(r, 70),
                        .cvt_bypass = rng_chance(r, 40),
                        .reg = (int32_t)(fp16 ? ew_reg_fp32(r) : ew_reg(r)),
                        .offset = (int32_t)(wild ? (uint32_t)rng_next(r) >> rng_below(r, 32) : rng_range(r, 0, 16) - 8),
                        .scale = (int16_t)(wild ? (uint16_t)rng_next(r) : rng_range(r, 1, 4)),
                        .truncate = wild ? rng_below(r, 64) : rng_range(r, 0, 3)};
    dp_put(l, cfg, (uint32_t)o->src_mem | (uint32_t)o->cvt_bypass << 1);
    dp_put(l, cfg + 0x4, (uint32_t)o->reg), dp_put(l, cfg + 0x8, (uint32_t)o->offset);
    dp_put(l, cfg + 0xc, (uint32_t)o->scale & 0xFFFF), dp_put(l, cfg + 0x10, o->truncate);
}

/* EW (Y) on: its multiplier and ALU (max, min, sum; EQL, the equal mode, is not drawn), at least one, each in 70 %,
 * PReLU in a quarter of the multiplier's jobs, the product's truncation small or anything (unused at FP16); LUT
 * bypassed unless lut (sdp_random_lut). */
static void draw_ew(dp_wlist_t *l, rng_t *r, sdp_ew_cfg_t *c, char *mode, size_t n, bool fp16, bool lut)
{
    /* with the LUT on, the multiplier and ALU each in half (both off: the LUT alone) */
    const bool alu = lut ? rng_chance(r, 50) : rng_chance(r, 70),
               mul = lut ? rng_chance(r, 50) : !alu || rng_chance(r, 70);
    *c = (sdp_ew_cfg_t){.bypass = false,
                        .alu_bypass = !alu,
                        .mul_bypass = !mul,
                        .prelu = mul && rng_chance(r, 25),
                        .lut_bypass = !lut,
                        .algo = fp16 && rng_chance(r, 50) ? 2 : rng_below(r, 3), /* FP16: SUM more (ew_cancel) */
                        .truncate = rng_chance(r, 80) ? rng_range(r, 0, 20) : rng_below(r, 1024)};
    draw_ew_opnd(l, r, NVDLA_SDP_D_DP_EW_ALU_CFG_0, &c->alu, fp16);
    draw_ew_opnd(l, r, NVDLA_SDP_D_DP_EW_MUL_CFG_0, &c->mul, fp16);
    dp_put(l, NVDLA_SDP_D_DP_EW_CFG_0,
           (uint32_t)!alu << 1 | c->algo << 2 | (uint32_t)!mul << 4 | (uint32_t)c->prelu << 5 |
               (uint32_t)c->lut_bypass << 6);
    dp_put(l, NVDLA_SDP_D_DP_EW_TRUNCATE_VALUE_0, c->truncate);
    static const char *const algo[] = {"max", "min", "sum"};
    const bool cvt =
        !fp16 && ((alu && c->alu.src_mem && !c->alu.cvt_bypass) || (mul && c->mul.src_mem && !c->mul.cvt_bypass));
    snprintf(mode, n, ".ew_%s%s%s%s%s%s", mul ? (c->prelu ? "prelu" : "mul") : "", mul && c->mul.src_mem ? "m" : "",
             alu && mul ? "_" : "", alu ? algo[c->algo] : "", alu && c->alu.src_mem ? "m" : "", cvt ? ".cvt" : "");
}

/* EW at FP16 with the product summed with an ERDMA operand: in a share of the jobs, most of the ALU's operands the
 * element's product rounded to FP16 and negated, so the sum is what the FP32 product holds below FP16's precision
 * (its rounding shows in the output, which FP16 otherwise hides). The product is the prediction's, the EW ALU
 * bypassed; per channel, the first pixel's. The operand bytes are written again. Returns whether it did. */
static bool ew_cancel(program_t *p, rng_t *r, mref_t *ref)
{
    opdma_t *d = &ref->dma[EW];
    const sdp_ew_cfg_t *e = &ref->ew;
    if (!d->on || !d->alu || e->alu_bypass || e->algo != 2 || e->mul_bypass || !rng_chance(r, 75)) return false;
    mref_t t = *ref;
    t.ew.alu_bypass = true, t.f16.out_int16 = false; /* the product as FP16 */
    const bool one = ref->in.w == 1 && ref->in.h == 1;
    const uint32_t pixels = d->per_elem && !one ? ref->in.w * ref->in.h : 1, size = d->size;
    for (uint32_t ch = 0; ch < ref->in.c; ch++)
        for (uint32_t px = 0; px < pixels; px++) {
            const uint32_t y = px / ref->in.w, x = px % ref->in.w, o = op_off(d, ch, y, x, one, 0);
            if (!rng_chance(r, 75)) continue;
            const uint32_t v = (uint32_t)mem_elem(&t, ch, y, x) ^ 0x8000u;
            d->bytes[o] = (uint8_t)v, d->bytes[o + 1] = (uint8_t)(v >> 8);
        }
    prog_mem(p, nvf_addr(d->at), d->bytes, size);
    return true;
}

static void mem_job(program_t *p, rng_t *r, int k, int g, mem_kind_t kind, char *tag, size_t n, mref_t *ref,
                    nvf_place_t *dst, nvf_cube_t *out)
{
    /* sdp_random_ew draws INT8 or INT16 (its seeds kept their meaning when EW at FP16 came: sdp_random_ew_fp16) */
    const bool with_ew = kind != K_MEM;
    const bool corrupt = kind == K_LUT_CORRUPT || kind == K_LUT_FP16_CORRUPT;
    const nvf_prec_t prec = kind == K_EW_FP16 || kind >= K_LUT_FP16 ? NVF_FP16
                            : kind != K_MEM                         ? (rng_chance(r, 50) ? NVF_INT8 : NVF_INT16)
                                                                    : nvf_draw_prec(r, NVF_DRAW_DP);
    const uint32_t esz = nvf_prec[prec].esz, lanes = 32 / esz;
    nvf_fp16_mix_t mix = {0, 0, 0};
    if (prec == NVF_FP16) mix = nvf_fp16_draw_mix(r);
    const nvf_place_t src = nvf_place(r, k, 0, 35);
    *dst = nvf_place(r, k, 1, 35);
    const uint32_t w = rng_range(r, 1, rng_chance(r, 20) ? 24 : 6), h = rng_range(r, 1, rng_chance(r, 20) ? 8 : 5),
                   c = rng_chance(r, 15) ? rng_range(r, 1, lanes) : rng_range(r, 1, 3 * lanes);
    nvf_cube_t in = nvf_cube(r, w, h, c, esz);
    *out = nvf_cube(r, w, h, c, esz);
    nvf_cube_sdp(&in), nvf_cube_sdp(out);
    ref->in = in, ref->fp16 = prec == NVF_FP16;
    ref->bytes = prec == NVF_FP16 ? nvf_fill_fp16_keep(p, r, src, nvf_cube_bytes(&in), &mix)
                                  : nvf_fill_keep(p, r, src, nvf_cube_bytes(&in));
    nvf_fill(p, r, *dst, nvf_cube_bytes(out));
    dp_wlist_t l = {.n = 0};
    dp_put(&l, NVDLA_SDP_RDMA_D_DATA_CUBE_WIDTH_0, w - 1), dp_put(&l, NVDLA_SDP_RDMA_D_DATA_CUBE_HEIGHT_0, h - 1);
    dp_put(&l, NVDLA_SDP_RDMA_D_DATA_CUBE_CHANNEL_0, c - 1);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW_0, src.addr), dp_put(&l, NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE_0, in.line);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE_0, in.surf_reg);
    dp_put(&l, NVDLA_SDP_RDMA_D_SRC_DMA_CFG_0, nvf_ram(src));
    /* sdp_random_ew_fp16 and _lut_fp16: an INT16 output in a quarter (FP16 -> INT16 after the stage, sdp_c.cpp:48) */
    const unsigned out_prec = (kind == K_EW_FP16 || kind == K_LUT_FP16) && rng_chance(r, 25) ? NVF_INT16 : prec;
    dp_put(&l, NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0, prec << 2 | prec << 4 | out_prec << 6); /* memory input, batch 1 */
    dp_put(&l, NVDLA_SDP_D_DATA_CUBE_WIDTH_0, w - 1), dp_put(&l, NVDLA_SDP_D_DATA_CUBE_HEIGHT_0, h - 1);
    dp_put(&l, NVDLA_SDP_D_DATA_CUBE_CHANNEL_0, c - 1);
    dp_put(&l, NVDLA_SDP_D_DST_BASE_ADDR_LOW_0, dst->addr), dp_put(&l, NVDLA_SDP_D_DST_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_SDP_D_DST_LINE_STRIDE_0, out->line), dp_put(&l, NVDLA_SDP_D_DST_SURFACE_STRIDE_0, out->surf_reg);
    dp_put(&l, NVDLA_SDP_D_DST_DMA_CFG_0, nvf_ram(*dst));
    ref->f16.nan_to_zero = ref->fp16 && rng_chance(r, 50);
    /* sdp_random_lut_pdp: OUTPUT_DST PDP (bit 1), the write DMA's registers left as drawn (unused) */
    dp_put(&l, NVDLA_SDP_D_FEATURE_MODE_CFG_0,
           (uint32_t)ref->f16.nan_to_zero << 3 | (uint32_t)(kind == K_LUT_PDP) << 1);
    dp_put(&l, NVDLA_SDP_D_DATA_FORMAT_0, prec | out_prec << 2);
    char bs[24], bn[24], bd[24], nd[24], ew[48] = "", ed[24] = "";
    /* sdp_lut_fp16_corrupt draws the stages again (up to 16 times; their operand bytes are written again, the
     * registers drawn anew) while no finite value reaches the LUT: a NaN or Inf operand can make every element's
     * lookup independent of the entries, and the negative would pass */
    const size_t regs0 = l.n;
    for (int tries = 0;; tries++) {
        draw_stage(&l, r, NVDLA_SDP_D_DP_BS_CFG_0, &ref->st[BS], ref->fp16, bs, sizeof bs);
        draw_stage(&l, r, NVDLA_SDP_D_DP_BN_CFG_0, &ref->st[BN], ref->fp16, bn, sizeof bn);
        for (int i = 0; i < NSTAGE; i++) {
            bool a, m;
            sdp_x_wants(&ref->st[i], &a, &m);
            draw_dma(p, r, &l, k, 2 + (unsigned)i, i ? NVDLA_SDP_RDMA_D_NRDMA_CFG_0 : NVDLA_SDP_RDMA_D_BRDMA_CFG_0, a,
                     m, prec, &in, &ref->dma[i], i ? nd : bd, sizeof bd);
        }
        ew[0] = ed[0] = 0;
        if (with_ew) draw_ew(&l, r, &ref->ew, ew, sizeof ew, prec == NVF_FP16, kind >= K_LUT);
        else ref->ew = (sdp_ew_cfg_t){.bypass = true}, dp_put(&l, NVDLA_SDP_D_DP_EW_CFG_0, 0x53); /* all bypassed */
        bool ea, em;
        sdp_ew_wants(&ref->ew, &ea, &em);
        draw_dma(p, r, &l, k, 4, NVDLA_SDP_RDMA_D_ERDMA_CFG_0, ea, em, prec, &in, &ref->dma[EW], ed, sizeof ed);
        if (kind != K_LUT_FP16_CORRUPT || tries == 15 || any_finite(ref)) break;
        l.n = regs0;
        for (int i = 0; i < NDMA; i++) free(ref->dma[i].bytes), ref->dma[i] = (opdma_t){.on = false};
    }
    if (kind == K_EW_FP16 && ew_cancel(p, r, ref)) strncat(ed, ".cancel", sizeof ed - strlen(ed) - 1);
    /* sdp_random_lut_fp16: in 60 % of the jobs whose EW ALU is MAX or SUM with its register operand, that
     * operand +-Inf (MAX: +Inf), so that Inf enters the LUT (FpMax and FpAdd pass it), which the draws above almost
     * never make */
    if (kind == K_LUT_FP16 && !ref->ew.bypass && !ref->ew.alu_bypass && !ref->ew.alu.src_mem && ref->ew.algo != 1 &&
        rng_chance(r, 60)) {
        ref->ew.alu.reg = (int32_t)(ref->ew.algo == 0 || rng_chance(r, 50) ? 0x7F800000u : 0xFF800000u);
        for (size_t i = 0; i < l.n; i++)
            if (l.w[i].a == NVDLA_SDP_D_DP_EW_ALU_SRC_VALUE_0) l.w[i].v = (uint32_t)ref->ew.alu.reg;
        strncat(ew, ref->ew.alu.reg < 0 ? ".ninf" : ".inf", sizeof ew - strlen(ew) - 1);
    }
    const bool wild = rng_chance(r, 30); /* the converter as sdp_random draws it (unused at FP16) */
    ref->off = wild ? (uint32_t)((int32_t)rng_next(r) >> rng_range(r, 0, 31)) : rng_range(r, 0, 16) - 8;
    ref->scale = wild ? (uint32_t)rng_next(r) & 0xFFFF : rng_range(r, 1, 4);
    ref->shift = wild ? rng_range(r, 0, 63) : rng_range(r, 0, 4);
    if (corrupt) ref->off = 0, ref->scale = 1, ref->shift = 0; /* the LUT's output seen, not scaled away */
    dp_put(&l, NVDLA_SDP_D_CVT_OFFSET_0, ref->off), dp_put(&l, NVDLA_SDP_D_CVT_SCALE_0, ref->scale);
    dp_put(&l, NVDLA_SDP_D_CVT_SHIFT_0, ref->shift);
    ref->f16.out_int16 = out_prec != prec;
    char bad[24] = "";
    if (kind >= K_LUT) { /* the LUT aimed at the values that reach it (real channels) */
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        float flo = INFINITY, fhi = -INFINITY; /* FP16: the finite FP32 values */
        for (uint32_t ch = 0; ch < c; ch++)
            for (uint32_t y = 0; y < h; y++)
                for (uint32_t x = 0; x < w; x++) {
                    if (ref->fp16) {
                        const uint32_t b = pre_lut_fp16(ref, ch, y, x);
                        float v;
                        memcpy(&v, &b, 4);
                        if (isfinite(v)) flo = v < flo ? v : flo, fhi = v > fhi ? v : fhi;
                        continue;
                    }
                    const int64_t v = pre_lut(ref, ch, y, x);
                    lo = v < lo ? v : lo, hi = v > hi ? v : hi;
                }
        /* sdp_lut_corrupt draws the LUT again (its registers too) until a flipped entry shows in the output: a
         * negative that passed for want of a visible entry would prove nothing (1 seed in 40 drew none) */
        const size_t regs = l.n;
        int e = -1;
        ref->lut = true;
        for (int tries = 0; tries < 64; tries++) {
            l.n = regs;
            if (ref->fp16) nvf_sdplut_draw_fp16(r, &l, flo, fhi, &ref->lut_draw);
            else nvf_sdplut_draw(r, &l, lo, hi, &ref->lut_draw);
            if (!corrupt || (e = corrupt_entry(ref)) >= 0) break;
        }
        if (e >= 0)
            snprintf(bad, sizeof bad, "corrupt_%s%d.", e < SDP_LUT_LE_N ? "le" : "lo",
                     e < SDP_LUT_LE_N ? e : e - SDP_LUT_LE_N);
        nvf_sdplut_write(p, r, &ref->lut_draw, e);
    }
    /* PDP over SDP's output (out_prec is prec with the LUT), written at SDP's destination */
    char pdptag[56] = ".";
    if (kind == K_LUT_PDP)
        ref->fly = nvf_pdp_fly_draw(p, r, &l, (nvf_prec_t)out_prec, w, h, c, *dst, pdptag + 1, sizeof pdptag - 1);
    else pdptag[0] = 0;
    /* the corrupted entry first: a job's name is cut at the scoreboard's 128 characters */
    snprintf(tag, n, "%s%s%s%s.%s2%s.bs_%s%s.bn_%s%s%s%s%s%s", bad, nvf_prec[prec].name,
             out_prec != prec ? ".2int16" : "", ref->f16.nan_to_zero ? ".nan0" : "", src.cv ? "cv" : "dbb",
             dst->cv ? "cv" : "dbb", bs, bd, bn, nd, ew, ed, ref->lut ? ref->lut_draw.tag : "", pdptag);
    nvf_pointers(p, NVDLA_SDP_S_POINTER_0, NVDLA_SDP_RDMA_S_POINTER_0, g);
    if (ref->fly) nvf_pointers(p, NVDLA_PDP_S_POINTER_0, 0, g);
    dp_emit_shuffled(p, r, &l);
    if (ref->fly) nvf_enable(p, r, NVDLA_PDP_D_OP_ENABLE_0, 0); /* PDP first: it waits for SDP's stream */
    nvf_enable(p, r, NVDLA_SDP_D_OP_ENABLE_0, NVDLA_SDP_RDMA_D_OP_ENABLE_0);
}

static void mref_free(mref_t *m)
{
    free(m->bytes);
    for (int i = 0; i < NDMA; i++) free(m->dma[i].bytes);
    free(m);
}

/* 1-3 rounds of one job, or two back to back in both groups (the second programmed while the first runs), as
 * sdp_random's rounds go; each job checked against the golden model and the generator's prediction. A job's memory
 * is job slot 2 * (2 * round + j)'s: its five places (input, output, three operand DMAs) overlap no other job's. */
static int mem_run(program_t *p, uint64_t seed, const char *stream, mem_kind_t kind)
{
    rng_t r;
    rng_seed_stream(&r, seed, stream);
    const int rounds = (int)rng_range(&r, 1, 3);
    int g = 0;
    for (int k = 0; k < rounds; k++) {
        const bool two = kind < K_LUT && rng_chance(&r, 25); /* the LUT is both groups': one job a round */
        prog_job(p, "%s", stream);                           /* named below, once its jobs are drawn */
        const size_t job_op = p->n - 1;
        char tag[2][200] = {"", ""};
        mref_t *ref[2] = {NULL, NULL};
        nvf_place_t dst[2];
        nvf_cube_t out[2];
        uint32_t bits = 0;
        for (int j = 0; j < (two ? 2 : 1); j++) {
            ref[j] = calloc(1, sizeof *ref[j]);
            if (!ref[j]) abort();
            mem_job(p, &r, 2 * (2 * k + j), g, kind, tag[j], sizeof tag[j], ref[j], &dst[j], &out[j]);
            bits |= (ref[j]->fly ? INTR_SDP | INTR_PDP : INTR_SDP) << g;
            if (two && !j) g ^= 1;
        }
        char name[480];
        snprintf(name, sizeof name, "%s.s%llu.j%d.%s%s%s", stream + 4, (unsigned long long)seed, k, tag[0],
                 two ? ".b2b." : "", tag[1]);
        free(p->ops[job_op].text);
        p->ops[job_op].text = strdup(name);
        nvf_wait_done(p, bits, JOB_TIMEOUT);
        prog_check_golden(p);
        for (int j = 0; j < 2; j++)
            if (ref[j] && ref[j]->fly) { /* SDP's output as mem_elem predicts it, pooled */
                int32_t *mid = nvf_pdp_fly_mid(ref[j]->fly);
                const nvf_cube_t *q = &ref[j]->in;
                for (uint32_t ch = 0; ch < q->c; ch++)
                    for (uint32_t y = 0; y < q->h; y++)
                        for (uint32_t x = 0; x < q->w; x++)
                            mid[((size_t)ch * q->h + y) * q->w + x] = mem_elem(ref[j], ch, y, x);
                nvf_pdp_fly_expect(p, ref[j]->fly, false);
                mref_free(ref[j]);
            } else if (ref[j]) {
                nvf_expect_cube(p, "SDP output", dst[j], &out[j], mem_elem, ref[j], false);
                mref_free(ref[j]);
            }
        g ^= 1;
    }
    return 0;
}

int nvf_sdp_random_mem(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return mem_run(p, seed, "nvf_sdp_random_mem", K_MEM);
}

int nvf_sdp_random_ew(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return mem_run(p, seed, "nvf_sdp_random_ew", K_EW);
}

int nvf_sdp_random_ew_fp16(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return mem_run(p, seed, "nvf_sdp_random_ew_fp16", K_EW_FP16);
}

int nvf_sdp_random_lut(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return mem_run(p, seed, "nvf_sdp_random_lut", K_LUT);
}

/* sdp_random_lut's draws (its own stream) with SDP's output streamed into PDP on the fly: the LUT's output pooled. */
int nvf_sdp_random_lut_pdp(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return mem_run(p, seed, "nvf_sdp_random_lut_pdp", K_LUT_PDP);
}

/* sdp_random_lut's jobs (its stream), each with one LUT entry written wrong, the one the generator's
 * prediction (from its own copy of the table) sees first: fails naming the output element (the job's name names the
 * entry). */
int nvf_sdp_lut_corrupt(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return mem_run(p, seed, "nvf_sdp_random_lut", K_LUT_CORRUPT);
}

/* The LUT at FP16 (its own stream): FP32 starts and ends, FP16 entries and slopes, aimed at the FP32 values that
 * reach it (nvf_sdplut_draw_fp16). */
int nvf_sdp_random_lut_fp16(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return mem_run(p, seed, "nvf_sdp_random_lut_fp16", K_LUT_FP16);
}

/* sdp_random_lut_fp16's jobs with one entry written wrong, as sdp_lut_corrupt (FP16 output: the flip of the entry's
 * sign bit shows unless its weight is 0, and the draw repeats until one shows). */
int nvf_sdp_lut_fp16_corrupt(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return mem_run(p, seed, "nvf_sdp_random_lut_fp16", K_LUT_FP16_CORRUPT);
}
#else
#include "nvf_gen.h"
#include <stdio.h>
NVF_ABSENT(nvf_sdp_random_mem)
NVF_ABSENT(nvf_sdp_random_ew)
NVF_ABSENT(nvf_sdp_random_ew_fp16)
NVF_ABSENT(nvf_sdp_random_lut)
NVF_ABSENT(nvf_sdp_random_lut_pdp)
NVF_ABSENT(nvf_sdp_lut_corrupt)
NVF_ABSENT(nvf_sdp_random_lut_fp16)
NVF_ABSENT(nvf_sdp_lut_fp16_corrupt)
#endif
