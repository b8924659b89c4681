/* Direct convolutions of an image on nv_full (conv_random_img): a pixel format of golden/nvdla/conv_image32.c's table
 * (every one nv_full has: 8-bit, 16-bit, packed 10-bit, semi-planar, FP16), processed at its own precision, with a
 * pixel x offset, line (and UV line) strides with gaps, CDMA's left/right padding in the lines and CSC's top/bottom
 * rows, the pad value, CDMA's converter (offset or the per-channel means, scale, truncation, sign override) in half the
 * INT8/INT16 jobs, feeding SDP on the fly to memory as conv_random (nvf_conv_gen.c). Programmed as NVIDIA's firmware
 * does (kmd/firmware/conv.c) and NVIDIA's cmod reads it (conv_image32.h): the kernel channel pre-extended (CSC's
 * kernel 1 wide, WEIGHT_CHANNEL_EXT + 1 = kernel width x elements a pixel), lines of ceil(padded width x elements x
 * bytes / 128) CBUF entries. The generator draws each pixel's elements in the CBUF's order, encodes them into memory
 * through the format's row (byte order, 10-bit fields, planes), and predicts the output from those elements itself:
 * a 2-D convolution over the padded pixels, the weights w[k][r][s][c] packed by it in NVIDIA's layout of the
 * pre-extended kernel. */
#include "nvf_gen.h"
#ifndef NV_FULL_ABSENT
#include "conv_fp16.h"
#include "conv_image32.h"
#include "nv_full_regs.h"
#include "sdp_golden.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CBUF_BANK_ENTRIES 256u
#define CBUF_ENTRY_BYTES 128u

typedef struct img {
    const conv_img32_fmt_t *f;
    nvf_prec_t prec;
    uint32_t esz, R, S, xoff, Cx; /* Cx = S x elements */
    uint32_t post;                /* CSC's post-extension: kernel rows a MAC cell (conv_random_img_ext: 2, 4) */
    nvf_conv_layer_t geo;         /* W, H, K, strides, pads, output, truncation, NaN flush (nvf_gen.h), and the pad
                                     value (CDMA's and CSC's, as NVIDIA's firmware writes the same to both) */
    int32_t *line;                /* converted lines: line[(y * (pl + W + pr) + p) * elems + i], padding included */
    int32_t *w;                   /* w[((k * R + r) * S + s) * elems + c] */
    sdp_x_cfg_t bs, bn;
    uint32_t off, scale, shift;
    sdp_fp16_cfg_t f16;
} img_t;

static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

static int32_t line_el(const img_t *v, uint32_t y, uint32_t j)
{
    return v->line[(size_t)y * (v->geo.pl + v->geo.W + v->geo.pr) * v->f->elems + j];
}

/* FP16: CSC's reads as conv_fp16.c takes them (the pre-extended kernel, 1 wide). */
static uint16_t fp16_data(const void *ctx, uint32_t c, uint32_t y, uint32_t x)
{
    const img_t *v = ctx;
    return (uint16_t)line_el(v, y, x * v->geo.sx * v->f->elems + c);
}
static uint16_t fp16_weight(const void *ctx, uint32_t k, uint32_t r, uint32_t s, uint32_t c)
{
    const img_t *v = ctx;
    (void)s;
    return (uint16_t)v->w[(k * v->R + r) * v->Cx + c];
}

static int32_t img_elem(const void *ctx, uint32_t k, uint32_t oy, uint32_t ox)
{
    const img_t *v = ctx;
    if (v->prec == NVF_FP16) {
        const conv_fp16_src_t src = {.C = v->Cx,
                                     .R = v->R,
                                     .S = 1,
                                     .sx = 1,
                                     .sy = v->geo.sy,
                                     .pt = v->geo.pt,
                                     .W = v->geo.Wo,
                                     .H = v->geo.H,
                                     .pad = (uint16_t)v->geo.pad,
                                     .nan_flush = v->geo.nan_flush,
                                     .data_flushed = 1, /* the lines hold CDMA's flushed pixels and its pad */
                                     .post_rows = v->post,
                                     .ctx = v,
                                     .data = fp16_data,
                                     .weight = fp16_weight};
        return sdp_fp32_element(&v->f16, conv_fp16_output(&src, k, oy, ox, 0));
    }
    const uint32_t E = v->f->elems;
    int64_t acc = 0;
    for (uint32_t r = 0; r < v->R; r++) {
        const int64_t y = (int64_t)(oy * v->geo.sy + r) - v->geo.pt;
        for (uint32_t s = 0; s < v->S; s++) /* padded pixel ox * sx + s of the line (left padding included) */
            for (uint32_t c = 0; c < E; c++) {
                const int64_t d =
                    y < 0 || y >= v->geo.H ? v->geo.pad : line_el(v, (uint32_t)y, (ox * v->geo.sx + s) * E + c);
                acc += d * v->w[((k * v->R + r) * v->S + s) * E + c];
            }
    }
    if (v->geo.trunc) {
        const int64_t half = (int64_t)1 << (v->geo.trunc - 1);
        acc = acc >= 0 ? (acc + half) >> v->geo.trunc : -((-acc + half) >> v->geo.trunc);
    }
    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
    int64_t t = sdp_x_stage(&v->bs, acc, v->bs.alu_reg, v->bs.mul_reg);
    t = sdp_x_stage(&v->bn, t, v->bn.alu_reg, v->bn.mul_reg);
    return sdp_cvt_bits(t, v->off, v->scale, v->shift, 8 * v->esz, NULL);
}

