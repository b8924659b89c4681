#include "conv_gen.h"
#include "conv_image.h"
#include "dp_gen_util.h"
#include "nvdla_regs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOB_TIMEOUT 2000000u
enum { ATOM = 8, CBUF_BANKS = 32, BANK_ENTRIES = 512, BANK_BYTES = 4096 };
enum { SDPR = 0x8000, SDP = 0x9000, PDP = 0xB000 };

/* One convolution layer as generated. */
typedef struct conv_geom {
    uint32_t w, h, c, k, r, s, sx, sy, dx, dy, pl, pr, pt, pb, ow, oh;
    uint32_t entries, wbytes, dbanks, wbanks;
    uint32_t pad_value; /* PAD_VALUE register (low byte used, junk above) */
    unsigned trunc;
    bool cvt; /* CDMA's input converter on the feature data (CVT_EN), with these fields */
    uint32_t cvt_offset, cvt_scale, cvt_trunc;
} conv_geom_t;

typedef struct limits {
    uint32_t c, k, kern, ow, oh;
} limits_t;
static const limits_t small = {.c = 40, .k = 24, .kern = 5, .ow = 6, .oh = 5},
                      wide = {.c = 72, .k = 40, .kern = 7, .ow = 12, .oh = 8};

static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
static uint32_t kdim(rng_t *r, uint32_t lim)
{
    unsigned p = rng_below(r, 100);
    return p < 55 ? rng_range(r, 1, 3) : p < 90 ? rng_range(r, 4, lim < 5 ? lim : 5) : rng_range(r, 1, lim);
}

/* One dimension: kernel k, stride st, dilation d; picks pads and the input size for `out` outputs
 * (sometimes with up to stride-1 unused input columns at the end, as a floor division leaves them). */
static void dim(rng_t *r, uint32_t k, uint32_t st, uint32_t d, uint32_t out, bool pads, uint32_t *in, uint32_t *p0,
                uint32_t *p1)
{
    uint32_t span = (k - 1) * d + 1, need = (out - 1) * st + span;
    uint32_t maxpad = span - 1 < 7 ? span - 1 : 7;
    *p0 = pads ? rng_range(r, 0, maxpad) : 0;
    *p1 = pads ? rng_range(r, 0, maxpad) : 0;
    if (need <= *p0 + *p1) *p0 = *p1 = 0; /* the input must keep at least one element */
    *in = need - *p0 - *p1;
    if (*p1 == 0 && st > 1 && rng_chance(r, 20)) *in += rng_below(r, st);
}

/* CBUF entries per input slice and the weight bytes (the format pads them to 128 bytes). */
static void geom_sizes(conv_geom_t *g)
{
    g->entries = g->w * ceil_div(g->c, ATOM);
    g->wbytes = ceil_div(g->r * g->s * g->c * g->k, 128) * 128;
}

/* The fewest data banks that hold the whole input (its CBUF entries per line times its lines). */
static uint32_t data_banks_min(const conv_geom_t *g) { return ceil_div(g->entries * g->h, BANK_ENTRIES); }

/* Weight bytes rounded up to a whole CBUF entry only: what nv_small's CSC releases after the layer. A layer
 * followed by another with the same bank split must use this, not the 128-byte padding: nv_small leaves the
 * padding in the CBUF weight ring and the next layer reads its weights that far early (deviation
 * cbuf-weight-pad-skew, tb/nvdla/duts/nv_small.deviations). */
static void entry_padded_weights(conv_geom_t *g) { g->wbytes = ceil_div(g->r * g->s * g->c * g->k, ATOM) * ATOM; }

/* nv_small's CDMA stops taking weight read data while the weight entries it has written minus those CSC has
 * released reach WEIGHT_BANK x 512, and it misses releases that arrive while its clock is gated (deviation
 * cdma-wt-credit-leak). Worst case: nothing is released, so the weights written since reset, this layer's
 * included, must fit the layer's weight banks. Raises the weight banks to fit where the CBUF has room;
 * false when it cannot. */
static bool fit_weight_credit(conv_geom_t *g, uint32_t written)
{
    uint32_t need = ceil_div(written + g->wbytes / ATOM, BANK_ENTRIES);
    if (need <= g->wbanks) return true;
    if (g->dbanks + need > CBUF_BANKS) return false;
    g->wbanks = need;
    return true;
}

/* A layer admitted into a program: entry-padded weights unless it may keep the format's padding (a program's
 * last layer), weight banks within the credit left; counts its weight entries. False: it does not fit. */
static bool admit_layer(conv_geom_t *g, uint32_t *written, bool keep_padding)
{
    if (!keep_padding) entry_padded_weights(g);
    if (!fit_weight_credit(g, *written)) return false;
    *written += g->wbytes / ATOM;
    return true;
}

static void pick_geom(rng_t *r, conv_geom_t *g, const limits_t *lim)
{
    memset(g, 0, sizeof *g);
    g->c = rng_chance(r, 30) ? rng_range(r, 1, 8) : rng_range(r, 1, lim->c);
    g->k = rng_chance(r, 30) ? rng_range(r, 1, 8) : rng_range(r, 1, lim->k);
    g->s = kdim(r, lim->kern), g->r = kdim(r, lim->kern);
    if (rng_chance(r, 15)) g->r = g->s = 1; /* 1x1 layers */
    unsigned sp = rng_below(r, 100);
    g->sx = sp < 50 ? 1 : sp < 80 ? 2 : rng_range(r, 3, 5);
    sp = rng_below(r, 100);
    g->sy = sp < 50 ? 1 : sp < 80 ? 2 : rng_range(r, 3, 5);
    g->dx = rng_chance(r, 60) ? 1 : rng_range(r, 2, 4);
    g->dy = rng_chance(r, 60) ? 1 : rng_range(r, 2, 4);
    bool pads = rng_chance(r, 60);
    g->ow = rng_range(r, 1, lim->ow), g->oh = rng_range(r, 1, lim->oh);
    dim(r, g->s, g->sx, g->dx, g->ow, pads, &g->w, &g->pl, &g->pr);
    dim(r, g->r, g->sy, g->dy, g->oh, pads, &g->h, &g->pt, &g->pb);
    /* CBUF: the whole input and all weights resident; shrink kernels, then channels, until they fit. */
    for (;;) {
        geom_sizes(g);
        uint32_t dmin = data_banks_min(g), wmin = ceil_div(g->wbytes, BANK_BYTES);
        if (dmin + wmin <= CBUF_BANKS) {
            unsigned how = rng_below(r, 100), spare = CBUF_BANKS - dmin - wmin;
            if (how < 40) g->dbanks = dmin, g->wbanks = wmin; /* tight, both */
            else if (how < 70) { /* all 32 banks */ uint32_t extra = rng_below(r, spare + 1);
                g->dbanks = dmin + extra, g->wbanks = wmin + spare - extra;
            } else
                g->dbanks = dmin + rng_below(r, spare + 1),
                g->wbanks = wmin + rng_below(r, CBUF_BANKS - g->dbanks - wmin + 1);
            break;
        }
        if (g->k > 1) g->k = ceil_div(g->k, 2);
        else g->c = ceil_div(g->c, 2);
    }
    g->pad_value = rng_chance(r, 50) ? 0 : (uint32_t)rng_next(r) & 0xFF;
    g->pad_value |= (uint32_t)rng_next(r) & 0xFF00; /* [15:8] unused for INT8 */
    /* CACC truncation near the accumulators' magnitude, so that the int8 output is informative. */
    uint32_t n = g->r * g->s * g->c, bits = 13;
    while ((1u << ((bits - 12) * 2)) < n && bits < 30) bits++;
    int t = (int)bits - 6 + (int)rng_range(r, 0, 6) - 3;
    g->trunc = rng_chance(r, 10) ? rng_range(r, 0, 31) : (unsigned)(t < 0 ? 0 : t > 31 ? 31 : t);
}

/* CMAC_A/B and CACC of a layer, feature or image input alike (CACC's DATAOUT_ADDR and strides are unused on
 * nv_small: the output goes to SDP). */
static void cmac_cacc_regs(rng_t *r, dp_wlist_t *l, const conv_geom_t *g)
{
    dp_put(l, NVDLA_CMAC_A_D_MISC_CFG_0, 0), dp_put(l, NVDLA_CMAC_B_D_MISC_CFG_0, 0);
    dp_put(l, NVDLA_CACC_D_MISC_CFG_0, 0);
    dp_put(l, NVDLA_CACC_D_DATAOUT_SIZE_0_0, (g->ow - 1) | ((g->oh - 1) << 16));
    dp_put(l, NVDLA_CACC_D_DATAOUT_SIZE_1_0, g->k - 1);
    dp_put(l, NVDLA_CACC_D_DATAOUT_ADDR_0, dp_junk(r));
    dp_put(l, NVDLA_CACC_D_BATCH_NUMBER_0, 0);
    dp_put(l, NVDLA_CACC_D_LINE_STRIDE_0, g->ow * ATOM), dp_put(l, NVDLA_CACC_D_SURF_STRIDE_0, g->ow * g->oh * ATOM);
    dp_put(l, NVDLA_CACC_D_DATAOUT_MAP_0, dp_junk(r) & 0x10001u);
    dp_put(l, NVDLA_CACC_D_CLIP_CFG_0, g->trunc);
}

/* Feature cube (random at src, or, with in_ls != 0, already in memory there with those strides), weights
 * (random bytes: the direct-convolution layout is the model's business) and all CDMA/CSC/CMAC/CACC
 * registers of the layer. */
