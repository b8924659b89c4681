/* A pulp-nnx layer configuration (../shared/upstream/pulp_nnx/test/tests/test_N/conf.json) as the NE16 test
 * generator (Ne16TestConf.py) accepts it. Loading rejects, with the reason, what NE16 cannot run: Neureka's
 * configurations (signed input, signed scales, kernels other than 1x1/3x3, ...). */
#ifndef NE16_NNX_CONF_H
#define NE16_NNX_CONF_H
#include <stdbool.h>
#include <stddef.h>

typedef struct nnx_conf {
    unsigned in_h, in_w, in_c, out_c;
    unsigned k;      /* kernel side: 1 or 3 */
    unsigned stride; /* 1 or 2 (both directions) */
    unsigned pad_t, pad_b, pad_l, pad_r;
    bool depthwise, has_nq, has_bias, has_relu;
    unsigned out_bits; /* 8 or 32 */
    bool out_signed;
    unsigned scale_bits;   /* 8 or 32; 0 without norm-quant */
    unsigned out_h, out_w; /* derived: (in + pads - k) / stride + 1 */
} nnx_conf_t;

/* Reads path (a conf.json). Returns 0, or -1 with a one-line reason in err ("<path>: ..."): unreadable file,
 * JSON syntax (with the byte offset), a missing or wrong-typed field, or a layer NE16 does not support. */
int nnx_conf_load(const char *path, nnx_conf_t *c, char *err, size_t errlen);
#endif
