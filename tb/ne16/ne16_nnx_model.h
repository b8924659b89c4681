/* pulp-nnx's test data and expected output, in C: the seeded tensors of NnxTestGenerator.from_conf (its
 * generator pins a torch that Python 3.11 cannot install, so the data come from the run's seed instead), the
 * global shift it derives, the weight encoding of Ne16Weight.encode, and its functional model
 * (NeuralEngineFunctionalModel.convolution: conv in int64, wrap to int32, scale, bias, ReLU, shift, clamp).
 * Line references are to ../shared/upstream/pulp_nnx/test. */
#ifndef NE16_NNX_MODEL_H
#define NE16_NNX_MODEL_H
#include "ne16_nnx_conf.h"
#include "rng.h"
#include <stddef.h>
#include <stdint.h>

typedef struct nnx_data {
    uint8_t *input;  /* in_h x in_w x in_c (HWC, as HeaderWriter lays it out) */
    int8_t *weight;  /* out_c x (depthwise ? 1 : in_c) x k x k */
    uint32_t *scale; /* out_c (has_nq) */
    int32_t *bias;   /* out_c (has_bias) */
    unsigned shift;  /* global OUTSHIFT */
    int64_t *output; /* out_h x out_w x out_c: the functional model's values (in out_type's range) */
} nnx_data_t;

/* Draws the tensors from rng (uniform over [type min, type max), torch.randint's range), derives the global
 * shift like _calculate_global_shift and computes the expected output. 0, or -1 when out of memory. */
int nnx_data_make(const nnx_conf_t *c, rng_t *rng, nnx_data_t *d);
void nnx_data_free(nnx_data_t *d);
/* The functional model with the given shift and output type bits/signedness. out: out_h x out_w x out_c. */
void nnx_model_conv(const nnx_conf_t *c, const nnx_data_t *d, unsigned shift, unsigned out_bits, bool out_signed,
                    int64_t *out);
/* Ne16Weight.encode of (weight - offset) with offset -128 (8-bit weights): bytes written to out (may be
 * NULL to ask the size); returns the size. */
size_t nnx_weight_encode(const nnx_conf_t *c, const int8_t *weight, uint8_t *out);
#endif
