/* Test cross_sweep: deterministic coverage of the full product cross of ne16_cov.h. Seed s builds one small
 * legal layer (through the 3.7-3.9 drivers) for each allowed bin (s*K + i) mod N, i < K (N = allowed bins),
 * with everything outside the bin (shape, padding, stride, masks, weight offset, streamin, data) random by
 * seed. Any K consecutive seeds x K >= N therefore hit every bin, whatever the base seed. Every job is a real
 * RTL job checked by the golden model; the generator also checks that each job lands in its bin. */
#ifndef NE16_SWEEP_H
#define NE16_SWEEP_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

enum { NE16_SWEEP_BINS_PER_SEED = 64 }; /* K: 4032 allowed bins = 63 seeds (tests/lists/ne16.nightly.list) */

/* Cycle budget (estimate) of one sweep layer: small tensors keep the whole cross affordable nightly. */
#define NE16_SWEEP_MAX_CYCLES 5000u

int ne16_gen_cross_sweep(program_t *p, uint64_t seed, unsigned bins_per_seed, char *err, size_t errlen);
/* Test smoke_gaps: one linear MODE16 job per Qw and one job per 6.2 illegal-job code (1..7), so the smoke list
 * covers them without the whole sweep. */
int ne16_gen_smoke_gaps(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
