/* PDP's pooling at FP16 as NVIDIA's C model computes it (cmod pdp/NV_NVDLA_pdp.cpp with hls_wrapper/
 * pdp_hls_wrapper.cpp; docs/nvdla_nv_full.md, "FP16"): MAX and MIN with FP16 comparisons, AVERAGE as FP17 sums in
 * cmod's order (each window row summed left to right, then the rows top to bottom), the padding values added where
 * cmod adds them, then two FP17 products by the reciprocals and the conversion to FP16. */
#ifndef PDP_FP16_H
#define PDP_FP16_H
#include <stdbool.h>
#include <stdint.h>

typedef struct pdp_fp16_cfg {
    unsigned method;           /* 0 AVERAGE, 1 MAX, 2 MIN */
    unsigned kw, kh, sw, sh;   /* kernel and strides, 1-based; AVERAGE needs kw, kh <= 8 (7 padding values) */
    unsigned pl, pt;           /* left and top padding (right and bottom follow from the input's size) */
    uint32_t recip_w, recip_h; /* D_RECIP_KERNEL_WIDTH / _HEIGHT: FP17 */
    uint32_t pad[7];           /* D_POOLING_PADDING_VALUE_1..7_CFG: FP17, the sum of 1..7 padding elements */
    bool nan_to_zero;          /* D_NAN_FLUSH_TO_ZERO: a NaN input reads as +0 (PDP reading memory) */
} pdp_fp16_cfg_t;

/* The FP17 value of a kernel width of 1 to 8 (RTL NV_NVDLA_PDP_CORE_cal2d.v:8772, cmod's kernel_width_map). */
uint32_t pdp_fp16_kernel_width(unsigned kw);
/* Output element (ox, oy) of one lane's plane of wi x hi FP16 values (row-major). */
uint16_t pdp_fp16_pool_one(const pdp_fp16_cfg_t *c, const uint16_t *plane, unsigned wi, unsigned hi, unsigned ox,
                           unsigned oy);
#endif