/* NVIDIA's layout of the pre-extended kernel (R x 1 x S*elems): kernel groups, 64-channel blocks, r, kernel, channel;
 * with post-extension (one block) kernel groups, stripes of `post` rows (the last the rows left), kernel, the stripe's
 * rows, channel: the weights CSC sends one cell a stripe (cmod csc.cpp:1150-1160). */
static uint8_t *weights_packed(const img_t *v, uint32_t *bytes)
{
    const uint32_t kg = v->esz == 2 ? 16 : 32, cb = 64, n = v->geo.K * v->R * v->Cx * v->esz;
    *bytes = ceil_div(n, CBUF_ENTRY_BYTES) * CBUF_ENTRY_BYTES;
    uint8_t *b = calloc(*bytes, 1), *at = b;
    if (!b) abort();
    for (uint32_t g = 0; g * kg < v->geo.K; g++) {
        const uint32_t gn = v->geo.K - g * kg < kg ? v->geo.K - g * kg : kg;
        for (uint32_t r0 = 0; v->post > 1 && r0 < v->R; r0 += v->post)
            for (uint32_t kk = 0; kk < gn; kk++)
                for (uint32_t r = r0; r < v->R && r < r0 + v->post; r++)
                    for (uint32_t c = 0; c < v->Cx; c++) {
                        const int32_t x = v->w[((g * kg + kk) * v->R + r) * v->Cx + c];
                        *at++ = (uint8_t)x;
                        if (v->esz == 2) *at++ = (uint8_t)(x >> 8);
                    }
        for (uint32_t blk = 0; v->post <= 1 && blk * cb < v->Cx; blk++) {
            const uint32_t cn = v->Cx - blk * cb < cb ? v->Cx - blk * cb : cb;
            for (uint32_t r = 0; r < v->R; r++)
                for (uint32_t kk = 0; kk < gn; kk++)
                    for (uint32_t cc = 0; cc < cn; cc++) {
                        const int32_t x = v->w[((g * kg + kk) * v->R + r) * v->Cx + blk * cb + cc];
                        *at++ = (uint8_t)x;
                        if (v->esz == 2) *at++ = (uint8_t)(x >> 8);
                    }
        }
    }
    return b;
}

static void put_le(uint8_t *b, uint32_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) b[i] = (uint8_t)(v >> 8 * i);
}

/* An element as drawn: raw bits of the format's element (8, 16, a 10-bit field's, or FP16). */
static uint32_t draw_raw(rng_t *r, const conv_img32_fmt_t *f, unsigned i)
{
    if (f->prec == NVF_FP16)
        return rng_chance(r, 3) ? nvf_fp16_value(r, &(nvf_fp16_mix_t){100, 0, 0})
                                : nvf_fp16_value(r, &(nvf_fp16_mix_t){0, -4, 4});
    if (f->p10) return rng_below(r, 1u << f->width[i]);
    return rng_next(r) & (f->esz == 2 ? 0xFFFFu : 0xFFu);
}

/* A pixel format: its group uniformly (the coverage crosses' rows: R8 alone is one), then a format of the group. */
static const conv_img32_fmt_t *draw_format(rng_t *r)
{
    const conv_img32_group_t g = (conv_img32_group_t)rng_below(r, IMG32_NGROUPS);
    unsigned n = 0;
    for (unsigned i = 0; i < conv_img32_nformats; i++) n += conv_img32_formats[i].group == g;
    unsigned pick = rng_below(r, n);
    for (unsigned i = 0; i < conv_img32_nformats; i++)
        if (conv_img32_formats[i].group == g && !pick--) return &conv_img32_formats[i];
    abort(); /* every group has a format */
}

