/* NE16 testbench context (acc_ops_t): APB4 master as the configuration bus, TCDM slave memory with seeded
 * grant stalls, the event monitor, the control-plane reference model (ne16_model.c) fed by the APB accept
 * observer, the golden model run per triggered job on the shadow memory, the scoreboard check with
 * (k,h,w) coordinates and stray-store detection, per-job checks of spec 6.2/6.3, coverage and faults. */
#define _POSIX_C_SOURCE 200809L
#include "ne16_tb.h"
#include "apb_master.h"
#include "mem.h"
#include "ne16_cov.h"
#include "fcov.h"
#include "ne16_golden.h"
#include "ne16_model.h"
#include "ne16_nnx_host.h"
#include "rng.h"
#include "scoreboard.h"
#include "sim.h"
#include "svdpi.h"
#include "tcdm_slave.h"
#include <stdlib.h>
#include <string.h>

enum { NPORTS = 9, RESP_RING = 64, START_WITHIN = 10, REJECT_WITHIN = 16 };
#define TAG_WANT_RESP (1ull << 62)
#define TAG_EXPECT_ERR (1ull << 61)
#define TAG_MASK ((1ull << 60) - 1)

typedef enum { FAULT_NONE, FAULT_STORE_FLIP, FAULT_PSLVERR, FAULT_GNT_STUCK, FAULT_TCDM_LOCKSTEP } fault_t;

typedef struct gjob { /* one job the golden model ran since the last check */
    uint32_t serial;
    uint8_t id;
    int code;
    bool aborted;
    ne16_golden_result_t res;
    mem_t *exp; /* this job's expected output bytes (the shadow memory keeps only the last job's) */
} gjob_t;

typedef struct coord_ctx {
    const gjob_t *g;
} coord_ctx_t;

typedef struct ne16_tb {
    sim_t *sim;
    mem_t *mem, *shadow;
    apb_master_t *apb;
    tcdm_slave_t *tcdm;
    ne16_model_t model;
    fcov_t *cov;
    bus_resp_t ring[RESP_RING];
    unsigned ring_head, ring_n;
    /* events */
    bool busy, prev_busy, done_stash, done_prev, clear_at_edge;
    uint64_t done_events, last_clear_cycle, startable_since;
    uint8_t sw_expect;
    /* the running job */
    bool active;
    ne16_mjob_t cur;
    uint64_t start, stalls, txns, bound, iters;
    bool wd_reported;
    mem_t *jobw; /* DUT store count per byte in the running job */
    /* golden jobs and DUT stores since the last check */
    gjob_t *g;
    size_t ng, capg;
    mem_t *expect; /* 1 = a golden output byte, 2 = undefined (aborted job) */
    /* every byte the DUT stored: address, value, serial of the job running (or last run) at that store */
    struct tcdm_store {
        uint32_t addr, serial;
        uint8_t val;
    } * written;
    size_t nwritten, capwritten;
    unsigned jobreg_writes; /* since the last ACQUIRE */
    /* TCDM glue */
    tcdm_out_t prev_out;
    bool gnt_stuck, stalled_last; /* stalled_last: req && !gnt at the previous edge */
    uint64_t write_txns, req_txns, apb_accesses;
    bool prev_apb_access;
    /* faults */
    fault_t fault;
    uint64_t fault_n;
    bool fault_done;
    bool perf;
    drv_t *driver; /* pulp-nnx run: the driver coroutine its host glue talks to */
} ne16_tb_t;

/* ---- configuration ------------------------------------------------------------------------------- */
static const sim_fault_kind_t fault_kinds[] = {
    {"store_flip", FAULT_STORE_FLIP, 2, "N"},
    {"pslverr", FAULT_PSLVERR, 2, "N"},
    {"gnt_stuck", FAULT_GNT_STUCK, 2, "N"},
    {"tcdm_lockstep", FAULT_TCDM_LOCKSTEP, 2, "N"},
    {NULL, 0, 0, NULL},
};

/* acc_ops_t.stall: +stall, the level of the bus models' stalls (tb/ne16/ne16_plusargs.tsv). */
static uint64_t ne16_stall(const sim_t *sim) { return sim_plusarg_u64(sim, "stall", 1); }

static tcdm_cfg_t tcdm_config(sim_t *sim)
{
    /* +stall=0: grant every cycle; +stall=1 (default): a seeded stall rate, r_valid after writes sometimes. */
    rng_t r;
    rng_seed_stream(&r, sim_seed(sim), "ne16.tcdm.cfg");
    tcdm_cfg_t c = {.nports = NPORTS};
    if (ne16_stall(sim)) {
        c.gnt_stall_pct = rng_chance(&r, 20) ? rng_range(&r, 50, 80) : rng_range(&r, 5, 40);
        c.r_valid_on_write = rng_chance(&r, 50);
    }
    return c;
}

