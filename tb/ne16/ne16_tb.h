/* NE16 testbench: test registry (ne16_tests.c) and the conventions programs use with this testbench.
 *
 * Program conventions (native traces too):
 *   - Bus addresses are APB byte addresses (PADDR); bit 32 of a `w`/`wn`/`r` address (NE16_EXPECT_SLVERR)
 *     marks an access whose expected outcome is PSLVERR. Any other PSLVERR is a bus error. Independently,
 *     the testbench's reference model (ne16_model.c) checks every PSLVERR and every read value against
 *     spec ne16.md 1.2/2.1/2.3.
 *   - `wait_irq <n>` waits until n more evt_done_o pulses were seen (0 means 1), counting every pulse once.
 *   - `check_golden` compares every byte the golden model wrote (jobs run in job order when triggered,
 *     on the shadow memory) and flags DUT stores outside them; bytes of jobs a SOFT_CLEAR aborted are
 *     undefined and skipped. */
#ifndef NE16_TB_H
#define NE16_TB_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

#define NE16_EXPECT_SLVERR (1ull << 32)

int ne16_build_test(const char *test, uint64_t seed, program_t *p, char *err, size_t errlen);
#endif
