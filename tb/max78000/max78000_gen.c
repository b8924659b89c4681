/* Random legal MAX78000 networks of 1-4 layers, programmed like a generated cnn.c (see max78000_gen.h).
 *
 * Layout rules (the generator's conventions, spec 3.1, 3.2, 3.10):
 *   - input channel c of a layer is on processor first_in + c (HWC) or 4*(first_in + c) (CHW, D28);
 *   - output channel j goes to memory out_mem + j/4, lane j%4 (WPTR_MOFF = next memory), so the next
 *     layer's channel c is processor 4*out_mem + c, which reads exactly that lane (HWC);
 *   - layer inputs and outputs alternate between word banks 0x000-0x7FF and 0x800-0xFFF, so a layer never
 *     overwrites its own input (D27);
 *   - every quadrant gets the same geometry; the lowest quadrant with processors (or, sometimes, an empty
 *     quadrant 0) collects the others' partial sums through cnnsi_en and wins the write (D23, D36, D41);
 *   - kernels: 3x3 at MRAM word kbase + K*X + e (tap 0 in slot 8), 1x1 packed 9 per word from slot 0
 *     (mcnt_sad = 72*kbase), loaded with the express loader (D30-D32);
 *   - 1-D networks (net_oned): T x 1 kernels (T = 1..9, D18) on planes one column wide (D33), packed T
 *     slots per mask step from a random oned_sad, so a step's taps often cross an MRAM word (D32);
 *   - spread networks (net_spread): the other quadrants with processors store their own totals too, at
 *     WPTR_BASE + 0x400, so several quadrants' writes of a pixel are visible (D36, D41). */
#include "max78000_gen.h"
#include "max78000_fw.h"
#include "max78000_regs.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { POOL_NONE, POOL_MAX, POOL_AVG };
enum { MAX_LAYERS = 4, MAX_CH = 20, MAX_OUT = 16 };
enum {
    NET_ONED = 1,
    NET_SPREAD = 2,
    NET_M3 = 4,
    NET_STREAM_MEM = 8,
    NET_FIFO_AHEAD = 16,
    NET_MASKED = 32
}; /* gen_nets kinds beyond the plain one */

typedef struct gl {
    int cin, cout, h, w; /* pre-pool input plane (flatten: the previous plane, read as passes) */
    bool chw, flat, k1, big, relu, oabs, bias;
    bool flat_en;  /* POST.flatten_en: X above 16 through xpmp_cnt (spec 3.4) */
    bool oned;     /* T x 1 kernel (ONED.oned_en), W_in = 1 */
    unsigned osad; /* ONED.oned_sad of a 1-D layer */
    bool spread;   /* non-collecting quadrants write at WPTR_BASE + 0x400 */
    /* M3 (net_m3): element-wise with nop operands (3.11), pass-through, ConvTranspose2d (3.5) */
    unsigned nop, efunc; /* operands (1: none), ONED.ewise_func */
    bool prepool, econv; /* pool each operand first; element-wise feeding a convolution */
    bool pass;           /* no convolution: pass-through, or element-wise only (timeslots) */
    bool deconv;
    bool stream; /* streaming layer (2.4) with the stream registers ai8xize computes */
    uint32_t strm0, strm1, fbuf;
    int pad, pool, ph, pw, st, shift;
    int first_in, out_mem, bias_q, col;
    unsigned rptr, out_word, kbase, bias_sad, X, T;
    unsigned qb; /* weight bits: 8, 4, 2 or 1 (POST.mask_size, spec 3.4 D32) */
    int hp, wp, ho, wo;
    unsigned qmask; /* quadrants with processors */
    unsigned cnnsi; /* of the collecting quadrant */
    uint16_t en[4]; /* processor mask per quadrant */
    int8_t *wt;     /* [c][K][e][t] */
    int8_t bv[MAX_OUT];
} gl_t;

typedef struct net {
    int nl;
    gl_t L[MAX_LAYERS];
    uint32_t ctrl[4];
    unsigned master;
    bool poolrnd;
    bool oneshot; /* master CTRL.oneshot: one start per layer (spec 4, cnn_continue) */
    bool oned;    /* every convolution is 1-D (net_oned) */
    bool spread;  /* every layer's other quadrants write their own totals (net_spread) */
    bool m3;      /* layers with element-wise, pass-through, ConvTranspose2d (net_m3) */
    bool fifo;    /* layer 0's input through FIFO fifo_q (D46) */
    int nstream;  /* with the FIFO: layers 0..nstream-1 stream through circular buffers (2.4) */
    bool ahead;   /* net_fifo_ahead: the host fills the FIFO far ahead of a slow, tall layer 0 */
    bool masked;  /* net_masked: processors a layer does not enable hold kernels at its MRAM words */
    unsigned fifo_q;
    bool ffifo; /* the fast FIFO in place of FIFO 0 (quadrant 0's CTRL.ffifo_en and fifogrp, as ai8xize
                            --fast-fifo writes them) */
} net_t;

static int proc_of(const gl_t *l, int c) { return l->chw ? 4 * (l->first_in + c) : l->first_in + c; }

static int8_t rnd8(rng_t *r, bool wide, int narrow)
{
    return wide ? (int8_t)(int)rng_range(r, 0, 255) : (int8_t)((int)rng_range(r, 0, 2u * (unsigned)narrow) - narrow);
}

