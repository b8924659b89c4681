/* Image input of nv_full's direct convolution (CDMA.D_DATAIN_FORMAT = pixel), 32-byte atoms and 128-byte CBUF entries.
 * What it follows, NVIDIA's cmod the reference (cdma/NV_NVDLA_cdma.cpp ImageConvDataResponseSequencerCommon,
 * process_one_element_8/16, hls_convertor; csc/NV_NVDLA_csc.cpp SendImageDataToMacSequencerConvCommon,
 * csc_read_one_image_entry), the RTL for the format list (cdma/NV_NVDLA_CDMA_IMG_ctrl.v: pixel formats 0x00-0x23,
 * their precision and byte order), NVIDIA's firmware for the programming (kmd/firmware/conv.c):
 *  - a pixel format is a row of conv_img32_formats[]: its elements a pixel in the CBUF (1 R/Y, 3 Y+UV, 4 RGBA/YUVA), the
 *    element's bytes in memory, the CBUF order of the memory elements, packed 10-bit fields, one or two planes;
 *  - CDMA writes each input line as pad_left + width + pad_right pixels of converted elements (CDMA.PAD_VALUE: its low
 *    8 bits at INT8, 16 at INT16/FP16, not converted), one line every ENTRY_PER_SLICE 128-byte entries;
 *  - the converter (CVT_EN): (element - op) x scale / 2^truncate rounded half away from zero, saturated to the
 *    processing precision; the element unsigned unless PIXEL_SIGN_OVERRIDE; op = MEAN_RY/GU/BV/AX by the element's
 *    CBUF position with MEAN_FORMAT, else CVT_OFFSET;
 *  - CSC reads, for output (x, y) and kernel row r, the WEIGHT_CHANNEL_EXT + 1 = kernel width x elements of line
 *    y x stride_y + r - pad_top from element x x stride_x x elements (channel pre-extension); rows outside the image
 *    are CSC.PAD_VALUE. The kernel is 1 wide, its channels the pre-extended ones: NVIDIA's weight layout then holds
 *    them in 64-channel blocks like a feature kernel's.
 *  - precision conversion with the converter: 8-bit pixels (IN_PRECISION INT8) processed at INT16, 16-bit ones
 *    (IN_PRECISION INT16, the packed 10-bit too) at INT8: the same arithmetic saturated to the processing precision,
 *    the CBUF line then of elements of that precision (cmod convert_8to16 / convert_16to8,
 *    cdma_converted_bytes_per_pixel = elements x its bytes).
 *  - 8/16-bit pixels processed at FP16 (the converter on: NV_NVDLA_CDMA_cvt.v:3149 asserts against a precision change
 *    without it): the same (element - op) x scale, / 2^truncate rounded half away from zero and saturated to 17 bits,
 *    then FpIntToFloat<17,5,10> (round to nearest even; what rounds past 65504 is +-65504, SetToInf being the largest
 *    finite value): cmod hls/cdma_libs/cdma_cvt.cpp,
 *    the source of the RTL's NV_NVDLA_CDMA_CVT_cell.v (conv_img32_cell). FP16 pixels with the converter on pass it
 *    unchanged (cdma_cvt.cpp: in_precision FP16 gives o_data = i_data; offset, means, scale and truncation unused).
 *    A NaN pixel is flushed to +0 with NAN_FLUSH_TO_ZERO before the converter, CDMA's pad value (a NaN too) never.
 *    FP16 pixels processed at INT8/INT16 are refused: the RTL asserts against it (NV_NVDLA_CDMA_cvt.v:3196, 'invalid
 *    precision transform').
 *  - post-extension (CSC.D_POST_Y_EXTENSION, e = 2 or 4 rows): a stripe's e kernel rows share one MAC cell, row i at
 *    channels i x 64 / e (csc.cpp :1745-1790), the weights laid out by stripes (conv_img32_post_wt_offset); the sums
 *    are the same at INT8/INT16, FP16 adds one cell a stripe (conv_fp16's post_rows).
 *  - the x offset: the Y (or only) plane's pixels from PIXEL_X_OFFSET, the UV plane's from it modulo its first atom
 *    (NV_NVDLA_CDMA_IMG_ctrl.v:2486 pixel_planar1_x_offset = offset & planar1 mask; cmod :2335).
 * So the layer is a feature convolution over a virtual cube: width = output width, channels = pre-extended
 * channels, kernel 1 x R, x stride 1, no x padding (conv_atom32.c computes it). Refused, by name, what the RTL asserts
 * against (FP16 pixels at INT8/INT16, a precision change without the converter, Y offsets, an x offset past the Y or
 * packed plane's first atom, block-linear mapping, post-extension past its channel and stride limits, IN_PRECISION
 * other than the format's) and programming the units disagree on (docs/nvdla_nv_full.md "Image input"). */
#ifndef CONV_IMAGE32_H
#define CONV_IMAGE32_H
#include "dp_atom32.h"
#include "nvdla_pp.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Coverage groups of the pixel formats. */
typedef enum {
    IMG32_G_8_1CH,  /* R8 */
    IMG32_G_8_4CH,  /* 8-bit RGBA / YUVA orders */
    IMG32_G_8_SP,   /* 8-bit semi-planar YUV 4:4:4 */
    IMG32_G_16_1CH, /* R10, R12, R16, R16_I */
    IMG32_G_16_4CH, /* 16-bit RGBA / YUVA orders */
    IMG32_G_10_PK,  /* 10-bit packed in 32-bit words, A2 */
    IMG32_G_16_SP,  /* 10/12/16-bit semi-planar */
    IMG32_G_FP16,   /* FP16 R, RGBA, YUVA */
    IMG32_NGROUPS
} conv_img32_group_t;
extern const char *const conv_img32_group_names[IMG32_NGROUPS];

