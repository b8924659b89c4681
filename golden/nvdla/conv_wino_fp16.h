/* Winograd convolution F(2x2, 3x3) at FP16 on nv_full (docs/nvdla_nv_full.md, "Winograd convolution at FP16", each
 * step with its evidence in NVIDIA's RTL and C model). Three steps, each the FP16 form of its INT one:
 * - CSC's PRA (the input transform Bt d B) in FP17: each element FP16 -> FP17, the eight subtractions and additions
 *   of cmod's csc_cvt.cpp in its order with the FP17 add (nvdla_fp16.h: denormals read with an implied 1, no sticky
 *   bit, round to nearest even, saturation), each result FP17 -> FP16; D_PRA_CFG is not used;
 * - CMAC's FP16 cell in Winograd mode: the 64 products (16 positions x 4 channels, element pos * 4 + channel) aligned
 *   to the cell's one exponent exactly as in direct mode (conv_fp16.h), summed per position, then the output
 *   transform At m A on those integer sums; the four results share the exponent; a NaN makes all four that NaN;
 * - CACC adds each output's results over the 4-channel blocks in FP48 (conv_fp16_acc_add), in CSC's order (blocks
 *   of 4 channels, cmod csc.cpp SendDataToMacSequencerWinoConvCommon), then delivers FP32 to SDP. */
#ifndef CONV_WINO_FP16_H
#define CONV_WINO_FP16_H
#include <stdint.h>

/* CSC's PRA of one channel's 4x4 tile d[y * 4 + x] of FP16 bits: out = FP16(Bt d B), each sum in FP17. */
void conv_wino_fp16_pra(const uint16_t d[16], uint16_t out[16]);
/* CMAC's Winograd FP16 cell: dat and wt hold element pos * 4 + channel (4 channels at 16 positions); res[r * 2 + c]
 * is output (r, c) of the 2x2 tile as a 44-bit cell result (conv_fp16_cell's format). */
void conv_wino_fp16_cell(const uint16_t dat[64], const uint16_t wt[64], uint64_t res[4]);

/* A layer's inputs through callbacks (as conv_wino_src_t): data(c, y, x) is channel c of the extended plane (FP16
 * bits, the pad value outside the cube), weight(k, c, pos) the transformed weight. */
typedef struct conv_wino_fp16_src {
    uint32_t C;    /* CSC's channels, a multiple of 4 */
    int nan_flush; /* CDMA D_NAN_FLUSH_TO_ZERO: a NaN in the extended plane or the weights reaches CBUF as +0 */
    const void *ctx;
    uint16_t (*data)(const void *ctx, uint32_t c, uint32_t y, uint32_t x);
    uint16_t (*weight)(const void *ctx, uint32_t k, uint32_t c, uint32_t pos);
} conv_wino_fp16_src_t;

/* The FP32 CACC delivers to SDP for kernel k at output (oy, ox); `zero_weights` for a kernel past the last: +0. */
uint32_t conv_wino_fp16_output(const conv_wino_fp16_src_t *s, uint32_t k, uint32_t oy, uint32_t ox, int zero_weights);
#endif