/* Quadrants, collector and bias placement of layer l (its input processors are known). */
static void place(rng_t *r, gl_t *l)
{
    memset(l->en, 0, sizeof l->en);
    l->qmask = 0;
    for (int c = 0; c < l->cin; c++) {
        int p = proc_of(l, c);
        l->en[p >> 4] |= (uint16_t)(1u << (p & 15));
        l->qmask |= 1u << (p >> 4);
    }
    int lo = __builtin_ctz(l->qmask);
    l->col = (lo > 0 && rng_chance(r, 25)) ? 0 : lo; /* D36: an empty quadrant 0 collects */
    l->cnnsi = l->qmask & ~(1u << l->col);
    if (l->bias) {
        unsigned cand = l->cnnsi | (1u << l->col), k = rng_below(r, (uint32_t)__builtin_popcount(cand));
        for (int q = 0; q < 4; q++)
            if ((cand >> q) & 1 && k-- == 0) l->bias_q = q;
    }
}

static void layer_geometry(gl_t *l)
{
    if (l->flat) {
        l->hp = l->wp = l->ho = l->wo = 1;
        return;
    }
    int ph = l->pool ? l->ph : 1, pw = l->pool ? l->pw : 1, st = l->pool ? l->st : 1;
    /* a window larger than the plane leaves nothing (C's division would round -2/3 up to 0 and give 1) */
    l->hp = l->h >= ph ? (l->h - ph) / st + 1 : 0;
    l->wp = l->w >= pw ? (l->w - pw) / st + 1 : 0;
    if (l->deconv) { /* 3.5: the 2x up-sampled plane, no pooling */
        l->hp = 2 * l->h;
        l->wp = 2 * l->w;
    }
    if (l->pass) {
        l->ho = l->hp;
        l->wo = l->wp;
        return;
    }
    int kh = l->oned ? (int)l->T : l->k1 ? 1 : 3, kw = l->oned ? 1 : kh, cpad = l->oned ? 0 : l->pad;
    l->ho = l->hp + 2 * l->pad - kh + 1;
    l->wo = l->wp + 2 * cpad - kw + 1;
}

/* Draws layer i of n given the previous layer (NULL for layer 0). Limits keep a job to a few 10k cycles. */
static void draw_layer(rng_t *r, net_t *N, int i, int maxplane, int maxch, unsigned *bias_next)
{
    gl_t *l = &N->L[i];
    const gl_t *prev = i ? &N->L[i - 1] : NULL;
    bool last = i == N->nl - 1;
    memset(l, 0, sizeof *l);
    if (!prev) {
        l->chw = rng_chance(r, 35);
        l->cin = (int)rng_range(r, 1, l->chw ? 4 : (unsigned)maxch);
        l->first_in = (int)rng_range(r, 0, (unsigned)((l->chw ? 16 : 64) - l->cin));
        l->h = (int)rng_range(r, 3, (unsigned)maxplane);
        l->w = (int)rng_range(r, 3, (unsigned)maxplane);
        if (N->oned) l->w = 1; /* D33: 1-D data in rows */
        l->rptr = rng_range(r, 0, 0x100);
        if (N->ahead) { /* tall: the drain gets further ahead of layer 0 with every row */
            l->h = (int)rng_range(r, 28, 44);
            l->w = (int)rng_range(r, 10, 16);
        }
    } else {
        l->cin = prev->cout;
        l->first_in = 4 * prev->out_mem;
        l->h = prev->ho;
        l->w = prev->wo;
        l->rptr = prev->out_word;
    }
    l->nop = 1;
    l->stream = i < N->nstream;
    if (l->stream) l->chw = false; /* streaming reads HWC (ai8xize) */
    if (N->m3 && !N->oned && (!l->stream || !prev)) {
        unsigned pick = rng_below(r, 100);
        if (!prev && N->fifo) {
            l->chw = false; /* D46: FIFO q feeds processors 16q..16q+3 */
            l->cin = (int)rng_range(r, 1, 4);
            l->first_in = 16 * (int)N->fifo_q;
        } else if (l->stream) {
        } else if (pick < 55 && (!prev || l->w % 2 == 0)) {
            /* element-wise of 2-4 operands; a later layer reads the previous plane as nop operands side by
             * side (operand o of pixel n is the previous pixel n*nop+o, 3.2) */
            unsigned maxop = 4;
            while (prev && maxop > 2 && l->w % (int)maxop) maxop--;
            l->nop = rng_range(r, 2, maxop);
            if (prev) l->w /= (int)l->nop;
            l->efunc = rng_below(r, 4);
            l->econv = rng_chance(r, 50);
            l->pass = !l->econv;
        } else if (pick < 75) l->pass = true;
        else if (l->h <= 8 && l->w <= 8) l->deconv = true;
        if (l->nop > 1 || l->pass) l->chw = false; /* operands interleave words: HWC */
        if (!prev && l->pass) l->first_in &= ~3;   /* each quadrant's outputs start at lane 0 */
    }
    l->flat = !l->pass && !l->deconv && !l->stream && l->nop == 1 && prev && last && l->h * l->w <= 25 &&
              l->h * l->w > 1 && rng_chance(r, 40);
    l->k1 = l->flat || l->pass || (!l->deconv && rng_chance(r, 25));
    l->X = l->flat ? (unsigned)(l->h * l->w) : 1;
    l->flat_en = l->flat && (l->X > 16 || rng_chance(r, 50)); /* also with X <= 16: xpmp_cnt 0 */
    l->T = l->k1 ? 1 : 9;
    l->oned = N->oned && !l->flat;
    l->spread = N->spread;
    if (l->oned) {
        l->k1 = false;
        l->T = rng_range(r, 1, 9);
        l->osad = rng_range(r, 0, 8);
    }
    for (int tries = 0; tries < 50; tries++) {
        l->pool = POOL_NONE;
        l->pad = 0;
        if (!l->flat && !l->deconv && rng_chance(r, l->nop > 1 ? 70 : 45)) { /* operands: pool more often (prepool) */
            l->pool = rng_chance(r, 50) ? POOL_MAX : POOL_AVG;
            l->ph = (int)rng_range(r, 1, 3);
            l->pw = (int)rng_range(r, 1, 3);
            l->st = (int)rng_range(r, 1, 3);
            if (l->oned) l->pw = 1;
        }
        if (N->ahead && !prev) { /* 4x3 or 4x4 windows at stride 1: 12-16 pool cycles per new input word */
            l->pool = rng_chance(r, 50) ? POOL_MAX : POOL_AVG;
            l->ph = 4;
            l->pw = (int)rng_range(r, 3, 4);
            l->st = 1;
        }
        if (l->oned) l->pad = (int)rng_range(r, 0, 3);
        else if (l->deconv) l->pad = 1; /* stride 2, pad 1, output padding 1: 2H x 2W */
        else if (!l->k1) l->pad = (int)rng_range(r, 0, 2);
        l->prepool = l->nop > 1 && l->pool && rng_chance(r, 50);
        layer_geometry(l);
        int omax = N->ahead ? 48 : 16; /* ahead: layer 0's output plane is as tall as its input */
        if (l->hp >= 1 && l->wp >= 1 && l->ho >= 1 && l->wo >= 1 && l->ho <= omax && l->wo <= omax) break;
        l->pool = POOL_NONE;                  /* fall back to something that fits */
        l->pad = l->oned ? 3 : l->k1 ? 0 : 1; /* 1-D: H_out = H_in + 7 - T >= 1 */
        layer_geometry(l);
    }
    /* ahead: 32-bit outputs of its tall planes (4 words a pixel) would reach the input bank (D27) */
    l->big = last && !l->pass && !l->stream && !N->ahead && rng_chance(r, 25);
    l->cout = (int)rng_range(r, 1, MAX_OUT < maxch ? MAX_OUT : (unsigned)maxch);
    if (l->pass) l->cout = l->cin; /* every input channel is written through */
    l->out_mem = (int)rng_range(r, 0, (unsigned)((64 - l->cout) / 4));
    unsigned bank = (i % 2 == 0) ? 0x800u : 0x000u; /* layer 0 reads bank 0x000 */
    l->out_word = bank + rng_range(r, 0, 0x100);
    l->shift = (int)rng_range(r, 0, 6) - 3;
    l->relu = !l->pass && rng_chance(r, 50);
    l->oabs = !l->pass && rng_chance(r, 15);
    l->bias = !l->pass && rng_chance(r, 40);
    place(r, l);
    if (l->bias) {
        l->bias_sad = bias_next[l->bias_q];
        bias_next[l->bias_q] += (unsigned)l->cout;
        bool wide = rng_chance(r, 30);
        for (int j = 0; j < l->cout; j++) l->bv[j] = rnd8(r, wide, 12);
    }
    bool wide = rng_chance(r, 30);
    size_t nw = (size_t)l->cin * (size_t)l->cout * l->X * l->T;
    l->wt = malloc(nw ? nw : 1);
    if (!l->wt) abort();
    for (size_t k = 0; k < nw; k++) l->wt[k] = rnd8(r, wide, 24);
    /* Sub-8-bit weights (D32): drawn last so that 8-bit layers keep their weights; values wrap to qb bits. */
    l->qb = !l->pass && rng_chance(r, 25) ? 1u << rng_range(r, 0, 2) : 8u;
    if (l->qb < 8)
        for (size_t k = 0; k < nw; k++) {
            int v = l->wt[k] & ((1 << l->qb) - 1);
            l->wt[k] = (int8_t)(v >= 1 << (l->qb - 1) ? v - (1 << l->qb) : v);
        }
}