/* What a job is drawn for: conv_random_img's jobs, the negative's, or conv_random_img_fp16's (every job processed at
 * FP16: 8/16-bit pixels through CDMA's converter, FP16 pixels with the converter on or off). */
/* IMG_PDP: conv_random_img's layers with SDP's output streamed into PDP on the fly (nvf_pdpfly_gen.c) */
/* IMG_EXT: conv_random_img's layers with CSC's post-extension (2 or 4 kernel rows a MAC cell) and semi-planar x offsets
 * past the UV plane's first atom */
typedef enum { IMG_PLAIN, IMG_WRONGFMT, IMG_FP16, IMG_FP16_WRONGSCALE, IMG_PDP, IMG_EXT } img_mode_t;

static void img_job(program_t *p, rng_t *r, uint64_t seed, int k, int g, img_mode_t mode)
{
    const bool wrong_format = mode == IMG_WRONGFMT, wrong_scale = mode == IMG_FP16_WRONGSCALE,
               to_fp16 = mode == IMG_FP16 || wrong_scale;
    img_t v = {.f = draw_format(r), .post = 1};
    const bool ext = mode == IMG_EXT;
    if (ext) v.post = 1u << rng_range(r, 1, 2);
    if (wrong_format) v.f = conv_img32_format(0x0d); /* A8R8G8B8, programmed as A8B8G8R8 below: R and B swap */
    if (wrong_scale && v.f->prec == NVF_FP16) v.f = conv_img32_format(0x0c); /* pixels the converter changes */
    const conv_img32_fmt_t *f = v.f;
    /* precision conversion (INT8 <-> INT16 through CDMA's converter) in 30 % of the INT8/INT16 jobs, drawn from a side
     * stream so that the other jobs' draws keep their meaning */
    rng_t pr;
    rng_seed_stream(&pr, seed * 2 + (uint64_t)k, "nvf_img_convert");
    const bool convert = f->prec != NVF_FP16 && !wrong_format && (to_fp16 || rng_chance(&pr, 30));
    v.prec = to_fp16 ? NVF_FP16 : convert ? (f->prec == NVF_INT8 ? NVF_INT16 : NVF_INT8) : (nvf_prec_t)f->prec;
    v.esz = nvf_prec[v.prec].esz;
    const uint32_t E = f->elems;
    v.geo.W = rng_range(r, 1, 24), v.geo.H = rng_range(r, 1, 8);
    v.geo.K = rng_chance(r, 20) ? rng_range(r, 1, 4) : rng_range(r, 1, 40);
    v.S = rng_chance(r, 70) ? rng_range(r, 1, 3) : rng_range(r, 1, 7);
    v.R = rng_chance(r, 70) ? rng_range(r, 1, 3) : rng_range(r, 1, 5);
    /* post-extension: the stripe's rows share CMAC's 64 channels (NV_NVDLA_CSC_sg.v:4263), kernels mostly taller */
    if (ext && v.S * E * v.post > 64) v.S = 64 / v.post / E;
    if (ext && rng_chance(r, 60)) v.R = rng_range(r, 2, 9);
    v.geo.pl = rng_chance(r, 50) ? rng_below(r, v.S) : 0, v.geo.pr = rng_chance(r, 50) ? rng_below(r, v.S) : 0;
    v.geo.pt = rng_chance(r, 50) ? rng_below(r, v.R) : 0, v.geo.pb = rng_chance(r, 50) ? rng_below(r, v.R) : 0;
    if (v.geo.W + v.geo.pl + v.geo.pr < v.S) v.geo.pl = v.geo.pr = v.S - 1;
    if (v.geo.H + v.geo.pt + v.geo.pb < v.R) v.geo.pt = v.geo.pb = v.R - 1;
    v.geo.sx = rng_range(r, 1, 3), v.geo.sy = rng_range(r, 1, 3);
    if (wrong_format ||
        wrong_scale) /* enough outputs that swapped R and B (a wrong scale) cannot give the same bytes */
        v.geo.W = v.geo.W < 8 ? 8 : v.geo.W, v.geo.K = v.geo.K < 8 ? 8 : v.geo.K, v.geo.sx = 1, v.geo.pl = v.geo.pr = 0;
    v.geo.Wo = (v.geo.W + v.geo.pl + v.geo.pr - v.S) / v.geo.sx + 1,
    v.geo.Ho = (v.geo.H + v.geo.pt + v.geo.pb - v.R) / v.geo.sy + 1;
    v.Cx = v.S * E;
    /* the x offset stays in the first 32-byte atom of the Y (or only) plane (NV_NVDLA_CDMA_IMG_ctrl.v:4334);
     * conv_random_img_ext's also past the UV plane's first atom (which takes it modulo its atom) */
    const uint32_t xmax = f->planar ? 32 / ((ext ? 1 : 2) * f->esz) : 32 / f->bpp;
    v.xoff = rng_chance(r, 50) ? rng_below(r, xmax) : 0;
    const nvf_place_t src = nvf_place(r, k, 0, 30), wts = nvf_place(r, k, 1, 30), dst = nvf_place(r, k, 2, 30);
    const nvf_place_t uv = {src.cv, src.addr + 0x80000u}; /* the UV plane: same RAM as the Y plane (one RAM type) */
    const uint32_t row = (v.xoff + v.geo.W) * f->bpp, uvoff = (v.xoff * 2 * f->esz) % 32,
                   uvrow = uvoff + v.geo.W * 2 * f->esz;
    const uint32_t line = ceil_div(row, 32) * 32 + (rng_chance(r, 40) ? 32 * rng_range(r, 1, 3) : 0);
    const uint32_t uvline = ceil_div(uvrow, 32) * 32 + (rng_chance(r, 40) ? 32 * rng_range(r, 1, 3) : 0);
    v.geo.out = nvf_cube(r, v.geo.Wo, v.geo.Ho, v.geo.K, v.esz);
    nvf_cube_sdp(&v.geo.out);
    /* the converter: INT8/INT16 jobs, half of them; at FP16 every converted job and 60 % of the FP16 pixels' (which
     * it passes unchanged) */
    bool cvt = to_fp16 ? convert || rng_chance(r, 60) : v.prec != NVF_FP16 && !wrong_format && rng_chance(r, 50);
    const bool mean = cvt && rng_chance(r, 50), sign = rng_chance(r, 30);
    const uint32_t in_bits = 8 * f->esz;
    int32_t offset = 0, scale = 1, means[4] = {0};
    unsigned ctrunc = 0;
    if (cvt) {
        const int32_t range = 1 << (in_bits - 1);
        offset = (int32_t)rng_range(r, 0, (uint32_t)(2 * range)) - (sign ? range : 0);
        if (offset > 32767) offset = 32767;
        for (int i = 0; i < 4; i++) means[i] = (int32_t)rng_range(r, 0, 2 * (uint32_t)range) - (sign ? range : 0);
        for (int i = 0; i < 4; i++) means[i] = means[i] > 32767 ? 32767 : means[i];
        scale = (int32_t)rng_range(r, 1, 64) * (rng_chance(r, 20) ? -1 : 1);
        ctrunc = rng_chance(r, 10) ? rng_below(r, 40) : rng_range(r, 0, 8);
    }
    if (convert && to_fp16) { /* to FP16: most values within +-2^10 (exact below 2^11); in 15 % a truncation of 0-3:
                                 * rounded values, and 16-bit pixels past 65504 and past 17 bits (saturated) */
        const bool large = rng_chance(&pr, 15) && !wrong_scale;
        cvt = true;
        scale = (int32_t)rng_range(&pr, 1, 64) * (rng_chance(&pr, 20) ? -1 : 1);
        if (wrong_scale) scale = (int32_t)rng_range(&pr, 1, 31); /* the register gets scale + 1 */
        ctrunc = large ? rng_below(&pr, 4) : f->esz == 1 ? rng_range(&pr, 2, 8) : rng_range(&pr, 8, 16);
    } else if (convert) { /* the converter on, its offset, scale and truncation aimed at the target precision's range */
        const bool up = f->prec == NVF_INT8;
        const int32_t range = 1 << (in_bits - 1);
        cvt = true;
        if (!mean) offset = (int32_t)rng_range(&pr, 0, (uint32_t)(2 * range)) - (sign ? range : 0);
        offset = offset > 32767 ? 32767 : offset;
        scale = (int32_t)rng_range(&pr, 1, up ? 200 : 8) * (rng_chance(&pr, 20) ? -1 : 1);
        ctrunc = up ? rng_range(&pr, 0, 4) : rng_range(&pr, 6, 11);
    }
    /* the pixels: each element drawn (CBUF order), encoded into memory, converted as CDMA converts it */
    const uint32_t pw = v.geo.pl + v.geo.W + v.geo.pr;
    v.geo.pad = v.prec == NVF_FP16 ? (rng_chance(r, 60) ? 0 : nvf_fp16_value(r, &(nvf_fp16_mix_t){0, -4, 4}))
                                   : (rng_chance(r, 60) ? 0 : (int32_t)rng_range(r, 0, 64) - 32);
    /* conv_random_img_fp16 only (side stream): a NaN pad value in 15 % of the jobs (CDMA's left/right pad is inserted
     * after the NaN flush, so it stays a NaN), NaN pixels in 40 % of the FP16-pixel jobs (4 % of their elements) */
    if (to_fp16 && !wrong_scale && rng_chance(&pr, 15))
        v.geo.pad = (int32_t)((rng_chance(&pr, 50) ? 0x8000u : 0) | 0x7C00u | rng_range(&pr, 1, 0x3FF));
    const bool nan_px = to_fp16 && f->prec == NVF_FP16 && rng_chance(&pr, 40);
    /* conv_random_img_ext, FP16 pixels: in 40 % of the layers even lines of 4096.0 and odd lines of 2^-8..2^-4, the
     * weights in pairs w, -w (below): a large line's products cancel exactly yet set the cell's exponent, so a small
     * line sharing its cell (post-extension's stripe) loses most of its bits, one of its own would not (how the RTL
     * groups the rows shows in the output) */
    const bool cancel = ext && f->prec == NVF_FP16 && rng_chance(r, 40);
    v.line = malloc((size_t)v.geo.H * pw * E * sizeof *v.line);
    uint8_t *ymem = calloc((size_t)v.geo.H * line, 1), *uvmem = calloc((size_t)v.geo.H * uvline, 1);
    if (!v.line || !ymem || !uvmem) abort();
    const unsigned pbits = 8 * v.esz;
    for (uint32_t y = 0; y < v.geo.H; y++) {
        for (uint32_t x = 0; x < line / f->bpp; x++) {
            /* every pixel of the row (x offset and tail too) gets bytes; only W of them enter */
            uint32_t raw[4], word = 0;
            for (unsigned i = 0; i < E; i++) raw[i] = draw_raw(r, f, i);
            for (unsigned i = 0; cancel && i < E; i++)
                raw[i] = y % 2 ? nvf_fp16_value(r, &(nvf_fp16_mix_t){0, -8, -4}) : 0x6C00u;
            for (unsigned i = 0; nan_px && i < E; i++)
                if (rng_chance(&pr, 4)) raw[i] = 0x7E00u | rng_below(&pr, 0x200) | (rng_chance(&pr, 50) ? 0x8000u : 0);
            if (f->p10)
                for (unsigned i = 0; i < E; i++) word |= raw[i] << f->shift[i];
            uint8_t *px = ymem + (size_t)y * line + (size_t)x * f->bpp;
            if (f->p10) put_le(px, word, 4);
            else if (!f->planar)
                for (unsigned i = 0; i < E; i++) put_le(px + f->order[i] * f->esz, raw[i], f->esz);
            else {
                put_le(ymem + (size_t)y * line + (size_t)x * f->esz, raw[0], f->esz);
                if (x >= v.xoff && x - v.xoff < v.geo.W)
                    for (unsigned i = 1; i < 3; i++)
                        put_le(uvmem + (size_t)y * uvline + uvoff + (x - v.xoff) * 2 * f->esz +
                                   (f->order[i] - 1) * f->esz,
                               raw[i], f->esz);
            }
            if (x < v.xoff || x - v.xoff >= v.geo.W) continue;
            for (unsigned i = 0; i < E; i++) {
                const uint32_t e = f->p10 ? raw[i] << (16 - f->width[i]) : raw[i];
                const int32_t op = mean ? means[E == 1 ? 0 : i] : offset;
                const int32_t c = cvt ? conv_img32_cell(e, f->prec, in_bits, sign, op, scale, ctrunc, v.prec)
                                      : (int32_t)(pbits == 8 ? (int8_t)e : (int16_t)e);
                v.line[((size_t)y * pw + v.geo.pl + x - v.xoff) * E + i] = c;
            }
        }
        for (uint32_t q = 0; q < pw; q++)
            if (q < v.geo.pl || q >= v.geo.pl + v.geo.W)
                for (unsigned i = 0; i < E; i++) v.line[((size_t)y * pw + q) * E + i] = v.geo.pad;
    }
    prog_mem(p, nvf_addr(src), ymem, (size_t)v.geo.H * line);
    if (f->planar) prog_mem(p, nvf_addr(uv), uvmem, (size_t)v.geo.H * uvline);
    free(ymem), free(uvmem);
    /* weights: small most of the time, sometimes over their whole range; FP16 moderate */
    const bool full = rng_chance(r, 30);
    /* conv_random_img_ext at FP16: in half the layers weights over exponents -14..2, so that the products of a stripe's
     * rows span more than a cell keeps and its alignment (one cell a stripe, not a row) shows in the sums */
    const bool wide = ext && v.prec == NVF_FP16 && rng_chance(r, 50);
    const size_t nw = (size_t)v.geo.K * v.R * v.Cx;
    v.w = malloc(nw * sizeof *v.w);
    if (!v.w) abort();
    for (size_t i = 0; i < nw; i++)
        v.w[i] = v.prec == NVF_FP16 ? nvf_fp16_value(r, &(nvf_fp16_mix_t){0, wide ? -14 : -7, wide ? 2 : 0})
                 : full             ? (v.esz == 2 ? (int16_t)rng_next(r) >> 3 : (int8_t)rng_next(r))
                                    : (int32_t)rng_range(r, 0, 15) - 8;
    for (size_t i = 0; cancel && i < nw; i++) /* pairs w, -w along a row's channels; an odd last channel 0 */
        if (i % v.Cx % 2) v.w[i] = v.w[i - 1] ^ 0x8000;
        else if (i % v.Cx == v.Cx - 1) v.w[i] = 0;
    uint32_t wbytes;
    uint8_t *packed = weights_packed(&v, &wbytes);
    prog_mem(p, nvf_addr(wts), packed, wbytes);
    free(packed);
    nvf_fill(p, r, dst, nvf_cube_bytes(&v.geo.out));
    const int mag = (v.esz == 2 ? (full ? 27 : 18) : (full ? 14 : 10)) + (31 - __builtin_clz(v.Cx * v.R)) / 2;
    const int t = mag - (int)(8 * v.esz - 1) + (int)rng_range(r, 0, 6) - 3;
    v.geo.trunc = rng_chance(r, 15) ? rng_below(r, 17) : (uint32_t)(t < 0 ? 0 : t > 16 ? 16 : t);
    if (wrong_format) v.geo.trunc = (uint32_t)(t < 0 ? 0 : t > 16 ? 16 : t); /* outputs spread, not all 0 */
    if (v.prec == NVF_FP16) v.geo.trunc = 0;
    /* banks: the whole image and every weight resident */
    const uint32_t eps = ceil_div(pw * E * v.esz, CBUF_ENTRY_BYTES),
                   dbanks = ceil_div(eps * v.geo.H, CBUF_BANK_ENTRIES),
                   wbanks = ceil_div(wbytes, CBUF_BANK_ENTRIES * CBUF_ENTRY_BYTES);
    const uint32_t bank = (dbanks - 1) | (wbanks - 1) << 16, prec = v.prec;
    /* NEGATIVE (conv_img_wrongfmt): the data is A8R8G8B8's, the registers say A8B8G8R8 */
    const uint32_t code = wrong_format ? 0x0cu : f->code;
    if (v.prec == NVF_FP16) {
        v.geo.nan_flush = rng_chance(r, 30);
        /* CDMA flushes the fetched FP16 pixels' NaNs (before its converter), never its pad value (conv_image32.h) */
        for (uint32_t y = 0; v.geo.nan_flush && f->prec == NVF_FP16 && y < v.geo.H; y++)
            for (uint32_t j = v.geo.pl * E; j < (v.geo.pl + v.geo.W) * E; j++) {
                int32_t *e = &v.line[(size_t)y * pw * E + j];
                if ((*e & 0x7C00) == 0x7C00 && (*e & 0x3FF)) *e = 0;
            }
    }
    const nvf_conv_regs_t regs = {
        .in_prec = f->prec, /* IN_PRECISION the pixels', PROC the job's */
        .prec = prec,
        .cdma_format = 1u | code << 8 | (uint32_t)sign << 20,
        .C = E,
        .We = v.geo.W,
        .He = v.geo.H,
        .csc_c = E,
        .xoff = v.xoff,
        .uv_addr = f->planar ? uv.addr : 0,
        .uv_line = f->planar ? uvline : 0,
        .src = src,
        .wts = wts,
        .dst = dst,
        .line = line,
        .surf = line * v.geo.H,
        .N = 1,
        .eps = eps,
        .bank = bank,
        .S = 1, /* CSC: the pre-extended kernel */
        .R = v.R,
        .wt_c = v.Cx,
        .kernel_bytes = v.R * v.Cx * v.esz,
        .wbytes = wbytes,
        .mean_format = mean,
        .mean_global = {((uint32_t)means[0] & 0xFFFF) | (uint32_t)means[1] << 16,
                        ((uint32_t)means[2] & 0xFFFF) | (uint32_t)means[3] << 16},
        .cvt_cfg = (uint32_t)cvt | ctrunc << 4,
        .cvt_offset = (uint32_t)offset & 0xFFFF,
        .cvt_scale = (uint32_t)(wrong_scale ? scale + 1 : scale) & 0xFFFF,
        .yext = v.post == 4   ? 2u
                : v.post == 2 ? 1u
                              : 0u,
    };
    dp_wlist_t l = {.n = 0};
    nvf_conv_regs_put(&l, &v.geo, &regs); /* CMAC, CACC, SDP on the fly: as conv_random */
    const bool fp16 = v.prec == NVF_FP16, nan0 = fp16 && rng_chance(r, 50), int16_out = fp16 && rng_chance(r, 25);
    const bool to_pdp = mode == IMG_PDP;
    dp_put(&l, NVDLA_SDP_D_FEATURE_MODE_CFG_0, 1 | (uint32_t)to_pdp << 1 | (uint32_t)nan0 << 3); /* bit 1: to PDP */
    dp_put(&l, NVDLA_SDP_D_DATA_FORMAT_0, prec | (int16_out ? 1u : prec) << 2);
    const char *bs = "byp";
    if (wrong_format || wrong_scale) { /* SDP passes CACC's sums through (stages bypassed, converter 1:1) */
        v.bs = v.bn = (sdp_x_cfg_t){.bypass = true};
        dp_put(&l, NVDLA_SDP_D_DP_BS_CFG_0, 1), dp_put(&l, NVDLA_SDP_D_DP_BN_CFG_0, 1);
    } else {
        bs = nvf_sdp_x_stage(&l, r, NVDLA_SDP_D_DP_BS_CFG_0, &v.bs, fp16);
        nvf_sdp_x_stage(&l, r, NVDLA_SDP_D_DP_BN_CFG_0, &v.bn, fp16);
    }
    v.f16 = (sdp_fp16_cfg_t){
        .x1 = sdp32_fp16_stage(&v.bs), .x2 = sdp32_fp16_stage(&v.bn), .nan_to_zero = nan0, .out_int16 = int16_out};
    dp_put(&l, NVDLA_SDP_D_DP_EW_CFG_0, 0x53);
    v.off = rng_range(r, 0, 16) - 8, v.scale = rng_range(r, 1, 3), v.shift = rng_range(r, 0, 2);
    if (wrong_format || wrong_scale) v.off = 0, v.scale = 1, v.shift = 0;
    dp_put(&l, NVDLA_SDP_D_CVT_OFFSET_0, v.off), dp_put(&l, NVDLA_SDP_D_CVT_SCALE_0, v.scale);
    dp_put(&l, NVDLA_SDP_D_CVT_SHIFT_0, v.shift);
    /* PDP on the fly over SDP's output, its output where SDP's would be (SDP writes nothing) */
    char pdpname[56] = "";
    nvf_pdp_fly_t *fly = !to_pdp ? NULL
                                 : nvf_pdp_fly_draw(p, r, &l, int16_out ? NVF_INT16 : v.prec, v.geo.Wo, v.geo.Ho,
                                                    v.geo.K, dst, pdpname + 1, sizeof pdpname - 1);
    if (fly) pdpname[0] = '.';
    char post[16] = "";
    if (ext) snprintf(post, sizeof post, ".ye%u%s", v.post, cancel ? ".cancel" : "");
    prog_job(p, "%s.s%llu.j%d.%s.%s%s.%ux%u.x%u.k%u.%ux%u.s%ux%u.p%u_%u_%u_%u.t%u.%s%s%s%s%s%s%s%s%s",
             to_fp16  ? "conv_random_img_fp16"
             : to_pdp ? "conv_random_img_pdp"
             : ext    ? "conv_random_img_ext"
                      : "conv_random_img",
             (unsigned long long)seed, k, f->name, convert ? "to_" : "", nvf_prec[v.prec].name, v.geo.W, v.geo.H,
             v.xoff, v.geo.K, v.S, v.R, v.geo.sx, v.geo.sy, v.geo.pl, v.geo.pr, v.geo.pt, v.geo.pb, v.geo.trunc, bs,
             cvt ? (mean ? ".mean" : ".cvt") : "", sign ? ".signed" : "", v.geo.nan_flush ? ".cdmanan0" : "",
             nan_px ? ".nanpx" : "",
             (v.geo.pad & 0x7C00) == 0x7C00 && (v.geo.pad & 0x3FF) && v.prec == NVF_FP16 ? ".nanpad" : "",
             wrong_format  ? ".WRONGFMT"
             : wrong_scale ? ".WRONGSCALE"
                           : "",
             pdpname, post);
    nvf_conv_launch_to(p, r, &l, k, g, -1, fly != NULL);
    if (fly) { /* SDP's output as img_elem predicts it, pooled */
        int32_t *mid = nvf_pdp_fly_mid(fly);
        for (uint32_t c = 0; c < v.geo.K; c++)
            for (uint32_t y = 0; y < v.geo.Ho; y++)
                for (uint32_t x = 0; x < v.geo.Wo; x++)
                    mid[((size_t)c * v.geo.Ho + y) * v.geo.Wo + x] = img_elem(&v, c, y, x);
        nvf_pdp_fly_expect(p, fly, false);
    } else nvf_expect_cube(p, "SDP output", dst, &v.geo.out, img_elem, &v, false);
    free(v.line);
    free(v.w);
}

