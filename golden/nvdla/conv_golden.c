#include "conv_golden.h"
#include "conv_image.h"
#include "nvdla_dp_math.h"
#include "nvdla_regs.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ATOM = 8, CBUF_BANKS = 32, BANK_ENTRIES = 512, BANK_BYTES = BANK_ENTRIES * ATOM };

void conv_golden_init(nvdla_pp_t units[CONV_NUNITS])
{
    static const uint32_t op_en_off[CONV_NUNITS] = {0x010, 0x008, 0x008, 0x008, 0x008};
    for (int u = 0; u < CONV_NUNITS; u++) nvdla_pp_init(&units[u], CONV_FIRST + 0x1000u * (uint32_t)u, op_en_off[u]);
}

bool conv_golden_ready(const nvdla_pp_t units[CONV_NUNITS])
{
    for (int u = 0; u < CONV_NUNITS; u++)
        if (!nvdla_pp_ready(&units[u])) return false;
    return true;
}

void nv_acc_cube_free(nv_acc_cube_t *c)
{
    free(c->v);
    c->v = NULL;
}

int64_t conv_cacc_add(int64_t acc34, int64_t partial)
{
    return nv_sat(acc34 + partial, 34); /* NV_NVDLA_CACC_CALC_int8.v: 35-bit sum saturated to 34 bits */
}

int32_t conv_cacc_round(int64_t pre, unsigned t, bool *saturated)
{
    /* {sft, guide, stick[14:0]} = {pre, 16'b0} >>> t: the sticky bits are only the 15 below the guide. */
    int64_t sft = pre >> t;
    uint64_t u = (uint64_t)pre;
    unsigned guide = t ? (unsigned)(u >> (t - 1)) & 1u : 0u;
    uint64_t stick = 0;
    if (t >= 2) {
        uint64_t below_guide = (1ull << (t - 1)) - 1;
        uint64_t lost = t > 16 ? (1ull << (t - 16)) - 1 : 0;
        stick = u & below_guide & ~lost;
    }
    bool neg = pre < 0;
    unsigned point5 = guide && (!neg || stick);
    bool sat = neg ? sft < INT32_MIN : (sft > INT32_MAX || (sft == INT32_MAX && point5));
    if (saturated) *saturated = sat;
    if (sat) return neg ? INT32_MIN : INT32_MAX;
    return (int32_t)(sft + point5);
}

/* Checks one condition; on failure reports it (prefix "CONV grp g: ") and makes the layer refused. */
typedef struct chk {
    const nvdla_dp_ctx_t *ctx;
    int group;
    bool ok;
} chk_t;

