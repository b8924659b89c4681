/* NVIDIA's trace-player tests of nv_full (../shared/upstream/nvdla_nv_full/verif/traces/traceplayer/<test>/:
 * input.txn and its .dat files) as a program, the semantics of NVIDIA's verif/verilator harness
 * (input_txn_to_verilator.pl and nvdla.cpp): write_reg, read_reg, load_mem, dump_mem, wait; '#' comments.
 *   write_reg <csb> <data>               CSB write; <csb> = 0xffff<word address>: the low 16 bits are the CSB
 *                                        port's word address, the top 16 "misc" bits must be 0xffff or 0
 *   read_reg  <csb> <mask> <expected>    read, checked under mask; a read of GLB.S_INTR_STATUS polls (NVIDIA's
 *                                        harness retries a read that differs)
 *   load_mem  <addr> <bytes> <file.dat>  memory fill from a .dat file (32 bytes a line, "0xHH" each)
 *   dump_mem  <addr> <bytes> <file.dat>  the expected memory: every byte checked
 *   wait                                 wait for the interrupt
 * Memory addresses are DBB's (0x8xxxxxxx) or CVSRAM's (0x5xxxxxxx), the two responders of NVIDIA's harness;
 * CVSRAM's bytes are at NVDLA_CV_SPACE + address in the program (nvdla_golden.h). Every malformed line is an error
 * naming file:line and the field; every fill is bounded by its window. */
#ifndef NVFULL_TXN_H
#define NVFULL_TXN_H
#include "mem.h"
#include "program.h"
#include <stdbool.h>
#include <stddef.h>

#define NVFULL_TXN_POLL_TIMEOUT 2000000ull /* cycles a status poll may take */
#define NVFULL_TXN_IRQ_TIMEOUT 5000000ull  /* cycles a wait may take */
/* Idle clocks before a test's first line, as NVIDIA's harness gives them after reset ("letting buffers clear after
 * reset", verif/verilator/nvdla.cpp): CDMA's reset flush of the CBUF runs that long (FLUSH_DONE about 4,100 cycles
 * after reset on nv_full's RTL), and a test does not wait for it. */
#define NVFULL_TXN_SETTLE_CYCLES 4096ull

/* What a trace checks, for the run's statement of what it covered. */
typedef struct nvfull_txn_info {
    unsigned reads, polls, waits, writes, loads, dumps;
    uint64_t load_bytes, dump_bytes;
} nvfull_txn_info_t;

/* True when path is a trace-player test: a folder holding input.txn, or a file whose name ends in .txn. */
bool nvfull_txn_is(const char *path);
/* Reads the test into p (named after its folder). Returns 0, or -1 with "file:line: what (saw 'x')" in err. */
int nvfull_txn_load(program_t *p, const char *path, nvfull_txn_info_t *info, char *err, size_t errlen);
/* The memory the harness has, as a fence: DBB's and CVSRAM's 256 MiB windows. */
const mem_region_t *nvfull_txn_windows(size_t *n);
#endif
