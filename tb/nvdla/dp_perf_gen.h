/* Fixed-shape SDP/PDP/CDP jobs for throughput figures (flow/bench/nvdla_dp.py); the seed picks the shape. */
#ifndef DP_PERF_GEN_H
#define DP_PERF_GEN_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int sdp_perf(program_t *p, uint64_t seed, char *err, size_t errlen);
int pdp_perf(program_t *p, uint64_t seed, char *err, size_t errlen);
int cdp_perf(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
