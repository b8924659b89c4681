/* MAX78000 register tests generated from the register description (max78000_reg_table in the generated
 * golden/max78000/max78000_regs.h, from rtl/max78000/regs/max78000_regs.csv): reset values, write masks
 * with random PSTRB, address decode and PSLVERR (D05), wait states (D04), memory access during a run. */
#ifndef MAX78000_REGTESTS_H
#define MAX78000_REGTESTS_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int m7_reg_reset(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_reg_rw(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_reg_alias(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_reg_decode(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_reg_wait_states(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_reg_busy_slverr(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_neg_unexpected_slverr(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
