/* MAX78000 golden model: one layer of a run (spec section 3; summary loop in 3.13).
 * All quadrants' partial sums are computed from the memory as it was before the layer (D27), then the
 * writing quadrants store their totals in the order 3, 2, 1, 0 so the lowest-numbered one wins (D41). */
#include "max78000_layer.h"
#include "max78000_regs.h"
#include "max78000_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned qb_of_mask_size[4] = {8, 1, 2, 4};

void max78000_layer_params(const max78000_t *m, unsigned q, unsigned y, max78000_lp_t *lp)
{
    const max78000_quad_t *Q = &m->q[q];
    uint32_t rcnt = Q->lreg[MAX78000_LR_RCNT][y], ccnt = Q->lreg[MAX78000_LR_CCNT][y];
    uint32_t oned = Q->lreg[MAX78000_LR_ONED][y], lc0 = Q->lreg[MAX78000_LR_LCTRL0][y];
    uint32_t post = Q->lreg[MAX78000_LR_POST][y], en = Q->lreg[MAX78000_LR_EN][y];
    uint32_t mcnt = Q->lreg[MAX78000_LR_MCNT][y], lc1 = Q->lctrl1[y], ctrl = Q->ctrl;
    memset(lp, 0, sizeof *lp);

    bool cpad_only = REG_GET(lc0, MAX78000_LCTRL0_CPAD_ONLY); /* D24 */
    lp->rpad = cpad_only ? 0 : (int)REG_GET(rcnt, MAX78000_RCNT_RPAD);
    lp->cpad = (int)REG_GET(ccnt, MAX78000_CCNT_CPAD);
    lp->H_in = (int)REG_GET(rcnt, MAX78000_RCNT_RMAX) + 1 - 2 * lp->rpad;
    lp->W_in = (int)REG_GET(ccnt, MAX78000_CCNT_CMAX) + 1 - 2 * lp->cpad;

    bool gpool = REG_GET(ctrl, MAX78000_CTRL_POOL_EN); /* D14 */
    lp->pool = gpool || REG_GET(lc0, MAX78000_LCTRL0_POOL_EN);
    lp->maxpool = (gpool && REG_GET(ctrl, MAX78000_CTRL_CALCMAX)) || REG_GET(lc0, MAX78000_LCTRL0_MAXPL_EN);
    lp->poolrnd = REG_GET(ctrl, MAX78000_CTRL_POOLRND);
    lp->ph = lp->pool ? (int)REG_GET(Q->lreg[MAX78000_LR_PRCNT][y], MAX78000_PRCNT_PRCNT) + 1 : 1;
    lp->pw = lp->pool ? (int)REG_GET(Q->lreg[MAX78000_LR_PCCNT][y], MAX78000_PCCNT_PCCNT) + 1 : 1;
    lp->st = (int)REG_GET(Q->lreg[MAX78000_LR_STRIDE][y], MAX78000_STRIDE_STRIDE) + 1;
    lp->H_p = lp->H_in >= lp->ph ? (lp->H_in - lp->ph) / lp->st + 1 : 0;
    lp->W_p = lp->W_in >= lp->pw ? (lp->W_in - lp->pw) / lp->st + 1 : 0;

    unsigned width = REG_GET(oned, MAX78000_ONED_ONED_WIDTH); /* D18 */
    if (REG_GET(oned, MAX78000_ONED_ONED_EN)) {
        lp->T = width;
        lp->kh = (int)width;
        lp->kw = 1;
    } else if (width == 1) {
        lp->T = 1;
        lp->kh = lp->kw = 1;
    } else {
        lp->T = 9;
        lp->kh = lp->kw = 3;
    }
    lp->osad = REG_GET(oned, MAX78000_ONED_ONED_SAD);
    lp->H_out = lp->H_p + 2 * lp->rpad - lp->kh + 1;
    lp->W_out = lp->W_p + 2 * lp->cpad - lp->kw + 1;

    lp->qb = qb_of_mask_size[REG_GET(post, MAX78000_POST_MASK_SIZE)];
    unsigned xp = REG_GET(post, MAX78000_POST_FLATTEN_EN) ? REG_GET(post, MAX78000_POST_XPMP_CNT) : 0;
    lp->X = (xp << 4 | REG_GET(lc1, MAX78000_LCTRL1_INPCHEXP)) + 1;
    lp->mcnt_sad = REG_GET(mcnt, MAX78000_MCNT_MCNT_SAD);
    uint32_t mmax = REG_GET(mcnt, MAX78000_MCNT_MCNT_MAX);
    lp->NK = mmax >= lp->mcnt_sad ? ((mmax - lp->mcnt_sad) / lp->qb + 1) / lp->X : 0; /* D31 */
    lp->S = REG_GET(lc1, MAX78000_LCTRL1_XPCH_MAX) / lp->qb + 1;
    lp->ewise = REG_GET(oned, MAX78000_ONED_EWISE_EN);
    lp->Nop = lp->ewise ? REG_GET(oned, MAX78000_ONED_EWISE_CNT) + 1 : 1;
    lp->ewise_func = REG_GET(oned, MAX78000_ONED_EWISE_FUNC);
    lp->prepool = REG_GET(oned, MAX78000_ONED_PREPOOL);
    lp->conv2d = REG_GET(oned, MAX78000_ONED_CONV2D_EN);
    lp->chw = REG_GET(lc0, MAX78000_LCTRL0_PARALLEL) || REG_GET(ctrl, MAX78000_CTRL_BIGDATA);

    lp->mask_en = (uint16_t)REG_GET(en, MAX78000_EN_MASK_EN);
    lp->pro_en = (uint16_t)REG_GET(en, MAX78000_EN_PRO_EN);
    lp->cnnsi = REG_GET(lc0, MAX78000_LCTRL0_CNNSI_EN);
    lp->writes = lp->pro_en != 0 || lp->cnnsi != 0; /* D36 */
    lp->bias_en = REG_GET(post, MAX78000_POST_BPTR_EN);
    lp->bptr_sad = REG_GET(post, MAX78000_POST_BPTR_SAD);
    lp->deconv = REG_GET(post, MAX78000_POST_DECONV_EN);
    /* 3.11: pass-through (onexone_en) and element-wise without convolution (ai8xize writes ts_en alone
     * there: eltwiseadd, eltwisesub, mpadd-*) are both written as timeslots */
    lp->passthru = REG_GET(post, MAX78000_POST_TS_EN) && lp->mask_en == 0 &&
                   (REG_GET(post, MAX78000_POST_ONEXONE_EN) || (lp->ewise && !lp->conv2d));

    lp->bigdwrt = REG_GET(lc0, MAX78000_LCTRL0_BIGDWRT);
    lp->relu = REG_GET(lc0, MAX78000_LCTRL0_ACT_EN);
    lp->out_abs = REG_GET(post, MAX78000_POST_OUT_ABS);
    int sr = (int)REG_GET(post, MAX78000_POST_SCALE_REG);
    lp->s = REG_GET(post, MAX78000_POST_SCALE_SHFT) ? -sr : sr; /* D25 */
    lp->wbase = Q->lreg[MAX78000_LR_WPTR_BASE][y];
    lp->toff = Q->lreg[MAX78000_LR_WPTR_TOFF][y];
    lp->moff = Q->lreg[MAX78000_LR_WPTR_MOFF][y];
    lp->choff = Q->lreg[MAX78000_LR_WPTR_CHOFF][y];
    lp->rptr = Q->lreg[MAX78000_LR_RPTR_BASE][y] & 0x1FFF; /* D21 */
    lp->inc = REG_GET(lc1, MAX78000_LCTRL1_WPTR_INC);
    bool circ = (ctrl & MAX78000_CTRL_STREAM_EN_MASK) && (ctrl & MAX78000_CTRL_LILBUF_MASK); /* 2.4 */
    lp->roll = circ && y < MAX78000_NSTREAM ? Q->fbuf[y] & 0x1FFFFu : 0;
    lp->roll_next = circ && y + 1 < MAX78000_NSTREAM ? Q->fbuf[y + 1] & 0x1FFFFu : 0;
    lp->valid = lp->H_p > 0 && lp->W_p > 0 && lp->H_out > 0 && lp->W_out > 0 && lp->T > 0;
}

