/* NE16 driver formulas (spec ne16.md 3.7-3.9) and memory layouts (3.2-3.4). */
#include "ne16_driver.h"

#include <stdio.h>
#include <string.h>

#include "ne16_job.h"

static unsigned nb(unsigned x, unsigned t) { return (x + t - 1) / t; }
static unsigned last(unsigned x, unsigned t) { return ((x - 1) % t) + 1; }
static unsigned ksize(const ne16_layer_t *l)
{
    return l->mode == NE16_LAYER_1X1 || l->mode == NE16_LAYER_LINEAR ? 1 : 3;
}
static unsigned ko_sub(const ne16_layer_t *l) { return l->mode == NE16_LAYER_DW ? 16 : 32; }
static unsigned bits_code(unsigned bits) { return bits == 8 ? 0 : bits == 16 ? 1 : 2; }
static uint32_t hl(unsigned hi, unsigned lo) { return ((uint32_t)hi << 16) | (lo & 0xFFFFu); }

unsigned ne16_layer_eb(const ne16_layer_t *l) { return l->mode16 ? 2 : 1; }
unsigned ne16_layer_ob(const ne16_layer_t *l) { return l->out_bits / 8; }
int ne16_layer_wmin(const ne16_layer_t *l) { return l->symmetric ? -(1 << (l->qw - 1)) : l->wmin; }

unsigned ne16_layer_ho(const ne16_layer_t *l)
{
    if (l->mode == NE16_LAYER_LINEAR) return 1;
    const unsigned span = l->hi + l->pt + l->pb - ksize(l);
    return l->strided ? span / 2 + 1 : span + 1;
}

unsigned ne16_layer_wo(const ne16_layer_t *l)
{
    if (l->mode == NE16_LAYER_LINEAR) return 1;
    const unsigned span = l->wi + l->pl + l->pr - ksize(l);
    return l->strided ? span / 2 + 1 : span + 1;
}

#define FAIL(...)                                              \
    do {                                                       \
        if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
        return -1;                                             \
    } while (0)

int ne16_layer_check(const ne16_layer_t *l, char *err, size_t errlen)
{
    if (l->ki == 0 || l->ko == 0 || l->hi == 0 || l->wi == 0) FAIL("ne16 layer: Ki/Ko/Hi/Wi must be >= 1");
    if (l->qw < 1 || l->qw > 8) FAIL("ne16 layer: qw=%u not in 1..8", l->qw);
    if (l->out_bits != 8 && l->out_bits != 16 && l->out_bits != 32) FAIL("ne16 layer: out_bits=%u", l->out_bits);
    if (l->norm_bits != 8 && l->norm_bits != 16 && l->norm_bits != 32) FAIL("ne16 layer: norm_bits=%u", l->norm_bits);
    if (l->right_shift > 31) FAIL("ne16 layer: right_shift=%u > 31", l->right_shift);
    if (!l->symmetric && (l->wmin < -256 || l->wmin > 255)) FAIL("ne16 layer: wmin=%d not in [-256,255]", l->wmin);
    if (l->streamin && l->out_bits != 32) FAIL("ne16 layer: streamin needs 32-bit output");
    if (l->mode16 && l->mode == NE16_LAYER_DW) FAIL("ne16 layer: MODE16 with depthwise is illegal (D20)");
    if (l->mode == NE16_LAYER_DW && l->ki != l->ko) FAIL("ne16 layer: depthwise needs Ki == Ko");
    const unsigned k = ksize(l);
    if (l->mode == NE16_LAYER_LINEAR) {
        if (l->strided) FAIL("ne16 layer: linear cannot be strided");
        if (l->hi != 1 || l->wi != 1) FAIL("ne16 layer: linear needs Hi = Wi = 1");
        if (l->ki % (l->mode16 ? 8 : 16))
            FAIL("ne16 layer: linear Ki=%u must be a multiple of %u", l->ki, l->mode16 ? 8 : 16);
    }
    if ((l->mode == NE16_LAYER_1X1 || l->mode == NE16_LAYER_LINEAR) && (l->pt || l->pb || l->pl || l->pr))
        FAIL("ne16 layer: padding only in 3x3/DW modes");
    if (l->pt > 2 || l->pb > 2 || l->pl > 2 || l->pr > 2) FAIL("ne16 layer: padding > 2");
    if (l->hi + l->pt + l->pb < k || l->wi + l->pl + l->pr < k) FAIL("ne16 layer: input smaller than the kernel");
    if (l->strided && (l->ko * ne16_layer_ob(l)) % 2) FAIL("ne16 layer: strided needs Ko*ob even");
    if (l->strided && l->pulp_variant) FAIL("ne16 layer: pulp_variant only for stride 1");
    /* With pb = 2 and Ho mod 3 = 1, output row 2 of subtile NB_HO-2 needs the first bottom padding row, but
     * explicit padding (4.2) only applies in subtile NB_HO-1: the 3.7 registers cannot express the layer. */
    if (!l->strided && l->mode != NE16_LAYER_LINEAR && l->pb == 2 && ne16_layer_ho(l) % 3 == 1)
        FAIL(
            "ne16 layer: pb=2 with Ho mod 3 = 1 is not expressible by the 3.7 driver (use stride-1 tiling with pb<=1)");
    if (!l->strided && l->mode != NE16_LAYER_LINEAR && l->pr == 2 && ne16_layer_wo(l) % 3 == 1)
        FAIL("ne16 layer: pr=2 with Wo mod 3 = 1 is not expressible by the 3.7 driver");
    return 0;
}