static void conv_regs(program_t *p, rng_t *r, dp_wlist_t *l, const conv_geom_t *g, uint32_t src, uint32_t wts,
                      uint32_t in_ls, uint32_t in_ss)
{
    uint32_t ls = in_ls, ss = in_ss, ns = ceil_div(g->c, ATOM);
    if (!in_ls) {
        dp_strides(r, g->w, g->h, &ls, &ss);
        dp_fill_random(p, r, src, dp_footprint(g->w, g->h, ns, ls, ss));
    }
    uint32_t used = g->r * g->s * g->c * g->k;
    dp_fill_random(p, r, wts, used);
    if (g->wbytes > used) prog_mem_fill(p, wts + used, g->wbytes - used, 0); /* the format's zero tail */
    uint32_t j = dp_junk(r);
    /* CDMA */
    dp_put(l, NVDLA_CDMA_D_MISC_CFG_0, 0);
    dp_put(l, NVDLA_CDMA_D_DATAIN_FORMAT_0, (j & 0x3F00u) | (j & 0x110000u)); /* pixel fields: unused */
    dp_put(l, NVDLA_CDMA_D_DATAIN_SIZE_0_0, (g->w - 1) | ((g->h - 1) << 16));
    dp_put(l, NVDLA_CDMA_D_DATAIN_SIZE_1_0, g->c - 1);
    dp_put(l, NVDLA_CDMA_D_DATAIN_SIZE_EXT_0_0, (g->w - 1) | ((g->h - 1) << 16));
    dp_put(l, NVDLA_CDMA_D_PIXEL_OFFSET_0, dp_junk(r));
    dp_put(l, NVDLA_CDMA_D_DAIN_RAM_TYPE_0, 1);
    dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_HIGH_0_0, 0), dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_LOW_0_0, src);
    dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_HIGH_1_0, dp_junk(r)), dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_LOW_1_0, dp_junk(r));
    dp_put(l, NVDLA_CDMA_D_LINE_STRIDE_0, ls), dp_put(l, NVDLA_CDMA_D_SURF_STRIDE_0, ss);
    dp_put(l, NVDLA_CDMA_D_LINE_UV_STRIDE_0, dp_junk(r));
    /* nvdla.md 6: surface-packed means SURF_STRIDE = H x W x 8, lines packed too (with W = H = 1 and SURF_PACKED
     * nv_small fetches the C/8 atoms as one contiguous line; a gapped cube so flagged is misread). */
    bool surf_packed = ls == g->w * ATOM && ss == g->h * ls;
    dp_put(l, NVDLA_CDMA_D_DAIN_MAP_0, (ls == g->w * ATOM) | ((uint32_t)surf_packed << 16));
    dp_put(l, NVDLA_CDMA_D_BATCH_NUMBER_0, 0);
    dp_put(l, NVDLA_CDMA_D_ENTRY_PER_SLICE_0, g->entries - 1);
    dp_put(l, NVDLA_CDMA_D_FETCH_GRAIN_0, 0);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_FORMAT_0, 0);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_SIZE_0_0, g->r * g->s * g->c - 1);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_SIZE_1_0, g->k - 1);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_RAM_TYPE_0, 1);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_ADDR_HIGH_0, 0), dp_put(l, NVDLA_CDMA_D_WEIGHT_ADDR_LOW_0, wts);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_BYTES_0, g->wbytes);
    dp_put(l, NVDLA_CDMA_D_MEAN_FORMAT_0, 0);
    dp_put(l, NVDLA_CDMA_D_MEAN_GLOBAL_0_0, dp_junk(r)), dp_put(l, NVDLA_CDMA_D_MEAN_GLOBAL_1_0, dp_junk(r));
    /* CVT off: truncate, offset and scale are junk (drawn either way, so that a layer's other draws do not move) */
    dp_put(l, NVDLA_CDMA_D_CVT_CFG_0, g->cvt ? 1u | (g->cvt_trunc << 4) : (j >> 4) & 0x3F0u);
    const uint32_t cvt_off = dp_junk(r) & 0xFFFF, cvt_scale = dp_junk(r) & 0xFFFF;
    dp_put(l, NVDLA_CDMA_D_CVT_OFFSET_0, g->cvt ? g->cvt_offset : cvt_off);
    dp_put(l, NVDLA_CDMA_D_CVT_SCALE_0, g->cvt ? g->cvt_scale : cvt_scale);
    dp_put(l, NVDLA_CDMA_D_CONV_STRIDE_0, (g->sx - 1) | ((g->sy - 1) << 16));
    dp_put(l, NVDLA_CDMA_D_ZERO_PADDING_0, g->pl | (g->pr << 8) | (g->pt << 16) | (g->pb << 24));
    dp_put(l, NVDLA_CDMA_D_ZERO_PADDING_VALUE_0, g->pad_value);
    dp_put(l, NVDLA_CDMA_D_BANK_0, (g->dbanks - 1) | ((g->wbanks - 1) << 16));
    /* CSC */
    dp_put(l, NVDLA_CSC_D_MISC_CFG_0, 0);
    dp_put(l, NVDLA_CSC_D_DATAIN_FORMAT_0, 0);
    dp_put(l, NVDLA_CSC_D_DATAIN_SIZE_EXT_0_0, (g->w - 1) | ((g->h - 1) << 16));
    dp_put(l, NVDLA_CSC_D_DATAIN_SIZE_EXT_1_0, g->c - 1);
    dp_put(l, NVDLA_CSC_D_BATCH_NUMBER_0, 0);
    dp_put(l, NVDLA_CSC_D_POST_Y_EXTENSION_0, 0);
    dp_put(l, NVDLA_CSC_D_ENTRY_PER_SLICE_0, g->entries - 1);
    dp_put(l, NVDLA_CSC_D_WEIGHT_FORMAT_0, 0);
    dp_put(l, NVDLA_CSC_D_WEIGHT_SIZE_EXT_0_0, (g->s - 1) | ((g->r - 1) << 16));
    dp_put(l, NVDLA_CSC_D_WEIGHT_SIZE_EXT_1_0, (g->c - 1) | ((g->k - 1) << 16));
    dp_put(l, NVDLA_CSC_D_WEIGHT_BYTES_0, g->wbytes);
    dp_put(l, NVDLA_CSC_D_WMB_BYTES_0, dp_junk(r) & 0x0FFFFF80u);
    dp_put(l, NVDLA_CSC_D_DATAOUT_SIZE_0_0, (g->ow - 1) | ((g->oh - 1) << 16));
    dp_put(l, NVDLA_CSC_D_DATAOUT_SIZE_1_0, g->k - 1);
    dp_put(l, NVDLA_CSC_D_ATOMICS_0, g->ow * g->oh - 1);
    dp_put(l, NVDLA_CSC_D_RELEASE_0, g->h - 1); /* release every slice */
    dp_put(l, NVDLA_CSC_D_CONV_STRIDE_EXT_0, (g->sx - 1) | ((g->sy - 1) << 16));
    dp_put(l, NVDLA_CSC_D_DILATION_EXT_0, (g->dx - 1) | ((g->dy - 1) << 16));
    dp_put(l, NVDLA_CSC_D_ZERO_PADDING_0, g->pl | (g->pt << 16));
    dp_put(l, NVDLA_CSC_D_ZERO_PADDING_VALUE_0, g->pad_value);
    dp_put(l, NVDLA_CSC_D_BANK_0, (g->dbanks - 1) | ((g->wbanks - 1) << 16));
    dp_put(l, NVDLA_CSC_D_PRA_CFG_0, 0);
    cmac_cacc_regs(r, l, g);
}

/* SDP on the fly from CACC: BS (register or DMA bias, MUL), BN (ReLU), converter; output to memory, or to
 * PDP (pdp = true). Returns whether SDP_RDMA is used (a DMA bias). */
static bool sdp_regs(program_t *p, rng_t *r, dp_wlist_t *l, const conv_geom_t *g, uint32_t dst, uint32_t bias, bool pdp)
{
    uint32_t ns = ceil_div(g->k, ATOM);
    bool one = g->ow == 1 && g->oh == 1;
    dp_put(l, SDP + 0x3c, g->ow - 1), dp_put(l, SDP + 0x40, g->oh - 1), dp_put(l, SDP + 0x44, g->k - 1);
    dp_put(l, NVDLA_SDP_D_FEATURE_MODE_CFG_0, 1u | (pdp ? 2u : 0u)); /* flying: input from CACC */
    dp_put(l, NVDLA_SDP_D_DATA_FORMAT_0, 0);
    if (!pdp) {
        uint32_t ls, ss;
        dp_strides(r, g->ow, g->oh, &ls, &ss);
        dp_fill_random(p, r, dst, one ? ns * ATOM : dp_footprint(g->ow, g->oh, ns, ls, ss)); /* gaps survive */
        dp_put(l, NVDLA_SDP_D_DST_BASE_ADDR_LOW_0, dst), dp_put(l, NVDLA_SDP_D_DST_BASE_ADDR_HIGH_0, 0);
        dp_put(l, NVDLA_SDP_D_DST_LINE_STRIDE_0, ls), dp_put(l, NVDLA_SDP_D_DST_SURFACE_STRIDE_0, ss);
    }
    dp_put(l, NVDLA_SDP_D_DST_DMA_CFG_0, 1);
    unsigned bsmode = rng_below(r, 100); /* <35 bypass, <70 register bias, else DMA bias */
    bool dma = bsmode >= 70, relu = rng_chance(r, 50), mul = rng_chance(r, 30);
    if (bsmode < 35) dp_put(l, NVDLA_SDP_D_DP_BS_CFG_0, 1);
    else dp_put(l, NVDLA_SDP_D_DP_BS_CFG_0, (2u << 2) | (!mul << 4) | (!relu << 6)); /* ALU sum, MUL?, ReLU? */
    dp_put(l, NVDLA_SDP_D_DP_BS_ALU_CFG_0, dma | (rng_range(r, 0, 4) << 8));
    dp_put(l, NVDLA_SDP_D_DP_BS_ALU_SRC_VALUE_0, (dp_junk(r) & 0x3FF) - 0x200);
    dp_put(l, NVDLA_SDP_D_DP_BS_MUL_CFG_0, rng_range(r, 0, 3) << 8);
    dp_put(l, NVDLA_SDP_D_DP_BS_MUL_SRC_VALUE_0, rng_range(r, 1, 5));
    bool bn_relu = rng_chance(r, 40);
    dp_put(l, NVDLA_SDP_D_DP_BN_CFG_0, bn_relu ? 0x12u : 1u); /* ReLU alone, or bypass */
    dp_put(l, NVDLA_SDP_D_CVT_OFFSET_0, rng_range(r, 0, 16) - 8);
    dp_put(l, NVDLA_SDP_D_CVT_SCALE_0, rng_range(r, 1, 4));
    dp_put(l, NVDLA_SDP_D_CVT_SHIFT_0, rng_range(r, 0, 5));
    dp_put(l, NVDLA_SDP_D_DP_EW_CFG_0, dp_junk(r)), dp_put(l, NVDLA_SDP_D_PERF_ENABLE_0, dp_junk(r));
    if (!dma) return false;
    /* Per-channel 2-byte bias from memory through SDP_RDMA's BRDMA (SDP_RDMA itself in flying mode). */
    dp_fill_random(p, r, bias, ns * ATOM * 2);
    dp_put(l, SDPR + 0x0c, g->ow - 1), dp_put(l, SDPR + 0x10, g->oh - 1), dp_put(l, SDPR + 0x14, g->k - 1);
    dp_put(l, NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0, 1), dp_put(l, NVDLA_SDP_RDMA_D_SRC_DMA_CFG_0, 1);
    dp_put(l, NVDLA_SDP_RDMA_D_BRDMA_CFG_0, (1u << 1) | (1u << 3) | (1u << 5)); /* ALU, 2 bytes, per channel, MC */
    dp_put(l, NVDLA_SDP_RDMA_D_BS_BASE_ADDR_LOW_0, bias);
    dp_put(l, NVDLA_SDP_RDMA_D_BS_LINE_STRIDE_0, 0), dp_put(l, NVDLA_SDP_RDMA_D_BS_SURFACE_STRIDE_0, 0);
    dp_put(l, NVDLA_SDP_RDMA_D_NRDMA_CFG_0, 1), dp_put(l, NVDLA_SDP_RDMA_D_ERDMA_CFG_0, 1);
    return true;
}

