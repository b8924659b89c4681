/* Integer primitives of the NVDLA datapath (spec nvdla_datapath.md §1.4): wraps, saturation and the
 * rounding right shift of the HLS libraries (round half away from zero, then saturate). */
#ifndef NVDLA_DP_MATH_H
#define NVDLA_DP_MATH_H
#include <stdint.h>

typedef __int128 nv_i128; /* CDP interpolation needs up to 89 bits */

/* SX_n: the low n bits of v as two's complement (1 <= n <= 64). */
static inline int64_t nv_sx(int64_t v, unsigned n)
{
    if (n >= 64) return v;
    uint64_t m = (1ull << n) - 1, u = (uint64_t)v & m;
    return (u >> (n - 1)) ? (int64_t)(u | ~m) : (int64_t)u;
}

/* SAT_n: clamp to [-2^(n-1), 2^(n-1)-1] (n <= 63). */
static inline int64_t nv_sat(int64_t v, unsigned n)
{
    int64_t hi = (int64_t)((1ull << (n - 1)) - 1), lo = -hi - 1;
    return v > hi ? hi : v < lo ? lo : v;
}

/* Round half away from zero of v / 2^s, no saturation (s < 127). */
static inline nv_i128 nv_rshift_round(nv_i128 v, unsigned s)
{
    if (s == 0) return v;
    nv_i128 mag = v < 0 ? -v : v;
    mag = (mag + ((nv_i128)1 << (s - 1))) >> s;
    return v < 0 ? -mag : mag;
}

/* RSR(v, s, in_w, out_w): rounding right shift with saturation to out_w bits. */
static inline int64_t nv_rsr(int64_t v, unsigned s, unsigned in_w, unsigned out_w)
{
    if (s >= in_w) return 0;
    return nv_sat((int64_t)nv_rshift_round(v, s), out_w);
}

/* SHL_SAT(v, s, 32) for a 16-bit v: saturating left shift to int32. */
static inline int64_t nv_shl_sat32(int64_t v, unsigned s)
{
    if (v == 0) return 0;
    if (s >= 32) return v > 0 ? INT32_MAX : INT32_MIN;
    return nv_sat(v * ((int64_t)1 << s), 32);
}
#endif