size_t ne16_driver_num_jobs(const ne16_layer_t *l)
{
    if (!l->strided) return 1;
    return (size_t)nb(ne16_layer_ho(l), 2) * nb(ne16_layer_wo(l), 2);
}

static uint32_t config0(const ne16_layer_t *l)
{
    const unsigned fm = l->mode == NE16_LAYER_3X3   ? 0
                        : l->mode == NE16_LAYER_DW  ? 1
                        : l->mode == NE16_LAYER_1X1 ? 2
                                                    : 3;
    uint32_t v = (l->qw - 1) | (uint32_t)l->mode16 << 3 | (uint32_t)l->streamout << 4 | fm << 5 |
                 (uint32_t)(l->mode == NE16_LAYER_LINEAR) << 7 | (uint32_t)l->strided << 8 | (uint32_t)l->round << 11 |
                 bits_code(l->norm_bits) << 12 | (uint32_t)l->streamin << 14 | (uint32_t)!l->symmetric << 15 |
                 (uint32_t)l->right_shift << 16 | bits_code(l->out_bits) << 21 | (uint32_t)!l->relu << 23 |
                 (uint32_t)l->norm_shift << 24 | (uint32_t)l->norm_bias << 25;
    return v;
}

/* Registers common to all jobs of a layer (3.7 / 3.9). */
static void common_regs(const ne16_layer_t *l, uint32_t *r)
{
    const unsigned eb = ne16_layer_eb(l), ob = ne16_layer_ob(l), wb = l->mode16 ? 1 : 2;
    const unsigned ks = ko_sub(l);
    memset(r, 0, NE16_NUM_JOB_REGS * sizeof *r);
    r[NE16_JOB_WEIGHTS_PTR] = l->weights;
    r[NE16_JOB_OUTFEAT_PTR] = l->out;
    r[NE16_JOB_SCALE_PTR] = l->scale;
    r[NE16_JOB_SCALE_SHIFT_PTR] = l->scale_shift;
    r[NE16_JOB_SCALE_BIAS_PTR] = l->scale_bias;
    r[NE16_JOB_OUTFEAT_D0_STRIDE] = ob == 4 ? 32 : ob == 2 ? 16 : 0;
    r[NE16_JOB_WEIGHT_OFFSET] = l->symmetric ? 0 : (uint32_t)l->wmin;
    r[NE16_JOB_FILTER_MASK] =
        (uint32_t)l->mask_top << 24 | (uint32_t)l->mask_right << 16 | (uint32_t)l->mask_bottom << 8 | l->mask_left;
    r[NE16_JOB_CONFIG0] = config0(l);
    if (l->mode == NE16_LAYER_LINEAR) {
        const unsigned nki = nb(l->ki, 256);
        r[NE16_JOB_INFEAT_PTR] = l->in;
        r[NE16_JOB_INFEAT_D0_STRIDE] = 16;
        r[NE16_JOB_OUTFEAT_D1_STRIDE] = l->ko * ob;
        r[NE16_JOB_OUTFEAT_D2_STRIDE] = l->ko * ob;
        r[NE16_JOB_WEIGHTS_D0_STRIDE] = nb(l->ki, 8);
        r[NE16_JOB_WEIGHTS_D1_STRIDE] = l->qw * nb(l->ki, 8);
        r[NE16_JOB_WEIGHTS_D2_STRIDE] = 32 * l->qw * nb(l->ki, 8);
        unsigned rem_ki = (l->ki - 256 * (nki - 1)) * eb / 16;
        unsigned rem_ko = last(l->ko, 32);
        if (l->rem_full_as_zero) {
            if (rem_ki == (l->mode16 ? 32u : 16u)) rem_ki = 0;
            if (rem_ko == 32) rem_ko = 0;
        }
        r[NE16_JOB_SUBTILE_NB0] = hl(nb(l->ko, 32), nki);
        r[NE16_JOB_SUBTILE_REM0] = hl(rem_ko, rem_ki);
        r[NE16_JOB_SUBTILE_NB1] = hl(1, 1);
        r[NE16_JOB_SUBTILE_REM1] = hl(1, 1);
        return;
    }
    const unsigned ho = ne16_layer_ho(l), wo = ne16_layer_wo(l);
    const unsigned nki = l->mode == NE16_LAYER_DW ? nb(l->ko, ks) : nb(l->ki * eb, 16);
    r[NE16_JOB_INFEAT_D0_STRIDE] = l->ki * eb;
    r[NE16_JOB_INFEAT_D1_STRIDE] = l->wi * l->ki * eb;
    r[NE16_JOB_OUTFEAT_D1_STRIDE] = l->ko * ob;
    r[NE16_JOB_OUTFEAT_D2_STRIDE] = wo * l->ko * ob;
    switch (l->mode) {
    case NE16_LAYER_3X3:
        r[NE16_JOB_WEIGHTS_D0_STRIDE] = 9 * wb;
        r[NE16_JOB_WEIGHTS_D1_STRIDE] = 9 * wb * l->qw * nki;
        break;
    case NE16_LAYER_1X1:
        r[NE16_JOB_WEIGHTS_D0_STRIDE] = wb * l->qw;
        r[NE16_JOB_WEIGHTS_D1_STRIDE] = wb * l->qw * nki;
        break;
    default: /* DW */
        r[NE16_JOB_WEIGHTS_D0_STRIDE] = 18;
        r[NE16_JOB_WEIGHTS_D1_STRIDE] = 0;
        break;
    }
    unsigned rem_ko = last(l->ko, ks);
    unsigned rem_ki = l->mode == NE16_LAYER_DW ? rem_ko : last(l->ki * eb, 16);
    if (l->rem_full_as_zero) {
        if (rem_ko == ks) rem_ko = 0;
        if (rem_ki == 16) rem_ki = 0;
    }
    r[NE16_JOB_SUBTILE_NB0] = hl(nb(l->ko, ks), nki);
    r[NE16_JOB_SUBTILE_REM0] = hl(rem_ko, rem_ki);
    r[NE16_JOB_SUBTILE_NB1] = hl(nb(ho, 3), nb(wo, 3));
}

