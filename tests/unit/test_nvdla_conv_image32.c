/* Image input of nv_full's convolution model (golden/nvdla/conv_image32.c): the pixel format table, CDMA's converter at
 * INT8 and INT16 and towards FP16 (cmod hls/cdma_libs/cdma_cvt.cpp), and the virtual cube of CSC's pre-extended reads that conv_atom32.c convolves. Expected values worked
 * by hand from NVIDIA's cmod (cdma/NV_NVDLA_cdma.cpp ImageConvDataResponseSequencerCommon, hls_convertor). The fill
 * cases also show that the model tells formats apart: the same bytes read as A8B8G8R8 and as A8R8G8B8 give R and B
 * swapped (the golden catches a wrong format; conv_img_wrongfmt does it end to end). */
#include "conv_image32.h"
#include "mem.h"
#include "unit.h"
#include <stdlib.h>

static void test_table(unit_t *u)
{
    CHECK_EQ(conv_img32_nformats, 36u);
    for (uint32_t code = 0; code <= 0x23; code++) CHECK(conv_img32_format(code) != NULL, "every format of IMG_ctrl.v");
    CHECK(conv_img32_format(0x24) == NULL, "0x24 does not exist");
    const conv_img32_fmt_t *f = conv_img32_format(0x0d);
    CHECK(f->elems == 4 && f->prec == 0 && f->order[0] == 2 && f->order[2] == 0, "A8R8G8B8: R is byte 2");
    f = conv_img32_format(0x0a);
    CHECK(f->esz == 2 && f->bpp == 8 && f->prec == 1 && f->order[0] == 1, "V16U16Y16A16: (i + 1) mod 4");
    f = conv_img32_format(0x17);
    CHECK(f->p10 && f->shift[0] == 22 && f->width[3] == 2, "R10G10B10A2: R bits 31:22, A bits 1:0");
    f = conv_img32_format(0x22);
    CHECK(f->planar && f->elems == 3 && f->order[1] == 2, "Y16___U16V16: CBUF Y, V, U");
    CHECK(conv_img32_format(0x08)->prec == 2 && conv_img32_format(0x08)->group == IMG32_G_FP16, "A16B16G16R16_F");
}

static void test_cvt(unit_t *u)
{
    CHECK_EQ(conv_img32_cvt(200, 8, false, 100, 1, 0, 8), 100);
    CHECK_EQ(conv_img32_cvt(0x80, 8, true, 0, 1, 0, 8), -128);
    CHECK_EQ(conv_img32_cvt(0x80, 8, false, 0, 1, 0, 8), 127);         /* unsigned 128 saturates at INT8 */
    CHECK_EQ(conv_img32_cvt(1, 8, false, 0, 3, 1, 8), 2);              /* 1.5: half away from zero */
    CHECK_EQ(conv_img32_cvt(0xFF, 8, true, 0, 3, 1, 8), -2);           /* -1.5 */
    CHECK_EQ(conv_img32_cvt(0xFFFF, 16, false, 0, 1, 0, 16), 32767);   /* unsigned 65535 saturates at INT16 */
    CHECK_EQ(conv_img32_cvt(0xFFFF, 16, true, 0, 1, 0, 16), -1);       /* sign override */
    CHECK_EQ(conv_img32_cvt(40000, 16, false, 30000, 3, 2, 16), 7500); /* (10000 x 3) / 4 */
    CHECK_EQ(conv_img32_cvt(255, 8, false, -32768, 32767, 40, 8), 0);  /* large truncation: 0 */
    /* precision conversion: 8-bit pixels to INT16, 16-bit ones to INT8 (cmod convert_8to16 / convert_16to8) */
    CHECK_EQ(conv_img32_cvt(200, 8, false, 0, 100, 0, 16), 20000);
    CHECK_EQ(conv_img32_cvt(40000, 16, false, 39000, 1, 3, 8), 125); /* 1000 / 8 = 125 */
    CHECK_EQ(conv_img32_cvt(40000, 16, false, 0, 1, 8, 8), 127);     /* 156.25 saturates */
}

