/* FP16 direct convolution (conv_fp16.h): NVIDIA's C model step by step with the same bit widths
 * (cmod/cmac/NV_NVDLA_cmac.h calculation_fp16, cmod/cacc/NV_NVDLA_cacc.cpp cacc_fp16_add and cacc_fp48_to_fp32 with
 * the 48-bit adder, FP16_MLEN 40, NV_NVDLA_cacc.h:38), checked against nv_full's RTL (docs/nvdla_nv_full.md,
 * "FP16 convolution"), which decides the one place they differ (a negative sum's rounding carry, below).
 * sc_int<n> / sc_uint<n> variables wrap at n bits: `sx()` and the masks do the same here. */
#include "conv_fp16.h"
#include <stdbool.h>

#define M40 ((1ull << 40) - 1)

static int64_t sx(uint64_t v, unsigned n) { return (int64_t)(v << (64 - n)) >> (64 - n); }
static unsigned bit(uint64_t v, unsigned i) { return (unsigned)(v >> i) & 1; }
static bool zero16(uint16_t v) { return (v & 0x7FFF) == 0; } /* CSC's mask: +0 and -0 are skipped (csc.cpp:911) */
static bool nan16(uint16_t v) { return ((v >> 10) & 0x1F) == 0x1F && (v & 0x3FF); }

/* cal_fp16_booth (cmac.h:433): the mantissa product by radix-4 Booth digits (the sign folded into the digits), the
 * partial products reduced by a carry-save tree to two vectors, each shifted right by the alignment before they
 * are added (so a product may lose one unit more than a plain truncation), plus the sign-extension constant. */
static int32_t booth(unsigned neg, uint32_t wt, uint32_t dat, uint32_t sft)
{
    if (sft >= 32) return 0;
    const uint32_t rev = neg ? 7 : 0;
    uint32_t pp[8], inv[8], csa[10];
    wt <<= 1;
    for (int i = 0; i < 8; i++) {
        const uint32_t code = (wt & 7) ^ rev;
        wt >>= 2;
        switch (code) {
        case 0:
        case 7: pp[i] = 0x10000, inv[i] = 0; break;
        case 1:
        case 2: pp[i] = dat | 0x10000, inv[i] = 0; break;
        case 3: pp[i] = (dat << 1) | 0x10000, inv[i] = 0; break;
        case 4: pp[i] = ~(dat << 1) & 0xffff, inv[i] = 1; break;
        default: pp[i] = ~dat & 0xffff, inv[i] = 1; break; /* 5, 6 */
        }
    }
    csa[0] = pp[0];
    csa[1] = (pp[1] << 2) | inv[0];
    csa[2] = (pp[2] << 4) | (inv[1] << 2);
    csa[3] = (pp[3] << 6) | (inv[2] << 4);
    csa[4] = inv[3] << 6;
    csa[5] = pp[4] << 8;
    csa[6] = (pp[5] << 10) | (inv[4] << 8);
    csa[7] = (pp[6] << 12) | (inv[5] << 10);
    csa[8] = (pp[7] << 14) | (inv[6] << 12);
    csa[9] = inv[7] << 14;
    for (int i = 0; i < 3; i++) { /* two trees of five, then one of four (cmac.h:520-550) */
        int cur = i == 2 ? 4 : 5, st = i == 1 ? 5 : 0;
        if (i == 2) csa[2] = csa[5], csa[3] = csa[6];
        while (cur >= 3) {
            const int groups = cur / 3;
            for (int j = 0; j < groups; j++) {
                const uint32_t a = csa[st + j * 3], b = csa[st + j * 3 + 1], c = csa[st + j * 3 + 2];
                csa[st + j * 2] = a ^ b ^ c;
                csa[st + j * 2 + 1] = ((a & b) | (b & c) | (a & c)) << 1;
            }
            for (int j = groups * 3; j < cur; j++) csa[st + j - groups] = csa[st + j];
            cur -= groups;
        }
    }
    static const uint32_t comp[8] = {0xaaab0000, 0xfaaab000, 0xffaaab00, 0xfffaaab0,
                                     0xffffaaab, 0xfffffaab, 0xffffffab, 0xfffffffb};
    const uint32_t sum = (csa[0] >> sft) + (csa[1] >> sft) + comp[sft / 4];
    return (int32_t)sum;
}

