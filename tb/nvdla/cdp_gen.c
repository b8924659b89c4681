#include "cdp_gen.h"
#include "dp_gen_util.h"
#include "nvdla_regs.h"
#include <stdio.h>
#include <stdlib.h>

#define JOB_TIMEOUT 600000u
enum { RDMA = 0xC000, CDP = 0xD000 };

/* A 38-bit start/end as {HIGH[5:0], LOW}: mostly small values near the LUT input range, sometimes any. */
static int64_t pick38(rng_t *r, int64_t near, int64_t span)
{
    if (rng_chance(r, 25)) return (int64_t)rng_below(r, 3) - 1; /* at or next to common inputs (0): "<=" */
    if (rng_chance(r, 15)) {                                    /* anything (only [21:0] indexes) */
        int64_t v = (int64_t)(rng_next(r) & ((1ull << 38) - 1));
        return v >= (1ll << 37) ? v - (1ll << 38) : v;
    }
    return near + (int64_t)rng_below(r, (uint32_t)span) - span / 4;
}

static void put38(dp_wlist_t *l, rng_t *r, uint32_t off, int64_t v)
{
    dp_put(l, CDP + off, (uint32_t)v);
    dp_put(l, CDP + off + 4, ((uint32_t)((uint64_t)v >> 32) & 0x3F) | (dp_junk(r) & ~0x3Fu)); /* [31:6] ignored */
}

static unsigned log2u(uint32_t v) { return v ? 31u - (unsigned)__builtin_clz(v) : 0; }

/* The shared LUT state: contents and S_LUT_* settings. Only programmed while CDP is idle. Returns log2
 * of the typical LUT output magnitude (to pick output converter shifts that do not always saturate). */
static unsigned lut_program(program_t *p, rng_t *r, bool bypass_hint, bool neg_lo)
{
    unsigned style = rng_below(r, 3); /* contents: random, ramp, smooth */
    int base = (int)rng_range(r, 0, 4000) - 2000, stepv = (int)rng_range(r, 0, 800) - 400;
    prog_write(p, NVDLA_CDP_S_LUT_ACCESS_CFG_0, 0x20000); /* LE, write */
    for (int i = 0; i < 65; i++) {
        int v = style == 0 ? (int)(rng_next(r) & 0xFFFF)
                           : base + stepv * i + (style == 2 ? (int)rng_range(r, 0, 64) - 32 : 0);
        prog_write(p, NVDLA_CDP_S_LUT_ACCESS_DATA_0, ((uint32_t)v & 0xFFFF) | (dp_junk(r) & 0xFFFF0000u));
    }
    prog_write(p, NVDLA_CDP_S_LUT_ACCESS_CFG_0, 0x30000); /* LO, write */
    for (int i = 0; i < 257; i++) {
        int v = style == 0 ? (int)(rng_next(r) & 0xFFFF)
                           : base - stepv * i / 4 + (style == 2 ? (int)rng_range(r, 0, 64) - 32 : 0);
        prog_write(p, NVDLA_CDP_S_LUT_ACCESS_DATA_0, ((uint32_t)v & 0xFFFF) | (dp_junk(r) & 0xFFFF0000u));
    }
    dp_wlist_t l = {.n = 0};
    bool linear = rng_chance(r, 50);
    dp_put(&l, CDP + 0x10, linear | (rng_below(r, 8) << 4) | (dp_junk(r) & 0xFFFFFF80u));
    /* index settings: the LUT input is a square sum (up to ~2^19) or, with sqsum bypass, a signed int9 */
    int64_t span = bypass_hint ? 512 : 1 << 19;
    uint32_t le_off = rng_chance(r, 80) ? (uint32_t)((int)rng_range(r, 0, 20) - 8) & 0xFF : rng_below(r, 256);
    uint32_t le_sel = rng_chance(r, 80) ? rng_range(r, 0, bypass_hint ? 4 : 14) : rng_below(r, 64);
    uint32_t lo_sel = rng_chance(r, 80) ? rng_range(r, 0, bypass_hint ? 2 : 12) : rng_below(r, 64);
    if (rng_chance(r, 5)) le_sel = 32; /* -32: LE shifts left by 32 ... */
    if (rng_chance(r, 5)) lo_sel = 32; /* ... LO by 0 (amount mod 32, spec 4.4) */
    dp_put(&l, CDP + 0x14,
           le_off | ((le_sel | (rng_below(r, 4) << 6)) << 8) | ((lo_sel | (rng_below(r, 4) << 6)) << 16) |
               (dp_junk(r) & 0xFF000000u));
    int64_t le_start = pick38(r, bypass_hint ? -256 : 0, bypass_hint ? 256 : 4096);
    int64_t lo_start = pick38(r, bypass_hint ? -256 : 0, bypass_hint ? 256 : 4096);
    put38(&l, r, 0x18, le_start), put38(&l, r, 0x20, pick38(r, le_start + span / 2, span));
    if (neg_lo) { /* both LO ends negative, start < end < 0 */
        lo_start = -(int64_t)rng_range(r, 2, bypass_hint ? 256 : 4096);
        int64_t lo_end = lo_start + (int64_t)rng_range(r, 1, (uint32_t)(-lo_start - 1));
        put38(&l, r, 0x28, lo_start), put38(&l, r, 0x30, lo_end);
    } else { /* the random stream of cdp_random unchanged */
        put38(&l, r, 0x28, lo_start), put38(&l, r, 0x30, pick38(r, lo_start + span / 2, span));
    }
    dp_put(&l, CDP + 0x38, dp_junk(r)), dp_put(&l, CDP + 0x40, dp_junk(r));    /* slope scales */
    dp_put(&l, CDP + 0x3c, (rng_below(r, 1024)) | (dp_junk(r) & 0xFFFFFC00u)); /* slope shifts */
    dp_put(&l, CDP + 0x44, (rng_below(r, 1024)) | (dp_junk(r) & 0xFFFFFC00u));
    dp_emit_shuffled(p, r, &l);
    return style == 0 ? 14 : log2u((uint32_t)(abs(base) + abs(stepv) * 32) + 1);
}