/* Spatial registers of a stride-1 job (3.7, both conventions). */
static void stride1_regs(const ne16_layer_t *l, uint32_t *r)
{
    const unsigned k = ksize(l), eb = ne16_layer_eb(l), f = k == 3 ? 5 : 3;
    const unsigned rem_ho = last(ne16_layer_ho(l), 3), rem_wo = last(ne16_layer_wo(l), 3);
    unsigned rem_hi, rem_wi, bottom, right;
    if (l->pulp_variant) {
        rem_hi = rem_ho + k - 1 - l->pb;
        rem_wi = rem_wo + k - 1 - l->pr;
        bottom = l->pb;
        right = l->pr;
    } else {
        rem_hi = rem_ho + k - 1;
        rem_wi = rem_wo + k - 1;
        bottom = l->pb ? (5 - rem_hi) + l->pb : 0;
        right = l->pr ? (5 - rem_wi) + l->pr : 0;
    }
    r[NE16_JOB_INFEAT_PTR] = l->in - (l->pt * l->wi + l->pl) * l->ki * eb;
    if (l->pulp_variant) r[NE16_JOB_OUTFEAT_D0_STRIDE] = 32;
    const bool z = l->rem_full_as_zero;
    r[NE16_JOB_SUBTILE_REM1] = hl(z && rem_ho == 3 ? 0 : rem_ho, z && rem_wo == 3 ? 0 : rem_wo);
    r[NE16_JOB_SUBTILE_REM2] = hl(z && rem_hi == f ? 0 : rem_hi, z && rem_wi == f ? 0 : rem_wi);
    r[NE16_JOB_PADDING] =
        (uint32_t)l->pt << 28 | (uint32_t)right << 24 | (uint32_t)bottom << 20 | (uint32_t)l->pl << 16 | l->pad_value;
}

