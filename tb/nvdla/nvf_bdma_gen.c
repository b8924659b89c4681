/* BDMA jobs on nv_full (nvf_gen.h): one or two launch groups of 1-4 commands, each copying between DBB and CVSRAM
 * in the direction drawn per command (CFG_CMD's RAM types). BDMA only moves bytes, so each command also carries its
 * expected copy (check_mem of every destination line against its source line): an answer that does not come from
 * the golden model, which therefore also checks golden-only runs. */
#ifndef NV_FULL_ABSENT
#include "nv_full_regs.h"
#include "nvf_gen.h"
#include <stdio.h>
#include <stdlib.h>

#define JOB_TIMEOUT 400000u
#define INTR_BDMA(g) (0x40u << (g)) /* GLB BDMA_DONE_STATUS0/1 */

typedef struct nvf_bdma_cmd {
    nvf_place_t src, dst;
    uint32_t line_size, lines, surfs, src_line, dst_line, src_surf, dst_surf;
    uint8_t *data; /* the source bytes, src_span of them */
    uint32_t src_span;
} nvf_bdma_cmd_t;

/* Bump allocators within a job's slots: [memory][side], so that no command's bytes overlap another's. */
typedef struct arena {
    uint32_t next[2][2];
} arena_t;

static uint32_t span(uint32_t lbytes, uint32_t lines, uint32_t surfs, uint32_t lstride, uint32_t sstride)
{
    return (surfs - 1) * sstride + (lines - 1) * lstride + lbytes;
}

static nvf_place_t take(arena_t *a, rng_t *r, int k, unsigned side, uint32_t size)
{
    nvf_place_t at = nvf_place(r, k, side, 50);
    uint32_t *next = &a->next[at.cv][side];
    if (!*next) *next = at.addr;
    at.addr = *next + 32 * rng_range(r, 0, 4);
    *next = (at.addr + size + 31) & ~31u;
    return at;
}

static void random_cmd(rng_t *r, arena_t *a, int k, nvf_bdma_cmd_t *c)
{
    c->line_size = rng_chance(r, 70) ? rng_range(r, 0, 7) : rng_range(r, 0, 63); /* (n + 1) * 32 bytes */
    c->lines = rng_chance(r, 30) ? 1 : rng_range(r, 1, 12);
    c->surfs = rng_chance(r, 50) ? 1 : rng_range(r, 1, 4);
    const uint32_t lb = (c->line_size + 1) * 32;
    c->src_line = lb + 32 * (rng_chance(r, 40) ? 0 : rng_range(r, 1, 4));
    c->dst_line = lb + 32 * (rng_chance(r, 40) ? 0 : rng_range(r, 1, 4));
    c->src_surf = c->lines * c->src_line + 32 * (rng_chance(r, 40) ? 0 : rng_range(r, 1, 4));
    c->dst_surf = c->lines * c->dst_line + 32 * (rng_chance(r, 40) ? 0 : rng_range(r, 1, 4));
    c->src_span = span(lb, c->lines, c->surfs, c->src_line, c->src_surf);
    c->src = take(a, r, k, 0, c->src_span);
    c->dst = take(a, r, k, 1, span(lb, c->lines, c->surfs, c->dst_line, c->dst_surf));
}

static void emit_data(program_t *p, rng_t *r, nvf_bdma_cmd_t *c)
{
    const uint32_t lb = (c->line_size + 1) * 32;
    c->data = malloc(c->src_span);
    if (!c->data) abort();
    for (uint32_t i = 0; i < c->src_span; i++) c->data[i] = (uint8_t)rng_next(r);
    prog_mem(p, nvf_addr(c->src), c->data, c->src_span);
    nvf_fill(p, r, c->dst, span(lb, c->lines, c->surfs, c->dst_line, c->dst_surf)); /* gap bytes must survive */
}

