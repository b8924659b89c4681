#include "bdma_gen.h"
#include "nvdla_regs.h"
#include "rng.h"
#include <stdlib.h>
#include <string.h>

#define BDMA_FREE_SLOTS 20u
#define BDMA_STATUS_IDLE (1u << 8)
#define BDMA_STATUS_MASK 0x7FFu /* FREE_SLOT, IDLE, GRP0_BUSY, GRP1_BUSY */
#define INTR_BDMA(g) (0x40u << (g))
#define JOB_TIMEOUT 400000u

/* One command as the generator chose it (register values as written, low address bits included). */
typedef struct gen_cmd {
    uint32_t src, dst, line_size, line_repeat, surf_repeat, src_line, dst_line, src_surf, dst_surf, cmd;
} gen_cmd_t;

static uint32_t line_bytes(const gen_cmd_t *c) { return (c->line_size + 1) * 32; }

/* Bytes from the first to the last byte a side of the command touches (strides are multiples of 32). */
static uint32_t span(uint32_t lbytes, uint32_t lines, uint32_t surfs, uint32_t lstride, uint32_t sstride)
{
    return (surfs - 1) * sstride + (lines - 1) * lstride + lbytes;
}

/* A bump allocator over a region, 32-byte aligned, with random gaps: keeps every command's source and
 * destination disjoint from every other (spec §5 rule 5). */
typedef struct arena {
    uint32_t next, end;
} arena_t;

static uint32_t arena_take(arena_t *a, rng_t *r, uint32_t size)
{
    uint32_t gap = 32 * rng_range(r, 0, 8);
    uint32_t at = (a->next + gap + 31) & ~31u;
    a->next = at + size;
    return at;
}

static void random_bytes(rng_t *r, uint8_t *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)rng_next(r);
}

/* Random bytes over the whole footprint of one side of a command, gaps included, so gap bytes that the
 * DUT must not touch have known values. */
static void fill_random(program_t *p, rng_t *r, uint32_t addr, uint32_t size)
{
    uint8_t *buf = malloc(size);
    if (!buf) abort();
    random_bytes(r, buf, size);
    prog_mem(p, addr, buf, size);
    free(buf);
}

typedef struct shape_limits {
    uint32_t max_line_size, max_lines, max_surfs, max_gap32;
} shape_limits_t;

static gen_cmd_t random_cmd(rng_t *r, arena_t *src, arena_t *dst, const shape_limits_t *lim)
{
    gen_cmd_t c = {0};
    /* Favour small lines but reach the long ones; lines and surfaces 1..limit. */
    c.line_size = rng_chance(r, 70) ? rng_range(r, 0, 7) : rng_range(r, 0, lim->max_line_size);
    c.line_repeat = rng_chance(r, 30) ? 0 : rng_range(r, 0, lim->max_lines - 1);
    c.surf_repeat = rng_chance(r, 50) ? 0 : rng_range(r, 0, lim->max_surfs - 1);
    uint32_t lb = line_bytes(&c);
    uint32_t lines = c.line_repeat + 1, surfs = c.surf_repeat + 1;
    /* Packed or gapped strides, independently for source and destination. */
    c.src_line = lb + 32 * (rng_chance(r, 40) ? 0 : rng_range(r, 1, lim->max_gap32));
    c.dst_line = lb + 32 * (rng_chance(r, 40) ? 0 : rng_range(r, 1, lim->max_gap32));
    c.src_surf = lines * c.src_line + 32 * (rng_chance(r, 40) ? 0 : rng_range(r, 1, lim->max_gap32));
    c.dst_surf = lines * c.dst_line + 32 * (rng_chance(r, 40) ? 0 : rng_range(r, 1, lim->max_gap32));
    c.src = arena_take(src, r, span(lb, lines, surfs, c.src_line, c.src_surf));
    c.dst = arena_take(dst, r, span(lb, lines, surfs, c.dst_line, c.dst_surf));
    /* Address/stride bits [4:0] are not stored: write junk there sometimes to prove it. */
    if (rng_chance(r, 25)) c.src |= rng_below(r, 32);
    if (rng_chance(r, 25)) c.dst_line |= rng_below(r, 32);
    c.cmd = rng_below(r, 4); /* RAM types: stored, both mean DBB */
    return c;
}

