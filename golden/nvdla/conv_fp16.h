/* Direct convolution at FP16 on nv_full: CMAC's FP16 MAC cell, CACC's FP48 accumulation and its FP32 delivery to
 * SDP, in CSC's order of atoms (docs/nvdla_nv_full.md, "FP16 convolution", each step with its evidence in NVIDIA's
 * RTL and C model). The sums are not IEEE arithmetic: a cell aligns its 64 products to the largest exponent (in steps
 * of 4) and truncates each, CACC adds the cells' results in a 40-bit two's complement mantissa with its own
 * rounding, so the order matters and is CSC's: 64-channel blocks outer, kernel positions (r, then s) inner. */
#ifndef CONV_FP16_H
#define CONV_FP16_H
#include <stdbool.h>
#include <stdint.h>

#define CONV_FP16_CELL 64u /* channels of one MAC cell operation at FP16 (CMAC PARALLEL_CHANNEL_NUM) */

/* One cell: 64 FP16 data and weights (channels of one block at one kernel position; 0 past the cube). Returns the
 * cell's 44-bit result: exponent [43:38] (a multiple of 4, or 0x3f for a NaN) and a 38-bit two's complement sum of
 * the aligned products [37:0]; a NaN keeps its sign [37] and fraction [36:27]. */
uint64_t conv_fp16_cell(const uint16_t dat[CONV_FP16_CELL], const uint16_t wt[CONV_FP16_CELL]);
/* The cell's two halves, for Winograd's cell (conv_wino_fp16.h), which sums the same products otherwise: the NaN
 * check (true, and the NaN result, when a weight or a data element is a NaN), and the 64 products aligned to the
 * cell's exponent, which is returned (a multiple of 4: the result's [43:38]). */
bool conv_fp16_nan(const uint16_t dat[CONV_FP16_CELL], const uint16_t wt[CONV_FP16_CELL], uint64_t *result);
uint32_t conv_fp16_products(const uint16_t dat[CONV_FP16_CELL], const uint16_t wt[CONV_FP16_CELL],
                            int32_t prod[CONV_FP16_CELL]);
/* CACC's FP48 accumulator (exponent [47:40], 40-bit two's complement mantissa [39:0]) plus a cell's result. */
uint64_t conv_fp16_acc_add(uint64_t acc, uint64_t cell);
/* CACC's delivery of an FP48 accumulator to SDP: FP32 bits. */
uint32_t conv_fp16_acc_to_fp32(uint64_t acc);

/* An output element's inputs, read through callbacks so that the model and the stimulus generator each supply their
 * own reading of memory: the data element (channel c of input pixel (y, x), the padding value outside the cube) and
 * the weight w[k][r][s][c]. */
typedef struct conv_fp16_src {
    uint32_t C, R, S, sx, sy, pl, pt, W, H;
    uint16_t pad;       /* CDMA/CSC D_ZERO_PADDING_VALUE, FP16 (CSC's: not flushed) */
    int nan_flush;      /* CDMA D_NAN_FLUSH_TO_ZERO: a NaN in the input or the weights is written to CBUF as +0 */
    int data_flushed;   /* `data` is already flushed (image input: CDMA flushes the fetched pixels, not its own left and
                       * right pad value, which may be a NaN): the flush then applies to the weights only */
    uint32_t post_rows; /* an image's post-extension (CSC.D_POST_Y_EXTENSION: 2 or 4; 0 or 1 none): that many kernel
                         * rows share one cell, 64 / post_rows channels each (C at most that, S 1) */
    const void *ctx;
    uint16_t (*data)(const void *ctx, uint32_t c, uint32_t y, uint32_t x);
    uint16_t (*weight)(const void *ctx, uint32_t k, uint32_t r, uint32_t s, uint32_t c);
} conv_fp16_src_t;

/* The FP32 CACC delivers to SDP for kernel k at output (oy, ox); `zero_weights` for a kernel past the last (the pad
 * lanes of the last output surface): its MAC cell is not enabled, +0. */
uint32_t conv_fp16_output(const conv_fp16_src_t *s, uint32_t k, uint32_t oy, uint32_t ox, int zero_weights);
#endif
