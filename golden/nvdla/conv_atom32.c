/* Direct convolution of a configuration with 32-byte atoms (nv_full), INT8 or INT16, feeding SDP on the fly
 * (dp_atom32.h). What it follows, with its evidence:
 *  - weights (CDMA.D_WEIGHT_FORMAT uncompressed) in NVIDIA's format.rst layout, as the nv_small model's
 *    weight_offset with nv_full's atomics: groups of 16 kernels at INT16 (32 at INT8); inside a group, channel
 *    blocks of 64 channels at either precision (cmod csc/NV_NVDLA_csc.cpp:1062, block_per_channel_num from
 *    ELEMENT_PER_INPUT_ATOM = 64, csc.h:41; NVIDIA's INT16 loadable CONV_D_L0_0, 128 channels, matches its golden
 *    output only so: blocks of 32 get half the signs wrong) scanned channel -> kernel -> S -> R -> block; the last
 *    group and block narrower, no zero fill;
 *  - products summed exactly (cmod cacc: a 48-bit INT16 assembly; a layer that could exceed 47 bits is refused),
 *    then CACC's CLIP_TRUNCATE as cmod NV_NVDLA_cacc.cpp does it (divide by 2^t, round half away from zero) and
 *    saturation to 32 bits;
 *  - kernels k >= K of the last output surface compute as zero weights (spec nvdla.md 6), SDP then as any lane.
 * FP16 (PROC_PRECISION 2): CMAC's cells and CACC's FP48 sums in CSC's order (conv_fp16.c), SDP on CACC's FP32
 * (sdp_fp32_element); CLIP_TRUNCATE is not used at FP16 (cmod cacc.cpp:888).
 * Image input: conv_image32.h (the layer as a feature convolution over CSC's pre-extended reads).
 * CDMA's input converter on feature data at INT8/INT16 (cmod's); at FP16 it passes the data unchanged (its cell's,
 * cmod's HLS and the RTL's; cmod's feature path FAILs the configuration, the RTL runs it).
 * Winograd mode: conv_wino_atom32.c.
 * Compressed weights (D_WEIGHT_FORMAT 1 in CDMA and CSC): expanded to that layout first (conv_wcmp.h).
 * Batches (D_BATCH_NUMBER, 1-32, the same in CDMA, CSC, CACC and SDP): cube b read at the input's base plus b times
 * CDMA's D_BATCH_STRIDE, its output written at SDP's base plus b times SDP's D_DST_BATCH_STRIDE, each convolved alone.
 * A 1x1 output with batches keeps its surface stride (SDP packs for one batch only). Refused, by name: batches of an
 * image, dilation, input and processing precisions that differ, CDMA's and CSC's weight formats that differ. */
#include "conv_fp16.h"
#include "conv_golden.h"
#include "conv_image32.h"
#include "conv_wcmp.h"
#include "dp_atom32.h"
#include "nvdla_dp_math.h"
#include "nvdla_regs.h"
#include "sdp_golden.h"
#include "sdp_opdma32.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

enum { SDP = 0x9000 };