/* ---- golden side --------------------------------------------------------------------------------- */
static void run_golden(ne16_tb_t *t, ne16_mjob_t *j)
{
    if (t->ng == t->capg) {
        t->capg = t->capg ? 2 * t->capg : 8;
        t->g = realloc(t->g, t->capg * sizeof *t->g);
        if (!t->g) abort();
    }
    gjob_t *g = &t->g[t->ng++];
    memset(g, 0, sizeof *g);
    g->serial = j->serial;
    g->id = j->id;
    ne16_result_init(&g->res);
    g->code = j->code = ne16_golden_job(j->regs, t->shadow, &g->res);
    if (g->res.oom) sim_error(t->sim, "golden model: out of memory while recording job %u", j->id);
    g->exp = mem_new();
    for (size_t i = 0; i < g->res.n; i++)
        for (unsigned b = 0; b < g->res.elems[i].nbytes; b++) {
            const uint32_t a = (uint32_t)(g->res.elems[i].addr + b);
            mem_write8(t->expect, a, 1);
            mem_write8(g->exp, a, mem_read8(t->shadow, a));
        }
    sim_note(t->sim, "golden: job %u (ctx %u) %s, %zu output elements", j->id, j->ctx,
             g->code ? ne16_job_error_name(g->code) : "runs", g->res.n);
}

static void abort_jobs(ne16_tb_t *t, const ne16_pred_t *p)
{
    for (size_t a = 0; a < p->naborted; a++)
        for (size_t i = 0; i < t->ng; i++)
            if (t->g[i].serial == p->aborted[a].serial) {
                t->g[i].aborted = true;
                const ne16_golden_result_t *r = &t->g[i].res;
                for (size_t e = 0; e < r->n; e++)
                    for (unsigned b = 0; b < r->elems[e].nbytes; b++)
                        mem_write8(t->expect, (uint32_t)(r->elems[e].addr + b), 2);
            }
}

/* ---- APB monitor → reference model → golden model ------------------------------------------------ */
static void on_apb_accept(void *user, const apb_req_t *req, uint32_t rdata, bool slverr, uint64_t cycle)
{
    ne16_tb_t *t = user;
    (void)cycle;
    const bool had_open = t->model.open, had_committed = t->model.count > 0, was_trig = t->model.trig;
    const bool had_running = t->model.running;
    ne16_pred_t p;
    ne16_model_access(&t->model, req->write, req->addr, req->data, req->strb, &p);
    const char *name = ne16_reg_name_of(req->addr);
    char nm[40];
    snprintf(nm, sizeof nm, "%s", name ? name : "unmapped");
    if (p.slverr != slverr) {
        sim_error(t->sim, "APB: PSLVERR=%d on %s of 0x%08x to %s (0x%08x, strb 0x%x), spec 1.2 expects %d%s%s", slverr,
                  req->write ? "write" : "read", req->data, nm, req->addr, req->strb, p.slverr, p.why ? ": " : "",
                  p.why ? p.why : "");
        return;
    }
    if (!req->write && !slverr && rdata != p.rdata) {
        sim_error(t->sim, "APB: read of %s (0x%08x) returned 0x%08x, the reference model (spec 2.1/2.3) expects 0x%08x",
                  nm, req->addr, rdata, p.rdata);
        return;
    }
    if (slverr) return;
    const uint32_t off = req->addr & 0xFFu;
    if (!req->write && off == NE16_REG_ACQUIRE) {
        if (rdata == NE16_ACQ_FULL) ne16_cov_queue(t->cov, NE16_QCOV_ACQ_FULL);
        if (rdata == NE16_ACQ_OPEN) ne16_cov_queue(t->cov, NE16_QCOV_ACQ_OPEN);
        if (p.acquired) t->jobreg_writes = 0;
    }
    if (req->write && off >= NE16_JOB_REG_BASE) t->jobreg_writes++;
    if (p.committed) {
        if (had_committed) ne16_cov_queue(t->cov, NE16_QCOV_BACK_TO_BACK);
        if (req->data != 0 && !had_committed) ne16_cov_queue(t->cov, NE16_QCOV_COMMIT_ONLY);
        if (req->data != 0 && had_committed && !was_trig) ne16_cov_queue(t->cov, NE16_QCOV_AUTO_TRIGGER);
        if (t->jobreg_writes < NE16_NUM_JOB_REGS) ne16_cov_queue(t->cov, NE16_QCOV_CTX_REUSE);
    }
    if (p.cleared) {
        ne16_cov_queue(t->cov, !had_open && !had_committed ? NE16_QCOV_CLEAR_IDLE
                               : had_running               ? NE16_QCOV_CLEAR_RUNNING
                               : had_committed             ? NE16_QCOV_CLEAR_HELD
                                                           : NE16_QCOV_CLEAR_OPEN);
        if (req->data == 0) ne16_cov_queue(t->cov, NE16_QCOV_CLEAR_ZERO);
        abort_jobs(t, &p);
        t->active = false;
        t->clear_at_edge = true;
        t->last_clear_cycle = sim_cycle(t->sim);
        sim_note(t->sim, "SOFT_CLEAR(0x%x): %zu job(s) aborted", req->data, p.naborted);
    }
    if (p.sw_sync) {
        t->sw_expect = p.sw_evt;
        ne16_cov_queue(t->cov, NE16_QCOV_SW_SYNC);
    }
    for (ne16_mjob_t *j; (j = ne16_model_next_triggered(&t->model));) run_golden(t, j);
}

