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
 * printing one line naming the first unknown plusarg (with a suggestion) and the known ones. */
int plusargs_check(const char *acc, int argc, char **argv, FILE *out, FILE *err);
/* The table as `make help` prints it (gen_plusargs.py help). */
void plusargs_print(const char *acc, FILE *out);
#endif
