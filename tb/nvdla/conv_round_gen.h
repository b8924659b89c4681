/* conv_round: a convolution whose CACC sums sit exactly on the rounding boundaries of a truncation of 17..20. */
#ifndef CONV_ROUND_GEN_H
#define CONV_ROUND_GEN_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int conv_round(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
