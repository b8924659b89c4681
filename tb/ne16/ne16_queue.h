/* NE16 job-queue and control tests (spec ne16.md 2.3). Each builds a program; 0 or -1 with err. */
#ifndef NE16_QUEUE_H
#define NE16_QUEUE_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int ne16_q_two_inflight(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_q_acquire_full(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_q_commit_only(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_q_soft_clear(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_q_b2b_modes(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_q_sw_sync(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_q_ctx_reuse(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