static int8_t weight(const gl_t *l, int c, int K, unsigned e, unsigned t)
{
    return l->wt[(((size_t)c * (size_t)l->cout + (size_t)K) * l->X + e) * l->T + t];
}

/* MRAM words one processor needs for this layer. */
static unsigned mram_words(const gl_t *l)
{
    if (l->pass) return 0;
    unsigned bits = (unsigned)l->cout * l->X * l->qb; /* mask steps x qb: 3x3 per word, 1x1 per byte */
    unsigned n = (bits + 7) / 8;
    if (l->oned) /* T slots per byte step from oned1_first(), at most 8 + 8 slots into word kbase */
        return (n * l->T + 16 + 8) / 9;
    return l->T == 9 ? n : (n + 8) / 9;
}

/* 1-D layer: first byte step m = mcnt_sad/8, the smallest with m*T >= 9*kbase (D32: B = m*T + osad + T-1-t). */
static unsigned oned1_first(const gl_t *l) { return (9u * l->kbase + l->T - 1) / l->T; }

static void load_weights(program_t *p, rng_t *r, const gl_t *l)
{
    size_t n = (size_t)mram_words(l) * 9;
    if (!n) return;
    uint8_t *buf = calloc(n, 1);
    if (!buf) abort();
    bool msdk = rng_chance(r, 50);
    for (int c = 0; c < l->cin; c++) {
        memset(buf, 0, n);
        for (int K = 0; K < l->cout; K++)
            for (unsigned e = 0; e < l->X; e++) {
                /* mask step K*X+e at bit address A = step*qb (D32): 3x3 word A>>3 (tap 0 first = slot 8),
                     * 1x1 byte A>>3 in slot (A>>3)%9, stream order 8..0; bit A&7, the first step lowest */
                size_t a = ((size_t)K * l->X + e) * l->qb;
                unsigned bit = (unsigned)(a & 7), mask = (1u << l->qb) - 1;
                if (l->oned)
                    for (unsigned t = 0; t < l->T; t++) {
                        size_t rel = (oned1_first(l) + (a >> 3)) * l->T + l->osad + l->T - 1 - t - 9u * l->kbase;
                        buf[(rel / 9) * 9 + 8 - rel % 9] |= (uint8_t)(((unsigned)weight(l, c, K, e, t) & mask) << bit);
                    }
                else if (l->T == 9)
                    for (unsigned t = 0; t < 9; t++)
                        buf[(a >> 3) * 9 + t] |= (uint8_t)(((unsigned)weight(l, c, K, e, t) & mask) << bit);
                else
                    buf[((a >> 3) / 9) * 9 + 8 - (a >> 3) % 9] |=
                        (uint8_t)(((unsigned)weight(l, c, K, e, 0) & mask) << bit);
            }
        m7_express_load(p, (unsigned)proc_of(l, c), l->kbase, buf, n, msdk);
    }
    free(buf);
}

