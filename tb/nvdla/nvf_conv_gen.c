/* Direct convolutions on nv_full (nvf_gen.h), INT8 or INT16 (conv_random: FP16 drawn and redrawn, nvf_prec), or FP16
 * (conv_random_fp16: FP16 data, weights and pad value, SDP at FP16 on CACC's FP32, the output predicted through
 * the model's FP16 convolution arithmetic, conv_fp16.h, fed from the generator's own data and weights),
 * feeding SDP on the fly (BS/BN stages with register operands, at FP16 also BS's from memory: nvf_conv_opnd.c;
 * converter) to memory; input, weights and output each
 * in DBB or CVSRAM. The CBUF programming follows the configuration checks of NVIDIA's cmod (cdma/NV_NVDLA_cdma.cpp
 * DirectConvDataResponseSequencerCommon: entries per slice from the input's 32-byte atoms per pixel; line packed iff
 * the line stride is 32 x width; a fetch grain of one line; weight bytes in units of 128) and NVIDIA's sanity3 trace
 * (the register set, the enable order SDP, CACC, CMAC, CSC, CDMA); the whole input and all weights resident in their
 * banks (16 banks of 256 entries of 128 bytes, cdma/NV_NVDLA_cdma.h). Weights in NVIDIA's format.rst layout with
 * nv_full's atomics (groups of 32 kernels at INT8, 16 at INT16; blocks of 64 channels), written by the generator from
 * its w[k][r][s][c]; the output predicted element by element (sums exact, CACC's truncation rounding half away from
 * zero and 32-bit saturation, then SDP's stages and converter through the model's element arithmetic). */
#ifndef NV_FULL_ABSENT
#include "conv_fp16.h"
#include "conv_image32.h" /* conv_img32_cvt: CDMA's input converter */
#include "nv_full_regs.h"
#include "nvf_gen.h"
#include "nvf_wt_cmp.h"
#include "dp_atom32.h" /* sdp32_fp16_stage */
#include "sdp_golden.h"
#include "sdp_opdma32.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CBUF_BANK_ENTRIES 256u
#define CBUF_ENTRY_BYTES 128u
#define CBUF_BANKS 16u

typedef struct conv {
    nvf_prec_t prec;
    uint32_t esz, C, R, S, pad_bits;
    nvf_conv_layer_t geo; /* W, H, K, strides, pads, output, truncation, pad value, NaN flush (nvf_gen.h) */
    nvf_cube_t in;
    uint8_t *data; /* the input cube's bytes */
    int32_t *w;    /* w[((k*R + r)*S + s)*C + c] */
    sdp_x_cfg_t bs, bn;
    uint32_t off, scale, shift;
    sdp_fp16_cfg_t f16; /* FP16: SDP's stages on CACC's FP32 */
    bool bs_mem;        /* FP16: BS's operands from memory (nvf_conv_opnd.c), per channel in bso */
    sdp32_opnd_t bso;
    bool cvt; /* CDMA's input converter (INT8/INT16): offset, scale, truncate */
    int32_t cvt_off, cvt_scale;
    unsigned cvt_trunc;
    uint32_t N; /* batches (1-32): cube b's input at the source + b x in_bstride, its output at the
                           destination + b x out_bstride; data points at the one being predicted */
    uint32_t in_bstride, out_bstride;
} conv_t;

#define MAX_BATCH 32u /* CDMA/CSC/CACC D_BATCH_NUMBER: 5 bits */

static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* CBUF entries of one input line (cmod: atoms per pixel, four to an entry, partial entries shared by pixels). */
static uint32_t entries_per_slice(const conv_t *v)
{
    const uint32_t apc = ceil_div(v->C * v->esz, 32), rest = apc % 4;
    return apc / 4 * v->geo.W + (rest == 3   ? v->geo.W
                                 : rest == 2 ? ceil_div(v->geo.W, 2)
                                 : rest == 1 ? ceil_div(v->geo.W, 4)
                                             : 0);
}

/* The weights as format.rst lays them out: kernel groups, 64-channel blocks, then r, s, kernel, channel. */
static uint8_t *weights_packed(const conv_t *v, uint32_t *bytes)
{
    const uint32_t kg = v->esz == 2 ? 16 : 32, cb = 64, n = v->geo.K * v->R * v->S * v->C * v->esz;
    *bytes = ceil_div(n, CBUF_ENTRY_BYTES) * CBUF_ENTRY_BYTES; /* WEIGHT_BYTES counts 128-byte units */
    uint8_t *b = calloc(*bytes, 1), *at = b;
    if (!b) abort();
    for (uint32_t g = 0; g * kg < v->geo.K; g++) {
        const uint32_t gn = v->geo.K - g * kg < kg ? v->geo.K - g * kg : kg;
        for (uint32_t blk = 0; blk * cb < v->C; blk++) {
            const uint32_t cn = v->C - blk * cb < cb ? v->C - blk * cb : cb;
            for (uint32_t r = 0; r < v->R; r++)
                for (uint32_t s = 0; s < v->S; s++)
                    for (uint32_t kk = 0; kk < gn; kk++)
                        for (uint32_t cc = 0; cc < cn; cc++) {
                            const int32_t x = v->w[(((g * kg + kk) * v->R + r) * v->S + s) * v->C + blk * cb + cc];
                            *at++ = (uint8_t)x;
                            if (v->esz == 2) *at++ = (uint8_t)(x >> 8);
                        }
        }
    }
    return b;
}

