/* The MAX78000 network generator (tb/max78000/max78000_gen.c) against the golden model alone, for many
 * seeds: every program must be legal for the model (no unsupported feature, no PSLVERR), the interrupt
 * must be up at each wait_irq, every checked read (the ISR's CTRL values, the spec examples' outputs) must
 * match, and the networks must produce non-trivial outputs. The generator's C files are compiled in here
 * because the unit-test link line carries only golden/ and tb/common/ sources. */
#include "unit.h"

#include "../../tb/max78000/max78000_directed.c"
#include "../../tb/max78000/max78000_fw.c"
#include "../../tb/max78000/max78000_gen.c"
#include "max78000_golden.h"
#include "max78000_decode.h"
#include "../../tb/max78000/max78000_tb.h"

typedef struct stats {
    unsigned jobs, runs, layers, nonzero_jobs, reads, irq_waits;
} stats_t;

typedef struct hook_ctx {
    unsigned layers, nonzero;
} hook_ctx_t;

static void hook(void *vctx, const max78000_t *m, unsigned y)
{
    hook_ctx_t *c = vctx;
    (void)y;
    c->layers++;
    for (unsigned g = 0; g < MAX78000_NDMEM; g++)
        for (unsigned w = 0; w < MAX78000_DMEM_WORDS; w++)
            if (m->dwritten[g][w] && (m->dmem[g][w] & 0xFFFFFFFFu)) c->nonzero++;
    max78000_clear_written((max78000_t *)m);
}

static void replay(unit_t *u, const program_t *p, const char *what, stats_t *st)
{
    max78000_t *m = max78000_new();
    hook_ctx_t hc = {0, 0};
    max78000_set_layer_hook(m, hook, &hc);
    unsigned nz_before = 0;
    for (size_t i = 0; i < p->n; i++) {
        const op_t *o = &p->ops[i];
        bool expect_err = (o->addr & MAX78000_EXPECT_SLVERR) != 0;
        if (o->kind == OP_JOB) {
            st->jobs++;
            if (hc.nonzero > nz_before) st->nonzero_jobs++;
            nz_before = hc.nonzero;
        } else if (o->kind == OP_WRITE) {
            uint64_t runs = m->runs;
            max78000_resp_t r = max78000_apb_write(m, (uint32_t)o->addr, o->data, o->strb);
            CHECK(r.slverr == expect_err, "%s op %zu: write 0x%08llx PSLVERR=%d", what, i, (unsigned long long)o->addr,
                  r.slverr);
            st->runs += (unsigned)(m->runs - runs);
        } else if (o->kind == OP_READ) {
            max78000_resp_t r = max78000_apb_read(m, (uint32_t)o->addr);
            st->reads++;
            CHECK(r.slverr == expect_err && ((r.rdata ^ o->data) & o->mask) == 0,
                  "%s op %zu: read 0x%08llx = 0x%08x, expected 0x%08x mask 0x%08x", what, i,
                  (unsigned long long)o->addr, r.rdata, o->data, o->mask);
        } else if (o->kind == OP_POLL) { /* the model takes FIFO words at once: a poll holds when made */
            max78000_resp_t r = max78000_apb_read(m, (uint32_t)o->addr);
            CHECK(((r.rdata ^ o->data) & o->mask) == 0, "%s op %zu: poll 0x%08llx = 0x%08x, want 0x%08x mask 0x%08x",
                  what, i, (unsigned long long)o->addr, r.rdata, o->data, o->mask);
        } else if (o->kind == OP_WAIT_IRQ) {
            st->irq_waits++;
            CHECK(max78000_irq(m), "%s op %zu: wait_irq without the interrupt", what, i);
        }
    }
    if (hc.nonzero > nz_before) st->nonzero_jobs++;
    CHECK(m->unsupported[0] == 0, "%s: golden model met an unsupported feature: %s", what, m->unsupported);
    CHECK(!max78000_irq(m), "%s: interrupt still up at the end", what);
    st->layers += hc.layers;
    max78000_free(m);
}