/* PDP on the fly after SDP: 2x2 max/avg pooling, no padding, into memory. */
static void pdp_regs(program_t *p, rng_t *r, dp_wlist_t *l, const conv_geom_t *g, uint32_t dst)
{
    static const uint32_t recip[3] = {0x10000, 0x8000, 0x5555};
    /* PDP takes SDP's whole ow x oh stream: windows tile it exactly (stride 2 on even sizes, else 1) */
    uint32_t kw = g->ow >= 2 ? 2 : 1, kh = g->oh >= 2 ? 2 : 1;
    uint32_t sw = g->ow % 2 == 0 ? kw : 1, sh = g->oh % 2 == 0 ? kh : 1;
    uint32_t wo = (g->ow - kw) / sw + 1, ho = (g->oh - kh) / sh + 1, ns = ceil_div(g->k, ATOM);
    uint32_t method = rng_below(r, 2), ls, ss;
    dp_strides(r, wo, ho, &ls, &ss);
    dp_fill_random(p, r, dst, dp_footprint(wo, ho, ns, ls, ss));
    uint32_t wi = g->ow, hi = g->oh;
    dp_put(l, PDP + 0x0c, wi - 1), dp_put(l, PDP + 0x10, hi - 1), dp_put(l, PDP + 0x14, g->k - 1);
    dp_put(l, PDP + 0x18, wo - 1), dp_put(l, PDP + 0x1c, ho - 1), dp_put(l, PDP + 0x20, g->k - 1);
    dp_put(l, PDP + 0x24, method == 0 ? 0u : 1u); /* avg / max, on the fly, no split */
    dp_put(l, PDP + 0x34, (kw - 1) | ((kh - 1) << 8) | ((sw - 1) << 16) | ((sh - 1) << 20));
    dp_put(l, PDP + 0x38, recip[kw - 1]), dp_put(l, PDP + 0x3c, recip[kh - 1]);
    dp_put(l, PDP + 0x40, 0);
    dp_put(l, PDP + 0x70, dst), dp_put(l, PDP + 0x74, 0), dp_put(l, PDP + 0x78, ls), dp_put(l, PDP + 0x7c, ss);
    dp_put(l, PDP + 0x80, 1), dp_put(l, PDP + 0x84, 0);
}

/* The next ping-pong group of each unit: a unit's CONSUMER flips only when it completes a layer, so units that
 * sit out a layer (SDP_RDMA without a DMA operand, PDP) fall out of step with the convolution units. */
typedef struct conv_groups {
    int conv, sdp_rdma, pdp;
} conv_groups_t;

static void pointers(program_t *p, int g, int g_rdma, int g_pdp, bool sdp_rdma, bool pdp)
{
    static const uint32_t ptr[] = {NVDLA_CDMA_S_POINTER_0,   NVDLA_CSC_S_POINTER_0,  NVDLA_CMAC_A_S_POINTER_0,
                                   NVDLA_CMAC_B_S_POINTER_0, NVDLA_CACC_S_POINTER_0, NVDLA_SDP_S_POINTER_0};
    for (size_t i = 0; i < sizeof ptr / sizeof *ptr; i++) prog_write(p, ptr[i], (uint32_t)g);
    if (sdp_rdma) prog_write(p, NVDLA_SDP_RDMA_S_POINTER_0, (uint32_t)g_rdma);
    if (pdp) prog_write(p, NVDLA_PDP_S_POINTER_0, (uint32_t)g_pdp);
}

/* Enables in the order software uses (consumers first: nvdla.md 4.2), CDMA last. */
static void enable(program_t *p, bool sdp_rdma, bool pdp)
{
    if (pdp) prog_write(p, NVDLA_PDP_D_OP_ENABLE_0, 1);
    if (sdp_rdma) prog_write(p, NVDLA_SDP_RDMA_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_SDP_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_CACC_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_CMAC_A_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_CMAC_B_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_CSC_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_CDMA_D_OP_ENABLE_0, 1);
}

/* The interrupts of a convolution layer in group g: SDP (or PDP), CDMA data and weight, CACC. */
static uint32_t layer_bits(int g, bool pdp) { return ((pdp ? 0x11u : 0x1u) | 0x10000u | 0x40000u | 0x100000u) << g; }

/* Program a layer into the next groups of its units (gs advanced) with its own memory region k; enables it.
 * Returns the interrupt bits it raises. */
static uint32_t conv_layer(program_t *p, rng_t *r, int k, conv_groups_t *gs, const conv_geom_t *geo, bool pdp)
{
    uint32_t region = 0x80000000u + (uint32_t)k * 0x01000000u;
    dp_wlist_t l = {.n = 0};
    conv_regs(p, r, &l, geo, region, region + 0x00400000u, 0, 0);
    bool sr = sdp_regs(p, r, &l, geo, region + 0x00800000u, region + 0x00C00000u, pdp);
    if (pdp) pdp_regs(p, r, &l, geo, region + 0x00900000u);
    pointers(p, gs->conv, gs->sdp_rdma, gs->pdp, sr, pdp);
    dp_emit_shuffled(p, r, &l);
    enable(p, sr, pdp);
    uint32_t bits = layer_bits(gs->conv, false) | (pdp ? 0x10u << gs->pdp : 0);
    gs->conv ^= 1;
    if (sr) gs->sdp_rdma ^= 1;
    if (pdp) gs->pdp ^= 1;
    return bits;
}

static const limits_t *pick_limits(rng_t *r) { return rng_chance(r, 25) ? &wide : &small; }

/* CDMA's input converter with moderate fields, so that the converted bytes are not all saturated:
 * sat8(round((x - offset) x scale >> truncate)). */
static void pick_cvt(rng_t *r, conv_geom_t *g)
{
    g->cvt = true;
    g->cvt_offset = (rng_range(r, 0, 40) - 20) & 0xFFFFu;
    g->cvt_scale = (rng_chance(r, 20) ? -(int32_t)rng_range(r, 1, 3) : (int32_t)rng_range(r, 1, 3)) & 0xFFFFu;
    g->cvt_trunc = rng_range(r, 0, 2);
}

/* The shape class of NVIDIA's dc_8192x1x1_2x3x1x41 trace (issue 38): a very wide, single-channel (or few-channel)
 * input one or two lines high, kernels taller than the input (their rows beyond it are CSC's padding), large
 * dilation, padding up to 15 a side, up to 48 kernels; the CDMA converter on or off. */
