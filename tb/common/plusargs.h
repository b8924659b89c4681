/* Plusarg checking against the simulator's table (tb_plusargs, generated from tb/common/plusargs.tsv and
 * tb/<acc>/<acc>_plusargs.tsv by flow/gen_plusargs.py): a mistyped plusarg stops the run with the list
 * of known ones and a "did you mean" instead of being silently ignored. It knows the table and the command
 * line, nothing of the simulation: sim.c reads its plusargs through it, never the other way round. */
#ifndef PLUSARGS_H
#define PLUSARGS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One plusarg the simulator accepts. The table (NULL-terminated) is generated at build time from
 * tb/common/plusargs.tsv and tb/<acc>/<acc>_plusargs.tsv (flow/gen_plusargs.py); reading a plusarg
 * that is not in it is a testbench bug and aborts (sim_plusarg). */
typedef struct sim_plusarg_def {
    const char *name, *value, *dflt, *help;
    int repro; /* changes the run's outcome: a failure's repro line carries it */
} sim_plusarg_def_t;
extern const sim_plusarg_def_t tb_plusargs[];

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
/* The name of the NULL-terminated `list` closest to name[0..len) by edit distance, if within 2 edits; else NULL
 * (a "did you mean"). */
const char *plusarg_closest(const char *name, size_t len, const char *const *list);
/* The table as `make help` prints it (gen_plusargs.py help). */
void plusargs_print(const char *acc, FILE *out);
#endif