bool conv_fp16_nan(const uint16_t dat[CONV_FP16_CELL], const uint16_t wt[CONV_FP16_CELL], uint64_t *result)
{
    /* cal_fp16_nan (cmac.h:301): the first NaN weight by channel, else the first NaN data, is the result */
    for (int pass = 0; pass < 2; pass++)
        for (unsigned c = 0; c < CONV_FP16_CELL; c++) {
            const uint16_t v = pass ? dat[c] : wt[c];
            if (nan16(v)) {
                *result = 0x3full << 38 | (uint64_t)(v >> 15) << 37 | (uint64_t)(v & 0x3FF) << 27;
                return true;
            }
        }
    return false;
}

uint32_t conv_fp16_products(const uint16_t dat[CONV_FP16_CELL], const uint16_t wt[CONV_FP16_CELL],
                            int32_t prod[CONV_FP16_CELL])
{
    /* cal_fp16_exp (cmac.h:387): exponents in groups of 4; the low two bits (1 for a denormal) shift the mantissa */
    uint32_t sum[CONV_FP16_CELL], dsh[CONV_FP16_CELL], wsh[CONV_FP16_CELL], max = 0;
    for (unsigned c = 0; c < CONV_FP16_CELL; c++) {
        const uint32_t de = (dat[c] >> 10) & 0x1F, we = (wt[c] >> 10) & 0x1F;
        if (zero16(dat[c]) || zero16(wt[c])) {
            sum[c] = dsh[c] = wsh[c] = 0;
        } else {
            dsh[c] = de ? de & 3 : 1, wsh[c] = we ? we & 3 : 1;
            sum[c] = (de >> 2) + (we >> 2);
        }
        if (sum[c] > max) max = sum[c];
    }
    /* cal_fp16_mul (cmac.h:591): each product aligned to the largest exponent */
    for (unsigned c = 0; c < CONV_FP16_CELL; c++) {
        prod[c] = 0;
        if (zero16(dat[c]) || zero16(wt[c])) continue;
        const uint32_t wm = ((uint32_t)(wt[c] & 0x3FF) | (((wt[c] >> 10) & 0x1F) ? 0x400u : 0)) << wsh[c];
        const uint32_t dm = ((uint32_t)(dat[c] & 0x3FF) | (((dat[c] >> 10) & 0x1F) ? 0x400u : 0)) << dsh[c];
        prod[c] = booth((wt[c] ^ dat[c]) >> 15, wm, dm, (max - sum[c]) << 2);
    }
    return (max << 2) & 0x3F;
}

uint64_t conv_fp16_cell(const uint16_t dat[CONV_FP16_CELL], const uint16_t wt[CONV_FP16_CELL])
{
    uint64_t nan;
    if (conv_fp16_nan(dat, wt, &nan)) return nan;
    int32_t prod[CONV_FP16_CELL];
    const uint32_t exp = conv_fp16_products(dat, wt, prod);
    int64_t acc = 0; /* the adder tree (cmac.h:734-741): exact integer sums of the products */
    for (unsigned c = 0; c < CONV_FP16_CELL; c++) acc += prod[c];
    return (uint64_t)exp << 38 | ((uint64_t)acc & ((1ull << 38) - 1));
}