int max78000_weight(const max78000_t *m, unsigned p, const max78000_lp_t *lp, uint32_t A, unsigned t)
{
    uint32_t B = (A >> 3) * lp->T + lp->osad + (lp->T - 1 - t); /* D32 */
    uint32_t w = B / 9, s = B % 9, b = A & 7;
    if (w >= MAX78000_MRAM_WORDS) return 0;
    unsigned v = (m->q[p >> 4].mram[p & 15][w][s] >> b) & ((1u << lp->qb) - 1);
    return (v & (1u << (lp->qb - 1))) ? (int)v - (1 << lp->qb) : (int)v;
}

int64_t max78000_avg(int64_t tsum, int64_t n, bool poolrnd)
{
    int64_t a = tsum < 0 ? -tsum : tsum;
    int64_t r = poolrnd ? (2 * a + n) / (2 * n) : a / n; /* D34 */
    return tsum < 0 ? -r : r;
}

int max78000_out8(int64_t total, int s, bool out_abs, bool relu)
{
    int kk = 7 - s;
    int64_t v = kk > 0 ? (total + ((int64_t)1 << (kk - 1))) >> kk : total * ((int64_t)1 << -kk);
    if (v > 127) v = 127;
    if (v < -128) v = -128;
    if (out_abs) v = v < 0 ? (v == -128 ? 127 : -v) : v; /* D39: abs wins over ReLU */
    else if (relu && v < 0) v = 0;
    return (int)v;
}