static uint16_t fp16_data(const void *ctx, uint32_t c, uint32_t y, uint32_t x)
{
    const conv_t *v = ctx;
    return (uint16_t)nvf_elem(v->data, &v->in, c, y, x);
}
static uint16_t fp16_weight(const void *ctx, uint32_t k, uint32_t r, uint32_t s, uint32_t c)
{
    const conv_t *v = ctx;
    return (uint16_t)v->w[((k * v->R + r) * v->S + s) * v->C + c];
}

/* INT8/INT16: kernel k's sum at (oy, ox), CACC's input (products summed exactly, CDMA's converter on the data). */
static int64_t conv_acc(const conv_t *v, uint32_t k, uint32_t oy, uint32_t ox)
{
    int64_t acc = 0;
    for (uint32_t r = 0; r < v->R; r++)
        for (uint32_t s = 0; s < v->S; s++) {
            const int64_t y = (int64_t)(oy * v->geo.sy + r) - v->geo.pt, x = (int64_t)(ox * v->geo.sx + s) - v->geo.pl;
            const bool pad = y < 0 || x < 0 || y >= v->geo.H || x >= v->geo.W;
            for (uint32_t c = 0; c < v->C; c++) {
                int64_t d = pad ? v->geo.pad : nvf_elem(v->data, &v->in, c, (uint32_t)y, (uint32_t)x);
                if (!pad && v->cvt) /* CDMA converts what it fetches, not CSC's padding */
                    d = conv_img32_cvt((uint32_t)d, 8 * v->esz, true, v->cvt_off, v->cvt_scale, v->cvt_trunc,
                                       8 * v->esz);
                acc += d * v->w[((k * v->R + r) * v->S + s) * v->C + c];
            }
        }
    return acc;
}

static int32_t conv_elem(const void *ctx, uint32_t k, uint32_t oy, uint32_t ox)
{
    const conv_t *v = ctx;
    if (v->prec == NVF_FP16) {
        const conv_fp16_src_t src = {.C = v->C,
                                     .R = v->R,
                                     .S = v->S,
                                     .sx = v->geo.sx,
                                     .sy = v->geo.sy,
                                     .pl = v->geo.pl,
                                     .pt = v->geo.pt,
                                     .W = v->geo.W,
                                     .H = v->geo.H,
                                     .pad = (uint16_t)v->geo.pad,
                                     .nan_flush = v->geo.nan_flush,
                                     .ctx = v,
                                     .data = fp16_data,
                                     .weight = fp16_weight};
        sdp_fp16_cfg_t f16 = v->f16;
        f16.x1 = sdp32_opnd_stage(f16.x1, &v->bso, k);
        return sdp_fp32_element(&f16, conv_fp16_output(&src, k, oy, ox, 0));
    }
    int64_t acc = conv_acc(v, k, oy, ox);
    if (v->geo.trunc) { /* CACC: divide by 2^t, rounding half away from zero */
        const int64_t half = (int64_t)1 << (v->geo.trunc - 1);
        acc = acc >= 0 ? (acc + half) >> v->geo.trunc : -((-acc + half) >> v->geo.trunc);
    }
    int64_t t = sdp_x_stage(&v->bs, acc, v->bs.alu_reg, v->bs.mul_reg);
    t = sdp_x_stage(&v->bn, t, v->bn.alu_reg, v->bn.mul_reg);
    return sdp_cvt_bits(t, v->off, v->scale, v->shift, 8 * v->esz, NULL);
}

/* A kernel size and its two pads (each below the kernel, together enough for the kernel to fit). */
static void kernel_dim(rng_t *r, uint32_t in, uint32_t *k, uint32_t *p0, uint32_t *p1)
{
    *k = rng_chance(r, 70) ? rng_range(r, 1, 3) : rng_range(r, 1, 5);
    *p0 = rng_chance(r, 50) ? rng_below(r, *k) : 0, *p1 = rng_chance(r, 50) ? rng_below(r, *k) : 0;
    if (in + *p0 + *p1 < *k) *p0 = *p1 = *k - 1;
}

/* FP16 values for a convolution: a cell's NaN makes every sum it enters NaN, so corners are rare (0-3 %); zeros (CSC
 * skips +-0: cmac.h's mask) in a share of jobs; exponents so that sums of up to 2,400 products mostly stay finite. */
static uint16_t fp16_conv_value(rng_t *r, const nvf_fp16_mix_t *m, unsigned zero_pct)
{
    return rng_chance(r, zero_pct) ? (rng_chance(r, 50) ? 0x8000 : 0) : nvf_fp16_value(r, m);
}
static nvf_fp16_mix_t fp16_conv_mix(rng_t *r, int emin, int emax)
{
    const unsigned kind = rng_below(r, 100);
    if (kind < 60) return (nvf_fp16_mix_t){0, emin, emax};
    if (kind < 85) return (nvf_fp16_mix_t){rng_range(r, 1, 3), emin, emax};
    if (kind < 93) return (nvf_fp16_mix_t){0, -14, -8}; /* tiny: denormal products, alignment losses */
    return (nvf_fp16_mix_t){rng_range(r, 0, 1), 8, 15}; /* large: sums overflow FP16, SDP saturates */
}

/* What a test's jobs are: conv_random's (INT8/INT16), all FP16, compressed weights at any precision (nvf_wt_cmp.h),
 * or (NEGATIVE) compressed weights one of whose elements the memory holds wrong; batches, (NEGATIVE) batches with a
 * wrong batch stride, batched fully-connected layers; compressed weights and batches in one job. */
