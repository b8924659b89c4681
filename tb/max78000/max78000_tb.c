/* MAX78000 CNN accelerator in the shared testbench: acc_ops (tb/common/sim.h) and the DPI entry points of
 * tb_max78000.sv.
 *
 * The golden model (golden/max78000) is fed only by the APB monitor (apb_master's accept observer): every
 * completed transfer, as the bus carried it. So the same model checks random programs, directed tests
 * and the raw SDK trace. Per transfer the observer also checks the DUT's PSLVERR (D05), its wait states
 * (D04) and, for reads, its read data against the model. Runs complete instantly in the model; their
 * layer-by-layer writes are queued (max78000_check.c) and compared when the RTL's run ends (busy falls).
 *
 * DUT memory: a mirror of the 16 data memories is kept from the write-port monitor (every APB and engine
 * write that reaches a RAM), starting from the RAMs' contents when reset ends (read through the back door:
 * random on X-randomised builds, so only what was written is compared, and an engine read of a word never
 * written gives what the RAM holds, not the golden model's zero (D09), and is caught). When a run ends, the RAMs are dumped through the back door (tb_max78000.sv):
 * the dump is checked against the mirror (a write that bypassed the ports would show) and is what the
 * run's final image is compared with. `mem`/`fill` ops cannot load these memories (they are inside the
 * DUT); a program that tries is stopped with an error telling it to use APB writes.
 *
 * Faults (+fault=<kind>[:N], for the negative tests):
 *   out_flip[:N]  at the end of the first RTL run, flip bit N%8 of the byte the engine wrote last, inside
 *                 the DUT's data RAM (back-door write, before the RAMs are dumped). The scoreboard reads the
 *                 RAMs through the same dump the passing runs use, so this proves a wrong byte in the DUT's
 *                 memory is found and located (layer, channel, row, column), not only that a C buffer
 *                 differs.
 *   hang          cnn_en is cleared on its way to the DUT in every CTRL write: the model starts the run,
 *                 the DUT never does, so irq never comes and the wait_irq watchdog fires.
 *   bus_error[:N] the N-th APB write (default 20) goes to 0x5000_0800, which maps to nothing: PSLVERR,
 *                 reported as a bus error because the program did not mark it expected. */
#include "ai8x_import.h"
#include "apb_master.h"
#include "irq_monitor.h"
#include "max78000_check.h"
#include "max78000_cov.h"
#include "max78000_decode.h"
#include "max78000_golden.h"
#include "max78000_regs.h"
#include "max78000_tb.h"
#include "mem.h"
#include "rng.h"
#include "scoreboard.h"
#include "sim.h"
#include "svdpi.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { RESP_RING = 64, EXP_RING = 64 };
#define TAG_MASK ((1ull << 60) - 1)
#define TAG_WANT_RESP (1ull << 61)
#define TAG_EXPECT_ERR (1ull << 62)
#define INVALID_ADDR 0x50000800u

typedef enum { FAULT_NONE, FAULT_OUT_FLIP, FAULT_HANG, FAULT_BUS_ERROR } fault_t;

typedef struct m7tb {
    sim_t *sim;
    apb_master_t *apb;
    irq_monitor_t *irq;
    max78000_t *gold;
    m7_check_t *chk;
    fcov_t *cov;
    /* sequencer responses */
    bus_resp_t ring[RESP_RING];
    unsigned ring_head, ring_n;
    /* expected wait states per completed transfer, in order */
    unsigned exp_ws[EXP_RING];
    unsigned exp_head, exp_n;
    /* DUT data memories: mirror from the write ports, last back-door dump, program view (OP_CHECK_MEM) */
    uint32_t (*mirror)[MAX78000_DMEM_WORDS], (*ram)[MAX78000_DMEM_WORDS];
    const uint32_t (*peek_src)[MAX78000_DMEM_WORDS];
    mem_t *dview;
    bool dview_dirty;
    bool want_dump, run_end_pending, poke_pending;
    bool powerup_asked, powerup_dump; /* the dump at the end of reset seeds the mirror */
    uint64_t dump_at;
    unsigned poke_g, poke_w;
    uint32_t poke_v;
    /* DUT state seen by the monitor */
    bool busy_prev, irq_line;
    unsigned layer;
    uint32_t run_cycles, last_run_cycles;
    uint64_t rtl_runs, irq_quiet_until, transfers;
    bool unsup_reported;
    /* fault injection */
    fault_t fault;
    uint64_t fault_n, writes_pushed;
    bool fault_done;
    uint64_t budget; /* watchdog bound of the run in flight (run_budget) */
    /* Stop [M2]: the master's cnn_en cleared during a run; the engine's layer when that took effect */
    uint64_t stop_at; /* cycle to sample the layer at (0: none) */
    bool stop_taken;
    unsigned stop_layer;
    uint64_t golden_waited_runs; /* golden-only: runs whose interrupt the program has waited for */
} m7tb_t;