static void pick_wide_geom(rng_t *r, conv_geom_t *g)
{
    memset(g, 0, sizeof *g);
    g->c = rng_chance(r, 70) ? 1 : rng_range(r, 2, 8);
    g->k = rng_chance(r, 30) ? 41 : rng_range(r, 1, 48);
    g->w = rng_chance(r, 30) ? 8192 : rng_chance(r, 50) ? rng_range(r, 2048, 8192) : rng_range(r, 256, 2047);
    g->h = rng_chance(r, 75) ? 1 : 2;
    g->s = rng_range(r, 1, 3);
    g->r = rng_range(r, g->h + 1, 4); /* taller than the input */
    g->sx = rng_range(r, 1, 2), g->sy = rng_range(r, 1, 2);
    g->dx = rng_chance(r, 50) ? 1 : rng_range(r, 2, 24);
    g->dy = rng_chance(r, 50) ? 1 : rng_range(r, 2, 15);
    /* vertically: every kernel row within the padded input, at most 15 padding rows a side */
    uint32_t span_h = (g->r - 1) * g->dy + 1;
    while (span_h > g->h + 30) g->dy--, span_h = (g->r - 1) * g->dy + 1;
    g->oh = 1;
    if (span_h + g->sy <= g->h + 30 && rng_chance(r, 30)) g->oh = 2;
    uint32_t pads = (g->oh - 1) * g->sy + span_h - g->h;
    g->pt = pads > 15 ? rng_range(r, pads - 15, 15) : rng_range(r, 0, pads);
    g->pb = pads - g->pt;
    if (g->pb < 15 && rng_chance(r, 30)) g->pb += rng_range(r, 0, 15 - g->pb); /* rows left over */
    /* horizontally: pads up to 15, all possible outputs or fewer (as the trace: 4099 of 4109) */
    uint32_t span_w = (g->s - 1) * g->dx + 1;
    g->pl = rng_range(r, 0, span_w - 1 < 15 ? span_w - 1 : 15),
    g->pr = rng_range(r, 0, span_w - 1 < 15 ? span_w - 1 : 15);
    /* at most 8192 outputs: D_DATAOUT_SIZE's width field is 13 bits (an 8192-wide input with pl + pr = span_w
     * has 8193 possible outputs, which the register would wrap to 1) */
    uint32_t most = (g->w + g->pl + g->pr - span_w) / g->sx + 1;
    if (most > 8192) most = 8192;
    g->ow = rng_chance(r, 60) ? most : rng_range(r, most > 16 ? most - 16 : 1, most);
    geom_sizes(g);
    g->wbanks = ceil_div(g->wbytes, BANK_BYTES);
    while (data_banks_min(g) + g->wbanks > CBUF_BANKS)
        g->w /= 2, g->ow = (g->w + g->pl + g->pr - span_w) / g->sx + 1, geom_sizes(g);
    g->dbanks = data_banks_min(g);
    g->dbanks += rng_below(r, CBUF_BANKS - g->dbanks - g->wbanks + 1);
    g->pad_value = ((uint32_t)rng_next(r) & 0xFF) | ((uint32_t)rng_next(r) & 0xFF00);
    uint32_t n = g->r * g->s * g->c, bits = 13;
    while ((1u << ((bits - 12) * 2)) < n && bits < 30) bits++;
    g->trunc = rng_range(r, 0, bits - 9);
    if (rng_chance(r, 50)) pick_cvt(r, g);
}

/* Admits a random layer (g as picked, re-picked up to 8 times if it does not fit) into a program; false when no
 * layer fits (the program ends there). */
static bool place_layer(rng_t *r, conv_geom_t *g, uint32_t *written, bool keep_padding)
{
    for (int tries = 0; tries < 8; tries++) {
        if (tries) pick_geom(r, g, pick_limits(r));
        if (admit_layer(g, written, keep_padding)) return true;
    }
    return false;
}

/* A program's start: its random stream, and a first job waiting for the CBUF flush that follows reset. */
static void program_start(program_t *p, rng_t *r, uint64_t seed, const char *name)
{
    rng_seed_stream(r, seed, name);
    prog_job(p, "%s.s%llu.flush", name, (unsigned long long)seed);
    prog_poll(p, NVDLA_CDMA_S_CBUF_FLUSH_STATUS_0, 1, 1, 20000);
}

/* The end of a job of the generators: its interrupts, the golden check, SDP's result registers and CACC's
 * D_OUT_SATURATION in both groups (each after a read of a programmed register of the group, so that a stale
 * read path shows). The next layer's pointers() sets every S_POINTER again. */
static void finish_job(program_t *p, uint32_t bits)
{
    prog_wait_irq(p, bits, JOB_TIMEOUT);
    prog_check_golden(p);
    dp_read_results(p, DP_SDP);
    for (uint32_t g = 0; g < 2; g++) {
        prog_write(p, NVDLA_CACC_S_POINTER_0, g);
        prog_read(p, NVDLA_CACC_D_DATAOUT_SIZE_1_0, 0, 0);
        prog_read(p, NVDLA_CACC_D_OUT_SATURATION_0, 0, 0);
    }
}

/* 1..max_rounds rounds; a round is one layer, or two back to back (the idle group programmed and enabled while
 * the other runs). pdp_pct: share of layers whose SDP output streams into PDP. */
static int conv_run(program_t *p, uint64_t seed, const char *name, int max_rounds, unsigned b2b_pct, unsigned pdp_pct,
                    unsigned wide_every)
{
    rng_t r;
    program_start(p, &r, seed, name);
    int rounds = (int)rng_range(&r, 1, (uint32_t)max_rounds);
    conv_groups_t gs = {0, 0, 0};
    uint32_t written = 0; /* weight entries CDMA has written since reset */
    for (int k = 0; k < rounds; k++) {
        conv_geom_t geo, geo2;
        pick_geom(&r, &geo, pick_limits(&r));
        /* From a side stream, so that the layers drawn before these were added keep their seeds: the wide
         * shape class (NVIDIA's dc_8192x1x1_2x3x1x41 trace) on every wide_every-th seed, else the CDMA converter
         * on a share of the layers. Every tenth seed, not a random share: the low seeds that lists, the bench and
         * the PGO training pin stay short layers. */
        rng_t side;
        char stream[32];
        snprintf(stream, sizeof stream, "conv.side.%d", k);
        rng_seed_stream(&side, seed, stream);
        if (wide_every && k == 0 && seed % wide_every == 0) pick_wide_geom(&side, &geo);
        else if (rng_chance(&side, 15)) pick_cvt(&side, &geo);
        bool pdp = rng_chance(&r, pdp_pct), two = rng_chance(&r, b2b_pct), last = k == rounds - 1;
        if (two) pick_geom(&r, &geo2, pick_limits(&r));
        /* Within nv_small's envelope (the two deviations above): only a program's last layer keeps the
         * format's 128-byte weight padding, and the weights written so far must fit each layer's banks. */
        if (!place_layer(&r, &geo, &written, last && !two) || (two && !place_layer(&r, &geo2, &written, last))) break;
        prog_job(p, "%s.s%llu.j%d.w%uh%uc%uk%u.%ux%u.s%ux%u.d%ux%u%s%s%s", name, (unsigned long long)seed, k, geo.w,
                 geo.h, geo.c, geo.k, geo.s, geo.r, geo.sx, geo.sy, geo.dx, geo.dy, geo.cvt ? ".cvt" : "",
                 pdp ? ".pdp" : "", two ? ".b2b" : "");
        uint32_t bits = conv_layer(p, &r, 2 * k, &gs, &geo, pdp);
        if (two) bits |= conv_layer(p, &r, 2 * k + 1, &gs, &geo2, false);
        finish_job(p, bits);
    }
    return 0;
}

/* One random layer per program (the format's 128-byte weight padding, any bank split). */
int conv_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return conv_run(p, seed, "conv_random", 1, 0, 0, 10);
}

int conv_pdp(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return conv_run(p, seed, "conv_pdp", 1, 0, 100, 0);
}

int conv_seq(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return conv_run(p, seed, "conv_seq", 3, 25, 20, 0);
}

int conv_b2b(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return conv_run(p, seed, "conv_b2b", 2, 100, 0, 0);
}

/* One layer as its own job, SDP passing CACC's truncated sums straight to memory (BS/BN/EW bypassed, identity
 * converter), so that any wrong weight shows in the output: programmed into the next groups, waited for
 * (at most `timeout` cycles), checked. */
static void conv_job_at(program_t *p, rng_t *r, int k, conv_groups_t *gs, const conv_geom_t *g, const char *what,
                        uint64_t seed, uint32_t timeout, uint32_t in_ls, uint32_t in_ss);
static void conv_job(program_t *p, rng_t *r, int k, conv_groups_t *gs, const conv_geom_t *g, const char *what,
                     uint64_t seed, uint32_t timeout)
{
    conv_job_at(p, r, k, gs, g, what, seed, timeout, 0, 0);
}

/* conv_job with the input cube, when in_ls != 0, already in memory at region k with these strides. */
static void conv_job_at(program_t *p, rng_t *r, int k, conv_groups_t *gs, const conv_geom_t *g, const char *what,
                        uint64_t seed, uint32_t timeout, uint32_t in_ls, uint32_t in_ss)
{
    prog_job(p, "%s.s%llu.%s.c%uk%u.%ux%u.w%u.banks%u+%u", what, (unsigned long long)seed, k ? "b" : "a", g->c, g->k,
             g->s, g->r, g->wbytes, g->dbanks, g->wbanks);
    uint32_t region = 0x80000000u + (uint32_t)k * 0x01000000u, dst = region + 0x00800000u;
    dp_wlist_t l = {.n = 0};
    conv_regs(p, r, &l, g, region, region + 0x00400000u, in_ls, in_ss);
    dp_put(&l, SDP + 0x3c, g->ow - 1), dp_put(&l, SDP + 0x40, g->oh - 1), dp_put(&l, SDP + 0x44, g->k - 1);
    dp_put(&l, NVDLA_SDP_D_FEATURE_MODE_CFG_0, 1), dp_put(&l, NVDLA_SDP_D_DATA_FORMAT_0, 0);
    dp_fill_random(p, r, dst, ceil_div(g->k, ATOM) * g->ow * g->oh * ATOM);
    dp_put(&l, NVDLA_SDP_D_DST_BASE_ADDR_LOW_0, dst), dp_put(&l, NVDLA_SDP_D_DST_BASE_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_SDP_D_DST_LINE_STRIDE_0, g->ow * ATOM),
        dp_put(&l, NVDLA_SDP_D_DST_SURFACE_STRIDE_0, g->ow * g->oh * ATOM);
    dp_put(&l, NVDLA_SDP_D_DST_DMA_CFG_0, 1);
    dp_put(&l, NVDLA_SDP_D_DP_BS_CFG_0, 1), dp_put(&l, NVDLA_SDP_D_DP_BN_CFG_0, 1),
        dp_put(&l, NVDLA_SDP_D_DP_EW_CFG_0, 1);
    dp_put(&l, NVDLA_SDP_D_CVT_OFFSET_0, 0), dp_put(&l, NVDLA_SDP_D_CVT_SCALE_0, 1),
        dp_put(&l, NVDLA_SDP_D_CVT_SHIFT_0, 0);
    pointers(p, gs->conv, 0, 0, false, false);
    dp_emit_shuffled(p, r, &l);
    enable(p, false, false);
    prog_wait_irq(p, layer_bits(gs->conv, false), timeout);
    prog_check_golden(p);
    gs->conv ^= 1;
}

