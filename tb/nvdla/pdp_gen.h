/* PDP (+PDP_RDMA) stimulus: constrained-random pooling jobs over the configuration space of spec
 * nvdla_datapath.md §3 (methods, kernels, strides, pads and pad values, reciprocals, split width, cube
 * sizes and strides), both ping-pong groups, back-to-back jobs, on-the-fly input from SDP; a hang test. */
#ifndef PDP_GEN_H
#define PDP_GEN_H
#include "program.h"
#include <stddef.h>
#include "rng.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct pdp_geom {
    unsigned method, kw, kh, sw, sh, pl, pt, pr, pb;
    uint32_t wi, hi, wo, ho, c, s; /* s: surfaces of nv_small's 8-channel atoms */
    unsigned parts, of, om, ol;    /* split: first / middle / last output widths */
} pdp_geom_t;
/* A legal pooling geometry within lim_w x lim_h x lim_c (method 0 avg, 1 max, 2 min; split partitions when
 * allowed): the constraints of nv_small's jobs, shared by nv_full's (nvf_dp_gen.c). */
void pdp_pick_geom(rng_t *r, pdp_geom_t *g, uint32_t lim_w, uint32_t lim_h, uint32_t lim_c, bool allow_split);

int pdp_random(program_t *p, uint64_t seed, char *err, size_t errlen);
int pdp_b2b(program_t *p, uint64_t seed, char *err, size_t errlen);
int pdp_onfly(program_t *p, uint64_t seed, char *err, size_t errlen);
int pdp_hang(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