static void need(chk_t *c, bool cond, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void need(chk_t *c, bool cond, const char *fmt, ...)
{
    if (cond) return;
    char msg[260];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nv_dp_error(c->ctx, "CONV grp %d: %s", c->group, msg);
    c->ok = false;
}

/* Weight byte offset of w[k][r][s][c] (format.rst, direct convolution, uncompressed): groups of 8 kernels;
 * inside a group, 1x1x8-channel cubes scanned C' -> K -> S -> R -> C (the last group and the last channel
 * block may be narrower: no zero fill). */
static size_t weight_offset(uint32_t k, uint32_t r, uint32_t s, uint32_t c, uint32_t R, uint32_t S, uint32_t C,
                            uint32_t K)
{
    uint32_t g = k / ATOM, kk = k % ATOM, gn = K - g * ATOM < ATOM ? K - g * ATOM : ATOM;
    uint32_t cb = c / ATOM, cc = c % ATOM, cn = C - cb * ATOM < ATOM ? C - cb * ATOM : ATOM;
    return (size_t)g * ATOM * R * S * C + (size_t)cb * ATOM * R * S * gn + ((size_t)(r * S + s) * gn + kk) * cn + cc;
}

/* Image input (CDMA.D_DATAIN_FORMAT = pixel): the pixel surface and CDMA's converter, from CDMA's registers
 * (conv_image.h for the RTL facts). Input size and channels are already in *L. */
static void image_decode(chk_t *ck, const nvdla_pp_t *cdma, const nvdla_pp_t *csc, conv_layer_t *L,
                         conv_image_cfg_t *im)
{
    L->pixel_format = FLD(cdma, CDMA, D_DATAIN_FORMAT_0, PIXEL_FORMAT);
    need(ck, conv_image_format(L->pixel_format, &im->bpp, im->order),
         "CDMA.D_DATAIN_FORMAT.PIXEL_FORMAT = 0x%x (%s) is not modelled (R8, the 8-bit packed 4-byte orders and "
         "8-bit semi-planar YUV 4:4:4 are)",
         L->pixel_format, conv_image_format_name(L->pixel_format));
    need(ck, L->in_c == im->bpp, "CDMA.D_DATAIN_SIZE_1.DATAIN_CHANNEL + 1 = %u: pixel format %s has %u bytes a pixel",
         L->in_c, conv_image_format_name(L->pixel_format), im->bpp);
    need(ck, FLD(cdma, CDMA, D_DATAIN_FORMAT_0, PIXEL_MAPPING) == 0,
         "CDMA.D_DATAIN_FORMAT.PIXEL_MAPPING = 1: only pitch linear exists");
    need(ck, FLD(cdma, CDMA, D_PIXEL_OFFSET_0, PIXEL_Y_OFFSET) == 0,
         "CDMA.D_PIXEL_OFFSET.PIXEL_Y_OFFSET != 0 (NV_NVDLA_CDMA_IMG_sg.v asserts it is zero)");
    im->x_offset = L->x_offset = FLD(cdma, CDMA, D_PIXEL_OFFSET_0, PIXEL_X_OFFSET);
    const bool semi = im->bpp == 3; /* Y plane 1 byte a pixel, UV plane 2 */
    const uint32_t atom_px = semi ? ATOM / 2 : ATOM / im->bpp;
    need(ck, im->x_offset < atom_px,
         "CDMA.D_PIXEL_OFFSET.PIXEL_X_OFFSET = %u: offsets beyond the first 8-byte "
         "atom (%u pixels%s) are not modelled",
         im->x_offset, atom_px, semi ? " of the UV plane" : "");
    L->y_ext = 1u << FLD(csc, CSC, D_POST_Y_EXTENSION_0, Y_EXTENSION);
    need(ck, L->y_ext <= 4, "CSC.D_POST_Y_EXTENSION = 3: 1, 2 or 4 lines only");
    im->base = nvdla_pp_reg(cdma, NVDLA_CDMA_D_DAIN_ADDR_LOW_0_0);
    im->line_stride = nvdla_pp_reg(cdma, NVDLA_CDMA_D_LINE_STRIDE_0);
    need(ck, im->base % 8 == 0 && im->line_stride % 8 == 0,
         "CDMA.D_DAIN_ADDR_LOW_0 0x%x / D_LINE_STRIDE 0x%x: "
         "image lines not 8-byte (atom) aligned are not modelled",
         im->base, im->line_stride);
    need(ck, im->line_stride >= (im->x_offset + L->in_w) * (semi ? 1 : im->bpp) || L->in_h == 1,
         "CDMA.D_LINE_STRIDE = %u is less than the %u bytes of a line", im->line_stride,
         (im->x_offset + L->in_w) * (semi ? 1 : im->bpp));
    if (semi) {
        im->uv_base = nvdla_pp_reg(cdma, NVDLA_CDMA_D_DAIN_ADDR_LOW_1_0);
        im->uv_stride = nvdla_pp_reg(cdma, NVDLA_CDMA_D_LINE_UV_STRIDE_0);
        need(ck, im->uv_base % 8 == 0 && im->uv_stride % 8 == 0,
             "CDMA.D_DAIN_ADDR_LOW_1 0x%x / "
             "D_LINE_UV_STRIDE 0x%x: UV lines not 8-byte (atom) aligned are not modelled",
             im->uv_base, im->uv_stride);
        need(ck, im->uv_stride >= (im->x_offset + L->in_w) * 2 || L->in_h == 1,
             "CDMA.D_LINE_UV_STRIDE = %u is less than the %u bytes of a UV line", im->uv_stride,
             (im->x_offset + L->in_w) * 2);
        need(ck, nvdla_pp_reg(cdma, NVDLA_CDMA_D_DAIN_ADDR_HIGH_1_0) == 0,
             "CDMA.D_DAIN_ADDR_HIGH_1 != 0: beyond "
             "the 32-bit memory");
    }
    im->width = L->in_w, im->height = L->in_h;
    im->pad_value = (uint8_t)FLD(cdma, CDMA, D_ZERO_PADDING_VALUE_0, PAD_VALUE);
    im->is_signed = FLD(cdma, CDMA, D_DATAIN_FORMAT_0, PIXEL_SIGN_OVERRIDE);
    im->cvt = L->cvt = FLD(cdma, CDMA, D_CVT_CFG_0, CVT_EN);
    im->mean = L->mean = FLD(cdma, CDMA, D_MEAN_FORMAT_0, MEAN_FORMAT);
    im->truncate = FLD(cdma, CDMA, D_CVT_CFG_0, CVT_TRUNCATE);
    im->offset = (int16_t)FLD(cdma, CDMA, D_CVT_OFFSET_0, CVT_OFFSET);
    im->scale = (int16_t)FLD(cdma, CDMA, D_CVT_SCALE_0, CVT_SCALE);
    im->means[0] = (int16_t)FLD(cdma, CDMA, D_MEAN_GLOBAL_0_0, MEAN_RY);
    im->means[1] = (int16_t)FLD(cdma, CDMA, D_MEAN_GLOBAL_0_0, MEAN_GU);
    im->means[2] = (int16_t)FLD(cdma, CDMA, D_MEAN_GLOBAL_1_0, MEAN_BV);
    im->means[3] = (int16_t)FLD(cdma, CDMA, D_MEAN_GLOBAL_1_0, MEAN_AX);
}

/* Image input: CACC's sums over the CBUF lines CDMA wrote (pad_l + w + pad_r pixels of bpp bytes each), CSC
 * reading for output (x, y) and kernel row r the k_w x bpp bytes from x * stride_x * bpp of line
 * y * stride_y + r - pad_top (rows outside: CSC's pad value), 8 bytes (one atom product) at a time. Weights in
 * the direct layout of the pre-extended kernel (R x 1 x k_w*bpp). */
/* Weight byte of w[k][r][c] of a pre-extended kernel (C bytes a row, one channel block) with post-extension by
 * e lines (NVIDIA cmod NV_NVDLA_csc.cpp: a stripe reads e rows of a kernel, C x e bytes, the last stripe the
 * R % e rows left): groups of 8 kernels, then stripes, then kernels, then the stripe's rows. */
static size_t post_ext_offset(uint32_t k, uint32_t r, uint32_t c, uint32_t R, uint32_t C, uint32_t K, uint32_t e)
{
    uint32_t g = k / ATOM, kk = k % ATOM, gn = K - g * ATOM < ATOM ? K - g * ATOM : ATOM;
    uint32_t j = r / e, rows = (j == (R - 1) / e) ? R - j * e : e;
    return (size_t)g * ATOM * R * C + (size_t)j * e * C * gn + ((size_t)kk * rows + r % e) * C + c;
}

static void image_compute(const conv_layer_t *L, const int8_t *lines, uint32_t bpp, const int8_t *wt,
                          nv_acc_cube_t *out, uint32_t *saturated)
{
    const uint32_t lb = (L->pad_l + L->in_w + L->pad_r) * bpp, C = L->k_w * bpp, R = L->k_h, K = L->kernels;
    if (L->y_ext > 1) { /* one atom: the e rows of a stripe, C bytes each */
        const uint32_t e = L->y_ext;
        for (uint32_t k = 0; k < K; k++)
            for (uint32_t oy = 0; oy < L->out_h; oy++)
                for (uint32_t ox = 0; ox < L->out_w; ox++) {
                    int64_t acc = 0;
                    for (uint32_t j = 0; j * e < R; j++) {
                        int64_t partial = 0;
                        for (uint32_t r = j * e; r < R && r < (j + 1) * e; r++) {
                            int64_t y = (int64_t)oy * L->stride_y + r - L->pad_t;
                            bool pad = y < 0 || y >= L->in_h;
                            const int8_t *src = pad ? NULL : lines + (size_t)y * lb + (size_t)ox * L->stride_x * bpp;
                            for (uint32_t c = 0; c < C; c++)
                                partial +=
                                    (pad ? L->pad_value : src[c]) * (int64_t)wt[post_ext_offset(k, r, c, R, C, K, e)];
                        }
                        acc = conv_cacc_add(acc, partial);
                    }
                    bool sat;
                    nv_acc_atom(out, k / ATOM, oy, ox)[k % ATOM] = conv_cacc_round(acc, L->truncate, &sat);
                    *saturated += sat;
                }
        return;
    }
    for (uint32_t k = 0; k < K; k++)
        for (uint32_t oy = 0; oy < L->out_h; oy++)
            for (uint32_t ox = 0; ox < L->out_w; ox++) {
                int64_t acc = 0;
                for (uint32_t cb = 0; cb * ATOM < C; cb++)
                    for (uint32_t r = 0; r < R; r++) {
                        int64_t y = (int64_t)oy * L->stride_y + r - L->pad_t;
                        bool pad = y < 0 || y >= L->in_h;
                        const int8_t *src = pad ? NULL : lines + (size_t)y * lb + (size_t)ox * L->stride_x * bpp;
                        int64_t partial = 0;
                        for (uint32_t cc = 0; cc < ATOM && cb * ATOM + cc < C; cc++) {
                            int64_t d = pad ? L->pad_value : src[cb * ATOM + cc];
                            partial += d * wt[weight_offset(k, r, 0, cb * ATOM + cc, R, 1, C, K)];
                        }
                        acc = conv_cacc_add(acc, partial);
                    }
                bool sat;
                nv_acc_atom(out, k / ATOM, oy, ox)[k % ATOM] = conv_cacc_round(acc, L->truncate, &sat);
                *saturated += sat;
            }
}

uint32_t conv_weight_ring_groups(uint64_t kernel_bytes, uint32_t kernels, uint32_t weight_bytes, uint32_t banks)
{
    const uint64_t ring = (uint64_t)banks * BANK_BYTES;
    if (weight_bytes <= ring) return CONV_WEIGHTS_RESIDENT;
    /* Streamed: each group is 8 x kernel_bytes (entry-aligned); the last one runs to D_WEIGHT_BYTES, the
     * format's padding included (CDMA reports it only once all of D_WEIGHT_BYTES is in). */
    const uint64_t group = ATOM * kernel_bytes, groups = (kernels + ATOM - 1) / ATOM;
    const uint64_t last = weight_bytes - (groups - 1) * group;
    if (kernels <= ATOM || group > ring || last > ring) return 0;
    return (uint32_t)(ring / group);
}

/* What conv_golden_run decodes beyond conv_layer_t, for the checks and the computation after it. */
typedef struct conv_decoded {
    conv_image_cfg_t im; /* image input: the pixel surface and CDMA's converter (bpp 1 for feature input) */
    uint64_t kernel_bytes, wbytes;
    uint32_t cdma_wb; /* CDMA.D_WEIGHT_BYTES */
} conv_decoded_t;

/* Check: the modes nv_small has, in every unit of the pipeline, and the units in step. */
static void check_modes(chk_t *ck, const nvdla_pp_t units[CONV_NUNITS])
{
    const nvdla_pp_t *cdma = &units[CONV_CDMA], *csc = &units[CONV_CSC], *cacc = &units[CONV_CACC];
    /* Modes nv_small has: INT8, direct convolution, uncompressed weights, batch 1, memory (MC) ports. */
    static const char *const unit_name[CONV_NUNITS] = {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"};
    static const uint32_t misc_off[CONV_NUNITS] = {0x014, 0x00c, 0x00c, 0x00c, 0x00c};
    for (int u = 0; u < CONV_NUNITS; u++) {
        uint32_t misc = nvdla_pp_reg(&units[u], CONV_FIRST + 0x1000u * (uint32_t)u + misc_off[u]);
        need(ck, (misc & 1) == 0, "%s.D_MISC_CFG.CONV_MODE = Winograd: nv_small has no Winograd", unit_name[u]);
        need(ck, ((misc >> 12) & 3) == 0,
             "%s.D_MISC_CFG.PROC_PRECISION = %u: nv_small is INT8 only (0; the reset "
             "value 1 is INT16)",
             unit_name[u], (misc >> 12) & 3);
        if (u <= CONV_CSC)
            need(ck, ((misc >> 8) & 3) == 0, "%s.D_MISC_CFG.IN_PRECISION = %u: nv_small is INT8 only (0)", unit_name[u],
                 (misc >> 8) & 3);
    }
    need(ck, units[CONV_CSC].consumer == ck->group && units[CONV_CACC].consumer == ck->group,
         "CDMA, CSC and CACC run different register groups (CONSUMER %d/%d/%d): S_POINTER writes out of step",
         ck->group, units[CONV_CSC].consumer, units[CONV_CACC].consumer);
    need(ck,
         FLD(cdma, CDMA, D_WEIGHT_FORMAT_0, WEIGHT_FORMAT) == 0 && FLD(csc, CSC, D_WEIGHT_FORMAT_0, WEIGHT_FORMAT) == 0,
         "D_WEIGHT_FORMAT = compressed: nv_small has no weight compression");
    need(ck,
         FLD(cdma, CDMA, D_BATCH_NUMBER_0, BATCHES) == 0 && FLD(csc, CSC, D_BATCH_NUMBER_0, BATCHES) == 0 &&
             FLD(cacc, CACC, D_BATCH_NUMBER_0, BATCHES) == 0,
         "D_BATCH_NUMBER != 0: nv_small has no batching");
    need(ck, FLD(cdma, CDMA, D_DAIN_RAM_TYPE_0, DATAIN_RAM_TYPE) == 1,
         "CDMA.D_DAIN_RAM_TYPE = 0 (CV SRAM): nv_small has no SRAM port and never completes");
    need(ck, FLD(cdma, CDMA, D_WEIGHT_RAM_TYPE_0, WEIGHT_RAM_TYPE) == 1,
         "CDMA.D_WEIGHT_RAM_TYPE = 0 (CV SRAM): nv_small has no SRAM port and never completes");
}

/* Decode: feature or image input, and its size (CDMA's, cross-checked with CSC's copy). */
static void decode_input(chk_t *ck, const nvdla_pp_t *cdma, const nvdla_pp_t *csc, conv_layer_t *L)
{
    L->image = FLD(cdma, CDMA, D_DATAIN_FORMAT_0, DATAIN_FORMAT);
    need(ck, FLD(csc, CSC, D_DATAIN_FORMAT_0, DATAIN_FORMAT) == L->image,
         "CDMA.D_DATAIN_FORMAT and CSC.D_DATAIN_FORMAT differ");

    /* Geometry, each fact from the unit that uses it, cross-checked with the copies in the other units. */
    L->in_w = FLD(cdma, CDMA, D_DATAIN_SIZE_0_0, DATAIN_WIDTH) + 1;
    L->in_h = FLD(cdma, CDMA, D_DATAIN_SIZE_0_0, DATAIN_HEIGHT) + 1;
    L->in_c = FLD(cdma, CDMA, D_DATAIN_SIZE_1_0, DATAIN_CHANNEL) + 1;
    uint32_t ext_w = FLD(csc, CSC, D_DATAIN_SIZE_EXT_0_0, DATAIN_WIDTH_EXT) + 1,
             ext_h = FLD(csc, CSC, D_DATAIN_SIZE_EXT_0_0, DATAIN_HEIGHT_EXT) + 1,
             ext_c = FLD(csc, CSC, D_DATAIN_SIZE_EXT_1_0, DATAIN_CHANNEL_EXT) + 1;
    need(ck, ext_w == L->in_w && ext_h == L->in_h && ext_c == L->in_c,
         "CSC.D_DATAIN_SIZE_EXT (%ux%ux%u) differs from CDMA.D_DATAIN_SIZE (%ux%ux%u) in direct convolution", ext_w,
         ext_h, ext_c, L->in_w, L->in_h, L->in_c);
    need(ck,
         FLD(cdma, CDMA, D_DATAIN_SIZE_EXT_0_0, DATAIN_WIDTH_EXT) + 1 == L->in_w &&
             FLD(cdma, CDMA, D_DATAIN_SIZE_EXT_0_0, DATAIN_HEIGHT_EXT) + 1 == L->in_h,
         "CDMA.D_DATAIN_SIZE_EXT_0 differs from CDMA.D_DATAIN_SIZE_0 in direct convolution");
}

/* Decode: the kernels (CSC's, with the image input's pre- and post-extension) and the weight bytes, cross-checked
 * with CDMA's copies. */
static void decode_kernels(chk_t *ck, const nvdla_pp_t *cdma, const nvdla_pp_t *csc, conv_layer_t *L,
                           conv_decoded_t *dec)
{
    L->k_w = FLD(csc, CSC, D_WEIGHT_SIZE_EXT_0_0, WEIGHT_WIDTH_EXT) + 1;
    L->k_h = FLD(csc, CSC, D_WEIGHT_SIZE_EXT_0_0, WEIGHT_HEIGHT_EXT) + 1;
    uint32_t wch = FLD(csc, CSC, D_WEIGHT_SIZE_EXT_1_0, WEIGHT_CHANNEL_EXT) + 1;
    L->kernels = FLD(csc, CSC, D_WEIGHT_SIZE_EXT_1_0, WEIGHT_KERNEL) + 1;
    if (L->image) {
        image_decode(ck, cdma, csc, L, &dec->im);
        /* Channel pre-extension: CSC sees a kernel 1 wide whose channels are the kernel width x C bytes of
         * an image line (NVIDIA cmod NV_NVDLA_csc.cpp refuses another kernel width in image mode). */
        need(ck, L->k_w == 1,
             "CSC.D_WEIGHT_SIZE_EXT_0.WEIGHT_WIDTH_EXT = %u: image input needs the channel "
             "pre-extended kernel (width 1, WEIGHT_CHANNEL_EXT + 1 = kernel width x channels)",
             L->k_w - 1);
        need(ck, wch % L->in_c == 0,
             "CSC.D_WEIGHT_SIZE_EXT_1.WEIGHT_CHANNEL_EXT + 1 = %u is not a multiple of "
             "the %u channels of the pixel format",
             wch, L->in_c);
        need(ck, wch <= 128,
             "CSC.D_WEIGHT_SIZE_EXT_1.WEIGHT_CHANNEL_EXT + 1 = %u: a pre-extended kernel is at most "
             "128 bytes (NV_NVDLA_CSC_dl.v:2418)",
             wch);
        /* NV_NVDLA_CSC_dl.v:2403: channel_op_cnt advances on every clock dl_block_end & is_stripe_end hold, not once
         * an executed block, so next_is_last_channel (2417) can rise blocks early; pixel_w_cnt then steps by the
         * last block's width (x_init_offset) instead of 8 and CSC reads the later blocks from the wrong bytes
         * (seen on nv_small: 4 blocks of which the last has 4 bytes, block 3 read 8 bytes early). Harmless while
         * the blocks are at most 3 (the count starts at 2) or the last block is whole. */
        need(ck, wch <= 3 * ATOM || wch % ATOM == 0,
             "CSC.D_WEIGHT_SIZE_EXT_1.WEIGHT_CHANNEL_EXT + 1 = %u: more than 3 "
             "channel blocks with a partial last one are read wrongly by nv_small's CSC (its channel_op_cnt, "
             "NV_NVDLA_CSC_dl.v:2403, counts clocks): not modelled",
             wch);
        L->k_w = wch / L->in_c;
        /* post-extension: y_ext kernel rows share one 8-byte atom (8 / y_ext bytes each: NVIDIA cmod
         * NV_NVDLA_csc.cpp wants one channel block) */
        need(ck, L->y_ext == 1 || wch * L->y_ext <= ATOM,
             "CSC.D_POST_Y_EXTENSION: %u lines of %u bytes exceed the "
             "8-byte atom",
             L->y_ext, wch);
    } else
        need(ck, wch == L->in_c,
             "CSC.D_WEIGHT_SIZE_EXT_1.WEIGHT_CHANNEL_EXT + 1 = %u differs from the input channels %u", wch, L->in_c);
    uint64_t kernel_bytes = (uint64_t)L->k_w * L->k_h * L->in_c, wbytes = kernel_bytes * L->kernels;
    need(ck, FLD(cdma, CDMA, D_WEIGHT_SIZE_0_0, BYTE_PER_KERNEL) + 1 == kernel_bytes,
         "CDMA.D_WEIGHT_SIZE_0.BYTE_PER_KERNEL + 1 = %u, but the kernel is %ux%ux%u = %llu bytes",
         FLD(cdma, CDMA, D_WEIGHT_SIZE_0_0, BYTE_PER_KERNEL) + 1, L->k_w, L->k_h, L->in_c,
         (unsigned long long)kernel_bytes);
    need(ck, FLD(cdma, CDMA, D_WEIGHT_SIZE_1_0, WEIGHT_KERNEL) + 1 == L->kernels,
         "CDMA.D_WEIGHT_SIZE_1.WEIGHT_KERNEL + 1 = %u differs from CSC's %u kernels",
         FLD(cdma, CDMA, D_WEIGHT_SIZE_1_0, WEIGHT_KERNEL) + 1, L->kernels);
    uint32_t cdma_wb = nvdla_pp_reg(cdma, NVDLA_CDMA_D_WEIGHT_BYTES_0),
             csc_wb = nvdla_pp_reg(csc, NVDLA_CSC_D_WEIGHT_BYTES_0);
    need(ck, cdma_wb == csc_wb, "CDMA.D_WEIGHT_BYTES 0x%x differs from CSC.D_WEIGHT_BYTES 0x%x", cdma_wb, csc_wb);
    need(ck, cdma_wb >= wbytes, "CDMA.D_WEIGHT_BYTES = %u is less than the %llu bytes of %u kernels of %llu bytes",
         cdma_wb, (unsigned long long)wbytes, L->kernels, (unsigned long long)kernel_bytes);
    dec->kernel_bytes = kernel_bytes, dec->wbytes = wbytes, dec->cdma_wb = cdma_wb;
}

/* Decode: the window over the input (strides, dilation, padding) and the output plane, cross-checked between
 * the units; CACC's rounding. */
static void decode_window(chk_t *ck, const nvdla_pp_t *cdma, const nvdla_pp_t *csc, const nvdla_pp_t *cacc,
                          conv_layer_t *L)
{
    L->stride_x = FLD(csc, CSC, D_CONV_STRIDE_EXT_0, CONV_X_STRIDE_EXT) + 1;
    L->stride_y = FLD(csc, CSC, D_CONV_STRIDE_EXT_0, CONV_Y_STRIDE_EXT) + 1;
    need(ck,
         FLD(cdma, CDMA, D_CONV_STRIDE_0, CONV_X_STRIDE) + 1 == L->stride_x &&
             FLD(cdma, CDMA, D_CONV_STRIDE_0, CONV_Y_STRIDE) + 1 == L->stride_y,
         "CDMA.D_CONV_STRIDE differs from CSC.D_CONV_STRIDE_EXT in direct convolution");
    L->dil_x = FLD(csc, CSC, D_DILATION_EXT_0, X_DILATION_EXT) + 1;
    L->dil_y = FLD(csc, CSC, D_DILATION_EXT_0, Y_DILATION_EXT) + 1;
    /* Post-extension on nv_small: its CSC steps the line position by x stride x C bytes a line share of the atom
     * (NV_NVDLA_CSC_dl.v:922-931 pixel_x_init/pixel_x_add scaled by the lines); measured: 2 lines pass with up
     * to 4 stride bytes and fail with 6-16 (4-byte and YUV formats at stride 2+), 4 lines pass with 2 and fail
     * with 3-4, where the cmod has no such limit. Beyond that share the model refuses. */
    if (L->image && L->y_ext > 1)
        need(ck, L->stride_x * L->in_c <= ATOM / L->y_ext,
             "CSC.D_POST_Y_EXTENSION = %u lines with a %u-byte x stride "
             "(CONV_X_STRIDE_EXT x channels): nv_small reads it wrongly beyond %u bytes, not modelled",
             L->y_ext, L->stride_x * L->in_c, ATOM / L->y_ext);
    /* Image input: CSC ignores its dilation (NV_NVDLA_CSC_dl.v:974-975 force 1) and its PAD_LEFT (2378: the line
     * starts at 0, the left padding being stored by CDMA), so they are not checked. */
    if (L->image) L->dil_x = L->dil_y = 1;
    L->pad_l = L->image ? FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_LEFT) : FLD(csc, CSC, D_ZERO_PADDING_0, PAD_LEFT);
    L->pad_t = FLD(csc, CSC, D_ZERO_PADDING_0, PAD_TOP);
    L->pad_r = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_RIGHT);
    L->pad_b = FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_BOTTOM);
    need(ck,
         (L->image || FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_LEFT) == L->pad_l) &&
             FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_TOP) == L->pad_t,
         "CDMA.D_ZERO_PADDING left/top (%u/%u) differ from CSC.D_ZERO_PADDING (%u/%u)",
         FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_LEFT), FLD(cdma, CDMA, D_ZERO_PADDING_0, PAD_TOP), L->pad_l, L->pad_t);
    /* CSC pads with the low byte of its PAD_VALUE (NV_NVDLA_CSC_dl.v: {8{pad_value[7:0]}}). */
    L->pad_value = (int8_t)(FLD(csc, CSC, D_ZERO_PADDING_VALUE_0, PAD_VALUE) & 0xFF);

    L->out_w = FLD(csc, CSC, D_DATAOUT_SIZE_0_0, DATAOUT_WIDTH) + 1;
    L->out_h = FLD(csc, CSC, D_DATAOUT_SIZE_0_0, DATAOUT_HEIGHT) + 1;
    uint32_t out_k = FLD(csc, CSC, D_DATAOUT_SIZE_1_0, DATAOUT_CHANNEL) + 1;
    need(ck, out_k == L->kernels, "CSC.D_DATAOUT_SIZE_1.DATAOUT_CHANNEL + 1 = %u differs from the %u kernels", out_k,
         L->kernels);
    uint64_t span_w = (uint64_t)(L->k_w - 1) * L->dil_x + 1, span_h = (uint64_t)(L->k_h - 1) * L->dil_y + 1;
    uint64_t need_w = (uint64_t)(L->out_w - 1) * L->stride_x + span_w,
             need_h = (uint64_t)(L->out_h - 1) * L->stride_y + span_h;
    need(ck, need_w <= (uint64_t)L->in_w + L->pad_l + L->pad_r,
         "CSC.D_DATAOUT_SIZE_0 width %u needs %llu padded input columns, CDMA gives %u + %u + %u", L->out_w,
         (unsigned long long)need_w, L->pad_l, L->in_w, L->pad_r);
    need(ck, need_h <= (uint64_t)L->in_h + L->pad_t + L->pad_b,
         "CSC.D_DATAOUT_SIZE_0 height %u needs %llu padded input rows, CDMA gives %u + %u + %u", L->out_h,
         (unsigned long long)need_h, L->pad_t, L->in_h, L->pad_b);
    need(ck, FLD(csc, CSC, D_ATOMICS_0, ATOMICS) + 1 == (uint64_t)L->out_w * L->out_h,
         "CSC.D_ATOMICS + 1 = %u, but the output plane is %ux%u", FLD(csc, CSC, D_ATOMICS_0, ATOMICS) + 1, L->out_w,
         L->out_h);
    need(ck,
         FLD(cacc, CACC, D_DATAOUT_SIZE_0_0, DATAOUT_WIDTH) + 1 == L->out_w &&
             FLD(cacc, CACC, D_DATAOUT_SIZE_0_0, DATAOUT_HEIGHT) + 1 == L->out_h &&
             FLD(cacc, CACC, D_DATAOUT_SIZE_1_0, DATAOUT_CHANNEL) + 1 == L->kernels,
         "CACC.D_DATAOUT_SIZE (%ux%ux%u) differs from CSC.D_DATAOUT_SIZE (%ux%ux%u)",
         FLD(cacc, CACC, D_DATAOUT_SIZE_0_0, DATAOUT_WIDTH) + 1,
         FLD(cacc, CACC, D_DATAOUT_SIZE_0_0, DATAOUT_HEIGHT) + 1,
         FLD(cacc, CACC, D_DATAOUT_SIZE_1_0, DATAOUT_CHANNEL) + 1, L->out_w, L->out_h, L->kernels);
    L->truncate = FLD(cacc, CACC, D_CLIP_CFG_0, CLIP_TRUNCATE);
}