bool conv32_refuse(const nvdla_dp_ctx_t *ctx, int group, const char *fmt, ...)
{
    char msg[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nv_dp_error(ctx, "CONV grp %d: %s: not computed for 32-byte atoms yet", group, msg);
    return false;
}

bool conv32_sdp_out(const nvdla_pp_t *sdp, const nvdla_dp_ctx_t *ctx, int group, bool fp16, uint32_t Wo, uint32_t Ho,
                    uint32_t K, conv32_refuser_t *refuse, unsigned *out_prec, uint32_t *out_esz, place32_t *dst)
{
    *out_prec = nvdla_pp_bits(sdp, SDP + 0xbc, 3, 2);
    if (fp16 && (nvdla_pp_bits(sdp, SDP + 0xbc, 1, 0) != 2 || *out_prec == 0))
        return refuse(ctx, group, "SDP's processing other than FP16 or its output INT8 after an FP16 convolution");
    *out_esz = fp16 ? 2 : dp32_esz(ctx, "SDP", sdp->consumer, *out_prec);
    if (!*out_esz) return false;
    if (nvdla_pp_bits(sdp, SDP + 0x3c, 12, 0) + 1 != Wo || nvdla_pp_bits(sdp, SDP + 0x40, 12, 0) + 1 != Ho ||
        nvdla_pp_bits(sdp, SDP + 0x44, 12, 0) + 1 != K)
        return refuse(ctx, group, "SDP's cube differs from the convolution's output %ux%ux%u", Wo, Ho, K);
    *dst = (place32_t){.space = nvdla_pp_bits(sdp, SDP + 0xb4, 0, 0) ? 0 : NVDLA_CV_SPACE,
                       .base = nvdla_pp_reg(sdp, SDP + 0x48),
                       .line = nvdla_pp_reg(sdp, SDP + 0x50),
                       .surf = nvdla_pp_reg(sdp, SDP + 0x54)};
    return true;
}

/* Byte offset of w[k][r][s][c] (format.rst; see the top of this file). */
static size_t weight_offset(uint32_t k, uint32_t r, uint32_t s, uint32_t c, uint32_t R, uint32_t S, uint32_t C,
                            uint32_t K, uint32_t kg, uint32_t cb, uint32_t esz, uint32_t post)
{
    uint32_t g = k / kg, kk = k % kg, gn = K - g * kg < kg ? K - g * kg : kg;
    if (post > 1) return conv_img32_post_wt_offset(k, r, c, R, C, K, kg, post, esz); /* an image's post-extension */
    uint32_t b = c / cb, cc = c % cb, cn = C - b * cb < cb ? C - b * cb : cb;
    return ((size_t)g * kg * R * S * C + (size_t)b * cb * R * S * gn + ((size_t)(r * S + s) * gn + kk) * cn + cc) * esz;
}

static int64_t cacc_round(int64_t acc, unsigned t)
{
    if (t) { /* cmod: out = acc / 2^t, rounded half away from zero */
        int64_t half = 1ll << (t - 1);
        acc = acc >= 0 ? (acc + half) >> t : -((-acc + half) >> t);
    }
    return nv_sat(acc, 32);
}

/* FP16: conv_fp16.c reads the input and weights through these. */
typedef struct fp16_src {
    const cube32_t *in;
    const uint8_t *wt;
    uint32_t R, S, C, K, kg, post; /* post: an image's post-extension rows (conv_image32.h), else 1 */
} fp16_src_t;
static uint16_t fp16_data(const void *p, uint32_t c, uint32_t y, uint32_t x)
{
    const cube32_t *in = ((const fp16_src_t *)p)->in;
    return (uint16_t)cube32_atom(in, c / in->lanes, y, x)[c % in->lanes];
}
static uint16_t fp16_weight(const void *p, uint32_t k, uint32_t r, uint32_t s, uint32_t c)
{
    const fp16_src_t *f = p;
    const uint8_t *b = f->wt + weight_offset(k, r, s, c, f->R, f->S, f->C, f->K, f->kg, 64, 2, f->post);
    return (uint16_t)(b[0] | b[1] << 8);
}

/* The compressed weights, bitmap and group sizes read where CDMA's registers say (all in the weights' RAM), expanded
 * into wt; an inconsistent set is an error naming what differs (conv_wcmp.h). */
static bool expand_weights(const nvdla_dp_ctx_t *ctx, int group, const nvdla_pp_t *cdma, uint64_t space, uint32_t K,
                           uint32_t kg, uint32_t kelems, uint32_t esz, uint8_t *wt)
{
    const uint32_t groups = (K + kg - 1) / kg;
    conv_wcmp_t c = {.wt_bytes = nvdla_pp_reg(cdma, NVDLA_CDMA_D_WEIGHT_BYTES_0),
                     .wmb_bytes = nvdla_pp_reg(cdma, NVDLA_CDMA_D_WMB_BYTES_0),
                     .K = K,
                     .kg = kg,
                     .kelems = kelems,
                     .esz = esz};
    if (c.wt_bytes > NV_CUBE_MAX_BYTES || c.wmb_bytes > NV_CUBE_MAX_BYTES)
        return conv32_refuse(ctx, group, "compressed weights of %zu bytes, bitmap of %zu", c.wt_bytes, c.wmb_bytes);
    uint8_t *cw = malloc(c.wt_bytes + 1), *wmb = malloc(c.wmb_bytes + 1), *wgs = malloc(4 * groups);
    if (!cw || !wmb || !wgs) abort();
    mem_read(ctx->mem, space | nvdla_pp_reg(cdma, NVDLA_CDMA_D_WEIGHT_ADDR_LOW_0), cw, c.wt_bytes);
    mem_read(ctx->mem, space | nvdla_pp_reg(cdma, NVDLA_CDMA_D_WMB_ADDR_LOW_0), wmb, c.wmb_bytes);
    mem_read(ctx->mem, space | nvdla_pp_reg(cdma, NVDLA_CDMA_D_WGS_ADDR_LOW_0), wgs, 4 * groups);
    c.wt = cw, c.wmb = wmb, c.wgs = wgs;
    char why[200];
    const bool ok = conv_wt_expand(&c, wt, why, sizeof why);
    if (!ok) nv_dp_error(ctx, "CONV grp %d: compressed weights: %s", group, why);
    free(cw), free(wmb), free(wgs);
    return ok;
}

bool conv32_run(const nvdla_pp_t *units, const nvdla_pp_t *sdp, const nvdla_pp_t *sdp_rdma, const nvdla_pp_t *pdp,
                const nvdla_dp_ctx_t *ctx)
{
    const nvdla_pp_t *cdma = &units[CONV_CDMA], *csc = &units[CONV_CSC], *cacc = &units[CONV_CACC];
    const int group = cdma->consumer, sg = sdp->consumer;
    if (FLD(cdma, CDMA, D_MISC_CFG_0, CONV_MODE)) return conv32_wino_run(units, sdp, ctx);
    const bool image = FLD(cdma, CDMA, D_DATAIN_FORMAT_0, DATAIN_FORMAT);
    const uint32_t N = FLD(cdma, CDMA, D_BATCH_NUMBER_0, BATCHES) + 1;
    if (FLD(csc, CSC, D_BATCH_NUMBER_0, BATCHES) + 1 != N || FLD(cacc, CACC, D_BATCH_NUMBER_0, BATCHES) + 1 != N ||
        FLD(sdp, SDP, D_FEATURE_MODE_CFG_0, BATCH_NUMBER) + 1 != N)
        return conv32_refuse(ctx, group, "CDMA's %u batches differ from CSC's, CACC's or SDP's", N);
    if (image && N > 1) return conv32_refuse(ctx, group, "batches of an image (the RTL asserts against them)");
    const bool compressed = FLD(cdma, CDMA, D_WEIGHT_FORMAT_0, WEIGHT_FORMAT);
    if (compressed != (bool)FLD(csc, CSC, D_WEIGHT_FORMAT_0, WEIGHT_FORMAT))
        return conv32_refuse(ctx, group, "CDMA's and CSC's weight formats differ");
    if (FLD(csc, CSC, D_DILATION_EXT_0, X_DILATION_EXT) || FLD(csc, CSC, D_DILATION_EXT_0, Y_DILATION_EXT))
        return conv32_refuse(ctx, group, "dilation");
    unsigned in_prec = FLD(cdma, CDMA, D_MISC_CFG_0, IN_PRECISION),
             proc = FLD(cdma, CDMA, D_MISC_CFG_0, PROC_PRECISION);
    if (in_prec != proc && !image) return conv32_refuse(ctx, group, "input and processing precisions differ");
    const bool fp16 = proc == 2, cvt = FLD(cdma, CDMA, D_CVT_CFG_0, CVT_EN);
    /* CDMA's converter on FP16 feature data passes it unchanged: its cell (cmod hls/cdma_libs/cdma_cvt.cpp, the RTL's
     * NV_NVDLA_CDMA_CVT_cell.v) gives o_data = i_data at IN_PRECISION FP16, and NV_NVDLA_CDMA_cvt.v asserts only against
     * FP16 to INT8/INT16 (:3196). cmod's feature path FAILs the configuration (cdma.cpp:1219): the RTL decides. */
    const uint32_t esz = fp16 ? 2 : dp32_esz(ctx, "CONV", group, proc);
    if (!esz) return false;
    uint32_t W = FLD(cdma, CDMA, D_DATAIN_SIZE_0_0, DATAIN_WIDTH) + 1,
             C = FLD(cdma, CDMA, D_DATAIN_SIZE_1_0, DATAIN_CHANNEL) + 1;
    const uint32_t H = FLD(cdma, CDMA, D_DATAIN_SIZE_0_0, DATAIN_HEIGHT) + 1;
    uint32_t S = FLD(csc, CSC, D_WEIGHT_SIZE_EXT_0_0, WEIGHT_WIDTH_EXT) + 1;
    const uint32_t R = FLD(csc, CSC, D_WEIGHT_SIZE_EXT_0_0, WEIGHT_HEIGHT_EXT) + 1,
                   K = FLD(csc, CSC, D_WEIGHT_SIZE_EXT_1_0, WEIGHT_KERNEL) + 1;
    const uint32_t Wo = FLD(csc, CSC, D_DATAOUT_SIZE_0_0, DATAOUT_WIDTH) + 1,
                   Ho = FLD(csc, CSC, D_DATAOUT_SIZE_0_0, DATAOUT_HEIGHT) + 1;
    uint32_t sx = FLD(cdma, CDMA, D_CONV_STRIDE_0, CONV_X_STRIDE) + 1;
    const uint32_t sy = FLD(cdma, CDMA, D_CONV_STRIDE_0, CONV_Y_STRIDE) + 1;
    uint32_t pl = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_LEFT), pr = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_RIGHT);
    const uint32_t pt = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_TOP), pb = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_BOTTOM);
    int64_t pad_value = nv_sx(nvdla_pp_reg(cdma, NVDLA_CDMA_D_ZERO_PADDING_VALUE_0), 8 * esz);
    /* Image input (conv_image32.h): a feature convolution over the virtual cube of CSC's pre-extended reads, Wo wide,
     * kernel 1 x R, x stride 1, the x padding already in CDMA's lines; top and bottom rows are CSC's pad value. */
    conv_img32_t img = {0};
    if (image) {
        if (!conv_img32_decode(cdma, csc, ctx, group, proc, &img)) return false;
        /* compressed weights are expanded in the plain layout (expand_weights), not post-extension's stripes */
        if (img.post > 1 && compressed)
            return conv32_refuse(ctx, group, "image input: post-extension with compressed weights (not modelled)");
        W = img.Wo, C = img.C_ext, S = 1, sx = 1, pl = pr = 0, pad_value = img.pad_tb;
    }
    if (FLD(csc, CSC, D_WEIGHT_SIZE_EXT_1_0, WEIGHT_CHANNEL_EXT) + 1 != C)
        return conv32_refuse(ctx, group, "CSC's weight channels differ from CDMA's input channels");
    if (W + pl + pr < S || H + pt + pb < R || (W + pl + pr - S) / sx + 1 != Wo || (H + pt + pb - R) / sy + 1 != Ho)
        return conv32_refuse(ctx, group, "the output size %ux%u differs from the geometry", Wo, Ho);
    if ((uint64_t)C * R * S > (1u << 15)) return conv32_refuse(ctx, group, "a kernel of more than 2^15 elements");
    const uint32_t kg = esz == 2 ? 16 : 32, cb = 64;
    const uint64_t wbytes = (uint64_t)K * R * S * C * esz;
    if (wbytes > NV_CUBE_MAX_BYTES)
        return conv32_refuse(ctx, group, "%llu bytes of weights", (unsigned long long)wbytes);
    place32_t src = {.space = FLD(cdma, CDMA, D_DAIN_RAM_TYPE_0, DATAIN_RAM_TYPE) ? 0 : NVDLA_CV_SPACE,
                     .base = nvdla_pp_reg(cdma, NVDLA_CDMA_D_DAIN_ADDR_LOW_0_0),
                     .line = nvdla_pp_reg(cdma, NVDLA_CDMA_D_LINE_STRIDE_0),
                     .surf = nvdla_pp_reg(cdma, NVDLA_CDMA_D_SURF_STRIDE_0)};
    /* A 1x1 input marked SURF_PACKED is read as one run of its surfaces' atoms, the surface stride unused
     * (NV_NVDLA_CDMA_dc.v:2946 is_packed_1x1; cmod takes that path only when LINE_PACKED is set too). NVIDIA's firmware
     * sets SURF_PACKED iff the surface stride is 32 x W x H, when both reads are the same. */
    if (W == 1 && H == 1 && FLD(cdma, CDMA, D_DAIN_MAP_0, SURF_PACKED)) src.surf = NV_ATOM32;
    const uint64_t wspace = FLD(cdma, CDMA, D_WEIGHT_RAM_TYPE_0, WEIGHT_RAM_TYPE) ? 0 : NVDLA_CV_SPACE;
    const uint32_t waddr = nvdla_pp_reg(cdma, NVDLA_CDMA_D_WEIGHT_ADDR_LOW_0);
    if (!image && !dp32_aligned(ctx, "CDMA", group, &src)) return false;

    /* SDP on the fly, output to memory: register operands, and at FP16 also per-kernel operands from memory
     * (sdp_opdma32.h; NN_L0_0's biases) */
    sdp_x_cfg_t bs, bn;
    sdp32_opnd_t bso = {0}, bno = {0};
    /* SDP's output to PDP on the fly (pdp32_fly_pool): one batch. cmod asserts OUTPUT_DST memory with batches
     * (sdp/NV_NVDLA_sdp.cpp:1724, SdpWdmaThread), and the RTL's PDP has no batch count: its preprocessor ends the cube
     * after CHANNEL x HEIGHT x WIDTH of SDP's stream (NV_NVDLA_PDP_CORE_preproc.v), SDP's BATCH_NUMBER reaching only
     * its write DMA (NV_NVDLA_SDP_WDMA_cmd.v cfg_mode_batch) */
    const bool to_pdp = nvdla_pp_bits(sdp, SDP + 0xb0, 1, 1);
    if (to_pdp && (!pdp || N > 1))
        return conv32_refuse(ctx, group, "SDP's output to PDP%s",
                             pdp ? " with batches (cmod sdp.cpp:1724 asserts)" : "");
    if (!nvdla_pp_bits(sdp, SDP + 0x80, 0, 0)) return conv32_refuse(ctx, group, "SDP's EW stage");
    unsigned out_prec;
    uint32_t out_esz;
    place32_t dst;
    if (!conv32_sdp_out(sdp, ctx, group, fp16, Wo, Ho, K, conv32_refuse, &out_prec, &out_esz, &dst)) return false;
    /* batches: cube b read at the input's base + b x CDMA's batch stride, written at the output's + b x SDP's */
    const uint32_t in_bstride = nvdla_pp_reg(cdma, NVDLA_CDMA_D_BATCH_STRIDE_0),
                   out_bstride = nvdla_pp_reg(sdp, NVDLA_SDP_D_DST_BATCH_STRIDE_0);
    if (N > 1 && (uint64_t)in_bstride < (uint64_t)src.surf * ((C * esz + NV_ATOM32 - 1) / NV_ATOM32))
        return conv32_refuse(ctx, group, "a batch stride below the input's surfaces (cmod cdma.cpp:1050 fails it)");
    /* SDP packs a 1x1 output's surfaces for one batch only (NV_NVDLA_SDP_WDMA_cmd.v:200 cfg_mode_1x1_nbatch); with
     * batches its writes step by the strides (:503-510) */
    if (N == 1) sdp32_place_1x1(&dst, Wo, Ho);
    if (!to_pdp && !dp32_aligned(ctx, "SDP", sg, &dst)) return false;
    const uint32_t nk = (K + 15) / 16 * 16; /* FP16: operands for every lane of the output's surfaces */
    if (fp16 ? !sdp32_stage_opnd(sdp, sdp_rdma, ctx, sg, 0x58, SDP_OPDMA_B, "BS", nk, &bs, &bso) ||
                   !sdp32_stage_opnd(sdp, sdp_rdma, ctx, sg, 0x6c, SDP_OPDMA_N, "BN", nk, &bn, &bno)
             : !sdp32_stage_cfg(sdp, ctx, sg, 0x58, "BS", &bs) || !sdp32_stage_cfg(sdp, ctx, sg, 0x6c, "BN", &bn)) {
        sdp32_opnd_free(&bso), sdp32_opnd_free(&bno);
        return false;
    }

    cube32_t in, out;
    if (!cube32_alloc(ctx, "CDMA", group, &in, W, H, C, esz) ||
        !cube32_alloc(ctx, "SDP", sg, &out, Wo, Ho, K, out_esz)) {
        free(in.v);
        sdp32_opnd_free(&bso), sdp32_opnd_free(&bno);
        return false;
    }
    uint8_t *wt = malloc((size_t)wbytes);
    if (!wt) abort();
    if (!compressed) mem_read(ctx->mem, wspace | waddr, wt, wbytes);
    else if (!expand_weights(ctx, group, cdma, wspace, K, kg, R * S * C, esz, wt)) {
        free(wt), free(in.v), free(out.v);
        sdp32_opnd_free(&bso), sdp32_opnd_free(&bno);
        return false;
    }
    const unsigned t = FLD(cacc, CACC, D_CLIP_CFG_0, CLIP_TRUNCATE);
    const uint32_t off = nvdla_pp_reg(sdp, SDP + 0xc0), scale = nvdla_pp_reg(sdp, SDP + 0xc4),
                   shift = nvdla_pp_reg(sdp, SDP + 0xc8) & 63;
    const fp16_src_t fsrc = {.in = &in, .wt = wt, .R = R, .S = S, .C = C, .K = K, .kg = kg, .post = img.post};
    const conv_fp16_src_t f16 = {.C = C,
                                 .R = R,
                                 .S = S,
                                 .sx = sx,
                                 .sy = sy,
                                 .pl = pl,
                                 .pt = pt,
                                 .W = W,
                                 .H = H,
                                 .pad = (uint16_t)pad_value,
                                 .nan_flush = (int)FLD(cdma, CDMA, D_NAN_FLUSH_TO_ZERO_0, NAN_TO_ZERO),
                                 .data_flushed = image, /* conv_img32_fill flushes the pixels, not the pad */
                                 .post_rows = img.post,
                                 .ctx = &fsrc,
                                 .data = fp16_data,
                                 .weight = fp16_weight};
    const sdp_fp16_cfg_t sdp16 = {.x1 = sdp32_fp16_stage(&bs),
                                  .x2 = sdp32_fp16_stage(&bn),
                                  .nan_to_zero = nvdla_pp_bits(sdp, SDP + 0xb0, 3, 3),
                                  .out_int16 = out_prec == 1};
    for (uint32_t b = 0; b < N; b++) {
        place32_t bsrc = src, bdst = dst;
        bsrc.base += b * in_bstride, bdst.base += b * out_bstride;
        if (image) conv_img32_fill(ctx, &img, &in);
        else cube32_read(ctx, &in, &bsrc);
        /* CDMA's converter on feature data (cmod cdma DirectConvDataResponseSequencerCommon :1447, the RTL's cvt.v takes
         * the direct path's writes too: docs/nvdla_conv.md): each element signed, less CVT_OFFSET, times CVT_SCALE,
         * / 2^CVT_TRUNCATE rounded half away from zero, saturated to the precision; CSC's padding is not converted */
        if (!image && cvt && !fp16)
            for (size_t i = 0; i < (size_t)in.s * in.h * in.w * in.lanes; i++)
                in.v[i] = conv_img32_cvt((uint32_t)in.v[i], 8 * esz, true,
                                         (int16_t)FLD(cdma, CDMA, D_CVT_OFFSET_0, CVT_OFFSET),
                                         (int16_t)FLD(cdma, CDMA, D_CVT_SCALE_0, CVT_SCALE),
                                         FLD(cdma, CDMA, D_CVT_CFG_0, CVT_TRUNCATE), 8 * esz);
        for (uint32_t oy = 0; oy < Ho; oy++)
            for (uint32_t ox = 0; ox < Wo; ox++)
                for (uint32_t k = 0; k < out.s * out.lanes; k++) {
                    if (fp16) {
                        sdp_fp16_cfg_t kc = sdp16;
                        kc.x1 = sdp32_opnd_stage(kc.x1, &bso, k), kc.x2 = sdp32_opnd_stage(kc.x2, &bno, k);
                        /* an INT16 output signed, as the INT path's: PDP on the fly pools it as such (the RTL
                         * does: conv_random_cmp_pdp seed 4, an output of 0xFFFF averaged with a pad value) */
                        const uint16_t o = sdp_fp32_element(&kc, conv_fp16_output(&f16, k, oy, ox, k >= K));
                        cube32_atom(&out, k / out.lanes, oy, ox)[k % out.lanes] = sdp16.out_int16 ? (int16_t)o : o;
                        continue;
                    }
                    int64_t acc = 0;
                    for (uint32_t r = 0; k < K && r < R; r++)
                        for (uint32_t s = 0; s < S; s++) {
                            int64_t y = (int64_t)(oy * sy + r) - pt, x = (int64_t)(ox * sx + s) - pl;
                            bool pad = y < 0 || x < 0 || y >= H || x >= W;
                            for (uint32_t c = 0; c < C; c++) {
                                const uint8_t *b = wt + weight_offset(k, r, s, c, R, S, C, K, kg, cb, esz, img.post);
                                int64_t wv = esz == 2 ? nv_sx(b[0] | (b[1] << 8), 16) : nv_sx(b[0], 8);
                                int64_t d =
                                    pad ? pad_value
                                        : cube32_atom(&in, c / in.lanes, (uint32_t)y, (uint32_t)x)[c % in.lanes];
                                acc += d * wv;
                            }
                        }
                    int64_t v = sdp_x_stage(&bs, cacc_round(acc, t), bs.alu_reg, bs.mul_reg);
                    v = sdp_x_stage(&bn, v, bn.alu_reg, bn.mul_reg);
                    cube32_atom(&out, k / out.lanes, oy, ox)[k % out.lanes] =
                        sdp_cvt_bits(v, off, scale, shift, 8 * out_esz, NULL);
                }
        if (to_pdp) pdp32_fly_pool(pdp, ctx, pdp->consumer, &out);
        else cube32_write(ctx, &out, &bdst, "SDP", sg);
    }
    sdp32_opnd_free(&bso), sdp32_opnd_free(&bno);
    free(wt);
    free(in.v);
    free(out.v);
    return true;
}
