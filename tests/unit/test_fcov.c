/* Unit tests of the table-driven functional coverage (tb/common/fcov.c) and of the NVDLA bin logic
 * (tb/nvdla/nvdla_cov.c; MAX78000: test_max78000_cov.c): allowed rules exclude bins, out-of-range values
 * never count, the written report holds exactly the allowed bins, and known register settings land in the
 * bins they describe. Testbench sources are compiled in. */
#include "../../tb/common/fcov.c"
#include "../../tb/nvdla/nvdla_cov.c"
#include "unit.h"
#include <stdlib.h>

static const char *const L_AB[] = {"a", "b"};
static const char *const L_XYZ[] = {"x", "y", "z"};
static bool not_b_z(const unsigned *v) { return !(v[0] == 1 && v[1] == 2); }
static const fcov_cross_t T[] = {
    {"ab_x_xyz", 2, {FCOV_DIM("p", L_AB), FCOV_DIM("q", L_XYZ)}, not_b_z},
    {"ab", 1, {FCOV_DIM("p", L_AB)}, NULL},
};

static void test_generic(unit_t *u)
{
    fcov_t *c = fcov_new("t", T, 2);
    CHECK_EQ(fcov_bins(c), 5 + 2);
    CHECK_EQ(fcov_hits(c), 0);
    CHECK(fcov_hit4(c, 0, 0, 2, 0, 0), "allowed bin counted");
    CHECK(!fcov_hit4(c, 0, 1, 2, 0, 0), "excluded bin b,z must not count");
    CHECK(!fcov_hit4(c, 0, 2, 0, 0, 0), "out-of-range value must not count");
    CHECK(!fcov_hit4(c, 5, 0, 0, 0, 0), "unknown cross must not count");
    fcov_hit4(c, 0, 0, 2, 0, 0);
    fcov_hit4(c, 1, 1, 0, 0, 0);
    CHECK_EQ(fcov_hits(c), 2);
    CHECK_EQ(fcov_count(c, 0, (const unsigned[FCOV_MAXD]){0, 2}), 2);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    fcov_write(c, f, "tst", 7);
    fclose(f);
    unsigned lines = 0;
    for (size_t i = 0; i < n; i++) lines += buf[i] == '\n';
    CHECK_EQ(lines, 1 + 7); /* header + every allowed bin */
    CHECK(strstr(buf, "ab_x_xyz p=a,q=z 2\n") != NULL, "report line of a hit bin: %s", buf);
    CHECK(strstr(buf, "p=b,q=z") == NULL, "excluded bin must not be reported");
    CHECK(strstr(buf, "ab p=b 1\n") != NULL, "one-dimension cross");
    free(buf);
    fcov_free(c);
}

static unsigned hits_of(const fcov_t *c, unsigned x, unsigned v0, unsigned v1, unsigned v2)
{
    return (unsigned)fcov_count(c, x, (const unsigned[FCOV_MAXD]){v0, v1, v2});
}