static void emit_data(program_t *p, rng_t *r, const gen_cmd_t *c)
{
    uint32_t lb = line_bytes(c), lines = c->line_repeat + 1, surfs = c->surf_repeat + 1;
    fill_random(p, r, c->src & ~31u, span(lb, lines, surfs, c->src_line & ~31u, c->src_surf & ~31u));
    fill_random(p, r, c->dst & ~31u, span(lb, lines, surfs, c->dst_line & ~31u, c->dst_surf & ~31u));
}

/* The CFG writes of one command, in a seeded order (the order must not matter), then CFG_OP. */
static void emit_cmd(program_t *p, rng_t *r, const gen_cmd_t *c)
{
    struct {
        uint32_t addr, val;
    } w[] = {
        {NVDLA_BDMA_CFG_SRC_ADDR_LOW_0, c->src},        {NVDLA_BDMA_CFG_SRC_ADDR_HIGH_0, 0},
        {NVDLA_BDMA_CFG_DST_ADDR_LOW_0, c->dst},        {NVDLA_BDMA_CFG_DST_ADDR_HIGH_0, 0},
        {NVDLA_BDMA_CFG_LINE_0, c->line_size},          {NVDLA_BDMA_CFG_CMD_0, c->cmd},
        {NVDLA_BDMA_CFG_LINE_REPEAT_0, c->line_repeat}, {NVDLA_BDMA_CFG_SRC_LINE_0, c->src_line},
        {NVDLA_BDMA_CFG_DST_LINE_0, c->dst_line},       {NVDLA_BDMA_CFG_SURF_REPEAT_0, c->surf_repeat},
        {NVDLA_BDMA_CFG_SRC_SURF_0, c->src_surf},       {NVDLA_BDMA_CFG_DST_SURF_0, c->dst_surf},
    };
    size_t n = sizeof w / sizeof *w;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = rng_below(r, (uint32_t)i + 1);
        __typeof__(w[0]) t = w[i];
        w[i] = w[j];
        w[j] = t;
    }
    for (size_t i = 0; i < n; i++) prog_write(p, w[i].addr, w[i].val);
    prog_write(p, NVDLA_BDMA_CFG_OP_0, 1);
}

/* Wait for a group's completion: through the interrupt line when unmasked, by polling GLB status when
 * masked (a masked source still sets its status bit), then W1C. */
static void wait_group(program_t *p, int group, bool masked)
{
    if (!masked) {
        prog_wait_irq(p, INTR_BDMA(group), JOB_TIMEOUT);
        return;
    }
    prog_poll(p, NVDLA_GLB_S_INTR_STATUS_0, INTR_BDMA(group), INTR_BDMA(group), JOB_TIMEOUT);
    prog_write(p, NVDLA_GLB_S_INTR_STATUS_0, INTR_BDMA(group));
}

/* Idle, and the stall counters still 0: these tests leave CFG_STATUS.STALL_COUNT_EN at its reset 0, and a
 * counter counts only while enabled (spec nvdla.md BDMA: timing-dependent values, so only 0 is predictable). */
static void check_idle(program_t *p)
{
    static const uint32_t stall[] = {NVDLA_BDMA_STATUS_GRP0_READ_STALL_0, NVDLA_BDMA_STATUS_GRP0_WRITE_STALL_0,
                                     NVDLA_BDMA_STATUS_GRP1_READ_STALL_0, NVDLA_BDMA_STATUS_GRP1_WRITE_STALL_0};
    prog_read(p, NVDLA_BDMA_STATUS_0, BDMA_STATUS_IDLE | BDMA_FREE_SLOTS, BDMA_STATUS_MASK);
    for (size_t i = 0; i < sizeof stall / sizeof *stall; i++) prog_read(p, stall[i], 0, 0xFFFFFFFFu);
}