/* The layer of NVIDIA's nv_small trace dc_8192x1x1_2x3x1x41_int8_0 (nvdla/hw verif/tests/trace_tests/nv_small;
 * issue 38), rebuilt from its registers: input 8192 x 1 x 1 (W x H x C; line stride 0x403c0, surface stride
 * 0x40b20), 41 kernels 2 wide and 3 tall (S x R), stride 2 x 2, dilation 22 x 15, padding left 15, right 12, top 15,
 * bottom 15, pad value 0xc2cd, 4099 x 1 outputs, 16 + 16 banks, CACC truncation 2, CDMA's converter on (offset
 * 0x1599, scale 0x8544, truncate 3: every input byte converts to 127). Kernel rows 0 and 2 read padding rows, row 1
 * the input line. Seed 1 is the trace's layer; other seeds keep its geometry with the converter off or moderate.
 * Data and weights are random; SDP passes CACC's sums through (the trace's SDP saturated every output to one value,
 * so only the CACC -> SDP stream check could see the layer). */
int conv_wide(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    program_start(p, &r, seed, "conv_wide");
    conv_geom_t g = {.w = 8192,
                     .h = 1,
                     .c = 1,
                     .k = 41,
                     .r = 3,
                     .s = 2,
                     .sx = 2,
                     .sy = 2,
                     .dx = 22,
                     .dy = 15,
                     .pl = 15,
                     .pr = 12,
                     .pt = 15,
                     .pb = 15,
                     .ow = 4099,
                     .oh = 1,
                     .dbanks = 16,
                     .wbanks = 16,
                     .pad_value = 0xc2cd,
                     .trunc = 2,
                     .cvt = true,
                     .cvt_offset = 0x1599,
                     .cvt_scale = 0x8544,
                     .cvt_trunc = 3};
    if (seed != 1) {
        if (rng_chance(&r, 50)) pick_cvt(&r, &g);
        else g.cvt = false;
        g.pad_value = (uint32_t)rng_next(&r) & 0xFFFF;
    }
    geom_sizes(&g);
    const uint32_t ls = 0x403c0, ss = 0x40b20;
    dp_fill_random(p, &r, 0x80000000u, dp_footprint(g.w, g.h, 1, ls, ss));
    conv_groups_t gs = {0, 0, 0};
    conv_job_at(p, &r, 0, &gs, &g, g.cvt ? "conv_wide.cvt" : "conv_wide", seed, JOB_TIMEOUT, ls, ss);
    return 0;
}

/* Fixed convolution shapes for throughput figures (make bench, make diff): the seed picks one (1-based, cyclic).
 * MACs = out_w x out_h x k x r x s x c; the job name carries it. */
static const struct perf_shape {
    uint32_t w, h, c, k, r, s, sx, pad;
} perf_shapes[] = {
    {16, 16, 64, 64, 3, 3, 1, 1}, /* 3x3, 64 -> 64 channels, 16x16: the reference layer */
    {16, 16, 64, 64, 1, 1, 1, 0}, /* 1x1, 64 -> 64 */
    {32, 32, 8, 16, 3, 3, 1, 1},  /* 3x3, few channels, large plane */
    {12, 12, 32, 32, 5, 5, 1, 2}, /* 5x5 */
    {17, 17, 64, 64, 3, 3, 2, 1}, /* 3x3 stride 2 */
};

int conv_perf(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    program_start(p, &r, seed, "conv_perf");
    const struct perf_shape *ps = &perf_shapes[(seed ? seed - 1 : 0) % (sizeof perf_shapes / sizeof *perf_shapes)];
    conv_geom_t g = {.w = ps->w,
                     .h = ps->h,
                     .c = ps->c,
                     .k = ps->k,
                     .r = ps->r,
                     .s = ps->s,
                     .sx = ps->sx,
                     .sy = ps->sx,
                     .dx = 1,
                     .dy = 1,
                     .pl = ps->pad,
                     .pr = ps->pad,
                     .pt = ps->pad,
                     .pb = ps->pad};
    g.ow = (g.w + g.pl + g.pr - g.s) / g.sx + 1;
    g.oh = (g.h + g.pt + g.pb - g.r) / g.sy + 1;
    geom_sizes(&g);
    g.dbanks = data_banks_min(&g), g.wbanks = ceil_div(g.wbytes, BANK_BYTES);
    g.trunc = 10;
    uint64_t macs = (uint64_t)g.ow * g.oh * g.k * g.r * g.s * g.c;
    conv_groups_t gs = {0, 0, 0};
    char what[64];
    snprintf(what, sizeof what, "conv_perf.macs%llu.%ux%ux%u", (unsigned long long)macs, g.ow, g.oh, g.k);
    conv_job(p, &r, 0, &gs, &g, what, seed, JOB_TIMEOUT);
    return 0;
}

/* Both layers' data and weights resident in one bank split (the larger of their needs, weight banks for both
 * layers' weights); false when that exceeds the CBUF. */
static bool share_banks(conv_geom_t *a, conv_geom_t *b)
{
    uint32_t da = data_banks_min(a), db = data_banks_min(b);
    uint32_t d = da > db ? da : db, w = ceil_div(a->wbytes + b->wbytes, BANK_BYTES);
    if (d + w > CBUF_BANKS) return false;
    a->dbanks = b->dbanks = d, a->wbanks = b->wbanks = w;
    return true;
}

/* Deviation cbuf-weight-pad-skew, shown: layer a keeps the format's 128-byte weight padding (at least one
 * whole CBUF entry of it), layer b follows with the same bank split. Both are computed by the model; on
 * nv_small layer b reads its weights from a's padding on. */
int conv_wpad_skew(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    program_start(p, &r, seed, "conv_wpad_skew");
    conv_geom_t a, b;
    for (;;) {
        pick_geom(&r, &a, &small);
        pick_geom(&r, &b, &small);
        uint32_t tail = (a.r * a.s * a.c * a.k) % 128;
        if (tail != 0 && tail <= 128 - ATOM && share_banks(&a, &b)) break;
    }
    conv_groups_t gs = {0, 0, 0};
    conv_job(p, &r, 0, &gs, &a, "conv_wpad_skew", seed, JOB_TIMEOUT);
    conv_job(p, &r, 1, &gs, &b, "conv_wpad_skew", seed, JOB_TIMEOUT);
    return 0;
}

/* Deviation cdma-wt-credit-leak, shown: layer a (one kernel group, so CSC releases its weights once, at the
 * end, with CDMA's weight clock gated) writes 576 weight entries into two weight banks; layer b has one
 * weight bank (512 entries). The model computes both; on nv_small CDMA never takes b's weight data. */
int conv_wt_credit_hang(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    program_start(p, &r, seed, "conv_wt_credit_hang");
    conv_geom_t a = {.w = 3,
                     .h = 3,
                     .c = 64,
                     .k = 8,
                     .r = 3,
                     .s = 3,
                     .sx = 1,
                     .sy = 1,
                     .dx = 1,
                     .dy = 1,
                     .ow = 1,
                     .oh = 1,
                     .dbanks = 1,
                     .wbanks = 2,
                     .trunc = 12};
    geom_sizes(&a); /* 4608 bytes: 576 entries */
    conv_geom_t b;
    do pick_geom(&r, &b, &small);
    while (b.wbytes > BANK_BYTES || data_banks_min(&b) > CBUF_BANKS - 1);
    b.wbanks = 1, b.dbanks = CBUF_BANKS - 1;
    conv_groups_t gs = {0, 0, 0};
    conv_job(p, &r, 0, &gs, &a, "conv_wt_credit_hang", seed, JOB_TIMEOUT);
    conv_job(p, &r, 1, &gs, &b, "conv_wt_credit_hang", seed, 100000); /* b alone takes < 30000 cycles */
    return 0;
}

/* SDP of a network layer, on the fly from CACC: register bias + ReLU, converter >> 2; output to PDP (dst 0) or
 * to a packed cube at dst (its bytes filled first, so that gaps must survive). */
static void net_sdp(program_t *p, rng_t *r, dp_wlist_t *l, const conv_geom_t *g, uint32_t dst)
{
    dp_put(l, SDP + 0x3c, g->ow - 1), dp_put(l, SDP + 0x40, g->oh - 1), dp_put(l, SDP + 0x44, g->k - 1);
    dp_put(l, NVDLA_SDP_D_FEATURE_MODE_CFG_0, dst ? 1u : 3u), dp_put(l, NVDLA_SDP_D_DATA_FORMAT_0, 0);
    if (dst) {
        dp_fill_random(p, r, dst, ceil_div(g->k, ATOM) * g->ow * g->oh * ATOM);
        dp_put(l, NVDLA_SDP_D_DST_BASE_ADDR_LOW_0, dst), dp_put(l, NVDLA_SDP_D_DST_LINE_STRIDE_0, g->ow * ATOM);
        dp_put(l, NVDLA_SDP_D_DST_SURFACE_STRIDE_0, g->ow * g->oh * ATOM);
    }
    dp_put(l, NVDLA_SDP_D_DST_DMA_CFG_0, 1);
    dp_put(l, NVDLA_SDP_D_DP_BS_CFG_0, (2u << 2) | (1u << 4)); /* ALU sum (bias), no MUL, ReLU */
    dp_put(l, NVDLA_SDP_D_DP_BS_ALU_CFG_0, 0), dp_put(l, NVDLA_SDP_D_DP_BS_ALU_SRC_VALUE_0, rng_range(r, 0, 64));
    dp_put(l, NVDLA_SDP_D_DP_BN_CFG_0, 1);
    dp_put(l, NVDLA_SDP_D_CVT_OFFSET_0, 0), dp_put(l, NVDLA_SDP_D_CVT_SCALE_0, 1),
        dp_put(l, NVDLA_SDP_D_CVT_SHIFT_0, 2);
}

/* A small network as one program, checked layer by layer (nvdla/hw#321): conv 3x3 (pad 1) -> SDP (bias,
 * ReLU) -> PDP 2x2 max on the fly, then conv 3x3 over PDP's output in memory -> SDP (bias, ReLU). */
