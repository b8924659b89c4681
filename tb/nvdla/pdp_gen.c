#include "pdp_gen.h"
#include "dp_gen_util.h"
#include "nvdla_regs.h"
#include <stdio.h>

#define JOB_TIMEOUT 600000u
enum { RDMA = 0xA000, PDP = 0xB000, SDPR = 0x8000, SDP = 0x9000 };

/* The KMD reciprocal table 1/k in Q0.16 (spec nvdla_datapath.md 3.3). */
static const uint32_t kmd_recip[8] = {0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2aaa, 0x2492, 0x2000};

/* Output-width limit of one pass (spec 3.2): MaxW by the number of line-buffer lines ceil(kh/sh). */
static uint32_t max_w(unsigned kh, unsigned sh)
{
    unsigned lines = (kh + sh - 1) / sh;
    return lines == 1 ? 128 : lines == 2 ? 64 : lines <= 4 ? 32 : 16;
}

/* In one dimension: the input size of an exact tiling with `out` windows (0 if impossible). */
static uint32_t in_size(uint32_t out, unsigned k, unsigned st, unsigned p0, unsigned p1)
{
    int v = (int)((out - 1) * st + k) - (int)p0 - (int)p1;
    return v < 1 ? 0 : (uint32_t)v;
}

/* A legal geometry: exact tiling, pads < kernel, pass widths <= MaxW; split partitions keep the left
 * pad in the first and the right pad in the last partition (spec 3.4; kw >= sw). */
void pdp_pick_geom(rng_t *r, pdp_geom_t *g, uint32_t lim_w, uint32_t lim_h, uint32_t lim_c, bool allow_split)
{
    g->method = rng_below(r, 3);
    g->kw = rng_range(r, 1, 8), g->kh = rng_range(r, 1, 8);
    g->sw = rng_chance(r, 70) ? rng_range(r, 1, g->kw) : rng_range(r, 1, 8);
    g->sh = rng_chance(r, 70) ? rng_range(r, 1, g->kh) : rng_range(r, 1, 8);
    if (rng_chance(r, 20)) g->sw = g->sh = 1; /* dense: one output per input column, queues fill */
    g->pl = rng_below(r, g->kw), g->pr = rng_below(r, g->kw);
    g->pt = rng_below(r, g->kh), g->pb = rng_below(r, g->kh);
    if (rng_chance(r, 30)) g->pl = g->pr = g->pt = g->pb = 0;
    uint32_t mw = max_w(g->kh, g->sh);
    g->parts = 1;
    if (allow_split && g->kw >= g->sw && rng_chance(r, 25)) {
        g->parts = rng_range(r, 2, 4);
        uint32_t pw = mw < 6 ? mw : 6;
        g->of = rng_range(r, 1, pw), g->om = rng_range(r, 1, pw), g->ol = rng_range(r, 1, pw);
        while (g->of * g->sw < g->pl) g->of++;  /* left pad inside the first partition */
        while (g->ol * g->sw <= g->pr) g->ol++; /* right pad inside the last one (>= 1 new column) */
        g->wo = g->of + (g->parts - 2) * g->om + g->ol;
    } else {
        uint32_t top = lim_w >= g->kw ? (lim_w - g->kw) / g->sw + 1 : 1;
        g->wo = rng_range(r, 1, top < mw ? top : mw);
    }
    g->wi = in_size(g->wo, g->kw, g->sw, g->pl, g->pr);
    if (!g->wi) { /* too small for the pads: drop them */
        g->pl = g->pr = 0;
        if (g->parts > 1) g->of = g->of < 1 ? 1 : g->of;
        g->wi = in_size(g->wo, g->kw, g->sw, 0, 0);
    }
    uint32_t toph = lim_h >= g->kh ? (lim_h - g->kh) / g->sh + 1 : 1;
    g->ho = rng_range(r, 1, toph);
    g->hi = in_size(g->ho, g->kh, g->sh, g->pt, g->pb);
    if (!g->hi) {
        g->pt = g->pb = 0;
        g->hi = in_size(g->ho, g->kh, g->sh, 0, 0);
    }
    g->c = rng_chance(r, 15) ? rng_range(r, 1, 8) : rng_range(r, 1, lim_c);
    g->s = (g->c + 7) / 8;
}