/* ---- per-job checks ------------------------------------------------------------------------------ */
static uint64_t job_iterations(const uint32_t *regs)
{
    ne16_job_cfg_t c;
    ne16_job_decode(regs, &c);
    const uint64_t nki = c.dw ? 1 : c.nb_ki;
    return (uint64_t)c.nb_ko * c.nb_ho * c.nb_wo * nki;
}

static void job_started(ne16_tb_t *t)
{
    const char *why;
    const ne16_mjob_t *j = ne16_model_start(&t->model, &why);
    if (!j) {
        sim_error(t->sim, "events: busy_o rose but no job may start: %s (spec 2.3)", why);
        return;
    }
    t->active = true;
    t->cur = *j;
    t->start = sim_cycle(t->sim);
    t->stalls = t->txns = 0;
    t->wd_reported = false;
    t->iters = job_iterations(j->regs);
    t->bound = j->code ? REJECT_WITHIN : 1000 + 2000 * t->iters;
    mem_free(t->jobw);
    t->jobw = mem_new();
    sim_note(t->sim, "job %u started (ctx %u)", j->id, j->ctx);
}

static uint64_t job_macs(const ne16_tb_t *t, const ne16_mjob_t *j)
{
    ne16_job_cfg_t c;
    ne16_job_decode(j->regs, &c);
    for (size_t i = 0; i < t->ng; i++) {
        if (t->g[i].serial != j->serial) continue;
        const unsigned lanes_last = c.rem_ki ? c.rem_ki : c.ki_full;
        const uint64_t lanes = c.dw ? 1 : (uint64_t)(c.nb_ki - 1) * c.ki_full + lanes_last;
        const uint64_t ki = c.linear ? lanes * (c.mode16 ? 8 : 16) : c.mode16 ? (lanes + 1) / 2 : lanes;
        const uint64_t taps = (c.linear || c.is1x1) ? 1 : 9;
        return (uint64_t)t->g[i].res.n * ki * taps;
    }
    return 0;
}

static void job_done(ne16_tb_t *t)
{
    ne16_mjob_t j;
    if (ne16_model_done(&t->model, &j) != 0) {
        sim_error(t->sim, "events: evt_done_o pulsed but no job is running (spurious done event)");
        return;
    }
    const uint64_t cycles = sim_cycle(t->sim) - t->start;
    if (j.code && t->txns)
        sim_error(t->sim, "job %u was rejected (JOB_ERROR code %d, %s) but issued %llu memory transactions (spec 6.2)",
                  j.id, j.code, ne16_job_error_name(j.code), (unsigned long long)t->txns);
    if (j.code && cycles > REJECT_WITHIN)
        sim_error(t->sim, "job %u was rejected but took %llu cycles to complete (spec 6.3: within %d)", j.id,
                  (unsigned long long)cycles, REJECT_WITHIN);
    ne16_cov_job(t->cov, j.regs, j.code);
    t->done_events++;
    t->active = false;
    const uint64_t macs = j.code ? 0 : job_macs(t, &j);
    sim_note(t->sim, "job %u done after %llu cycles (%llu stall cycles, %llu transactions)%s", j.id,
             (unsigned long long)cycles, (unsigned long long)t->stalls, (unsigned long long)t->txns,
             j.code ? " [rejected]" : "");
    if (t->perf)
        printf("perf: job %u: %llu cycles, %llu MACs, %.2f MACs/cycle, %llu stall cycles\n", j.id,
               (unsigned long long)cycles, (unsigned long long)macs, cycles ? (double)macs / (double)cycles : 0.0,
               (unsigned long long)t->stalls);
}