typedef struct limits {
    uint32_t w, h, c;
} limits_t;
static const limits_t small = {.w = 10, .h = 6, .c = 40}, wide = {.w = 40, .h = 4, .c = 72};

/* One CDP job into the group selected by the caller's pointers, enabled at the end. */
static void cdp_job(program_t *p, rng_t *r, int k, const limits_t *lim, bool sq_byp, unsigned ylog)
{
    uint32_t w = rng_range(r, 1, lim->w), h = rng_range(r, 1, lim->h),
             c = rng_chance(r, 15) ? rng_range(r, 1, 8) : rng_range(r, 1, lim->c), s = (c + 7) / 8;
    uint32_t region = 0x80000000u + (uint32_t)k * 0x01000000u, src = region, dst = region + 0x00800000u;
    uint32_t sls, sss, dls, dss;
    dp_strides(r, w, h, &sls, &sss);
    dp_strides(r, w, h, &dls, &dss);
    dp_fill_random(p, r, src, dp_footprint(w, h, s, sls, sss));
    dp_fill_random(p, r, dst, dp_footprint(w, h, s, dls, dss)); /* gap bytes must survive */
    dp_wlist_t l = {.n = 0};
    dp_put(&l, RDMA + 0x0c, w - 1), dp_put(&l, RDMA + 0x10, h - 1), dp_put(&l, RDMA + 0x14, c - 1);
    dp_put(&l, RDMA + 0x18, src), dp_put(&l, RDMA + 0x1c, dp_junk(r));
    dp_put(&l, RDMA + 0x20, sls), dp_put(&l, RDMA + 0x24, sss);
    dp_put(&l, RDMA + 0x28, 1), dp_put(&l, RDMA + 0x2c, dp_junk(r)), dp_put(&l, RDMA + 0x30, dp_junk(r));
    dp_put(&l, RDMA + 0x34, 0), dp_put(&l, NVDLA_CDP_RDMA_D_PERF_ENABLE_0, dp_junk(r));
    dp_put(&l, NVDLA_CDP_RDMA_D_CYA_0, dp_junk(r));
    bool mul_byp = rng_chance(r, 40);
    dp_put(&l, CDP + 0x4c, sq_byp | (mul_byp << 1) | (dp_junk(r) & ~3u));
    dp_put(&l, CDP + 0x50, dst), dp_put(&l, CDP + 0x54, dp_junk(r));
    dp_put(&l, CDP + 0x58, dls), dp_put(&l, CDP + 0x5c, dss);
    dp_put(&l, CDP + 0x60, 1), dp_put(&l, CDP + 0x64, dp_junk(r)), dp_put(&l, CDP + 0x68, 0);
    dp_put(&l, CDP + 0x6c, dp_junk(r));
    dp_put(&l, CDP + 0x70, rng_below(r, 4) | (dp_junk(r) & ~3u));
    /* input converter: mostly gentle, sometimes anything */
    bool wild = rng_chance(r, 30);
    dp_put(&l, CDP + 0x74,
           (wild ? dp_junk(r) & 0xFF : (uint32_t)((int)rng_range(r, 0, 16) - 8) & 0xFF) | (dp_junk(r) & ~0xFFu));
    dp_put(&l, CDP + 0x78, (wild ? dp_junk(r) & 0xFFFF : rng_range(r, 1, 3)) | (dp_junk(r) & ~0xFFFFu));
    dp_put(&l, CDP + 0x7c, (wild ? rng_below(r, 32) : rng_range(r, 0, 1)) | (dp_junk(r) & ~0x1Fu));
    /* output converter: mostly a shift that maps typical |y * v * scale| near 2^6, so that results spread
     * over the int8 range instead of saturating; sometimes anything */
    bool tame = rng_chance(r, 75);
    uint32_t osc = tame ? rng_range(r, 1, 8) : dp_junk(r) & 0xFFFF;
    int typ = (int)ylog + (mul_byp ? 0 : (wild ? 8 : 6)) + (int)log2u(osc) - 6 + (int)rng_range(r, 0, 4) - 2;
    uint32_t osh = tame ? (uint32_t)(typ < 0 ? 0 : typ > 63 ? 63 : typ) : rng_below(r, 64);
    uint32_t ooff = tame ? (uint32_t)(((int)rng_range(r, 0, 64) - 32) << (osh > 2 ? osh - 2 : 0)) : dp_junk(r);
    dp_put(&l, CDP + 0x80, (ooff & 0x1FFFFFF) | (dp_junk(r) & 0xFE000000u)); /* [31:25] ignored */
    dp_put(&l, CDP + 0x84, osc | (dp_junk(r) & ~0xFFFFu));
    dp_put(&l, CDP + 0x88, osh | (dp_junk(r) & ~0x3Fu));
    dp_put(&l, NVDLA_CDP_D_PERF_ENABLE_0, dp_junk(r)), dp_put(&l, NVDLA_CDP_D_CYA_0, dp_junk(r));
    dp_put(&l, NVDLA_CDP_D_OUT_SATURATION_0, dp_junk(r)); /* RO: ignored */
    dp_emit_shuffled(p, r, &l);
    if (rng_chance(r, 50)) {
        prog_write(p, NVDLA_CDP_D_OP_ENABLE_0, 1);
        prog_write(p, NVDLA_CDP_RDMA_D_OP_ENABLE_0, 1);
    } else {
        prog_write(p, NVDLA_CDP_RDMA_D_OP_ENABLE_0, 1);
        prog_write(p, NVDLA_CDP_D_OP_ENABLE_0, 1);
    }
}

