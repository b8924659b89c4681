/* Compressed weights for nv_full's random convolutions (D_WEIGHT_FORMAT = COMPRESSED; the format and its evidence
 * in golden/nvdla/conv_wcmp.h): the dense weights in format.rst's layout encoded as the weight mask bitmap (WMB, a
 * bit per element, LSB first), the nonzero elements packed, and the weight group sizes (WGS, a 32-bit word of
 * compressed bytes per kernel group), each written to the program's memory. */
#ifndef NVF_WT_CMP_H
#define NVF_WT_CMP_H
#include "program.h"
#include "rng.h"
#include <stdint.h>

typedef struct nvf_wt_shape {
    uint32_t K, kg, kelems, esz; /* kernels, kernels per group, R x S x C, bytes per element */
    unsigned explicit_zero_pct;  /* chance that a zero weight is stored with its bit set */
} nvf_wt_shape_t;
typedef struct nvf_wt_cmp {
    uint32_t wt_bytes, wmb_bytes; /* D_WEIGHT_BYTES, D_WMB_BYTES: each rounded up to 128 */
    uint32_t nonzero;             /* elements stored */
    uint32_t explicit_zeros;      /* of them, zeros */
} nvf_wt_cmp_t;

/* Encode `dense` (K x kelems elements of esz bytes, little-endian) and write the weights at wt_at, the bitmap at
 * wmb_at, the group sizes at wgs_at (each 32-byte aligned). */
void nvf_wt_compress(program_t *p, rng_t *r, const uint8_t *dense, const nvf_wt_shape_t *s, uint64_t wt_at,
                     uint64_t wmb_at, uint64_t wgs_at, nvf_wt_cmp_t *out);
#endif