static uint32_t partial(uint32_t first, uint32_t last, uint32_t mid)
{
    return ((first - 1) & 0x3FF) | (((last - 1) & 0x3FF) << 10) | (((mid - 1) & 0x3FF) << 20);
}

static uint32_t pad_value(rng_t *r, unsigned n, int32_t unit, bool natural)
{
    uint32_t v = natural ? (uint32_t)(unit * (int32_t)n) : (uint32_t)rng_next(r);
    return (v & 0x7FFFF) | ((uint32_t)rng_next(r) & 0xFFF80000u); /* [31:19] ignored */
}

/* PDP_RDMA (off-fly) or SDP (on-fly, pass-through-ish) source programming. */
static void src_regs(program_t *p, rng_t *r, dp_wlist_t *l, const pdp_geom_t *g, uint32_t src, bool onfly,
                     uint32_t sdp_dst_junk)
{
    uint32_t ls, ss;
    dp_strides(r, g->wi, g->hi, &ls, &ss);
    dp_fill_random(p, r, src, dp_footprint(g->wi, g->hi, g->s, ls, ss));
    if (!onfly) {
        dp_put(l, RDMA + 0x0c, g->wi - 1), dp_put(l, RDMA + 0x10, g->hi - 1), dp_put(l, RDMA + 0x14, g->c - 1);
        dp_put(l, RDMA + 0x18, 1); /* OFF_FLYING (memory) */
        dp_put(l, RDMA + 0x1c, src), dp_put(l, RDMA + 0x20, dp_junk(r));
        dp_put(l, RDMA + 0x24, ls), dp_put(l, RDMA + 0x28, ss);
        dp_put(l, RDMA + 0x2c, 1), dp_put(l, RDMA + 0x30, 0);
        dp_put(l, RDMA + 0x34, g->parts - 1);
        dp_put(l, RDMA + 0x38, (g->kw - 1) | ((g->sw - 1) << 4));
        dp_put(l, RDMA + 0x3c, dp_junk(r)); /* padding cfg: unused */
        dp_put(l, RDMA + 0x44, dp_junk(r)), dp_put(l, RDMA + 0x4c, dp_junk(r));
        return;
    }
    /* SDP memory -> PDP: BS/BN bypassed, a random near-identity converter */
    dp_put(l, SDPR + 0x0c, g->wi - 1), dp_put(l, SDPR + 0x10, g->hi - 1), dp_put(l, SDPR + 0x14, g->c - 1);
    dp_put(l, SDP + 0x3c, g->wi - 1), dp_put(l, SDP + 0x40, g->hi - 1), dp_put(l, SDP + 0x44, g->c - 1);
    dp_put(l, SDPR + 0x18, src), dp_put(l, SDPR + 0x20, ls), dp_put(l, SDPR + 0x24, ss);
    dp_put(l, SDPR + 0x28, 1), dp_put(l, SDPR + 0x40, 1); /* operand DMAs disabled */
    dp_put(l, SDPR + 0x70, 0), dp_put(l, SDPR + 0x74, 1);
    dp_put(l, SDP + 0x48, sdp_dst_junk), dp_put(l, SDP + 0x58, 0x73), dp_put(l, SDP + 0x6c, 0x53);
    dp_put(l, SDP + 0xb0, 2), dp_put(l, SDP + 0xb4, 1), dp_put(l, SDP + 0xbc, 0); /* output_dst = PDP */
    dp_put(l, SDP + 0xc0, rng_range(r, 0, 8) - 4), dp_put(l, SDP + 0xc4, rng_range(r, 1, 3));
    dp_put(l, SDP + 0xc8, rng_range(r, 0, 1));
}

