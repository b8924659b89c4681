/* Winograd convolutions on nv_full (nvf_gen.h): conv_random_wino, INT8 or INT16, and conv_random_wino_fp16, FP16
 * (its own seed stream), F(2x2, 3x3) at stride 1, into SDP
 * on the fly (BS/BN stages with register operands, converter) to memory; input, weights and output each in DBB or
 * CVSRAM. The hardware sees only the transformed weights (4x4 per kernel and channel, in the precision), so the
 * generator draws those directly, in NVIDIA's Winograd weight layout (conv_wino_weight_offset). The registers are
 * programmed as NVIDIA's firmware programs a Winograd layer (kmd/firmware/conv.c: CONV_MODE in CDMA, CSC, CMAC and
 * CACC, SDP's WINOGRAD bit, CSC's padding and strides 0, its *_EXT sizes and PRA_CFG) with the sizes its compiler
 * would give (the rules NVIDIA's RTL asserts: docs/nvdla_nv_full.md, "Winograd convolution"): the input padded to
 * an extended plane of multiples of 4, the output 4 less, CSC's channels whole input surfaces (the extra channels'
 * weights 0). The output is predicted element by element by the generator's own matrix formulation of Bt d B and
 * At m A (written apart from the golden model's adder form in conv_winograd.c), then CACC's truncation and SDP. At
 * FP16 no such independent form is exact (the PRA rounds each FP17 sum, CMAC aligns and truncates the products,
 * CACC rounds in FP48), so, as conv_random_fp16 does, the prediction runs the model's FP16 arithmetic
 * (conv_wino_fp16.h, checked by its unit test) on the generator's own data, weights and layouts, then SDP at FP16. */
#ifndef NV_FULL_ABSENT
#include "conv_wino_fp16.h"
#include "conv_winograd.h"
#include "dp_atom32.h" /* sdp32_fp16_stage */
#include "nv_full_regs.h"
#include "nvf_gen.h"
#include "sdp_fp16.h"
#include "sdp_golden.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CBUF_BANK_ENTRIES 256u
#define CBUF_ENTRY_BYTES 128u

