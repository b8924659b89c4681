/* Image input of nv_full's direct convolution: the rules and their evidence are at the top of conv_image32.h. */
#include "conv_image32.h"
#include "nvdla_dp_math.h"
#include "nvdla_fp16.h"
#include "nvdla_regs.h"
#include <stdlib.h>

const char *const conv_img32_group_names[IMG32_NGROUPS] = {"8bit_1ch",  "8bit_4ch",     "8bit_semiplanar",  "16bit_1ch",
                                                           "16bit_4ch", "10bit_packed", "16bit_semiplanar", "fp16"};

/* The orders (CBUF element i <- memory element order[i]) are cmod's rgba_idx per format, which are nv_small's byte
 * swizzles (conv_image.c) at either element size: {0,1,2,3} ABGR; {2,1,0,3} ARGB, AYUV; {1,2,3,0} BGRA, VUYA; {3,2,1,0}
 * RGBA; semi-planar {0,2,1} for U,V in memory (CBUF Y, V, U), {0,1,2} for V,U. The packed 10-bit fields are cmod's
 * (A2B10G10R10: R bits 9:0, G 19:10, B 29:20, A 31:30). */
#define P(c, n, el, es, bp, pr, g) .code = c, .name = n, .elems = el, .esz = es, .bpp = bp, .prec = pr, .group = g
const conv_img32_fmt_t conv_img32_formats[] = {
    {P(0x00, "R8", 1, 1, 1, 0, IMG32_G_8_1CH), .order = {0, 1, 2, 3}},
    {P(0x01, "R10", 1, 2, 2, 1, IMG32_G_16_1CH), .order = {0, 1, 2, 3}},
    {P(0x02, "R12", 1, 2, 2, 1, IMG32_G_16_1CH), .order = {0, 1, 2, 3}},
    {P(0x03, "R16", 1, 2, 2, 1, IMG32_G_16_1CH), .order = {0, 1, 2, 3}},
    {P(0x04, "R16_I", 1, 2, 2, 1, IMG32_G_16_1CH), .order = {0, 1, 2, 3}},
    {P(0x05, "R16_F", 1, 2, 2, 2, IMG32_G_FP16), .order = {0, 1, 2, 3}},
    {P(0x06, "A16B16G16R16", 4, 2, 8, 1, IMG32_G_16_4CH), .order = {0, 1, 2, 3}},
    {P(0x07, "X16B16G16R16", 4, 2, 8, 1, IMG32_G_16_4CH), .order = {0, 1, 2, 3}},
    {P(0x08, "A16B16G16R16_F", 4, 2, 8, 2, IMG32_G_FP16), .order = {0, 1, 2, 3}},
    {P(0x09, "A16Y16U16V16", 4, 2, 8, 1, IMG32_G_16_4CH), .order = {2, 1, 0, 3}},
    {P(0x0a, "V16U16Y16A16", 4, 2, 8, 1, IMG32_G_16_4CH), .order = {1, 2, 3, 0}},
    {P(0x0b, "A16Y16U16V16_F", 4, 2, 8, 2, IMG32_G_FP16), .order = {2, 1, 0, 3}},
    {P(0x0c, "A8B8G8R8", 4, 1, 4, 0, IMG32_G_8_4CH), .order = {0, 1, 2, 3}},
    {P(0x0d, "A8R8G8B8", 4, 1, 4, 0, IMG32_G_8_4CH), .order = {2, 1, 0, 3}},
    {P(0x0e, "B8G8R8A8", 4, 1, 4, 0, IMG32_G_8_4CH), .order = {1, 2, 3, 0}},
    {P(0x0f, "R8G8B8A8", 4, 1, 4, 0, IMG32_G_8_4CH), .order = {3, 2, 1, 0}},
    {P(0x10, "X8B8G8R8", 4, 1, 4, 0, IMG32_G_8_4CH), .order = {0, 1, 2, 3}},
    {P(0x11, "X8R8G8B8", 4, 1, 4, 0, IMG32_G_8_4CH), .order = {2, 1, 0, 3}},
    {P(0x12, "B8G8R8X8", 4, 1, 4, 0, IMG32_G_8_4CH), .order = {1, 2, 3, 0}},
    {P(0x13, "R8G8B8X8", 4, 1, 4, 0, IMG32_G_8_4CH), .order = {3, 2, 1, 0}},
    {P(0x14, "A2B10G10R10", 4, 2, 4, 1, IMG32_G_10_PK), .p10 = true, .shift = {0, 10, 20, 30},
     .width = {10, 10, 10, 2}},
    {P(0x15, "A2R10G10B10", 4, 2, 4, 1, IMG32_G_10_PK), .p10 = true, .shift = {20, 10, 0, 30},
     .width = {10, 10, 10, 2}},
    {P(0x16, "B10G10R10A2", 4, 2, 4, 1, IMG32_G_10_PK), .p10 = true, .shift = {2, 12, 22, 0}, .width = {10, 10, 10, 2}},
    {P(0x17, "R10G10B10A2", 4, 2, 4, 1, IMG32_G_10_PK), .p10 = true, .shift = {22, 12, 2, 0}, .width = {10, 10, 10, 2}},
    {P(0x18, "A2Y10U10V10", 4, 2, 4, 1, IMG32_G_10_PK), .p10 = true, .shift = {20, 10, 0, 30},
     .width = {10, 10, 10, 2}},
    {P(0x19, "V10U10Y10A2", 4, 2, 4, 1, IMG32_G_10_PK), .p10 = true, .shift = {2, 12, 22, 0}, .width = {10, 10, 10, 2}},
    {P(0x1a, "A8Y8U8V8", 4, 1, 4, 0, IMG32_G_8_4CH), .order = {2, 1, 0, 3}},
    {P(0x1b, "V8U8Y8A8", 4, 1, 4, 0, IMG32_G_8_4CH), .order = {1, 2, 3, 0}},
    {P(0x1c, "Y8___U8V8_N444", 3, 1, 1, 0, IMG32_G_8_SP), .planar = true, .order = {0, 2, 1, 3}},
    {P(0x1d, "Y8___V8U8_N444", 3, 1, 1, 0, IMG32_G_8_SP), .planar = true, .order = {0, 1, 2, 3}},
    {P(0x1e, "Y10___U10V10_N444", 3, 2, 2, 1, IMG32_G_16_SP), .planar = true, .order = {0, 2, 1, 3}},
    {P(0x1f, "Y10___V10U10_N444", 3, 2, 2, 1, IMG32_G_16_SP), .planar = true, .order = {0, 1, 2, 3}},
    {P(0x20, "Y12___U12V12_N444", 3, 2, 2, 1, IMG32_G_16_SP), .planar = true, .order = {0, 2, 1, 3}},
    {P(0x21, "Y12___V12U12_N444", 3, 2, 2, 1, IMG32_G_16_SP), .planar = true, .order = {0, 1, 2, 3}},
    {P(0x22, "Y16___U16V16_N444", 3, 2, 2, 1, IMG32_G_16_SP), .planar = true, .order = {0, 2, 1, 3}},
    {P(0x23, "Y16___V16U16_N444", 3, 2, 2, 1, IMG32_G_16_SP), .planar = true, .order = {0, 1, 2, 3}},
};
#undef P
const unsigned conv_img32_nformats = sizeof conv_img32_formats / sizeof *conv_img32_formats;