/* CTRL reaches the engine through a register: a stop written in cycle c is what the engine sees from c + 1, so
 * the layer it is in at c + 2 is the current layer the spec stops after. */
enum { STOP_EFFECT_CYCLES = 2 };

static m7tb_t *tb(void) { return sim_get() ? sim_acc(sim_get()) : NULL; }

/* ---- DUT memory ------------------------------------------------------------------------------- */
static uint32_t rtl_peek(void *user, unsigned g, unsigned w)
{
    m7tb_t *t = user;
    return t->peek_src[g & 15][w & (MAX78000_DMEM_WORDS - 1)];
}

/* OP_CHECK_MEM / OP_CHECK_CRC see the mirror; a `mem`/`fill` op that changed the view is refused. */
static mem_t *m7_dut_mem(void *acc)
{
    m7tb_t *t = acc;
    mem_free(t->dview);
    t->dview = mem_new();
    for (unsigned g = 0; g < MAX78000_NDMEM; g++)
        for (unsigned w = 0; w < MAX78000_DMEM_WORDS; w++)
            if (t->mirror[g][w]) mem_write32_strb(t->dview, max78000_dmem_addr(g, w), t->mirror[g][w], 0xF);
    t->dview_dirty = true;
    return t->dview;
}

static void check_view(m7tb_t *t)
{
    if (!t->dview_dirty) return;
    t->dview_dirty = false;
    for (unsigned g = 0; g < MAX78000_NDMEM; g++)
        for (unsigned w = 0; w < MAX78000_DMEM_WORDS; w++)
            if (mem_read32(t->dview, max78000_dmem_addr(g, w)) != t->mirror[g][w]) {
                sim_error(t->sim,
                          "a mem/fill op wrote 0x%08x (data memory %u word 0x%04x): the MAX78000's "
                          "memories are inside the DUT and are loaded over APB (w ops), not by back-door ops",
                          max78000_dmem_addr(g, w), g, w);
                return;
            }
}

/* ---- names -------------------------------------------------------------------------------------- */
static const char *const lreg_names[16] = {
    "RCNT",      "CCNT",       "ONED",      "PRCNT",  "PCCNT", "STRIDE", "WPTR_BASE", "WPTR_TOFF",
    "WPTR_MOFF", "WPTR_CHOFF", "RPTR_BASE", "LCTRL0", "MCNT",  "TPTR",   "EN",        "POST",
};

static const char *m7_reg_name(void *acc, uint64_t addr, char *buf, size_t n)
{
    (void)acc;
    max78000_dec_t d = max78000_decode((uint32_t)addr);
    const char *exp = (addr & MAX78000_EXPECT_SLVERR) ? " (expect PSLVERR)" : "";
    switch (d.kind) {
    case DEC_INVALID: snprintf(buf, n, "unmapped%s", exp); break;
    case DEC_FIFO_CTRL:
    case DEC_FIFO_STAT:
    case DEC_AOD_CTRL:
    case DEC_FF_CR:
    case DEC_FF_SR:
    case DEC_FF_IE:
    case DEC_FF_IS:
    case DEC_FF_DR: snprintf(buf, n, "%s%s", max78000_dec_name(d.kind), exp); break;
    case DEC_FIFO_WR: snprintf(buf, n, "FIFO_WR%u%s", d.idx, exp); break;
    case DEC_LREG: snprintf(buf, n, "Q%u.L%u.%s%s", d.q, d.idx, lreg_names[d.idx2 & 15], exp); break;
    case DEC_LCTRL1: snprintf(buf, n, "Q%u.L%u.LCTRL1%s", d.q, d.idx, exp); break;
    case DEC_STRM0:
    case DEC_STRM1:
    case DEC_FBUF: snprintf(buf, n, "Q%u.%s%u%s", d.q, max78000_dec_name(d.kind), d.idx, exp); break;
    case DEC_BRAM: snprintf(buf, n, "Q%u.BRAM[%u]%s", d.q, d.idx, exp); break;
    case DEC_TRAM: snprintf(buf, n, "Q%u.TRAM p%u[%u]%s", d.q, d.proc, d.idx, exp); break;
    case DEC_MRAM: snprintf(buf, n, "MRAM p%u word %u part %u%s", 16 * d.q + d.proc, d.idx, d.idx2, exp); break;
    case DEC_DSRAM: snprintf(buf, n, "SRAM mem %u word 0x%04x%s", d.idx2, d.idx, exp); break;
    default: snprintf(buf, n, "Q%u.%s%s", d.q, max78000_dec_name(d.kind), exp); break;
    }
    return buf;
}

/* ---- the interrupt wait's watchdog, from the program ------------------------------------------------ */
/* A bound on the RTL cycles of the run the golden model just executed, from its layers: per layer the
 * quadrant with most work, NK x H_out x W_out x (X x T x pool window + 5) cycles (the engine before
 * issue 12's parallel rework needed exactly that: mnist 1.44 M), doubled, plus 200000 for start-up. */
