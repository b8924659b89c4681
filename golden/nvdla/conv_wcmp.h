/* Compressed convolution weights (CDMA/CSC D_WEIGHT_FORMAT = COMPRESSED) expanded to the dense layout the
 * uncompressed format has (format.rst: kernel groups, 64-channel blocks, r, s, kernel, channel). The format, as
 * NVIDIA's cmod reads it (csc/NV_NVDLA_csc.cpp get_decompressed_weight, cdma/NV_NVDLA_cdma.cpp
 * ConvWGS/ConvWMB*SequencerCommon) and its RTL checks it (vmod/nvdla/cdma/NV_NVDLA_CDMA_wt.v):
 *  - WMB, the weight mask bitmap: one bit per element of the dense stream, in its order, LSB of byte 0 first; a 1
 *    takes the next element of the compressed stream, a 0 is a zero weight. One stream over all kernel groups
 *    (CSC saves and restores its place at each group's end, csc.cpp save_info_kernel_group); D_WMB_BYTES is its
 *    size rounded up to 128 bytes (the RTL asserts exactly ceil(elements / 1024) x 128, CDMA_wt.v:2646);
 *  - the weights: the elements whose bit is 1, packed (1 byte at INT8, 2 at INT16/FP16), one stream over all
 *    groups; D_WEIGHT_BYTES is its size rounded up to 128 (CSC must have read every entry: csc.cpp:1500);
 *  - WGS, the weight group sizes: one little-endian 32-bit word per kernel group, the compressed bytes of that
 *    group (CDMA adds them up into the bytes a group needs fetched before CSC may start it, CDMA_wt.v:8923);
 *  - WMB and WGS are read in the weights' RAM (CDMA_wt.v:5780: one RAM type for the three). */
#ifndef CONV_WCMP_H
#define CONV_WCMP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct conv_wcmp {
    const uint8_t *wt; /* compressed weights, wt_bytes of them (D_WEIGHT_BYTES) */
    size_t wt_bytes;
    const uint8_t *wmb; /* the mask bitmap, wmb_bytes (D_WMB_BYTES) */
    size_t wmb_bytes;
    const uint8_t *wgs; /* one 4-byte word per kernel group */
    uint32_t K, kg;     /* kernels, kernels per group (32 at INT8, 16 at INT16/FP16) */
    uint32_t kelems;    /* elements of one kernel: R x S x C */
    uint32_t esz;       /* bytes per element */
} conv_wcmp_t;

/* The dense stream (K x kelems x esz bytes) into `dense`. False, with the reason in why, for a configuration the
 * hardware could not run as written: a WMB_BYTES other than the RTL's, bitmap bits that need more compressed
 * bytes than WEIGHT_BYTES, or a group's WGS word that is not its compressed bytes. */
bool conv_wt_expand(const conv_wcmp_t *c, uint8_t *dense, char *why, size_t whylen);
/* D_WMB_BYTES for K kernels of kelems elements: the RTL's rule (above). */
uint32_t conv_wmb_bytes(uint32_t K, uint32_t kelems);
#endif