/* F(2x2, 3x3)'s transforms as matrices (Lavin and Gray; cmod csc_cvt.cpp's C^T and cmac.h's phases) */
static const int BT[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
static const int AT[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};

typedef struct wino {
    nvf_prec_t prec;
    uint32_t esz, lanes, C, Ce, We, He, pra;
    nvf_conv_layer_t geo; /* W, H, K, strides (1), pads, output, truncation, pad value, NaN flush (nvf_gen.h) */
    nvf_cube_t in;
    uint8_t *data;
    int32_t *u; /* u[(k * Ce + c) * 16 + pos]: transformed weights */
    sdp_x_cfg_t bs, bn;
    uint32_t off, scale, shift;
    sdp_fp16_cfg_t f16; /* FP16: SDP's stages on CACC's FP32 */
} wino_t;

static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* The extended plane: the pad value (its low byte at INT8) outside the cube. */
static int64_t ext(const wino_t *v, uint32_t c, uint32_t y, uint32_t x)
{
    if (y < v->geo.pt || x < v->geo.pl || y >= v->geo.pt + v->geo.H || x >= v->geo.pl + v->geo.W) return v->geo.pad;
    return nvf_elem(v->data, &v->in, c, y - v->geo.pt, x - v->geo.pl);
}

static int64_t round_shift(int64_t x, unsigned s) /* half away from zero */
{
    if (!s) return x;
    const int64_t m = x < 0 ? -x : x, r = (m + ((int64_t)1 << (s - 1))) >> s;
    return x < 0 ? -r : r;
}
static int64_t clamp(int64_t x, unsigned bits)
{
    const int64_t hi = ((int64_t)1 << (bits - 1)) - 1, lo = -hi - 1;
    return x > hi ? hi : x < lo ? lo : x;
}

static uint16_t fp16_ext(const void *ctx, uint32_t c, uint32_t y, uint32_t x) { return (uint16_t)ext(ctx, c, y, x); }
static uint16_t fp16_u(const void *ctx, uint32_t k, uint32_t c, uint32_t pos)
{
    const wino_t *v = ctx;
    return (uint16_t)v->u[(k * v->Ce + c) * 16 + pos];
}

static int32_t wino_elem(const void *ctx, uint32_t k, uint32_t oy, uint32_t ox)
{
    const wino_t *v = ctx;
    if (v->prec == NVF_FP16) {
        const conv_wino_fp16_src_t s = {
            .C = v->Ce, .nan_flush = v->geo.nan_flush, .ctx = v, .data = fp16_ext, .weight = fp16_u};
        return sdp_fp32_element(&v->f16, conv_wino_fp16_output(&s, k, oy, ox, k >= v->geo.K));
    }
    const uint32_t y0 = oy & ~1u, x0 = ox & ~1u;
    int64_t m[4][4] = {{0}};
    for (uint32_t c = 0; c < v->Ce; c++) {
        int64_t d[4][4], t[4][4];
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) d[a][b] = ext(v, c, y0 + a, x0 + b);
        for (int i = 0; i < 4; i++) /* t = Bt d */
            for (int b = 0; b < 4; b++) {
                t[i][b] = 0;
                for (int a = 0; a < 4; a++) t[i][b] += BT[i][a] * d[a][b];
            }
        /* V = t B, its PRA shift (PRA_TRUNCATE 3 shifts by 2 on nv_full's RTL, NV_NVDLA_CSC_dl.v:2159; cmod shifts by 3)
         * and saturation; M += V . U */
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                int64_t x = 0;
                for (int b = 0; b < 4; b++) x += t[i][b] * BT[j][b];
                m[i][j] += clamp(round_shift(x, v->pra == 3 ? 2 : v->pra), 8 * v->esz) *
                           v->u[(k * v->Ce + c) * 16 + i * 4 + j];
            }
    }
    const uint32_t r = oy & 1, s = ox & 1;
    int64_t acc = 0; /* Y = At M A */
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) acc += AT[r][a] * m[a][b] * AT[s][b];
    acc = clamp(round_shift(acc, v->geo.trunc), 32); /* CACC: CLIP_TRUNCATE, 32-bit saturation */
    int64_t t = sdp_x_stage(&v->bs, acc, v->bs.alu_reg, v->bs.mul_reg);
    t = sdp_x_stage(&v->bn, t, v->bn.alu_reg, v->bn.mul_reg);
    return sdp_cvt_bits(t, v->off, v->scale, v->shift, 8 * v->esz, NULL);
}

/* An extended dimension (output + 4) and the two pads around an input of 1 .. out + 4 (each pad 0-3, mostly 1). */
static void ext_dim(rng_t *r, uint32_t out, uint32_t *in, uint32_t *p0, uint32_t *p1)
{
    const uint32_t e = out + 4;
    *p0 = rng_chance(r, 50) ? 1 : rng_below(r, 4);
    *p1 = rng_chance(r, 50) ? 1 : rng_below(r, 4);
    *in = e - *p0 - *p1;
}

/* The transformed weights: small (-8..7) in most jobs, else over the whole precision; zero past the input's channels
 * (CSC's extra channels read the input atoms' pad lanes). */
static void draw_weights(rng_t *r, wino_t *v, bool full)
{
    v->u = calloc((size_t)v->geo.K * v->Ce * 16, sizeof *v->u);
    if (!v->u) abort();
    for (uint32_t k = 0; k < v->geo.K; k++)
        for (uint32_t c = 0; c < v->C; c++)
            for (uint32_t pos = 0; pos < 16; pos++)
                v->u[(k * v->Ce + c) * 16 + pos] = full
                                                       ? (v->esz == 2 ? (int16_t)rng_next(r) >> 3 : (int8_t)rng_next(r))
                                                       : (int32_t)rng_range(r, 0, 15) - 8;
}