static uint64_t run_budget(const max78000_t *g)
{
    uint64_t total = 0;
    for (unsigned q = 0; q < MAX78000_NQUAD; q++) {
        if (!(g->q[q].ctrl & MAX78000_CTRL_CNN_EN_MASK)) continue;
        unsigned last = REG_GET(g->q[q].lcnt_max, MAX78000_LCNT_MAX_LCNT);
        uint64_t quad = 0;
        for (unsigned y = 0; y <= last && y < MAX78000_NLAYER; y++) {
            max78000_lp_t lp;
            max78000_layer_params(g, q, y, &lp);
            if (!lp.valid) continue;
            uint64_t win = (uint64_t)(lp.ph > 0 ? lp.ph : 1) * (uint64_t)(lp.pw > 0 ? lp.pw : 1);
            quad += (uint64_t)lp.NK * (uint64_t)lp.H_out * (uint64_t)lp.W_out * ((uint64_t)lp.X * lp.T * win + 5);
        }
        if (quad > total) total = quad;
    }
    return 2 * total + 200000;
}

static uint64_t m7_wait_budget(void *acc) { return ((m7tb_t *)acc)->budget; }

/* ---- APB monitor → golden model ----------------------------------------------------------------- */
/* A write that clears quadrant q's cnn_en, which the model holds set (a stop when q is the running master). */
static bool clears_cnn_en(const max78000_t *g, const max78000_dec_t *d, unsigned q, uint32_t data, uint8_t strb)
{
    return d->kind == DEC_CTRL && d->q == q && (g->q[q].ctrl & MAX78000_CTRL_CNN_EN_MASK) && (strb & 1) &&
           !(data & MAX78000_CTRL_CNN_EN_MASK);
}

static bool is_memory(max78000_dec_kind_t k)
{
    return k == DEC_BRAM || k == DEC_TRAM || k == DEC_MRAM || k == DEC_DSRAM;
}

static void check_unsupported(m7tb_t *t)
{
    if (t->gold->unsupported[0] && !t->unsup_reported) {
        t->unsup_reported = true;
        sim_error(t->sim, "golden model: unsupported feature, this program cannot be checked: %s",
                  t->gold->unsupported);
    }
}

static void on_apb_accept(void *user, const apb_req_t *req, uint32_t rdata, bool slverr, uint64_t cycle)
{
    m7tb_t *t = user;
    char nm[96];
    max78000_dec_t d = max78000_decode(req->addr);
    bool pending = m7_check_pending_runs(t->chk) > 0;
    bool exp_err = d.kind == DEC_INVALID || (is_memory(d.kind) && pending); /* D05 */
    unsigned ws = 0;
    t->transfers++;
    if (slverr && !req->expect_error) { /* apb_master said the address; the program's line is known here */
        char loc[300];
        if (*sim_where_tag(t->sim, req->tag & TAG_MASK, TAG_MASK, loc, sizeof loc))
            sim_note(t->sim, "the %s of 0x%08x that answered PSLVERR is the program's%s", req->write ? "write" : "read",
                     req->addr, loc);
    }
    if (slverr != exp_err)
        sim_error(t->sim, "APB: PSLVERR=%d on %s of %s (0x%08x), the spec expects %d (D05%s)", slverr,
                  req->write ? "write" : "read", m7_reg_name(t, req->addr, nm, sizeof nm), req->addr, exp_err,
                  pending ? ", a run is in progress" : "");
    if (!exp_err && !slverr) {
        if (req->write) {
            uint64_t runs = t->gold->runs;
            bool stop = pending && clears_cnn_en(t->gold, &d, t->gold->run_master, req->data, req->strb);
            if (max78000_waiting(t->gold) && clears_cnn_en(t->gold, &d, t->gold->fifo_master, req->data, req->strb))
                sim_error(t->sim,
                          "golden model: the program clears Q%u's cnn_en while the run waits for its FIFO "
                          "input: a stop of a FIFO-input run is not modelled",
                          d.q);
            m7_check_golden_begin(t->chk);
            max78000_resp_t r = max78000_apb_write(t->gold, req->addr, req->data, req->strb);
            m7_check_golden_end(t->chk);
            if (stop) {
                t->stop_at = cycle + STOP_EFFECT_CYCLES; /* spec 4: aborts after the current layer */
                sim_note(t->sim, "stop: master Q%u's cnn_en cleared during run %llu (cycle %llu)", d.q,
                         (unsigned long long)t->gold->runs, (unsigned long long)cycle);
            }
            if (t->gold->runs != runs) {
                t->budget = run_budget(t->gold);
                sim_note(t->sim,
                         "run %llu started: interrupt watchdog %llu cycles (from its layers; +watchdog= "
                         "overrides)",
                         (unsigned long long)t->gold->runs, (unsigned long long)t->budget);
            }
            ws = r.wait_states;
            if (d.kind == DEC_CTRL) /* irq follows CTRL with a register delay in the DUT */
                t->irq_quiet_until = sim_cycle(t->sim) + 4;
            check_unsupported(t);
        } else {
            max78000_resp_t r = max78000_apb_read(t->gold, req->addr);
            ws = r.wait_states;
            uint32_t mask = 0xFFFFFFFFu;
            if (pending && d.kind == DEC_CTRL) /* the model's run is already done; the DUT's is not */
                mask &= ~MAX78000_CTRL_CNN_IRQ_MASK;
            if (d.kind == DEC_FIFO_STAT || d.kind == DEC_FF_SR) /* FIFO levels depend on the engine's pace
                                              (2.4): the model takes every word at once (the fast FIFO's too), so
                                              only the program's polls judge them */
                mask = 0;
            if ((rdata ^ r.rdata) & mask)
                sim_error(t->sim,
                          "APB: read of %s (0x%08x) returned 0x%08x, the golden model holds 0x%08x "
                          "(differs in 0x%08x)",
                          m7_reg_name(t, req->addr, nm, sizeof nm), req->addr, rdata, r.rdata,
                          (rdata ^ r.rdata) & mask);
        }
    }
    if (t->exp_n < EXP_RING) t->exp_ws[(t->exp_head + t->exp_n++) % EXP_RING] = ws;
}

