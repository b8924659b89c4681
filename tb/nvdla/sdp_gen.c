#include "sdp_gen.h"
#include "dp_gen_util.h"
#include "nvdla_regs.h"
#include "rng.h"
#include <stdlib.h>
#include <string.h>

#define JOB_TIMEOUT 400000u
enum { RDMA = 0x8000, SDP = 0x9000 };

/* Register writes of one job, emitted in a seeded order (the order before D_OP_ENABLE is free). */
typedef struct wlist {
    struct {
        uint32_t a, v;
    } w[128];
    size_t n;
} wlist_t;

static void put(wlist_t *l, uint32_t a, uint32_t v)
{
    if (l->n < sizeof l->w / sizeof *l->w) l->w[l->n].a = a, l->w[l->n++].v = v;
}

static void emit_shuffled(program_t *p, rng_t *r, wlist_t *l)
{
    for (size_t i = l->n; i > 1; i--) {
        size_t j = rng_below(r, (uint32_t)i);
        __typeof__(l->w[0]) t = l->w[i - 1];
        l->w[i - 1] = l->w[j];
        l->w[j] = t;
    }
    for (size_t i = 0; i < l->n; i++) prog_write(p, l->w[i].a, l->w[i].v);
}

static void fill_random(program_t *p, rng_t *r, uint32_t addr, uint32_t size)
{
    uint8_t *b = malloc(size);
    if (!b) abort();
    for (uint32_t i = 0; i < size; i++) b[i] = (uint8_t)rng_next(r);
    prog_mem(p, addr, b, size);
    free(b);
}

/* Strides (multiples of 8) for a cube of w x h groups of gbytes bytes; packed or with gaps. */
static void strides(rng_t *r, uint32_t w, uint32_t h, uint32_t gbytes, uint32_t *ls, uint32_t *ss)
{
    *ls = w * gbytes + 8 * (rng_chance(r, 50) ? 0 : rng_range(r, 1, 4));
    *ss = h * *ls + 8 * (rng_chance(r, 50) ? 0 : rng_range(r, 1, 6));
}

static uint32_t footprint(uint32_t w, uint32_t h, uint32_t s, uint32_t gbytes, uint32_t ls, uint32_t ss, bool packed)
{
    return packed ? s * gbytes : (s - 1) * ss + (h - 1) * ls + w * gbytes;
}

/* A random 16-bit operand register value with junk above bit 15 (ignored, spec §5). */
static uint32_t opnd(rng_t *r)
{
    uint32_t v = rng_chance(r, 50) ? rng_range(r, 0, 15) - 8 : (uint32_t)rng_next(r);
    return (v & 0xFFFF) | ((uint32_t)rng_next(r) & 0xFFFF0000u);
}

static unsigned shift(rng_t *r) { return rng_chance(r, 80) ? rng_range(r, 0, 8) : rng_range(r, 0, 63); }

typedef struct stage {
    bool on, alu, mul, amem, mmem;
} stage_t;

/* One X stage: CFG/ALU/MUL registers; returns which operands it takes from memory. */
static stage_t x_stage(wlist_t *l, rng_t *r, uint32_t cfg_off)
{
    stage_t s = {.on = rng_chance(r, 60)};
    s.alu = rng_chance(r, 60);
    s.mul = rng_chance(r, 60);
    bool prelu = rng_chance(r, 25), relu_byp = rng_chance(r, 50);
    uint32_t cfg = (!s.on) | (!s.alu << 1) | (rng_below(r, 4) << 2) | (!s.mul << 4) | (prelu << 5) | (relu_byp << 6);
    if (!s.on && rng_chance(r, 50)) cfg |= (uint32_t)rng_next(r) & 0x7E; /* bypassed: the rest is junk */
    s.amem = s.on && s.alu && rng_chance(r, 40);
    s.mmem = s.on && s.mul && rng_chance(r, 40);
    put(l, SDP + cfg_off, cfg | ((uint32_t)rng_next(r) & 0xFFFFFF80u));
    put(l, SDP + cfg_off + 4, s.amem | (shift(r) << 8) | ((uint32_t)rng_next(r) & 0xFFFFC0FEu & 0xFE));
    put(l, SDP + cfg_off + 8, opnd(r));
    put(l, SDP + cfg_off + 12, s.mmem | (shift(r) << 8) | (rng_below(r, 4) << 14)); /* [15:14] ignored */
    put(l, SDP + cfg_off + 16, opnd(r));
    return s;
}

