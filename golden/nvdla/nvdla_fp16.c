/* NVDLA's floating point as NVIDIA's C model computes it (nvdla_fp16.h). Each function follows one template of cmod's
 * hls/include/nvdla_float.h, step by step and with the same bit widths (cmod's ac_int variables wrap at their
 * declared width, and shifts keep the width of their left operand); the line numbers below are that file's. A format
 * is its exponent and mantissa widths: FP16 5.10, FP17 6.10, FP32 8.23. */
#include "nvdla_fp16.h"
#include <stdbool.h>

typedef struct fp {
    unsigned sign;
    uint32_t expo;
    uint64_t mant;
} fp_t;

static uint64_t mask(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
/* v << s kept to `width` bits, as an ac_int shift of a `width`-bit left operand. */
static uint64_t shl(uint64_t v, unsigned s, unsigned width) { return s >= width ? 0 : (v << s) & mask(width); }
static unsigned lead_zeros(uint64_t v, unsigned width)
{
    unsigned n = 0;
    while (n < width && !((v >> (width - 1 - n)) & 1)) n++;
    return n;
}
static fp_t unpack(uint32_t bits, unsigned e, unsigned m)
{
    return (fp_t){(bits >> (e + m)) & 1, (uint32_t)((bits >> m) & mask(e)), bits & mask(m)};
}
static uint32_t pack(fp_t f, unsigned e, unsigned m)
{
    return (uint32_t)((uint64_t)f.sign << (e + m) | (uint64_t)(f.expo & mask(e)) << m | (f.mant & mask(m)));
}
static bool is_zero(fp_t f) { return f.expo == 0 && f.mant == 0; }
static bool is_nan(fp_t f, unsigned e) { return f.expo == mask(e) && f.mant != 0; }
static bool is_inf(fp_t f, unsigned e) { return f.expo == mask(e) && f.mant == 0; }
/* SetToInf (:93): the largest finite value, the sign kept. */
static void set_inf(fp_t *f, unsigned e, unsigned m)
{
    f->expo = (uint32_t)mask(e) - 1;
    f->mant = mask(m);
}

/* FpMantRNE (:220): the top ow of iw bits, rounded to nearest even; true when the rounding carries out. */
static bool mant_rne(uint64_t in, unsigned iw, unsigned ow, uint64_t *out)
{
    if (iw <= ow) {
        *out = in << (ow - iw);
        return false;
    }
    unsigned t = iw - ow;
    uint64_t kept = (in >> t) & mask(ow);
    bool stick = (in & mask(t - 1)) != 0, guard = (in >> (t - 1)) & 1, carry = guard && (stick || (kept & 1));
    *out = (kept + carry) & mask(ow);
    return carry && kept == mask(ow);
}

/* FpMantDecShiftRight (:289): the im-bit mantissa with its implied 1, shifted right by `shift` and cut to 10 bits,
 * rounded to nearest even (guard, sticky and least bits taken at the shifted position); true on a carry out. cmod
 * slices 11 bits whatever the output width (:324), so this holds for 10-bit outputs only, the only ones it has. */
static bool mant_dec_shift_right(uint64_t mant, unsigned im, unsigned shift, uint64_t *out)
{
    const unsigned w = im + 1, d = im - 10;
    uint64_t p1 = mant | 1ull << im;
    uint64_t guard_mask = shl(1, d + shift - 1, w), stick_mask = (guard_mask - 1) & mask(w),
             least_mask = shl(1, d + shift, w);
    bool carry = (p1 & guard_mask) && ((p1 & stick_mask) || (p1 & least_mask));
    uint64_t sum = (((p1 >> shift) >> d) & mask(11)) + carry;
    *out = sum & mask(10);
    return (sum >> 10) & 1;
}

/* FpWidthDec (:674), and FpExpoWidthDec (:602), which is the same for an equal mantissa width: saturate what is
 * past the output's range, flush what is below half its smallest denormal, shift a denormal result right with
 * rounding (DENORM_NO then flushes it, unless it rounds up to the smallest normal), round a normal one. */
static uint32_t width_dec(uint32_t bits, unsigned ie, unsigned im, unsigned oe, unsigned om, bool denorm)
{
    const uint32_t omax = (uint32_t)mask(oe), delta = (uint32_t)(mask(ie - 1) - mask(oe - 1));
    fp_t i = unpack(bits, ie, im), o = {i.sign, 0, 0};
    bool inf = false, zero = false;
    if (i.expo >= omax + delta) inf = true;
    else if (i.expo < delta - om) zero = true;
    else if (i.expo <= delta) {
        bool carry = mant_dec_shift_right(i.mant, im, delta - i.expo + 1, &o.mant);
        if (carry) o.expo = 1;
        else if (!denorm) zero = true;
    } else {
        o.expo = i.expo - delta;
        uint64_t p1;
        bool carry = mant_rne(i.mant | 1ull << im, im + 1, om + 1, &p1);
        o.mant = p1 & mask(om);
        if (carry && (o.expo = (o.expo + 1) & (uint32_t)omax) == omax) inf = true;
    }
    if (inf) set_inf(&o, oe, om);
    if (zero) o.expo = 0, o.mant = 0;
    if (is_nan(i, ie)) o.expo = omax, o.mant = i.mant & mask(om);
    return pack(o, oe, om);
}

/* FpWidthInc (:561): FpMantWidthInc (:513; a NaN's mantissa is not shifted) then FpExpoWidthInc (:438; a denormal
 * normalised under DENORM_YES, read as a normal of exponent 0 otherwise; Inf saturated; NaN kept). */
static uint32_t width_inc(uint32_t bits, unsigned ie, unsigned im, unsigned oe, unsigned om, bool denorm)
{
    fp_t i = unpack(bits, ie, im), m = i;
    if (!is_nan(i, ie)) m.mant = i.mant << (om - im);
    const uint32_t delta = (uint32_t)(mask(oe - 1) - mask(ie - 1));
    fp_t o = {m.sign, (m.expo + delta) & (uint32_t)mask(oe), m.mant};
    if (is_zero(m)) o.expo = 0, o.mant = 0;
    if (denorm && m.expo == 0 && m.mant != 0) {
        unsigned zc = lead_zeros(m.mant, om);
        o.expo = (delta - zc) & (uint32_t)mask(oe);
        o.mant = shl(m.mant, zc + 1, om + 1) & mask(om);
    }
    if (is_inf(m, ie)) set_inf(&o, oe, om);
    if (is_nan(m, ie)) o.expo = (uint32_t)mask(oe), o.mant = m.mant;
    return pack(o, oe, om);
}

/* FpAdd (:974): both mantissas (implied 1 unless zero, so a denormal counts as exponent 0 with a 1) placed in
 * 2m+3 bits, m+2 above the larger's point; the smaller shifted right, its lost bits dropped (no sticky bit); the
 * sum's carry renormalised (saturating at the top exponent), a difference normalised left (flushed to zero, its
 * sign kept, once the exponent would reach 0), then rounded to nearest even. The sign is the larger operand's, a
 * when the magnitudes are equal, so x + (-x) takes x's sign. */
static uint32_t fp_add(uint32_t ab, uint32_t bb, unsigned e, unsigned m)
{
    const uint32_t emax = (uint32_t)mask(e);
    const unsigned more = m + 2, iw = 2 * m + 3;
    fp_t a = unpack(ab, e, m), b = unpack(bb, e, m), o;
    uint64_t ap1 = a.mant | (uint64_t)!is_zero(a) << m, bp1 = b.mant | (uint64_t)!is_zero(b) << m;
    bool a_greater = a.expo > b.expo || (a.expo == b.expo && a.mant >= b.mant);
    o.expo = a_greater ? a.expo : b.expo;
    int als = (int)more - (int)(a_greater ? 0 : b.expo - a.expo),
        bls = (int)more - (int)(a_greater ? a.expo - b.expo : 0);
    uint64_t ai = als >= 0 ? shl(ap1, (unsigned)als, iw) : (-als >= 64 ? 0 : ap1 >> -als);
    uint64_t bi = bls >= 0 ? shl(bp1, (unsigned)bls, iw) : (-bls >= 64 ? 0 : bp1 >> -bls);
    o.sign = a_greater ? a.sign : b.sign;
    uint64_t larger = a_greater ? ai : bi, smaller = a_greater ? bi : ai;
    uint64_t sum = (a.sign == b.sign ? larger + smaller : larger - smaller) & mask(iw + 1);
    bool inf = false;
    uint64_t im = 0;
    if ((sum >> iw) & 1) {
        if (o.expo < emax - 1) o.expo++, im = (sum >> 1) & mask(iw);
        else inf = true; /* cmod leaves its mantissa unset here: SetToInf below overwrites it */
    } else {
        im = sum & mask(iw);
        unsigned zc = lead_zeros(im, iw); /* FpNormalize (:948) */
        if (o.expo <= zc || im == 0) o.expo = 0, im = 0;
        else o.expo -= zc, im = shl(im, zc, iw);
    }
    uint64_t p1;
    if (mant_rne(im, iw, m + 1, &p1)) {
        if (o.expo < emax - 1) o.expo++;
        else inf = true;
    }
    o.mant = p1 & mask(m);
    if (inf) set_inf(&o, e, m);
    if (is_nan(a, e)) o = a;
    else if (is_nan(b, e)) o = b;
    return pack(o, e, m);
}

/* FpMul (:1283): the (m+1)-bit mantissas multiplied exactly, the exponent sum checked before any rounding (below
 * the bias: zero; at or past the top: saturated), normalised, rounded to m bits by FpMantWidthDec (DENORM_NO: a
 * rounding carry past the top exponent saturates), and a result of exponent 0 flushed to zero. */
static uint32_t fp_mul(uint32_t ab, uint32_t bb, unsigned e, unsigned m)
{
    const unsigned pm = 2 * m + 1;
    const uint32_t bias = (uint32_t)mask(e - 1), emax = (uint32_t)mask(e);
    fp_t a = unpack(ab, e, m), b = unpack(bb, e, m), o = {a.sign ^ b.sign, 0, 0};
    uint64_t p = (a.mant | (uint64_t)!is_zero(a) << m) * (b.mant | (uint64_t)!is_zero(b) << m);
    bool inf = false, zero = false;
    uint32_t pe = 0;
    uint64_t pmant = 0;
    if (is_zero(a) || is_zero(b) || a.expo + b.expo < bias) zero = true;
    else if (a.expo + b.expo >= emax + bias) inf = true;
    else {
        pe = a.expo + b.expo - bias;
        if ((p >> pm) & 1) {
            if (pe < emax - 1) pe++, pmant = p & mask(pm);
            else inf = true;
        } else pmant = (p << 1) & mask(pm);
    }
    if (!inf && !zero) { /* FpMantWidthDec<e, 2m+1, m, DENORM_NO, NAN_NO> (:339) */
        uint64_t p1;
        o.expo = pe;
        if (mant_rne(pmant | 1ull << pm, pm + 1, m + 1, &p1) && (o.expo = (o.expo + 1) & emax) == emax)
            set_inf(&o, e, m);
        else o.mant = p1 & mask(m);
    }
    if (inf) set_inf(&o, e, m);
    if (zero || o.expo == 0) o.expo = 0, o.mant = 0;
    if (is_nan(a, e)) o = a;
    else if (is_nan(b, e)) o = b;
    return pack(o, e, m);
}

/* FpCmp (:1186): sign, then exponent, then mantissa (so -0 < +0, and Inf is the largest); on equal bits the second
 * operand; a NaN operand wins, the first before the second. */
static uint32_t fp_cmp(uint32_t ab, uint32_t bb, unsigned e, unsigned m, bool max)
{
    ab &= (uint32_t)mask(1 + e + m), bb &= (uint32_t)mask(1 + e + m);
    fp_t a = unpack(ab, e, m), b = unpack(bb, e, m);
    bool abs_greater = a.expo > b.expo || (a.expo == b.expo && a.mant > b.mant);
    bool a_greater = !a.sign ? (b.sign || abs_greater) : (b.sign && !abs_greater);
    if (is_nan(a, e)) return ab;
    if (is_nan(b, e)) return bb;
    return a_greater == max ? ab : bb;
}

static uint32_t neg(uint32_t bits, unsigned e, unsigned m) { return bits ^ (1u << (e + m)); } /* FpSub (:1142) */

uint32_t nv_fp16_add(uint32_t a, uint32_t b) { return fp_add(a, b, 5, 10); }
uint32_t nv_fp16_sub(uint32_t a, uint32_t b) { return fp_add(a, neg(b, 5, 10), 5, 10); }
uint32_t nv_fp16_mul(uint32_t a, uint32_t b) { return fp_mul(a, b, 5, 10); }
uint32_t nv_fp16_max(uint32_t a, uint32_t b) { return fp_cmp(a, b, 5, 10, true); }
uint32_t nv_fp16_min(uint32_t a, uint32_t b) { return fp_cmp(a, b, 5, 10, false); }
uint32_t nv_fp17_add(uint32_t a, uint32_t b) { return fp_add(a, b, 6, 10); }
uint32_t nv_fp17_sub(uint32_t a, uint32_t b) { return fp_add(a, neg(b, 6, 10), 6, 10); }
uint32_t nv_fp17_mul(uint32_t a, uint32_t b) { return fp_mul(a, b, 6, 10); }
uint32_t nv_fp17_max(uint32_t a, uint32_t b) { return fp_cmp(a, b, 6, 10, true); }
uint32_t nv_fp17_min(uint32_t a, uint32_t b) { return fp_cmp(a, b, 6, 10, false); }
uint32_t nv_fp32_add(uint32_t a, uint32_t b) { return fp_add(a, b, 8, 23); }
uint32_t nv_fp32_sub(uint32_t a, uint32_t b) { return fp_add(a, neg(b, 8, 23), 8, 23); }
uint32_t nv_fp32_mul(uint32_t a, uint32_t b) { return fp_mul(a, b, 8, 23); }
uint32_t nv_fp32_max(uint32_t a, uint32_t b) { return fp_cmp(a, b, 8, 23, true); }
uint32_t nv_fp32_min(uint32_t a, uint32_t b) { return fp_cmp(a, b, 8, 23, false); }
/* FpRelu (:1413) */
uint32_t nv_fp32_relu(uint32_t a) { return is_nan(unpack(a, 8, 23), 8) || !(a >> 31) ? a : 0; }

/* The conversions of :902-935: DENORM_YES towards FP16, DENORM_NO for FP17 <-> FP32. */
uint32_t nv_fp16_to_fp17(uint32_t a) { return width_inc(a, 5, 10, 6, 10, true); }
uint32_t nv_fp17_to_fp16(uint32_t a) { return width_dec(a, 6, 10, 5, 10, true); }
uint32_t nv_fp16_to_fp32(uint32_t a) { return width_inc(a, 5, 10, 8, 23, true); }
uint32_t nv_fp32_to_fp16(uint32_t a) { return width_dec(a, 8, 23, 5, 10, true); }
uint32_t nv_fp17_to_fp32(uint32_t a) { return width_inc(a, 6, 10, 8, 23, false); }
uint32_t nv_fp32_to_fp17(uint32_t a) { return width_dec(a, 8, 23, 6, 10, false); }

/* FpFloatToInt<16, 5, 10> (:1508): the mantissa with an implied 1 (zero and denormals too), shifted by 25 - exponent
 * (right, or left up to 6) in ac_fixed and rounded half away from zero (IntSignedShiftRight, AC_RND_INF), then
 * saturated; a NaN gives the minimum. */
uint32_t nv_fp16_to_int16(uint32_t a)
{
    fp_t f = unpack(a, 5, 10);
    const int shift = 25 - (int)f.expo;
    const uint64_t p1 = f.mant | 1u << 10;
    uint64_t v = shift <= 0 ? p1 << -shift : (p1 + (1ull << (shift - 1))) >> shift;
    int32_t o = v > 32767 ? (f.sign ? -32768 : 32767) : f.sign ? -(int32_t)v : (int32_t)v;
    if (is_nan(f, 5)) o = -32768;
    return (uint32_t)o & 0xFFFF;
}

/* FpIntToFloat<17, 5, 10> (:1443): the magnitude normalised, rounded to nearest even into 11 bits; an exponent that
 * reaches the top (the magnitude 65536) or a rounding carry past 30 saturates. */
uint32_t nv_int17_to_fp16(uint32_t a)
{
    a &= 0x1FFFF;
    fp_t o = {(a >> 16) & 1, 0, 0};
    if (!a) return 0;
    const uint64_t mag = o.sign ? (0x20000 - a) & 0x1FFFF : a;
    const unsigned lz = lead_zeros(mag, 17);
    uint64_t p1;
    const bool carry = mant_rne(shl(mag, lz, 17), 17, 11, &p1);
    o.expo = 31 - lz;
    bool inf = o.expo == 31;
    if (!inf && carry) {
        if (o.expo < 30) o.expo++;
        else inf = true;
    }
    o.mant = p1 & mask(10);
    if (inf) set_inf(&o, 5, 10);
    return pack(o, 5, 10);
}

/* FpFractionToFloat<width, 6, 10> (:807): normalised, rounded to nearest even into 11 bits with the implied 1; a
 * value below FP17's smallest normal (only a fraction of more than 30 bits has one) is +0. */
uint32_t nv_frac_to_fp17(uint64_t a, unsigned width)
{
    a &= mask(width);
    if (!a) return 0;
    unsigned zc = lead_zeros(a, width);
    uint64_t p1;
    fp_t o = {0, 31, 0};
    if (mant_rne(shl(a, zc + 1, width + 1), width + 1, 11, &p1)) o.expo -= zc, o.mant = p1 >> 1;
    else if (o.expo <= zc + 1) return 0;
    else o.expo -= zc + 1, o.mant = p1;
    return pack(o, 6, 10);
}

uint32_t nv_uint16_to_fp17(uint32_t a) { return nv_frac_to_fp17(a, 16); }
