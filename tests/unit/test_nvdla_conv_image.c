/* Image input of the nv_small convolution model (golden/nvdla/conv_image.c): pixel formats, CDMA's converter,
 * the CBUF lines CDMA writes. Expected values worked by hand from NVIDIA's RTL (see conv_image.h). */
#include "conv_image.h"
#include "unit.h"

static void test_formats(unit_t *u)
{
    unsigned bpp = 0;
    uint8_t o[4];
    CHECK(conv_image_format(0x00, &bpp, o) && bpp == 1, "T_R8");
    CHECK(conv_image_format(0x0c, &bpp, o) && bpp == 4 && o[0] == 0 && o[3] == 3, "T_A8B8G8R8 keeps the bytes");
    /* A8R8G8B8: memory B,G,R,A -> CBUF R,G,B,A (NV_NVDLA_CDMA_IMG_sg.v rsp_img_data_sw_o1) */
    CHECK(conv_image_format(0x0d, &bpp, o) && o[0] == 2 && o[1] == 1 && o[2] == 0 && o[3] == 3, "T_A8R8G8B8");
    CHECK(conv_image_format(0x0e, &bpp, o) && o[0] == 1 && o[3] == 0, "T_B8G8R8A8 (sw_o3)");
    CHECK(conv_image_format(0x13, &bpp, o) && o[0] == 3 && o[3] == 0, "T_R8G8B8X8 (sw_o5)");
    CHECK(conv_image_format(0x1b, &bpp, o) && o[0] == 1, "T_V8U8Y8A8 as B8G8R8A8");
    CHECK(conv_image_format(0x1c, &bpp, o) && bpp == 3 && o[1] == 2 && o[2] == 1, "Y8___U8V8: pair swapped (sw_o9)");
    CHECK(conv_image_format(0x1d, &bpp, o) && bpp == 3 && o[1] == 1 && o[2] == 2, "Y8___V8U8: pair kept");
    CHECK(!conv_image_format(0x1e, &bpp, o), "16-bit semi-planar is refused");
    CHECK(!conv_image_format(0x14, &bpp, o), "10-bit packed is refused");
    CHECK(!strcmp(conv_image_format_name(0x1a), "A8Y8U8V8"), "name");
}

static void test_cvt(unit_t *u)
{
    CHECK_EQ(conv_image_cvt(200, false, 100, 1, 0), 100);
    CHECK_EQ(conv_image_cvt(0x80, true, 0, 1, 0), -128);        /* signed pixel */
    CHECK_EQ(conv_image_cvt(0x80, false, 0, 1, 0), 127);        /* unsigned 128 saturates */
    CHECK_EQ(conv_image_cvt(37, false, 144, -1264, 7), 127);    /* 135248 >> 7 = 1056.6: saturated */
    CHECK_EQ(conv_image_cvt(167, false, 165, -1264, 7), -20);   /* -2528 / 128 = -19.75 */
    CHECK_EQ(conv_image_cvt(1, false, 0, 3, 1), 2);             /* 1.5: half away from zero */
    CHECK_EQ(conv_image_cvt(0xFF, true, 0, 3, 1), -2);          /* -1.5 */
    CHECK_EQ(conv_image_cvt(0xFF, true, 0, 5, 2), -1);          /* -1.25 */
    CHECK_EQ(conv_image_cvt(255, false, -32768, 32767, 34), 0); /* truncate >= 34: 0 (shiftrightsu) */
    CHECK_EQ(conv_image_cvt(255, false, -32768, 32767, 10), 127);
}

static void test_lines(unit_t *u)
{
    /* 2x2 A8R8G8B8 with x offset 1, pad left 1, right 0, converter off: pad bytes are CDMA's pad value */
    uint8_t rows[2 * 16];
    for (unsigned i = 0; i < sizeof rows; i++) rows[i] = (uint8_t)i;
    conv_image_cfg_t c = {
        .line_stride = 16, .width = 2, .height = 2, .x_offset = 1, .pad_l = 1, .pad_r = 0, .pad_value = 0xA5};
    CHECK(conv_image_format(0x0d, &c.bpp, c.order), "format");
    int8_t lines[2 * 3 * 4];
    conv_image_lines(&c, rows, NULL, lines);
    CHECK_EQ(lines[0], (int8_t)0xA5);
    CHECK_EQ(lines[3], (int8_t)0xA5);
    CHECK_EQ(lines[4], 6); /* pixel at bytes 4..7: R is byte 6 */
    CHECK_EQ(lines[6], 4);
    CHECK_EQ(lines[7], 7);
    CHECK_EQ(lines[8], 10);
    CHECK_EQ(lines[12 + 4], 22); /* row 1 at 16 */
    /* converter on with the global mean: channel b uses means[b] */
    c.cvt = c.mean = true, c.scale = 1, c.truncate = 0;
    c.means[0] = 6, c.means[1] = 5, c.means[2] = 4, c.means[3] = 0;
    conv_image_lines(&c, rows, NULL, lines);
    CHECK_EQ(lines[4], 0);
    CHECK_EQ(lines[5], 0);
    CHECK_EQ(lines[6], 0);
    CHECK_EQ(lines[7], 7);
    CHECK_EQ(lines[0], (int8_t)0xA5); /* padding is not converted */
    /* R8: one channel, MEAN_RY for every byte */
    conv_image_cfg_t r8 = {.line_stride = 8,
                           .width = 3,
                           .height = 1,
                           .x_offset = 2,
                           .cvt = true,
                           .mean = true,
                           .scale = 2,
                           .means = {1, 100, 100, 100}};
    CHECK(conv_image_format(0x00, &r8.bpp, r8.order), "format");
    int8_t l8[3];
    conv_image_lines(&r8, rows, NULL, l8);
    CHECK_EQ(l8[0], 2); /* (2 - 1) * 2 */
    CHECK_EQ(l8[2], 6);
}

static void test_semi_planar(unit_t *u)
{
    /* Y8___U8V8_N444, 3x1, x offset 1, no padding: CBUF pixel = Y, then the UV pair swapped */
    uint8_t y[8] = {10, 11, 12, 13, 14, 15, 16, 17}, uv[16];
    for (unsigned i = 0; i < sizeof uv; i++) uv[i] = (uint8_t)(100 + i);
    conv_image_cfg_t c = {.line_stride = 32, .uv_stride = 32, .width = 3, .height = 1, .x_offset = 1};
    CHECK(conv_image_format(0x1c, &c.bpp, c.order), "format");
    int8_t l[9];
    conv_image_lines(&c, y, uv, l);
    CHECK_EQ(l[0], 11);
    CHECK_EQ(l[1], 103); /* UV pixel 1 at bytes 2,3: swapped */
    CHECK_EQ(l[2], 102);
    CHECK_EQ(l[3], 12);
    CHECK_EQ(l[8], 106);
    CHECK(conv_image_format(0x1d, &c.bpp, c.order), "format");
    c.cvt = c.mean = true, c.scale = 1, c.means[0] = 11, c.means[1] = 2, c.means[2] = 3; /* mn_ch3: RY, GU, BV */
    conv_image_lines(&c, y, uv, l);
    CHECK_EQ(l[0], 0);
    CHECK_EQ(l[1], 100);
    CHECK_EQ(l[2], 100);
}

int main(void)
{
    unit_t u = {.name = "nvdla_conv_image"};
    UNIT_RUN(&u, test_formats);
    UNIT_RUN(&u, test_cvt);
    UNIT_RUN(&u, test_lines);
    UNIT_RUN(&u, test_semi_planar);
    return unit_done(&u);
}