/* ---- configuration ------------------------------------------------------------------------------ */
static const sim_fault_kind_t fault_kinds[] = {
    {"out_flip", FAULT_OUT_FLIP, 0, "bit"},
    {"hang", FAULT_HANG, 0, NULL},
    {"bus_error", FAULT_BUS_ERROR, 20, "N"},
    {NULL, 0, 0, NULL},
};

static bool file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Conformance files: +expect_dir=<dir>, or the trace's own directory when it holds expected.txt
 * (shared/conformance/max78000/<net>/). +expect_dir=none turns this off. */
static int load_conf(m7tb_t *t)
{
    const char *ed = sim_plusarg(t->sim, "expect_dir");
    char dir[512] = "", probe[600], err[700];
    if (ed && strcmp(ed, "none") == 0) return 0;
    if (ed && *ed) {
        snprintf(dir, sizeof dir, "%s", ed);
    } else {
        const char *tr = sim_plusarg(t->sim, "trace");
        if (!tr || !*tr) return 0;
        snprintf(dir, sizeof dir, "%s", tr);
        char *slash = strrchr(dir, '/');
        if (slash) *slash = 0;
        else snprintf(dir, sizeof dir, ".");
        snprintf(probe, sizeof probe, "%s/expected.txt", dir);
        if (!file_exists(probe)) {
            /* layer images without the final expected.txt: a check would silently drop */
            snprintf(probe, sizeof probe, "%s/layer0.txt", dir);
            if (!file_exists(probe)) return 0;
            fprintf(stderr,
                    "ERROR: expectation file %s/expected.txt is missing (%s exists; +expect_dir=none "
                    "replays without them)\n",
                    dir, probe);
            return -1;
        }
    }
    if (m7_check_load_conf(t->chk, dir, err, sizeof err)) {
        fprintf(stderr, "ERROR: %s\n", err);
        return -1;
    }
    const m7_conf_t *c = m7_check_conf(t->chk);
    printf("max78000: conformance files in %s: expected.txt (%zu words), %u layer images; checked after the "
           "first run (RTL and golden model)\n",
           dir, c->expected.n, c->nlayers);
    return 0;
}

/* ---- acc_ops ------------------------------------------------------------------------------------ */
static void m7_destroy(void *acc);

/* acc_ops_t.stall: +stall, the level of the bus models' stalls (tb/max78000/max78000_plusargs.tsv). */
static uint64_t m7_stall(const sim_t *sim) { return sim_plusarg_u64(sim, "stall", 1); }

static void *m7_create(sim_t *sim)
{
    m7tb_t *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->sim = sim;
    t->gold = max78000_new();
    t->dview = mem_new();
    t->mirror = calloc(MAX78000_NDMEM, sizeof *t->mirror);
    t->ram = calloc(MAX78000_NDMEM, sizeof *t->ram);
    t->peek_src = (const uint32_t(*)[MAX78000_DMEM_WORDS])t->mirror;
    if (!t->gold || !t->mirror || !t->ram) {
        fprintf(stderr, "ERROR: max78000: out of memory\n");
        return NULL;
    }
    t->chk = m7_check_new(sim, t->gold, rtl_peek, t);
    t->cov = max78000_cov_new();
    if (t->chk) m7_check_set_cov(t->chk, t->cov);
    rng_t r;
    rng_seed_stream(&r, sim_seed(sim), "apb.cfg");
    /* +stall=1 (default): seeded idle cycles between transfers; wait states come from the DUT (rdy_sel). */
    apb_cfg_t ac = {.idle_pct = m7_stall(sim) ? rng_range(&r, 0, 30) : 0, .ready_timeout = 16};
    t->apb = apb_master_new(sim_env(sim), "apb", &ac, sim_seed(sim) ^ 0x3333);
    apb_master_on_accept(t->apb, on_apb_accept, t);
    t->irq = irq_monitor_new(sim_env(sim), "irq", IRQ_LEVEL);
    irq_monitor_arm(t->irq, true); /* spurious interrupts are caught against the model in irq_tick */
    t->fault = (fault_t)sim_plusarg_fault(sim, fault_kinds, &t->fault_n);
    if (!t->chk || !t->apb || !t->irq || load_conf(t)) {
        m7_destroy(t);
        return NULL;
    }
    return t;
}

