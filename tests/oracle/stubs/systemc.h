// Stands in for SystemC's header, which cmod's hls_wrapper/pdp_hls_wrapper.cpp includes and does not use: the oracle
// (tests/test_nvdla_fp_oracle.py) compiles the wrapper without SystemC.
#include <stdint.h>