static uint32_t lctrl0(const gl_t *l, unsigned q)
{
    uint32_t v = 1u << 11 | 1u << 5; /* sramlsrc, master (D24: stored) */
    if (l->big) v |= 1u << 16;
    if (q == (unsigned)l->col && !l->pass) v |= l->cnnsi << 12;
    if (l->relu) v |= 1u << 9;
    if (l->pool == POOL_MAX) v |= 1u << 8;
    if (l->pool) v |= 1u << 7;
    if (l->chw) v |= 1u << 6;
    return v;
}

static void configure(program_t *p, const gl_t *l, unsigned y, uint32_t fifo_words, unsigned fifo_q)
{
    unsigned K1 = l->T == 1;
    uint32_t msad = l->oned ? 8u * oned1_first(l) : K1 ? 72u * l->kbase : 8u * l->kbase;
    uint32_t mmax = msad + ((uint32_t)l->cout * l->X - 1) * l->qb;
    static const uint32_t mask_size[9] = {[8] = 0, [1] = 1, [2] = 2, [4] = 3};
    for (unsigned q = 0; q < 4; q++) {
        uint32_t post = (l->shift < 0 ? 1u << 17 : 0) | (uint32_t)abs(l->shift) << 13 | (l->oabs ? 1u << 26 : 0) |
                        mask_size[l->qb] << MAX78000_POST_MASK_SIZE_SHIFT;
        if (l->flat_en) post |= MAX78000_POST_FLATTEN_EN_MASK | ((l->X - 1) >> 4) << MAX78000_POST_XPMP_CNT_SHIFT;
        if (l->bias && q == (unsigned)l->bias_q) post |= 1u << 12 | l->bias_sad;
        int up = l->deconv ? 2 : 1; /* 3.5: rmax/cmax of the up-sampled plane */
        uint32_t rc = l->flat ? 0 : (uint32_t)l->pad << 16 | (uint32_t)(up * l->h + 2 * l->pad - 1);
        uint32_t cc = l->flat   ? 0
                      : l->oned ? (uint32_t)(l->w - 1)
                                : (uint32_t)l->pad << 16 | (uint32_t)(up * l->w + 2 * l->pad - 1);
        uint32_t oned = l->oned ? 1u << 12 | l->T << 8 | l->osad << 4 : K1 ? 0x100u : 0u;
        unsigned nq = (unsigned)__builtin_popcount(l->en[q]);
        if (l->pass) /* 3.11: tscnt_max, pass-through marks itself as 1x1 like ai8xize */
            oned = (nq ? (nq - 1) / 4 : 0) | (l->nop > 1 ? 0u : 0x100u);
        if (l->nop > 1)
            oned |= (l->nop - 1) << 18 | (l->econv ? 1u << 17 : 0) | (l->prepool ? 1u << 16 : 0) | l->efunc << 14 |
                    1u << 13;
        if (l->pass)
            post = l->nop > 1 ? MAX78000_POST_TS_EN_MASK : MAX78000_POST_TS_EN_MASK | MAX78000_POST_ONEXONE_EN_MASK;
        if (l->deconv) post |= MAX78000_POST_DECONV_EN_MASK;
        m7_wr_nz(p, m7_lreg_addr(q, 0, y), rc);
        m7_wr_nz(p, m7_lreg_addr(q, 1, y), cc);
        m7_wr_nz(p, m7_lreg_addr(q, 2, y), oned);
        if (l->pool) {
            m7_wr_nz(p, m7_lreg_addr(q, 3, y), (uint32_t)l->ph - 1);
            m7_wr_nz(p, m7_lreg_addr(q, 4, y), (uint32_t)l->pw - 1);
            m7_wr_nz(p, m7_lreg_addr(q, 5, y), (uint32_t)l->st - 1);
        }
        /* spread: planes of at most 8x8 keep both regions (<= 0x100 words, 32-bit output included) apart,
         * below the next bank (D27) */
        unsigned off = l->spread && q != (unsigned)l->col && l->en[q] ? 0x400u : 0u;
        uint32_t mem = (uint32_t)l->out_mem;
        if (l->pass && l->en[q]) /* the quadrant's first channel (a multiple of 4) starts its own memory */
            mem += (uint32_t)(16 * (int)q + __builtin_ctz(l->en[q]) - l->first_in) / 4;
        m7_wr_nz(p, m7_lreg_addr(q, 6, y), mem << 13 | (l->out_word + off));
        if (l->pass) m7_wr_nz(p, m7_lreg_addr(q, 7, y), 0x2000); /* timeslot t writes memory +t */
        else m7_wr_nz(p, m7_lreg_addr(q, 8, y), 0x2000);
        m7_wr_nz(p, m7_lreg_addr(q, 10, y), l->rptr);
        m7_wr_nz(p, m7_lreg_addr(q, 11, y), lctrl0(l, q));
        m7_wr_nz(p, m7_lreg_addr(q, 12, y), l->pass ? 0 : msad << 16 | mmax);
        m7_wr_nz(p, m7_lreg_addr(q, 13, y), (uint32_t)l->wo - 1);
        m7_wr_nz(p, m7_lreg_addr(q, 14, y), (l->pass ? 0u : (uint32_t)l->en[q] << 16) | l->en[q]);
        m7_wr_nz(p, m7_lreg_addr(q, 15, y), post);
        m7_wr_nz(p, m7_lctrl1_addr(q, y), l->pass ? 0 : ((uint32_t)l->cout - 1) * l->qb << 8 | ((l->X - 1) & 0xFu));
        if (l->stream) { /* 2.4: what ai8xize writes (stream_regs) */
            m7_wr_nz(p, m7_quad_addr(q, MAX78000_STRM0_OFF0 + 4u * y), l->strm0);
            m7_wr_nz(p, m7_quad_addr(q, MAX78000_STRM1_OFF0 + 4u * y), l->strm1);
            m7_wr_nz(p, m7_quad_addr(q, MAX78000_FBUF_OFF0 + 4u * y), l->fbuf);
        }
        if (y == 0 && fifo_words && q == fifo_q) m7_wr(p, m7_quad_addr(q, MAX78000_IFRM_OFF), fifo_words); /* D16 */
    }
}