typedef struct conv_img32_fmt {
    uint8_t code;     /* CDMA.D_DATAIN_FORMAT.PIXEL_FORMAT */
    const char *name; /* arnvdla.h's, without T_ */
    uint8_t elems;    /* elements a pixel in the CBUF */
    uint8_t esz;      /* bytes an element in memory (packed 10-bit: 2 after unpacking, the pixel a 4-byte word) */
    uint8_t bpp;      /* bytes a pixel in memory (semi-planar: in the Y plane; the UV plane has 2 x esz) */
    uint8_t prec;     /* its precision (0 INT8, 1 INT16, 2 FP16): IN_PRECISION, and PROC_PRECISION unless converted */
    bool planar;      /* semi-planar: element 0 from the Y plane, 1 and 2 from the UV plane */
    bool p10;         /* packed 10-bit: element i = ((word >> shift[i]) & (2^width[i] - 1)) << (16 - width[i]) */
    uint8_t order[4]; /* CBUF element i is memory element order[i] of the pixel (semi-planar: 1, 2 = the UV pair) */
    uint8_t shift[4], width[4];
    conv_img32_group_t group;
} conv_img32_fmt_t;
extern const conv_img32_fmt_t conv_img32_formats[];
extern const unsigned conv_img32_nformats;
/* The row of a PIXEL_FORMAT, NULL for none. */
const conv_img32_fmt_t *conv_img32_format(uint32_t code);

/* CDMA's converter of one element: raw (8 or 16 bits, in_bits), op, scale, truncate; saturated to out_bits. */
int32_t conv_img32_cvt(uint32_t raw, unsigned in_bits, bool is_signed, int32_t op, int32_t scale, unsigned truncate,
                       unsigned out_bits);

/* CDMA's converter cell on one element (cmod hls/cdma_libs/cdma_cvt.cpp = NV_NVDLA_CDMA_CVT_cell.v): FP16 pixels
 * (in_prec 2) pass unchanged; otherwise conv_img32_cvt saturated to 17 bits then made FP16 when proc is FP16 (2), else
 * saturated to proc's 8 or 16 bits. The CBUF's element: an integer sign-extended, FP16 as its 16 bits. */
int32_t conv_img32_cell(uint32_t raw, unsigned in_prec, unsigned in_bits, bool is_signed, int32_t op, int32_t scale,
                        unsigned truncate, unsigned proc);

/* The image as decoded: what conv32_run needs to run it as a feature convolution over the virtual cube. */
typedef struct conv_img32 {
    const conv_img32_fmt_t *fmt;
    uint32_t W, H, x_offset, pl, pr, sx, S, C_ext; /* C_ext = S x elements, CSC's WEIGHT_CHANNEL_EXT + 1 */
    uint32_t Wo;                                   /* CSC's output width */
    uint32_t post;                                 /* CSC's post-extension: kernel rows a MAC cell (1, 2, 4) */
    uint64_t space;                                /* 0 or NVDLA_CV_SPACE (CDMA.D_DAIN_RAM_TYPE) */
    uint32_t base, line, uv_base, uv_line;
    int32_t pad_lr, pad_tb; /* CDMA's and CSC's pad values as elements (INT: sign-extended; FP16: bits) */
    bool cvt, mean, is_signed;
    unsigned proc;  /* CDMA's PROC_PRECISION */
    bool nan_flush; /* CDMA's NAN_FLUSH_TO_ZERO */
    int32_t offset, scale, means[4];
    unsigned truncate;
} conv_img32_t;
/* Decodes CDMA's and CSC's image registers of the CONSUMER group (proc: CDMA's PROC_PRECISION); false after an error
 * naming what is refused. */
bool conv_img32_decode(const nvdla_pp_t *cdma, const nvdla_pp_t *csc, const nvdla_dp_ctx_t *ctx, int group,
                       unsigned proc, conv_img32_t *im);
/* Fills `in` (allocated: Wo x H x C_ext elements of the processing precision) with the virtual cube: element c of
 * (y, x) is element x x sx x elems + c of CBUF line y. With NAN_FLUSH_TO_ZERO, an FP16 pixel's NaN is +0 (before the
 * converter) and CDMA's pad value is not flushed (cmod cdma.cpp:2431 flushes the fetched lines, the pad comes after;
 * NV_NVDLA_CDMA_cvt.v flushes at :1951, inserts the pad at :9835), so conv_fp16 must not flush this data again. */
void conv_img32_fill(const nvdla_dp_ctx_t *ctx, const conv_img32_t *im, cube32_t *in);
/* Byte offset of weight w[k][r][c] (the pre-extended kernel: R rows of C channels, kg kernels a group) with
 * post-extension by `post` rows (cmod csc.cpp:1150-1160, kernel_atom_size_index): kernel groups, then stripes of post
 * rows (the last one the R % post left), then the group's kernels, then the stripe's rows of C channels. */
size_t conv_img32_post_wt_offset(uint32_t k, uint32_t r, uint32_t c, uint32_t R, uint32_t C, uint32_t K, uint32_t kg,
                                 uint32_t post, uint32_t esz);
#endif
