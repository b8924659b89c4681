/* NE16 register tests (reset values, read-back with PSTRB, PSLVERR cases) and the bus-error negative. */
#ifndef NE16_REGTESTS_H
#define NE16_REGTESTS_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int ne16_reg_reset(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_reg_rw(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_reg_errors(program_t *p, uint64_t seed, char *err, size_t errlen);
int ne16_neg_bus_error(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