int bdma_sanity(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "bdma_sanity");
    gen_cmd_t c = {.src = 0x80000000u,
                   .dst = 0x81000000u,
                   .line_size = 7,
                   .line_repeat = 7,
                   .surf_repeat = 0,
                   .src_line = 0x100,
                   .dst_line = 0x100,
                   .src_surf = 0x800,
                   .dst_surf = 0x800,
                   .cmd = 3};
    prog_job(p, "bdma_sanity");
    emit_data(p, &r, &c);
    check_idle(p);
    emit_cmd(p, &r, &c);
    prog_read(p, NVDLA_BDMA_STATUS_0, BDMA_FREE_SLOTS - 1, BDMA_STATUS_MASK);
    prog_read(p, NVDLA_BDMA_CFG_OP_0, 1, 0xFFFFFFFFu); /* RWT: the value reads back */
    prog_write(p, NVDLA_BDMA_CFG_OP_0, 0);             /* bit0 = 0 pushes nothing */
    prog_read(p, NVDLA_BDMA_STATUS_0, BDMA_FREE_SLOTS - 1, BDMA_STATUS_MASK);
    prog_write(p, NVDLA_BDMA_CFG_LAUNCH0_0, 1);
    prog_read(p, NVDLA_BDMA_CFG_LAUNCH0_0, 1, 0xFFFFFFFFu);
    wait_group(p, 0, false);
    check_idle(p);
    prog_check_golden(p);
    return 0;
}

static const shape_limits_t random_limits = {.max_line_size = 63, .max_lines = 12, .max_surfs = 4, .max_gap32 = 4};

/* One job = one or two groups of 1-4 commands; sometimes group 1 launches while group 0 still runs. */
static void random_job(program_t *p, rng_t *r, uint64_t seed, int k, int *next_group, uint32_t *mask_reg)
{
    arena_t src = {.next = 0x80000000u + (uint32_t)k * 0x00400000u, .end = 0},
            dst = {.next = 0x90000000u + (uint32_t)k * 0x00400000u, .end = 0};
    int ngroups = rng_chance(r, 35) ? 2 : 1;
    gen_cmd_t cmds[2][4];
    int ncmd[2];
    prog_job(p, "bdma_random.s%llu.j%d", (unsigned long long)seed, k);
    /* Interrupt masking: each job picks its own mask for the BDMA bits. */
    uint32_t mask = rng_chance(r, 25) ? (rng_chance(r, 50) ? 0xC0u : 0x40u << rng_below(r, 2)) : 0;
    if (mask != *mask_reg) {
        prog_write(p, NVDLA_GLB_S_INTR_MASK_0, mask);
        *mask_reg = mask;
    }
    for (int g = 0; g < ngroups; g++) {
        ncmd[g] = (int)rng_range(r, 1, 4);
        for (int i = 0; i < ncmd[g]; i++) {
            cmds[g][i] = random_cmd(r, &src, &dst, &random_limits);
            emit_data(p, r, &cmds[g][i]);
        }
    }
    check_idle(p);
    int groups[2];
    for (int g = 0; g < ngroups; g++) {
        groups[g] = *next_group;
        *next_group ^= 1;
        for (int i = 0; i < ncmd[g]; i++) emit_cmd(p, r, &cmds[g][i]);
        if (g == 0) prog_read(p, NVDLA_BDMA_STATUS_0, BDMA_FREE_SLOTS - (uint32_t)ncmd[0], 0xFFu);
        prog_write(p, groups[g] ? NVDLA_BDMA_CFG_LAUNCH1_0 : NVDLA_BDMA_CFG_LAUNCH0_0, 1);
    }
    for (int g = 0; g < ngroups; g++) wait_group(p, groups[g], (mask & INTR_BDMA(groups[g])) != 0);
    check_idle(p);
    prog_check_golden(p);
}

