/* NVDLA CSB master: the host side of csb2nvdla / nvdla2csb (shared/spec/nvdla.md §3.1).
 * Per-cycle state machine: csb_master_tick() is called once per rising clock edge with the DUT's outputs
 * as sampled at that edge and returns the values to drive until the next edge.
 * Requests are queued by the sequencer and issued in order; read data and non-posted write completions
 * return in request order and are popped with csb_master_pop(). */
#ifndef CSB_MASTER_H
#define CSB_MASTER_H
#include "bfm_env.h"
#include "rng.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct csb_req {
    uint32_t addr; /* BYTE address (the wire carries addr >> 2); must be 4-byte aligned */
    uint32_t data; /* write data */
    bool write;
    bool nposted; /* writes only: expect a wr_complete */
    uint64_t tag; /* caller's cookie, returned with the response */
} csb_req_t;

typedef struct csb_resp {
    uint64_t tag;
    uint32_t addr;  /* byte address of the request */
    uint32_t data;  /* read data (0 for write completions) */
    bool write;     /* true: non-posted write completion */
    uint64_t cycle; /* cycle the response was sampled */
} csb_resp_t;

typedef struct csb_in { /* DUT outputs, sampled at the edge */
    bool ready;         /* csb2nvdla_ready */
    bool rvalid;        /* nvdla2csb_valid */
    uint32_t rdata;     /* nvdla2csb_data */
    bool wr_complete;   /* nvdla2csb_wr_complete */
} csb_in_t;

typedef struct csb_out { /* driven to the DUT until the next edge */
    bool valid;
    uint16_t addr; /* word address */
    uint32_t wdat;
    bool write;
    bool nposted;
} csb_out_t;

typedef struct csb_cfg {
    unsigned idle_pct;        /* chance (percent) to insert an idle cycle before presenting a request */
    unsigned max_outstanding; /* responses in flight before the master stops issuing; 0 = unlimited */
    unsigned resp_timeout;    /* cycles a response may take before it is a protocol error (spec: 64) */
} csb_cfg_t;

typedef struct csb_master csb_master_t;

csb_master_t *csb_master_new(const bfm_env_t *env, const char *name, const csb_cfg_t *cfg, uint64_t seed);
void csb_master_free(csb_master_t *m);
void csb_master_push(csb_master_t *m, const csb_req_t *req);
bool csb_master_pop(csb_master_t *m, csb_resp_t *resp);
bool csb_master_idle(const csb_master_t *m); /* nothing queued, nothing awaiting a response */
/* Protocol checks (errors through env): response with nothing outstanding; rvalid and wr_complete in the
 * same cycle; a read response when the oldest outstanding request is a write, or vice versa; no response
 * within resp_timeout cycles. The master holds the payload stable while valid && !ready. */
void csb_master_tick(csb_master_t *m, const csb_in_t *in, csb_out_t *out);
/* Accepted-request observer (the passive monitor the golden model listens to): called in the cycle a
 * request is accepted (valid && ready). */
typedef void (*csb_accept_fn)(void *user, const csb_req_t *req, uint64_t cycle);
void csb_master_on_accept(csb_master_t *m, csb_accept_fn fn, void *user);
#endif
