/* Image input of nv_small's convolution (CDMA.D_DATAIN_FORMAT = pixel): how CDMA turns a pitch-linear pixel
 * surface into CBUF lines, and how CSC reads them. Facts from NVIDIA's nv_small RTL (the oracle):
 *  - formats: T_R8 (1 byte a pixel), the 8-bit 4-byte packed orders, whose bytes CDMA reorders so that the
 *    CBUF holds R,G,B,A (Y,U,V,A) (NV_NVDLA_CDMA_IMG_ctrl.v: pixel_order, NV_NVDLA_CDMA_IMG_sg.v:
 *    rsp_img_data_sw_o1/o3/o5), and 8-bit semi-planar YUV 4:4:4 (3 bytes a pixel in the CBUF: Y, U, V);
 *  - a CBUF line is pad_left + width + pad_right pixels, the padding pixels being CDMA.PAD_VALUE[7:0]
 *    (NV_NVDLA_CDMA_cvt.v: cvt_out_data_masked), written after the converter;
 *  - the converter (CVT_EN) computes sat8(round((pixel - op) * scale >> truncate)), op being the mean of the
 *    byte's channel when MEAN_FORMAT is on, else CVT_OFFSET (NV_NVDLA_CDMA_cvt.v: oprand_1_*_ori,
 *    NV_NVDLA_CDMA_CVT_cell.v); the mean is therefore ignored while CVT_EN = 0;
 *  - CSC reads, for output column x, kernel row r, the bytes x * stride_x * C + j (j < WEIGHT_CHANNEL_EXT+1 =
 *    kernel width x C, "channel pre-extension") of CBUF line y * stride_y + r - pad_top; rows outside the
 *    image are CSC.PAD_VALUE[7:0] (NV_NVDLA_CSC_dl.v: pixel_x_stride_w, dat_img_req_dummy); with
 *    post-extension (CSC.D_POST_Y_EXTENSION) 2 or 4 kernel rows share an atom, which changes the weight
 *    layout only (conv_golden.c post_ext_offset). */
#ifndef CONV_IMAGE_H
#define CONV_IMAGE_H
#include <stdbool.h>
#include <stdint.h>

/* Pixel format: bytes a pixel and, for each CBUF byte of a pixel, which byte of the pixel in memory it is.
 * False for formats the model does not compute. */
bool conv_image_format(uint32_t pixel_format, unsigned *bpp, uint8_t order[4]);
const char *conv_image_format_name(uint32_t pixel_format);

/* CDMA's converter of one pixel byte: operand op (mean or CVT_OFFSET), scale, truncate (0..63). */
int8_t conv_image_cvt(uint8_t px, bool is_signed, int16_t op, int16_t scale, unsigned truncate);

/* What CDMA writes into the CBUF for one image, as decoded from its registers. */
typedef struct conv_image_cfg {
    uint32_t base, line_stride, width, height, x_offset;
    uint32_t uv_base, uv_stride; /* semi-planar (bpp 3): the UV plane, 2 bytes a pixel */
    unsigned bpp;
    uint8_t order[4];
    uint32_t pad_l, pad_r;
    uint8_t pad_value; /* CDMA.D_ZERO_PADDING_VALUE[7:0] */
    bool cvt, mean, is_signed;
    int16_t offset, scale, means[4]; /* means: RY, GU, BV, AX */
    unsigned truncate;
} conv_image_cfg_t;

/* Fills lines (height x (pad_l + width + pad_r) x bpp bytes) from the memory image of the pixel rows (row y at
 * rows + y * line_stride, read from base) and, semi-planar, of the UV rows (uv_rows + y * uv_stride, from
 * uv_base; NULL for packed formats). */
void conv_image_lines(const conv_image_cfg_t *c, const uint8_t *rows, const uint8_t *uv_rows, int8_t *lines);
#endif