/* The operand DMA of a stage (BRDMA cfg 0x28.., NRDMA 0x40..): enabled iff the stage reads memory. */
static void op_dma(program_t *p, wlist_t *l, rng_t *r, const stage_t *s, uint32_t cfg_off, uint32_t base, uint32_t w,
                   uint32_t h, uint32_t ns)
{
    uint32_t junk = (uint32_t)rng_next(r);
    if (!s->amem && !s->mmem) {
        put(l, RDMA + cfg_off, 1 | (junk & 0x3E)); /* disabled: fields are junk */
        put(l, RDMA + cfg_off + 4, (uint32_t)rng_next(r));
        put(l, RDMA + cfg_off + 12, (uint32_t)rng_next(r));
        put(l, RDMA + cfg_off + 16, (uint32_t)rng_next(r));
        return;
    }
    uint32_t use = s->amem && s->mmem ? 2 : s->amem ? 1 : 0, size = rng_below(r, 2), mode = rng_below(r, 2);
    uint32_t bpe = (use == 2 ? 2 : 1) * (size ? 2 : 1), ls, ss;
    bool packed = !mode || (w == 1 && h == 1);
    strides(r, w, h, 8 * bpe, &ls, &ss);
    fill_random(p, r, base, footprint(w, h, ns, 8 * bpe, ls, ss, packed));
    put(l, RDMA + cfg_off, (use << 1) | (size << 3) | (mode << 4) | (1u << 5));
    put(l, RDMA + cfg_off + 4, base | (junk & 7));     /* bits [2:0] dropped */
    put(l, RDMA + cfg_off + 8, (uint32_t)rng_next(r)); /* ADDR_HIGH ignored */
    put(l, RDMA + cfg_off + 12, ls | ((junk >> 3) & 7));
    put(l, RDMA + cfg_off + 16, ss);
    put(l, RDMA + cfg_off + 20, (uint32_t)rng_next(r)); /* batch stride ignored */
}

typedef struct limits {
    uint32_t max_w, max_h, max_c;
} limits_t;

/* Program one job into group g (S_POINTERs set by the caller) and enable it. */
static void sdp_job(program_t *p, rng_t *r, int k, int g, const limits_t *lim)
{
    bool one = rng_chance(r, 15);
    uint32_t w = one ? 1 : rng_range(r, 1, lim->max_w), h = one ? 1 : rng_range(r, 1, lim->max_h),
             c = rng_chance(r, 10) ? rng_range(r, 1, 8) : rng_range(r, 1, lim->max_c), ns = (c + 7) / 8;
    uint32_t region = 0x80000000u + (uint32_t)k * 0x01000000u;
    uint32_t src = region, dst = region + 0x00400000u, bsb = region + 0x00800000u, bnb = region + 0x00C00000u;
    uint32_t sls, sss, dls, dss;
    strides(r, w, h, 8, &sls, &sss);
    strides(r, w, h, 8, &dls, &dss);
    fill_random(p, r, src, footprint(w, h, ns, 8, sls, sss, one));
    fill_random(p, r, dst, footprint(w, h, ns, 8, dls, dss, one)); /* gap bytes must survive */
    wlist_t l = {.n = 0};
    uint32_t j = (uint32_t)rng_next(r);
    /* cube (both copies), input, output */
    put(&l, RDMA + 0x0c, w - 1), put(&l, RDMA + 0x10, h - 1), put(&l, RDMA + 0x14, c - 1);
    put(&l, SDP + 0x3c, w - 1), put(&l, SDP + 0x40, h - 1), put(&l, SDP + 0x44, c - 1);
    put(&l, RDMA + 0x18, src | (j & 7)), put(&l, RDMA + 0x1c, (uint32_t)rng_next(r));
    put(&l, RDMA + 0x20, sls | ((j >> 3) & 7)), put(&l, RDMA + 0x24, sss | ((j >> 6) & 7));
    put(&l, RDMA + 0x70, (j & 0x1F02u) & 0x1F02u), put(&l, RDMA + 0x74, 1); /* winograd/batch junk; INT8 */
    put(&l, SDP + 0x48, dst | ((j >> 9) & 7)), put(&l, SDP + 0x4c, (uint32_t)rng_next(r));
    put(&l, SDP + 0x50, dls | ((j >> 12) & 7)), put(&l, SDP + 0x54, dss | ((j >> 15) & 7));
    put(&l, SDP + 0xb0, (j >> 16) & 0x1F0Cu), put(&l, SDP + 0xb4, 1), put(&l, SDP + 0xb8, (uint32_t)rng_next(r));
    put(&l, SDP + 0xbc, 0);
    /* X stages and their operand DMAs */
    stage_t bs = x_stage(&l, r, 0x58), bn = x_stage(&l, r, 0x6c);
    op_dma(p, &l, r, &bs, 0x28, bsb, w, h, ns);
    op_dma(p, &l, r, &bn, 0x40, bnb, w, h, ns);
    /* converter: mostly near identity, sometimes anything */
    bool wild = rng_chance(r, 40);
    put(&l, SDP + 0xc0, wild ? (uint32_t)((int32_t)rng_next(r) >> rng_range(r, 0, 31)) : rng_range(r, 0, 16) - 8);
    put(&l, SDP + 0xc4, (wild ? (uint32_t)rng_next(r) & 0xFFFF : rng_range(r, 1, 4)) | ((uint32_t)rng_next(r) << 16));
    put(&l, SDP + 0xc8, (wild ? rng_range(r, 0, 63) : rng_range(r, 0, 4)) | ((uint32_t)rng_next(r) & 0xFFFFFFC0u));
    /* don't-care junk: ERDMA/EW (nv_small has no equal mode: EW is tied off), LUT storage, perf enables, RO results */
    put(&l, RDMA + 0x58, (uint32_t)rng_next(r)), put(&l, RDMA + 0x5c, (uint32_t)rng_next(r));
    put(&l, RDMA + 0x78, (uint32_t)rng_next(r));
    uint32_t ew = (uint32_t)rng_next(r);
    if (rng_chance(r, 10)) ew = (ew & ~0xFu) | 0xCu; /* the bits that once meant "equal mode" */
    put(&l, NVDLA_SDP_D_DP_EW_CFG_0, ew), put(&l, NVDLA_SDP_D_DP_EW_ALU_SRC_VALUE_0, (uint32_t)rng_next(r));
    put(&l, NVDLA_SDP_D_PERF_ENABLE_0, (uint32_t)rng_next(r)), put(&l, NVDLA_SDP_D_STATUS_0, (uint32_t)rng_next(r));
    emit_shuffled(p, r, &l);
    if (rng_chance(r, 50)) {
        prog_write(p, NVDLA_SDP_D_OP_ENABLE_0, 1);
        prog_write(p, NVDLA_SDP_RDMA_D_OP_ENABLE_0, 1);
    } else {
        prog_write(p, NVDLA_SDP_RDMA_D_OP_ENABLE_0, 1);
        prog_write(p, NVDLA_SDP_D_OP_ENABLE_0, 1);
    }
    (void)g;
}