/* Check, feature input: the packed flags must match the strides (nvdla.md 6; nv_small fetches by the flags). */
static void check_feature_packing(chk_t *ck, const nvdla_pp_t *cdma, const conv_layer_t *L)
{
    const uint32_t ls = nvdla_pp_reg(cdma, NVDLA_CDMA_D_LINE_STRIDE_0),
                   ss = nvdla_pp_reg(cdma, NVDLA_CDMA_D_SURF_STRIDE_0);
    const bool line_packed = ls == L->in_w * ATOM, surf_packed = line_packed && ss == L->in_h * ls;
    need(ck, !FLD(cdma, CDMA, D_DAIN_MAP_0, LINE_PACKED) || line_packed,
         "CDMA.D_DAIN_MAP.LINE_PACKED = 1, but D_LINE_STRIDE = %u is not W x 8 = %u", ls, L->in_w * ATOM);
    need(ck, !FLD(cdma, CDMA, D_DAIN_MAP_0, SURF_PACKED) || surf_packed,
         "CDMA.D_DAIN_MAP.SURF_PACKED = 1, but the cube is not surface-packed (D_LINE_STRIDE %u, D_SURF_STRIDE "
         "%u; packed: %u, %u)",
         ls, ss, L->in_w * ATOM, L->in_h * L->in_w * ATOM);
}

