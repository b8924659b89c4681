/* Importer of NVIDIA nv_small trace-player tests (<test>/<test>.cfg plus surface .dat files, grammar in
 * shared/spec/nvdla.md §7) into a program with the sequential replayer semantics of §7.5:
 *   OP_JOB <test>; every mem_init/mem_load in file order (OP_MEM_FILL / OP_MEM); every register command
 *   in file order (OP_WRITE posted, OP_READ, OP_POLL); then per intr_notify in file order an OP_WAIT_IRQ
 *   on its GLB status bit followed by the checks bound to its sync id (OP_CHECK_CRC). */
#ifndef NVSMALL_CFG_H
#define NVSMALL_CFG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program.h"

/* Register name as written in the trace ("NVDLA_SDP.D_OP_ENABLE_0") -> CSB byte address. */
typedef bool (*nvsmall_resolve_fn)(void *user, const char *reg_name, uint32_t *byte_addr);

/* Timeouts given to the generated ops (cycles). */
#define NVSMALL_POLL_TIMEOUT 100000u
#define NVSMALL_IRQ_TIMEOUT 2000000u
/* ADDR and RANDOM mem_init patterns are materialised as bytes; refuse anything larger than this. */
#define NVSMALL_MAX_GEN_BYTES (16u << 20)

/* Appends the test to p (initialised by the caller, e.g. program_init(p, "nvdla", NULL, seed); the seed
 * drives RANDOM fills) and sets p->name to the test directory's base name. Returns 0, or -1 with
 * "file:line: message" in err; on error p may hold a partial program (the caller frees it). */
int nvsmall_cfg_load(program_t *p, const char *cfg_path, nvsmall_resolve_fn resolve, void *user, char *err,
                     size_t errlen);

/* The built-in event-name resolver: "<BLK>_<g>" (case-insensitive, e.g. "SDP_0", "cdma_dat_1") -> GLB
 * interrupt status bit number (spec §4.3). */
bool nvsmall_event_bit(const char *event, unsigned *bit);
#endif