/* 1-2 image layers in alternating groups; CDMA's CBUF flush done before the first. */
int nvf_conv_random_img(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_img");
    const int layers = (int)rng_range(&r, 1, 2);
    for (int k = 0; k < layers; k++) img_job(p, &r, seed, k, k & 1, IMG_PLAIN);
    return 0;
}

/* 1-2 image layers (every pixel format, as conv_random_img draws them) with SDP's output streamed into PDP on the fly
 * (conv_random_img_pdp: its own stream). */
int nvf_conv_random_img_pdp(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_img_pdp");
    const int layers = (int)rng_range(&r, 1, 2);
    for (int k = 0; k < layers; k++) img_job(p, &r, seed, k, k & 1, IMG_PDP);
    return 0;
}

/* 1-2 image layers processed at FP16 (conv_random_img_fp16: its own stream): 8/16-bit pixels converted to FP16 by
 * CDMA's converter, FP16 pixels through it or not. */
int nvf_conv_random_img_fp16(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_img_fp16");
    const int layers = (int)rng_range(&r, 1, 2);
    for (int k = 0; k < layers; k++) img_job(p, &r, seed, k, k & 1, IMG_FP16);
    return 0;
}

/* 1-2 image layers (every pixel format, as conv_random_img draws them) with CSC's post-extension of 2 or 4 kernel rows
 * and semi-planar x offsets past the UV plane's first atom (conv_random_img_ext: its own stream). */