const conv_img32_fmt_t *conv_img32_format(uint32_t code)
{
    for (unsigned i = 0; i < conv_img32_nformats; i++)
        if (conv_img32_formats[i].code == code) return &conv_img32_formats[i];
    return NULL;
}

/* cmod hls_convertor: (x - op) x scale as a 64-bit integer, / 2^t rounded half away from zero (its double is exact:
 * |product| < 2^35), saturated to the output's bits. */
int32_t conv_img32_cvt(uint32_t raw, unsigned in_bits, bool is_signed, int32_t op, int32_t scale, unsigned truncate,
                       unsigned out_bits)
{
    const int64_t x = is_signed ? nv_sx(raw, in_bits) : (int64_t)(raw & ((1u << in_bits) - 1));
    int64_t v = (x - op) * scale;
    if (truncate) {
        const unsigned t = truncate > 62 ? 62 : truncate;
        const int64_t a = v < 0 ? -v : v, r = (a + ((int64_t)1 << (t - 1))) >> t;
        v = v < 0 ? -r : r;
    }
    return (int32_t)nv_sat(v, out_bits);
}

int32_t conv_img32_cell(uint32_t raw, unsigned in_prec, unsigned in_bits, bool is_signed, int32_t op, int32_t scale,
                        unsigned truncate, unsigned proc)
{
    if (in_prec == 2) return (int32_t)nv_sx(raw, 16); /* cdma_cvt.cpp: in_precision FP16, o_data = i_data */
    if (proc != 2) return conv_img32_cvt(raw, in_bits, is_signed, op, scale, truncate, proc ? 16 : 8);
    /* IntShiftRight<34,6,17> (AC_RND_INF, AC_SAT) then FpIntToFloat<17,5,10> */
    return (int32_t)nv_int17_to_fp16((uint32_t)conv_img32_cvt(raw, in_bits, is_signed, op, scale, truncate, 17));
}