/* Check: the layer fits the CBUF; decode how the weights sit in its ring (L->ring_groups). */
static void check_cbuf(chk_t *ck, const nvdla_pp_t *cdma, const nvdla_pp_t *csc, conv_layer_t *L,
                       const conv_decoded_t *dec)
{
    /* CBUF: the whole input cube resident (32 banks of 512 entries of 8 bytes); the weights resident, or streamed
     * through the weight ring kernel group by kernel group (docs/nvdla_conv.md "Weights larger than their banks"). */
    L->data_banks = FLD(cdma, CDMA, D_BANK_0, DATA_BANK) + 1;
    L->weight_banks = FLD(cdma, CDMA, D_BANK_0, WEIGHT_BANK) + 1;
    need(ck, nvdla_pp_reg(cdma, NVDLA_CDMA_D_BANK_0) == nvdla_pp_reg(csc, NVDLA_CSC_D_BANK_0),
         "CDMA.D_BANK 0x%x differs from CSC.D_BANK 0x%x", nvdla_pp_reg(cdma, NVDLA_CDMA_D_BANK_0),
         nvdla_pp_reg(csc, NVDLA_CSC_D_BANK_0));
    need(ck, L->data_banks + L->weight_banks <= CBUF_BANKS,
         "CDMA.D_BANK: %u data + %u weight banks exceed the CBUF's %u", L->data_banks, L->weight_banks, CBUF_BANKS);
    uint32_t entries = L->image ? ((L->pad_l + L->in_w + L->pad_r) * dec->im.bpp + ATOM - 1) / ATOM
                                : L->in_w * ((L->in_c + ATOM - 1) / ATOM);
    need(ck,
         FLD(cdma, CDMA, D_ENTRY_PER_SLICE_0, ENTRIES) + 1 == entries &&
             FLD(csc, CSC, D_ENTRY_PER_SLICE_0, ENTRIES) + 1 == entries,
         "D_ENTRY_PER_SLICE + 1 (CDMA %u, CSC %u) must be %s = %u", FLD(cdma, CDMA, D_ENTRY_PER_SLICE_0, ENTRIES) + 1,
         FLD(csc, CSC, D_ENTRY_PER_SLICE_0, ENTRIES) + 1,
         L->image ? "the padded line's bytes in 8-byte entries" : "width x channel atoms", entries);
    need(ck, (uint64_t)entries * L->in_h <= (uint64_t)L->data_banks * BANK_ENTRIES,
         "CDMA.D_BANK.DATA_BANK: the input needs %llu CBUF entries, %u banks hold %u",
         (unsigned long long)entries * L->in_h, L->data_banks, L->data_banks * BANK_ENTRIES);
    L->ring_groups = conv_weight_ring_groups(dec->kernel_bytes, L->kernels, dec->cdma_wb, L->weight_banks);
    if (dec->cdma_wb >= dec->wbytes && L->ring_groups == 0) {
        /* CSC starts a group only once CDMA has reported all its kernels (NV_NVDLA_CSC_sg.v wt_cbuf_ready), CDMA
         * reports them once the group's bytes (the last group: up to D_WEIGHT_BYTES) are written
         * (NV_NVDLA_CDMA_wt.v wt_satisfied) and writes no more than the ring holds (dma_rd_rsp_rdy): a group
         * larger than the ring never starts and nv_small hangs. */
        const uint64_t group = dec->kernel_bytes * (L->kernels < ATOM ? L->kernels : ATOM),
                       ring = (uint64_t)L->weight_banks * BANK_BYTES;
        const uint64_t groups = (L->kernels + ATOM - 1) / ATOM,
                       last = dec->cdma_wb - (groups - 1) * ATOM * dec->kernel_bytes;
        need(ck, false,
             "CDMA.D_BANK.WEIGHT_BANK: %u weight banks (%llu bytes) hold no whole kernel group: a group "
             "is %llu bytes, the last one %llu with D_WEIGHT_BYTES' padding; CSC waits for a whole group, so "
             "nv_small would hang",
             L->weight_banks, (unsigned long long)ring, (unsigned long long)group, (unsigned long long)last);
    }
}