static void m7_destroy(void *acc)
{
    m7tb_t *t = acc;
    if (!t) return;
    fcov_write_plusarg(t->cov, t->sim);
    fcov_free(t->cov);
    m7_check_free(t->chk);
    apb_master_free(t->apb);
    irq_monitor_free(t->irq);
    max78000_free(t->gold);
    mem_free(t->dview);
    free(t->mirror);
    free(t->ram);
    free(t);
}

static int m7_build(void *acc, const char *test, uint64_t seed, program_t *p, char *err, size_t errlen)
{
    (void)acc;
    return max78000_build_test(test, seed, p, err, errlen);
}

/* +cfg=<folder>: a program as ai8xize generated it (tb/max78000/ai8x_import.c). */
static int m7_import(void *acc, const char *path, program_t *p, char *err, size_t errlen)
{
    (void)acc;
    return ai8x_import(path, p, err, errlen);
}

static void m7_bus_push(void *acc, const bus_req_t *r)
{
    m7tb_t *t = acc;
    if (r->addr >> 33) {
        sim_error(t->sim, "APB address 0x%llx: only bit 32 (expect PSLVERR) may be set above the 32-bit PADDR",
                  (unsigned long long)r->addr);
        return;
    }
    bool expect = (r->addr & MAX78000_EXPECT_SLVERR) != 0, want = !r->write || r->nposted;
    apb_req_t a = {.addr = (uint32_t)r->addr,
                   .data = r->data,
                   .strb = r->write ? r->strb : 0,
                   .write = r->write,
                   .expect_error = expect,
                   .tag = (r->tag & TAG_MASK) | (want ? TAG_WANT_RESP : 0) | (expect ? TAG_EXPECT_ERR : 0)};
    if (r->write && t->fault == FAULT_BUS_ERROR && ++t->writes_pushed == t->fault_n) {
        sim_note(t->sim, "fault bus_error: APB write %llu (0x%08x) redirected to unmapped 0x%08x",
                 (unsigned long long)t->fault_n, a.addr, INVALID_ADDR);
        a.addr = INVALID_ADDR;
        sim_fault_injected(t->sim);
    }
    apb_master_push(t->apb, &a);
}

static void drain_apb(m7tb_t *t)
{
    apb_resp_t r;
    while (apb_master_pop(t->apb, &r)) {
        bool expect = (r.tag & TAG_EXPECT_ERR) != 0;
        char nm[96];
        if (!r.timeout && t->exp_n) {
            unsigned ws = t->exp_ws[t->exp_head];
            t->exp_head = (t->exp_head + 1) % EXP_RING;
            t->exp_n--;
            if (ws != r.wait_states)
                sim_error(t->sim, "APB: %s of %s (0x%08x) took %u wait states, the spec expects %u (D04: rdy_sel)",
                          r.write ? "write" : "read", m7_reg_name(t, r.addr, nm, sizeof nm), r.addr, r.wait_states, ws);
        }
        if (expect && !r.slverr && !r.timeout)
            sim_error(t->sim, "APB: %s of %s (0x%08x) was expected to answer PSLVERR but completed OKAY",
                      r.write ? "write" : "read", m7_reg_name(t, r.addr, nm, sizeof nm), r.addr);
        if (!(r.tag & TAG_WANT_RESP)) continue;
        if (t->ring_n == RESP_RING) {
            sim_error(t->sim, "testbench: more than %d unconsumed APB responses", RESP_RING);
            return;
        }
        t->ring[(t->ring_head + t->ring_n++) % RESP_RING] = (bus_resp_t){
            .tag = r.tag & TAG_MASK, .data = r.rdata, .error = (r.slverr && !expect) || r.timeout, .cycle = r.cycle};
    }
}

static bool m7_bus_pop(void *acc, bus_resp_t *resp)
{
    m7tb_t *t = acc;
    drain_apb(t);
    if (!t->ring_n) return false;
    *resp = t->ring[t->ring_head];
    t->ring_head = (t->ring_head + 1) % RESP_RING;
    t->ring_n--;
    return true;
}

static bool m7_bus_idle(void *acc)
{
    m7tb_t *t = acc;
    drain_apb(t);
    return apb_master_idle(t->apb);
}

/* wait_irq: mask 0 (the only kind MAX78000 has) waits for the irq line (D06); the program's ISR clears it. */
static bool m7_wait_irq(void *acc, uint32_t mask)
{
    m7tb_t *t = acc;
    if (mask) {
        sim_error(t->sim, "wait_irq: MAX78000 has one interrupt line; use mask 0 (got 0x%x)", mask);
        return true;
    }
    return irq_monitor_level(t->irq);
}