/* ---- TCDM store observer ------------------------------------------------------------------------- */
static void on_tcdm_write(void *user, uint32_t addr, uint32_t data, uint8_t be, uint64_t cycle)
{
    ne16_tb_t *t = user;
    (void)cycle;
    for (unsigned b = 0; b < 4; b++) {
        if (!(be >> b & 1u)) continue;
        const uint32_t a = addr + b;
        if (t->nwritten == t->capwritten) {
            t->capwritten = t->capwritten ? 2 * t->capwritten : 4096;
            t->written = realloc(t->written, t->capwritten * sizeof *t->written);
            if (!t->written) abort();
        }
        t->written[t->nwritten++] =
            (struct tcdm_store){.addr = a, .serial = t->cur.serial, .val = (uint8_t)(data >> (8 * b))};
        if (t->jobw) {
            const uint8_t n = mem_read8(t->jobw, a);
            if (n == 1)
                sim_error(t->sim, "M5: job %u stored byte 0x%08x twice (every output byte once per job)", t->cur.id, a);
            if (n < 255) mem_write8(t->jobw, a, (uint8_t)(n + 1));
        }
    }
}

/* ---- acc_ops ------------------------------------------------------------------------------------- */
static void *ne16_create(sim_t *sim)
{
    ne16_tb_t *t = calloc(1, sizeof *t);
    if (!t) abort();
    t->sim = sim;
    t->mem = mem_new();
    t->shadow = mem_new();
    t->expect = mem_new();
    t->cov = ne16_cov_new();
    ne16_model_reset(&t->model);
    apb_cfg_t ac = {.idle_pct = (unsigned)sim_plusarg_u64(sim, "apb_idle", 10), .ready_timeout = 16};
    t->apb = apb_master_new(sim_env(sim), "apb", &ac, sim_seed(sim) ^ 0x4E31);
    apb_master_on_accept(t->apb, on_apb_accept, t);
    tcdm_cfg_t tc = tcdm_config(sim);
    t->tcdm = tcdm_slave_new(sim_env(sim), "tcdm", t->mem, &tc, sim_seed(sim) ^ 0x7CD3);
    tcdm_slave_on_write(t->tcdm, on_tcdm_write, t);
    t->fault = (fault_t)sim_plusarg_fault(sim, fault_kinds, &t->fault_n);
    t->perf = sim_plusarg_flag(sim, "perf");
    if (!t->apb || !t->tcdm || !t->cov) abort();
    return t;
}

static void ne16_destroy(void *acc)
{
    ne16_tb_t *t = acc;
    fcov_write_plusarg(t->cov, t->sim);
    apb_master_free(t->apb);
    tcdm_slave_free(t->tcdm);
    for (size_t i = 0; i < t->ng; i++) {
        ne16_result_free(&t->g[i].res);
        mem_free(t->g[i].exp);
    }
    free(t->g);
    free(t->written);
    mem_free(t->mem);
    mem_free(t->shadow);
    mem_free(t->expect);
    mem_free(t->jobw);
    fcov_free(t->cov);
    free(t);
}

static int ne16_build(void *acc, const char *test, uint64_t seed, program_t *p, char *err, size_t errlen)
{
    ne16_tb_t *t = acc;
    if (strcmp(test, "pulpnnx") == 0) { /* a live driver, not a generated program (ne16_nnx.c) */
        free(p->name);
        p->name = strdup(test);
        return ne16_nnx_attach(t->sim, p, seed, err, errlen);
    }
    return ne16_build_test(test, seed, p, err, errlen);
}

static void ne16_bus_push(void *acc, const bus_req_t *r)
{
    ne16_tb_t *t = acc;
    if (r->addr >> 33) {
        sim_error(t->sim, "APB address 0x%llx: only bit 32 (expect PSLVERR) may be set above the 32-bit PADDR",
                  (unsigned long long)r->addr);
        return;
    }
    const bool expect = (r->addr & NE16_EXPECT_SLVERR) != 0, want = !r->write || r->nposted;
    apb_req_t a = {.addr = (uint32_t)r->addr,
                   .data = r->data,
                   .strb = r->strb,
                   .write = r->write,
                   .expect_error = expect,
                   .tag = (r->tag & TAG_MASK) | (want ? TAG_WANT_RESP : 0) | (expect ? TAG_EXPECT_ERR : 0)};
    apb_master_push(t->apb, &a);
}