bool conv_img32_decode(const nvdla_pp_t *cdma, const nvdla_pp_t *csc, const nvdla_dp_ctx_t *ctx, int group,
                       unsigned proc, conv_img32_t *im)
{
    const uint32_t code = FLD(cdma, CDMA, D_DATAIN_FORMAT_0, PIXEL_FORMAT);
    const conv_img32_fmt_t *f = im->fmt = conv_img32_format(code);
    if (!f)
        return conv32_refuse(
            ctx, group, "image input: PIXEL_FORMAT 0x%x does not exist (NV_NVDLA_CDMA_IMG_ctrl.v: 0x00-0x23)", code);
    /* IN_PRECISION is the format's (cmod's element size of the fetch); PROC_PRECISION may differ only through the
     * converter (cmod convert_8to16 / convert_16to8, cdma_cvt.cpp's FP16 output), never from FP16 pixels */
    const unsigned in_prec = FLD(cdma, CDMA, D_MISC_CFG_0, IN_PRECISION);
    const bool cvt_en = FLD(cdma, CDMA, D_CVT_CFG_0, CVT_EN);
    if (f->prec != in_prec)
        return conv32_refuse(ctx, group,
                             "image input: IN_PRECISION %u with a pixel format of precision %u "
                             "(NV_NVDLA_CDMA_IMG_ctrl.v:4381-4475 assert 'Unmatch input precision')",
                             in_prec, f->prec);
    if (proc > 2) return conv32_refuse(ctx, group, "image input: PROC_PRECISION %u does not exist", proc);
    if (in_prec == 2 && proc != 2)
        return conv32_refuse(ctx, group,
                             "image input: FP16 pixels processed at %s (NV_NVDLA_CDMA_cvt.v:3196 asserts 'invalid "
                             "precision transform')",
                             proc ? "INT16" : "INT8");
    if (proc != in_prec && !cvt_en)
        return conv32_refuse(ctx, group,
                             "image input: PROC_PRECISION %u from pixels of precision %u without the converter "
                             "(NV_NVDLA_CDMA_cvt.v:3149 asserts 'cvt mode is not enable when format change')",
                             proc, in_prec);
    if (FLD(csc, CSC, D_DATAIN_FORMAT_0, DATAIN_FORMAT) != 1)
        return conv32_refuse(ctx, group, "image input: CSC.D_DATAIN_FORMAT is feature, CDMA's pixel");
    if (FLD(cdma, CDMA, D_DATAIN_FORMAT_0, PIXEL_MAPPING))
        return conv32_refuse(ctx, group,
                             "image input: PIXEL_MAPPING = 1 (block linear: NV_NVDLA_CDMA_IMG_ctrl.v:2262 asserts)");
    if (FLD(cdma, CDMA, D_PIXEL_OFFSET_0, PIXEL_Y_OFFSET))
        return conv32_refuse(
            ctx, group,
            "image input: PIXEL_Y_OFFSET = %u (NV_NVDLA_CDMA_IMG_sg.v:840 asserts 'Pixel height offset "
            "is not zero')",
            FLD(cdma, CDMA, D_PIXEL_OFFSET_0, PIXEL_Y_OFFSET));
    const uint32_t yext = FLD(csc, CSC, D_POST_Y_EXTENSION_0, Y_EXTENSION);
    if (yext == 3)
        return conv32_refuse(ctx, group,
                             "image input: CSC.D_POST_Y_EXTENSION = 3 (NV_NVDLA_CSC_sg.v:4216 asserts 'out of range')");
    im->post = 1u << yext;
    im->W = FLD(cdma, CDMA, D_DATAIN_SIZE_0_0, DATAIN_WIDTH) + 1;
    im->H = FLD(cdma, CDMA, D_DATAIN_SIZE_0_0, DATAIN_HEIGHT) + 1;
    const uint32_t cin = FLD(cdma, CDMA, D_DATAIN_SIZE_1_0, DATAIN_CHANNEL) + 1,
                   cext = FLD(csc, CSC, D_DATAIN_SIZE_EXT_1_0, DATAIN_CHANNEL_EXT) + 1;
    if (cin != f->elems || cext != f->elems)
        return conv32_refuse(ctx, group,
                             "image input: CDMA/CSC input channels %u/%u differ from the pixel format's elements", cin,
                             cext);
    if (FLD(csc, CSC, D_WEIGHT_SIZE_EXT_0_0, WEIGHT_WIDTH_EXT))
        return conv32_refuse(ctx, group,
                             "image input: CSC.WEIGHT_WIDTH_EXT = %u: the kernel must be pre-extended (width 1; cmod "
                             "csc FAILs otherwise)",
                             FLD(csc, CSC, D_WEIGHT_SIZE_EXT_0_0, WEIGHT_WIDTH_EXT));
    im->C_ext = FLD(csc, CSC, D_WEIGHT_SIZE_EXT_1_0, WEIGHT_CHANNEL_EXT) + 1;
    if (im->C_ext % f->elems)
        return conv32_refuse(
            ctx, group, "image input: CSC.WEIGHT_CHANNEL_EXT + 1 = %u is not a multiple of the %u elements a pixel",
            im->C_ext, f->elems);
    im->S = im->C_ext / f->elems;
    /* post-extension: the rows of a stripe share CMAC's 64 channels, 64 / rows each (csc.cpp:1745-1790) */
    if (im->post > 1 && im->C_ext * im->post > 64)
        return conv32_refuse(
            ctx, group,
            "image input: %u post-extension rows of %u channels exceed CMAC's 64 (NV_NVDLA_CSC_sg.v:4263 "
            "asserts 'too big for channel')",
            im->post, im->C_ext);
    /* the offset is the Y plane's (or the packed plane's) pixels within its first atom (NV_NVDLA_CDMA_IMG_ctrl.v:4334
     * asserts x offset & ~planar0 mask = 0); the UV plane takes it modulo its own atom (img_element) */
    im->x_offset = FLD(cdma, CDMA, D_PIXEL_OFFSET_0, PIXEL_X_OFFSET);
    if (im->x_offset * (f->planar ? f->esz : f->bpp) >= NV_ATOM32)
        return conv32_refuse(ctx, group,
                             "image input: PIXEL_X_OFFSET = %u: past the first 32-byte atom of the %s plane "
                             "(NV_NVDLA_CDMA_IMG_ctrl.v:4334 asserts 'Pixel X offset is out of range')",
                             im->x_offset, f->planar ? "Y" : "pixel");
    im->pl = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_LEFT), im->pr = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_RIGHT);
    im->sx = FLD(cdma, CDMA, D_CONV_STRIDE_0, CONV_X_STRIDE) + 1;
    if (FLD(csc, CSC, D_CONV_STRIDE_EXT_0, CONV_X_STRIDE_EXT) + 1 != im->sx)
        return conv32_refuse(ctx, group, "image input: CSC's x stride %u differs from CDMA's %u",
                             FLD(csc, CSC, D_CONV_STRIDE_EXT_0, CONV_X_STRIDE_EXT) + 1, im->sx);
    if (im->post > 1 && im->sx * f->elems * im->post > 64)
        return conv32_refuse(ctx, group,
                             "image input: post-extension of %u rows with an x stride of %u pixels of %u elements "
                             "(NV_NVDLA_CSC_dl.v:6310 asserts 'too big for stride')",
                             im->post, im->sx, f->elems);
    im->Wo = FLD(csc, CSC, D_DATAOUT_SIZE_0_0, DATAOUT_WIDTH) + 1;
    const uint32_t pw = im->pl + im->W + im->pr;
    if (pw < im->S || (pw - im->S) / im->sx + 1 != im->Wo)
        return conv32_refuse(ctx, group, "image input: output width %u differs from the padded line of %u pixels",
                             im->Wo, pw);
    /* CBUF: a line is ceil(pw x elements x bytes / 128) entries (cmod pad_line_bytes), the whole image resident */
    const uint32_t pesz = proc == 0 ? 1 : 2, entries = (pw * f->elems * pesz + 127) / 128;
    if (FLD(cdma, CDMA, D_ENTRY_PER_SLICE_0, ENTRIES) + 1 != entries ||
        FLD(csc, CSC, D_ENTRY_PER_SLICE_0, ENTRIES) + 1 != entries)
        return conv32_refuse(ctx, group,
                             "image input: ENTRY_PER_SLICE + 1 = %u, the padded line needs %u 128-byte entries",
                             FLD(cdma, CDMA, D_ENTRY_PER_SLICE_0, ENTRIES) + 1, entries);
    if ((uint64_t)entries * im->H > (FLD(cdma, CDMA, D_BANK_0, DATA_BANK) + 1u) * 256u)
        return conv32_refuse(ctx, group, "image input: %u lines do not fit DATA_BANK + 1 = %u banks", im->H,
                             FLD(cdma, CDMA, D_BANK_0, DATA_BANK) + 1);
    im->space = FLD(cdma, CDMA, D_DAIN_RAM_TYPE_0, DATAIN_RAM_TYPE) ? 0 : NVDLA_CV_SPACE;
    im->base = nvdla_pp_reg(cdma, NVDLA_CDMA_D_DAIN_ADDR_LOW_0_0);
    im->line = nvdla_pp_reg(cdma, NVDLA_CDMA_D_LINE_STRIDE_0);
    im->uv_base = nvdla_pp_reg(cdma, NVDLA_CDMA_D_DAIN_ADDR_LOW_1_0);
    im->uv_line = nvdla_pp_reg(cdma, NVDLA_CDMA_D_LINE_UV_STRIDE_0);
    const unsigned bits = 8 * pesz;
    im->pad_lr = (int32_t)nv_sx(FLD(cdma, CDMA, D_ZERO_PADDING_VALUE_0, PAD_VALUE), bits);
    im->pad_tb = (int32_t)nv_sx(FLD(csc, CSC, D_ZERO_PADDING_VALUE_0, PAD_VALUE), bits);
    im->cvt = FLD(cdma, CDMA, D_CVT_CFG_0, CVT_EN), im->mean = FLD(cdma, CDMA, D_MEAN_FORMAT_0, MEAN_FORMAT);
    im->proc = proc;
    im->nan_flush = FLD(cdma, CDMA, D_NAN_FLUSH_TO_ZERO_0, NAN_TO_ZERO);
    im->is_signed = FLD(cdma, CDMA, D_DATAIN_FORMAT_0, PIXEL_SIGN_OVERRIDE);
    im->truncate = FLD(cdma, CDMA, D_CVT_CFG_0, CVT_TRUNCATE);
    im->offset = (int16_t)FLD(cdma, CDMA, D_CVT_OFFSET_0, CVT_OFFSET);
    im->scale = (int16_t)FLD(cdma, CDMA, D_CVT_SCALE_0, CVT_SCALE);
    im->means[0] = (int16_t)FLD(cdma, CDMA, D_MEAN_GLOBAL_0_0, MEAN_RY);
    im->means[1] = (int16_t)FLD(cdma, CDMA, D_MEAN_GLOBAL_0_0, MEAN_GU);
    im->means[2] = (int16_t)FLD(cdma, CDMA, D_MEAN_GLOBAL_1_0, MEAN_BV);
    im->means[3] = (int16_t)FLD(cdma, CDMA, D_MEAN_GLOBAL_1_0, MEAN_AX);
    return true;
}