static void load_input(program_t *p, rng_t *r, const gl_t *l)
{
    bool wide = rng_chance(r, 40);
    int npix = l->h * l->w;
    if (l->chw) {
        for (int c = 0; c < l->cin; c++)
            for (int n = 0; n < npix; n += 4) {
                uint32_t v = 0;
                for (int b = 0; b < 4; b++)
                    if (n + b < npix) v |= (uint32_t)(uint8_t)rnd8(r, wide, 32) << (8 * b);
                m7_wr(p, m7_dmem_addr((unsigned)(l->first_in + c), l->rptr + (unsigned)n / 4), v);
            }
        return;
    }
    int g0 = l->first_in >> 2, g1 = (l->first_in + l->cin - 1) >> 2;
    for (int n = 0; n < npix * (int)l->nop; n++) /* operand o of pixel n at word n*nop + o (3.2) */
        for (int g = g0; g <= g1; g++) {
            uint32_t v = 0;
            for (int b = 0; b < 4; b++) /* lanes of disabled processors get garbage: it must not count */
                v |= (uint32_t)(uint8_t)rnd8(r, wide, 32) << (8 * b);
            m7_wr(p, m7_dmem_addr((unsigned)g, l->rptr + (unsigned)n), v);
        }
}

static uint64_t layer_cycles(const gl_t *l)
{
    uint64_t npool = l->pool ? (uint64_t)l->ph * (uint64_t)l->pw : 1;
    return (uint64_t)l->cout * (uint64_t)(l->ho * l->wo) * (l->X * l->T * npool + 8) + 16;
}

/* net_masked: random kernels at a layer's MRAM words in processors it does not enable (mask_en 0), as when a
 * program keeps other layers' kernels in those processors at those words. Their pooled bytes are garbage or
 * another layer's data: only the mask keeps their products out of the sums. */
static void masked_weights(program_t *p, rng_t *r, const gl_t *l)
{
    size_t n = (size_t)mram_words(l) * 9;
    if (!n) return;
    uint8_t *buf = malloc(n);
    if (!buf) abort();
    for (unsigned proc = 0; proc < 64; proc++) {
        if ((l->en[proc / 16] >> (proc % 16) & 1u) || !rng_chance(r, 50)) continue;
        for (size_t k = 0; k < n; k++) buf[k] = (uint8_t)rnd8(r, true, 0);
        m7_express_load(p, proc, l->kbase, buf, n, rng_chance(r, 50));
    }
    free(buf);
}

/* A network job up to its start: description, init, weights, bias, configuration, input (unless by FIFO). */
static void net_setup(program_t *p, rng_t *r, const net_t *N, const char *tag)
{
    char desc[400];
    int used = snprintf(desc, sizeof desc, "%s: %d layer%s", tag, N->nl, N->nl > 1 ? "s" : "");
    for (int i = 0; i < N->nl && used < (int)sizeof desc; i++) {
        const gl_t *l = &N->L[i];
        char pool[32] = "", kern[16];
        if (l->oned) snprintf(kern, sizeof kern, "1d%ux1/sad%u", l->T, l->osad);
        else snprintf(kern, sizeof kern, "%s", l->k1 ? "1x1" : "3x3");
        if (l->pool)
            snprintf(pool, sizeof pool, " %spool%dx%d/%d", l->pool == POOL_MAX ? "max" : "avg", l->ph, l->pw, l->st);
        static const char *const efn[4] = {"sub", "add", "or", "xor"};
        char m3[40] = "";
        if (l->nop > 1) snprintf(m3, sizeof m3, " %ux%s%s", l->nop, efn[l->efunc & 3], l->prepool ? "/prepool" : "");
        if (l->pass || l->deconv)
            snprintf(m3 + strlen(m3), sizeof m3 - strlen(m3), " %s", l->pass ? "passthrough" : "deconv");
        used += snprintf(desc + used, sizeof desc - (size_t)used, " | %s%s %dx%dx%d%s%s pad%d %s->%d%s%s%s%s s%+d%s",
                         l->chw ? "CHW" : "HWC", m3, l->cin, l->h, l->w, pool, l->flat ? " flatten" : "", l->pad,
                         l->pass ? "-" : kern, l->cout, l->big ? " 32bit" : "", l->relu ? " relu" : "",
                         l->oabs ? " abs" : "", l->bias ? " bias" : "", l->shift,
                         l->qb == 8   ? ""
                         : l->qb == 4 ? " w4"
                         : l->qb == 2 ? " w2"
                                      : " w1");
    }
    prog_job(p, "%s%s%s", desc, N->oneshot ? " oneshot" : "", N->ffifo ? " fast-fifo" : N->fifo ? " fifo" : "");
    m7_init(p, N->ctrl, (unsigned)N->nl - 1);
    if (N->ffifo) /* the fast FIFO's control as ai8xize writes it ("async, threshold 10"); no FIFO_CTRL */
        m7_wr(p, MAX78000_FFIFO_BASE + MAX78000_FF_CR_OFF, 10u << 4);
    else if (N->fifo) /* FIFO fifo_q on, empty and full thresholds 2 (as ai8xize), rdy_sel 0 */
        m7_wr(p, MAX78000_GLOB_BASE + MAX78000_FIFO_CTRL_OFF, 1u << (12 + N->fifo_q) | 2u << 7 | 2u << 2);
    for (int i = 0; i < N->nl; i++) load_weights(p, r, &N->L[i]);
    for (int i = 0; N->masked && i < N->nl; i++) masked_weights(p, r, &N->L[i]);
    for (int i = 0; i < N->nl; i++)
        if (N->L[i].bias)
            for (int j = 0; j < N->L[i].cout; j++)
                m7_wr(p, m7_bram_addr((unsigned)N->L[i].bias_q, N->L[i].bias_sad + (unsigned)j),
                      (uint8_t)N->L[i].bv[j]);
    for (int i = 0; i < N->nl; i++)
        configure(p, &N->L[i], (unsigned)i, N->fifo ? (uint32_t)(N->L[0].h * N->L[0].w) : 0, N->fifo_q);
    if (!N->fifo) load_input(p, r, &N->L[0]);
}

