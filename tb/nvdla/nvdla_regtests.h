/* Register tests generated from the register table (golden/nvdla/nvdla_regmap.c): reset values,
 * read/write masks, ping-pong groups, interrupts, CDP LUT port. */
#ifndef NVDLA_REGTESTS_H
#define NVDLA_REGTESTS_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int nvdla_reg_reset(program_t *p, uint64_t seed, char *err, size_t errlen);
int nvdla_reg_rw(program_t *p, uint64_t seed, char *err, size_t errlen);
int nvdla_reg_pingpong(program_t *p, uint64_t seed, char *err, size_t errlen);
int nvdla_reg_intr(program_t *p, uint64_t seed, char *err, size_t errlen);
int nvdla_reg_cdp_lut(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
