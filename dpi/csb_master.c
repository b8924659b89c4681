/* NVDLA CSB master (shared/spec/nvdla.md §3.1): issues queued requests one per handshake, holds each
 * stable until ready, and matches the in-order response stream against the outstanding FIFO. */
#include "csb_master.h"
#include "fifo.h"

#include <inttypes.h>
#include <stdio.h>

enum { CSB_DEFAULT_TIMEOUT = 64 }; /* spec: our RTL answers within 64 cycles */

typedef struct pending {
    csb_req_t req;
    uint64_t cycle; /* acceptance cycle */
    bool late;      /* timeout already reported */
} pending_t;

struct csb_master {
    const bfm_env_t *env;
    char name[32];
    csb_cfg_t cfg;
    rng_t rng;
    fifo_t reqs;  /* csb_req_t: queued, not yet presented */
    fifo_t pend;  /* pending_t: accepted, awaiting a response */
    fifo_t resps; /* csb_resp_t: ready for csb_master_pop */
    bool presenting;
    csb_req_t cur;
    uint64_t ticks;
    csb_accept_fn on_accept;
    void *on_accept_user;
};

static uint64_t now(const csb_master_t *m) { return m->env && m->env->cycle ? *m->env->cycle : m->ticks; }

static bool wants_response(const csb_req_t *r) { return !r->write || r->nposted; }

static const char *kind(const csb_req_t *r)
{
    return !r->write ? "read" : r->nposted ? "non-posted write" : "posted write";
}

csb_master_t *csb_master_new(const bfm_env_t *env, const char *name, const csb_cfg_t *cfg, uint64_t seed)
{
    csb_master_t *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->env = env;
    snprintf(m->name, sizeof m->name, "%s", name ? name : "csb");
    if (cfg) m->cfg = *cfg;
    if (m->cfg.resp_timeout == 0) m->cfg.resp_timeout = CSB_DEFAULT_TIMEOUT;
    rng_seed_stream(&m->rng, seed, m->name);
    fifo_init(&m->reqs, sizeof(csb_req_t), 64);
    fifo_init(&m->pend, sizeof(pending_t), m->cfg.max_outstanding ? m->cfg.max_outstanding : 64);
    fifo_init(&m->resps, sizeof(csb_resp_t), 64);
    return m;
}

void csb_master_free(csb_master_t *m)
{
    if (!m) return;
    fifo_free(&m->reqs);
    fifo_free(&m->pend);
    fifo_free(&m->resps);
    free(m);
}

void csb_master_push(csb_master_t *m, const csb_req_t *req)
{
    csb_req_t r = *req;
    if (r.addr & 3)
        bfm_errorf(m->env, m->name,
                   "cycle %" PRIu64 ": request to byte address 0x%08" PRIx32
                   " is not 4-byte aligned (sent as word 0x%04" PRIx32 ")",
                   now(m), r.addr, (r.addr >> 2) & 0xFFFF);
    if (r.addr >> 18)
        bfm_errorf(m->env, m->name,
                   "cycle %" PRIu64 ": byte address 0x%08" PRIx32 " does not fit the 16-bit CSB word address", now(m),
                   r.addr);
    if (!r.write) r.nposted = false;
    fifo_push(&m->reqs, &r);
}

bool csb_master_pop(csb_master_t *m, csb_resp_t *resp)
{
    if (fifo_empty(&m->resps)) return false;
    fifo_pop(&m->resps, resp);
    return true;
}

bool csb_master_idle(const csb_master_t *m) { return fifo_empty(&m->reqs) && !m->presenting && fifo_empty(&m->pend); }

void csb_master_on_accept(csb_master_t *m, csb_accept_fn fn, void *user)
{
    m->on_accept = fn;
    m->on_accept_user = user;
}