/* The oneshot continuation: after the first start, each start re-enables only the master and runs the next layer;
 * the ISR of every layer. */
static void oneshot_layers(program_t *p, const net_t *N, uint32_t final[4])
{
    for (int i = 0; i < N->nl; i++) {
        m7_isr(p, final, 4 * layer_cycles(&N->L[i]) + 20000);
        if (i == N->nl - 1) break;
        prog_idle(p, 16); /* irq follows the ISR's cnn_irq clears a few cycles later */
        for (unsigned q = 0; q < 4; q++)
            final[q] &= q == N->master ? ~0u : ~1u; /* the ISR cleared every cnn_en; only the master returns */
        m7_wr(p, m7_quad_addr(N->master, MAX78000_CTRL_OFF), final[N->master]);
    }
}

/* cnn_unload: read some output words over APB (the monitor compares them with the model), then the whole image. */
static void net_unload(program_t *p, rng_t *r, const net_t *N)
{
    const gl_t *l = &N->L[N->nl - 1];
    unsigned words = (unsigned)(l->ho * l->wo) * (l->big ? 4u : 1u);
    for (int k = 0; k < 32; k++) {
        unsigned g = (unsigned)l->out_mem + rng_below(r, (uint32_t)(l->cout + 3) / 4);
        prog_read(p, m7_dmem_addr(g, l->out_word + rng_below(r, words)), 0, 0);
    }
    prog_check_golden(p);
}

/* Emits one whole network job: init, weights, bias, configuration, input, start, ISR, unload, check. */
static void emit_net(program_t *p, rng_t *r, net_t *N, const char *tag)
{
    net_setup(p, r, N, tag);
    uint32_t final[4];
    m7_start(p, N->ctrl, N->master, final);
    if (N->fifo) { /* load_input of a --fifo program: each word after FIFO_STAT says the FIFO is not full */
        bool wide = rng_chance(r, 40);
        /* --fast-fifo: FF_SR.full and FF_DR; else FIFO_STAT's full bit of FIFO fifo_q and FIFO_WRk */
        uint32_t stat =
            N->ffifo ? MAX78000_FFIFO_BASE + MAX78000_FF_SR_OFF : MAX78000_GLOB_BASE + MAX78000_FIFO_STAT_OFF;
        uint32_t full = N->ffifo ? MAX78000_FF_SR_FULL_MASK : 1u << N->fifo_q;
        uint32_t data =
            N->ffifo ? MAX78000_FFIFO_BASE + MAX78000_FF_DR_OFF : MAX78000_GLOB_BASE + MAX78000_FIFO_WR_OFF(N->fifo_q);
        for (int n = 0; n < N->L[0].h * N->L[0].w; n++) {
            uint32_t v = 0;
            for (int b = 0; b < 4; b++) v |= (uint32_t)(uint8_t)rnd8(r, wide, 32) << (8 * b);
            prog_poll(p, stat, 0, full, 0);
            m7_wr(p, data, v);
        }
    }
    if (N->oneshot) oneshot_layers(p, N, final);
    else {
        uint64_t cyc = 0;
        for (int i = 0; i < N->nl; i++) cyc += layer_cycles(&N->L[i]);
        m7_isr(p, final, 4 * cyc + 20000);
    }
    net_unload(p, r, N);
}

/* The stream registers of a streaming layer as ai8x-synthesis computes them for the MAX78000
 * (izer/backend/max7800x.py, not REQUIRE_NEW_STREAMING; HWC, one operand, one pass): the words of input that
 * must be there before the layer starts (STRM0), the deltas (STRM1) and the circular buffer (FBUF). */
static void stream_regs(gl_t *l, const gl_t *prev, unsigned y)
{
    int ph = l->pool ? l->ph : 1, pw = l->pool ? l->pw : 1, st = l->pool ? l->st : 1;
    uint32_t start, d1, d2, invol = 0;
    if (!prev) {
        start = (uint32_t)(((ph - 1) * l->w + pw) * ph);
        d1 = (uint32_t)(st - 1);
        d2 = (uint32_t)((ph - 1) * l->w);
    } else {
        int prow = prev->wp + 2 * prev->pad;
        int pkh = prev->k1 ? 1 : 3, pkw = pkh;
        start = (uint32_t)(prow * (pkh - 1 + ph - 1) + pkw - 1 + pw);
        d1 = (uint32_t)st;
        d2 = (uint32_t)((st - 1) * prow + pw);
        invol = y; /* the earlier layers' input passes, one each */
    }
    l->strm0 = start;
    l->strm1 = d2 << 16 | d1 << 4 | invol;
    int inc = st > pw ? st : pw;
    l->fbuf = start + (uint32_t)((ph - 1) * l->w) + (uint32_t)(inc > 1 ? inc : 1);
}

