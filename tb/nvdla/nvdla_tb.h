/* NVDLA testbench context: bus models (CSB master, DBB AXI slave memory, interrupt monitor), the golden
 * model and its shadow memory, fault injection, and the GLB interrupt service used by OP_WAIT_IRQ. */
#ifndef NVDLA_TB_H
#define NVDLA_TB_H
#include "program.h"
#include <stdbool.h>
#include <stdint.h>

/* Test generators (nvdla_tests.c, a table of tb/common/test_registry.h): build the program of a named test; an
 * unknown name fails with the listing of all tests (`+test=?`). nv_full_map: the stimulus programs nv_full's map
 * (a DUT with feature nv_full_map, or golden-only with +fw_map=nv_full): a test written for it (nvf_gen.h) is
 * built in its nv_full form; a test written only for nv_full is skipped, saying so, on any other map. */
int nvdla_build_test(const char *test, uint64_t seed, bool by_capability, bool nv_full_map, program_t *p, char *err,
                     size_t errlen);
/* The test has an nv_full form (the caller configures the golden model as nv_full before building it). */
bool nvdla_test_for_nv_full(const char *test);
#endif
