/* SDP (+SDP_RDMA) stimulus: constrained-random memory-to-memory jobs over the configuration space of
 * spec nvdla_datapath.md §2, both ping-pong groups, back-to-back jobs, don't-care junk; a hang test. */
#ifndef SDP_GEN_H
#define SDP_GEN_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int sdp_random(program_t *p, uint64_t seed, char *err, size_t errlen);
int sdp_b2b(program_t *p, uint64_t seed, char *err, size_t errlen);
int sdp_hang(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
