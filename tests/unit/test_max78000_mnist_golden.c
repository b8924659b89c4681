/* Replays the SDK mnist conformance trace (shared/conformance/max78000/mnist/) into the MAX78000 golden
 * model alone: every `r` check, the 10 expected words, and each layer's memory image right after that
 * layer (layer hook). Skips, printing why, when the conformance data is absent (a fresh clone has no
 * ../shared). Data directory: $MAX78000_MNIST_DIR, else ../shared/conformance/max78000/mnist. */
#include "unit.h"

#include "max78000_golden.h"
#include "max78000_trace.h"

#include <stdlib.h>
#include <sys/stat.h>

#define NLAYERS 5

typedef struct hook_ctx {
    unit_t *u;
    max78000_words_t layer[NLAYERS];
    unsigned calls[NLAYERS];
    unsigned extra_calls;
} hook_ctx_t;

/* Compares the words layer y must have written, and that the layer wrote nothing else. */
static void after_layer(void *vctx, const max78000_t *m, unsigned y)
{
    hook_ctx_t *c = vctx;
    unit_t *u = c->u;
    if (y >= NLAYERS) {
        c->extra_calls++;
        return;
    }
    c->calls[y]++;
    const max78000_words_t *w = &c->layer[y];
    unsigned bad = 0, unwritten = 0;
    for (size_t i = 0; i < w->n; i++) {
        uint32_t got = 0;
        bool ok = max78000_dmem_at(m, w->addr[i], &got);
        if (!ok || got != w->value[i]) {
            if (bad++ < 5)
                CHECK(false, "layer %u: word 0x%08x: expected 0x%08x got 0x%08x", y, w->addr[i], w->value[i], got);
        }
        unsigned g = ((w->addr[i] - 0x50100000u) >> 22) * 4 + ((w->addr[i] >> 15) & 3);
        if (m->dwritten[g & 15][(w->addr[i] >> 2) & 0x1FFF] != 0xF) unwritten++;
    }
    CHECK(bad == 0, "layer %u: %u of %zu words differ", y, bad, w->n);
    CHECK(unwritten == 0, "layer %u: %u listed words not (fully) written by the layer", y, unwritten);
    /* The written set must be exactly the listed words. */
    size_t nwritten = 0;
    for (unsigned g = 0; g < MAX78000_NDMEM; g++)
        for (unsigned i = 0; i < MAX78000_DMEM_WORDS; i++) nwritten += m->dwritten[g][i] != 0;
    CHECK(nwritten == w->n, "layer %u wrote %zu words, the layer image lists %zu", y, nwritten, w->n);
    if (bad == 0) printf("  layer %u: %zu words match\n", y, w->n);
    max78000_clear_written((max78000_t *)m);
}

static bool dir_exists(const char *d)
{
    struct stat st;
    return stat(d, &st) == 0 && S_ISDIR(st.st_mode);
}

int main(void)
{
    unit_t uu = {.name = "test_max78000_mnist_golden"}, *u = &uu;
    u->test = "mnist_replay";
    const char *dir = getenv("MAX78000_MNIST_DIR");
    if (!dir) dir = "../shared/conformance/max78000/mnist";
    if (!dir_exists(dir)) {
        printf("test_max78000_mnist_golden: SKIPPED: conformance data %s not found (set MAX78000_MNIST_DIR)\n", dir);
        return unit_done(u); /* 0 passed: a skip is not a pass */
    }
    char path[1024], err[512];
    max78000_trace_t tr;
    hook_ctx_t hc = {.u = u};
    max78000_words_t expect;
    snprintf(path, sizeof path, "%s/apb_trace.txt", dir);
    if (max78000_trace_load(&tr, path, err, sizeof err)) {
        CHECK(false, "%s", err);
        return unit_done(u);
    }
    snprintf(path, sizeof path, "%s/expected.txt", dir);
    if (max78000_words_load(&expect, path, err, sizeof err)) {
        CHECK(false, "%s", err);
        return unit_done(u);
    }
    for (unsigned y = 0; y < NLAYERS; y++) {
        snprintf(path, sizeof path, "%s/layer%u.txt", dir, y);
        if (max78000_words_load(&hc.layer[y], path, err, sizeof err)) {
            CHECK(false, "%s", err);
            return unit_done(u);
        }
    }
    max78000_t *m = max78000_new();
    CHECK(m != NULL, "out of memory");
    if (!m) return unit_done(u);
    max78000_set_layer_hook(m, after_layer, &hc);

    unsigned writes = 0, reads = 0, read_fail = 0, irqs = 0, slverr = 0;
    for (size_t i = 0; i < tr.n; i++) {
        const max78000_top_t *op = &tr.ops[i];
        if (op->kind == MAX78000_T_WRITE) {
            max78000_resp_t r = max78000_apb_write(m, op->addr, op->data, op->strb);
            writes++;
            if (r.slverr && slverr++ < 5)
                CHECK(false, "apb_trace.txt:%d: write 0x%08x got PSLVERR", op->line, op->addr);
        } else if (op->kind == MAX78000_T_READ) {
            max78000_resp_t r = max78000_apb_read(m, op->addr);
            reads++;
            bool ok = !r.slverr && ((r.rdata ^ op->data) & op->mask) == 0;
            if (!ok) read_fail++;
            CHECK(ok, "apb_trace.txt:%d: read 0x%08x = 0x%08x%s, expected 0x%08x mask 0x%08x", op->line, op->addr,
                  r.rdata, r.slverr ? " (PSLVERR)" : "", op->data, op->mask);
        } else {
            irqs++;
            CHECK(max78000_irq(m), "apb_trace.txt:%d: wait_irq but the interrupt is not raised", op->line);
        }
    }
    CHECK(slverr == 0, "%u writes got PSLVERR", slverr);
    CHECK(reads == 24 && irqs == 1, "trace has %u reads and %u wait_irq (expected 24 and 1)", reads, irqs);
    CHECK(!max78000_irq(m), "interrupt still raised after the ISR cleared it");
    for (unsigned y = 0; y < NLAYERS; y++) CHECK(hc.calls[y] == 1, "layer %u ran %u times", y, hc.calls[y]);
    CHECK(hc.extra_calls == 0, "%u layers beyond layer 4 ran", hc.extra_calls);
    CHECK(expect.n == 10, "expected.txt has %zu words", expect.n);
    unsigned ebad = 0;
    for (size_t i = 0; i < expect.n; i++) {
        uint32_t got = 0;
        bool ok = max78000_dmem_at(m, expect.addr[i], &got) && got == expect.value[i];
        ebad += !ok;
        CHECK(ok, "expected.txt: 0x%08x: expected 0x%08x got 0x%08x", expect.addr[i], expect.value[i], got);
    }
    CHECK(m->unsupported[0] == 0, "unsupported feature met: %s", m->unsupported);
    printf("  %u writes, %u reads (%u failed), %u wait_irq, %zu/10 outputs match, %llu MACs\n", writes, reads,
           read_fail, irqs, expect.n - ebad, (unsigned long long)m->macs);

    max78000_free(m);
    max78000_trace_free(&tr);
    max78000_words_free(&expect);
    for (unsigned y = 0; y < NLAYERS; y++) max78000_words_free(&hc.layer[y]);
    return unit_done(u);
}