int bdma_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "bdma_random");
    int jobs = (int)rng_range(&r, 1, 3), group = 0;
    uint32_t mask_reg = 0;
    for (int k = 0; k < jobs; k++) random_job(p, &r, seed, k, &group, &mask_reg);
    return 0;
}

/* Group 0 is long; group 1 is programmed and launched while group 0 is busy (at most one group busy when
 * pushing: spec §5 rule 2), then both complete in launch order. Repeated with alternating groups. */
int bdma_b2b(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "bdma_b2b");
    static const shape_limits_t big = {.max_line_size = 31, .max_lines = 16, .max_surfs = 2, .max_gap32 = 2};
    int rounds = (int)rng_range(&r, 2, 4);
    for (int k = 0; k < rounds; k++) {
        arena_t src = {.next = 0x80000000u + (uint32_t)k * 0x00400000u, .end = 0},
                dst = {.next = 0x90000000u + (uint32_t)k * 0x00400000u, .end = 0};
        int first = k & 1;
        gen_cmd_t a = random_cmd(&r, &src, &dst, &big), b = random_cmd(&r, &src, &dst, &big);
        prog_job(p, "bdma_b2b.s%llu.r%d", (unsigned long long)seed, k);
        emit_data(p, &r, &a);
        emit_data(p, &r, &b);
        emit_cmd(p, &r, &a);
        prog_write(p, first ? NVDLA_BDMA_CFG_LAUNCH1_0 : NVDLA_BDMA_CFG_LAUNCH0_0, 1);
        /* group `first` is busy now (GRPx_BUSY is set by the launch write itself) */
        prog_read(p, NVDLA_BDMA_STATUS_0, first ? (1u << 10) : (1u << 9), first ? (1u << 10) : (1u << 9));
        emit_cmd(p, &r, &b);
        prog_write(p, first ? NVDLA_BDMA_CFG_LAUNCH0_0 : NVDLA_BDMA_CFG_LAUNCH1_0, 1);
        wait_group(p, first, false);
        wait_group(p, !first, false);
        check_idle(p);
        prog_check_golden(p);
    }
    return 0;
}

int bdma_queue_full(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "bdma_queue_full");
    static const shape_limits_t small = {.max_line_size = 3, .max_lines = 3, .max_surfs = 2, .max_gap32 = 2};
    arena_t src = {.next = 0x80000000u, .end = 0}, dst = {.next = 0x90000000u, .end = 0};
    prog_job(p, "bdma_queue_full.s%llu", (unsigned long long)seed);
    gen_cmd_t c[BDMA_FREE_SLOTS];
    for (unsigned i = 0; i < BDMA_FREE_SLOTS; i++) {
        c[i] = random_cmd(&r, &src, &dst, &small);
        emit_data(p, &r, &c[i]);
    }
    for (unsigned i = 0; i < BDMA_FREE_SLOTS; i++) {
        emit_cmd(p, &r, &c[i]);
        prog_read(p, NVDLA_BDMA_STATUS_0, BDMA_FREE_SLOTS - 1 - i, BDMA_STATUS_MASK);
    }
    const int g = (int)(seed & 1); /* both launch groups take a full queue over the seeds */
    prog_write(p, g ? NVDLA_BDMA_CFG_LAUNCH1_0 : NVDLA_BDMA_CFG_LAUNCH0_0, 1);
    wait_group(p, g, false);
    check_idle(p);
    prog_check_golden(p);
    return 0;
}

/* Negative test: the DUT must hang (spec §5 rule 3), and the watchdog must say so. */
int bdma_empty_launch(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)seed, (void)err, (void)errlen;
    prog_job(p, "bdma_empty_launch");
    prog_write(p, NVDLA_BDMA_CFG_LAUNCH0_0, 1);
    prog_read(p, NVDLA_BDMA_STATUS_0, 1u << 9, 1u << 9); /* GRP0_BUSY stays set */
    prog_wait_irq(p, INTR_BDMA(0), 20000);
    return 0;
}