/* ---- golden-only runs (+golden_only): the program against the golden model alone -------------------- */
static void m7_golden_bus(void *acc, const bus_req_t *r, bus_resp_t *resp)
{
    m7tb_t *t = acc;
    bool expect = (r->addr & MAX78000_EXPECT_SLVERR) != 0;
    uint32_t addr = (uint32_t)r->addr;
    bool slverr = max78000_decode(addr).kind == DEC_INVALID; /* D05: no run is ever in flight here */
    if (!slverr && r->write) {
        max78000_dec_t d = max78000_decode(addr);
        if (t->gold->runs > t->golden_waited_runs && clears_cnn_en(t->gold, &d, t->gold->run_master, r->data, r->strb))
            sim_error(t->sim,
                      "golden-only: the program stops run %llu (clears Q%u's cnn_en before waiting for its "
                      "interrupt); the layer a stop lands after is the engine's timing, so only a run on a DUT can "
                      "check it",
                      (unsigned long long)t->gold->runs, d.q);
        m7_check_golden_begin(t->chk);
        max78000_apb_write(t->gold, addr, r->data, r->strb);
        m7_check_golden_end(t->chk);
        check_unsupported(t);
    } else if (!slverr) {
        resp->data = max78000_apb_read(t->gold, addr).rdata;
        /* a program that polls CTRL.CNN_IRQ instead of waiting for the line (mnist-streaming's cnn_wait) has seen
         * the run end as surely: it may stop it now */
        if (max78000_decode(addr).kind == DEC_CTRL && (resp->data & MAX78000_CTRL_CNN_IRQ_MASK))
            t->golden_waited_runs = t->gold->runs;
    }
    if (expect && !slverr)
        sim_error(t->sim, "APB: access to 0x%08x was expected to answer PSLVERR, the golden model answers OKAY", addr);
    resp->error = slverr && !expect;
}

static bool m7_golden_irq(void *acc, uint32_t mask)
{
    m7tb_t *t = acc;
    if (mask) sim_error(t->sim, "wait_irq: MAX78000 has one interrupt line; use mask 0 (got 0x%x)", mask);
    if (max78000_irq(t->gold)) t->golden_waited_runs = t->gold->runs;
    return mask || max78000_irq(t->gold);
}

static void m7_golden_finish(void *acc, scoreboard_t *sb)
{
    m7tb_t *t = acc;
    (void)sb;
    check_unsupported(t);
    m7_check_golden_only(t->chk);
}

static void run_end_compare(m7tb_t *t, bool from_dump);

static void m7_golden_check(void *acc, scoreboard_t *sb)
{
    m7tb_t *t = acc;
    check_unsupported(t);
    if (t->run_end_pending) /* the RTL run ended but its dump has not come yet: the mirror stands in */
        run_end_compare(t, false);
    unsigned pend = m7_check_pending_runs(t->chk);
    if (pend) sim_error(t->sim, "check_golden: %u run(s) the golden model executed have not finished on the RTL", pend);
    m7_check_golden_image(t->chk, sb);
}

static void m7_describe(void *acc, FILE *f)
{
    m7tb_t *t = acc;
    fprintf(f,
            "  state: irq=%d busy=%d engine layer %u, run cycles %u; RTL runs finished %llu, golden runs "
            "pending on the RTL %u; APB idle=%d, transfers %llu\n",
            t->irq_line, t->busy_prev, t->layer, t->run_cycles, (unsigned long long)t->rtl_runs,
            m7_check_pending_runs(t->chk), apb_master_idle(t->apb), (unsigned long long)t->transfers);
    for (unsigned q = 0; q < 4; q++)
        fprintf(f, "  golden Q%u: CTRL 0x%08x LCNT_MAX %u\n", q, t->gold->q[q].ctrl, t->gold->q[q].lcnt_max);
    if (t->gold->unsupported[0]) fprintf(f, "  golden model: unsupported: %s\n", t->gold->unsupported);
}

static const char *const m7_wave_signals[] = {
    /* the bus wires; the DUT adds its internals (duts/<dut>.signals) */
    "-APB",
    "TOP.tb_max78000.clk",
    "TOP.tb_max78000.rst_n",
    "TOP.tb_max78000.psel",
    "TOP.tb_max78000.penable",
    "TOP.tb_max78000.pwrite",
    "TOP.tb_max78000.paddr[31:0]",
    "TOP.tb_max78000.pwdata[31:0]",
    "TOP.tb_max78000.pstrb[3:0]",
    "TOP.tb_max78000.pready",
    "TOP.tb_max78000.pslverr",
    "TOP.tb_max78000.prdata[31:0]",
    "-Interrupt and run",
    "TOP.tb_max78000.irq",
    "TOP.tb_max78000.busy",
    "TOP.tb_max78000.run_cycles[31:0]",
    NULL,
};

