/* APB4 master: the host side of the NE16 and MAX78000 register buses (shared/spec/ne16.md §1.2,
 * max78000.md §1.1). Per-cycle state machine in the style of csb_master: apb_master_tick() is called once
 * per rising clock edge with the slave's outputs sampled at that edge and returns the values to drive
 * until the next edge. Requests are queued and run one at a time: SETUP (PSEL=1, PENABLE=0) for one
 * cycle, then ACCESS (PSEL=1, PENABLE=1) until PREADY=1. Responses are popped in request order. */
#ifndef APB_MASTER_H
#define APB_MASTER_H
#include "bfm_env.h"
#include "rng.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct apb_req {
    uint32_t addr; /* PADDR as is (byte address; sub-word writes keep PADDR[1:0], max78000 D02) */
    uint32_t data; /* PWDATA */
    uint8_t strb;  /* PSTRB for writes (reads drive 0, as APB4 requires) */
    uint8_t prot;  /* PPROT */
    bool write;
    bool expect_error; /* PSLVERR is the expected outcome: report it only in the response */
    uint64_t tag;      /* caller's cookie, returned with the response */
} apb_req_t;

typedef struct apb_resp {
    uint64_t tag;
    uint32_t addr;
    uint32_t rdata; /* PRDATA in the completing cycle (reads; 0 for writes) */
    bool write;
    bool slverr;          /* PSLVERR in the completing cycle */
    bool timeout;         /* PREADY never came: the transfer was abandoned (already an error) */
    unsigned wait_states; /* ACCESS cycles with PREADY=0 */
    uint64_t cycle;       /* cycle the transfer completed */
} apb_resp_t;

typedef struct apb_in { /* slave outputs, sampled at the edge */
    bool pready;
    uint32_t prdata;
    bool pslverr;
} apb_in_t;

typedef struct apb_out { /* driven to the slave until the next edge */
    bool psel, penable, pwrite;
    uint32_t paddr, pwdata;
    uint8_t pstrb, pprot;
} apb_out_t;

typedef struct apb_cfg {
    unsigned idle_pct;      /* chance (percent) of an idle cycle before each transfer's SETUP */
    unsigned ready_timeout; /* ACCESS cycles with PREADY=0 before it is an error; 0 = 256 */
} apb_cfg_t;

typedef struct apb_master apb_master_t;

apb_master_t *apb_master_new(const bfm_env_t *env, const char *name, const apb_cfg_t *cfg, uint64_t seed);
void apb_master_free(apb_master_t *m);
void apb_master_push(apb_master_t *m, const apb_req_t *req);
bool apb_master_pop(apb_master_t *m, apb_resp_t *resp);
bool apb_master_idle(const apb_master_t *m); /* nothing queued, no transfer in progress */
/* Errors through env: PSLVERR on a request not marked expect_error; PREADY low for more than
 * ready_timeout ACCESS cycles (the transfer is then abandoned and answered with timeout set). */
void apb_master_tick(apb_master_t *m, const apb_in_t *in, apb_out_t *out);
/* Completed-transfer observer (the passive monitor the golden model listens to): called in the cycle a
 * transfer completes, with the slave's PRDATA and PSLVERR. Not called for abandoned transfers. */
typedef void (*apb_accept_fn)(void *user, const apb_req_t *req, uint32_t rdata, bool slverr, uint64_t cycle);
void apb_master_on_accept(apb_master_t *m, apb_accept_fn fn, void *user);
#endif