/* Byte that processor p reads for pass e, operand o, pixel n (3.2). */
static int in_val(const max78000_t *m, const max78000_lp_t *lp, unsigned p, unsigned e, unsigned o, int n)
{
    uint32_t idx, lane, w;
    if (lp->chw) {
        idx = (uint32_t)(n >> 2) * lp->X + e;
        lane = (uint32_t)n & 3;
    } else {
        idx = ((uint32_t)n * lp->X + e) * lp->Nop + o;
        lane = p & 3;
    }
    /* a circular input buffer: the logical frame the previous layer (or the FIFO) wrote, 2.4 */
    if (!lp->roll || !max78000_sbuf_get(&m->lin[p >> 2], idx, &w))
        w = m->dmem[p >> 2][(lp->rptr + (lp->roll ? idx % lp->roll : idx)) & (MAX78000_DMEM_WORDS - 1)];
    return (int8_t)(w >> (8 * lane));
}

static int clamp8(int64_t v) { return v > 127 ? 127 : v < -128 ? -128 : (int)v; }

/* Element-wise combination of operand values (3.11, M3, unverified). */
static int combine(const max78000_lp_t *lp, const int *v)
{
    int64_t acc = v[0];
    for (unsigned o = 1; o < lp->Nop; o++) {
        switch (lp->ewise_func) {
        case 0: acc -= v[o]; break;
        case 1: acc += v[o]; break;
        case 2: acc = (int8_t)(uint8_t)((uint8_t)acc | (uint8_t)v[o]); break;
        default: acc = (int8_t)(uint8_t)((uint8_t)acc ^ (uint8_t)v[o]); break;
        }
    }
    return clamp8(acc);
}