typedef enum {
    KIND_INT,
    KIND_FP16,
    KIND_CMP,
    KIND_CMP_CORRUPT,
    KIND_BATCH,
    KIND_BATCH_CORRUPT,
    KIND_FC,
    KIND_CMP_BATCH,
    KIND_PDP,    /* SDP's output streamed into PDP (nvf_pdpfly_gen.c), any precision */
    KIND_CMP_PDP /* compressed weights and SDP's output into PDP (one batch: cmod sdp.cpp:1724 asserts it) */
} conv_kind_t;
static const char *const kind_name[] = {"",    "_fp16",      "_cmp", "_cmp_corrupt", "_batch", "_batch_corrupt",
                                        "_fc", "_cmp_batch", "_pdp", "_cmp_pdp"};

/* FP16 data over `bytes` bytes (every 2-byte slot), kept and written at `at`. */
static uint8_t *fp16_fill(program_t *p, rng_t *r, uint64_t at, uint32_t bytes, const nvf_fp16_mix_t *dm, unsigned zd)
{
    uint8_t *d = malloc(bytes);
    if (!d) abort();
    for (uint32_t i = 0; i + 1 < bytes; i += 2) {
        const uint16_t x = fp16_conv_value(r, dm, zd);
        d[i] = (uint8_t)x, d[i + 1] = (uint8_t)(x >> 8);
    }
    if (bytes & 1) d[bytes - 1] = 0;
    prog_mem(p, at, d, bytes);
    return d;
}

/* Batches: a count in one of the coverage bins (2-7, 8-31, 32), the shape then shrunk (height, width, channels)
 * until every batch's input and the weights are resident in CBUF (CSC keeps a slice of every batch: entries per
 * slice x height x batches, NV_NVDLA_CSC_dl.v:2149), the output kept larger than 1x1 (SDP's 1x1 packing is for one
 * batch only, NV_NVDLA_SDP_WDMA_cmd.v:200; the model refuses the 1x1 batch case). */
static void batch_shape(conv_t *v, rng_t *r, uint32_t banks)
{
    const unsigned bin = rng_below(r, 100);
    v->N = bin < 40 ? rng_range(r, 2, 7) : bin < 75 ? rng_range(r, 8, 31) : MAX_BATCH;
    const uint32_t wbanks =
        ceil_div(ceil_div(v->geo.K * v->R * v->S * v->C * v->esz, CBUF_ENTRY_BYTES) * CBUF_ENTRY_BYTES,
                 CBUF_BANK_ENTRIES * CBUF_ENTRY_BYTES);
    while (ceil_div(entries_per_slice(v) * v->geo.H * v->N, CBUF_BANK_ENTRIES) + wbanks > banks) {
        if (v->geo.H > 1) v->geo.H--;
        else if (v->geo.W > 1) v->geo.W--;
        else break; /* one pixel a batch: at most 10 entries x 32 batches, 2 banks */
    }
    if (v->geo.W + v->geo.pl + v->geo.pr < v->S) v->geo.pl = v->geo.pr = v->S - 1;
    if (v->geo.H + v->geo.pt + v->geo.pb < v->R) v->geo.pt = v->geo.pb = v->R - 1;
    v->geo.Wo = (v->geo.W + v->geo.pl + v->geo.pr - v->S) / v->geo.sx + 1,
    v->geo.Ho = (v->geo.H + v->geo.pt + v->geo.pb - v->R) / v->geo.sy + 1;
    if (v->geo.Wo * v->geo.Ho ==
        1) { /* a wider input at stride 1 (a line of at most 13 pixels fits beside any weights) */
        v->geo.sx = 1, v->geo.W++;
        v->geo.Wo = v->geo.W + v->geo.pl + v->geo.pr - v->S + 1;
    }
}

/* A fully-connected layer over batches (what NVDLA's batching is for): the kernel the whole W x H input, no padding,
 * a 1x1 output per batch; kernels, then channels, halved until every batch and all weights are resident. */
static void fc_shape(conv_t *v, rng_t *r)
{
    const unsigned bin = rng_below(r, 100);
    v->N = bin < 40 ? rng_range(r, 2, 7) : bin < 75 ? rng_range(r, 8, 31) : MAX_BATCH;
    v->geo.W = v->S = rng_range(r, 1, 4), v->geo.H = v->R = rng_range(r, 1, 4);
    v->geo.pl = v->geo.pr = v->geo.pt = v->geo.pb = 0, v->geo.sx = v->geo.sy = 1, v->geo.Wo = v->geo.Ho = 1;
    for (;;) {
        const uint32_t wbanks = ceil_div(v->geo.K * v->R * v->S * v->C * v->esz, CBUF_BANK_ENTRIES * CBUF_ENTRY_BYTES),
                       dbanks = ceil_div(entries_per_slice(v) * v->geo.H * v->N, CBUF_BANK_ENTRIES);
        if (dbanks + wbanks <= CBUF_BANKS) break;
        if (v->geo.K > 1) v->geo.K = (v->geo.K + 1) / 2;
        else v->C = (v->C + 1) / 2; /* C of 1: 4 x 4 x 1 pixels x 32 batches fit */
    }
}

/* An output cube as SDP writes batches: address, line and surface strides multiples of 64 bytes (the RTL asserts them
 * in batch mode, NV_NVDLA_SDP_WDMA_cmd.v:1082/1127/1172), sometimes with a gap. */
