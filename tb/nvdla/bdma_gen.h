/* BDMA stimulus: directed and constrained-random jobs as programs. */
#ifndef BDMA_GEN_H
#define BDMA_GEN_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int bdma_sanity(program_t *p, uint64_t seed, char *err, size_t errlen);
int bdma_random(program_t *p, uint64_t seed, char *err, size_t errlen);
int bdma_b2b(program_t *p, uint64_t seed, char *err, size_t errlen);
int bdma_queue_full(program_t *p, uint64_t seed, char *err, size_t errlen);
int bdma_empty_launch(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