/* FP16 values for a Winograd layer: a cell's NaN makes its four outputs NaN, so corners are rare (0-3 %); zeros (CSC
 * skips +-0) in a share of jobs; data exponents so that the PRA's sums of four and the sums over the channels mostly
 * stay finite, tiny values (denormal products, the cell's alignment losses) and large ones (the PRA saturates at
 * 65504) in some jobs. */
static nvf_fp16_mix_t fp16_mix(rng_t *r, int emin, int emax)
{
    const unsigned kind = rng_below(r, 100);
    if (kind < 60) return (nvf_fp16_mix_t){0, emin, emax};
    if (kind < 85) return (nvf_fp16_mix_t){rng_range(r, 1, 3), emin, emax};
    if (kind < 93) return (nvf_fp16_mix_t){0, -14, -8};
    return (nvf_fp16_mix_t){rng_range(r, 0, 1), 12, 15};
}
static uint16_t fp16_value(rng_t *r, const nvf_fp16_mix_t *m, unsigned zero_pct)
{
    return rng_chance(r, zero_pct) ? (rng_chance(r, 50) ? 0x8000 : 0) : nvf_fp16_value(r, m);
}

static uint8_t *weights_packed(const wino_t *v, uint32_t *bytes)
{
    *bytes = v->geo.K * 16 * v->Ce * v->esz; /* a multiple of 128: 16 x whole surfaces of 32 bytes */
    uint8_t *b = calloc(*bytes, 1);
    if (!b) abort();
    for (uint32_t k = 0; k < v->geo.K; k++)
        for (uint32_t c = 0; c < v->Ce; c++)
            for (uint32_t pos = 0; pos < 16; pos++) {
                uint8_t *at = b + conv_wino_weight_offset(k, c, pos, v->Ce, v->geo.K, v->esz);
                const int32_t x = v->u[(k * v->Ce + c) * 16 + pos];
                at[0] = (uint8_t)x;
                if (v->esz == 2) at[1] = (uint8_t)(x >> 8);
            }
    return b;
}

