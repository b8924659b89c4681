/* Plusarg checking against the simulator's table (tb_plusargs, generated from tb/common/plusargs.tsv and
 * tb/<acc>/<acc>_plusargs.tsv by tb/common/gen_plusargs.py): a mistyped plusarg stops the run with the list
 * of known ones and a "did you mean" instead of being silently ignored. */
#ifndef PLUSARGS_H
#define PLUSARGS_H
#include "sim.h"
#include <stdio.h>

/* The table entry of plusarg `name` (len characters), or NULL. */
const sim_plusarg_def_t *plusarg_find(const char *name, size_t len);
/* Checks argv[1..argc-1]. Returns 0 when all are known, 1 after printing the table for +help, 2 after
 * printing one line naming the first unknown plusarg (with a suggestion) and the known ones, or the first
 * value out of its range. */
int plusargs_check(const char *acc, int argc, char **argv, FILE *out, FILE *err);
/* A strict unsigned 64-bit number: decimal or 0x hex, no sign, no garbage, no overflow. 0 or -1. */
int plusarg_parse_u64(const char *v, uint64_t *out);
/* Checks value v (NULL: "+name" without '=') against the table's value column; 0, or -1 with why. */
int plusarg_check_value(const sim_plusarg_def_t *d, const char *v, char *why, size_t n);
/* The checks of values that need more than the table: +watchdog/+max_cycles at least 1, every +features name
 * a feature of this DUT (with a "did you mean"). 0, or -1 with one line in err. */
int sim_check_args(const sim_t *s, char *err, size_t n);
/* The table as `make help` prints it (gen_plusargs.py help). */
void plusargs_print(const char *acc, FILE *out);
#endif