/* Pre-pool value at pixel n: operand o, or the combined operands when combining before pooling. */
static int pre_val(const max78000_t *m, const max78000_lp_t *lp, unsigned p, unsigned e, unsigned o, int n)
{
    if (!lp->ewise || lp->prepool || lp->Nop == 1) return in_val(m, lp, p, e, o, n);
    int v[16];
    for (unsigned i = 0; i < lp->Nop; i++) v[i] = in_val(m, lp, p, e, i, n);
    return combine(lp, v);
}

static int pool_val(const max78000_t *m, const max78000_lp_t *lp, unsigned p, unsigned e, unsigned o, int yy, int xx)
{
    int64_t best = -1000, sum = 0;
    for (int dy = 0; dy < lp->ph; dy++)
        for (int dx = 0; dx < lp->pw; dx++) {
            int r = yy * lp->st + dy, c = xx * lp->st + dx, v;
            if (!lp->deconv) v = pre_val(m, lp, p, e, o, r * lp->W_in + c);
            else /* 3.5: the 2x up-sampled plane, memory holds its even rows and columns */
                v = (r & 1) || (c & 1) ? 0 : pre_val(m, lp, p, e, o, (r >> 1) * (lp->W_in >> 1) + (c >> 1));
            if (v > best) best = v;
            sum += v;
        }
    if (lp->maxpool || lp->ph * lp->pw == 1) return (int)best;
    return (int)max78000_avg(sum, lp->ph * lp->pw, lp->poolrnd);
}

/* xp(p, e, yy, xx) of 3.6, with element-wise operands combined (3.11). */
static int xp_val(const max78000_t *m, const max78000_lp_t *lp, unsigned p, unsigned e, int yy, int xx)
{
    if (!lp->ewise || !lp->prepool || lp->Nop == 1) return pool_val(m, lp, p, e, 0, yy, xx);
    int v[16];
    for (unsigned o = 0; o < lp->Nop; o++) v[o] = pool_val(m, lp, p, e, o, yy, xx);
    return combine(lp, v);
}

/* part_q(k, K) for all (k, K): NK x npix entries, K-major (3.7, 3.8). NULL on allocation failure. */
static int64_t *compute_part(max78000_t *m, unsigned q, const max78000_lp_t *lp, int npix)
{
    int64_t *part = calloc((size_t)lp->NK * (size_t)npix + 1, sizeof *part);
    if (!part) return NULL;
    int np = lp->H_p * lp->W_p;
    for (unsigned i = 0; i < 16; i++) {
        if (!(lp->mask_en & (1u << i))) continue;
        unsigned p = 16 * q + i;
        int16_t *xp = malloc(sizeof *xp * (size_t)lp->X * (size_t)np + 1);
        int8_t *wt = malloc((size_t)lp->NK * lp->X * lp->T + 1);
        if (!xp || !wt) {
            free(xp);
            free(wt);
            free(part);
            return NULL;
        }
        for (unsigned e = 0; e < lp->X; e++)
            for (int yy = 0; yy < lp->H_p; yy++)
                for (int xx = 0; xx < lp->W_p; xx++)
                    xp[(size_t)e * np + yy * lp->W_p + xx] = (int16_t)xp_val(m, lp, p, e, yy, xx);
        for (unsigned K = 0; K < lp->NK; K++)
            for (unsigned e = 0; e < lp->X; e++)
                for (unsigned t = 0; t < lp->T; t++)
                    wt[((size_t)K * lp->X + e) * lp->T + t] =
                        (int8_t)max78000_weight(m, p, lp, lp->mcnt_sad + (K * lp->X + e) * lp->qb, t);
        for (unsigned K = 0; K < lp->NK; K++)
            for (int oy = 0; oy < lp->H_out; oy++)
                for (int ox = 0; ox < lp->W_out; ox++) {
                    int64_t acc = 0;
                    for (unsigned e = 0; e < lp->X; e++) {
                        const int8_t *w = &wt[((size_t)K * lp->X + e) * lp->T];
                        const int16_t *x = &xp[(size_t)e * np];
                        for (int ky = 0; ky < lp->kh; ky++) {
                            int iy = oy + ky - lp->rpad;
                            if (iy < 0 || iy >= lp->H_p) continue;
                            for (int kx = 0; kx < lp->kw; kx++) {
                                int ix = ox + kx - lp->cpad;
                                if (ix >= 0 && ix < lp->W_p) acc += (int64_t)w[ky * lp->kw + kx] * x[iy * lp->W_p + ix];
                            }
                        }
                    }
                    part[(size_t)K * npix + oy * lp->W_out + ox] += acc;
                }
        m->macs += (uint64_t)lp->NK * lp->X * lp->T * (uint64_t)npix;
        free(xp);
        free(wt);
    }
    if (lp->bias_en) /* D35 */
        for (unsigned K = 0; K < lp->NK; K++) {
            int64_t b = 128 * (int64_t)(int8_t)m->q[q].bram[(lp->bptr_sad + K) % MAX78000_BRAM_BYTES];
            for (int k = 0; k < npix; k++) part[(size_t)K * npix + k] += b;
        }
    return part;
}