static nvf_cube_t batch_out_cube(rng_t *r, uint32_t w, uint32_t h, uint32_t c, uint32_t esz)
{
    nvf_cube_t q = {.w = w, .h = h, .c = c, .esz = esz, .s = ceil_div(c * esz, 32)};
    q.line = ceil_div(32 * w, 64) * 64 + (rng_chance(r, 30) ? 64 : 0);
    q.surf = q.surf_reg = q.line * h + (rng_chance(r, 30) ? 64 : 0);
    return q;
}

/* conv_cmp_corrupt's flip of a weight: bit 6 of its top byte (at FP16 its exponent's top bit), what a wrong
 * decompression could feed the MAC. Its own inverse. */
static int32_t flipped(const conv_t *v, int32_t x)
{
    return v->prec == NVF_FP16 ? (int32_t)((uint32_t)x ^ 0x4000u)
           : v->esz == 2       ? (int16_t)((uint32_t)x ^ 0x4000u)
                               : (int8_t)((uint32_t)x ^ 0x40u);
}

/* conv_cmp_corrupt: the first weight, in the order the check reads the outputs (surface, line, pixel, channel) and
 * each output's taps (r, s, c), whose flip changes that output as the generator predicts it; -1 when none does within
 * `budget` predictions. */
static long corrupt_weight(conv_t *v, uint32_t budget)
{
    const uint32_t lanes = 32 / v->esz, taps = v->R * v->S * v->C;
    for (uint32_t sf = 0; sf < v->geo.out.s; sf++)
        for (uint32_t y = 0; y < v->geo.Ho; y++)
            for (uint32_t x = 0; x < v->geo.Wo; x++)
                for (uint32_t k = sf * lanes; k < v->geo.K && k < (sf + 1) * lanes; k++) {
                    const int32_t want = conv_elem(v, k, y, x);
                    for (uint32_t t = 0; t < taps; t++) {
                        if (!budget--) return -1;
                        const size_t i = (size_t)k * taps + t;
                        const int32_t w = v->w[i];
                        v->w[i] = flipped(v, w);
                        const bool seen = conv_elem(v, k, y, x) != want;
                        v->w[i] = w;
                        if (seen) return (long)i;
                    }
                }
    return -1;
}

/* INT8/INT16: the CACC truncation that brings the layer's largest sum within the output's bits (at most 16). */
static uint32_t fit_trunc(const conv_t *v)
{
    uint64_t m = 0;
    for (uint32_t k = 0; k < v->geo.K; k++)
        for (uint32_t y = 0; y < v->geo.Ho; y++)
            for (uint32_t x = 0; x < v->geo.Wo; x++) {
                const int64_t a = conv_acc(v, k, y, x);
                const uint64_t u = (uint64_t)(a < 0 ? -a : a);
                m = u > m ? u : m;
            }
    const int t = (m ? 64 - __builtin_clzll(m) : 0) - (int)(8 * v->esz - 1);
    return t < 0 ? 0 : t > 16 ? 16 : (uint32_t)t;
}

/* rdma_n: SDP_RDMA's layers so far (its register groups alternate with its own layers, not the convolution's: NVIDIA's
 * firmware keeps an rdma_group apart, kmd/firmware/scheduler.c) */
