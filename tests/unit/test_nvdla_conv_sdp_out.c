/* Unit tests of conv32_sdp_out (golden/nvdla/conv_atom32.c): SDP's output after a convolution, decoded once for the
 * direct and the Winograd models. Its precision, element size and place from SDP's registers; each refusal through
 * the refuser it is given (conv32_refuse's message, or a caller's own), with the message both models gave before
 * they shared it, and a precision the model does not compute named by dp32_esz. */
#include "dp_atom32.h"
#include "mem.h"
#include "nvdla_golden.h" /* NVDLA_CV_SPACE */
#include "unit.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { SDP = 0x9000 };
static char err[300], refused[300];
static int refusals;
static void on_error(void *user, const char *msg)
{
    (void)user;
    snprintf(err, sizeof err, "%s", msg);
}
static bool own_refuse(const nvdla_dp_ctx_t *ctx, int group, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool own_refuse(const nvdla_dp_ctx_t *ctx, int group, const char *fmt, ...)
{
    (void)ctx;
    char msg[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(refused, sizeof refused, "grp %d: %s", group, msg);
    refusals++;
    return false;
}

/* SDP's window: a Wo x Ho x K cube, D_DATA_FORMAT `fmt` (processing [1:0], output [3:2]), its destination in DBB or
 * CVSRAM. */
static void sdp_regs(nvdla_pp_t *sdp, uint32_t w, uint32_t h, uint32_t k, uint32_t fmt, bool dbb)
{
    nvdla_pp_init(sdp, SDP, 0x038);
    for (int i = 0; i < NVDLA_PP_WORDS; i++) sdp->mask[i] = 0xFFFFFFFFu;
    const uint32_t regs[][2] = {{0x3c, w - 1},  {0x40, h - 1},   {0x44, k - 1},         {0x48, 0x80001000},
                                {0x50, 4 * 32}, {0x54, 16 * 32}, {0xb4, (uint32_t)dbb}, {0xbc, fmt}};
    for (size_t i = 0; i < sizeof regs / sizeof *regs; i++) nvdla_pp_write(sdp, SDP + regs[i][0], regs[i][1]);
}

static void test_decoded(unit_t *u)
{
    mem_t *m = mem_new();
    const nvdla_dp_ctx_t ctx = {.mem = m, .error = on_error};
    nvdla_pp_t sdp;
    unsigned prec = 9;
    uint32_t esz = 9;
    place32_t dst = {0};
    sdp_regs(&sdp, 4, 4, 8, 1u << 2 | 1u, true); /* INT16 processing and output, DBB */
    err[0] = 0, refusals = 0;
    CHECK(conv32_sdp_out(&sdp, &ctx, 0, false, 4, 4, 8, own_refuse, &prec, &esz, &dst), "INT16 out: %s", err);
    CHECK_EQ(prec, 1);
    CHECK_EQ(esz, 2);
    CHECK(dst.space == 0 && dst.base == 0x80001000 && dst.line == 4 * 32 && dst.surf == 16 * 32, "DBB place");
    sdp_regs(&sdp, 4, 4, 8, 1u << 2 | 2u, false); /* FP16 processing, INT16 out, CVSRAM */
    CHECK(conv32_sdp_out(&sdp, &ctx, 0, true, 4, 4, 8, own_refuse, &prec, &esz, &dst), "FP16 to INT16: %s", err);
    CHECK_EQ(esz, 2);
    CHECK(dst.space == NVDLA_CV_SPACE, "CVSRAM place");
    CHECK_EQ(refusals, 0);
    mem_free(m);
}

static void test_refused(unit_t *u)
{
    mem_t *m = mem_new();
    const nvdla_dp_ctx_t ctx = {.mem = m, .error = on_error};
    nvdla_pp_t sdp;
    unsigned prec;
    uint32_t esz;
    place32_t dst;
    sdp_regs(&sdp, 4, 4, 7, 0, true); /* 7 kernels where the convolution has 8 */
    refusals = 0;
    CHECK(!conv32_sdp_out(&sdp, &ctx, 1, false, 4, 4, 8, own_refuse, &prec, &esz, &dst), "cube refused");
    CHECK(!strcmp(refused, "grp 1: SDP's cube differs from the convolution's output 4x4x8"), "%s", refused);
    err[0] = 0;
    CHECK(!conv32_sdp_out(&sdp, &ctx, 1, false, 4, 4, 8, conv32_refuse, &prec, &esz, &dst), "cube refused");
    CHECK(!strcmp(err, "CONV grp 1: SDP's cube differs from the convolution's output 4x4x8: not computed for 32-byte "
                       "atoms yet"),
          "%s", err);
    sdp_regs(&sdp, 4, 4, 8, 1u << 2 | 1u, true); /* INT16 processing after an FP16 convolution */
    CHECK(!conv32_sdp_out(&sdp, &ctx, 0, true, 4, 4, 8, own_refuse, &prec, &esz, &dst), "INT16 processing refused");
    CHECK(!strcmp(refused, "grp 0: SDP's processing other than FP16 or its output INT8 after an FP16 convolution"),
          "%s", refused);
    sdp_regs(&sdp, 4, 4, 8, 2u, true); /* FP16 processing, INT8 output */
    CHECK(!conv32_sdp_out(&sdp, &ctx, 0, true, 4, 4, 8, own_refuse, &prec, &esz, &dst), "INT8 out refused");
    CHECK_EQ(refusals, 3);
    sdp_regs(&sdp, 4, 4, 8, 2u << 2, true); /* an FP16 output after an INT8 convolution: dp32_esz names it */
    err[0] = 0;
    CHECK(!conv32_sdp_out(&sdp, &ctx, 0, false, 4, 4, 8, own_refuse, &prec, &esz, &dst), "FP16 out refused");
    CHECK(strstr(err, "SDP grp 0: precision FP16 is not computed") != NULL, "%s", err);
    CHECK_EQ(refusals, 3);
    mem_free(m);
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_conv_sdp_out"};
    UNIT_RUN(&u, test_decoded);
    UNIT_RUN(&u, test_refused);
    return unit_done(&u);
}