int conv_net(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    program_start(p, &r, seed, "conv_net");
    conv_geom_t l1 = {.w = 12,
                      .h = 12,
                      .c = 3 + rng_below(&r, 6),
                      .k = 16,
                      .r = 3,
                      .s = 3,
                      .sx = 1,
                      .sy = 1,
                      .dx = 1,
                      .dy = 1,
                      .pl = 1,
                      .pr = 1,
                      .pt = 1,
                      .pb = 1,
                      .ow = 12,
                      .oh = 12,
                      .pad_value = 0,
                      .trunc = 8};
    geom_sizes(&l1);
    l1.dbanks = 2, l1.wbanks = 2;
    const uint32_t in1 = 0x80000000u, w1 = 0x80400000u, pool = 0x80800000u, w2 = 0x80C00000u, out2 = 0x81000000u;
    /* layer 1: conv -> SDP (register bias, ReLU) -> PDP 2x2 max */
    prog_job(p, "conv_net.s%llu.l1_conv3x3_relu_pool", (unsigned long long)seed);
    dp_wlist_t l = {.n = 0};
    conv_regs(p, &r, &l, &l1, in1, w1, 0, 0);
    net_sdp(p, &r, &l, &l1, 0);
    /* PDP 2x2 max, stride 2: 12x12 -> 6x6, packed output at `pool` */
    dp_put(&l, PDP + 0x0c, 11), dp_put(&l, PDP + 0x10, 11), dp_put(&l, PDP + 0x14, l1.k - 1);
    dp_put(&l, PDP + 0x18, 5), dp_put(&l, PDP + 0x1c, 5), dp_put(&l, PDP + 0x20, l1.k - 1);
    dp_put(&l, PDP + 0x24, 1), dp_put(&l, PDP + 0x34, 1 | (1u << 8) | (1u << 16) | (1u << 20));
    dp_put(&l, PDP + 0x38, 0x8000), dp_put(&l, PDP + 0x3c, 0x8000), dp_put(&l, PDP + 0x40, 0);
    dp_put(&l, PDP + 0x70, pool), dp_put(&l, PDP + 0x74, 0), dp_put(&l, PDP + 0x78, 6 * ATOM);
    dp_put(&l, PDP + 0x7c, 36 * ATOM), dp_put(&l, PDP + 0x80, 1), dp_put(&l, PDP + 0x84, 0);
    pointers(p, 0, 0, 0, false, true);
    dp_emit_shuffled(p, &r, &l);
    enable(p, false, true);
    prog_wait_irq(p, layer_bits(0, true), JOB_TIMEOUT);
    prog_check_golden(p);
    /* layer 2: conv 3x3 pad 1 over the pooled 6x6x16 (read from memory as written by PDP) -> SDP -> memory */
    prog_job(p, "conv_net.s%llu.l2_conv3x3_relu", (unsigned long long)seed);
    conv_geom_t l2 = {.w = 6,
                      .h = 6,
                      .c = 16,
                      .k = 8 + rng_below(&r, 9),
                      .r = 3,
                      .s = 3,
                      .sx = 1,
                      .sy = 1,
                      .dx = 1,
                      .dy = 1,
                      .pl = 1,
                      .pr = 1,
                      .pt = 1,
                      .pb = 1,
                      .ow = 6,
                      .oh = 6,
                      .pad_value = 0,
                      .trunc = 9};
    geom_sizes(&l2);
    l2.dbanks = 1, l2.wbanks = 2;
    dp_wlist_t m = {.n = 0};
    conv_regs(p, &r, &m, &l2, pool, w2, 6 * ATOM, 36 * ATOM); /* input: PDP's output, packed */
    net_sdp(p, &r, &m, &l2, out2);
    pointers(p, 1, 0, 1, false, false);
    dp_emit_shuffled(p, &r, &m);
    enable(p, false, false);
    prog_wait_irq(p, layer_bits(1, false), JOB_TIMEOUT);
    prog_check_golden(p);
    return 0;
}

/* Negative test: the convolution pipeline enabled without CDMA never produces a result: the watchdog
 * must fire while waiting for SDP's interrupt. */
int conv_hang(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "conv_hang");
    prog_job(p, "conv_hang");
    conv_geom_t geo;
    pick_geom(&r, &geo, &small);
    dp_wlist_t l = {.n = 0};
    conv_regs(p, &r, &l, &geo, 0x80000000u, 0x80400000u, 0, 0);
    bool sr = sdp_regs(p, &r, &l, &geo, 0x80800000u, 0x80C00000u, false);
    pointers(p, 0, 0, 0, sr, false);
    dp_emit_shuffled(p, &r, &l);
    if (sr) prog_write(p, NVDLA_SDP_RDMA_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_SDP_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_CACC_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_CMAC_A_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_CMAC_B_D_OP_ENABLE_0, 1);
    prog_write(p, NVDLA_CSC_D_OP_ENABLE_0, 1); /* CDMA never enabled */
    prog_wait_irq(p, 1, 50000);
    return 0;
}

/* Image input (CDMA.D_DATAIN_FORMAT = pixel): one layer over a pitch-linear pixel surface of a random 8-bit
 * format (R8, a 4-byte packed order, or semi-planar YUV 4:4:4 with its UV plane), 8-byte aligned lines, pixel
 * x offset within the first atom, left/right padding stored by CDMA with its pad value, top/bottom padding by
 * CSC with its own, CDMA's converter (offset or global mean, scale, truncate; signed or unsigned pixels) on or
 * off, strides; the kernel channel pre-extended (CSC sees width 1, kernel width x channels bytes), sometimes
 * post-extended (2 or 4 kernel rows an atom), junk in CSC's ignored dilation and PAD_LEFT; weights random (the
 * layout is the model's business). SDP on the fly as in conv_random. */
static const uint32_t image_formats[] = {0x00, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x1a, 0x1b, 0x1c, 0x1d};