static void conv_job(program_t *p, rng_t *r, uint64_t seed, int k, int g, conv_kind_t kind, int *rdma_n)
{
    const bool all_fp16 = kind == KIND_FP16,
               cmp = kind == KIND_CMP || kind == KIND_CMP_CORRUPT || kind == KIND_CMP_BATCH || kind == KIND_CMP_PDP,
               to_pdp = kind == KIND_PDP || kind == KIND_CMP_PDP,
               batch = kind == KIND_BATCH || kind == KIND_BATCH_CORRUPT || kind == KIND_FC || kind == KIND_CMP_BATCH;
    conv_t v = {.prec = all_fp16                 ? NVF_FP16
                        : cmp || batch || to_pdp ? (nvf_prec_t)rng_below(r, NVF_NPREC)
                                                 : nvf_draw_prec(r, NVF_DRAW_CONV),
                .N = 1};
    v.esz = nvf_prec[v.prec].esz;
    v.geo.W = rng_range(r, 1, 12), v.geo.H = rng_range(r, 1, 8);
    v.C = rng_chance(r, 15) ? rng_range(r, 1, 8) : rng_range(r, 1, v.esz == 2 ? 96 : 160);
    v.geo.K = rng_chance(r, 20) ? rng_range(r, 1, 4) : rng_range(r, 1, 48);
    kernel_dim(r, v.geo.W, &v.S, &v.geo.pl, &v.geo.pr);
    kernel_dim(r, v.geo.H, &v.R, &v.geo.pt, &v.geo.pb);
    v.geo.sx = rng_range(r, 1, 3), v.geo.sy = rng_range(r, 1, 3);
    v.geo.Wo = (v.geo.W + v.geo.pl + v.geo.pr - v.S) / v.geo.sx + 1,
    v.geo.Ho = (v.geo.H + v.geo.pt + v.geo.pb - v.R) / v.geo.sy + 1;
    if (kind == KIND_FC) fc_shape(&v, r);
    else if (batch) batch_shape(&v, r, cmp ? CBUF_BANKS - 1 : CBUF_BANKS); /* compressed: bank 15 holds the bitmap */
    const nvf_place_t src = nvf_place(r, k, 0, 30), wts = nvf_place(r, k, 1, 30), dst = nvf_place(r, k, 2, 30);
    if (batch) {
        v.in = nvf_cube(r, v.geo.W, v.geo.H, v.C, v.esz),
        v.geo.out = batch_out_cube(r, v.geo.Wo, v.geo.Ho, v.geo.K, v.esz);
        /* each batch past the last surface of the one before (cmod cdma.cpp:1050 requires it), sometimes a gap */
        v.in_bstride = v.in.surf * v.in.s + (rng_chance(r, 30) ? 32 * rng_range(r, 1, 3) : 0);
        v.out_bstride = v.geo.out.surf * v.geo.out.s + (rng_chance(r, 30) ? 64 * rng_range(r, 1, 2) : 0);
    } else {
        v.in = nvf_cube(r, v.geo.W, v.geo.H, v.C, v.esz), v.geo.out = nvf_cube(r, v.geo.Wo, v.geo.Ho, v.geo.K, v.esz);
        nvf_cube_sdp(&v.geo.out); /* SDP writes it (flying) */
    }
    uint8_t *bdata[MAX_BATCH] = {NULL};
    v.geo.pad = rng_chance(r, 60) ? 0 : (int32_t)rng_range(r, 0, 64) - 32;
    /* data over its whole range; weights small (-8..7) most of the time, sometimes over 8 or 13 bits */
    const bool full = rng_chance(r, 30);
    const size_t nw = (size_t)v.geo.K * v.R * v.S * v.C;
    v.w = malloc(nw * sizeof *v.w);
    if (!v.w) abort();
    char mixname[48] = "";
    if (v.prec == NVF_FP16) {
        nvf_fp16_mix_t dm = fp16_conv_mix(r, -4, 4), wm = fp16_conv_mix(r, -7, 0);
        unsigned zd = rng_chance(r, 30) ? rng_range(r, 10, 60) : 0, zw = rng_chance(r, 30) ? 30 : 0;
        /* NEGATIVE: plain values, as conv_wino_fp16_corrupt's: corners (NaN data) or large weights made every output
         * NaN or Inf in 5 seeds of 3,000, where no flip can show */
        if (kind == KIND_CMP_CORRUPT) dm = (nvf_fp16_mix_t){0, -2, 2}, wm = (nvf_fp16_mix_t){0, -3, 0}, zd = zw = 0;
        const uint32_t bytes = nvf_cube_bytes(&v.in);
        for (uint32_t b = 0; b < v.N; b++)
            bdata[b] = fp16_fill(p, r, nvf_addr((nvf_place_t){src.cv, src.addr + b * v.in_bstride}), bytes, &dm, zd);
        for (size_t i = 0; i < nw; i++) v.w[i] = fp16_conv_value(r, &wm, zw);
        if (v.geo.pad) v.geo.pad = fp16_conv_value(r, &dm, 0);
        snprintf(mixname, sizeof mixname, ".d%ue%d_%dz%u.w%ue%d_%dz%u", dm.special_pct, dm.emin, dm.emax, zd,
                 wm.special_pct, wm.emin, wm.emax, zw);
    } else {
        for (uint32_t b = 0; b < v.N; b++)
            bdata[b] = nvf_fill_keep(p, r, (nvf_place_t){src.cv, src.addr + b * v.in_bstride}, nvf_cube_bytes(&v.in));
        for (size_t i = 0; i < nw; i++)
            v.w[i] = full ? (v.esz == 2 ? (int16_t)rng_next(r) >> 3 : (int8_t)rng_next(r))
                          : (int32_t)rng_range(r, 0, 15) - 8;
    }
    /* compressed: sparse kernels (a drawn share of the weights zero, at least one not), so that the bitmap has runs
     * of zeros and ones, whole zero kernels and groups */
    unsigned sparse = 0;
    if (cmp) {
        static const unsigned pct[] = {0, 25, 50, 75, 90, 100};
        sparse = pct[rng_below(r, sizeof pct / sizeof *pct)];
        bool any = false;
        for (size_t i = 0; i < nw; i++) {
            if (rng_chance(r, sparse)) v.w[i] = 0;
            any |= v.w[i] != 0;
        }
        if (!any) v.w[rng_below(r, (uint32_t)nw)] = v.prec == NVF_FP16 ? 0x3C00 : 1; /* 1.0 */
    }
    /* NEGATIVE (conv_cmp_corrupt): memory holds one weight flipped, the prediction the drawn one. So that the flip
     * must show, SDP is the identity (stages bypassed, converter 1:1, no NaN flush in CDMA or SDP, FP16 out), CACC's
     * truncation brings the largest sum within the output's bits (less when no flip shows there: saturation then
     * shows more), and the weight flipped is the first whose flip changes an output the check reads (corrupt_weight);
     * a fixed one (k0 r0 s0 c0) was invisible in 107 of seeds 1-200 (seed 3: SDP's converter saturated it). */
    long bad = -1;
    if (kind == KIND_CMP_CORRUPT) {
        v.bs = v.bn = (sdp_x_cfg_t){.bypass = true};
        v.off = 0, v.scale = 1, v.shift = 0;
        v.f16 = (sdp_fp16_cfg_t){.x1 = sdp32_fp16_stage(&v.bs), .x2 = sdp32_fp16_stage(&v.bn)};
        v.data = bdata[0];
        for (int t = v.prec == NVF_FP16 ? 0 : (int)fit_trunc(&v); bad < 0 && t >= 0; t--)
            v.geo.trunc = (uint32_t)t, bad = corrupt_weight(&v, 1u << 16);
        if (bad >= 0) v.w[bad] = flipped(&v, v.w[bad]);
    }
    const uint32_t corrupt_trunc = v.geo.trunc;
    uint32_t wbytes;
    uint8_t *packed = weights_packed(&v, &wbytes);
    if (bad >= 0) v.w[bad] = flipped(&v, v.w[bad]); /* back to the drawn weight */
    /* the bitmap and group sizes in the weights' RAM (one RAM type for the three, NV_NVDLA_CDMA_wt.v:5780), past
     * the weights (at most 384 KiB) inside their slot */
    const uint32_t wmb_addr = wts.addr + 0x80000u, wgs_addr = wts.addr + 0xC0000u;
    nvf_wt_cmp_t wc = {0};
    if (cmp) {
        const nvf_wt_shape_t sh = {.K = v.geo.K,
                                   .kg = v.esz == 2 ? 16 : 32,
                                   .kelems = v.R * v.S * v.C,
                                   .esz = v.esz,
                                   .explicit_zero_pct = rng_chance(r, 20) ? 10 : 0};
        nvf_wt_compress(p, r, packed, &sh, nvf_addr(wts), nvf_addr((nvf_place_t){wts.cv, wmb_addr}),
                        nvf_addr((nvf_place_t){wts.cv, wgs_addr}), &wc);
        wbytes = wc.wt_bytes;
    } else prog_mem(p, nvf_addr(wts), packed, wbytes);
    free(packed);
    /* NEGATIVE: SDP's batch stride one 64-byte step longer than the expectation's, as a DUT would use a wrong one */
    const uint32_t out_bstride_reg = v.out_bstride + (kind == KIND_BATCH_CORRUPT ? 64 : 0);
    nvf_fill(p, r, dst, (v.N - 1) * out_bstride_reg + nvf_cube_bytes(&v.geo.out)); /* gap bytes must survive */
    /* CACC's truncation: the sums' typical magnitude (products of 2^10 / 2^18 with small weights, 2^14 / 2^27 with
     * wide ones, at INT8 / INT16, growing as the root of their count) less the output's bits, so that outputs spread; sometimes anything up to 16, the
     * most cmod's CACC accepts (48-bit assembly, 32-bit delivery: NV_NVDLA_cacc.cpp) */
    const int mag = (v.esz == 2 ? (full ? 27 : 18) : (full ? 14 : 10)) + (31 - __builtin_clz(v.C * v.R * v.S)) / 2;
    const int t = mag - (int)(8 * v.esz - 1) + (int)rng_range(r, 0, 6) - 3;
    v.geo.trunc = rng_chance(r, 15) ? rng_below(r, 17) : (uint32_t)(t < 0 ? 0 : t > 16 ? 16 : t);
    if (v.prec == NVF_FP16) v.geo.trunc = 0; /* not used at FP16 (cmod cacc.cpp:888); written 0 as NVIDIA's firmware */
    if (kind == KIND_CMP_CORRUPT) v.geo.trunc = corrupt_trunc;
    /* banks: the whole input and every weight resident, sometimes a spare bank */
    const uint32_t eps = entries_per_slice(&v), dbanks = ceil_div(eps * v.geo.H * v.N, CBUF_BANK_ENTRIES),
                   wbanks = ceil_div(wbytes, CBUF_BANK_ENTRIES * CBUF_ENTRY_BYTES);
    /* compressed: CBUF's last bank holds the bitmap (cmod csc.cpp: WMB entries from 15 x 256; the RTL asserts data
     * and weight banks at most 15, NV_NVDLA_CDMA_wt.v:2599) */
    const uint32_t banks = cmp ? CBUF_BANKS - 1 : CBUF_BANKS;
    const uint32_t spare = dbanks + wbanks < banks && rng_chance(r, 30) ? 1 : 0, bank_d = dbanks + spare;
    const uint32_t bank = (bank_d - 1) | (wbanks - 1) << 16, prec = v.prec;
    /* CDMA's input converter in a quarter of conv_random's (INT8/INT16) jobs, drawn from a side stream so that conv_random's other
     * draws keep their meaning; moderate (offset within a quarter of the range, scale 1-3, truncation 0-2) so that the
     * CACC truncation drawn below still spreads the outputs */
    rng_t cr;
    rng_seed_stream(&cr, seed * 2 + (uint64_t)k, all_fp16 ? "nvf_conv_cvt_fp16" : "nvf_conv_cvt");
    if (kind == KIND_INT && rng_chance(&cr, 25)) {
        const int32_t q = 1 << (8 * v.esz - 3);
        v.cvt = true, v.cvt_off = (int32_t)rng_range(&cr, 0, 2 * (uint32_t)q) - q;
        v.cvt_scale = (int32_t)rng_range(&cr, 1, 3) * (rng_chance(&cr, 20) ? -1 : 1),
        v.cvt_trunc = rng_range(&cr, 0, 2);
    } else if (all_fp16 &&
               rng_chance(&cr, 25)) { /* on FP16 data the converter passes it unchanged, whatever its fields */
        v.cvt = true, v.cvt_off = (int32_t)(int16_t)rng_next(&cr), v.cvt_scale = (int32_t)(int16_t)rng_next(&cr);
        v.cvt_trunc = rng_below(&cr, 64);
    }
    if (v.prec == NVF_FP16) v.geo.nan_flush = kind != KIND_CMP_CORRUPT && rng_chance(r, 30);
    const nvf_conv_regs_t regs = {
        .in_prec = prec,
        .prec = prec,
        .C = v.C,
        .We = v.geo.W,
        .He = v.geo.H,
        .csc_c = v.C,
        .src = src,
        .wts = wts,
        .dst = dst,
        .line = v.in.line,
        .surf = v.in.surf,
        .N = v.N,
        .in_bstride = v.in_bstride,
        .out_bstride = out_bstride_reg,
        .eps = eps,
        .bank = bank,
        .S = v.S,
        .R = v.R,
        .wt_c = v.C,
        .kernel_bytes = v.R * v.S * v.C * v.esz,
        .cmp = cmp,
        .wbytes = wbytes,
        .wgs_addr = wgs_addr,
        .wmb_addr = wmb_addr,
        .wmb_bytes = wc.wmb_bytes,
        .cvt_cfg = (uint32_t)v.cvt | v.cvt_trunc << 4,
        .cvt_offset = (uint32_t)v.cvt_off & 0xFFFF,
        .cvt_scale = (uint32_t)v.cvt_scale & 0xFFFF,
    };
    dp_wlist_t l = {.n = 0};
    nvf_conv_regs_put(&l, &v.geo, &regs); /* CDMA, CSC, CMAC, CACC; SDP on the fly, to memory */
    const bool corrupt = kind == KIND_CMP_CORRUPT, fp16 = v.prec == NVF_FP16,
               nan0 = fp16 && !corrupt && rng_chance(r, 50), int16_out = fp16 && !corrupt && rng_chance(r, 25);
    /* flying: from CACC; output to memory */
    dp_put(&l, NVDLA_SDP_D_FEATURE_MODE_CFG_0,
           1 | (uint32_t)to_pdp << 1 | (uint32_t)nan0 << 3 | (v.N - 1) << 8); /* bit 1: to PDP */
    dp_put(&l, NVDLA_SDP_D_DATA_FORMAT_0, prec | (int16_out ? 1u : prec) << 2);
    const char *bs = "ident";
    if (corrupt) dp_put(&l, NVDLA_SDP_D_DP_BS_CFG_0, 1), dp_put(&l, NVDLA_SDP_D_DP_BN_CFG_0, 1); /* BS, BN bypassed */
    else {
        bs = nvf_sdp_x_stage(&l, r, NVDLA_SDP_D_DP_BS_CFG_0, &v.bs, fp16);
        nvf_sdp_x_stage(&l, r, NVDLA_SDP_D_DP_BN_CFG_0, &v.bn, fp16);
    }
    v.f16 = (sdp_fp16_cfg_t){
        .x1 = sdp32_fp16_stage(&v.bs), .x2 = sdp32_fp16_stage(&v.bn), .nan_to_zero = nan0, .out_int16 = int16_out};
    v.bs_mem = fp16 &&
               nvf_conv_opnd_draw(p, seed, k, &l, &v.bs, v.geo.Wo, v.geo.Ho, v.geo.K, v.N, int16_out ? 1u : 2u, &v.bso);
    dp_put(&l, NVDLA_SDP_D_DP_EW_CFG_0, 0x53);
    v.off = rng_range(r, 0, 16) - 8, v.scale = rng_range(r, 1, 3), v.shift = rng_range(r, 0, 2);
    if (corrupt) v.off = 0, v.scale = 1, v.shift = 0;
    dp_put(&l, NVDLA_SDP_D_CVT_OFFSET_0, v.off), dp_put(&l, NVDLA_SDP_D_CVT_SCALE_0, v.scale);
    dp_put(&l, NVDLA_SDP_D_CVT_SHIFT_0, v.shift);
    /* PDP on the fly over SDP's output, its output where SDP's would be (SDP writes nothing) */
    char pdpname[56] = "";
    nvf_pdp_fly_t *fly = !to_pdp ? NULL
                                 : nvf_pdp_fly_draw(p, r, &l, int16_out ? NVF_INT16 : v.prec, v.geo.Wo, v.geo.Ho,
                                                    v.geo.K, dst, pdpname + 1, sizeof pdpname - 1);
    if (fly) pdpname[0] = '.';
    char cmpname[48] = "", kname[48];
    if (cmp) snprintf(cmpname, sizeof cmpname, ".cmp%u.nz%u.ez%u", sparse, wc.nonzero, wc.explicit_zeros);
    /* the negative's flipped weight first (a job's name is cut at the scoreboard's 128 characters) */
    const uint32_t taps = v.R * v.S * v.C, at = bad < 0 ? 0 : (uint32_t)((size_t)bad % taps);
    if (bad >= 0)
        snprintf(kname, sizeof kname, "%s.flip_k%u_r%u_s%u_c%u", kind_name[kind], (uint32_t)((size_t)bad / taps),
                 at / (v.S * v.C), at / v.C % v.S, at % v.C);
    else snprintf(kname, sizeof kname, "%s%s", kind_name[kind], corrupt ? ".NOFLIP" : "");
    if (batch) snprintf(cmpname + strlen(cmpname), sizeof cmpname - strlen(cmpname), ".b%u", v.N);
    prog_job(p, "conv_random%s.s%llu.j%d.%s.%ux%ux%u.k%u.%ux%u.s%ux%u.t%u.%s%s%s%s%s%s%s%s%s", kname,
             (unsigned long long)seed, k, nvf_prec[v.prec].name, v.geo.W, v.geo.H, v.C, v.geo.K, v.S, v.R, v.geo.sx,
             v.geo.sy, v.geo.trunc, bs, v.bs_mem ? "mem" : "", mixname, v.geo.nan_flush ? ".cdmanan0" : "",
             nan0 ? ".nan0" : "", int16_out ? ".2int16" : "", v.cvt ? ".cdmacvt" : "", cmpname, pdpname);
    nvf_conv_launch_to(p, r, &l, k, g, v.bs_mem ? (int)((unsigned)(*rdma_n)++ & 1u) : -1, fly != NULL);
    if (fly) { /* SDP's output as conv_elem predicts it, pooled */
        int32_t *mid = nvf_pdp_fly_mid(fly);
        v.data = bdata[0];
        for (uint32_t c = 0; c < v.geo.K; c++)
            for (uint32_t y = 0; y < v.geo.Ho; y++)
                for (uint32_t x = 0; x < v.geo.Wo; x++)
                    mid[((size_t)c * v.geo.Ho + y) * v.geo.Wo + x] = conv_elem(&v, c, y, x);
        nvf_pdp_fly_expect(p, fly, false);
    }
    for (uint32_t b = 0; b < v.N && !fly; b++) {
        char what[32] = "SDP output";
        if (v.N > 1) snprintf(what, sizeof what, "SDP output batch %u", b);
        v.data = bdata[b];
        nvf_expect_cube(p, what, (nvf_place_t){dst.cv, dst.addr + b * v.out_bstride}, &v.geo.out, conv_elem, &v, false);
        free(bdata[b]);
    }
    free(v.w);
    sdp32_opnd_free(&v.bso);
}