static void drain_apb(ne16_tb_t *t)
{
    apb_resp_t r;
    while (apb_master_pop(t->apb, &r)) {
        const bool expect = (r.tag & TAG_EXPECT_ERR) != 0;
        const char *nm = ne16_reg_name_of(r.addr);
        if (expect && !r.slverr && !r.timeout)
            sim_error(t->sim, "APB: %s of %s (0x%08x) was expected to answer PSLVERR but completed OKAY",
                      r.write ? "write" : "read", nm ? nm : "unmapped", r.addr);
        if (!(r.tag & TAG_WANT_RESP)) continue;
        if (t->ring_n == RESP_RING) {
            sim_error(t->sim, "testbench: more than %d unconsumed APB responses", RESP_RING);
            return;
        }
        t->ring[(t->ring_head + t->ring_n++) % RESP_RING] = (bus_resp_t){
            .tag = r.tag & TAG_MASK, .data = r.rdata, .error = (r.slverr && !expect) || r.timeout, .cycle = r.cycle};
    }
}

static bool ne16_bus_pop(void *acc, bus_resp_t *resp)
{
    ne16_tb_t *t = acc;
    drain_apb(t);
    if (!t->ring_n) return false;
    *resp = t->ring[t->ring_head];
    t->ring_head = (t->ring_head + 1) % RESP_RING;
    t->ring_n--;
    return true;
}

static bool ne16_bus_idle(void *acc)
{
    ne16_tb_t *t = acc;
    drain_apb(t);
    return apb_master_idle(t->apb);
}

/* OP_WAIT_IRQ: mask = number of evt_done_o pulses to wait for (0 means 1); each pulse is counted once. */
static bool ne16_wait_irq(void *acc, uint32_t mask)
{
    ne16_tb_t *t = acc;
    drain_apb(t);
    const uint64_t n = mask ? mask : 1;
    if (t->done_events < n) return false;
    t->done_events -= n;
    return true;
}

static mem_t *ne16_dut_mem(void *acc) { return ((ne16_tb_t *)acc)->mem; }
static mem_t *ne16_golden_mem(void *acc) { return ((ne16_tb_t *)acc)->shadow; }

static void elem_coord(const void *ctx, uint64_t addr, char *buf, size_t n)
{
    const gjob_t *g = ((const coord_ctx_t *)ctx)->g;
    const ne16_out_elem_t *e = ne16_result_find(&g->res, (uint32_t)addr);
    if (e)
        snprintf(buf, n, "job %u k=%u h=%u w=%u byte %u", g->id, e->k, e->h, e->w,
                 (unsigned)((uint32_t)addr - e->addr));
    else snprintf(buf, n, "job %u", g->id);
}

/* The comparison below sees the memory after the last job; a store that a later store to the same byte
 * replaced (pulp-nnx's stride-2 sub-jobs overlap, jobs may share an output buffer) is checked here, against
 * the expected byte of the job that stored it (docs/pulpnnx.md "a wrong store that a later job overwrites"). */
static void check_overwritten_stores(ne16_tb_t *t)
{
    mem_t *later = mem_new(); /* 1 = a later store to this byte exists */
    unsigned reported = 0;
    for (size_t w = t->nwritten; w-- > 0;) {
        const struct tcdm_store *st = &t->written[w];
        const uint32_t a = st->addr;
        if (!mem_read8(later, a)) {
            mem_write8(later, a, 1);
            continue;
        }
        const gjob_t *g = NULL;
        for (size_t i = 0; i < t->ng && !g; i++)
            if (t->g[i].serial == st->serial && !t->g[i].aborted && !t->g[i].code) g = &t->g[i];
        const uint8_t want = g ? mem_read8(g->exp, a) : 0;
        if (!g || st->val == want) continue;
        /* a linear search, so only for a byte that differs; not this job's output: the stray-store and M5
         * checks judge it */
        const ne16_out_elem_t *el = ne16_result_find(&g->res, a);
        if (el && reported++ < SB_MAX_SHOWN)
            sim_error(t->sim,
                      "MISMATCH job %u output stored 0x%02x at 0x%08x (job %u k=%u h=%u w=%u byte %u), expected "
                      "0x%02x; a later store replaced it, so the final memory does not show it",
                      g->id, st->val, a, g->id, el->k, el->h, el->w, (unsigned)(a - el->addr), want);
    }
    mem_free(later);
}

