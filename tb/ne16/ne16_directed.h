/* Directed NE16 tests (spec ne16.md section 5 examples, streamin chain, 3x3 throughput job). Each builds a
 * program; 0 or -1 with err. */
#ifndef NE16_DIRECTED_H
#define NE16_DIRECTED_H
#include "ne16_driver.h"
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int ne16_ex1(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_ex2(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_ex3(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_ex4(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_ex5(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_ex6(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_ex7(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_ex8(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_ex9(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_streamin_chain(program_t *p, uint64_t seed, char *err, size_t errlen);
/* The throughput jobs (test name = job name): i-th entry, NULL past the last. */
typedef struct {
    const char *name;
    ne16_layer_mode_t mode;
    unsigned ki, ko, hw, qw; /* hw: input height = width (linear: 1) */
    const char *what;
} ne16_perf_job_t;
const ne16_perf_job_t *ne16_perf_job(size_t i);
int ne16_perf(program_t *p, const char *name, uint64_t seed, char *err, size_t errlen);
#endif