static void draw_net(rng_t *r, net_t *N, int minl, int maxl, int maxplane, int maxch, unsigned kind)
{
    memset(N, 0, sizeof *N);
    N->oned = kind & NET_ONED;
    N->spread = kind & NET_SPREAD;
    N->ahead = kind & NET_FIFO_AHEAD;
    N->masked = kind & NET_MASKED;
    N->m3 = kind & (NET_M3 | NET_FIFO_AHEAD);
    N->fifo = N->ahead || (N->m3 && rng_chance(r, 35));
    N->fifo_q = N->fifo ? rng_below(r, 4) : 0; /* other kinds draw exactly as before */
    N->ffifo = N->m3 && !N->ahead && N->fifo && rng_chance(r, 25);
    if (N->ffifo) N->fifo_q = 0; /* the fast FIFO feeds quadrant 0's processors 0-3 */
    N->nl = (int)rng_range(r, (unsigned)minl, (unsigned)maxl);
    N->nstream = N->fifo && rng_chance(r, 60) ? (int)rng_range(r, 1, (unsigned)N->nl) : 0;
    if (kind & (NET_STREAM_MEM | NET_FIFO_AHEAD)) N->nstream = (int)rng_range(r, 1, (unsigned)N->nl);
    N->poolrnd = rng_chance(r, 50);
    N->master = rng_chance(r, 70) ? 0 : rng_below(r, 4);
    for (unsigned q = 0; q < 4; q++)
        N->ctrl[q] = 0x00100008u | rng_range(r, 0, 3) << 1 | (N->poolrnd ? MAX78000_CTRL_POOLRND_MASK : 0);
    N->oneshot = !N->fifo && rng_chance(r, 15);
    if (N->fifo)
        for (unsigned q = 0; q < 4; q++)
            N->ctrl[q] |= MAX78000_CTRL_FIFO_EN_MASK |
                          (N->nstream ? MAX78000_CTRL_STREAM_EN_MASK | MAX78000_CTRL_LILBUF_MASK : 0);
    if (N->ffifo) N->ctrl[0] |= MAX78000_CTRL_FFIFO_EN_MASK | MAX78000_CTRL_FIFOGRP_MASK;
    if (kind & NET_STREAM_MEM)
        for (unsigned q = 0; q < 4; q++) N->ctrl[q] |= MAX78000_CTRL_STREAM_EN_MASK | MAX78000_CTRL_LILBUF_MASK;
    if (N->oneshot) N->ctrl[N->master] |= MAX78000_CTRL_ONESHOT_MASK;
    unsigned bias_next[4] = {0};
    unsigned kbase = rng_range(r, 0, 40);
    for (int i = 0; i < N->nl; i++) {
        draw_layer(r, N, i, maxplane, maxch, bias_next);
        N->L[i].kbase = kbase;
        kbase += mram_words(&N->L[i]) + rng_range(r, 0, 3);
    }
    for (int i = 0; i < N->nstream && i < N->nl; i++) stream_regs(&N->L[i], i ? &N->L[i - 1] : NULL, (unsigned)i);
    if (N->ahead && rng_chance(r, 70)) {
        /* A circular buffer smaller than ai8xize's, down to one pool window's span: the spec fixes only where
         * FBUF wraps (2.4); the outputs must still equal the plain network's. */
        const gl_t *l = &N->L[0];
        uint32_t span = (uint32_t)((l->ph - 1) * l->w + l->pw);
        N->L[0].fbuf = rng_range(r, span, l->fbuf);
    }
    if (N->nstream && !N->fifo && N->L[0].fbuf < (uint32_t)(N->L[0].h * N->L[0].w))
        N->L[0].fbuf = (uint32_t)(N->L[0].h * N->L[0].w); /* the CPU loads the input linearly: it must fit */
}

static void free_net(net_t *N)
{
    for (int i = 0; i < N->nl; i++) free(N->L[i].wt);
}

/* oneshot_pct: share of networks run in oneshot mode (draw_net's own choice when negative); kind: NET_* bits. */
static int gen_nets(program_t *p, uint64_t seed, int count, int minl, int maxl, int maxplane, int maxch,
                    int oneshot_pct, unsigned kind)
{
    rng_t r;
    rng_seed_stream(&r, seed, "max78000.net");
    for (int k = 0; k < count; k++) {
        net_t N;
        draw_net(&r, &N, minl, maxl, maxplane, maxch, kind);
        if (oneshot_pct >= 0) {
            N.oneshot = rng_chance(&r, (unsigned)oneshot_pct);
            N.ctrl[N.master] =
                (N.ctrl[N.master] & ~MAX78000_CTRL_ONESHOT_MASK) | (N.oneshot ? MAX78000_CTRL_ONESHOT_MASK : 0);
        }
        char tag[32];
        snprintf(tag, sizeof tag, "net%d", k);
        emit_net(p, &r, &N, tag);
        free_net(&N);
    }
    return 0;
}

int m7_net_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 1, MAX_LAYERS, 10, MAX_CH, -1, 0);
}

int m7_net_random_multi(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 3, 1, 3, 8, 12, -1, 0);
}

int m7_net_small(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 1, 2, 6, 8, -1, 0);
}

/* Planes up to 20 wide and high (net_random stays within 10): windows far into wide rows, long row walks, input
 * words spread over more of the data memory. */
int m7_net_wide(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 1, 2, 20, 8, -1, 0);
}

int m7_net_oneshot(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 2, 3, 6, 8, 100, 0);
}