static void ne16_golden_check(void *acc, scoreboard_t *sb)
{
    ne16_tb_t *t = acc;
    for (unsigned i = 0; i < t->model.count; i++)
        if (t->model.fifo[i].ran)
            sim_error(t->sim, "check_golden while job %u is still queued or running (wait for its done event first)",
                      t->model.fifo[i].id);
    mem_t *written = mem_new();
    for (size_t w = 0; w < t->nwritten; w++) mem_write8(written, t->written[w].addr, 1);
    unsigned reported = 0;
    for (size_t i = 0; i < t->ng; i++) {
        const gjob_t *g = &t->g[i];
        const coord_ctx_t cc = {g};
        for (size_t e = 0; e < g->res.n; e++) {
            const ne16_out_elem_t *el = &g->res.elems[e];
            for (unsigned b = 0; b < el->nbytes; b++) {
                const uint32_t a = el->addr + b;
                if (mem_read8(t->expect, a) == 2) { /* aborted job: undefined, adopt the DUT's byte */
                    mem_write8(t->shadow, a, mem_read8(t->mem, a));
                    continue;
                }
                if (!mem_read8(written, a) && reported++ < SB_MAX_SHOWN)
                    sim_error(t->sim, "M5: output byte 0x%08x (job %u k=%u h=%u w=%u) was never stored by the DUT", a,
                              g->id, el->k, el->h, el->w);
            }
            if (g->aborted) continue;
            char what[32];
            snprintf(what, sizeof what, "job %u output", g->id);
            if ((uint64_t)el->addr + el->nbytes <= 0x100000000ull)
                sb_compare(sb, stderr, t->mem, t->shadow, el->addr, el->nbytes, what, elem_coord, &cc,
                           sim_cycle(t->sim));
            else
                for (unsigned b = 0; b < el->nbytes; b++)
                    sb_compare(sb, stderr, t->mem, t->shadow, (uint32_t)(el->addr + b), 1, what, elem_coord, &cc,
                               sim_cycle(t->sim));
        }
    }
    /* A store outside every golden output element is an error even if it happens to match. */
    unsigned stray = 0;
    for (size_t w = 0; w < t->nwritten; w++)
        if (!mem_read8(t->expect, t->written[w].addr) && stray++ < SB_MAX_SHOWN)
            sim_error(t->sim, "stray TCDM store to 0x%08x: no output element of the golden model covers it",
                      t->written[w].addr);
    mem_free(written);
    check_overwritten_stores(t);
    for (size_t i = 0; i < t->ng; i++) {
        ne16_result_free(&t->g[i].res);
        mem_free(t->g[i].exp);
    }
    t->ng = 0;
    t->nwritten = 0;
    mem_free(t->expect);
    t->expect = mem_new();
}

static const char *ne16_reg_name(void *acc, uint64_t addr, char *buf, size_t n)
{
    (void)acc;
    const char *nm = ne16_reg_name_of((uint32_t)addr);
    if (nm) snprintf(buf, n, "NE16.%s%s", nm, addr & NE16_EXPECT_SLVERR ? " (expect PSLVERR)" : "");
    else snprintf(buf, n, "0x%08llx", (unsigned long long)(uint32_t)addr);
    return buf;
}

static void ne16_describe(void *acc, FILE *f)
{
    ne16_tb_t *t = acc;
    tcdm_stats_t st = tcdm_slave_stats(t->tcdm);
    fprintf(f,
            "  NE16: busy_o=%d, done events pending %llu, committed jobs %u (trigger %d, open %d), finished %u, "
            "next id %u\n",
            t->busy, (unsigned long long)t->done_events, t->model.count, t->model.trig, t->model.open,
            t->model.finished, t->model.next_id);
    if (t->active)
        fprintf(f,
                "  running job %u since cycle %llu (%llu cycles, %llu stall cycles, %llu transactions, %llu "
                "(kom,im,jm,kim) iterations)\n",
                t->cur.id, (unsigned long long)t->start, (unsigned long long)(sim_cycle(t->sim) - t->start),
                (unsigned long long)t->stalls, (unsigned long long)t->txns, (unsigned long long)t->iters);
    fprintf(f, "  TCDM: %llu reads, %llu writes, %llu bytes written, %llu stall cycles%s\n",
            (unsigned long long)st.reads, (unsigned long long)st.writes, (unsigned long long)st.bytes_written,
            (unsigned long long)st.stall_cycles, t->gnt_stuck ? " (grant stuck low by +fault=gnt_stuck)" : "");
}