/* 2.4: a streaming network's outputs equal those of the same network without streaming. The program with
 * CTRL.stream_en/lilbuf cleared and no FBUF writes is the reference; the bytes the last layer writes must
 * match, although the streaming run wrapped its intermediate layers in circular buffers. */
typedef struct last_ctx {
    unsigned nl, seen;
    uint8_t (*wr)[MAX78000_DMEM_WORDS];
} last_ctx_t;
static void last_hook(void *vctx, const max78000_t *m, unsigned y)
{
    last_ctx_t *c = vctx;
    c->seen++;
    if (y + 1 == c->nl) memcpy(c->wr, m->dwritten, sizeof m->dwritten);
    max78000_clear_written((max78000_t *)m);
}

static max78000_t *run_plain(const program_t *p, bool strip_stream, last_ctx_t *lc, unsigned *fbufs)
{
    max78000_t *m = max78000_new();
    max78000_set_layer_hook(m, last_hook, lc);
    for (size_t i = 0; i < p->n; i++) {
        const op_t *o = &p->ops[i];
        uint32_t a = (uint32_t)o->addr, d = o->data;
        if (o->kind != OP_WRITE) continue;
        max78000_dec_t dec = max78000_decode(a);
        if (dec.kind == DEC_FBUF) {
            (*fbufs)++;
            if (strip_stream) continue;
        }
        if (dec.kind == DEC_LCNT_MAX) lc->nl = (d & 31) + 1;
        if (strip_stream && dec.kind == DEC_CTRL) d &= ~(MAX78000_CTRL_STREAM_EN_MASK | MAX78000_CTRL_LILBUF_MASK);
        max78000_apb_write(m, a, d, o->strb);
    }
    return m;
}

/* Spec 2.4: a streaming network's last layer equals the same network's without streaming. */
static void test_stream_equals_plain(unit_t *u, const char *name, int (*gen)(program_t *, uint64_t, char *, size_t),
                                     unsigned min_nets)
{
    unsigned nets = 0, wrapped = 0;
    static uint8_t wr[MAX78000_NDMEM][MAX78000_DMEM_WORDS];
    for (int s = 1; s <= 300; s++) {
        program_t p;
        char err[128];
        program_init(&p, "max78000", name, (uint64_t)s);
        gen(&p, (uint64_t)s, err, sizeof err);
        unsigned fb = 0;
        last_ctx_t a = {0, 0, wr}, b = {0, 0, wr};
        max78000_t *ms = run_plain(&p, false, &a, &fb);
        if (!fb) {
            max78000_free(ms);
            program_free(&p);
            continue;
        }
        nets++;
        max78000_t *mp = run_plain(&p, true, &b, &fb); /* wr now: the plain run's last layer */
        size_t diff = 0, bytes = 0;
        for (unsigned g = 0; g < MAX78000_NDMEM; g++)
            for (unsigned w = 0; w < MAX78000_DMEM_WORDS; w++)
                for (unsigned l = 0; l < 4; l++)
                    if (wr[g][w] & (1u << l)) {
                        bytes++;
                        diff += ((ms->dmem[g][w] ^ mp->dmem[g][w]) >> (8 * l)) & 0xFFu ? 1 : 0;
                    }
        for (unsigned g = 0; g < MAX78000_NDMEM; g++)
            wrapped += ms->lin[g].n > 0 || memcmp(ms->dmem[g], mp->dmem[g], sizeof ms->dmem[g]) != 0;
        CHECK(bytes > 0 && diff == 0 && a.seen == b.seen,
              "%s seed %d: streaming differs from plain in %zu of %zu "
              "last-layer bytes",
              name, s, diff, bytes);
        max78000_free(ms);
        max78000_free(mp);
        program_free(&p);
    }
    printf("  %s streaming networks: %u of 300 seeds, last layer equal to the plain network's; %u memories "
           "differ (circular buffers)\n",
           name, nets, wrapped);
    CHECK(nets >= min_nets, "%s: only %u streaming networks in 300 seeds", name, nets);
}

