/* Files of the checkout a simulator was built in, found upward from the simulator binary (build/<acc>/sim,
 * build/xrand/<acc>/sim, ...): the tables a run reads by default (cycle budgets, the DUT's deviations). */
#ifndef CHECKOUT_FILE_H
#define CHECKOUT_FILE_H
#include <stdio.h>

/* Opens <checkout>/<rel> and writes its path into `where` (relative to the working directory when inside it,
 * so messages carry no absolute paths); NULL when no folder up to 5 levels above the binary has it. */
FILE *checkout_fopen(const char *rel, char *where, size_t n);
#endif