/* Output word `off` (counted from the layer's pointer `base`, 3.10) in the byte lanes `lanes`. When the
 * next layer reads a circular buffer (2.4), the offset wraps at its FBUF inside base's memory and the
 * logical word is kept for that layer (ai8x-synthesis apbaccess.py: rollover of the next layer). */
static void store_out(max78000_t *m, const max78000_lp_t *L, uint32_t base, uint32_t off, unsigned lanes, uint32_t v)
{
    uint32_t ptr;
    if (L->roll_next) {
        ptr = (base & 0x1E000u) | ((base + off % L->roll_next) & 0x1FFFu);
        max78000_sbuf_put(&m->lout[(base >> 13) & 15], off, lanes, v);
    } else ptr = (base + off) & 0x1FFFFu;
    unsigned g = ptr >> 13, w = ptr & 0x1FFF;
    uint32_t bm = max78000_lanes_bm(lanes);
    m->dmem[g][w] = (m->dmem[g][w] & ~bm) | (v & bm);
    m->dwritten[g][w] |= (uint8_t)lanes;
}

/* Pass-through (3.11): pooled/combined values written to timeslots. The output processors are the input
 * processors packed (ai8xize: "the output processors for a pass-through layer must be a packed version of
 * the input processors for each x16"): the j-th enabled processor of the quadrant writes lane j & 3 of
 * timeslot j >> 2 (passthrough-2: processors 0, 4, 8, 12 fill lanes 0-3 of one word). */
static void passthru(max78000_t *m, unsigned q, const max78000_lp_t *lp)
{
    unsigned j = 0;
    for (int i = 0; i < 16; i++) {
        if (!(lp->pro_en & (1u << i))) continue;
        uint32_t t = j >> 2;
        unsigned lane = j & 3;
        j++;
        for (int k = 0; k < lp->H_p * lp->W_p; k++)
            for (unsigned e = 0; e < lp->X; e++) {
                int v = xp_val(m, lp, 16 * q + (unsigned)i, e, k / lp->W_p, k % lp->W_p);
                store_out(m, lp, lp->wbase + t * lp->toff, ((uint32_t)k * lp->X + e) * (lp->inc + 1), 1u << lane,
                          (uint32_t)(uint8_t)v << (8 * lane));
            }
    }
}

static void note(max78000_t *m, const char *what, unsigned q, unsigned y)
{
    if (!m->unsupported[0]) snprintf(m->unsupported, sizeof m->unsupported, "layer %u quadrant %u: %s", y, q, what);
}

