/* The oracle's golden-model side: golden/nvdla/nvdla_fp16.c on the sweeps of nvdla_fp_sweep.h, the same command line
 * as its twin nvdla_fp_cmod.cpp (NVIDIA's C model). */
#include "nvdla_fp16.h"
#include "pdp_fp16.h"
#include "sdp_fp16.h"
#include "cdp_fp16.h"
#include <string.h>
#include "nvdla_fp_sweep.h"

static uint32_t u16_to_fp17(uint32_t a, uint32_t b)
{
    (void)b;
    return nv_uint16_to_fp17(a);
}
#define UNARY(f)                                  \
    static uint32_t f##_1(uint32_t a, uint32_t b) \
    {                                             \
        (void)b;                                  \
        return f(a);                              \
    }
UNARY(nv_fp16_to_fp17)
UNARY(nv_fp17_to_fp16)
UNARY(nv_fp16_to_fp32)
UNARY(nv_fp32_to_fp16)
UNARY(nv_fp17_to_fp32)
UNARY(nv_fp32_to_fp17)
UNARY(nv_fp32_relu)
UNARY(nv_fp16_to_int16)
UNARY(nv_int17_to_fp16)

static const fp_fn_t fns[FP_OPS] = {
    nv_fp16_add,       nv_fp16_sub,       nv_fp16_mul,       nv_fp16_max,        nv_fp16_min,
    nv_fp17_add,       nv_fp17_sub,       nv_fp17_mul,       nv_fp17_max,        nv_fp17_min,
    nv_fp32_add,       nv_fp32_sub,       nv_fp32_mul,       nv_fp32_max,        nv_fp32_min,
    nv_fp32_relu_1,    nv_fp16_to_fp17_1, nv_fp17_to_fp16_1, nv_fp16_to_fp32_1,  nv_fp32_to_fp16_1,
    nv_fp17_to_fp32_1, nv_fp32_to_fp17_1, u16_to_fp17,       nv_fp16_to_int16_1, nv_int17_to_fp16_1,
};

/* PDP at FP16: the golden model's pdp_fp16_pool_one for every output. */
static void pdp(const fp_pdp_job_t *j, uint16_t *out)
{
    pdp_fp16_cfg_t c = {.method = j->method,
                        .kw = j->kw,
                        .kh = j->kh,
                        .sw = j->sw,
                        .sh = j->sh,
                        .pl = j->pl,
                        .pt = j->pt,
                        .recip_w = j->recip_w & 0x1FFFF,
                        .recip_h = j->recip_h & 0x1FFFF,
                        .nan_to_zero = j->nan_to_zero};
    for (int k = 0; k < 7; k++) c.pad[k] = j->pad[k] & 0x1FFFF;
    const unsigned wo = fp_pdp_wo(j), ho = fp_pdp_ho(j);
    for (unsigned oy = 0; oy < ho; oy++)
        for (unsigned ox = 0; ox < wo; ox++) out[oy * wo + ox] = pdp_fp16_pool_one(&c, j->v, j->w, j->h, ox, oy);
}

/* SDP at FP16 processing: the golden model's sdp_fp16_element for every value. */
static void sdp(const fp_sdp_job_t *j, uint16_t *out)
{
    if (j->proc != 2) { /* the INT16 datapath is dp_atom32.c's, not in this driver: TXN tests check it */
        fprintf(stderr, "error: the golden model side computes FP16 processing only\n");
        exit(2);
    }
    sdp_fp16_cfg_t c = {.nan_to_zero = j->nan_to_zero, .out_int16 = j->out == 1};
    sdp_fp16_stage_t *st[2] = {&c.x1, &c.x2};
    for (int k = 0; k < 2; k++) {
        const unsigned *f = j->stage[k];
        *st[k] = (sdp_fp16_stage_t){.bypass = f[0],
                                    .alu_bypass = f[1],
                                    .algo = f[2] & 3,
                                    .mul_bypass = f[3],
                                    .prelu = f[4],
                                    .relu_bypass = f[5],
                                    .alu_op = f[6],
                                    .mul_op = f[7]};
    }
    for (unsigned k = 0; k < j->n; k++) out[k] = sdp_fp16_element(&c, j->v[k]);
}

/* CDP at FP16: the golden model's cdp_fp16_element for every channel, its window's channels outside the pixel's
 * channels the job's offset field, as cmod's driver feeds them (the element arithmetic is compared here; which value
 * a channel outside the cube has is the caller's: +0 on nv_full's RTL, CDP_FP16_OUTSIDE in cdp_fp16.h). */
static void cdp(const fp_cdp_job_t *j, uint16_t *out)
{
    const uint32_t *f = j->cfg;
    cdp_fp16_cfg_t c = {.le_exponent = f[0],
                        .uflow_lo = f[1],
                        .oflow_lo = f[2],
                        .hybrid_lo = f[3],
                        .sqsum_bypass = f[4],
                        .mul_bypass = f[5],
                        .nan_to_zero = f[6],
                        .normalz_len = f[7],
                        .le_start = f[8],
                        .le_end = f[9],
                        .lo_start = f[10],
                        .lo_end = f[11],
                        .le_index_offset = (int8_t)f[12],
                        .le_index_select = (int8_t)f[13],
                        .lo_index_select = (int8_t)f[14],
                        .le_uflow = (uint16_t)f[15],
                        .le_oflow = (uint16_t)f[16],
                        .lo_uflow = (uint16_t)f[17],
                        .lo_oflow = (uint16_t)f[18],
                        .datin_offset = (uint16_t)f[19]};
    static cdp_lut_t t;
    memcpy(t.le, j->le, sizeof t.le);
    memcpy(t.lo, j->lo, sizeof t.lo);
    for (int k = 0; k < (int)j->n; k++) {
        uint16_t win[9];
        for (int d = -4; d <= 4; d++) win[4 + d] = k + d < 0 || k + d >= (int)j->n ? c.datin_offset : j->v[k + d];
        out[k] = cdp_fp16_element(&c, &t, win);
    }
}

int main(int argc, char **argv) { return fp_driver_main(argc, argv, fns, pdp, sdp, cdp); }