/* The converter cell towards FP16 (cmod hls/cdma_libs/cdma_cvt.cpp, the source of NV_NVDLA_CDMA_CVT_cell.v): the
 * integer result rounded half away from zero and saturated to 17 bits (not 16), then FpIntToFloat<17,5,10>, which
 * rounds to nearest even and saturates at +-65504; FP16 pixels pass unchanged. Each case breaks under one wrong rule (named). */
static void test_cell_fp16(unit_t *u)
{
#define CELL16(raw, bits, sgn, op, sc, t) ((uint16_t)conv_img32_cell(raw, (bits) == 8 ? 0 : 1, bits, sgn, op, sc, t, 2))
    CHECK_EQ(CELL16(200, 8, false, 100, 1, 0), 0x5640);  /* 100 */
    CHECK_EQ(CELL16(0, 8, false, 100, 1, 0), 0xD640);    /* -100 */
    CHECK_EQ(CELL16(1, 8, false, 0, 3, 1), 0x4000);      /* 1.5 -> 2: half away from zero (truncation gives 1) */
    CHECK_EQ(CELL16(0xFF, 8, true, 0, 3, 1), 0xC000);    /* -1.5 -> -2 (floor gives -2 too, -1 if toward zero) */
    CHECK_EQ(CELL16(0xFD, 8, true, 0, 1, 1), 0xC000);    /* -1.5 again from -3 / 2 */
    CHECK_EQ(CELL16(2049, 16, false, 0, 1, 0), 0x6800);  /* 2049 -> 2048: nearest even (half up gives 2050) */
    CHECK_EQ(CELL16(2053, 16, false, 0, 1, 0), 0x6802);  /* 2053 -> 2052: nearest even (half up gives 2054) */
    CHECK_EQ(CELL16(40000, 16, false, 0, 1, 0), 0x78E2); /* 40000 exactly: 17-bit saturation (16-bit: 32768) */
    CHECK_EQ(CELL16(65519, 16, false, 0, 1, 0), 0x7BFF); /* below the halfway point to 65536: 65504 */
    /* past 65504 the result saturates: FpIntToFloat's SetToInf is the largest finite value, not Inf */
    CHECK_EQ(CELL16(65520, 16, false, 0, 1, 0), 0x7BFF); /* the tie rounds to even, 65536: 65504 */
    CHECK_EQ(CELL16(65535, 16, false, 0, 2, 0), 0x7BFF); /* 131070 saturates to 65535 (17 bits), then 65504 */
    CHECK_EQ(CELL16(0, 16, false, 32767, 4, 0), 0xFBFF); /* -131068 saturates to -65536, then -65504 */
    CHECK_EQ(CELL16(0x80, 8, false, 0, 1, 0), 0x5800);   /* unsigned 128 (signed: -128, 0xD800) */
    CHECK_EQ(CELL16(0x80, 8, true, 0, 1, 0), 0xD800);
    CHECK_EQ(CELL16(5, 8, false, 5, 9, 0), 0x0000); /* zero is +0 */
#undef CELL16
    /* FP16 pixels through the converter: unchanged, offset, scale and truncation unused (cdma_cvt.cpp) */
    CHECK_EQ((uint16_t)conv_img32_cell(0x3C01, 2, 16, false, 100, 3, 2, 2), 0x3C01);
    CHECK_EQ((uint16_t)conv_img32_cell(0xFE00, 2, 16, true, -7, -1, 0, 2), 0xFE00); /* a NaN too */
    /* INT8/INT16 processing keeps conv_img32_cvt's saturation to the precision */
    CHECK_EQ(conv_img32_cell(40000, 1, 16, false, 0, 1, 0, 1), 32767);
    CHECK_EQ(conv_img32_cell(200, 0, 8, false, 0, 1, 0, 0), 127);
}

static void err(void *user, const char *msg) { (void)user, (void)msg; }

