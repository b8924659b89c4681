/* PDP (+PDP_RDMA) stimulus: constrained-random pooling jobs over the configuration space of spec
 * nvdla_datapath.md §3 (methods, kernels, strides, pads and pad values, reciprocals, split width, cube
 * sizes and strides), both ping-pong groups, back-to-back jobs, on-the-fly input from SDP; a hang test. */
#ifndef PDP_GEN_H
#define PDP_GEN_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int pdp_random(program_t *p, uint64_t seed, char *err, size_t errlen);
int pdp_b2b(program_t *p, uint64_t seed, char *err, size_t errlen);
int pdp_onfly(program_t *p, uint64_t seed, char *err, size_t errlen);
int pdp_hang(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
