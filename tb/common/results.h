/* Per-run results file (+results=<path>): one JSON object the regression runner aggregates. */
#ifndef RESULTS_H
#define RESULTS_H
#include "scoreboard.h"
#include <stdint.h>

typedef struct results_info {
    const char *acc, *dut, *test, *verdict, *reason;
    uint64_t seed, cycles;
    double wall_s;
    const scoreboard_t *sb;
    const char (*errors)[512];
    int nerrors;
} results_info_t;

void results_write(const char *path, const results_info_t *ri);
void results_write_setup_error(const char *acc, const char *path, const char *msg, uint64_t seed);
#endif