static uint32_t rd(const nvdla_dp_ctx_t *ctx, uint64_t addr, unsigned n)
{
    uint8_t b[4] = {0};
    mem_read(ctx->mem, addr, b, n);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Element i (CBUF order) of pixel x of row y, as fetched (before the converter). */
static uint32_t img_element(const nvdla_dp_ctx_t *ctx, const conv_img32_t *im, uint32_t y, uint32_t x, unsigned i)
{
    const conv_img32_fmt_t *f = im->fmt;
    const uint64_t row = im->space + im->base + (uint64_t)y * im->line, px = im->x_offset + x;
    if (f->p10) {
        const uint32_t w = rd(ctx, row + px * 4, 4);
        return ((w >> f->shift[i]) & ((1u << f->width[i]) - 1)) << (16 - f->width[i]);
    }
    if (!f->planar) return rd(ctx, row + px * f->bpp + (uint64_t)f->order[i] * f->esz, f->esz);
    if (i == 0) return rd(ctx, row + px * f->esz, f->esz);
    /* the UV plane: read from the x offset's place in its first atom (cmod p1_x_offset_byte, the RTL's
     * pixel_planar1_x_offset = x offset & planar1 mask) */
    const uint64_t uv = im->space + im->uv_base + (uint64_t)y * im->uv_line + (im->x_offset * 2u * f->esz) % NV_ATOM32;
    return rd(ctx, uv + (uint64_t)x * 2 * f->esz + (uint64_t)(f->order[i] - 1) * f->esz, f->esz);
}

void conv_img32_fill(const nvdla_dp_ctx_t *ctx, const conv_img32_t *im, cube32_t *in)
{
    const conv_img32_fmt_t *f = im->fmt;
    const uint32_t pw = im->pl + im->W + im->pr, n = pw * f->elems;
    const unsigned in_bits = 8 * f->esz, out_bits = 8 * in->esz;
    int32_t *line = malloc((size_t)n * sizeof *line);
    if (!line) abort();
    for (uint32_t y = 0; y < im->H; y++) {
        for (uint32_t p = 0; p < pw; p++)
            for (unsigned i = 0; i < f->elems; i++) {
                int32_t v = im->pad_lr;
                if (p >= im->pl && p < im->pl + im->W) {
                    uint32_t raw = img_element(ctx, im, y, p - im->pl, i);
                    if (im->nan_flush && f->prec == 2 && (raw & 0x7C00) == 0x7C00 && (raw & 0x3FF)) raw = 0;
                    const int32_t op = im->mean ? im->means[f->elems == 1 ? 0 : i] : im->offset;
                    /* unconverted, the element's bits are the CBUF's, read as signed by CMAC */
                    v = im->cvt ? conv_img32_cell(raw, f->prec, in_bits, im->is_signed, op, im->scale, im->truncate,
                                                  im->proc)
                                : (int32_t)nv_sx(raw, out_bits);
                }
                line[p * f->elems + i] = v;
            }
        for (uint32_t x = 0; x < in->w; x++)
            for (uint32_t c = 0; c < in->c; c++)
                cube32_atom(in, c / in->lanes, y, x)[c % in->lanes] = line[x * im->sx * f->elems + c];
    }
    free(line);
}

size_t conv_img32_post_wt_offset(uint32_t k, uint32_t r, uint32_t c, uint32_t R, uint32_t C, uint32_t K, uint32_t kg,
                                 uint32_t post, uint32_t esz)
{
    const uint32_t g = k / kg, kk = k % kg, gn = K - g * kg < kg ? K - g * kg : kg;
    const uint32_t j = r / post, rows = j == (R - 1) / post ? R - j * post : post;
    return ((size_t)g * kg * R * C + (size_t)j * post * C * gn + ((size_t)kk * rows + r % post) * C + c) * esz;
}