/* One response pulse sampled at this edge: match it with the oldest outstanding request. */
static void take_response(csb_master_t *m, bool is_read, uint32_t rdata, uint64_t t)
{
    const char *sig = is_read ? "read data (nvdla2csb_valid)" : "write completion (nvdla2csb_wr_complete)";
    if (fifo_empty(&m->pend)) {
        bfm_errorf(m->env, m->name, "cycle %" PRIu64 ": %s with no request outstanding", t, sig);
        return;
    }
    pending_t p;
    fifo_pop(&m->pend, &p);
    if (is_read == p.req.write)
        bfm_errorf(m->env, m->name,
                   "cycle %" PRIu64 ": %s but the oldest outstanding request is a %s of 0x%08" PRIx32
                   " (responses out of order or of the wrong kind)",
                   t, sig, kind(&p.req), p.req.addr);
    csb_resp_t r = {
        .tag = p.req.tag, .addr = p.req.addr, .data = is_read ? rdata : 0, .write = p.req.write, .cycle = t};
    fifo_push(&m->resps, &r);
    if (m->env && m->env->log_enabled) {
        if (is_read)
            bfm_logf(m->env, m->name,
                     "cycle %" PRIu64 ": rsp read  0x%08" PRIx32 " = 0x%08" PRIx32 " (%" PRIu64 " cycles)", t,
                     p.req.addr, rdata, t - p.cycle);
        else
            bfm_logf(m->env, m->name, "cycle %" PRIu64 ": rsp write 0x%08" PRIx32 " complete (%" PRIu64 " cycles)", t,
                     p.req.addr, t - p.cycle);
    }
}

void csb_master_tick(csb_master_t *m, const csb_in_t *in, csb_out_t *out)
{
    uint64_t t = now(m);
    m->ticks++;

    /* Responses first: a response at this edge belongs to a request accepted at an earlier edge. */
    if (in->rvalid && in->wr_complete) {
        bfm_errorf(m->env, m->name,
                   "cycle %" PRIu64 ": nvdla2csb_valid and nvdla2csb_wr_complete in the same"
                   " cycle (at most one response per cycle)",
                   t);
        if (!fifo_empty(&m->pend)) take_response(m, !((pending_t *)fifo_at(&m->pend, 0))->req.write, in->rdata, t);
    } else if (in->rvalid || in->wr_complete) {
        take_response(m, in->rvalid, in->rdata, t);
    }

    if (!fifo_empty(&m->pend)) {
        pending_t *h = fifo_at(&m->pend, 0);
        if (!h->late && t - h->cycle > m->cfg.resp_timeout) {
            h->late = true;
            bfm_errorf(m->env, m->name,
                       "cycle %" PRIu64 ": no response within %u cycles to the %s of 0x%08" PRIx32
                       " accepted at cycle %" PRIu64,
                       t, m->cfg.resp_timeout, kind(&h->req), h->req.addr, h->cycle);
        }
    }

    if (m->presenting && in->ready) {
        if (m->on_accept) m->on_accept(m->on_accept_user, &m->cur, t);
        if (m->env && m->env->log_enabled) {
            if (m->cur.write)
                bfm_logf(m->env, m->name, "cycle %" PRIu64 ": req %s 0x%08" PRIx32 " = 0x%08" PRIx32, t,
                         m->cur.nposted ? "write-np" : "write", m->cur.addr, m->cur.data);
            else bfm_logf(m->env, m->name, "cycle %" PRIu64 ": req read  0x%08" PRIx32, t, m->cur.addr);
        }
        if (wants_response(&m->cur)) {
            pending_t p = {.req = m->cur, .cycle = t};
            fifo_push(&m->pend, &p);
        }
        m->presenting = false;
    }

    if (!m->presenting && !fifo_empty(&m->reqs)) {
        const csb_req_t *next = fifo_at(&m->reqs, 0);
        bool blocked = m->cfg.max_outstanding && wants_response(next) && fifo_count(&m->pend) >= m->cfg.max_outstanding;
        if (!blocked && !rng_chance(&m->rng, m->cfg.idle_pct)) {
            fifo_pop(&m->reqs, &m->cur);
            m->presenting = true;
        }
    }

    if (m->presenting) {
        out->valid = true;
        out->addr = (uint16_t)(m->cur.addr >> 2);
        out->wdat = m->cur.data;
        out->write = m->cur.write;
        out->nposted = m->cur.nposted;
    } else {
        *out = (csb_out_t){0};
    }
}
