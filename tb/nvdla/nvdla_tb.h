/* NVDLA testbench context: bus models (CSB master, DBB AXI slave memory, interrupt monitor), the golden
 * model and its shadow memory, fault injection, and the GLB interrupt service used by OP_WAIT_IRQ. */
#ifndef NVDLA_TB_H
#define NVDLA_TB_H
#include "program.h"
#include <stdbool.h>
#include <stdint.h>

/* Test generators (nvdla_tests.c, a table of tb/common/test_registry.h): build the program of a named test; an
 * unknown name fails with the listing of all tests (`+test=?`). */
int nvdla_build_test(const char *test, uint64_t seed, bool by_capability, program_t *p, char *err, size_t errlen);
#endif
