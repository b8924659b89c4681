/* Unit tests of the CSB master against a small C model of an NVDLA CSB target: register writes/reads in
 * order, non-posted completions, payload stability under backpressure, the outstanding limit, every
 * protocol check, and seeded idle-cycle reproducibility. */
#include "csb_master.h"
#include "rng.h"
#include "unit.h"

enum { NREGS = 256, QMAX = 64 };
typedef enum { FAULT_NONE, FAULT_SPURIOUS, FAULT_BOTH, FAULT_WRONG_KIND, FAULT_SILENT } fault_t;

typedef struct dut {
    uint32_t regs[NREGS];
    struct {
        uint64_t due;
        bool read;
        uint32_t data;
    } q[QMAX]; /* responses in order */
    unsigned qh, qn, max_inflight;
    unsigned ready_pct, latency;
    rng_t rng;
    csb_in_t o; /* registered outputs */
    fault_t fault;
    uint64_t fault_cycle;
    unsigned accepted, stability_violations;
    csb_out_t last; /* master outputs of the previous cycle */
    bool last_stalled;
} dut_t;

typedef struct acc_log {
    unsigned n;
    csb_req_t reqs[64];
} acc_log_t;

static void on_accept(void *user, const csb_req_t *req, uint64_t cycle)
{
    (void)cycle;
    acc_log_t *l = user;
    if (l->n < 64) l->reqs[l->n++] = *req;
}

static void dut_init(dut_t *d, unsigned ready_pct, unsigned latency, uint64_t seed)
{
    memset(d, 0, sizeof *d);
    d->ready_pct = ready_pct;
    d->latency = latency;
    rng_seed(&d->rng, seed);
    d->o.ready = true;
}

/* The DUT's clock edge: sees the master's outputs driven during the cycle that just ended. */
static void dut_edge(dut_t *d, const csb_out_t *mo, uint64_t cyc)
{
    if (d->last_stalled && (!mo->valid || mo->addr != d->last.addr || mo->wdat != d->last.wdat ||
                            mo->write != d->last.write || mo->nposted != d->last.nposted))
        d->stability_violations++;
    bool accept = mo->valid && d->o.ready;
    d->last_stalled = mo->valid && !d->o.ready;
    d->last = *mo;
    if (accept) {
        d->accepted++;
        unsigned r = mo->addr % NREGS;
        bool resp = !mo->write || mo->nposted;
        if (mo->write) d->regs[r] = mo->wdat;
        if (resp) {
            unsigned i = (d->qh + d->qn++) % QMAX;
            d->q[i].due = cyc + d->latency;
            d->q[i].read = !mo->write;
            d->q[i].data = d->regs[r];
            if (d->qn > d->max_inflight) d->max_inflight = d->qn;
        }
    }
    d->o.rvalid = d->o.wr_complete = false;
    d->o.rdata = 0;
    if (d->qn && d->q[d->qh].due <= cyc && d->fault != FAULT_SILENT) {
        bool rd = d->q[d->qh].read;
        if (d->fault == FAULT_WRONG_KIND) rd = !rd;
        d->o.rvalid = rd;
        d->o.wr_complete = !rd;
        d->o.rdata = d->q[d->qh].data;
        d->qh = (d->qh + 1) % QMAX;
        d->qn--;
    }
    if (d->fault == FAULT_SPURIOUS && cyc == d->fault_cycle) d->o.rvalid = true;
    if (d->fault == FAULT_BOTH && (d->o.rvalid || d->o.wr_complete)) d->o.rvalid = d->o.wr_complete = true;
    d->o.ready = !rng_chance(&d->rng, 100 - d->ready_pct);
}

/* Run until the master is idle (or max cycles); record the valid pattern of the first 64 cycles. */
static uint64_t run(unit_env_t *e, csb_master_t *m, dut_t *d, uint64_t max, uint64_t *valid_bits)
{
    csb_out_t out = {0};
    uint64_t start = e->cycle;
    if (valid_bits) *valid_bits = 0;
    for (; e->cycle - start < max; e->cycle++) {
        csb_in_t in = d->o;
        csb_out_t prev = out;
        csb_master_tick(m, &in, &out);
        dut_edge(d, &prev, e->cycle);
        if (valid_bits && e->cycle - start < 64 && out.valid) *valid_bits |= 1ull << (e->cycle - start);
        if (csb_master_idle(m) && e->cycle - start > 10) break;
    }
    return e->cycle - start;
}

static void push(csb_master_t *m, uint32_t addr, uint32_t data, bool write, bool np, uint64_t tag)
{
    csb_req_t r = {.addr = addr, .data = data, .write = write, .nposted = np, .tag = tag};
    csb_master_push(m, &r);
}

