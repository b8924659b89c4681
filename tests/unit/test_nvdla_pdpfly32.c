/* Unit tests of nv_full's PDP on the fly in the golden model (dp_atom32.c pdp32_fly_run): SDP reading a cube from
 * memory through an identity configuration (every stage bypassed, converter scale 1) streamed into PDP gives what PDP
 * gives reading the same cube from memory, and what the model refuses on the fly it refuses by name. */
#include "dp_atom32.h"
#include "mem.h"
#include "unit.h"
#include <stdio.h>
#include <string.h>

static int boxes;
static char err[300];
static void on_box(void *user, const nvdla_box_t *b) { (void)user, (void)b, boxes++; }
static void on_error(void *user, const char *msg)
{
    (void)user;
    snprintf(err, sizeof err, "%s", msg);
}

enum { IN = 0x1000, OUT_MEM = 0x8000, OUT_FLY = 0xC000 };

static void unit_init(nvdla_pp_t *u, uint32_t base, uint32_t op_en)
{
    nvdla_pp_init(u, base, op_en);
    for (int w = 0; w < NVDLA_PP_WORDS; w++) u->mask[w] = 0xFFFFFFFFu;
}

static void put(nvdla_pp_t *u, const uint32_t (*regs)[2], size_t n)
{
    for (size_t i = 0; i < n; i++) nvdla_pp_write(u, u->base + regs[i][0], regs[i][1]);
}

/* PDP over a 3x3x20 INT16 cube (two surfaces, the second with 4 real channels): max 2x2, stride 1, padding 1 left and
 * top, output 3x3 at `out`; from memory (PDP_RDMA) or on the fly (flying), with NAN_FLUSH_TO_ZERO and SPLIT_NUM as
 * given. */
static void pdp_regs(nvdla_pp_t *pdp, nvdla_pp_t *rdma, bool flying, uint32_t out, uint32_t split)
{
    const uint32_t pr[][2] = {{0x0c, 2},
                              {0x10, 2},
                              {0x14, 19},
                              {0x18, 2},
                              {0x1c, 2},
                              {0x20, 19},
                              {0x24, 1u | (uint32_t)!flying << 4 | split << 8},
                              {0x28, 1},
                              {0x34, 0x0101},
                              {0x40, 0x0011},
                              {0x70, out},
                              {0x78, 3 * 32},
                              {0x7c, 9 * 32},
                              {0x80, 1},
                              {0x84, 1}};
    put(pdp, pr, sizeof pr / sizeof *pr);
    if (!flying) {
        const uint32_t rr[][2] = {{0x0c, 2},      {0x10, 2},      {0x14, 19}, {0x1c, IN},
                                  {0x24, 3 * 32}, {0x28, 9 * 32}, {0x2c, 1},  {0x30, 1}};
        put(rdma, rr, sizeof rr / sizeof *rr);
        nvdla_pp_write(rdma, rdma->base + 0x08, 1);
    }
    nvdla_pp_write(pdp, pdp->base + 0x08, 1);
}

/* SDP_RDMA reading the cube, SDP the identity at INT16 with its output to PDP (D_FEATURE_MODE_CFG bit 1); fp16:
 * the input FP16, processed at FP16, the output INT16. */
static void sdp_regs(nvdla_pp_t *sdp, nvdla_pp_t *rdma, uint32_t c_minus_1, bool fp16)
{
    const uint32_t rr[][2] = {{0x0c, 2},  {0x10, 2},      {0x14, c_minus_1},
                              {0x18, IN}, {0x20, 3 * 32}, {0x24, 9 * 32},
                              {0x28, 1},  {0x40, 1},      {0x70, fp16 ? 2u << 2 | 2u << 4 | 1u << 6 : 4},
                              {0x74, 1}};
    const uint32_t sr[][2] = {{0x3c, 2}, {0x40, 2}, {0x44, c_minus_1},    {0x58, 1}, {0x6c, 1},
                              {0x80, 1}, {0xb0, 2}, {0xbc, fp16 ? 6 : 5}, {0xc4, 1}};
    put(rdma, rr, sizeof rr / sizeof *rr);
    put(sdp, sr, sizeof sr / sizeof *sr);
    nvdla_pp_write(rdma, rdma->base + 0x08, 1);
    nvdla_pp_write(sdp, sdp->base + 0x38, 1);
}