static const char *const ne16_wave_signals[] = {
    /* the bus wires; the DUT adds its internals (duts/<dut>.signals) */
    "-APB",
    "TOP.tb_ne16.clk",
    "TOP.tb_ne16.rst_n",
    "TOP.tb_ne16.psel",
    "TOP.tb_ne16.penable",
    "TOP.tb_ne16.pwrite",
    "TOP.tb_ne16.paddr[31:0]",
    "TOP.tb_ne16.pwdata[31:0]",
    "TOP.tb_ne16.pstrb[3:0]",
    "TOP.tb_ne16.pready",
    "TOP.tb_ne16.pslverr",
    "TOP.tb_ne16.prdata[31:0]",
    "-Events",
    "TOP.tb_ne16.evt_done",
    "TOP.tb_ne16.busy",
    "TOP.tb_ne16.sw_evt[7:0]",
    "-TCDM (port 0 and 8)",
    "TOP.tb_ne16.tcdm_req[8:0]",
    "TOP.tb_ne16.tcdm_gnt[8:0]",
    "TOP.tb_ne16.tcdm_wen[8:0]",
    "TOP.tb_ne16.tcdm_r_valid[8:0]",
    NULL,
};

const acc_ops_t tb_acc_ops = {
    .name = "ne16",
    .create = ne16_create,
    .destroy = ne16_destroy,
    .stall = ne16_stall,
    .build = ne16_build,
    .import = NULL,
    .bus_push = ne16_bus_push,
    .bus_pop = ne16_bus_pop,
    .bus_idle = ne16_bus_idle,
    .wait_irq = ne16_wait_irq,
    .dut_mem = ne16_dut_mem,
    .golden_mem = ne16_golden_mem,
    .golden_check = ne16_golden_check,
    .reg_name = ne16_reg_name,
    .describe = ne16_describe,
    .wave_scope = "TOP.tb_ne16",
    .wave_signals = ne16_wave_signals,
};

/* ---- DPI entry points, called in this order once per rising edge from tb_ne16.sv ------------------ */
static ne16_tb_t *tb(void) { return sim_acc(sim_get()); }

drv_t *nnx_host_drv(void) { return tb()->driver; }
void ne16_tb_set_driver(drv_t *d) { tb()->driver = d; }

/* 1. Events sampled at the edge. A job start (busy_o rose) is applied before this edge's APB transfer,
 *    which saw the post-start registers; a completion (evt_done_o) after it, because the transfer
 *    completing in the same cycle still saw the pre-completion values (spec 1.4). */
void ne16_evt_tick(svBit evt_done, svBit busy, unsigned char sw_evt)
{
    ne16_tb_t *t = tb();
    if (!t) return;
    const uint64_t now = sim_cycle(t->sim);
    if (sw_evt != t->sw_expect)
        sim_error(t->sim, "events: sw_evt_o=0x%02x, expected 0x%02x (SW_SYNC pulses one cycle after the write)", sw_evt,
                  t->sw_expect);
    t->sw_expect = 0;
    if (busy && !t->prev_busy) job_started(t);
    if (!busy && t->prev_busy && !t->done_prev && !t->clear_at_edge && now != t->last_clear_cycle + 1)
        sim_error(t->sim, "events: busy_o fell without evt_done_o and without SOFT_CLEAR (spec 1.4)");
    if (evt_done && !busy) sim_error(t->sim, "events: evt_done_o pulsed while busy_o=0 (spec 1.4)");
    t->clear_at_edge = false;
    t->done_stash = evt_done && busy;
    t->done_prev = evt_done;
    t->prev_busy = t->busy = busy;
    if (t->active && !t->wd_reported && now - t->start > t->bound + t->stalls) {
        t->wd_reported = true;
        sim_error(t->sim,
                  "watchdog: job %u still running after %llu cycles; spec 6.3 bound is %llu "
                  "(%s%llu iterations) + %llu stall cycles",
                  t->cur.id, (unsigned long long)(now - t->start), (unsigned long long)t->bound,
                  t->cur.code ? "rejected job; " : "1000 + 2000 x ", (unsigned long long)t->iters,
                  (unsigned long long)t->stalls);
    }
    if (ne16_model_startable(&t->model) && !busy) {
        if (!t->startable_since) t->startable_since = now;
        else if (now - t->startable_since > START_WITHIN && !t->wd_reported) {
            t->wd_reported = true;
            sim_error(t->sim, "events: a triggered job (id %u) did not start within 8 cycles (spec 2.3)",
                      t->model.fifo[0].id);
        }
    } else {
        t->startable_since = 0;
    }
}