static void test_transfers(unit_t *u)
{
    unit_env_t e;
    unit_env_init(&e);
    e.env.log_enabled = true;
    csb_cfg_t cfg = {.idle_pct = 20, .resp_timeout = 64};
    csb_master_t *m = csb_master_new(&e.env, "csb", &cfg, 1);
    acc_log_t log = {0};
    csb_master_on_accept(m, on_accept, &log);
    dut_t d;
    dut_init(&d, 60, 3, 9);
    for (unsigned i = 0; i < 10; i++) push(m, 0x1000 + 4 * i, 0xA0000000u + i * 0x1111, true, i % 3 == 0, 100 + i);
    for (unsigned i = 0; i < 10; i++) push(m, 0x1000 + 4 * i, 0, false, false, 200 + i);
    run(&e, m, &d, 2000, NULL);
    CHECK(csb_master_idle(m), "master not idle after 2000 cycles");
    CHECK_EQ(d.accepted, 20);
    CHECK_EQ(d.stability_violations, 0);
    CHECK_EQ(log.n, 20);
    for (unsigned i = 0; i < 20 && i < log.n; i++)
        CHECK(log.reqs[i].tag == (i < 10 ? 100 + i : 200 + i - 10), "observer order at %u", i);
    /* completions of the 4 non-posted writes, then 10 reads, in order */
    csb_resp_t r;
    unsigned n = 0;
    while (csb_master_pop(m, &r)) {
        if (n < 4) {
            CHECK(r.write && r.tag == 100 + 3 * n, "response %u: tag %" PRIu64 " write %d", n, r.tag, r.write);
        } else {
            unsigned i = n - 4;
            CHECK(!r.write && r.tag == 200 + i, "response %u: tag %" PRIu64, n, r.tag);
            CHECK_EQ(r.data, 0xA0000000u + i * 0x1111);
            CHECK_EQ(r.addr, 0x1000 + 4 * i);
        }
        n++;
    }
    CHECK_EQ(n, 14);
    CHECK_EQ(d.regs[(0x1000 >> 2) % NREGS + 9], 0xA0000000u + 9 * 0x1111);
    CHECK(e.errors == 0, "unexpected errors:\n%s", e.err);
    CHECK(e.logs == 34, "log lines: %u (want one per request and one per response)", e.logs);
    csb_master_free(m);
}

static void test_outstanding_limit(unit_t *u)
{
    unit_env_t e;
    unit_env_init(&e);
    csb_cfg_t cfg = {.max_outstanding = 2};
    csb_master_t *m = csb_master_new(&e.env, "csb", &cfg, 1);
    dut_t d;
    dut_init(&d, 100, 10, 1);
    for (unsigned i = 0; i < 12; i++) push(m, 4 * i, 0, false, false, i);
    run(&e, m, &d, 1000, NULL);
    CHECK_EQ(d.accepted, 12);
    CHECK(d.max_inflight <= 2, "%u reads in flight with max_outstanding 2", d.max_inflight);
    CHECK(d.max_inflight == 2, "limit never reached (%u)", d.max_inflight);
    CHECK(e.errors == 0, "unexpected errors:\n%s", e.err);
    csb_master_free(m);
}

static void run_fault(unit_t *u, fault_t f, const char *w1, const char *w2)
{
    unit_env_t e;
    unit_env_init(&e);
    csb_cfg_t cfg = {.resp_timeout = 20};
    csb_master_t *m = csb_master_new(&e.env, "csb0", &cfg, 1);
    dut_t d;
    dut_init(&d, 100, 2, 1);
    d.fault = f;
    d.fault_cycle = 3;
    if (f == FAULT_SPURIOUS) push(m, 0x10, 1, true, false, 0); /* posted: nothing outstanding */
    else push(m, 0x10, 1, f != FAULT_WRONG_KIND, true, 0);
    run(&e, m, &d, 100, NULL);
    CHECK(unit_env_has(&e, w1, w2), "fault %d: no error naming '%s'/'%s'; got:\n%s", f, w1, w2 ? w2 : "", e.err);
    CHECK(unit_env_has(&e, "cycle ", NULL), "fault %d: message lacks the cycle:\n%s", f, e.err);
    csb_master_free(m);
}

static void test_checks(unit_t *u)
{
    run_fault(u, FAULT_SPURIOUS, "no request outstanding", "nvdla2csb_valid");
    run_fault(u, FAULT_BOTH, "same cycle", "wr_complete");
    run_fault(u, FAULT_WRONG_KIND, "oldest outstanding request is a read", "wr_complete");
    run_fault(u, FAULT_SILENT, "no response within 20 cycles", "non-posted write of 0x00000010");
    /* misaligned / out-of-range addresses are rejected at push time */
    unit_env_t e;
    unit_env_init(&e);
    csb_master_t *m = csb_master_new(&e.env, "csb", NULL, 1);
    push(m, 0x12, 0, true, false, 0);
    push(m, 0x40000, 0, true, false, 0);
    CHECK(unit_env_has(&e, "not 4-byte aligned", NULL), "misaligned address not reported:\n%s", e.err);
    CHECK(unit_env_has(&e, "16-bit CSB word address", NULL), "wide address not reported:\n%s", e.err);
    csb_master_free(m);
}

static uint64_t idle_pattern(uint64_t seed)
{
    unit_env_t e;
    unit_env_init(&e);
    csb_cfg_t cfg = {.idle_pct = 40};
    csb_master_t *m = csb_master_new(&e.env, "csb", &cfg, seed);
    dut_t d;
    dut_init(&d, 100, 1, 1);
    for (unsigned i = 0; i < 64; i++) push(m, 4 * i, i, true, false, i);
    uint64_t bits;
    run(&e, m, &d, 64, &bits);
    csb_master_free(m);
    return bits;
}

static void test_seeded_idle(unit_t *u)
{
    uint64_t a = idle_pattern(5), b = idle_pattern(5), c = idle_pattern(6);
    CHECK_EQ(a, b);
    CHECK(a != c, "seeds 5 and 6 gave the same idle pattern 0x%016" PRIx64, a);
    int ones = __builtin_popcountll(a);
    CHECK(ones > 25 && ones < 52, "idle_pct 40 gave %d busy cycles of 64", ones);
}

int main(void)
{
    unit_t u = {.name = "csb_master"};
    UNIT_RUN(&u, test_transfers);
    UNIT_RUN(&u, test_outstanding_limit);
    UNIT_RUN(&u, test_checks);
    UNIT_RUN(&u, test_seeded_idle);
    return unit_done(&u);
}