static void test_fly_equals_memory(unit_t *u)
{
    mem_t *m = mem_new();
    for (uint32_t a = 0; a < 18 * 32; a++) mem_write8(m, IN + a, (uint8_t)(a * 37 + 11)); /* pad lanes too */
    nvdla_dp_ctx_t ctx = {.mem = m, .emit = on_box, .error = on_error};
    nvdla_pp_t pdp, prdma, sdp, srdma;
    unit_init(&pdp, 0xB000, 0x008), unit_init(&prdma, 0xA000, 0x008);
    pdp_regs(&pdp, &prdma, false, OUT_MEM, 0);
    err[0] = 0, boxes = 0;
    pdp32_run(&pdp, &prdma, &ctx, 0);
    CHECK(!err[0], "PDP from memory runs: %s", err);
    unit_init(&pdp, 0xB000, 0x008), unit_init(&sdp, 0x9000, 0x038), unit_init(&srdma, 0x8000, 0x008);
    pdp_regs(&pdp, NULL, true, OUT_FLY, 0);
    sdp_regs(&sdp, &srdma, 19, false);
    pdp32_fly_run(&sdp, &srdma, NULL, NULL, &pdp, &ctx, 0, 0);
    CHECK(!err[0], "PDP on the fly runs: %s", err);
    CHECK_EQ(boxes, 2); /* PDP's output box each time; SDP writes nothing on the fly */
    int differ = 0, written = 0;
    for (uint32_t a = 0; a < 18 * 32; a++) {
        differ += mem_read8(m, OUT_MEM + a) != mem_read8(m, OUT_FLY + a);
        written += mem_read8(m, OUT_FLY + a) != 0;
    }
    CHECK_EQ(differ, 0);
    CHECK(written > 0, "the pooled output was written");
    mem_free(m);
}

/* SDP at FP16 with an INT16 output into PDP MAX: the INT16 values are signed. A checkerboard of 2.0 and -1.0 gives 2 in
 * every 2x2 window; pooling -1 as its bits (65535, what the model did until conv_random_cmp_pdp seed 4 failed on the
 * RTL) gives 0xFFFF wherever a window holds a -1. */
static void test_fly_fp16_to_int16_signed(unit_t *u)
{
    mem_t *m = mem_new();
    for (uint32_t s = 0; s < 2; s++)
        for (uint32_t y = 0; y < 3; y++)
            for (uint32_t x = 0; x < 3; x++)
                for (uint32_t l = 0; l < 16; l++) {
                    const uint16_t v = (x + y) % 2 ? 0xBC00 : 0x4000; /* -1.0, 2.0 */
                    const uint32_t a = IN + s * 9 * 32 + y * 3 * 32 + x * 32 + 2 * l;
                    mem_write8(m, a, (uint8_t)v), mem_write8(m, a + 1, (uint8_t)(v >> 8));
                }
    nvdla_dp_ctx_t ctx = {.mem = m, .emit = on_box, .error = on_error};
    nvdla_pp_t pdp, sdp, srdma;
    unit_init(&pdp, 0xB000, 0x008), unit_init(&sdp, 0x9000, 0x038), unit_init(&srdma, 0x8000, 0x008);
    pdp_regs(&pdp, NULL, true, OUT_FLY, 0);
    sdp_regs(&sdp, &srdma, 19, true);
    err[0] = 0, boxes = 0;
    pdp32_fly_run(&sdp, &srdma, NULL, NULL, &pdp, &ctx, 0, 0);
    CHECK(!err[0], "FP16 to INT16 on the fly runs: %s", err);
    int wrong = 0;
    for (uint32_t a = 0; a < 18 * 32; a += 2)
        wrong += (mem_read8(m, OUT_FLY + a) | mem_read8(m, OUT_FLY + a + 1) << 8) != 2;
    CHECK_EQ(wrong, 0);
    mem_free(m);
}

static void test_fly_refusals(unit_t *u)
{
    mem_t *m = mem_new();
    nvdla_dp_ctx_t ctx = {.mem = m, .emit = on_box, .error = on_error};
    nvdla_pp_t pdp, sdp, srdma;
    unit_init(&pdp, 0xB000, 0x008), unit_init(&sdp, 0x9000, 0x038), unit_init(&srdma, 0x8000, 0x008);
    pdp_regs(&pdp, NULL, true, OUT_FLY, 0);
    sdp_regs(&sdp, &srdma, 15, false); /* 16 channels where PDP expects 20 */
    err[0] = 0, boxes = 0;
    pdp32_fly_run(&sdp, &srdma, NULL, NULL, &pdp, &ctx, 0, 0);
    CHECK(strstr(err, "PDP grp 0: on the fly, PDP's input cube 3x3x20 differs from SDP's output 3x3x16") != NULL,
          "a cube mismatch is named: %s", err);
    CHECK_EQ(boxes, 0);
    unit_init(&pdp, 0xB000, 0x008), unit_init(&sdp, 0x9000, 0x038), unit_init(&srdma, 0x8000, 0x008);
    pdp_regs(&pdp, NULL, true, OUT_FLY, 2);
    sdp_regs(&sdp, &srdma, 19, false);
    err[0] = 0;
    pdp32_fly_run(&sdp, &srdma, NULL, NULL, &pdp, &ctx, 0, 0);
    CHECK(strstr(err, "split width on the fly (SPLIT_NUM 2)") != NULL, "split on the fly refused: %s", err);
    CHECK_EQ(boxes, 0);
    mem_free(m);
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_pdpfly32"};
    UNIT_RUN(&u, test_fly_equals_memory);
    UNIT_RUN(&u, test_fly_refusals);
    UNIT_RUN(&u, test_fly_fp16_to_int16_signed);
    return unit_done(&u);
}