static void wino_job(program_t *p, rng_t *r, uint64_t seed, int k, int g, bool fp16, bool corrupt)
{
    wino_t v = {.prec = fp16 ? NVF_FP16 : rng_chance(r, 50) ? NVF_INT8 : NVF_INT16};
    v.esz = nvf_prec[v.prec].esz, v.lanes = 32 / v.esz;
    v.geo.Wo = 4 * rng_range(r, 1, 3), v.geo.Ho = 4 * rng_range(r, 1, 2);
    ext_dim(r, v.geo.Wo, &v.geo.W, &v.geo.pl, &v.geo.pr);
    ext_dim(r, v.geo.Ho, &v.geo.H, &v.geo.pt, &v.geo.pb);
    v.We = v.geo.Wo + 4, v.He = v.geo.Ho + 4;
    v.geo.sx = v.geo.sy = 1; /* F(2x2, 3x3) at stride 1 */
    v.C = rng_chance(r, 15) ? rng_range(r, 1, 8) : rng_range(r, 1, v.esz == 2 ? 48 : 96);
    v.Ce = ceil_div(v.C, v.lanes) * v.lanes;
    v.geo.K = rng_chance(r, 20) ? rng_range(r, 1, 4) : rng_range(r, 1, 40);
    const nvf_place_t src = nvf_place(r, k, 0, 30), wts = nvf_place(r, k, 1, 30), dst = nvf_place(r, k, 2, 30);
    v.in = nvf_cube(r, v.geo.W, v.geo.H, v.C, v.esz), v.geo.out = nvf_cube(r, v.geo.Wo, v.geo.Ho, v.geo.K, v.esz);
    /* data over the whole range (the PRA saturates), or small (|d| < 32: the transforms stay exact) */
    const bool small = !fp16 && rng_chance(r, 40), full = !fp16 && rng_chance(r, 30);
    char mixname[48] = "";
    nvf_fp16_mix_t dm = {0}, wm = {0};
    unsigned zd = 0, zw = 0;
    if (fp16) {
        dm = fp16_mix(r, -4, 4), wm = fp16_mix(r, -7, 0);
        zd = rng_chance(r, 30) ? rng_range(r, 10, 60) : 0, zw = rng_chance(r, 30) ? 30 : 0;
        /* NEGATIVE: plain values, no zeros, so the corrupted weight (an exponent of -3..0 with its top bit flipped:
         * Inf or NaN) reaches every output of kernel 0; tiny or zero data hid it (seed 3) */
        if (corrupt) dm = (nvf_fp16_mix_t){0, -2, 2}, wm = (nvf_fp16_mix_t){0, -3, 0}, zd = zw = 0;
        const uint32_t bytes = nvf_cube_bytes(&v.in);
        v.data = malloc(bytes);
        if (!v.data) abort();
        for (uint32_t i = 0; i + 1 < bytes; i += 2) { /* every slot: elements, pad lanes (CSC reads them) and gaps */
            const uint16_t x = fp16_value(r, &dm, zd);
            v.data[i] = (uint8_t)x, v.data[i + 1] = (uint8_t)(x >> 8);
        }
        prog_mem(p, nvf_addr(src), v.data, bytes);
        snprintf(mixname, sizeof mixname, ".d%ue%d_%dz%u.w%ue%d_%dz%u", dm.special_pct, dm.emin, dm.emax, zd,
                 wm.special_pct, wm.emin, wm.emax, zw);
    } else {
        v.data = nvf_fill_keep(p, r, src, nvf_cube_bytes(&v.in));
    }
    if (small) {
        for (uint32_t s = 0; s < v.in.s; s++)
            for (uint32_t y = 0; y < v.geo.H; y++)
                for (uint32_t x = 0; x < v.geo.W; x++)
                    for (uint32_t l = 0; l < v.lanes; l++) {
                        uint8_t *e = v.data + s * v.in.surf + y * v.in.line + x * 32 + l * v.esz;
                        const int32_t d = (int32_t)rng_range(r, 0, 63) - 32;
                        e[0] = (uint8_t)d;
                        if (v.esz == 2) e[1] = (uint8_t)(d >> 8);
                    }
        prog_mem(p, nvf_addr(src), v.data, nvf_cube_bytes(&v.in));
    }
    v.geo.pad = rng_chance(r, 60) ? 0 : small ? (int32_t)rng_range(r, 0, 63) - 32 : (int32_t)rng_range(r, 0, 255) - 128;
    if (fp16 && v.geo.pad) v.geo.pad = (int16_t)fp16_value(r, &dm, 0); /* an FP16 value, as ext() reads it back */
    draw_weights(r, &v, full);
    if (fp16) /* FP16 transformed weights; channels past the input's stay 0 */
        for (uint32_t kk = 0; kk < v.geo.K; kk++)
            for (uint32_t c = 0; c < v.C; c++)
                for (uint32_t pos = 0; pos < 16; pos++) v.u[(kk * v.Ce + c) * 16 + pos] = fp16_value(r, &wm, zw);
    uint32_t wbytes;
    uint8_t *packed = weights_packed(&v, &wbytes);
    /* NEGATIVE: memory holds kernel 0's weight at channel 0, position 5 (the tile's centre, in all four outputs) with
     * its exponent's top bit flipped, the prediction the drawn one */
    if (corrupt) packed[conv_wino_weight_offset(0, 0, 5, v.Ce, v.geo.K, v.esz) + v.esz - 1] ^= 0x40;
    prog_mem(p, nvf_addr(wts), packed, wbytes);
    free(packed);
    nvf_fill(p, r, dst, nvf_cube_bytes(&v.geo.out)); /* gap bytes must survive */
    v.pra = rng_below(r, 4);
    /* CACC's truncation aimed at the sums' magnitude (transformed data up to 2^7 / 2^15 over 16 positions and the
     * channels, weights 2^3 or the precision's), sometimes anything up to 16 */
    const int vbits = small ? 8 - (int)v.pra : (int)(8 * v.esz) - 1,
              mag = vbits + (full ? (v.esz == 2 ? 12 : 7) : 3) + (31 - __builtin_clz(v.Ce * 16)) / 2;
    const int t = mag - (int)(8 * v.esz - 1) + (int)rng_range(r, 0, 6) - 3;
    v.geo.trunc = rng_chance(r, 15) ? rng_below(r, 17) : (uint32_t)(t < 0 ? 0 : t > 16 ? 16 : t);
    if (fp16)
        v.geo.trunc = 0; /* CLIP_TRUNCATE is not used at FP16 (cmod cacc.cpp:888); 0 as conv_random_fp16 writes it */
    /* CBUF: four input rows of the extended plane are W_ext x surfaces entries; all resident */
    const uint32_t eps = v.We / 4 * v.in.s, dbanks = ceil_div(v.He / 4 * v.We * v.in.s, CBUF_BANK_ENTRIES),
                   wbanks = ceil_div(wbytes, CBUF_BANK_ENTRIES * CBUF_ENTRY_BYTES);
    const uint32_t spare = dbanks + wbanks < 16 && rng_chance(r, 30) ? 1 : 0;
    const uint32_t bank = (dbanks + spare - 1) | (wbanks - 1) << 16, prec = v.prec;
    /* CDMA's NaN flush at FP16: the input (the extended plane's pad value included: CDMA writes it) and weights */
    if (fp16) v.geo.nan_flush = !corrupt && rng_chance(r, 30); /* the negative's Inf/NaN weight must not be flushed */
    /* CSC reads the extended plane, the 4x4 transformed kernels, with no padding or stride of its own (conv.c); SDP
     * then runs on the fly in Winograd mode (sdp.c: its WINOGRAD bit from the convolution's mode), to memory */
    const nvf_conv_regs_t regs = {
        .wino = true,
        .in_prec = prec,
        .prec = prec,
        .C = v.C,
        .We = v.We,
        .He = v.He,
        .csc_c = v.Ce,
        .src = src,
        .wts = wts,
        .dst = dst,
        .line = v.in.line,
        .surf = v.in.surf,
        .N = 1,
        .eps = eps,
        .bank = bank,
        .S = 4,
        .R = 4,
        .wt_c = v.Ce,
        .kernel_bytes = 16 * v.Ce * v.esz,
        .wbytes = wbytes,
        .pra = v.pra,
    };
    dp_wlist_t l = {.n = 0};
    nvf_conv_regs_put(&l, &v.geo, &regs);
    /* FP16: SDP processes CACC's FP32 at FP16 (NaN to zero in half the jobs), to FP16 or (25 %) INT16 */
    /* the negative: NaN kept, FP16 out (an INT16 output would turn the NaN into 0, maybe the value predicted) */
    const bool nan0 = fp16 && !corrupt && rng_chance(r, 50), int16_out = fp16 && !corrupt && rng_chance(r, 25);
    dp_put(&l, NVDLA_SDP_D_FEATURE_MODE_CFG_0, 1u | 1u << 2 | (uint32_t)nan0 << 3); /* flying, WINOGRAD */
    dp_put(&l, NVDLA_SDP_D_DATA_FORMAT_0, prec | (int16_out ? 1u : prec) << 2);
    /* SDP's stages and converter, or (30 %) SDP the identity: CACC's value itself reaches memory, where drawn stages
     * and the converter saturate most outputs and so hide a small difference in the sums (they did: PRA_TRUNCATE 3,
     * below, showed only in sign flips near 0 until SDP was the identity) */
    const bool ident = corrupt || rng_chance(r, 30); /* the negative: CACC's value itself reaches memory */
    const char *bs = "ident";
    if (ident) {
        dp_put(&l, NVDLA_SDP_D_DP_BS_CFG_0, 1), dp_put(&l, NVDLA_SDP_D_DP_BN_CFG_0, 1); /* BS_BYPASS, BN_BYPASS */
        v.bs = (sdp_x_cfg_t){.bypass = true}, v.bn = v.bs;
    } else {
        bs = nvf_sdp_x_stage(&l, r, NVDLA_SDP_D_DP_BS_CFG_0, &v.bs, fp16);
        nvf_sdp_x_stage(&l, r, NVDLA_SDP_D_DP_BN_CFG_0, &v.bn, fp16);
    }
    v.f16 = (sdp_fp16_cfg_t){
        .x1 = sdp32_fp16_stage(&v.bs), .x2 = sdp32_fp16_stage(&v.bn), .nan_to_zero = nan0, .out_int16 = int16_out};
    dp_put(&l, NVDLA_SDP_D_DP_EW_CFG_0, 0x53);
    v.off = rng_range(r, 0, 16) - 8, v.scale = rng_range(r, 1, 3), v.shift = rng_range(r, 0, 2);
    if (ident) v.off = 0, v.scale = 1, v.shift = 0;
    dp_put(&l, NVDLA_SDP_D_CVT_OFFSET_0, v.off), dp_put(&l, NVDLA_SDP_D_CVT_SCALE_0, v.scale);
    dp_put(&l, NVDLA_SDP_D_CVT_SHIFT_0, v.shift);
    prog_job(p, "conv_random_wino%s%s.s%llu.j%d.%s.%ux%ux%u.pad%u_%u_%u_%u.k%u.out%ux%u.pra%u.t%u.%s%s%s%s%s%s%s%s",
             fp16 ? "_fp16" : "", corrupt ? "_corrupt" : "", (unsigned long long)seed, k, nvf_prec[v.prec].name,
             v.geo.W, v.geo.H, v.C, v.geo.pl, v.geo.pr, v.geo.pt, v.geo.pb, v.geo.K, v.geo.Wo, v.geo.Ho, v.pra,
             v.geo.trunc, bs, small ? ".small" : "", full ? ".wfull" : "", v.geo.pad ? ".padv" : "", mixname,
             v.geo.nan_flush ? ".cdmanan0" : "", nan0 ? ".nan0" : "", int16_out ? ".2int16" : "");
    nvf_conv_launch(p, r, &l, k, g, -1);
    nvf_expect_cube(p, "SDP output", dst, &v.geo.out, wino_elem, &v, false);
    free(v.data);
    free(v.u);
}

/* 1-2 Winograd layers in alternating groups; CDMA's CBUF flush done before the first. */
int nvf_conv_random_wino(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_wino");
    const int layers = (int)rng_range(&r, 1, 2);
    for (int k = 0; k < layers; k++) wino_job(p, &r, seed, k, k & 1, false, false);
    return 0;
}

/* The same at FP16, its own seed stream (conv_random_wino's seeds keep their jobs). */
int nvf_conv_random_wino_fp16(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_wino_fp16");
    const int layers = (int)rng_range(&r, 1, 2);
    for (int k = 0; k < layers; k++) wino_job(p, &r, seed, k, k & 1, true, false);
    return 0;
}

/* NEGATIVE: one FP16 Winograd layer whose memory holds one transformed weight wrong (wino_job): fails naming an
 * output element of kernel 0. */
int nvf_conv_wino_fp16_corrupt(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_conv_random_wino_fp16");
    wino_job(p, &r, seed, 0, 0, true, true);
    return 0;
}
#endif
