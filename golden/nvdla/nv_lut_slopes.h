/* The slopes outside NVDLA's two lookup tables, as CDP's LUT (nv_small's spec §4.6, S_LUT_{LE,LO}_SLOPE_{SCALE,SHIFT}
 * at CDP 0x38-0x44) and SDP's Y LUT (the same four registers at SDP 0x28-0x34) hold them: each SCALE register the
 * underflow scale in [15:0] and the overflow scale in [31:16], 16-bit signed; each SHIFT register the underflow shift
 * in [4:0] and the overflow shift in [9:5], 5-bit signed. One decode for both units (sdp_lut.c, cdp_golden.c); at FP16
 * the scales' low 16 bits are FP16 and the shifts unused (sdp_lut_fp16.c, cdp_atom32.c). */
#ifndef NV_LUT_SLOPES_H
#define NV_LUT_SLOPES_H
#include "nvdla_dp_math.h"
#include <stdint.h>

typedef struct nv_lut_slopes {
    int64_t le_uflow_scale, le_oflow_scale, lo_uflow_scale, lo_oflow_scale; /* 16-bit signed */
    int le_uflow_shift, le_oflow_shift, lo_uflow_shift, lo_oflow_shift;     /* 5-bit signed */
} nv_lut_slopes_t;

/* The four registers' values: LE_SLOPE_SCALE, LE_SLOPE_SHIFT, LO_SLOPE_SCALE, LO_SLOPE_SHIFT. */
static inline nv_lut_slopes_t nv_lut_slopes_decode(uint32_t le_scale, uint32_t le_shift, uint32_t lo_scale,
                                                   uint32_t lo_shift)
{
    nv_lut_slopes_t s;
    s.le_uflow_scale = nv_sx(le_scale & 0xFFFF, 16), s.le_oflow_scale = nv_sx(le_scale >> 16, 16);
    s.lo_uflow_scale = nv_sx(lo_scale & 0xFFFF, 16), s.lo_oflow_scale = nv_sx(lo_scale >> 16, 16);
    s.le_uflow_shift = (int)nv_sx(le_shift & 31, 5), s.le_oflow_shift = (int)nv_sx((le_shift >> 5) & 31, 5);
    s.lo_uflow_shift = (int)nv_sx(lo_shift & 31, 5), s.lo_oflow_shift = (int)nv_sx((lo_shift >> 5) & 31, 5);
    return s;
}
#endif
