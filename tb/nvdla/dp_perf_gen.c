#include "dp_perf_gen.h"
#include "dp_gen_util.h"
#include "nvdla_regs.h"
#include <stdio.h>

/* Fixed shapes for throughput figures (flow/bench/nvdla_dp.py): the seed picks the row (seed 1 = first,
 * wrapping). Packed cubes, one job, group 0, golden-checked like every other job. The job name carries
 * the input element count (W*H*8*S: every lane of every atom is processed). */
typedef struct shape {
    uint32_t w, h, c;
} shape_t;
static const shape_t shapes[] = {
    {8, 8, 64}, {16, 16, 32}, {32, 8, 64}, {32, 4, 16}, {13, 7, 24}}; /* PDP: W <= MaxW 32 */
#define NSHAPES (sizeof shapes / sizeof *shapes)
#define JOB_TIMEOUT 400000u

static shape_t pick(uint64_t seed) { return shapes[(seed == 0 ? 0 : seed - 1) % NSHAPES]; }

static uint32_t atoms(const shape_t *s) { return s->w * s->h * ((s->c + 7) / 8); }

static void cube(program_t *p, rng_t *r, uint32_t addr, uint32_t w, uint32_t h, uint32_t c)
{
    dp_fill_random(p, r, addr, dp_footprint(w, h, (c + 7) / 8, w * 8, w * h * 8));
}

/* SDP memory to memory, BS/BN bypassed, identity converter. */
int sdp_perf(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    shape_t s = pick(seed);
    rng_t r;
    rng_seed_stream(&r, seed, "sdp_perf");
    uint32_t src = 0x80000000u, dst = 0x81000000u;
    prog_job(p, "sdp_perf.%ux%ux%u.elems%u", s.w, s.h, s.c, 8 * atoms(&s));
    cube(p, &r, src, s.w, s.h, s.c);
    enum { R = 0x8000, S = 0x9000 };
    prog_write(p, R + 0x0c, s.w - 1), prog_write(p, R + 0x10, s.h - 1), prog_write(p, R + 0x14, s.c - 1);
    prog_write(p, S + 0x3c, s.w - 1), prog_write(p, S + 0x40, s.h - 1), prog_write(p, S + 0x44, s.c - 1);
    prog_write(p, R + 0x18, src), prog_write(p, R + 0x20, 8 * s.w), prog_write(p, R + 0x24, 8 * s.w * s.h);
    prog_write(p, R + 0x28, 1), prog_write(p, R + 0x40, 1), prog_write(p, R + 0x70, 0), prog_write(p, R + 0x74, 1);
    prog_write(p, S + 0x48, dst), prog_write(p, S + 0x50, 8 * s.w), prog_write(p, S + 0x54, 8 * s.w * s.h);
    prog_write(p, S + 0x58, 0x73), prog_write(p, S + 0x6c, 0x53), prog_write(p, S + 0xb0, 0);
    prog_write(p, S + 0xb4, 1), prog_write(p, S + 0xbc, 0);
    prog_write(p, S + 0xc0, 0), prog_write(p, S + 0xc4, 1), prog_write(p, S + 0xc8, 0);
    prog_write(p, NVDLA_SDP_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_SDP_RDMA_D_OP_ENABLE_0, 1);
    prog_wait_irq(p, 0x1, JOB_TIMEOUT);
    prog_check_golden(p);
    return 0;
}