static void test_nvdla_sdp_cdp(unit_t *u)
{
    fcov_t *c = nvdla_cov_new();
    nvdla_pp_t sdp, rdma, cdp, crdma;
    nvdla_pp_init(&sdp, 0x9000, 0x038);
    nvdla_pp_init(&rdma, 0x8000, 0x008);
    nvdla_pp_init(&cdp, 0xD000, 0x048);
    nvdla_pp_init(&crdma, 0xC000, 0x008);
    /* BS: ALU only (mul bypassed), algo SUM, register operand; BN bypassed; 1x1 cube to memory */
    nvdla_pp_write(&sdp, NVDLA_SDP_D_DP_BS_CFG_0, 2u << 2 | 1u << 4);
    nvdla_pp_write(&sdp, NVDLA_SDP_D_DP_BN_CFG_0, 1);
    nvdla_pp_write(&rdma, NVDLA_SDP_RDMA_D_BRDMA_CFG_0, 1);
    nvdla_pp_write(&rdma, NVDLA_SDP_RDMA_D_NRDMA_CFG_0, 1);
    nvdla_cov_layer(
        c, &(nvdla_layer_t){.unit = NVDLA_LAYER_SDP, .group = 1, .core = &sdp, .rdma = &rdma, .sdp_saturated = 3});
    CHECK_EQ(hits_of(c, X_SDP_STAGES, 1, 0, 0), 1);  /* bs=alu, bn=bypass */
    CHECK_EQ(hits_of(c, X_SDP_ALGO, 0, 2, 0), 1);    /* bs, sum */
    CHECK_EQ(hits_of(c, X_SDP_OPERAND, 0, 0, 0), 1); /* bs alu from a register */
    CHECK_EQ(hits_of(c, X_SDP_OUTPUT, 0, 0, 0), 1);  /* memory, 1x1 */
    CHECK_EQ(hits_of(c, X_SDP_SAT, 1, 1, 0), 1);     /* group 1 saturated */
    CHECK_EQ(fcov_hits(c), 6);                       /* + bs relu (on, no prelu) */
    /* a cube streamed to PDP */
    nvdla_pp_write(&sdp, NVDLA_SDP_D_DATA_CUBE_WIDTH_0, 4);
    nvdla_cov_layer(c, &(nvdla_layer_t){.unit = NVDLA_LAYER_SDP, .core = &sdp, .rdma = &rdma, .onfly = true});
    CHECK_EQ(hits_of(c, X_SDP_OUTPUT, 1, 1, 0), 1); /* pdp, cube */
    /* on the fly a 1x1 packing is no bin */
    CHECK(!fcov_hit4(c, X_SDP_OUTPUT, 1, 0, 0, 0), "sdp output pdp x 1x1 is excluded");
    /* CDP: both LO ends negative (bit 37 = HIGH bit 5), linear LE, LRN 7 in group 0 */
    nvdla_pp_write(&cdp, NVDLA_CDP_S_LUT_LO_START_HIGH_0, 0x3F);
    nvdla_pp_write(&cdp, NVDLA_CDP_S_LUT_LO_END_HIGH_0, 0x20);
    nvdla_pp_write(&cdp, NVDLA_CDP_S_LUT_CFG_0, 1);
    nvdla_pp_write(&cdp, NVDLA_CDP_D_LRN_CFG_0, 2);
    nvdla_cov_layer(c, &(nvdla_layer_t){.unit = NVDLA_LAYER_CDP, .core = &cdp, .rdma = &crdma});
    CHECK_EQ(hits_of(c, X_CDP_LO_ENDS, 0, 0, 0), 1);
    CHECK_EQ(hits_of(c, X_CDP_LRN, 0, 2, 0), 1);
    CHECK_EQ(hits_of(c, X_CDP_FUNC, 1, 0, 0), 1);
    fcov_free(c);
}

static void test_nvdla_bdma(unit_t *u)
{
    fcov_t *c = nvdla_cov_new();
    bdma_cmd_t cmds[BDMA_QUEUE_DEPTH] = {{0}};
    for (int i = 0; i < BDMA_QUEUE_DEPTH; i++)
        cmds[i] = (bdma_cmd_t){.line_bytes = 64, .lines = 2, .surfs = 1, .src_line = 64, .dst_line = 96};
    nvdla_cov_layer(c, &(nvdla_layer_t){.unit = NVDLA_LAYER_BDMA, .group = 1, .cmds = cmds, .ncmds = 20});
    CHECK_EQ(hits_of(c, X_BDMA_LAUNCH, 1, 2, 0), 1);   /* group 1, a full queue */
    CHECK_EQ(hits_of(c, X_BDMA_SHAPE, 1, 0, 1), 20);   /* many lines, one surface, 64-256 B */
    CHECK_EQ(hits_of(c, X_BDMA_STRIDES, 0, 1, 0), 20); /* packed source, gapped destination */
    fcov_free(c);
}

int main(void)
{
    unit_t u = {.name = "test_fcov"};
    UNIT_RUN(&u, test_generic);
    UNIT_RUN(&u, test_nvdla_sdp_cdp);
    UNIT_RUN(&u, test_nvdla_bdma);
    return unit_done(&u);
}