/* Compute, image input: the pixel lines as CDMA writes them to the CBUF, then CACC's sums (image_compute). */
static void compute_image(const nvdla_dp_ctx_t *ctx, conv_layer_t *L, const conv_image_cfg_t *im, const int8_t *wt,
                          nv_acc_cube_t *out)
{
    const bool semi = im->bpp == 3;
    const size_t row = (size_t)(im->x_offset + L->in_w) * (semi ? 1 : im->bpp),
                 uv_row = (size_t)((im->x_offset & 3) + L->in_w) * 2;
    /* the rows as read from memory, packed (the strides may be large) */
    uint8_t *rows = malloc((size_t)L->in_h * row), *uv_rows = semi ? malloc((size_t)L->in_h * uv_row) : NULL;
    int8_t *lines = malloc((size_t)L->in_h * (L->pad_l + L->in_w + L->pad_r) * im->bpp);
    if (!rows || !lines || (semi && !uv_rows)) abort();
    for (uint32_t y = 0; y < L->in_h; y++) {
        mem_read(ctx->mem, im->base + y * im->line_stride, rows + (size_t)y * row, row);
        if (semi) mem_read(ctx->mem, im->uv_base + y * im->uv_stride, uv_rows + (size_t)y * uv_row, uv_row);
    }
    conv_image_cfg_t packed = *im;
    packed.line_stride = (uint32_t)row, packed.uv_stride = (uint32_t)uv_row;
    packed.pad_l = L->pad_l, packed.pad_r = L->pad_r;
    conv_image_lines(&packed, rows, uv_rows, lines);
    image_compute(L, lines, im->bpp, wt, out, &L->saturated);
    free(rows);
    free(uv_rows);
    free(lines);
}

