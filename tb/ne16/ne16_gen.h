/* Seeded constrained-random NE16 stimulus over the configuration space of spec ne16.md 6.1: layers built
 * through the 3.7-3.9 drivers, 20 % of jobs with the fields the engine ignores (2.2) randomised, 10 %
 * illegal jobs (6.2). Mode x weight bits steps through all 32 combinations by job index (seed * jobs +
 * job), so consecutive seeds cover every combination deterministically. */
#ifndef NE16_GEN_H
#define NE16_GEN_H
#include "ne16_cov.h"
#include "ne16_driver.h"
#include "ne16_fw.h"
#include "rng.h"
#include <stddef.h>
#include <stdint.h>

/* A random layer of the given mode and Qw, sized so one job stays under ~max_cycles (estimate). */
void ne16_random_layer(rng_t *g, ne16_layer_t *l, ne16_layer_mode_t mode, unsigned qw, uint64_t max_cycles);
/* The same with the numeric configuration of one full-cross bin forced (MODE16, NORM_BITS, QUANT_BITS,
 * STREAMOUT=1, NORM_BIAS, NORM_SHIFT, ROUND; mode and Qw from the bin); everything else random as above. */
void ne16_random_layer_bin(rng_t *g, ne16_layer_t *l, const ne16_fullbin_t *b, uint64_t max_cycles);
/* Randomise the fields a job ignores (2.2); the job's results must not change. */
void ne16_perturb_ignored(rng_t *g, uint32_t regs[NE16_NUM_JOB_REGS]);
/* Make a legal job illegal with one of the 6.2 conditions (1..7, chosen by `which`). */
void ne16_make_illegal(rng_t *g, uint32_t regs[NE16_NUM_JOB_REGS], unsigned which);
/* Program of `njobs` random jobs (test "random"). */
int ne16_gen_random(program_t *p, uint64_t seed, unsigned njobs, char *err, size_t errlen);
#endif
