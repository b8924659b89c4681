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
#include "../../tb/max78000/max78000_tb.h"

typedef struct stats {
    unsigned jobs, runs, layers, nonzero_jobs, reads, irq_waits;
} stats_t;

typedef struct hook_ctx { unsigned layers, nonzero; } hook_ctx_t;

static void hook(void *vctx, const max78000_t *m, unsigned y)
{
    hook_ctx_t *c = vctx;
    (void)y;
    c->layers++;
    for (unsigned g = 0; g < MAX78000_NDMEM; g++)
        for (unsigned w = 0; w < MAX78000_DMEM_WORDS; w++)
            if (m->dwritten[g][w] && (m->dmem[g][w] & 0xFFFFFFFFu))
                c->nonzero++;
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
            if (hc.nonzero > nz_before)
                st->nonzero_jobs++;
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
        } else if (o->kind == OP_POLL) {   /* the model takes FIFO words at once: a poll holds when made */
            max78000_resp_t r = max78000_apb_read(m, (uint32_t)o->addr);
            CHECK(((r.rdata ^ o->data) & o->mask) == 0, "%s op %zu: poll 0x%08llx = 0x%08x, want 0x%08x mask 0x%08x",
                  what, i, (unsigned long long)o->addr, r.rdata, o->data, o->mask);
        } else if (o->kind == OP_WAIT_IRQ) {
            st->irq_waits++;
            CHECK(max78000_irq(m), "%s op %zu: wait_irq without the interrupt", what, i);
        }
    }
    if (hc.nonzero > nz_before)
        st->nonzero_jobs++;
    CHECK(m->unsupported[0] == 0, "%s: golden model met an unsupported feature: %s", what, m->unsupported);
    CHECK(!max78000_irq(m), "%s: interrupt still up at the end", what);
    st->layers += hc.layers;
    max78000_free(m);
}

int main(void)
{
    unit_t uu = {.name = "test_max78000_gen"}, *u = &uu;
    static const struct { const char *name; int (*gen)(program_t *, uint64_t, char *, size_t); int seeds; } g[] = {
        {"net_random", m7_net_random, 300}, {"net_random_multi", m7_net_random_multi, 40},
        {"net_small", m7_net_small, 60}, {"net_m3", m7_net_m3, 300}, {"ex_out_stage", m7_ex_out_stage, 1},
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
    return unit_done(u);
}
