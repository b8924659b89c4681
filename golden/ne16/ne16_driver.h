/* NE16 driver: from a layer description to job register values, exactly by spec ne16.md 3.7 (stride 1),
 * 3.8 (stride 2x2, one job per 2x2 output block) and 3.9 (linear); plus the memory layouts of 3.2-3.5
 * (tensor addresses and the bit-plane weight encoding). */
#ifndef NE16_DRIVER_H
#define NE16_DRIVER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ne16_regs.h"

typedef enum ne16_layer_mode { NE16_LAYER_3X3, NE16_LAYER_DW, NE16_LAYER_1X1, NE16_LAYER_LINEAR } ne16_layer_mode_t;

typedef struct ne16_layer {
    ne16_layer_mode_t mode;
    bool strided;            /* stride 2x2 (3.8); not with linear */
    bool pulp_variant;       /* stride 1: the pulp-nnx remainder/padding convention of 3.7 */
    bool rem_full_as_zero;   /* write remainders that equal a full subtile as 0 */
    unsigned ki, ko, hi, wi; /* linear: hi = wi = 1 */
    unsigned pt, pb, pl, pr; /* padding (3x3/DW only) */
    uint16_t pad_value;
    unsigned qw;        /* weight bits 1..8 */
    int wmin;           /* weight offset (used when !symmetric) */
    bool symmetric;     /* WEIGHT_OFFS=0: wmin = -2^(qw-1), WEIGHT_OFFSET written 0 */
    bool mode16;        /* uint16 input */
    unsigned out_bits;  /* 8/16/32 */
    unsigned norm_bits; /* scale bits 8/16/32 */
    bool streamout, streamin, relu, round, norm_shift, norm_bias;
    unsigned right_shift;
    uint8_t mask_top, mask_right, mask_bottom, mask_left; /* FILTER_MASK */
    uint32_t in, out, weights, scale, scale_shift, scale_bias;
} ne16_layer_t;

/* Output size and element sizes. */
unsigned ne16_layer_ho(const ne16_layer_t *l);
unsigned ne16_layer_wo(const ne16_layer_t *l);
unsigned ne16_layer_eb(const ne16_layer_t *l); /* input element bytes 1/2 */
unsigned ne16_layer_ob(const ne16_layer_t *l); /* output element bytes 1/2/4 */
int ne16_layer_wmin(const ne16_layer_t *l);

/* Check the layer is something the drivers support; 0 or -1 with a message in err. */
int ne16_layer_check(const ne16_layer_t *l, char *err, size_t errlen);
/* Number of jobs the layer needs (1, or one per 2x2 block when strided). */
size_t ne16_driver_num_jobs(const ne16_layer_t *l);
/* Fill regs[0..n) (24 words each, register 0x20 first). Returns the number of jobs, or -1 with err set
 * (invalid layer, or more than max jobs). */
int ne16_driver_jobs(const ne16_layer_t *l, uint32_t (*regs)[NE16_NUM_JOB_REGS], size_t max, char *err, size_t errlen);

/* 3.2 / 3.3: byte address of input element (h, w, c) and output element (h, w, k); linear: h = w = 0. */
uint32_t ne16_in_addr(const ne16_layer_t *l, unsigned h, unsigned w, unsigned c);
uint32_t ne16_out_addr(const ne16_layer_t *l, unsigned h, unsigned w, unsigned k);
/* Bytes of input / output tensors (dense HWC). */
size_t ne16_in_bytes(const ne16_layer_t *l);
size_t ne16_out_bytes(const ne16_layer_t *l);

/* 3.4: weight buffer size and encoding. w holds signed weights, logical order
 * 3x3: [ko][ki][ky][kx]; DW: [k][ky][kx]; 1x1 and linear: [ko][ki]. Each must satisfy
 * 0 <= w - wmin < 2^qw. Returns 0, or -1 with err naming the first bad weight. */
size_t ne16_weights_bytes(const ne16_layer_t *l);
int ne16_weights_encode(const ne16_layer_t *l, const int16_t *w, uint8_t *buf, char *err, size_t errlen);
#endif