/* 1-2 layers in alternating groups; CDMA's CBUF flush done before the first. */
int nvf_conv_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random");
    const int layers = (int)rng_range(&r, 1, 2);
    int rdma_n = 0;
    for (int k = 0; k < layers; k++) conv_job(p, &r, seed, k, k & 1, KIND_INT, &rdma_n);
    return 0;
}

/* conv_random with every job FP16 (its own seed stream). */
int nvf_conv_random_fp16(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_fp16");
    const int layers = (int)rng_range(&r, 1, 2);
    int rdma_n = 0;
    for (int k = 0; k < layers; k++) conv_job(p, &r, seed, k, k & 1, KIND_FP16, &rdma_n);
    return 0;
}

/* Compressed weights at INT8, INT16 and FP16 (its own seed stream). */
int nvf_conv_random_cmp(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_cmp");
    const int layers = (int)rng_range(&r, 1, 2);
    int rdma_n = 0;
    for (int k = 0; k < layers; k++) conv_job(p, &r, seed, k, k & 1, KIND_CMP, &rdma_n);
    return 0;
}

/* Batches of 2-32 at INT8, INT16 and FP16 (its own seed stream). */
int nvf_conv_random_batch(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_batch");
    const int layers = (int)rng_range(&r, 1, 2);
    int rdma_n = 0;
    for (int k = 0; k < layers; k++) conv_job(p, &r, seed, k, k & 1, KIND_BATCH, &rdma_n);
    return 0;
}

