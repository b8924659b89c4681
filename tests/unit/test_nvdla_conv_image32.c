/* Image input of nv_full's convolution model (golden/nvdla/conv_image32.c): the pixel format table, CDMA's converter at
 * INT8 and INT16, and the virtual cube of CSC's pre-extended reads that conv_atom32.c convolves. Expected values worked
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
    mem_free(m);
}

int main(void)
{
    unit_t u = {.name = "nvdla_conv_image32"};
    UNIT_RUN(&u, test_table);
    UNIT_RUN(&u, test_cvt);
    UNIT_RUN(&u, test_fill);
    return unit_done(&u);
}
