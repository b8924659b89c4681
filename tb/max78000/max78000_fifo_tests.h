/* MAX78000 FIFO register tests (spec 2.1, D10): levels, flags, thresholds, dropped writes, the interrupt. */
#ifndef MAX78000_FIFO_TESTS_H
#define MAX78000_FIFO_TESTS_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int m7_fifo_regs(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_fifo_irq(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