/* net_fifo_ahead: the FIFO frame (IFRM) must exceed layer 0's circular buffer (FBUF[0]), or the drain could never
 * be a whole buffer ahead of layer 0 and the run would not tell the logical frame from the wrapped memory. */
static void test_fifo_ahead_frames(unit_t *u)
{
    enum { SEEDS = 300 };
    unsigned min_lead = ~0u;
    for (int s = 1; s <= SEEDS; s++) {
        program_t p;
        char err[128];
        program_init(&p, "max78000", "net_fifo_ahead", (uint64_t)s);
        m7_net_fifo_ahead(&p, (uint64_t)s, err, sizeof err);
        uint32_t ifrm = 0, fbuf0 = 0;
        for (size_t i = 0; i < p.n; i++) {
            if (p.ops[i].kind != OP_WRITE) continue;
            max78000_dec_t dec = max78000_decode((uint32_t)p.ops[i].addr);
            if (dec.kind == DEC_IFRM) ifrm = p.ops[i].data;
            if (dec.kind == DEC_FBUF && dec.idx == 0 && p.ops[i].data) fbuf0 = p.ops[i].data;
        }
        CHECK(fbuf0 > 0 && ifrm > fbuf0, "net_fifo_ahead seed %d: IFRM %u words, FBUF[0] %u", s, ifrm, fbuf0);
        if (ifrm > fbuf0 && ifrm - fbuf0 < min_lead) min_lead = ifrm - fbuf0;
        program_free(&p);
    }
    printf("  net_fifo_ahead: %d networks, the FIFO frame exceeds FBUF[0] by %u words or more\n", SEEDS, min_lead);
}

int main(void)
{
    unit_t uu = {.name = "test_max78000_gen"}, *u = &uu;
    static const struct {
        const char *name;
        int (*gen)(program_t *, uint64_t, char *, size_t);
        int seeds;
    } g[] = {
        {"net_random", m7_net_random, 300},
        {"net_random_multi", m7_net_random_multi, 40},
        {"net_small", m7_net_small, 60},
        {"net_m3", m7_net_m3, 300},
        {"net_stream_mem", m7_net_stream_mem, 100},
        {"net_fifo_ahead", m7_net_fifo_ahead, 100},
        {"net_masked", m7_net_masked, 100},
        {"ex_out_stage", m7_ex_out_stage, 1},
        {"ex_mram_express", m7_ex_mram_express, 1},
    };
    for (size_t k = 0; k < sizeof g / sizeof *g; k++) {
        u->test = g[k].name;
        stats_t st = {0};
        for (int s = 1; s <= g[k].seeds; s++) {
            program_t p;
            char err[256] = "", what[64];
            program_init(&p, "max78000", g[k].name, (uint64_t)s);
            CHECK(g[k].gen(&p, (uint64_t)s, err, sizeof err) == 0, "%s seed %d: %s", g[k].name, s, err);
            snprintf(what, sizeof what, "%s seed %d", g[k].name, s);
            replay(u, &p, what, &st);
            program_free(&p);
        }
        printf("  %s: %d seeds, %u jobs, %u runs, %u layers, %u jobs with nonzero outputs, %u reads, %u irq waits\n",
               g[k].name, g[k].seeds, st.jobs, st.runs, st.layers, st.nonzero_jobs, st.reads, st.irq_waits);
        if (g[k].name[0] == 'n')
            CHECK(st.nonzero_jobs * 4 >= st.jobs * 3, "%s: only %u of %u jobs produced nonzero outputs", g[k].name,
                  st.nonzero_jobs, st.jobs);
        CHECK(st.runs == st.irq_waits, "%s: %u runs but %u interrupt waits", g[k].name, st.runs, st.irq_waits);
    }
    u->test = "stream_equals_plain";
    test_stream_equals_plain(u, "net_m3", m7_net_m3, 30);
    test_stream_equals_plain(u, "net_stream_mem", m7_net_stream_mem, 300);
    test_stream_equals_plain(u, "net_fifo_ahead", m7_net_fifo_ahead, 300);
    u->test = "fifo_ahead_frames";
    test_fifo_ahead_frames(u);
    return unit_done(u);
}
