/* APB4 master: IDLE -> SETUP (one cycle) -> ACCESS (until PREADY) per queued request; back-to-back
 * transfers go straight from ACCESS to the next SETUP unless a seeded idle cycle is drawn. */
#include "apb_master.h"
#include "fifo.h"

#include <inttypes.h>
#include <stdio.h>

enum { APB_DEFAULT_TIMEOUT = 256 };

typedef enum { APB_IDLE, APB_SETUP, APB_ACCESS } apb_state_t;

struct apb_master {
    const bfm_env_t *env;
    char name[32];
    apb_cfg_t cfg;
    rng_t rng;
    fifo_t reqs;  /* apb_req_t */
    fifo_t resps; /* apb_resp_t */
    apb_state_t state;
    apb_req_t cur;
    unsigned waits;
    uint64_t ticks;
    apb_accept_fn on_accept;
    void *on_accept_user;
};

static uint64_t now(const apb_master_t *m) { return m->env && m->env->cycle ? *m->env->cycle : m->ticks; }

apb_master_t *apb_master_new(const bfm_env_t *env, const char *name, const apb_cfg_t *cfg, uint64_t seed)
{
    apb_master_t *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->env = env;
    snprintf(m->name, sizeof m->name, "%s", name ? name : "apb");
    if (cfg) m->cfg = *cfg;
    if (m->cfg.ready_timeout == 0) m->cfg.ready_timeout = APB_DEFAULT_TIMEOUT;
    rng_seed_stream(&m->rng, seed, m->name);
    fifo_init(&m->reqs, sizeof(apb_req_t), 64);
    fifo_init(&m->resps, sizeof(apb_resp_t), 64);
    return m;
}

void apb_master_free(apb_master_t *m)
{
    if (!m) return;
    fifo_free(&m->reqs);
    fifo_free(&m->resps);
    free(m);
}

void apb_master_push(apb_master_t *m, const apb_req_t *req) { fifo_push(&m->reqs, req); }

bool apb_master_pop(apb_master_t *m, apb_resp_t *resp)
{
    if (fifo_empty(&m->resps)) return false;
    fifo_pop(&m->resps, resp);
    return true;
}

bool apb_master_idle(const apb_master_t *m) { return m->state == APB_IDLE && fifo_empty(&m->reqs); }

void apb_master_on_accept(apb_master_t *m, apb_accept_fn fn, void *user)
{
    m->on_accept = fn;
    m->on_accept_user = user;
}

static void complete(apb_master_t *m, const apb_in_t *in, bool timeout, uint64_t t)
{
    const apb_req_t *r = &m->cur;
    apb_resp_t resp = {
        .tag = r->tag, .addr = r->addr, .write = r->write, .timeout = timeout, .wait_states = m->waits, .cycle = t};
    if (!timeout) {
        resp.rdata = r->write ? 0 : in->prdata;
        resp.slverr = in->pslverr;
        if (in->pslverr && !r->expect_error) {
            if (r->write)
                bfm_errorf(m->env, m->name,
                           "cycle %" PRIu64 ": PSLVERR on write of 0x%08" PRIx32 " (strb 0x%x) to"
                           " 0x%08" PRIx32,
                           t, r->data, r->strb, r->addr);
            else bfm_errorf(m->env, m->name, "cycle %" PRIu64 ": PSLVERR on read of 0x%08" PRIx32, t, r->addr);
        }
        if (m->on_accept) m->on_accept(m->on_accept_user, r, resp.rdata, resp.slverr, t);
        if (m->env && m->env->log_enabled) {
            if (r->write)
                bfm_logf(m->env, m->name,
                         "cycle %" PRIu64 ": write 0x%08" PRIx32 " = 0x%08" PRIx32 " strb 0x%x%s"
                         " (%u wait)",
                         t, r->addr, r->data, r->strb, in->pslverr ? " SLVERR" : "", m->waits);
            else
                bfm_logf(m->env, m->name, "cycle %" PRIu64 ": read  0x%08" PRIx32 " = 0x%08" PRIx32 "%s (%u wait)", t,
                         r->addr, in->prdata, in->pslverr ? " SLVERR" : "", m->waits);
        }
    }
    fifo_push(&m->resps, &resp);
}

void apb_master_tick(apb_master_t *m, const apb_in_t *in, apb_out_t *out)
{
    uint64_t t = now(m);
    m->ticks++;
    switch (m->state) {
    case APB_SETUP: /* SETUP lasted one cycle; ACCESS starts now */
        m->state = APB_ACCESS;
        m->waits = 0;
        break;
    case APB_ACCESS:
        if (in->pready) {
            complete(m, in, false, t);
            m->state = APB_IDLE;
        } else if (++m->waits > m->cfg.ready_timeout) {
            bfm_errorf(m->env, m->name,
                       "cycle %" PRIu64 ": PREADY low for %u ACCESS cycles on %s 0x%08" PRIx32 "; transfer abandoned",
                       t, m->waits, m->cur.write ? "write to" : "read of", m->cur.addr);
            complete(m, in, true, t);
            m->state = APB_IDLE;
        }
        break;
    case APB_IDLE: break;
    }
    if (m->state == APB_IDLE && !fifo_empty(&m->reqs) && !rng_chance(&m->rng, m->cfg.idle_pct)) {
        fifo_pop(&m->reqs, &m->cur);
        m->state = APB_SETUP;
    }
    if (m->state == APB_IDLE) {
        *out = (apb_out_t){0};
        return;
    }
    out->psel = true;
    out->penable = m->state == APB_ACCESS;
    out->pwrite = m->cur.write;
    out->paddr = m->cur.addr;
    out->pwdata = m->cur.write ? m->cur.data : 0;
    out->pstrb = m->cur.write ? (uint8_t)(m->cur.strb & 0xF) : 0;
    out->pprot = (uint8_t)(m->cur.prot & 7);
}
