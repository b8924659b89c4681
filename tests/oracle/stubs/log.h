// Stands in for cmod's include/log.h in the oracle's build of cmod's HLS wrappers (tests/test_nvdla_fp_oracle.py):
// their debug prints do nothing, and a FAIL (an invalid pooling method, which the oracle never sends) aborts.
#include <stdio.h>
#include <stdlib.h>
#define cslDebug(args)
#define FAIL(args) (fprintf(stderr, "cmod FAIL\n"), abort())
