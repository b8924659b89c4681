/* AXI4 slave memory for NVDLA's DBBIF subset (shared/spec/nvdla.md §3.2): AW, W, B, AR, R channels with
 * 8-bit ids, INCR bursts with len 0..15 (beats = len + 1) of one bus width each (beat_bytes: 8 for nv_small's
 * 64-bit DBB, 64 for nv_full's 512-bit DBB and CVIF), byte strobes, no RESP signals. On a bus wider than 8 bytes
 * a burst may start inside a beat, as AXI allows: beat k covers the beat-aligned address below the start plus
 * k beats, the byte lanes by address, and the strobes say which bytes a write beat carries.
 * Per-channel seeded backpressure (random low ready), random gaps on rvalid/bvalid, read and write
 * latency drawn uniformly from [min, max] cycles, per-id ordering always kept, optional reordering across
 * ids. Backed by a mem_t.
 * Protocol checks, reported through env->error with the cycle: valid withdrawn before its handshake;
 * payload changed while valid && !ready; burst crossing 4 KiB; address not 8-byte aligned; W beats beyond
 * the bursts announced on AW plus the data-before-address allowance; wlast on the wrong beat; more
 * outstanding transactions than the configured limit; X-free values are the caller's business. */
#ifndef AXI_SLAVE_H
#define AXI_SLAVE_H
#include "bfm_env.h"
#include "mem.h"
#include <stdbool.h>
#include <stdint.h>

/* The widest bus served: 512 bits. Beat data is in 64-bit words, word k holding byte lanes 8k..8k+7. */
enum { AXI_BEAT_MAX = 64, AXI_WORDS_MAX = AXI_BEAT_MAX / 8 };

typedef struct axi_cfg {
    unsigned beat_bytes;                              /* data bus width in bytes: 8, 16, 32 or 64; 0 means 8 */
    unsigned aw_stall_pct, w_stall_pct, ar_stall_pct; /* chance per cycle that ready is low */
    unsigned r_gap_pct, b_gap_pct;                    /* chance per cycle that a ready response waits */
    unsigned rd_lat_min, rd_lat_max;                  /* cycles from AR handshake to first R beat */
    unsigned wr_lat_min, wr_lat_max;                  /* cycles from last W beat to B */
    bool reorder_ids;                                 /* responses of different ids may overtake */
    unsigned max_outstanding;                         /* read bursts / write bursts each; >= 256 */
    uint64_t space; /* added to every 32-bit bus address in the memory: a second port's own window of one memory
                       (nv_full's CVIF: NVDLA_CV_SPACE), so that the stimulus and the scoreboard address it there */
} axi_cfg_t;

typedef struct axi_in { /* master (DUT) outputs, sampled at the edge */
    bool awvalid;
    uint8_t awid;
    uint8_t awlen;
    uint32_t awaddr;
    bool wvalid;
    uint64_t wdata[AXI_WORDS_MAX]; /* the first beat_bytes / 8 words count */
    uint64_t wstrb;                /* bit k: byte lane k */
    bool wlast;
    bool bready;
    bool arvalid;
    uint8_t arid;
    uint8_t arlen;
    uint32_t araddr;
    bool rready;
} axi_in_t;

typedef struct axi_out { /* slave outputs, driven until the next edge */
    bool awready, wready;
    bool bvalid;
    uint8_t bid;
    bool arready;
    bool rvalid;
    uint8_t rid;
    uint64_t rdata[AXI_WORDS_MAX]; /* the first beat_bytes / 8 words count */
    bool rlast;
} axi_out_t;

typedef struct axi_stats {
    uint64_t ar_bursts, r_beats, aw_bursts, w_beats, b_resps;
    uint64_t bytes_read, bytes_written;
    uint64_t b_not_ready; /* edges at which the master's bready was low: legal AXI, but a hang diagnosis names it
                             (nv_full's MCIF counts a B it holds once per cycle: nv_full.deviations) */
} axi_stats_t;

typedef struct axi_slave axi_slave_t;

/* NULL when out of memory or when cfg->beat_bytes is not 0, 8, 16, 32 or 64 (a setup error of the caller). */
axi_slave_t *axi_slave_new(const bfm_env_t *env, const char *name, mem_t *mem, const axi_cfg_t *cfg, uint64_t seed);
void axi_slave_free(axi_slave_t *s);
void axi_slave_tick(axi_slave_t *s, const axi_in_t *in, axi_out_t *out);
bool axi_slave_idle(const axi_slave_t *s); /* no burst in flight on any channel */
axi_stats_t axi_slave_stats(const axi_slave_t *s);
/* Write bursts whose B response has not been handshaked yet (AW accepted, B pending): up to `max` of them as
 * byte ranges [addr, addr + bytes). Returns how many there are in all. A master that signals completion
 * while one of its writes is here has not waited for its write responses. */
typedef struct axi_range {
    uint32_t addr, bytes;
} axi_range_t;
unsigned axi_slave_pending_writes(const axi_slave_t *s, axi_range_t *out, unsigned max);
/* Write observer: called as a W beat is committed to memory, once per 8-byte word of it with a strobe set (the
 * word's address, data and its 8 strobes), for logs and fault bookkeeping. */
typedef void (*axi_write_fn)(void *user, uint8_t id, uint32_t addr, uint64_t data, uint8_t strb, uint64_t cycle);
void axi_slave_on_write(axi_slave_t *s, axi_write_fn fn, void *user);
#endif