const acc_ops_t tb_acc_ops = {
    .name = "max78000",
    .create = m7_create,
    .destroy = m7_destroy,
    .stall = m7_stall,
    .build = m7_build,
    .import = m7_import,
    .bus_push = m7_bus_push,
    .bus_pop = m7_bus_pop,
    .bus_idle = m7_bus_idle,
    .wait_irq = m7_wait_irq,
    .dut_mem = m7_dut_mem,
    .golden_mem = NULL, /* the golden model's memories live in max78000_t; back-door ops are refused */
    .golden_check = m7_golden_check,
    .reg_name = m7_reg_name,
    .describe = m7_describe,
    .wave_scope = "TOP.tb_max78000",
    .wave_signals = m7_wave_signals,
    .default_watchdog = 200000,
    .wait_budget = m7_wait_budget, /* the interrupt wait: at least the started run's bound (run_budget) */
    .golden_bus = m7_golden_bus,
    .golden_irq = m7_golden_irq,
    .golden_finish = m7_golden_finish,
};

/* ---- DPI entry points (tb_max78000.sv, once per rising edge) ------------------------------------- */
void max78000_apb_tick(svBit pready, svBit pslverr, unsigned int prdata, svBit *psel, svBit *penable, svBit *pwrite,
                       unsigned int *paddr, unsigned int *pwdata, unsigned char *pstrb)
{
    m7tb_t *t = tb();
    apb_out_t o = {0};
    if (t) {
        apb_in_t in = {.pready = pready, .prdata = prdata, .pslverr = pslverr};
        apb_master_tick(t->apb, &in, &o);
        if (t->fault == FAULT_HANG && o.psel && o.pwrite && max78000_decode(o.paddr).kind == DEC_CTRL &&
            (o.pwdata & MAX78000_CTRL_CNN_EN_MASK)) {
            o.pwdata &= ~MAX78000_CTRL_CNN_EN_MASK; /* the DUT never sees cnn_en: no run, no irq */
            sim_fault_injected(t->sim);
        }
    }
    *psel = o.psel;
    *penable = o.penable;
    *pwrite = o.pwrite;
    *paddr = o.paddr;
    *pwdata = o.pwdata;
    *pstrb = o.pstrb;
}

/* The RTL run ended: flip a byte for +fault=out_flip, then ask for a dump (compare in dump_done). */
static void on_run_end(m7tb_t *t)
{
    unsigned g, w;
    uint8_t be;
    uint64_t cyc;
    if (t->fault == FAULT_OUT_FLIP && !t->fault_done && m7_check_last_write(t->chk, &g, &w, &be, &cyc)) {
        t->fault_done = true;
        sim_fault_injected(t->sim);
        unsigned lane = (unsigned)__builtin_ctz(be), bit = (unsigned)(t->fault_n % 8);
        t->poke_g = g;
        t->poke_w = w;
        t->poke_v = t->mirror[g][w] ^ (1u << (8 * lane + bit));
        t->mirror[g][w] = t->poke_v; /* as if the port had carried it: only the scoreboard can catch it */
        t->poke_pending = true;
        sim_note(t->sim,
                 "fault out_flip: flipping bit %u of mem %u word 0x%04x lane %u in the DUT's RAM (the "
                 "engine's last write, cycle %llu)",
                 bit, g, w, lane, (unsigned long long)cyc);
    }
    t->run_end_pending = true;
    t->want_dump = true;
    t->dump_at = sim_cycle(t->sim) + 2; /* after a poke's nonblocking write has landed */
}

static void run_end_compare(m7tb_t *t, bool from_dump)
{
    t->run_end_pending = false;
    t->peek_src = (const uint32_t(*)[MAX78000_DMEM_WORDS])(from_dump ? t->ram : t->mirror);
    m7_check_rtl_run_end(t->chk);
    t->peek_src = (const uint32_t(*)[MAX78000_DMEM_WORDS])t->mirror;
}