static void test_fill(unit_t *u)
{
    mem_t *m = mem_new();
    uint8_t row[32];
    for (unsigned i = 0; i < sizeof row; i++) row[i] = (uint8_t)(i + 1);
    mem_write(m, 0x1000, row, sizeof row); /* line 0 */
    mem_write(m, 0x1040, row, sizeof row); /* line 1 (stride 0x40) */
    nvdla_dp_ctx_t ctx = {.mem = m, .error = err};
    /* 2 pixels of A8B8G8R8 from x offset 1, pad left 1 (value -3), kernel 2 wide, x stride 1: output width 2, the
     * virtual cube 2 wide with 8 pre-extended channels */
    conv_img32_t im = {.fmt = conv_img32_format(0x0c),
                       .W = 2,
                       .H = 2,
                       .x_offset = 1,
                       .pl = 1,
                       .sx = 1,
                       .S = 2,
                       .C_ext = 8,
                       .Wo = 2,
                       .base = 0x1000,
                       .line = 0x40,
                       .pad_lr = -3};
    cube32_t in;
    CHECK(cube32_alloc(&ctx, "CDMA", 0, &in, 2, 2, 8, 1), "alloc");
    conv_img32_fill(&ctx, &im, &in);
    const int32_t *a = cube32_atom(&in, 0, 0, 0);
    CHECK(a[0] == -3 && a[3] == -3, "x 0: the left padding pixel");
    CHECK(a[4] == 5 && a[5] == 6 && a[7] == 8, "x 0: then pixel 1 (bytes 4..7) as stored");
    a = cube32_atom(&in, 0, 1, 1);
    CHECK(a[0] == 5 && a[4] == 9, "line 1, x 1: pixels 1 and 2");
    im.fmt = conv_img32_format(0x0d); /* the same bytes as A8R8G8B8 */
    conv_img32_fill(&ctx, &im, &in);
    a = cube32_atom(&in, 0, 0, 0);
    CHECK(a[4] == 7 && a[5] == 6 && a[6] == 5 && a[7] == 8, "A8R8G8B8: R and B swapped");
    /* converter with the means: element i less MEAN[i] */
    im.cvt = im.mean = true, im.scale = 1, im.means[0] = 7, im.means[1] = 6, im.means[2] = 5, im.means[3] = 0;
    conv_img32_fill(&ctx, &im, &in);
    a = cube32_atom(&in, 0, 0, 0);
    CHECK(a[0] == -3 && a[4] == 0 && a[5] == 0 && a[6] == 0 && a[7] == 8, "means per channel, padding unconverted");
    free(in.v);
    /* R10G10B10A2 at INT16: word 0xC0003302 = R (31:22) 0x300, G (21:12) 0x003, B (11:2) 0x0C0, A (1:0) 2 */
    const uint8_t w[4] = {0x02, 0x33, 0x00, 0xC0};
    mem_write(m, 0x2000, w, 4);
    conv_img32_t p = {.fmt = conv_img32_format(0x17),
                      .W = 1,
                      .H = 1,
                      .sx = 1,
                      .S = 1,
                      .C_ext = 4,
                      .Wo = 1,
                      .base = 0x2000,
                      .line = 32};
    CHECK(cube32_alloc(&ctx, "CDMA", 0, &in, 1, 1, 4, 2), "alloc 16");
    conv_img32_fill(&ctx, &p, &in);
    a = cube32_atom(&in, 0, 0, 0);
    CHECK(a[0] == (int16_t)0xC000 && a[1] == 0xC0 && a[2] == 0x3000 && a[3] == (int16_t)0x8000,
          "10-bit fields shifted to the top of 16 bits");
    free(in.v);
    /* the same word processed at FP16 through the converter (offset 16384, scale 1, truncation 7): each 10-bit field
     * at the top of 16 bits, unsigned, less 16384, / 128: R 0xC000 -> 256, G 0x00C0 -> -126.5 -> -127, B 0x3000 -> -32,
     * A 0x8000 -> 128 */
    p.cvt = true, p.offset = 16384, p.scale = 1, p.truncate = 7, p.proc = 2;
    CHECK(cube32_alloc(&ctx, "CDMA", 0, &in, 1, 1, 4, 2), "alloc fp16");
    conv_img32_fill(&ctx, &p, &in);
    a = cube32_atom(&in, 0, 0, 0);
    CHECK((uint16_t)a[0] == 0x5C00 && (uint16_t)a[1] == 0xD7F0 && (uint16_t)a[2] == 0xD000 && (uint16_t)a[3] == 0x5800,
          "10-bit fields converted to FP16: 256, -127, -32, 128");
    free(in.v);
    /* R16_F with NAN_FLUSH_TO_ZERO: the NaN pixel is +0, CDMA's pad value (a NaN) is not flushed (cmod cdma.cpp:2431
     * flushes the fetched line, the pad comes after; found on nv_full's RTL, which inserts the pad after its flush) */
    const uint8_t h[4] = {0x00, 0x7E, 0x00, 0x3C}; /* NaN, 1.0 */
    mem_write(m, 0x3000, h, 4);
    conv_img32_t q = {.fmt = conv_img32_format(0x05),
                      .W = 2,
                      .H = 1,
                      .pl = 1,
                      .sx = 1,
                      .S = 3,
                      .C_ext = 3,
                      .Wo = 1,
                      .base = 0x3000,
                      .line = 32,
                      .pad_lr = 0x7E05,
                      .proc = 2,
                      .nan_flush = true};
    for (int cvt = 0; cvt < 2; cvt++) { /* the converter passes FP16 pixels unchanged: the same either way */
        q.cvt = cvt, q.offset = 5, q.scale = 3, q.truncate = 1;
        CHECK(cube32_alloc(&ctx, "CDMA", 0, &in, 1, 1, 3, 2), "alloc r16f");
        conv_img32_fill(&ctx, &q, &in);
        a = cube32_atom(&in, 0, 0, 0);
        CHECK((uint16_t)a[0] == 0x7E05 && a[1] == 0 && (uint16_t)a[2] == 0x3C00,
              "NaN pixel flushed, NaN pad value kept, 1.0 unchanged");
        free(in.v);
    }
    mem_free(m);
}