/* Program one PDP job into group g (pointers set by the caller) and enable it. */
static void pdp_job(program_t *p, rng_t *r, int k, const pdp_geom_t *g, bool onfly)
{
    uint32_t region = 0x80000000u + (uint32_t)k * 0x01000000u, src = region, dst = region + 0x00800000u;
    dp_wlist_t l = {.n = 0};
    src_regs(p, r, &l, g, src, onfly, dp_junk(r));
    uint32_t dls, dss;
    dp_strides(r, g->wo, g->ho, &dls, &dss);
    dp_fill_random(p, r, dst, dp_footprint(g->wo, g->ho, g->s, dls, dss)); /* gap bytes must survive */
    bool avg = g->method == 0;
    dp_put(&l, PDP + 0x0c, g->wi - 1), dp_put(&l, PDP + 0x10, g->hi - 1), dp_put(&l, PDP + 0x14, g->c - 1);
    dp_put(&l, PDP + 0x18, g->wo - 1), dp_put(&l, PDP + 0x1c, g->ho - 1), dp_put(&l, PDP + 0x20, g->c - 1);
    dp_put(&l, PDP + 0x24, g->method | (!onfly << 4) | ((g->parts - 1) << 8));
    dp_put(&l, PDP + 0x28, dp_junk(r));
    uint32_t pin = dp_junk(r), pout = dp_junk(r);
    if (g->parts > 1) {
        uint32_t in_first = (g->of - 1) * g->sw + g->kw - g->pl, in_mid = g->om * g->sw;
        uint32_t in_last = g->wi - in_first - (g->parts - 2) * in_mid;
        pin = partial(in_first, in_last, in_mid);
        pout = partial(g->of, g->ol, g->om);
        if (!onfly) dp_put(&l, RDMA + 0x40, pin);
    } else if (!onfly) dp_put(&l, RDMA + 0x40, dp_junk(r)); /* unused when split_num = 0 */
    dp_put(&l, PDP + 0x2c, pin), dp_put(&l, PDP + 0x30, pout);
    dp_put(&l, PDP + 0x34, (g->kw - 1) | ((g->kh - 1) << 8) | ((g->sw - 1) << 16) | ((g->sh - 1) << 20));
    bool kmd = rng_chance(r, 70) || !avg;
    dp_put(&l, PDP + 0x38, (kmd ? kmd_recip[g->kw - 1] : (uint32_t)rng_next(r) & 0x1FFFF) | (dp_junk(r) & ~0x1FFFFu));
    dp_put(&l, PDP + 0x3c, (kmd ? kmd_recip[g->kh - 1] : (uint32_t)rng_next(r) & 0x1FFFF) | (dp_junk(r) & ~0x1FFFFu));
    dp_put(&l, PDP + 0x40, g->pl | (g->pt << 4) | (g->pr << 8) | (g->pb << 12));
    bool natural = rng_chance(r, 60);
    int32_t unit = (int32_t)rng_range(r, 0, 255) - 128;
    for (unsigned n = 1; n <= 7; n++) dp_put(&l, PDP + 0x40 + 4 * n, pad_value(r, n, unit, natural));
    for (uint32_t a = 0x60; a <= 0x6c; a += 4) dp_put(&l, PDP + a, dp_junk(r)); /* PDP SRC_*: unused */
    dp_put(&l, PDP + 0x70, dst), dp_put(&l, PDP + 0x74, dp_junk(r));
    dp_put(&l, PDP + 0x78, dls), dp_put(&l, PDP + 0x7c, dss);
    dp_put(&l, PDP + 0x80, 1), dp_put(&l, PDP + 0x84, 0);
    dp_put(&l, NVDLA_PDP_D_PERF_ENABLE_0, dp_junk(r)), dp_put(&l, NVDLA_PDP_D_CYA_0, dp_junk(r));
    dp_put(&l, NVDLA_PDP_D_NAN_INPUT_NUM_0, dp_junk(r)); /* RO: ignored */
    dp_emit_shuffled(p, r, &l);
    if (onfly) { /* PDP waits for the SDP stream: enable it first */
        prog_write(p, NVDLA_PDP_D_OP_ENABLE_0, 1);
        prog_write(p, NVDLA_SDP_D_OP_ENABLE_0, 1);
        prog_write(p, NVDLA_SDP_RDMA_D_OP_ENABLE_0, 1);
    } else if (rng_chance(r, 50)) {
        prog_write(p, NVDLA_PDP_D_OP_ENABLE_0, 1);
        prog_write(p, NVDLA_PDP_RDMA_D_OP_ENABLE_0, 1);
    } else {
        prog_write(p, NVDLA_PDP_RDMA_D_OP_ENABLE_0, 1);
        prog_write(p, NVDLA_PDP_D_OP_ENABLE_0, 1);
    }
}