/* 1-D convolutions (D18, D33): planes one column wide up to 24 rows, T x 1 kernels with T = 1..9, row padding
 * 0..3, pooling down the rows; random oned_sad makes a mask step's T slots cross MRAM words (D32). */
int m7_net_oned(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 1, 3, 24, 12, -1, NET_ONED);
}

/* Up to 64 input channels in the first layer (net_random stays within 20) on planes up to 6x6: layers whose
 * processors fill all four quadrants (more than 48 channels in HWC), as the SDK's networks have. */
int m7_net_many_ch(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 1, 2, 6, 64, -1, 0);
}

/* Several visible writes per output pixel (D36, D41): every writing quadrant stores its totals, the
 * non-collecting ones 0x400 words above the collector's, on planes up to 8x8 with up to 20 channels. */
int m7_net_spread(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 1, 3, 8, MAX_CH, -1, NET_SPREAD);
}

/* The ideal engine's cycles of a layer (one output pixel of one output channel per cycle per input pass): our
 * engine runs close to it, never below. */
static uint64_t layer_ideal(const gl_t *l) { return (uint64_t)l->cout * (uint64_t)(l->ho * l->wo) * l->X; }

/* Spec 4, Stop [M2]: "writing cnn_en=0 to the master during a run aborts it after the current layer, without
 * setting cnn_irq; the next start begins at layer 0". A 2-4 layer network: one oneshot start first (layer 0, so
 * that a oneshot start would now run layer 1), then the whole network, stopped by clearing the master's cnn_en at
 * a random point within the ideal engine's cycles of the run (ours is never faster, so the stop lands in some
 * layer, the last one included); the testbench takes the engine's layer when the stop reaches it, and the golden
 * model re-runs the run up to that layer. Then oneshot starts again from layer 0 through the whole network. The
 * check after the stop fails if the run is still going (not stopped after the current layer), if irq rose, or if
 * a later layer wrote anything. */
int m7_net_stop(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "max78000.stop");
    net_t N;
    draw_net(&r, &N, 2, MAX_LAYERS, 8, 12, 0);
    N.oneshot = true;
    N.ctrl[N.master] |= MAX78000_CTRL_ONESHOT_MASK;
    uint64_t whole_run = 0, longest = 0;
    for (int i = 0; i < N.nl; i++) {
        whole_run += layer_ideal(&N.L[i]);
        if (layer_ideal(&N.L[i]) > longest) longest = layer_ideal(&N.L[i]);
    }
    uint32_t at = rng_below(&r, (uint32_t)whole_run);
    char tag[64];
    snprintf(tag, sizeof tag, "stop %u cycles into the whole network", at);
    net_setup(p, &r, &N, tag);
    uint32_t final[4], whole[4];
    m7_start(p, N.ctrl, N.master, final); /* layer 0 alone */
    m7_isr(p, final, 4 * layer_cycles(&N.L[0]) + 20000);
    prog_idle(p, 16);
    memcpy(whole, N.ctrl, sizeof whole);
    whole[N.master] &= ~MAX78000_CTRL_ONESHOT_MASK;
    m7_start(p, whole, N.master, final);
    if (at) prog_idle(p, at);
    m7_wr(p, m7_quad_addr(N.master, MAX78000_CTRL_OFF), final[N.master] & ~1u);
    prog_idle(p, 2 * longest + 400); /* the current layer ends, the run stops there */
    for (unsigned q = 0; q < 4; q++) m7_wr(p, m7_quad_addr(q, MAX78000_CTRL_OFF), final[q] & ~0x1001u);
    prog_check_golden(p);
    m7_start(p, N.ctrl, N.master, final);
    oneshot_layers(p, &N, final);
    net_unload(p, &r, &N);
    free_net(&N);
    return 0;
}

/* Streaming (2.4) with layer 0's input loaded into memory instead of a FIFO: 1-3 layers, layers 0..n-1 stream
 * through circular buffers, layer 0's buffer holds its whole input. ai8xize asks for a FIFO here (`--allow-streaming`
 * is "unsupported"), but the spec allows it: the outputs must equal the network's without streaming. */
int m7_net_stream_mem(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 1, 3, 8, 12, 0, NET_STREAM_MEM);
}

/* FIFO streaming (D46, 2.4) with the host far ahead of layer 0: a tall plane (28-44 rows of 10-16 words, one FIFO)
 * pooled by 4x3 or 4x4 windows at stride 1, so the pool phase needs 12-16 cycles per new word while the host pushes
 * one per FIFO_STAT poll and write (about 7 cycles on our RTL); FBUF[0] is ai8xize's or (70 %) smaller, down to one
 * window. The drain then writes words more than FBUF[0] ahead of the oldest one layer 0 has not read: their
 * wrapped copies in data memory overwrite it, and only the logical frame still holds it (net_m3's planes of at
 * most 8x8 never get that far ahead). */
int m7_net_fifo_ahead(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 1, 2, 8, 12, 0, NET_FIFO_AHEAD);
}

/* Processor masks (mask_en): every layer's disabled processors hold random kernels at the layer's MRAM words
 * (masked_weights); a product of a masked processor that entered a sum would change the output. Networks of
 * 1-3 layers on planes up to 8x8 with up to 12 channels, so most processors of a quadrant are masked. */
int m7_net_masked(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 1, 3, 8, 12, -1, NET_MASKED);
}

/* M3 features (issue 21): layers with element-wise add/sub/or/xor of 2-4 operands (pooled before or after the
 * operation, feeding a convolution or written as timeslots), pass-through layers, ConvTranspose2d up-sampling,
 * and layer-0 input through a FIFO with FIFO_STAT polls (D46), several of them in one network of 1-3 layers. */
int m7_net_m3(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return gen_nets(p, seed, 1, 1, 3, 8, 12, -1, NET_M3);
}