/* Compute, feature input: CACC's sums over the input cube. */
static void compute_feature(const nvdla_dp_ctx_t *ctx, const nvdla_pp_t *cdma, conv_layer_t *L, const int8_t *wt,
                            nv_acc_cube_t *out)
{
    /* Feature cube in the nv_small layout (CDMA.D_DAIN_ADDR_LOW_0, line and surface strides). */
    nv_cube_t in;
    nv_cube_alloc(&in, L->in_w, L->in_h, L->in_c);
    nv_place_t src = {.base = nvdla_pp_reg(cdma, NVDLA_CDMA_D_DAIN_ADDR_LOW_0_0) & ~7u,
                      .line_stride = nvdla_pp_reg(cdma, NVDLA_CDMA_D_LINE_STRIDE_0) & ~7u,
                      .surf_stride = nvdla_pp_reg(cdma, NVDLA_CDMA_D_SURF_STRIDE_0) & ~7u};
    nv_cube_read(ctx, &in, &src);
    /* CDMA's input converter acts on feature data too, not only on pixels (NV_NVDLA_CDMA_cvt.v: cvt_wr_en includes
     * dc2cvt_dat_wr_en, cvt_cell_en = cvt_wr_en & CVT_EN), with CVT_OFFSET (the direct path's mean bit is 0) on signed
     * bytes (its uint bit is 0; NV_NVDLA_CDMA_dc.v:2751-2752). CSC's padding is not converted. */
    L->cvt = FLD(cdma, CDMA, D_CVT_CFG_0, CVT_EN);
    if (L->cvt) {
        const int16_t off = (int16_t)FLD(cdma, CDMA, D_CVT_OFFSET_0, CVT_OFFSET),
                      scale = (int16_t)FLD(cdma, CDMA, D_CVT_SCALE_0, CVT_SCALE);
        const unsigned t = FLD(cdma, CDMA, D_CVT_CFG_0, CVT_TRUNCATE);
        for (size_t i = 0; i < (size_t)in.s * in.h * in.w * ATOM; i++)
            in.v[i] = conv_image_cvt((uint8_t)in.v[i], true, off, scale, t);
    }
    const uint32_t R = L->k_h, S = L->k_w, C = L->in_c, K = L->kernels;
    for (uint32_t k = 0; k < K; k++)
        for (uint32_t oy = 0; oy < L->out_h; oy++)
            for (uint32_t ox = 0; ox < L->out_w; ox++) {
                int64_t acc = 0;
                /* CACC adds one 8-channel atom product (exact in 19 bits) at a time, saturating at 34 bits. */
                for (uint32_t cb = 0; cb * ATOM < C; cb++)
                    for (uint32_t r = 0; r < R; r++)
                        for (uint32_t s = 0; s < S; s++) {
                            int64_t y = (int64_t)oy * L->stride_y + (int64_t)r * L->dil_y - L->pad_t;
                            int64_t x = (int64_t)ox * L->stride_x + (int64_t)s * L->dil_x - L->pad_l;
                            bool pad = y < 0 || x < 0 || y >= L->in_h || x >= L->in_w;
                            const int8_t *atom = pad ? NULL : nv_atom(&in, cb, (uint32_t)y, (uint32_t)x);
                            int64_t partial = 0;
                            for (uint32_t cc = 0; cc < ATOM && cb * ATOM + cc < C; cc++) {
                                int64_t d = pad ? L->pad_value : atom[cc];
                                partial += d * wt[weight_offset(k, r, s, cb * ATOM + cc, R, S, C, K)];
                            }
                            acc = conv_cacc_add(acc, partial);
                        }
                bool sat;
                nv_acc_atom(out, k / ATOM, oy, ox)[k % ATOM] = conv_cacc_round(acc, L->truncate, &sat);
                L->saturated += sat;
            }
    nv_cube_free(&in);
}

