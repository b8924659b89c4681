/* A Winograd convolution layer of nv_full (32-byte atoms) at INT8 or INT16, from its registers, with SDP on the fly
 * (conv_winograd.h has the arithmetic, docs/nvdla_nv_full.md "Winograd convolution" the rules and their evidence).
 * What the registers must say, each refused by name otherwise (NVIDIA's RTL asserts each one, file:line in the
 * doc): CDMA's input W x H with its padding is the extended plane D_DATAIN_SIZE_EXT, both multiples of 4, stride 1
 * (cmod also has a channel-extension for strides, which NVIDIA's firmware programs through the compiler's
 * *_ext sizes; not drawn here); CSC's 4x4 transformed kernels (D_WEIGHT_SIZE_EXT 3,3), its channels whole input
 * surfaces (so that CDMA's and CSC's ENTRY_PER_SLICE agree: cmod cdma.cpp and csc.cpp both check it), its output
 * multiples of 4 and at most the extended plane less 4 (CSC reads 4x4 CBUF tiles; the output tile at 2j needs
 * columns 2j .. 2j+3), CSC's own padding and strides 0 (NVIDIA's firmware, conv.c); CACC and SDP the same output,
 * CMAC/CACC/SDP's Winograd bits set (the SDP's reorders its write, cmod sdp.cpp WdmaSequenceWG). At FP16
 * (conv_wino_fp16.h) the PRA runs in FP17, CMAC's FP16 cell sums the aligned products before its POA and CACC adds in
 * FP48; SDP then processes CACC's FP32 at FP16 with register operands, to FP16 or INT16, as after a direct FP16
 * convolution. */
#include "conv_golden.h"
#include "conv_wino_fp16.h"
#include "conv_winograd.h"
#include "dp_atom32.h"
#include "nvdla_dp_math.h"
#include "nvdla_regs.h"
#include "sdp_fp16.h"
#include "sdp_golden.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

enum { SDP = 0x9000 };