/* Post-extension's weight layout (cmod csc.cpp:1150-1160), by hand: 2 kernels of 3 rows x 3 channels, 2 rows a stripe
 * at INT8: stripe 0 holds kernel 0's rows 0-1 (bytes 0-5) then kernel 1's (6-11), stripe 1 the last row of kernel 0
 * (12-14) then of kernel 1 (15-17). The plain layout (rows then kernels) would put w[1][1][2] at 11 too, so the last
 * stripe's and the second group's offsets are what tells them apart. */
static void test_post_ext_weights(unit_t *u)
{
    CHECK_EQ(conv_img32_post_wt_offset(0, 0, 0, 3, 3, 2, 32, 2, 1), 0u);
    CHECK_EQ(conv_img32_post_wt_offset(0, 1, 2, 3, 3, 2, 32, 2, 1), 5u);
    CHECK_EQ(conv_img32_post_wt_offset(1, 0, 0, 3, 3, 2, 32, 2, 1), 6u);
    CHECK_EQ(conv_img32_post_wt_offset(1, 1, 2, 3, 3, 2, 32, 2, 1), 11u);
    CHECK_EQ(conv_img32_post_wt_offset(0, 2, 1, 3, 3, 2, 32, 2, 1), 13u); /* plain: row 2 of kernel 0 at 12 + 1 too */
    CHECK_EQ(conv_img32_post_wt_offset(1, 2, 0, 3, 3, 2, 32, 2, 1), 15u);
    /* 4 rows a stripe of a 5-row kernel, INT16, 17 kernels (16 a group): kernel 16 is group 1's only one, at
     * 16 x 5 x 4 elements; its row 4 (stripe 1) after its rows 0-3 */
    CHECK_EQ(conv_img32_post_wt_offset(16, 4, 1, 5, 4, 17, 16, 4, 2), (16u * 5 * 4 + 4 * 4 + 1) * 2);
    /* kernel 1's row 4 in group 0: stripe 1 starts after 16 kernels x 4 rows x 4 channels, kernel 1 after kernel 0's
     * one row */
    CHECK_EQ(conv_img32_post_wt_offset(1, 4, 0, 5, 4, 17, 16, 4, 2), (16u * 4 * 4 + 4) * 2);
}

int main(void)
{
    unit_t u = {.name = "nvdla_conv_image32"};
    UNIT_RUN(&u, test_table);
    UNIT_RUN(&u, test_cvt);
    UNIT_RUN(&u, test_cell_fp16);
    UNIT_RUN(&u, test_fill);
    UNIT_RUN(&u, test_post_ext_weights);
    return unit_done(&u);
}