uint64_t conv_fp16_acc_add(uint64_t acc, uint64_t cell)
{
    const uint32_t mexp = (uint32_t)(cell >> 38) & 0x3F, aexp0 = (uint32_t)(acc >> 40) & 0xFF;
    const int64_t mm = sx(cell, 38), am = sx(acc, 40);
    if (mm == 0) return acc;                                                         /* cacc.cpp:1322 */
    if (aexp0 == 0xFF) return 0xFFull << 40 | ((uint64_t)am & (0x7FFull << 29));     /* :1327, a NaN stays */
    if (mexp == 0x3F) return 0xFFull << 40 | ((uint64_t)mm & (0x7FFull << 27)) << 2; /* :1335 */
    /* normalise the cell's sum: shift left until bit 36 differs from the sign (:1342-1351) */
    int i = 36;
    if (bit((uint64_t)mm, 37) == bit((uint64_t)mm, 36))
        for (i = 36; i >= 0 && bit((uint64_t)mm, (unsigned)i) == bit((uint64_t)mm, 37); i--) {}
    const int n0 = 36 - i;
    int64_t mext = sx((uint64_t)mm << n0, 38) * 4; /* 40 bits, two zero bits below */
    const int mexp_n = (int)((mexp - (uint32_t)n0 + 49) & 0xFF);
    const int aexp = am == 0 ? 0 : (int)aexp0;
    int64_t aext = am;
    /* align the smaller to the bigger exponent; what is shifted out is kept for the rounding (:1383-1407) */
    uint64_t out = 0; /* shift_out_bits0, 40 bits */
    int big = mexp_n;
    if (mexp_n > aexp) {
        const int d = mexp_n - aexp;
        if (d <= 40) out = ((uint64_t)aext << (40 - d)) & M40, aext >>= d;
        else aext = 0;
    } else if (mexp_n < aexp) {
        big = aexp;
        const int d = aexp - mexp_n;
        if (d <= 40) out = ((uint64_t)mext << (40 - d)) & M40, mext >>= d;
        else mext = 0;
    }
    /* add; renormalise right by one on overflow, left while bit 38 equals the sign (:1411-1436) */
    const int64_t tmp = sx((uint64_t)(aext + mext), 40);
    int64_t s;
    int exp;
    bool ovf = false;
    unsigned high1 = 0;
    const unsigned ms = bit((uint64_t)mext, 39), as = bit((uint64_t)aext, 39), ts = bit((uint64_t)tmp, 39);
    if (ms == as && ms != ts) {
        high1 = bit((uint64_t)tmp, 0), ovf = true;
        s = sx(((uint64_t)ms << 39) | (((uint64_t)tmp & M40) >> 1), 40);
        exp = big + 1;
    } else if (bit((uint64_t)tmp, 38) == ts) {
        int j;
        for (j = 38; j >= 0 && bit((uint64_t)tmp, (unsigned)j) == ts; j--) {}
        const int n1 = 38 - j;
        s = sx((((uint64_t)tmp << n1) & M40) | (out >> (40 - n1)), 40);
        out = (out << n1) & M40;
        exp = big - n1;
    } else {
        s = tmp, exp = big;
    }
    /* round (:1444-1466): the first bit shifted out; for a negative sum only above one half */
    const unsigned g0 = bit(out, 39), st0 = (out & (M40 >> 1)) != 0, st1 = out != 0, neg = bit((uint64_t)s, 39);
    const bool up = ovf ? (neg ? high1 && st1 : high1) : (neg ? g0 && st0 : g0);
    int64_t r = sx((uint64_t)s + (up ? 1 : 0), 40);
    if (bit((uint64_t)r, 39) != neg) { /* the rounding overflowed (:1474) */
        r = sx(((uint64_t)neg << 39) | (((uint64_t)r & M40) >> 1), 40);
        exp++;
    } else if (up && neg && r == -(1ll << 38)) {
        /* 10.11..1 rounded up to 11.00..0: the RTL renormalises it to 10.00..0 with the exponent less one
         * (NV_NVDLA_CACC_CALC_fp_48b.v:439-440, mant_sum_carry_neg); cmod keeps 11.00..0, the same value, whose
         * exponent then aligns the next cell's sum one step differently */
        r = -(1ll << 39), exp--;
    }
    const uint64_t e = r == 0 ? 0 : (uint64_t)exp & 0xFF;
    return e << 40 | ((uint64_t)r & M40);
}

uint32_t conv_fp16_acc_to_fp32(uint64_t acc)
{
    const uint32_t exp = (uint32_t)(acc >> 40) & 0xFF;
    const uint64_t mu = acc & M40;
    const unsigned neg = bit(mu, 39);
    if (exp == 0xFF) /* a NaN: sign and the 10 fraction bits (cacc.cpp:1521) */
        return (uint32_t)neg << 31 | 0xFFu << 23 | (uint32_t)((mu >> 29) & 0x3FF);
    if (neg && (mu & (M40 >> 1)) == 0) /* -2^39 (:1534) */
        return 1u << 31 | ((exp + 65) & 0xFF) << 23;
    /* sign and magnitude, rounded at bit 14, half away from zero (:1540-1565) */
    const uint64_t mo = neg ? (1ull << 39) | ((~mu + 1) & (M40 >> 1)) : mu;
    uint32_t e = mu == 0 ? 0 : (exp + 64) & 0xFF, frac;
    if (bit(mo, 14)) {
        uint32_t t = (uint32_t)(((mo >> 15) + 1) & 0x1FFFFFF);
        if (bit(t, 24) != bit(mo, 39)) t = (uint32_t)neg << 24 | t >> 1, e = (e + 1) & 0xFF;
        frac = t & 0x7FFFFF;
    } else {
        frac = (uint32_t)(mo >> 15) & 0x7FFFFF;
    }
    return (uint32_t)neg << 31 | e << 23 | frac;
}