static bool refuse(const nvdla_dp_ctx_t *ctx, int group, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool refuse(const nvdla_dp_ctx_t *ctx, int group, const char *fmt, ...)
{
    char msg[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nv_dp_error(ctx, "CONV grp %d (Winograd): %s", group, msg);
    return false;
}

typedef struct wino_src {
    const cube32_t *in;
    const uint8_t *wt;
    uint32_t W, H, pl, pt, C, K, esz;
    int32_t pad;
} wino_src_t;

/* The extended plane CDMA writes into CBUF: the pad value (its low byte at INT8, cmod cdma.cpp atom_pad_value,
 * RTL NV_NVDLA_CDMA_wg.v:7127 dma_pad_data) outside the cube, whole atoms (pad lanes included) inside. */
static int32_t wino_data(const void *p, uint32_t c, uint32_t y, uint32_t x)
{
    const wino_src_t *s = p;
    if (y < s->pt || x < s->pl || y - s->pt >= s->H || x - s->pl >= s->W) return s->pad;
    return cube32_atom(s->in, c / s->in->lanes, y - s->pt, x - s->pl)[c % s->in->lanes];
}
static int32_t wino_weight(const void *p, uint32_t k, uint32_t c, uint32_t pos)
{
    const wino_src_t *s = p;
    const uint8_t *b = s->wt + conv_wino_weight_offset(k, c, pos, s->C, s->K, s->esz);
    return (int32_t)(s->esz == 2 ? nv_sx(b[0] | b[1] << 8, 16) : nv_sx(b[0], 8));
}
/* FP16: the same elements as FP16 bits */
static uint16_t wino_data16(const void *p, uint32_t c, uint32_t y, uint32_t x)
{
    return (uint16_t)wino_data(p, c, y, x);
}
static uint16_t wino_weight16(const void *p, uint32_t k, uint32_t c, uint32_t pos)
{
    return (uint16_t)wino_weight(p, k, c, pos);
}

bool conv32_wino_run(const nvdla_pp_t *units, const nvdla_pp_t *sdp, const nvdla_dp_ctx_t *ctx)
{
    const nvdla_pp_t *cdma = &units[CONV_CDMA], *csc = &units[CONV_CSC], *cacc = &units[CONV_CACC],
                     *cma = &units[CONV_CMAC_A], *cmb = &units[CONV_CMAC_B];
    const int group = cdma->consumer, sg = sdp->consumer;
    if (FLD(cdma, CDMA, D_DATAIN_FORMAT_0, DATAIN_FORMAT)) return refuse(ctx, group, "image input");
    if (FLD(cdma, CDMA, D_BATCH_NUMBER_0, BATCHES)) return refuse(ctx, group, "batches");
    if (FLD(cdma, CDMA, D_WEIGHT_FORMAT_0, WEIGHT_FORMAT)) return refuse(ctx, group, "compressed weights");
    if (FLD(cdma, CDMA, D_CVT_CFG_0, CVT_EN)) return refuse(ctx, group, "CDMA's input converter");
    if (!FLD(csc, CSC, D_MISC_CFG_0, CONV_MODE) || !FLD(cma, CMAC_A, D_MISC_CFG_0, CONV_MODE) ||
        !FLD(cmb, CMAC_B, D_MISC_CFG_0, CONV_MODE) || !FLD(cacc, CACC, D_MISC_CFG_0, CONV_MODE))
        return refuse(ctx, group, "CDMA is in Winograd mode but CSC, CMAC_A, CMAC_B or CACC is not");
    if (!nvdla_pp_bits(sdp, SDP + 0xb0, 2, 2))
        return refuse(ctx, group,
                      "SDP's D_FEATURE_MODE_CFG.WINOGRAD is 0 (SDP would write the 2x2 tiles in line order)");
    const unsigned prec = FLD(cdma, CDMA, D_MISC_CFG_0, PROC_PRECISION);
    if (FLD(cdma, CDMA, D_MISC_CFG_0, IN_PRECISION) != prec)
        return refuse(ctx, group, "input and processing precisions differ");
    const bool fp16 = prec == 2;
    const uint32_t esz = fp16 ? 2 : dp32_esz(ctx, "CONV", group, prec);
    if (!esz) return false;
    const uint32_t W = FLD(cdma, CDMA, D_DATAIN_SIZE_0_0, DATAIN_WIDTH) + 1,
                   H = FLD(cdma, CDMA, D_DATAIN_SIZE_0_0, DATAIN_HEIGHT) + 1,
                   C = FLD(cdma, CDMA, D_DATAIN_SIZE_1_0, DATAIN_CHANNEL) + 1,
                   We = FLD(cdma, CDMA, D_DATAIN_SIZE_EXT_0_0, DATAIN_WIDTH_EXT) + 1,
                   He = FLD(cdma, CDMA, D_DATAIN_SIZE_EXT_0_0, DATAIN_HEIGHT_EXT) + 1;
    const uint32_t pl = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_LEFT), pr = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_RIGHT),
                   pt = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_TOP), pb = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_BOTTOM);
    if (FLD(cdma, CDMA, D_CONV_STRIDE_0, CONV_X_STRIDE) || FLD(cdma, CDMA, D_CONV_STRIDE_0, CONV_Y_STRIDE))
        return refuse(ctx, group, "a stride other than 1 (the channel extension of strided Winograd)");
    if (W + pl + pr != We || H + pt + pb != He || We % 4 || He % 4)
        return refuse(ctx, group,
                      "the padded input %ux%u differs from D_DATAIN_SIZE_EXT %ux%u or is not a multiple of 4",
                      W + pl + pr, H + pt + pb, We, He);
    const uint32_t lanes = 32 / esz, Ce = (C + lanes - 1) / lanes * lanes;
    if (FLD(csc, CSC, D_DATAIN_SIZE_EXT_0_0, DATAIN_WIDTH_EXT) + 1 != We ||
        FLD(csc, CSC, D_DATAIN_SIZE_EXT_0_0, DATAIN_HEIGHT_EXT) + 1 != He)
        return refuse(ctx, group, "CSC's D_DATAIN_SIZE_EXT differs from CDMA's");
    if (FLD(csc, CSC, D_DATAIN_SIZE_EXT_1_0, DATAIN_CHANNEL_EXT) + 1 != Ce ||
        FLD(csc, CSC, D_WEIGHT_SIZE_EXT_1_0, WEIGHT_CHANNEL_EXT) + 1 != Ce)
        return refuse(ctx, group, "CSC's channels are not the input's %u channels rounded up to whole surfaces (%u)", C,
                      Ce);
    if (FLD(csc, CSC, D_WEIGHT_SIZE_EXT_0_0, WEIGHT_WIDTH_EXT) != 3 ||
        FLD(csc, CSC, D_WEIGHT_SIZE_EXT_0_0, WEIGHT_HEIGHT_EXT) != 3)
        return refuse(ctx, group, "CSC's kernel is not the 4x4 of transformed weights");
    if (nvdla_pp_reg(csc, NVDLA_CSC_D_CONV_STRIDE_EXT_0) || nvdla_pp_reg(csc, NVDLA_CSC_D_ZERO_PADDING_0) ||
        nvdla_pp_reg(csc, NVDLA_CSC_D_DILATION_EXT_0))
        return refuse(ctx, group, "CSC's stride, padding or dilation is not 0");
    const uint32_t K = FLD(csc, CSC, D_WEIGHT_SIZE_EXT_1_0, WEIGHT_KERNEL) + 1,
                   Wo = FLD(csc, CSC, D_DATAOUT_SIZE_0_0, DATAOUT_WIDTH) + 1,
                   Ho = FLD(csc, CSC, D_DATAOUT_SIZE_0_0, DATAOUT_HEIGHT) + 1;
    if (Wo % 4 || Ho % 4 || Wo + 4 > We || Ho + 4 > He)
        return refuse(ctx, group, "the output %ux%u is not a multiple of 4 within the extended input %ux%u less 4", Wo,
                      Ho, We, He);
    if (FLD(cacc, CACC, D_DATAOUT_SIZE_0_0, DATAOUT_WIDTH) + 1 != Wo ||
        FLD(cacc, CACC, D_DATAOUT_SIZE_0_0, DATAOUT_HEIGHT) + 1 != Ho ||
        FLD(cacc, CACC, D_DATAOUT_SIZE_1_0, DATAOUT_CHANNEL) + 1 != K)
        return refuse(ctx, group, "CACC's output differs from CSC's %ux%ux%u", Wo, Ho, K);
    const uint32_t per_kernel = 16 * Ce * esz;
    const uint64_t wbytes = (uint64_t)K * per_kernel;
    if (wbytes > NV_CUBE_MAX_BYTES) return refuse(ctx, group, "%llu bytes of weights", (unsigned long long)wbytes);
    place32_t src = {.space = FLD(cdma, CDMA, D_DAIN_RAM_TYPE_0, DATAIN_RAM_TYPE) ? 0 : NVDLA_CV_SPACE,
                     .base = nvdla_pp_reg(cdma, NVDLA_CDMA_D_DAIN_ADDR_LOW_0_0),
                     .line = nvdla_pp_reg(cdma, NVDLA_CDMA_D_LINE_STRIDE_0),
                     .surf = nvdla_pp_reg(cdma, NVDLA_CDMA_D_SURF_STRIDE_0)};
    if (!dp32_aligned(ctx, "CDMA", group, &src)) return false;
    const uint64_t wspace = FLD(cdma, CDMA, D_WEIGHT_RAM_TYPE_0, WEIGHT_RAM_TYPE) ? 0 : NVDLA_CV_SPACE;
    const uint32_t waddr = nvdla_pp_reg(cdma, NVDLA_CDMA_D_WEIGHT_ADDR_LOW_0);

    /* SDP on the fly: as for a direct convolution (conv_atom32.c) */
    sdp_x_cfg_t bs, bn;
    /* SDP's output to PDP: cmod asserts OUTPUT_DST memory in Winograd mode (sdp/NV_NVDLA_sdp.cpp:1716-1719,
     * SdpWdmaThread); in the RTL SDP's WINOGRAD bit reaches only its write DMA (NV_NVDLA_SDP_WDMA_cmd.v:190
     * cfg_mode_winog), which puts CACC's 4x4-tile order back in place, so PDP would pool tiles as lines */
    if (nvdla_pp_bits(sdp, SDP + 0xb0, 1, 1))
        return refuse(ctx, group, "SDP's output to PDP (cmod sdp.cpp:1716-1719 asserts against it in Winograd mode)");
    if (!nvdla_pp_bits(sdp, SDP + 0x80, 0, 0)) return refuse(ctx, group, "SDP's EW stage");
    if (!sdp32_stage_cfg(sdp, ctx, sg, 0x58, "BS", &bs) || !sdp32_stage_cfg(sdp, ctx, sg, 0x6c, "BN", &bn))
        return false;
    unsigned out_prec;
    uint32_t out_esz;
    place32_t dst;
    if (!conv32_sdp_out(sdp, ctx, group, fp16, Wo, Ho, K, refuse, &out_prec, &out_esz, &dst)) return false;
    if (!dp32_aligned(ctx, "SDP", sg, &dst)) return false;

    cube32_t in, out;
    if (!cube32_alloc(ctx, "CDMA", group, &in, W, H, C, esz)) return false;
    if (!cube32_alloc(ctx, "SDP", sg, &out, Wo, Ho, K, out_esz)) {
        free(in.v);
        return false;
    }
    cube32_read(ctx, &in, &src);
    uint8_t *wt = malloc((size_t)wbytes);
    if (!wt) abort();
    mem_read(ctx->mem, wspace | waddr, wt, wbytes);
    const int32_t pad = (int32_t)nv_sx(nvdla_pp_reg(cdma, NVDLA_CDMA_D_ZERO_PADDING_VALUE_0), 8 * esz);
    const wino_src_t ws = {
        .in = &in, .wt = wt, .W = W, .H = H, .pl = pl, .pt = pt, .C = Ce, .K = K, .esz = esz, .pad = pad};
    const conv_wino_src_t s = {.C = Ce,
                               .bits = 8 * esz,
                               .trunc = conv_wino_pra_shift(FLD(csc, CSC, D_PRA_CFG_0, PRA_TRUNCATE)),
                               .ctx = &ws,
                               .data = wino_data,
                               .weight = wino_weight};
    const conv_wino_fp16_src_t f16 = {.C = Ce,
                                      .nan_flush = (int)FLD(cdma, CDMA, D_NAN_FLUSH_TO_ZERO_0, NAN_TO_ZERO),
                                      .ctx = &ws,
                                      .data = wino_data16,
                                      .weight = wino_weight16};
    const sdp_fp16_cfg_t sdp16 = {.x1 = sdp32_fp16_stage(&bs),
                                  .x2 = sdp32_fp16_stage(&bn),
                                  .nan_to_zero = nvdla_pp_bits(sdp, SDP + 0xb0, 3, 3),
                                  .out_int16 = out_prec == 1};
    const unsigned t = FLD(cacc, CACC, D_CLIP_CFG_0, CLIP_TRUNCATE);
    const uint32_t off = nvdla_pp_reg(sdp, SDP + 0xc0), scale = nvdla_pp_reg(sdp, SDP + 0xc4),
                   shift = nvdla_pp_reg(sdp, SDP + 0xc8) & 63;
    for (uint32_t oy = 0; oy < Ho; oy++)
        for (uint32_t ox = 0; ox < Wo; ox++)
            for (uint32_t k = 0; k < out.s * out.lanes; k++) {
                if (fp16) { /* CLIP_TRUNCATE is not used at FP16 (cmod cacc.cpp:888) */
                    cube32_atom(&out, k / out.lanes, oy, ox)[k % out.lanes] =
                        sdp_fp32_element(&sdp16, conv_wino_fp16_output(&f16, k, oy, ox, k >= K));
                    continue;
                }
                /* kernels past the last: zero weights (the last group's missing kernels), a zero sum */
                const int64_t acc = k < K ? conv_wino_output(&s, k, oy, ox) : 0;
                int64_t v = nv_sat((int64_t)nv_rshift_round(acc, t), 32); /* CACC CLIP_TRUNCATE, as direct */
                v = sdp_x_stage(&bs, v, bs.alu_reg, bs.mul_reg);
                v = sdp_x_stage(&bn, v, bn.alu_reg, bn.mul_reg);
                cube32_atom(&out, k / out.lanes, oy, ox)[k % out.lanes] =
                    sdp_cvt_bits(v, off, scale, shift, 8 * out_esz, NULL);
            }
    cube32_write(ctx, &out, &dst, "SDP", sg);
    free(wt);
    free(in.v);
    free(out.v);
    return true;
}