int nvf_conv_random_img_ext(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_img_ext");
    const int layers = (int)rng_range(&r, 1, 2);
    for (int k = 0; k < layers; k++) img_job(p, &r, seed, k, k & 1, IMG_EXT);
    return 0;
}

/* NEGATIVE: one conv_random_img job whose registers name another pixel format than the data's: must fail. */
int nvf_conv_img_wrongfmt(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_img_wrongfmt");
    img_job(p, &r, seed, 0, 0, IMG_WRONGFMT);
    return 0;
}

/* NEGATIVE: one conv_random_img_fp16 job of 8/16-bit pixels whose CVT_SCALE register is one more than the scale the
 * generator converted with: the FP16 conversion is checked, so it must fail. */
int nvf_conv_img_fp16_wrongscale(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_img_fp16_wrongscale");
    img_job(p, &r, seed, 0, 0, IMG_FP16_WRONGSCALE);
    return 0;
}
#else
#include <stdio.h>
NVF_ABSENT(nvf_conv_random_img)
NVF_ABSENT(nvf_conv_random_img_fp16)
NVF_ABSENT(nvf_conv_random_img_pdp)
NVF_ABSENT(nvf_conv_random_img_ext)
NVF_ABSENT(nvf_conv_img_wrongfmt)
NVF_ABSENT(nvf_conv_img_fp16_wrongscale)
#endif