void max78000_irq_tick(svBit irq, svBit busy, unsigned char layer, unsigned int run_cycles)
{
    m7tb_t *t = tb();
    if (!t) return;
    irq_monitor_tick(t->irq, irq);
    t->irq_line = irq;
    t->layer = layer;
    t->run_cycles = run_cycles;
    check_view(t);
    if (t->stop_at && sim_cycle(t->sim) >= t->stop_at) {
        t->stop_at = 0;
        t->stop_taken = true;
        t->stop_layer = layer;
    }
    if (t->busy_prev && !busy && t->stop_taken) { /* the stopped run: the model's becomes the same */
        char why[160];
        t->stop_taken = false;
        if (!max78000_stop_after(t->gold, t->stop_layer, why, sizeof why))
            sim_error(t->sim, "stop after layer %u (the engine's layer when the stop took effect): %s", t->stop_layer,
                      why);
        else {
            m7_check_stop_run(t->chk, t->stop_layer);
            sim_note(t->sim, "run %llu stopped after layer %u: compared up to that layer, no interrupt expected",
                     (unsigned long long)t->rtl_runs + 1, t->stop_layer);
        }
    }
    if (t->busy_prev && !busy && t->stop_at) { /* it ended before the stop reached the engine: it completed */
        t->stop_at = 0;
        sim_note(t->sim, "the stop came in the run's last cycles: the run completed");
    }
    if (t->busy_prev && !busy) { /* an RTL run ended: its writes are all in the RAMs by now */
        t->rtl_runs++;
        t->last_run_cycles = run_cycles;
        uint64_t macs, ideal;
        if (m7_check_next_run_work(t->chk, &macs, &ideal) && run_cycles) {
            sb_add_engine_run(sim_scoreboard(t->sim), run_cycles, ideal); /* cycle budgets "xR" */
            sim_note(t->sim,
                     "RTL run %llu done in %u cycles: %llu MACs, %.2f MACs/cycle; the ideal engine (one output "
                     "pixel of one output channel per cycle per input pass) needs %llu cycles, this run %.2fx that",
                     (unsigned long long)t->rtl_runs, run_cycles, (unsigned long long)macs, (double)macs / run_cycles,
                     (unsigned long long)ideal, ideal ? (double)run_cycles / (double)ideal : 0.0);
        } else sim_note(t->sim, "RTL run %llu done in %u cycles", (unsigned long long)t->rtl_runs, run_cycles);
        if (t->run_end_pending) run_end_compare(t, false);
        on_run_end(t);
        t->irq_quiet_until = sim_cycle(t->sim) + 4;
    }
    t->busy_prev = busy;
    /* irq must follow the model's cnn_irq bits whenever no run is in flight (D06, D44). */
    if (!busy && m7_check_pending_runs(t->chk) == 0 && sim_cycle(t->sim) > t->irq_quiet_until &&
        (bool)irq != max78000_irq(t->gold)) {
        sim_error(t->sim, "irq is %d but the golden model's CTRL.cnn_irq bits give %d (%s)", irq, !irq,
                  irq ? "spurious interrupt" : "interrupt missing");
        t->irq_quiet_until = ~0ull; /* report once */
    }
}

void max78000_dmem_write(unsigned char g, unsigned short word, unsigned int data, unsigned char be, svBit engine,
                         unsigned char layer)
{
    m7tb_t *t = tb();
    if (!t) return;
    uint32_t bm = 0;
    for (unsigned b = 0; b < 4; b++)
        if (be & (1u << b)) bm |= 0xFFu << (8 * b);
    uint32_t *m = &t->mirror[g & 15][word & (MAX78000_DMEM_WORDS - 1)];
    *m = (*m & ~bm) | (data & bm);
    if (engine) m7_check_rtl_write(t->chk, g, word, data, be, layer, sim_cycle(t->sim));
}

svBit max78000_backdoor(unsigned char *op, unsigned char *g, unsigned short *w, unsigned int *v)
{
    m7tb_t *t = tb();
    if (!t) return 0;
    if (!t->powerup_asked) { /* the first cycle out of reset: no write can reach a RAM before the next */
        t->powerup_asked = t->powerup_dump = true;
        *op = 1;
        return 1;
    }
    if (t->poke_pending) {
        t->poke_pending = false;
        *op = 2;
        *g = (unsigned char)t->poke_g;
        *w = (unsigned short)t->poke_w;
        *v = t->poke_v;
        return 1;
    }
    if (t->want_dump && sim_cycle(t->sim) >= t->dump_at) {
        t->want_dump = false;
        *op = 1;
        return 1;
    }
    return 0;
}

void max78000_dmem_dump(unsigned char g, unsigned short w, unsigned int v)
{
    m7tb_t *t = tb();
    if (t) t->ram[g & 15][w & (MAX78000_DMEM_WORDS - 1)] = v;
}

/* The dump is complete: the RAMs must hold what the ports carried; then the run's comparison. */
void max78000_dump_done(void)
{
    m7tb_t *t = tb();
    if (!t) return;
    if (t->powerup_dump) {
        t->powerup_dump = false;
        memcpy(t->mirror, t->ram, MAX78000_NDMEM * sizeof *t->mirror);
        return;
    }
    for (unsigned g = 0; g < MAX78000_NDMEM; g++)
        if (memcmp(t->ram[g], t->mirror[g], sizeof t->ram[g]))
            for (unsigned w = 0; w < MAX78000_DMEM_WORDS; w++)
                if (t->ram[g][w] != t->mirror[g][w]) {
                    sim_error(t->sim,
                              "back door: data memory %u word 0x%04x holds 0x%08x, but the writes seen at "
                              "its port give 0x%08x",
                              g, w, t->ram[g][w], t->mirror[g][w]);
                    memcpy(t->mirror, t->ram, MAX78000_NDMEM * sizeof *t->mirror);
                    g = MAX78000_NDMEM;
                    break;
                }
    if (t->run_end_pending) run_end_compare(t, true);
}