/* Registers of 2x2 block (a, b) of a strided layer (3.8, our tiling). */
static void strided_regs(const ne16_layer_t *l, uint32_t *r, unsigned a, unsigned b)
{
    const unsigned eb = ne16_layer_eb(l), ob = ne16_layer_ob(l);
    const unsigned ho = ne16_layer_ho(l), wo = ne16_layer_wo(l);
    const int hin = (int)(l->hi + l->pt) - 4 * (int)a, win = (int)(l->wi + l->pl) - 4 * (int)b;
    const unsigned rem_ho = ho - 2 * a >= 2 ? 3 : 1, rem_wo = wo - 2 * b >= 2 ? 3 : 1;
    unsigned rem_hi, rem_wi, top = 0, left = 0, bottom = 0, right = 0;
    if (l->mode == NE16_LAYER_1X1) {
        rem_hi = hin < 3 ? (unsigned)hin : 3;
        rem_wi = win < 3 ? (unsigned)win : 3;
    } else {
        rem_hi = rem_wi = 5;
        bottom = hin < 5 ? (unsigned)(5 - hin) : 0;
        right = win < 5 ? (unsigned)(5 - win) : 0;
        top = a == 0 ? l->pt : 0;
        left = b == 0 ? l->pl : 0;
    }
    r[NE16_JOB_SUBTILE_NB1] = hl(1, 1);
    r[NE16_JOB_OUTFEAT_D1_STRIDE] = l->ko * ob / 2;
    r[NE16_JOB_OUTFEAT_D2_STRIDE] = wo * l->ko * ob / 2;
    const bool z = l->rem_full_as_zero;
    const unsigned f = l->mode == NE16_LAYER_1X1 ? 3 : 5;
    r[NE16_JOB_SUBTILE_REM1] = hl(z && rem_ho == 3 ? 0 : rem_ho, z && rem_wo == 3 ? 0 : rem_wo);
    r[NE16_JOB_SUBTILE_REM2] = hl(z && rem_hi == f ? 0 : rem_hi, z && rem_wi == f ? 0 : rem_wi);
    r[NE16_JOB_PADDING] =
        (uint32_t)top << 28 | (uint32_t)right << 24 | (uint32_t)bottom << 20 | (uint32_t)left << 16 | l->pad_value;
    const int64_t in_off = ((int64_t)(4 * a) - l->pt) * l->wi + (int64_t)(4 * b) - l->pl;
    r[NE16_JOB_INFEAT_PTR] = l->in + (uint32_t)(in_off * (int64_t)(l->ki * eb));
    r[NE16_JOB_OUTFEAT_PTR] = l->out + (2 * a * wo + 2 * b) * l->ko * ob;
    r[NE16_JOB_CONFIG0] |= NE16_CONFIG0_STRIDED_2X2_MASK;
}

int ne16_driver_jobs(const ne16_layer_t *l, uint32_t (*regs)[NE16_NUM_JOB_REGS], size_t max, char *err, size_t errlen)
{
    if (ne16_layer_check(l, err, errlen)) return -1;
    const size_t n = ne16_driver_num_jobs(l);
    if (n > max) FAIL("ne16 driver: layer needs %zu jobs, room for %zu", n, max);
    if (!l->strided) {
        common_regs(l, regs[0]);
        if (l->mode != NE16_LAYER_LINEAR) stride1_regs(l, regs[0]);
        return 1;
    }
    const unsigned nbw = nb(ne16_layer_wo(l), 2);
    for (size_t j = 0; j < n; j++) {
        common_regs(l, regs[j]);
        strided_regs(l, regs[j], (unsigned)(j / nbw), (unsigned)(j % nbw));
    }
    return (int)n;
}