static void pointers(program_t *p, int g)
{
    prog_write(p, NVDLA_CDP_S_POINTER_0, (uint32_t)g);
    prog_write(p, NVDLA_CDP_RDMA_S_POINTER_0, (uint32_t)g);
}

/* 1-3 rounds; each reprograms the LUT (CDP idle), then runs one job or two back to back (the idle group
 * programmed and enabled while the other runs; both share the LUT and the S_LUT_* settings). */
static int cdp_run(program_t *p, uint64_t seed, const char *name, unsigned b2b_pct, bool neg_lo)
{
    rng_t r;
    rng_seed_stream(&r, seed, name);
    int rounds = (int)rng_range(&r, 1, 3), g = 0;
    for (int k = 0; k < rounds; k++) {
        const limits_t *lim = rng_chance(&r, 20) ? &wide : &small;
        bool two = rng_chance(&r, b2b_pct), sq_byp = rng_chance(&r, neg_lo ? 50 : 25);
        prog_job(p, "%s.s%llu.j%d%s%s", name, (unsigned long long)seed, k, sq_byp ? ".sqbyp" : "", two ? ".b2b" : "");
        unsigned ylog = lut_program(p, &r, sq_byp, neg_lo);
        pointers(p, g);
        cdp_job(p, &r, 2 * k, lim, sq_byp, ylog);
        uint32_t bits = 0x4u << g;
        if (two) {
            pointers(p, g ^ 1);
            cdp_job(p, &r, 2 * k + 1, lim, sq_byp, ylog);
            bits |= 0x4u << (g ^ 1);
            g ^= 1;
        }
        prog_wait_irq(p, bits, JOB_TIMEOUT);
        prog_check_golden(p);
        dp_read_results(p, DP_CDP);
        g ^= 1;
    }
    return 0;
}

int cdp_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return cdp_run(p, seed, "cdp_random", 25, false);
}

int cdp_b2b(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return cdp_run(p, seed, "cdp_b2b", 100, false);
}

/* Like cdp_random with both ends of the LO table negative (start < end < 0): inputs at and above 0 overflow
 * the LO table, negative square-sum-bypass inputs index it. */
int cdp_lut_neg(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return cdp_run(p, seed, "cdp_lut_neg", 25, true);
}

/* Negative test: CDP enabled without CDP_RDMA never starts; the watchdog must fire. */
int cdp_hang(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen, (void)seed;
    prog_job(p, "cdp_hang");
    pointers(p, 0);
    prog_write(p, NVDLA_CDP_D_OP_ENABLE_0, 1);
    prog_read(p, NVDLA_CDP_S_STATUS_0, 1, 3); /* group 0 RUNNING (waiting for its RDMA) */
    prog_wait_irq(p, 0x4, 20000);
    return 0;
}