/* 2. APB master: slave outputs in, master outputs (registered in SV) out. */
void ne16_apb_tick(svBit pready, svBit pslverr, unsigned int prdata, svBit *psel, svBit *penable, svBit *pwrite,
                   unsigned int *paddr, unsigned int *pwdata, unsigned char *pstrb)
{
    ne16_tb_t *t = tb();
    apb_out_t o = {0};
    if (t) {
        apb_in_t in = {.pready = pready, .prdata = prdata, .pslverr = pslverr};
        if (t->prev_apb_access && pready) { /* a transfer completes at this edge */
            t->apb_accesses++;
            if (t->fault == FAULT_PSLVERR && !t->fault_done && t->apb_accesses > t->fault_n) {
                in.pslverr = true; /* forced on the wire from the DUT to the master */
                t->fault_done = true;
                sim_fault_injected(t->sim);
            }
        }
        apb_master_tick(t->apb, &in, &o);
        t->prev_apb_access = o.psel && o.penable;
        if (t->done_stash) {
            t->done_stash = false;
            job_done(t);
        }
    }
    *psel = o.psel;
    *penable = o.penable;
    *pwrite = o.pwrite;
    *paddr = o.paddr;
    *pwdata = o.pwdata;
    *pstrb = o.pstrb;
}

/* 3. TCDM slave: the nine ports' request signals in, grant and read response out. */
void ne16_tcdm_tick(unsigned short req, unsigned short wen, unsigned long long be, const svBitVecVal *add,
                    const svBitVecVal *wdata, unsigned short *gnt, unsigned short *r_valid, svBitVecVal *r_data)
{
    ne16_tb_t *t = tb();
    tcdm_out_t o;
    memset(&o, 0, sizeof o);
    if (t) {
        tcdm_in_t in;
        memset(&in, 0, sizeof in);
        for (unsigned i = 0; i < NPORTS; i++)
            in.port[i] = (tcdm_port_in_t){.req = req >> i & 1u,
                                          .add = add[i],
                                          .wen = wen >> i & 1u,
                                          .be = (uint8_t)(be >> (4 * i) & 0xFu),
                                          .data = wdata[i]};
        const bool anyreq = req != 0, granted = anyreq && t->prev_out.port[0].gnt;
        if (anyreq && !t->busy)
            sim_error(t->sim, "TCDM: request at A=0x%08x while busy_o=0 (no job running; spec 6.3)", add[0]);
        if (t->active && anyreq) {
            if (granted) t->txns++;
            else t->stalls++;
        }
        if (granted) t->req_txns++;
        switch (t->fault) { /* faults act on the wires between the DUT and the memory model */
        case FAULT_STORE_FLIP:
            /* only a store granted at its first edge: a stalled one must stay stable (M3) up to its grant */
            if (granted && !t->stalled_last && !in.port[0].wen && !t->fault_done && t->write_txns >= t->fault_n) {
                for (unsigned i = 0; i < NPORTS && !t->fault_done; i++)
                    for (unsigned b = 0; b < 4 && !t->fault_done; b++)
                        if (in.port[i].be >> b & 1u) {
                            in.port[i].data ^= 1u << (8 * b);
                            t->fault_done = true;
                            sim_fault_injected(t->sim);
                        }
            }
            break;
        case FAULT_TCDM_LOCKSTEP:
            if (anyreq && !t->fault_done && t->req_txns >= t->fault_n) {
                in.port[3].add += 4;
                t->fault_done = true;
                sim_fault_injected(t->sim);
            }
            break;
        case FAULT_GNT_STUCK:
            if (!anyreq && !t->gnt_stuck && t->req_txns >= t->fault_n) t->gnt_stuck = true;
            if (t->gnt_stuck && anyreq) sim_fault_injected(t->sim); /* a request the stuck grant holds off */
            break;
        default: break;
        }
        if (granted && !in.port[0].wen) t->write_txns++;
        t->stalled_last = anyreq && !granted;
        if (!t->gnt_stuck) tcdm_slave_tick(t->tcdm, &in, &o);
        t->prev_out = o;
    }
    unsigned short g = 0, v = 0;
    for (unsigned i = 0; i < NPORTS; i++) {
        g |= (unsigned short)(o.port[i].gnt << i);
        v |= (unsigned short)(o.port[i].r_valid << i);
        r_data[i] = o.port[i].r_data;
    }
    *gnt = g;
    *r_valid = v;
}
