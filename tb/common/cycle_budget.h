/* Cycle budgets of throughput jobs (tb/common/cycle_budgets.tsv): a job slower than its budget plus tolerance fails
 * the run, so that a throughput regression (which no output compare sees) cannot pass the nightly. */
#ifndef CYCLE_BUDGET_H
#define CYCLE_BUDGET_H
#include "sim.h"

/* Checks every finished job of the run against the budget table: `path` (+cycle_budgets=), else
 * tb/common/cycle_budgets.tsv found upward from the simulator's folder. A job over budget is a sim_error naming the
 * table line. A table that cannot be read when given explicitly, or a malformed line, is an error too. */
void cycle_budget_check(sim_t *s, const char *path, const char *test);
#endif