uint32_t ne16_in_addr(const ne16_layer_t *l, unsigned h, unsigned w, unsigned c)
{
    return l->in + ((h * l->wi + w) * l->ki + c) * ne16_layer_eb(l);
}

uint32_t ne16_out_addr(const ne16_layer_t *l, unsigned h, unsigned w, unsigned k)
{
    return l->out + ((h * ne16_layer_wo(l) + w) * l->ko + k) * ne16_layer_ob(l);
}

size_t ne16_in_bytes(const ne16_layer_t *l) { return (size_t)l->hi * l->wi * l->ki * ne16_layer_eb(l); }
size_t ne16_out_bytes(const ne16_layer_t *l)
{
    return (size_t)ne16_layer_ho(l) * ne16_layer_wo(l) * l->ko * ne16_layer_ob(l);
}

size_t ne16_weights_bytes(const ne16_layer_t *l)
{
    const unsigned wb = l->mode16 ? 1 : 2, nki = nb(l->ki * ne16_layer_eb(l), 16);
    switch (l->mode) {
    case NE16_LAYER_3X3: return (size_t)l->ko * nki * l->qw * 9 * wb;
    case NE16_LAYER_1X1: return (size_t)l->ko * nki * l->qw * wb;
    case NE16_LAYER_DW: return (size_t)nb(l->ko, 16) * l->qw * 9 * 2;
    default: return (size_t)l->ko * l->qw * nb(l->ki, 8);
    }
}

static void setbit(uint8_t *buf, size_t byte, unsigned bit, unsigned v)
{
    if (v) buf[byte] |= (uint8_t)(1u << bit);
}

int ne16_weights_encode(const ne16_layer_t *l, const int16_t *w, uint8_t *buf, char *err, size_t errlen)
{
    const int wmin = ne16_layer_wmin(l);
    const unsigned qw = l->qw, wb = l->mode16 ? 1 : 2, cps = l->mode16 ? 8 : 16; /* channels per Ki subtile */
    const unsigned nki = nb(l->ki * ne16_layer_eb(l), 16);
    memset(buf, 0, ne16_weights_bytes(l));
    const unsigned ntap = (l->mode == NE16_LAYER_3X3 || l->mode == NE16_LAYER_DW) ? 9 : 1;
    const unsigned nin = l->mode == NE16_LAYER_DW ? 1 : l->ki;
    for (unsigned ko = 0; ko < l->ko; ko++)
        for (unsigned ci = 0; ci < nin; ci++)
            for (unsigned t = 0; t < ntap; t++) {
                const size_t idx = ((size_t)ko * nin + ci) * ntap + t;
                const int u = w[idx] - wmin;
                if (u < 0 || u >= (1 << qw))
                    FAIL("ne16 weights: w[ko=%u ki=%u tap=%u] = %d outside [%d, %d] (qw=%u)", ko, ci, t, w[idx], wmin,
                         wmin + (1 << qw) - 1, qw);
                for (unsigned q = 0; q < qw; q++) {
                    const unsigned bit = ((unsigned)u >> q) & 1u;
                    switch (l->mode) {
                    case NE16_LAYER_3X3: {
                        const unsigned kim = ci / cps, cl = ci % cps;
                        const size_t base = ((((size_t)ko * nki + kim) * qw + q) * 9 + t) * wb;
                        setbit(buf, base + (l->mode16 ? 0 : cl / 8), l->mode16 ? cl : cl % 8, bit);
                        break;
                    }
                    case NE16_LAYER_1X1: {
                        const unsigned kim = ci / cps, cl = ci % cps;
                        const size_t base = (((size_t)ko * nki + kim) * qw + q) * wb;
                        setbit(buf, base + (l->mode16 ? 0 : cl / 8), l->mode16 ? cl : cl % 8, bit);
                        break;
                    }
                    case NE16_LAYER_DW: {
                        const unsigned g = ko / 16, cl = ko % 16;
                        setbit(buf, (((size_t)g * qw + q) * 9 + t) * 2 + cl / 8, cl % 8, bit);
                        break;
                    }
                    default: /* linear */
                        setbit(buf, ((size_t)ko * qw + q) * nb(l->ki, 8) + ci / 8, ci % 8, bit);
                        break;
                    }
                }
            }
    return 0;
}
