/* Convolution pipeline golden model of nv_small (CDMA -> CBUF -> CSC -> CMAC_A/B -> CACC), INT8, direct
 * convolution of a feature cube in memory. Its output is CACC's 32-bit cube, which SDP consumes on the fly
 * (sdp_golden_run with a flying input). Arithmetic (NVIDIA's RTL as the oracle): each CMAC atom sums 8 int8
 * products exactly (19 bits), CACC accumulates with 34-bit saturation, then rounds by CLIP_TRUNCATE (half away
 * from zero, the sticky bits limited to the 15 below the guide bit, NV_NVDLA_CACC_CALC_int8.v) and saturates
 * to int32. Weights: uncompressed, in nvdla/doc format.rst "Weight for direct convolution" with nv_small's
 * atomic C = K = 8. Image input (CDMA.D_DATAIN_FORMAT = pixel): 8-bit formats, CDMA's converter and mean, the
 * kernel channel pre-extended (conv_image.h). CDMA's converter (CVT_EN) applies to feature input as well.
 * Configurations the hardware cannot run, or the model does not
 * compute, are refused, naming the register. */
#ifndef CONV_GOLDEN_H
#define CONV_GOLDEN_H
#include "nvdla_dp.h"
#include "nvdla_pp.h"
#include <stdbool.h>
#include <stdint.h>

/* The ping-pong units of the convolution pipeline, in window order from 0x3000. */
enum { CONV_CDMA, CONV_CSC, CONV_CMAC_A, CONV_CMAC_B, CONV_CACC, CONV_NUNITS };
#define CONV_FIRST 0x3000u
#define CONV_END 0x8000u

/* CACC's output: w x h x c 32-bit values, surfaces of 8 lanes (lanes past c hold 0: no weights). */
typedef struct nv_acc_cube {
    uint32_t w, h, c, s;
    int32_t *v;
} nv_acc_cube_t;
static inline int32_t *nv_acc_atom(const nv_acc_cube_t *c, uint32_t s, uint32_t y, uint32_t x)
{
    return c->v + (((size_t)s * c->h + y) * c->w + x) * 8;
}
void nv_acc_cube_free(nv_acc_cube_t *c);

/* The layer as the model understood it (for coverage and messages). */
typedef struct conv_layer {
    bool image;                 /* DATAIN_FORMAT = pixel */
    uint32_t pixel_format;      /* image: CDMA's PIXEL_FORMAT */
    bool cvt, mean;             /* CDMA's converter (feature and image input), global mean (image) */
    uint32_t x_offset;          /* image: CDMA's PIXEL_X_OFFSET */
    uint32_t y_ext;             /* image: CSC's post-extension, lines an atom (1, 2, 4) */
    uint32_t in_w, in_h, in_c;  /* CDMA input cube */
    uint32_t k_w, k_h, kernels; /* S, R, K */
    uint32_t stride_x, stride_y, dil_x, dil_y;
    uint32_t pad_l, pad_r, pad_t, pad_b;
    int32_t pad_value;
    uint32_t out_w, out_h;
    uint32_t data_banks, weight_banks, truncate;
    uint32_t saturated;   /* CACC outputs clipped to int32 (D_OUT_SATURATION) */
    uint32_t ring_groups; /* CONV_WEIGHTS_RESIDENT, or the whole kernel groups the weight ring holds */
} conv_layer_t;

void conv_golden_init(nvdla_pp_t units[CONV_NUNITS]);
/* Every unit of the pipeline has its CONSUMER group enabled. */
bool conv_golden_ready(const nvdla_pp_t units[CONV_NUNITS]);
/* Runs the CONSUMER groups' layer. True and *out allocated on success; false after reporting through
 * ctx->error why the layer is refused (nothing allocated). *layer is filled as far as it was decoded. */
bool conv_golden_run(const nvdla_pp_t units[CONV_NUNITS], const nvdla_dp_ctx_t *ctx, nv_acc_cube_t *out,
                     conv_layer_t *layer);
/* How the weights sit in the CBUF weight ring of `banks` banks: CONV_WEIGHTS_RESIDENT when all D_WEIGHT_BYTES fit;
 * else streamed group by group (docs/nvdla_conv.md), the number of whole kernel groups (8 x kernel_bytes) the ring
 * holds; 0 when it cannot hold a group or the last group with its padding (nv_small hangs). */
#define CONV_WEIGHTS_RESIDENT 0xFFFFFFFFu
uint32_t conv_weight_ring_groups(uint64_t kernel_bytes, uint32_t kernels, uint32_t weight_bytes, uint32_t banks);
/* CACC's final rounding and clipping of a 34-bit accumulator (exposed for the unit tests). */
int32_t conv_cacc_round(int64_t acc34, unsigned truncate, bool *saturated);
/* 34-bit saturating accumulation step of CACC. */
int64_t conv_cacc_add(int64_t acc34, int64_t partial);
#endif