static void emit_cmd(program_t *p, rng_t *r, const nvf_bdma_cmd_t *c)
{
    dp_wlist_t l = {.n = 0};
    dp_put(&l, NVDLA_BDMA_CFG_SRC_ADDR_LOW_0, c->src.addr), dp_put(&l, NVDLA_BDMA_CFG_SRC_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_BDMA_CFG_DST_ADDR_LOW_0, c->dst.addr), dp_put(&l, NVDLA_BDMA_CFG_DST_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_BDMA_CFG_LINE_0, c->line_size);
    dp_put(&l, NVDLA_BDMA_CFG_CMD_0, nvf_ram(c->src) | nvf_ram(c->dst) << 1);
    dp_put(&l, NVDLA_BDMA_CFG_LINE_REPEAT_0, c->lines - 1), dp_put(&l, NVDLA_BDMA_CFG_SURF_REPEAT_0, c->surfs - 1);
    dp_put(&l, NVDLA_BDMA_CFG_SRC_LINE_0, c->src_line), dp_put(&l, NVDLA_BDMA_CFG_DST_LINE_0, c->dst_line);
    dp_put(&l, NVDLA_BDMA_CFG_SRC_SURF_0, c->src_surf), dp_put(&l, NVDLA_BDMA_CFG_DST_SURF_0, c->dst_surf);
    dp_emit_shuffled(p, r, &l);
    prog_write(p, NVDLA_BDMA_CFG_OP_0, 1);
}

/* Every destination line must equal its source line: the copy as the generator knows it. */
static void check_copy(program_t *p, const nvf_bdma_cmd_t *c, int g, int i, uint32_t flip)
{
    const uint32_t lb = (c->line_size + 1) * 32;
    for (uint32_t s = 0; s < c->surfs; s++)
        for (uint32_t y = 0; y < c->lines; y++) {
            uint8_t *want = c->data + s * c->src_surf + y * c->src_line;
            if (flip && s == 0 && y == c->lines - 1) want[flip % lb] ^= 0x10; /* NEGATIVE: a corrupted expectation */
            char where[96];
            snprintf(where, sizeof where, "BDMA grp %d cmd %d (%s to %s) surf %u line %u", g, i,
                     c->src.cv ? "CVSRAM" : "DBB", c->dst.cv ? "CVSRAM" : "DBB", s, y);
            prog_check_mem(p, nvf_addr(c->dst) + s * c->dst_surf + y * c->dst_line, want, lb, where);
        }
}

/* One job: one or two groups of 1-4 commands; the second group is pushed and launched while the first runs. */
static void bdma_job(program_t *p, rng_t *r, uint64_t seed, int k, int *next_group, bool corrupt)
{
    arena_t a = {{{0}}};
    nvf_bdma_cmd_t cmds[2][4];
    const int ngroups = rng_chance(r, 35) ? 2 : 1;
    int ncmd[2] = {0, 0}, groups[2];
    char tag[16] = "";
    for (int g = 0; g < ngroups; g++) {
        ncmd[g] = (int)rng_range(r, 1, 4);
        for (int i = 0; i < ncmd[g]; i++) random_cmd(r, &a, k, &cmds[g][i]);
    }
    snprintf(tag, sizeof tag, "%s%s", cmds[0][0].src.cv ? "cv" : "dbb", cmds[0][0].dst.cv ? "2cv" : "2dbb");
    prog_job(p, "bdma_random.s%llu.j%d.%s.g%d", (unsigned long long)seed, k, tag, ngroups);
    for (int g = 0; g < ngroups; g++)
        for (int i = 0; i < ncmd[g]; i++) emit_data(p, r, &cmds[g][i]);
    for (int g = 0; g < ngroups; g++) {
        groups[g] = *next_group;
        *next_group ^= 1;
        for (int i = 0; i < ncmd[g]; i++) emit_cmd(p, r, &cmds[g][i]);
        prog_write(p, groups[g] ? NVDLA_BDMA_CFG_LAUNCH1_0 : NVDLA_BDMA_CFG_LAUNCH0_0, 1);
    }
    nvf_wait_done(p, INTR_BDMA(groups[0]) | (ngroups > 1 ? INTR_BDMA(groups[1]) : 0), JOB_TIMEOUT);
    prog_check_golden(p);
    for (int g = 0; g < ngroups; g++)
        for (int i = 0; i < ncmd[g]; i++) {
            check_copy(p, &cmds[g][i], groups[g], i, corrupt && g == 0 && i == 0 ? 1 + (uint32_t)seed % 997 : 0);
            free(cmds[g][i].data);
        }
}

static int bdma_run(program_t *p, uint64_t seed, const char *stream, bool corrupt)
{
    rng_t r;
    rng_seed_stream(&r, seed, stream);
    int jobs = corrupt ? 1 : (int)rng_range(&r, 1, 3), group = 0;
    for (int k = 0; k < jobs; k++) bdma_job(p, &r, seed, k, &group, corrupt);
    return 0;
}

int nvf_bdma_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return bdma_run(p, seed, "nvf_bdma_random", false);
}

int nvf_bdma_corrupt(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return bdma_run(p, seed, "nvf_bdma_random", true);
}
#endif