/* Post-extension (image input, S = 1, C <= 64 / e): stripe j's rows j x e .. j x e + e - 1 in one cell, row i of the
 * stripe at channels i x 64 / e (cmod csc.cpp:1745-1790 assembles them so, the last stripe's missing rows and the
 * channels past C zero, data and weights); rows outside the image are CSC's pad value. */
static uint32_t post_ext_output(const conv_fp16_src_t *s, uint32_t k, uint32_t oy, uint32_t ox)
{
    const uint32_t e = s->post_rows, slot = CONV_FP16_CELL / e;
    uint64_t acc = 0;
    uint16_t dat[CONV_FP16_CELL], wt[CONV_FP16_CELL];
    for (uint32_t j = 0; j * e < s->R; j++) {
        for (uint32_t i = 0; i < CONV_FP16_CELL; i++) dat[i] = wt[i] = 0;
        for (uint32_t r = j * e; r < s->R && r < j * e + e; r++) {
            const int64_t y = (int64_t)(oy * s->sy + r) - s->pt;
            const bool pad = y < 0 || y >= s->H;
            for (uint32_t c = 0; c < s->C && c < slot; c++) {
                uint16_t *d = &dat[(r - j * e) * slot + c], *w = &wt[(r - j * e) * slot + c];
                *d = pad ? s->pad : s->data(s->ctx, c, (uint32_t)y, ox * s->sx);
                *w = s->weight(s->ctx, k, r, 0, c);
                if (s->nan_flush && nan16(*w)) *w = 0;
                if (s->nan_flush && !s->data_flushed && !pad && nan16(*d)) *d = 0;
            }
        }
        acc = conv_fp16_acc_add(acc, conv_fp16_cell(dat, wt));
    }
    return conv_fp16_acc_to_fp32(acc);
}

uint32_t conv_fp16_output(const conv_fp16_src_t *s, uint32_t k, uint32_t oy, uint32_t ox, int zero_weights)
{
    /* a kernel past the last: CSC sends no weights for it, so its cell is not enabled and delivers 0 (cmod
     * cmac.cpp:131 and :189, the cell's result stays 0; nv_full's RTL writes +0 in those lanes, a data NaN or not) */
    if (zero_weights) return 0;
    uint64_t acc = 0;
    uint16_t dat[CONV_FP16_CELL], wt[CONV_FP16_CELL];
    if (s->post_rows > 1) return post_ext_output(s, k, oy, ox);
    for (uint32_t b = 0; b * CONV_FP16_CELL < s->C; b++) /* csc.cpp:678-680: channel blocks, then kernel atoms */
        for (uint32_t r = 0; r < s->R; r++)
            for (uint32_t q = 0; q < s->S; q++) {
                const int64_t y = (int64_t)(oy * s->sy + r) - s->pt, x = (int64_t)(ox * s->sx + q) - s->pl;
                const bool pad = y < 0 || x < 0 || y >= s->H || x >= s->W;
                for (uint32_t i = 0; i < CONV_FP16_CELL; i++) {
                    const uint32_t c = b * CONV_FP16_CELL + i;
                    dat[i] = c >= s->C ? 0 : pad ? s->pad : s->data(s->ctx, c, (uint32_t)y, (uint32_t)x);
                    wt[i] = c >= s->C ? 0 : s->weight(s->ctx, k, r, q, c);
                    /* CDMA's NaN flush, data and weights alike (NV_NVDLA_CDMA_cvt.v:1951, CDMA_wt.v:6332; cmod
                     * cdma.cpp:1438 flushes the data); the padding value comes from CSC, after it */
                    if (s->nan_flush && nan16(wt[i])) wt[i] = 0;
                    if (s->nan_flush && !s->data_flushed && !pad && nan16(dat[i])) dat[i] = 0;
                }
                acc = conv_fp16_acc_add(acc, conv_fp16_cell(dat, wt));
            }
    return conv_fp16_acc_to_fp32(acc);
}
