/* Which of NVDLA's two lookup tables answers a lookup: one rule for CDP (nv_small's spec §4.5, nv_full's cmod
 * cdp/NV_NVDLA_cdp.cpp) and SDP's Y LUT (cmod hls/sdp/sdp_y_idx.cpp, "INDEX MUXING"). Both tables underflowing: the
 * underflow priority; both overflowing: the overflow priority; exactly one hit: that table; both hit, or one under
 * and the other over: the hybrid priority. A priority of 1 selects LO. */
#ifndef NV_LUT_SELECT_H
#define NV_LUT_SELECT_H
#include <stdbool.h>

typedef enum { NV_LUT_HIT, NV_LUT_UFLOW, NV_LUT_OFLOW } nv_lut_state_t;

static inline bool nv_lut_use_lo(nv_lut_state_t le, nv_lut_state_t lo, bool uflow_lo, bool oflow_lo, bool hybrid_lo)
{
    if (le == NV_LUT_UFLOW && lo == NV_LUT_UFLOW) return uflow_lo;
    if (le == NV_LUT_OFLOW && lo == NV_LUT_OFLOW) return oflow_lo;
    if ((le == NV_LUT_HIT) != (lo == NV_LUT_HIT)) return lo == NV_LUT_HIT;
    return hybrid_lo;
}
#endif
