/* Named deviations a run continues past. A deviation of the DUT (tb/<acc>/duts/<dut>.deviations, format:
 * flow/deviations.py) with the line `continue yes` describes a difference that does not make the rest of
 * the run meaningless (e.g. one register read that a driver's check accepts either way): its error lines are
 * still printed as ERROR, but do not stop the run, so that the run goes on and compares its outputs. A run
 * that continued past one is never a PASS: it ends FAIL, and the regression calls it XFAIL <name> only when
 * every error line is explained and the "continued past" summary line (printed only when the run reached its
 * end having compared output bytes) is there (flow/deviations.py classify). */
#ifndef DEV_CONTINUE_H
#define DEV_CONTINUE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct dev_continue dev_continue_t;

/* The `continue` deviations of `path` that list `test` (or '*'). path NULL: none. Returns NULL and writes
 * "file:line: why" into err on a malformed file or a match that is not a POSIX extended regex (what the
 * simulator needs of a continued deviation); returns an empty set when the file has none. */
dev_continue_t *dev_continue_load(const char *path, const char *test, char *err, size_t n);
/* The name of the continued deviation whose match is found in the error line (counted), or NULL. */
const char *dev_continue_match(dev_continue_t *d, const char *line);
size_t dev_continue_hits(const dev_continue_t *d);
/* One line per deviation hit: "deviation NAME continued past N error line(s); ...". */
void dev_continue_summary(const dev_continue_t *d, FILE *f, unsigned long long bytes_compared);
void dev_continue_free(dev_continue_t *d);
#endif