/* PDP average 3x3, stride 1, pads 1 on every side (Wo = Wi, Ho = Hi): the costliest common shape. */
int pdp_perf(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    shape_t s = pick(seed);
    rng_t r;
    rng_seed_stream(&r, seed, "pdp_perf");
    uint32_t src = 0x80000000u, dst = 0x81000000u;
    prog_job(p, "pdp_perf.%ux%ux%u.elems%u", s.w, s.h, s.c, 8 * atoms(&s));
    cube(p, &r, src, s.w, s.h, s.c);
    enum { R = 0xA000, P = 0xB000 };
    prog_write(p, R + 0x0c, s.w - 1), prog_write(p, R + 0x10, s.h - 1), prog_write(p, R + 0x14, s.c - 1);
    prog_write(p, R + 0x18, 1), prog_write(p, R + 0x1c, src), prog_write(p, R + 0x24, 8 * s.w);
    prog_write(p, R + 0x28, 8 * s.w * s.h), prog_write(p, R + 0x2c, 1), prog_write(p, R + 0x38, 0x02);
    prog_write(p, P + 0x0c, s.w - 1), prog_write(p, P + 0x10, s.h - 1), prog_write(p, P + 0x14, s.c - 1);
    prog_write(p, P + 0x18, s.w - 1), prog_write(p, P + 0x1c, s.h - 1), prog_write(p, P + 0x20, s.c - 1);
    prog_write(p, P + 0x24, 0x10), prog_write(p, P + 0x34, 0x0202), prog_write(p, P + 0x38, 0x5555);
    prog_write(p, P + 0x3c, 0x5555), prog_write(p, P + 0x40, 0x1111);
    prog_write(p, P + 0x70, dst), prog_write(p, P + 0x78, 8 * s.w), prog_write(p, P + 0x7c, 8 * s.w * s.h);
    prog_write(p, P + 0x80, 1);
    prog_write(p, NVDLA_PDP_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_PDP_RDMA_D_OP_ENABLE_0, 1);
    prog_wait_irq(p, 0x10, JOB_TIMEOUT);
    prog_check_golden(p);
    return 0;
}

/* CDP LRN5 with a linear LE ramp and identity-ish converters. */
int cdp_perf(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    shape_t s = pick(seed);
    rng_t r;
    rng_seed_stream(&r, seed, "cdp_perf");
    uint32_t src = 0x80000000u, dst = 0x81000000u;
    prog_job(p, "cdp_perf.%ux%ux%u.elems%u", s.w, s.h, s.c, 8 * atoms(&s));
    cube(p, &r, src, s.w, s.h, s.c);
    prog_write(p, NVDLA_CDP_S_LUT_ACCESS_CFG_0, 0x20000);
    for (int i = 0; i < 65; i++) prog_write(p, NVDLA_CDP_S_LUT_ACCESS_DATA_0, (uint32_t)(4096 - 48 * i));
    prog_write(p, NVDLA_CDP_S_LUT_ACCESS_CFG_0, 0x30000);
    for (int i = 0; i < 257; i++) prog_write(p, NVDLA_CDP_S_LUT_ACCESS_DATA_0, (uint32_t)(4096 - 12 * i));
    enum { R = 0xC000, C = 0xD000 };
    prog_write(p, C + 0x10, 1), prog_write(p, C + 0x14, (10u << 8) | (12u << 16));
    prog_write(p, C + 0x20, 1u << 16), prog_write(p, C + 0x30, 1u << 20);
    prog_write(p, R + 0x0c, s.w - 1), prog_write(p, R + 0x10, s.h - 1), prog_write(p, R + 0x14, s.c - 1);
    prog_write(p, R + 0x18, src), prog_write(p, R + 0x20, 8 * s.w), prog_write(p, R + 0x24, 8 * s.w * s.h);
    prog_write(p, R + 0x28, 1), prog_write(p, R + 0x34, 0);
    prog_write(p, C + 0x50, dst), prog_write(p, C + 0x58, 8 * s.w), prog_write(p, C + 0x5c, 8 * s.w * s.h);
    prog_write(p, C + 0x60, 1), prog_write(p, C + 0x68, 0), prog_write(p, C + 0x70, 1);
    prog_write(p, C + 0x78, 1), prog_write(p, C + 0x84, 1), prog_write(p, C + 0x88, 12);
    prog_write(p, NVDLA_CDP_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_CDP_RDMA_D_OP_ENABLE_0, 1);
    prog_wait_irq(p, 0x4, JOB_TIMEOUT);
    prog_check_golden(p);
    return 0;
}
