/* MAX78000 testbench internals shared by the acc_ops file (max78000_tb.c), the checker
 * (max78000_check.c), the test registry (max78000_tests.c) and the generators.
 *   - Bus addresses are APB byte addresses (full system PADDR, spec D01). Bit 32 of a `w`/`r` address
 *     (MAX78000_EXPECT_SLVERR) marks an access whose expected outcome is PSLVERR: it is then not an error,
 *     but completing OKAY is.
 *   - `wait_irq` with mask 0 waits for the `irq` line (spec D06). */
#ifndef MAX78000_TB_H
#define MAX78000_TB_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

#define MAX78000_EXPECT_SLVERR (1ull << 32)

/* Test registry (max78000_tests.c). */
int max78000_build_test(const char *test, uint64_t seed, program_t *p, char *err, size_t errlen);
#endif