bool conv_golden_run(const nvdla_pp_t units[CONV_NUNITS], const nvdla_dp_ctx_t *ctx, nv_acc_cube_t *out,
                     conv_layer_t *L)
{
    const nvdla_pp_t *cdma = &units[CONV_CDMA], *csc = &units[CONV_CSC], *cacc = &units[CONV_CACC];
    chk_t ck = {.ctx = ctx, .group = cdma->consumer, .ok = true};
    memset(L, 0, sizeof *L);
    memset(out, 0, sizeof *out);
    conv_decoded_t dec = {.im = {.bpp = 1}};
    /* every check reports (a refused layer lists all its faults), in the order of the registers' decoding */
    check_modes(&ck, units);
    decode_input(&ck, cdma, csc, L);
    decode_kernels(&ck, cdma, csc, L, &dec);
    decode_window(&ck, cdma, csc, cacc, L);
    if (!L->image) check_feature_packing(&ck, cdma, L);
    check_cbuf(&ck, cdma, csc, L, &dec);
    if (!ck.ok) return false;
    if (nv_cube_too_big(ctx, "CONV", ck.group, L->in_w, L->in_h, L->in_c) ||
        nv_cube_too_big(ctx, "CONV", ck.group, L->out_w, L->out_h, L->kernels))
        return false;

    int8_t *wt = malloc(dec.wbytes ? dec.wbytes : 1);
    if (!wt) abort();
    mem_read(ctx->mem, nvdla_pp_reg(cdma, NVDLA_CDMA_D_WEIGHT_ADDR_LOW_0) & ~7u, (uint8_t *)wt, dec.wbytes);
    out->w = L->out_w;
    out->h = L->out_h;
    out->c = L->kernels;
    out->s = (L->kernels + ATOM - 1) / ATOM;
    out->v = calloc((size_t)out->s * out->h * out->w * ATOM, sizeof *out->v);
    if (!out->v) abort();
    if (L->image) compute_image(ctx, L, &dec.im, wt, out);
    else compute_feature(ctx, cdma, L, wt, out);
    free(wt);
    return true;
}