/* Batched fully-connected layers (1x1 outputs) at INT8, INT16 and FP16 (its own seed stream). */
int nvf_conv_random_fc(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_fc");
    const int layers = (int)rng_range(&r, 1, 2);
    int rdma_n = 0;
    for (int k = 0; k < layers; k++) conv_job(p, &r, seed, k, k & 1, KIND_FC, &rdma_n);
    return 0;
}

/* Compressed weights and 2-32 batches in one job, at INT8, INT16 and FP16 (its own seed stream). */
int nvf_conv_random_cmp_batch(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_cmp_batch");
    const int layers = (int)rng_range(&r, 1, 2);
    int rdma_n = 0;
    for (int k = 0; k < layers; k++) conv_job(p, &r, seed, k, k & 1, KIND_CMP_BATCH, &rdma_n);
    return 0;
}

/* conv -> SDP -> PDP on the fly, 1-2 layers at INT8, INT16 and FP16 (its own seed stream). */
int nvf_conv_random_pdp(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_pdp");
    const int layers = (int)rng_range(&r, 1, 2);
    int rdma_n = 0;
    for (int k = 0; k < layers; k++) conv_job(p, &r, seed, k, k & 1, KIND_PDP, &rdma_n);
    return 0;
}

/* compressed weights (conv_random_cmp's draws) -> SDP -> PDP on the fly, 1-2 layers at INT8, INT16 and FP16 (its own
 * seed stream): PDP pools what the decompressed weights give. */
int nvf_conv_random_cmp_pdp(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_cmp_pdp");
    const int layers = (int)rng_range(&r, 1, 2);
    int rdma_n = 0;
    for (int k = 0; k < layers; k++) conv_job(p, &r, seed, k, k & 1, KIND_CMP_PDP, &rdma_n);
    return 0;
}

/* NEGATIVE: one conv_random_batch job whose SDP batch stride is 64 bytes longer than the expectation's. */
int nvf_conv_batch_corrupt(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_batch");
    (void)rng_range(&r, 1, 2); /* conv_random_batch's layer count: its first job's shape (the longer fill then
                                  shifts later draws) */
    int rdma_n = 0;
    conv_job(p, &r, seed, 0, 0, KIND_BATCH_CORRUPT, &rdma_n);
    return 0;
}

/* NEGATIVE: one compressed job whose stored weights hold one weight flipped (conv_job: SDP the identity, the first
 * weight whose flip shows in an output), what a wrong decompression would feed the MAC: the golden model computes what
 * memory holds, the generator what it meant. */
int nvf_conv_cmp_corrupt(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_cmp");
    int rdma_n = 0;
    conv_job(p, &r, seed, 0, 0, KIND_CMP_CORRUPT, &rdma_n);
    return 0;
}
#endif
