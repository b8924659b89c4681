/* NE16 TCDM memory slave: N lock-stepped 32-bit HWPE-Mem ports (shared/spec/ne16.md §1.3, rules M1-M7)
 * over a mem_t. Per-cycle state machine: tcdm_slave_tick() is called once per rising edge with the
 * engine's outputs sampled at that edge and returns the values to drive until the next edge.
 *
 * Timing: the gnt driven during a cycle is the memory's offer for that cycle (registered, so `req` never
 * depends combinationally on it, M3); a transaction completes at the edge where req && gnt. All ports are
 * granted together (M2). Read data and r_valid come in the cycle after the grant (M4), and a new
 * transaction may be granted in that same cycle.
 *
 * Unmapped pattern (M6, option): with `unmapped_pattern` set, a byte read returns memory only when it is
 * "mapped": written through this slave, or declared with tcdm_slave_map() (the test bench maps every
 * region it loads). Other bytes return tcdm_unmapped_byte(seed, addr), a deterministic pseudo-random
 * value, so results that depend on bytes the spec says are unused show up as mismatches. */
#ifndef TCDM_SLAVE_H
#define TCDM_SLAVE_H
#include "bfm_env.h"
#include "mem.h"
#include <stdbool.h>
#include <stdint.h>

#define TCDM_MAX_PORTS 16

typedef struct tcdm_port_in { /* engine outputs of one port, sampled at the edge */
    bool req;
    uint32_t add;  /* word-aligned byte address */
    bool wen;      /* 1 = read, 0 = write */
    uint8_t be;    /* byte enables [3:0] */
    uint32_t data; /* store data */
} tcdm_port_in_t;

typedef struct tcdm_port_out { /* memory outputs of one port, driven until the next edge */
    bool gnt;
    bool r_valid;
    uint32_t r_data;
} tcdm_port_out_t;

typedef struct tcdm_in {
    tcdm_port_in_t port[TCDM_MAX_PORTS];
} tcdm_in_t;
typedef struct tcdm_out {
    tcdm_port_out_t port[TCDM_MAX_PORTS];
} tcdm_out_t;

typedef struct tcdm_cfg {
    unsigned nports;        /* 1..TCDM_MAX_PORTS (NE16: 9) */
    unsigned gnt_stall_pct; /* chance per cycle that gnt is low on all ports */
    bool unmapped_pattern;  /* M6: unmapped bytes read as a seeded pattern instead of memory */
    bool r_valid_on_write;  /* also pulse r_valid after a granted write (M4 allows it) */
} tcdm_cfg_t;

typedef struct tcdm_stats {
    uint64_t reads, writes; /* granted transactions */
    uint64_t bytes_written;
    uint64_t stall_cycles; /* cycles with req high and gnt low */
} tcdm_stats_t;

typedef struct tcdm_slave tcdm_slave_t;

tcdm_slave_t *tcdm_slave_new(const bfm_env_t *env, const char *name, mem_t *mem, const tcdm_cfg_t *cfg, uint64_t seed);
void tcdm_slave_free(tcdm_slave_t *s);
/* Protocol checks (errors through env, each with the cycle): M1 lock-step (all req equal, all wen equal,
 * add[i] = A + 4i, A word-aligned). Not checked, because HWPE-Mem does not require them (pulp-platform/hci
 * protocols.rst, rules 1-3): an ungranted request may change or be withdrawn; reads may carry any be. */
void tcdm_slave_tick(tcdm_slave_t *s, const tcdm_in_t *in, tcdm_out_t *out);
bool tcdm_slave_idle(const tcdm_slave_t *s); /* no response pending */
tcdm_stats_t tcdm_slave_stats(const tcdm_slave_t *s);
/* Mark [addr, addr+n) as mapped for the unmapped-pattern option (no effect on memory contents). */
void tcdm_slave_map(tcdm_slave_t *s, uint32_t addr, uint32_t n);
/* The pattern byte an unmapped address reads as. */
uint8_t tcdm_unmapped_byte(uint64_t seed, uint32_t addr);
/* Write observer: called per port for every granted write with be != 0. */
typedef void (*tcdm_write_fn)(void *user, uint32_t addr, uint32_t data, uint8_t be, uint64_t cycle);
void tcdm_slave_on_write(tcdm_slave_t *s, tcdm_write_fn fn, void *user);
#endif