void max78000_run_layer(max78000_t *m, unsigned y)
{
    max78000_lp_t lp[MAX78000_NQUAD];
    int64_t *part[MAX78000_NQUAD] = {0};
    int npix[MAX78000_NQUAD];
    bool need[MAX78000_NQUAD] = {false};
    y &= 31;
    for (unsigned q = 0; q < MAX78000_NQUAD; q++) {
        max78000_layer_params(m, q, y, &lp[q]);
        npix[q] = lp[q].valid ? lp[q].H_out * lp[q].W_out : 0;
        uint32_t lc0 = m->q[q].lreg[MAX78000_LR_LCTRL0][y];
        if (REG_GET(lc0, MAX78000_LCTRL0_MSLAVE) || REG_GET(lc0, MAX78000_LCTRL0_SSLAVE))
            note(m, "mslave/sslave set (undefined, D24)", q, y);
        if (lp[q].ewise && !lp[q].conv2d && !lp[q].passthru)
            note(m, "element-wise without conv2d_en or pass-through (M3)", q, y);
    }
    for (unsigned q = 0; q < MAX78000_NQUAD; q++) {
        if (!lp[q].writes || lp[q].passthru) continue;
        need[q] = true;
        for (unsigned t = 0; t < MAX78000_NQUAD; t++)
            if (t != q && (lp[q].cnnsi & (1u << t))) /* D23 */
                need[t] = true;
    }
    /* Every part is computed before any write: the layer reads only the data present before it (D27). */
    for (unsigned q = 0; q < MAX78000_NQUAD; q++)
        if (need[q] && !lp[q].passthru) {
            part[q] = compute_part(m, q, &lp[q], npix[q]);
            if (!part[q]) {
                note(m, "out of memory", q, y);
                goto out;
            }
        }
    /* qupac (--fast-fifo-quad, ai8x-synthesis kernels.py): every quadrant holds layer 0's input and a quarter of
     * its kernels, channels q, q+4, q+8, ... in its local slots 0, 1, 2, ...; no quadrant sums another's
     * (ai8xize clears cnnsi_en). Local slot K of quadrant q goes to lane q of the word of slot 4K: pass 4K / S,
     * slot 4K % S + q, which is channel 4K+q's place whenever a pass holds a multiple of 4 slots. Where it does
     * not (S = 15: fifostream-pool-stride-hwc), the padding slot past the last channel then lands in an unused
     * lane; "channel 4K+q's place" would put it on channel 0 of the next pass, the same byte as channel 0 there
     * (WPTR_CHOFF 0), written after it (the engine runs K in time), and the known answer says that does not
     * happen. */
    const bool quad = y == 0 && max78000_qupac(m);
    /* Snapshot semantics for pass-through layers too: take their values first. */
    for (int q = MAX78000_NQUAD - 1; q >= 0; q--) {
        const max78000_lp_t *L = &lp[q];
        if (!L->writes) continue;
        if (L->passthru) {
            passthru(m, (unsigned)q, L);
            continue;
        }
        for (unsigned K = 0; K < L->NK; K++) {
            unsigned P = quad ? 4 * K / L->S : K / L->S, j = quad ? 4 * K % L->S + (unsigned)q : K % L->S;
            for (int k = 0; k < npix[q]; k++) {
                int64_t total = part[q][(size_t)K * npix[q] + k];
                for (unsigned t = 0; t < MAX78000_NQUAD; t++)
                    if (t != (unsigned)q && (L->cnnsi & (1u << t)) && part[t] && K < lp[t].NK && k < npix[t])
                        total += part[t][(size_t)K * npix[t] + k];
                uint32_t base = L->wbase + (j >> 2) * L->moff;
                if (L->bigdwrt) /* D38 */
                    store_out(m, L, base, 4u * (uint32_t)k * (L->inc + 1) + P * L->choff + (j & 3), 0xF,
                              (uint32_t)total);
                else
                    store_out(m, L, base, (uint32_t)k * (L->inc + 1) + P * L->choff, 1u << (j & 3),
                              (uint32_t)(uint8_t)max78000_out8(total, L->s, L->out_abs, L->relu) << (8 * (j & 3)));
            }
        }
    }
out:
    for (unsigned q = 0; q < MAX78000_NQUAD; q++) free(part[q]);
    m->layers_run++;
}