static void pointers(program_t *p, int g, bool onfly)
{
    prog_write(p, NVDLA_PDP_S_POINTER_0, (uint32_t)g);
    prog_write(p, NVDLA_PDP_RDMA_S_POINTER_0, (uint32_t)g);
    if (onfly) {
        prog_write(p, NVDLA_SDP_S_POINTER_0, (uint32_t)g);
        prog_write(p, NVDLA_SDP_RDMA_S_POINTER_0, (uint32_t)g);
    }
}

typedef struct limits {
    uint32_t w, h, c;
} limits_t;
static const limits_t small = {.w = 24, .h = 12, .c = 40}, wide = {.w = 160, .h = 10, .c = 24},
                      big = {.w = 48, .h = 20, .c = 64}; /* enough output to fill the queues under stall */

/* 1-3 rounds; a round is one job, or two back to back (the idle group programmed and enabled while the
 * other runs). onfly_pct: share of jobs fed on the fly by SDP (those are never back to back). */
static int pdp_run(program_t *p, uint64_t seed, const char *name, unsigned b2b_pct, unsigned onfly_pct)
{
    rng_t r;
    rng_seed_stream(&r, seed, name);
    int rounds = (int)rng_range(&r, 1, 3), g = 0;
    for (int k = 0; k < rounds; k++) {
        unsigned pick = rng_below(&r, 100);
        const limits_t *lim = pick < 15 ? &wide : pick < 30 ? &big : &small;
        bool onfly = rng_chance(&r, onfly_pct), two = !onfly && rng_chance(&r, b2b_pct);
        pdp_geom_t geo;
        pdp_pick_geom(&r, &geo, lim->w, lim->h, lim->c, !onfly);
        prog_job(p, "%s.s%llu.j%d.m%u.k%ux%u.s%ux%u.p%u%s%s", name, (unsigned long long)seed, k, geo.method, geo.kw,
                 geo.kh, geo.sw, geo.sh, geo.parts, onfly ? ".onfly" : "", two ? ".b2b" : "");
        pointers(p, g, onfly);
        pdp_job(p, &r, 2 * k, &geo, onfly);
        uint32_t bits = (0x10u << g) | (onfly ? 1u << g : 0);
        if (two) {
            pointers(p, g ^ 1, false);
            pdp_pick_geom(&r, &geo, lim->w, lim->h, lim->c, true);
            pdp_job(p, &r, 2 * k + 1, &geo, false);
            bits |= 0x10u << (g ^ 1);
            g ^= 1;
        }
        prog_wait_irq(p, bits, JOB_TIMEOUT);
        prog_check_golden(p);
        dp_read_results(p, DP_PDP);
        if (onfly) dp_read_results(p, DP_SDP);
        g ^= 1;
    }
    return 0;
}

int pdp_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return pdp_run(p, seed, "pdp_random", 25, 0);
}

int pdp_b2b(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return pdp_run(p, seed, "pdp_b2b", 100, 0);
}

int pdp_onfly(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return pdp_run(p, seed, "pdp_onfly", 0, 100);
}

/* Negative test: PDP enabled for memory input without PDP_RDMA never starts; the watchdog must fire. */
int pdp_hang(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen, (void)seed;
    prog_job(p, "pdp_hang");
    pointers(p, 0, false);
    prog_write(p, NVDLA_PDP_D_OPERATION_MODE_CFG_0, 0x11);
    prog_write(p, NVDLA_PDP_D_OP_ENABLE_0, 1);
    prog_read(p, NVDLA_PDP_S_STATUS_0, 1, 3); /* group 0 RUNNING (waiting for its RDMA) */
    prog_wait_irq(p, 0x10, 20000);
    return 0;
}