static void pointers(program_t *p, int g)
{
    prog_write(p, NVDLA_SDP_S_POINTER_0, (uint32_t)g);
    prog_write(p, NVDLA_SDP_RDMA_S_POINTER_0, (uint32_t)g);
}

static const limits_t small = {.max_w = 6, .max_h = 5, .max_c = 40};
static const limits_t wide = {.max_w = 24, .max_h = 8, .max_c = 72};

/* 1-3 programs of one job each; sometimes two jobs back to back (the second group is programmed and
 * enabled while the first runs). */
static int sdp_run(program_t *p, uint64_t seed, const char *name, unsigned b2b_pct)
{
    rng_t r;
    rng_seed_stream(&r, seed, name);
    int rounds = (int)rng_range(&r, 1, 3), g = 0;
    for (int k = 0; k < rounds; k++) {
        const limits_t *lim = rng_chance(&r, 20) ? &wide : &small;
        bool two = rng_chance(&r, b2b_pct);
        prog_job(p, "%s.s%llu.j%d%s", name, (unsigned long long)seed, k, two ? ".b2b" : "");
        pointers(p, g);
        sdp_job(p, &r, 2 * k, g, lim);
        uint32_t bits = 1u << g;
        if (two) {
            pointers(p, g ^ 1);
            sdp_job(p, &r, 2 * k + 1, g ^ 1, lim);
            bits |= 1u << (g ^ 1);
            g ^= 1;
        }
        prog_wait_irq(p, bits, JOB_TIMEOUT);
        prog_check_golden(p);
        dp_read_results(p, DP_SDP);
        g ^= 1;
    }
    return 0;
}

int sdp_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return sdp_run(p, seed, "sdp_random", 25);
}

int sdp_b2b(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return sdp_run(p, seed, "sdp_b2b", 100);
}

/* Negative test: SDP enabled in memory mode without SDP_RDMA never starts; the watchdog must fire. */
int sdp_hang(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen, (void)seed;
    prog_job(p, "sdp_hang");
    pointers(p, 0);
    prog_write(p, NVDLA_SDP_D_FEATURE_MODE_CFG_0, 0);
    prog_write(p, NVDLA_SDP_D_OP_ENABLE_0, 1);
    prog_read(p, NVDLA_SDP_S_STATUS_0, 1, 3); /* group 0 RUNNING (waiting for its RDMA) */
    prog_wait_irq(p, 1, 20000);
    return 0;
}
