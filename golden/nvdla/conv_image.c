#include "conv_image.h"
#include "nvdla_dp_math.h"
#include <string.h>

/* NV_NVDLA_CDMA_IMG_ctrl.v pixel format parser (pixel_order) and NV_NVDLA_CDMA_IMG_sg.v's byte swizzles:
 * order 0x1 keeps the bytes, 0x2 (sw_o1) takes bytes 2,1,0,3, 0x8 (sw_o3) 1,2,3,0, 0x20 (sw_o5) 3,2,1,0. */
bool conv_image_format(uint32_t f, unsigned *bpp, uint8_t order[4])
{
    static const uint8_t keep[4] = {0, 1, 2, 3}, o1[4] = {2, 1, 0, 3}, o3[4] = {1, 2, 3, 0}, o5[4] = {3, 2, 1, 0},
                         uv_swap[4] = {0, 2, 1, 3};
    const uint8_t *o;
    switch (f) {
    case 0x00: *bpp = 1, o = keep; break; /* T_R8 */
    case 0x0c:
    case 0x10: *bpp = 4, o = keep; break; /* T_A8B8G8R8, T_X8B8G8R8 */
    case 0x0d:
    case 0x11:
    case 0x1a: *bpp = 4, o = o1; break; /* T_A8R8G8B8, T_X8R8G8B8, T_A8Y8U8V8 */
    case 0x0e:
    case 0x12:
    case 0x1b: *bpp = 4, o = o3; break; /* T_B8G8R8A8, T_B8G8R8X8, T_V8U8Y8A8 */
    case 0x0f:
    case 0x13:
        *bpp = 4, o = o5;
        break; /* T_R8G8B8A8, T_R8G8B8X8 */
    /* semi-planar YUV 4:4:4: CBUF pixel = Y, then the UV plane's pair; T_Y8___U8V8_N444 (pixel_order 0x200)
     * swaps the pair (sw_o9), T_Y8___V8U8_N444 (pixel_order 0x1) keeps it */
    case 0x1c: *bpp = 3, o = uv_swap; break;
    case 0x1d: *bpp = 3, o = keep; break;
    default: return false;
    }
    memcpy(order, o, 4);
    return true;
}

const char *conv_image_format_name(uint32_t f)
{
    switch (f) {
    case 0x00: return "R8";
    case 0x0c: return "A8B8G8R8";
    case 0x0d: return "A8R8G8B8";
    case 0x0e: return "B8G8R8A8";
    case 0x0f: return "R8G8B8A8";
    case 0x10: return "X8B8G8R8";
    case 0x11: return "X8R8G8B8";
    case 0x12: return "B8G8R8X8";
    case 0x13: return "R8G8B8X8";
    case 0x1a: return "A8Y8U8V8";
    case 0x1b: return "V8U8Y8A8";
    case 0x1c: return "Y8___U8V8_N444";
    case 0x1d: return "Y8___V8U8_N444";
    default: return "other";
    }
}

/* NV_NVDLA_CDMA_CVT_cell.v: 17-bit pixel minus 16-bit operand (18 bits), times the 16-bit scale (34 bits),
 * NV_NVDLA_HLS_shiftrightsu to 17 bits (round half away from zero, saturate; 0 once truncate >= 34), then
 * NV_NVDLA_HLS_saturate to int8. */
int8_t conv_image_cvt(uint8_t px, bool is_signed, int16_t op, int16_t scale, unsigned truncate)
{
    int64_t d = (is_signed ? (int64_t)(int8_t)px : (int64_t)px) - op;
    return (int8_t)nv_sat(nv_rsr(d * scale, truncate, 34, 17), 8);
}

void conv_image_lines(const conv_image_cfg_t *c, const uint8_t *rows, const uint8_t *uv_rows, int8_t *lines)
{
    const uint32_t pw = c->pad_l + c->width + c->pad_r, lb = pw * c->bpp;
    for (uint32_t y = 0; y < c->height; y++) {
        int8_t *line = lines + (size_t)y * lb;
        const uint8_t *row = rows + (size_t)y * c->line_stride;
        const uint8_t *uv_row = uv_rows ? uv_rows + (size_t)y * c->uv_stride : NULL;
        memset(line, (int)(int8_t)c->pad_value, lb);
        for (uint32_t x = 0; x < c->width; x++) {
            const uint8_t *px = uv_row ? NULL : row + (size_t)(c->x_offset + x) * c->bpp;
            for (unsigned b = 0; b < c->bpp; b++) {
                /* semi-planar: Y from its plane, the pair from the UV plane (2 bytes a pixel, x offset taken
                 * within its 8-byte atom: IMG_ctrl.v pixel_planar1_x_offset = x_offset & 3) */
                uint8_t v = !uv_row  ? px[c->order[b]]
                            : b == 0 ? row[c->x_offset + x]
                                     : uv_row[((c->x_offset & 3) + x) * 2 + (c->order[b] - 1)];
                /* NV_NVDLA_CDMA_IMG_pack.v: mn_ch1 (one channel: MEAN_RY for every byte), mn_ch4 (RY, GU, BV, AX
                 * by byte position in the pixel) or, semi-planar, mn_ch3 (RY, GU, BV for Y and the pair) */
                int16_t op = !c->mean ? c->offset : c->means[c->bpp == 1 ? 0 : b];
                line[(c->pad_l + x) * c->bpp + b] =
                    c->cvt ? conv_image_cvt(v, c->is_signed, op, c->scale, c->truncate) : (int8_t)v;
            }
        }
    }
}