static void image_regs(program_t *p, rng_t *r, dp_wlist_t *l, const conv_geom_t *g, uint32_t fmt, uint32_t bpp,
                       uint32_t xoff, uint32_t src, uint32_t wts)
{
    const bool semi = bpp == 3; /* Y plane at src, UV plane at uv */
    src += 8 * rng_below(r, 4); /* lines 8-byte aligned, a quarter 32 */
    const uint32_t ybytes = (xoff + g->w) * (semi ? 1 : bpp), uv = src + 0x00200000u + 8 * rng_below(r, 4);
    uint32_t ls = (ybytes + 7) / 8 * 8 + 8 * rng_below(r, 3), uvls = ls;
    dp_fill_random(p, r, src, (g->h - 1) * ls + ybytes);
    if (semi) {
        uvls = ((xoff + g->w) * 2 + 7) / 8 * 8 + 8 * rng_below(r, 3);
        dp_fill_random(p, r, uv, (g->h - 1) * uvls + (xoff + g->w) * 2);
    }
    uint32_t used = g->r * g->s * g->c * g->k;
    dp_fill_random(p, r, wts, used);
    if (g->wbytes > used) prog_mem_fill(p, wts + used, g->wbytes - used, 0);
    bool cvt = rng_chance(r, 60), mean = rng_chance(r, 50), sign = rng_chance(r, 30);
    /* converter: scale and truncate mostly near unity gain, sometimes anything (saturation, truncate >= 34) */
    uint32_t scale =
        rng_chance(r, 80) ? (rng_range(r, 1, 64) ^ (rng_chance(r, 25) ? 0xFFFFu : 0)) & 0xFFFF : dp_junk(r) & 0xFFFF;
    unsigned trunc = rng_chance(r, 85) ? rng_range(r, 0, 7) : rng_range(r, 0, 63);
    uint32_t off = rng_chance(r, 80) ? (rng_range(r, 0, 511) - 256) & 0xFFFF : dp_junk(r) & 0xFFFF;
    uint32_t m0 = ((rng_range(r, 0, 511) - 256) & 0xFFFF) | (((rng_range(r, 0, 511) - 256) & 0xFFFF) << 16);
    uint32_t m1 = ((rng_range(r, 0, 511) - 256) & 0xFFFF) | (((rng_range(r, 0, 511) - 256) & 0xFFFF) << 16);
    if (rng_chance(r, 10)) m0 = dp_junk(r), m1 = dp_junk(r);
    uint32_t csc_pad = rng_chance(r, 60) ? g->pad_value : (uint32_t)rng_next(r) & 0xFFFF;
    /* CDMA */
    dp_put(l, NVDLA_CDMA_D_MISC_CFG_0, 0);
    dp_put(l, NVDLA_CDMA_D_DATAIN_FORMAT_0, 1u | (fmt << 8) | ((uint32_t)sign << 20));
    dp_put(l, NVDLA_CDMA_D_DATAIN_SIZE_0_0, (g->w - 1) | ((g->h - 1) << 16));
    dp_put(l, NVDLA_CDMA_D_DATAIN_SIZE_1_0, g->c - 1);
    dp_put(l, NVDLA_CDMA_D_DATAIN_SIZE_EXT_0_0, (g->w - 1) | ((g->h - 1) << 16));
    dp_put(l, NVDLA_CDMA_D_PIXEL_OFFSET_0, xoff);
    dp_put(l, NVDLA_CDMA_D_DAIN_RAM_TYPE_0, 1);
    dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_HIGH_0_0, 0), dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_LOW_0_0, src);
    dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_HIGH_1_0, 0),
        dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_LOW_1_0, semi ? uv : dp_junk(r) & ~31u);
    dp_put(l, NVDLA_CDMA_D_LINE_STRIDE_0, ls), dp_put(l, NVDLA_CDMA_D_SURF_STRIDE_0, ls * g->h);
    dp_put(l, NVDLA_CDMA_D_LINE_UV_STRIDE_0, uvls);
    dp_put(l, NVDLA_CDMA_D_DAIN_MAP_0, 0);
    dp_put(l, NVDLA_CDMA_D_BATCH_NUMBER_0, 0);
    dp_put(l, NVDLA_CDMA_D_ENTRY_PER_SLICE_0, g->entries - 1);
    dp_put(l, NVDLA_CDMA_D_FETCH_GRAIN_0, 0);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_FORMAT_0, 0);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_SIZE_0_0, g->r * g->s * g->c - 1);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_SIZE_1_0, g->k - 1);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_RAM_TYPE_0, 1);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_ADDR_HIGH_0, 0), dp_put(l, NVDLA_CDMA_D_WEIGHT_ADDR_LOW_0, wts);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_BYTES_0, g->wbytes);
    dp_put(l, NVDLA_CDMA_D_MEAN_FORMAT_0, mean);
    dp_put(l, NVDLA_CDMA_D_MEAN_GLOBAL_0_0, m0), dp_put(l, NVDLA_CDMA_D_MEAN_GLOBAL_1_0, m1);
    dp_put(l, NVDLA_CDMA_D_CVT_CFG_0, cvt | (trunc << 4));
    dp_put(l, NVDLA_CDMA_D_CVT_OFFSET_0, off), dp_put(l, NVDLA_CDMA_D_CVT_SCALE_0, scale);
    dp_put(l, NVDLA_CDMA_D_CONV_STRIDE_0, (g->sx - 1) | ((g->sy - 1) << 16));
    dp_put(l, NVDLA_CDMA_D_ZERO_PADDING_0, g->pl | (g->pr << 8) | (g->pt << 16) | (g->pb << 24));
    dp_put(l, NVDLA_CDMA_D_ZERO_PADDING_VALUE_0, g->pad_value);
    dp_put(l, NVDLA_CDMA_D_BANK_0, (g->dbanks - 1) | ((g->wbanks - 1) << 16));
    /* CSC: the pre-extended kernel (width 1, channels = kernel width x bytes a pixel) */
    dp_put(l, NVDLA_CSC_D_MISC_CFG_0, 0);
    dp_put(l, NVDLA_CSC_D_DATAIN_FORMAT_0, 1);
    dp_put(l, NVDLA_CSC_D_DATAIN_SIZE_EXT_0_0, (g->w - 1) | ((g->h - 1) << 16));
    dp_put(l, NVDLA_CSC_D_DATAIN_SIZE_EXT_1_0, g->c - 1);
    dp_put(l, NVDLA_CSC_D_BATCH_NUMBER_0, 0);
    /* post-extension: 2 or 4 kernel rows an atom when the kernel row and the x stride fit a line's share of it
     * (nv_small's envelope, see conv_golden.c); weights random: their layout is the model's business */
    uint32_t wch = g->s * g->c, xs = g->sx * g->c;
    uint32_t yext = wch <= 2 && xs <= 2 && rng_chance(r, 50) ? 2 : wch <= 4 && xs <= 4 && rng_chance(r, 70) ? 1 : 0;
    dp_put(l, NVDLA_CSC_D_POST_Y_EXTENSION_0, yext);
    dp_put(l, NVDLA_CSC_D_ENTRY_PER_SLICE_0, g->entries - 1);
    dp_put(l, NVDLA_CSC_D_WEIGHT_FORMAT_0, 0);
    dp_put(l, NVDLA_CSC_D_WEIGHT_SIZE_EXT_0_0, (g->r - 1) << 16);
    dp_put(l, NVDLA_CSC_D_WEIGHT_SIZE_EXT_1_0, (g->s * g->c - 1) | ((g->k - 1) << 16));
    dp_put(l, NVDLA_CSC_D_WEIGHT_BYTES_0, g->wbytes);
    dp_put(l, NVDLA_CSC_D_WMB_BYTES_0, dp_junk(r) & 0x0FFFFF80u);
    dp_put(l, NVDLA_CSC_D_DATAOUT_SIZE_0_0, (g->ow - 1) | ((g->oh - 1) << 16));
    dp_put(l, NVDLA_CSC_D_DATAOUT_SIZE_1_0, g->k - 1);
    dp_put(l, NVDLA_CSC_D_ATOMICS_0, g->ow * g->oh - 1);
    dp_put(l, NVDLA_CSC_D_RELEASE_0, g->h - 1);
    dp_put(l, NVDLA_CSC_D_CONV_STRIDE_EXT_0, (g->sx - 1) | ((g->sy - 1) << 16));
    /* CSC ignores dilation and PAD_LEFT with image input: sometimes junk there */
    dp_put(l, NVDLA_CSC_D_DILATION_EXT_0, rng_chance(r, 30) ? dp_junk(r) & 0x1F001Fu : 0);
    dp_put(l, NVDLA_CSC_D_ZERO_PADDING_0, (rng_chance(r, 30) ? rng_below(r, 32) : g->pl) | (g->pt << 16));
    dp_put(l, NVDLA_CSC_D_ZERO_PADDING_VALUE_0, csc_pad);
    dp_put(l, NVDLA_CSC_D_BANK_0, (g->dbanks - 1) | ((g->wbanks - 1) << 16));
    dp_put(l, NVDLA_CSC_D_PRA_CFG_0, 0);
    cmac_cacc_regs(r, l, g);
}

/* An image layer as generated: geometry (c = bytes a pixel in the CBUF), format, pixel x offset. */
typedef struct image_pick {
    conv_geom_t g;
    uint32_t fmt, bpp, xoff;
} image_pick_t;

static void pick_image(rng_t *r, image_pick_t *ip)
{
    conv_geom_t *g = &ip->g;
    ip->fmt = rng_chance(r, 25) ? image_formats[0] /* R8: a quarter */
                                : image_formats[1 + rng_below(r, sizeof image_formats / sizeof *image_formats - 1)];
    const uint32_t bpp = ip->bpp = ip->fmt == 0 ? 1 : ip->fmt >= 0x1c ? 3 : 4;
    ip->xoff = rng_below(r, bpp == 3 ? ATOM / 2 : ATOM / bpp);
    memset(g, 0, sizeof *g);
    g->c = bpp;
    g->k = rng_chance(r, 30) ? rng_range(r, 1, 8) : rng_range(r, 1, 24);
    /* kernel width: the pre-extended kernel (width x bytes a pixel) at most 128 bytes, and at most 3 channel
     * blocks unless its last block is whole (nv_small's CSC channel_op_cnt, see conv_golden.c) */
    g->s = rng_chance(r, 80) ? rng_range(r, 1, 7) : rng_range(r, 8, 16), g->r = rng_range(r, 1, 7);
    while (g->s * bpp > 3 * ATOM && g->s * bpp % ATOM) g->s++;
    unsigned sp = rng_below(r, 100);
    g->sx = sp < 50 ? 1 : sp < 80 ? 2 : rng_range(r, 3, 4);
    sp = rng_below(r, 100);
    g->sy = sp < 50 ? 1 : sp < 80 ? 2 : rng_range(r, 3, 4);
    g->dx = g->dy = 1;
    bool pads = rng_chance(r, 60);
    g->ow = rng_range(r, 1, 12), g->oh = rng_range(r, 1, 8);
    dim(r, g->s, g->sx, 1, g->ow, pads, &g->w, &g->pl, &g->pr);
    dim(r, g->r, g->sy, 1, g->oh, pads, &g->h, &g->pt, &g->pb);
    g->entries = ceil_div((g->pl + g->w + g->pr) * bpp, ATOM);
    g->wbytes = ceil_div(g->r * g->s * g->c * g->k, 128) * 128;
    uint32_t dmin = data_banks_min(g), wmin = ceil_div(g->wbytes, BANK_BYTES);
    uint32_t spare = CBUF_BANKS - dmin - wmin;
    if (rng_chance(r, 50)) g->dbanks = dmin, g->wbanks = wmin;
    else g->dbanks = dmin + rng_below(r, spare + 1), g->wbanks = wmin + rng_below(r, CBUF_BANKS - g->dbanks - wmin + 1);
    g->pad_value = rng_chance(r, 40) ? 0 : (uint32_t)rng_next(r) & 0xFF;
    g->pad_value |= (uint32_t)rng_next(r) & 0xFF00;
    uint32_t n = g->r * g->s * g->c, bits = 14;
    while ((1u << ((bits - 13) * 2)) < n && bits < 30) bits++;
    int t = (int)bits - 6 + (int)rng_range(r, 0, 6) - 3;
    g->trunc = rng_chance(r, 10) ? rng_range(r, 0, 31) : (unsigned)(t < 0 ? 0 : t > 31 ? 31 : t);
}

static void image_job(program_t *p, const char *name, uint64_t seed, int k, const image_pick_t *ip)
{
    const conv_geom_t *g = &ip->g;
    char tag[16] = "";
    if (k >= 0) snprintf(tag, sizeof tag, "j%d.", k);
    prog_job(p, "%s.s%llu.%s%s.k%u.%ux%u.s%ux%u.p%u-%u-%u-%u.x%u", name, (unsigned long long)seed, tag,
             conv_image_format_name(ip->fmt), g->k, g->s, g->r, g->sx, g->sy, g->pl, g->pr, g->pt, g->pb, ip->xoff);
}

/* Programs an image layer into the next groups (gs advanced) with its memory region k, SDP on the fly to
 * memory; enables it. Returns the interrupt bits it raises. */
static uint32_t image_layer(program_t *p, rng_t *r, int k, conv_groups_t *gs, const image_pick_t *ip)
{
    const uint32_t region = 0x80000000u + (uint32_t)k * 0x01000000u;
    dp_wlist_t l = {.n = 0};
    image_regs(p, r, &l, &ip->g, ip->fmt, ip->bpp, ip->xoff, region, region + 0x00400000u);
    bool sr = sdp_regs(p, r, &l, &ip->g, region + 0x00800000u, region + 0x00C00000u, false);
    pointers(p, gs->conv, gs->sdp_rdma, gs->pdp, sr, false);
    dp_emit_shuffled(p, r, &l);
    enable(p, sr, false);
    uint32_t bits = layer_bits(gs->conv, false);
    gs->conv ^= 1;
    if (sr) gs->sdp_rdma ^= 1;
    return bits;
}

