/* CDP (+CDP_RDMA) stimulus: constrained-random LRN jobs over the configuration space of spec
 * nvdla_datapath.md §4 (LUT contents, LE exponent/linear and LO index settings, priorities, slopes, LRN
 * sizes, bypasses, converters, cube sizes and strides), both ping-pong groups, back-to-back jobs; a hang test. */
#ifndef CDP_GEN_H
#define CDP_GEN_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int cdp_random(program_t *p, uint64_t seed, char *err, size_t errlen);
int cdp_b2b(program_t *p, uint64_t seed, char *err, size_t errlen);
/* cdp_random with both LO-table ends negative (start < end < 0). */
int cdp_lut_neg(program_t *p, uint64_t seed, char *err, size_t errlen);
int cdp_hang(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