int conv_image(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    program_start(p, &r, seed, "conv_image");
    image_pick_t ip;
    pick_image(&r, &ip);
    image_job(p, "conv_image", seed, -1, &ip);
    conv_groups_t gs = {0, 0, 0};
    finish_job(p, image_layer(p, &r, 0, &gs, &ip));
    return 0;
}

/* 2-3 layers in one program, each an image layer (the first with 3/4 chance, later ones 1/3) or a direct
 * convolution as conv_random's, run one after the other in alternating groups: the CBUF switching between
 * image lines and feature atoms, with the same or another bank split. Within nv_small's envelope as conv_seq
 * (weights entry-padded but on the last layer, the weights written since reset within each layer's banks). */
int conv_image_seq(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    program_start(p, &r, seed, "conv_image_seq");
    int rounds = (int)rng_range(&r, 2, 3);
    conv_groups_t gs = {0, 0, 0};
    uint32_t written = 0, prev_d = 0, prev_w = 0; /* the previous layer's bank split */
    for (int k = 0; k < rounds; k++) {
        bool last = k == rounds - 1, image = rng_chance(&r, k == 0 ? 75 : 33);
        uint32_t bits;
        if (image) {
            image_pick_t ip;
            pick_image(&r, &ip);
            if (!admit_layer(&ip.g, &written, last)) break;
            /* nv_small's CSC misreads an image atom that straddles the end of the CBUF data banks (the 8 bytes at
             * a line offset that is not a multiple of 8 span two entries, the second wrapping to entry 0; found
             * with conv_image_seq seed 289: a direct layer left the data ring at 495 of 512, the image line
             * wrapped at its fifth entry, output x 3 was wrong; the same program with another bank split, which
             * restarts the ring, passes). The model keeps no CBUF position: an image layer after another layer
             * changes the bank split, so that its lines start at entry 0 and fit without wrapping. */
            if (k > 0 && ip.g.dbanks == prev_d && ip.g.wbanks == prev_w) {
                if (ip.g.dbanks + ip.g.wbanks < CBUF_BANKS) ip.g.dbanks++;
                else if (ip.g.dbanks > data_banks_min(&ip.g)) ip.g.dbanks--;
                else break;
            }
            image_job(p, "conv_image_seq", seed, k, &ip);
            bits = image_layer(p, &r, k, &gs, &ip);
            prev_d = ip.g.dbanks, prev_w = ip.g.wbanks;
        } else {
            conv_geom_t geo;
            pick_geom(&r, &geo, pick_limits(&r));
            if (!place_layer(&r, &geo, &written, last)) break;
            prev_d = geo.dbanks, prev_w = geo.wbanks;
            prog_job(p, "conv_image_seq.s%llu.j%d.c%uk%u.%ux%u.s%ux%u.d%ux%u", (unsigned long long)seed, k, geo.c,
                     geo.k, geo.s, geo.r, geo.sx, geo.sy, geo.dx, geo.dy);
            bits = conv_layer(p, &r, k, &gs, &geo, false);
        }
        finish_job(p, bits);
    }
    return 0;
}

/* Deviation cbuf-image-wrap-straddle, shown: layer a (direct, 1 data bank) leaves the CBUF data ring at entry 495
 * of 512; layer b, an image layer with the same bank split (X8B8G8R8, 21 + 2 pad pixels a line: 12 entries), has
 * its line 1 at entries 507..518: output x 3 reads bytes 36..43 of it, entries 511 and 0 (wrapped). The model
 * computes both; on nv_small b's outputs at x 3 from line 1 differ. */
int conv_image_wrap(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    program_start(p, &r, seed, "conv_image_wrap");
    conv_geom_t a = {.w = 33,
                     .h = 15,
                     .c = 8,
                     .k = 8,
                     .r = 1,
                     .s = 1,
                     .sx = 1,
                     .sy = 1,
                     .dx = 1,
                     .dy = 1,
                     .ow = 33,
                     .oh = 15,
                     .dbanks = 1,
                     .wbanks = 1,
                     .trunc = 6};
    geom_sizes(&a); /* 33 entries x 15 lines = 495 */
    entry_padded_weights(&a);
    conv_groups_t gs = {0, 0, 0};
    conv_job(p, &r, 0, &gs, &a, "conv_image_wrap", seed, JOB_TIMEOUT);
    image_pick_t ip = {.fmt = 0x10,
                       .bpp = 4,
                       .xoff = 0,
                       .g = {.w = 21,
                             .h = 7,
                             .c = 4,
                             .k = 4,
                             .r = 3,
                             .s = 2,
                             .sx = 3,
                             .sy = 1,
                             .dx = 1,
                             .dy = 1,
                             .pl = 1,
                             .pr = 1,
                             .ow = 8,
                             .oh = 5,
                             .dbanks = 1,
                             .wbanks = 1,
                             .trunc = 8}};
    ip.g.entries = ceil_div((ip.g.pl + ip.g.w + ip.g.pr) * ip.bpp, ATOM); /* 12 */
    ip.g.wbytes = ceil_div(ip.g.r * ip.g.s * ip.g.c * ip.g.k, 128) * 128;
    ip.g.pad_value = (uint32_t)rng_next(&r) & 0xFFFF;
    image_job(p, "conv_image_wrap", seed, 1, &ip);
    finish_job(p, image_layer(p, &r, 1, &gs, &ip));
    return 0;
}

/* Weights larger than their CBUF weight banks: one layer whose D_WEIGHT_BYTES exceed the weight ring, so that
 * CDMA streams them through it as CSC releases kernel groups (docs/nvdla_conv.md). The seed's draw picks how
 * many whole groups the ring holds (one, or two to four), whether the last group is partial (K % 8), large
 * kernels (up to 8x8), strides, dilation, padding; the ring always holds a group and the last group with the
 * format's 128-byte padding (else nv_small hangs: the model refuses such a layer). One layer a program: a
 * streamed layer's releases after its fetch ended are lost on nv_small (deviation cdma-wt-credit-leak), which
 * would hang a next layer. SDP (and sometimes PDP) on the fly as in conv_random. */
static bool pick_wstream(rng_t *r, conv_geom_t *g)
{
    memset(g, 0, sizeof *g);
    const bool one = rng_chance(r, 50), partial = rng_chance(r, 50);
    g->s = rng_chance(r, 35) ? rng_range(r, 5, 8) : rng_range(r, 1, 4);
    g->r = rng_chance(r, 35) ? rng_range(r, 5, 8) : rng_range(r, 1, 4);
    g->c = rng_chance(r, 25) ? rng_range(r, 1, 8) : rng_range(r, 9, 80);
    /* one group in the ring needs a group (8 x R x S x C bytes) above half a bank */
    if (one)
        while (8 * g->r * g->s * g->c <= BANK_BYTES / 2) g->c += 8;
    const uint32_t gb = 8 * g->r * g->s * g->c;
    uint32_t n = one ? 1 : rng_range(r, 2, 4);
    g->wbanks = ceil_div(n * gb, BANK_BYTES);
    if (g->wbanks >= CBUF_BANKS) return false;
    const uint32_t ring = g->wbanks * BANK_BYTES, held = ring / gb; /* whole groups the ring holds */
    if (one ? held != 1 : held < 2) return false;
    uint32_t groups = held + rng_range(r, 1, 4);
    g->k = 8 * groups - (partial ? rng_range(r, 1, 7) : 0);
    geom_sizes(g);
    if (g->wbytes <= ring || g->wbytes - (groups - 1) * gb > ring) return false; /* streamed; last group fits */
    unsigned sp = rng_below(r, 100);
    g->sx = sp < 60 ? 1 : sp < 85 ? 2 : rng_range(r, 3, 4);
    sp = rng_below(r, 100);
    g->sy = sp < 60 ? 1 : sp < 85 ? 2 : rng_range(r, 3, 4);
    g->dx = rng_chance(r, 75) ? 1 : rng_range(r, 2, 3);
    g->dy = rng_chance(r, 75) ? 1 : rng_range(r, 2, 3);
    g->ow = rng_range(r, 1, 8), g->oh = rng_range(r, 1, 6);
    bool pads = rng_chance(r, 70);
    dim(r, g->s, g->sx, g->dx, g->ow, pads, &g->w, &g->pl, &g->pr);
    dim(r, g->r, g->sy, g->dy, g->oh, pads, &g->h, &g->pt, &g->pb);
    geom_sizes(g);
    const uint32_t dmin = data_banks_min(g);
    if (dmin + g->wbanks > CBUF_BANKS) return false;
    g->dbanks = dmin + rng_below(r, CBUF_BANKS - g->wbanks - dmin + 1);
    g->pad_value = rng_chance(r, 50) ? 0 : (uint32_t)rng_next(r) & 0xFF;
    g->pad_value |= (uint32_t)rng_next(r) & 0xFF00;
    uint32_t m = g->r * g->s * g->c, bits = 13;
    while ((1u << ((bits - 12) * 2)) < m && bits < 30) bits++;
    int t = (int)bits - 6 + (int)rng_range(r, 0, 6) - 3;
    g->trunc = (unsigned)(t < 0 ? 0 : t > 31 ? 31 : t);
    return true;
}

int conv_wstream(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    program_start(p, &r, seed, "conv_wstream");
    conv_geom_t g;
    while (!pick_wstream(&r, &g)) {}
    const bool pdp = rng_chance(&r, 20);
    const uint32_t gb = 8 * g.r * g.s * g.c;
    prog_job(p, "conv_wstream.s%llu.c%uk%u.%ux%u.s%ux%u.d%ux%u.p%u-%u-%u-%u.w%u.ring%u.g%u%s", (unsigned long long)seed,
             g.c, g.k, g.s, g.r, g.sx, g.sy, g.dx, g.dy, g.pl, g.pr, g.pt, g.pb, g.wbytes, g.wbanks * BANK_BYTES,
             g.wbanks * BANK_BYTES / gb, pdp ? ".pdp" : "");
    conv_groups_t gs = {0, 0, 0};
    finish_job(p, conv_layer(p, &r, 0, &gs, &g, pdp));
    return 0;
}
