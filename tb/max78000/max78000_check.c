/* MAX78000 scoreboard (see max78000_check.h).
 *
 * Why per layer: a layer's output is often overwritten by a later layer (mnist: layer 2 overwrites 896
 * words of layer 0), so comparing only the final image would miss a wrong intermediate value that happens
 * to be masked. The golden model's layer hook records what each layer wrote (dwritten) with the layer's
 * parameters; the RTL write monitor records every engine write with the engine's layer number. When the
 * RTL run ends, each layer's RTL writes are compared with the golden layer's words, writes outside them
 * are stray, and the final image (RTL RAMs through the back door) is compared with the golden model's. */
#include "max78000_check.h"
#include "max78000_cov.h"
#include "max78000_regs.h"
#include "mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NG MAX78000_NDMEM
#define NW MAX78000_DMEM_WORDS
#define QUEUE 8

typedef struct rtl_write {
    uint8_t g, be, layer;
    uint16_t w;
    uint32_t data;
    uint64_t cycle;
} rtl_write_t;

struct m7_check {
    sim_t *sim;
    max78000_t *gold;
    m7_peek_fn peek;
    void *peek_user;
    m7_grun_t *queue[QUEUE];
    unsigned qhead, qn;
    m7_grun_t *building;
    uint64_t golden_runs, runs_checked;
    rtl_write_t *wr;
    size_t nwr, capwr;
    m7_conf_t conf;
    fcov_t *cov; /* functional coverage of the layers the golden model runs, or NULL */
    /* scratch images, kept all-zero between uses */
    uint32_t dimg[NG][NW];
    uint8_t dlanes[NG][NW];
    uint64_t dcycle[NG][NW];
    uint8_t glanes[NG][NW];
    uint8_t since[NG][NW]; /* lanes the golden layers wrote since the last check_golden */
};

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "max78000 check: out of memory\n");
        exit(2);
    }
    return q;
}

static void wl_push(m7_wlist_t *l, m7_wword_t v)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = v;
}

static void run_free(m7_grun_t *r)
{
    if (!r) return;
    for (unsigned i = 0; i < r->nlayers; i++) free(r->layer[i].words.v);
    free(r);
}

static uint32_t sysaddr(unsigned g, unsigned w) { return max78000_dmem_addr(g, w); }

/* ---- coordinates ------------------------------------------------------------------------------------ */

/* Inverse of the output address rule (spec 3.10): which (quadrant, slot K, pixel k) of layer gl wrote
 * memory g word w lane `lane`; quadrants in priority order (D41: the lowest-numbered one's value stays). */
static bool locate(const m7_glayer_t *gl, unsigned g, unsigned w, unsigned lane, char *buf, size_t n)
{
    for (unsigned q = 0; q < 4; q++) {
        const max78000_lp_t *L = &gl->lp[q];
        if (!L->writes || !L->valid || L->passthru) continue;
        int npix = L->H_out * L->W_out;
        for (unsigned K = 0; K < L->NK; K++) {
            unsigned P = K / L->S, j = K % L->S;
            for (int k = 0; k < npix; k++) {
                uint32_t ptr = L->bigdwrt ? L->wbase + 4u * (uint32_t)k * (L->inc + 1) + P * L->choff +
                                                (j >> 2) * L->moff + (j & 3)
                                          : L->wbase + (uint32_t)k * (L->inc + 1) + P * L->choff + (j >> 2) * L->moff;
                ptr &= 0x1FFFF;
                if ((ptr >> 13) != g || (ptr & 0x1FFF) != w || (!L->bigdwrt && (j & 3) != lane)) continue;
                snprintf(buf, n, "layer %u q%u out-ch %u%s row %d col %d%s", gl->y, q, K,
                         L->S < L->NK ? " (multi-pass)" : "", k / L->W_out, k % L->W_out,
                         L->bigdwrt ? (lane == 0   ? " (32-bit, byte 0)"
                                       : lane == 1 ? " (32-bit, byte 1)"
                                       : lane == 2 ? " (32-bit, byte 2)"
                                                   : " (32-bit, byte 3)")
                                    : "");
                return true;
            }
        }
    }
    return false;
}

static bool layer_has(const m7_glayer_t *gl, unsigned g, unsigned w, unsigned lane)
{
    size_t lo = 0, hi = gl->words.n;
    uint32_t key = (uint32_t)g << 13 | w;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const m7_wword_t *x = &gl->words.v[mid];
        uint32_t k = (uint32_t)x->g << 13 | x->w;
        if (k == key) return (x->lanes >> lane) & 1;
        if (k < key) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

typedef struct coord_ctx {
    const m7_glayer_t *layer; /* the layer that wrote the bytes, or NULL: search run backwards */
    const m7_grun_t *run;
} coord_ctx_t;

static void decode_sys(uint64_t addr, unsigned *g, unsigned *w, unsigned *lane)
{
    uint32_t o = (uint32_t)addr - MAX78000_QUAD_BASE;
    unsigned q = o / MAX78000_QUAD_STRIDE;
    uint32_t s = o % MAX78000_QUAD_STRIDE - 0x300000u;
    *g = 4 * q + (s >> 15);
    *w = (s >> 2) & 0x1FFF;
    *lane = s & 3;
}

static void coord(const void *vctx, uint64_t addr, char *buf, size_t n)
{
    const coord_ctx_t *x = vctx;
    unsigned g, w, lane;
    decode_sys(addr, &g, &w, &lane);
    char where[160] = "";
    const m7_glayer_t *gl = x->layer;
    if (!gl && x->run)
        for (unsigned i = x->run->nlayers; i-- > 0 && !gl;)
            if (layer_has(&x->run->layer[i], g, w, lane)) gl = &x->run->layer[i];
    if (gl && !locate(gl, g, w, lane, where, sizeof where))
        snprintf(where, sizeof where, "layer %u (no output slot maps here)", gl->y);
    snprintf(buf, n, "%s%smem %u (q%u) word 0x%04x lane %u", where, *where ? ", " : "", g, g >> 2, w, lane);
}

/* ---- construction, conformance files ------------------------------------------------------------ */

static void hook(void *ctx, const max78000_t *m, unsigned y);

m7_check_t *m7_check_new(sim_t *sim, max78000_t *gold, m7_peek_fn peek, void *peek_user)
{
    m7_check_t *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->sim = sim;
    c->gold = gold;
    c->peek = peek;
    c->peek_user = peek_user;
    max78000_set_layer_hook(gold, hook, c);
    return c;
}

void m7_check_set_cov(m7_check_t *c, fcov_t *cov) { c->cov = cov; }

void m7_check_free(m7_check_t *c)
{
    if (!c) return;
    for (unsigned i = 0; i < c->qn; i++) run_free(c->queue[(c->qhead + i) % QUEUE]);
    run_free(c->building);
    free(c->wr);
    max78000_words_free(&c->conf.expected);
    for (unsigned y = 0; y < c->conf.nlayers; y++) max78000_words_free(&c->conf.layer[y]);
    free(c);
}

const m7_conf_t *m7_check_conf(const m7_check_t *c) { return &c->conf; }
unsigned m7_check_pending_runs(const m7_check_t *c) { return c->qn; }
uint64_t m7_check_runs_checked(const m7_check_t *c) { return c->runs_checked; }

int m7_check_load_conf(m7_check_t *c, const char *dir, char *err, size_t errlen)
{
    char path[700];
    m7_conf_t *cf = &c->conf;
    snprintf(cf->dir, sizeof cf->dir, "%s", dir);
    snprintf(path, sizeof path, "%s/expected.txt", dir);
    if (max78000_words_load(&cf->expected, path, err, errlen)) return -1;
    unsigned missing = M7_CONF_LAYERS; /* the first layer file absent: none may follow it */
    for (unsigned y = 0; y < M7_CONF_LAYERS; y++) {
        snprintf(path, sizeof path, "%s/layer%u.txt", dir, y);
        FILE *f = fopen(path, "r");
        if (!f) {
            if (missing == M7_CONF_LAYERS) missing = y;
            continue;
        }
        fclose(f);
        if (missing != M7_CONF_LAYERS) {
            snprintf(err, errlen, "expectation file %s/layer%u.txt is missing (%s exists)", dir, missing, path);
            return -1;
        }
        if (max78000_words_load(&cf->layer[y], path, err, errlen)) return -1;
        cf->nlayers = y + 1;
    }
    for (size_t i = 0; i < cf->expected.n; i++)
        if (!max78000_dmem_at(c->gold, cf->expected.addr[i], &(uint32_t){0})) {
            snprintf(err, errlen, "%s/expected.txt: address 0x%08x is not in a data SRAM", dir, cf->expected.addr[i]);
            return -1;
        }
    cf->present = true;
    return 0;
}

/* ---- golden side -------------------------------------------------------------------------------- */

void m7_check_golden_begin(m7_check_t *c)
{
    if (!c->building) c->building = xrealloc(NULL, sizeof *c->building);
    memset(c->building, 0, sizeof *c->building);
    c->building->start_cycle = sim_cycle(c->sim);
}

/* Golden model against a conformance layer image (the first run only): catches a golden-model bug
 * independently of the RTL. */
static void golden_vs_conf(m7_check_t *c, unsigned y)
{
    const max78000_words_t *L = &c->conf.layer[y];
    unsigned bad = 0;
    for (size_t i = 0; i < L->n; i++) {
        uint32_t v = 0;
        max78000_dmem_at(c->gold, L->addr[i], &v);
        if (v != L->value[i] && bad++ == 0)
            sim_error(c->sim, "golden model vs %s/layer%u.txt: word 0x%08x: file 0x%08x, golden 0x%08x", c->conf.dir, y,
                      L->addr[i], L->value[i], v);
    }
    if (bad) sim_error(c->sim, "golden model vs %s/layer%u.txt: %u of %zu words differ", c->conf.dir, y, bad, L->n);
}

static void hook(void *ctx, const max78000_t *m, unsigned y)
{
    m7_check_t *c = ctx;
    (void)m;
    m7_grun_t *r = c->building;
    if (!r || r->nlayers == M7_MAX_LAYERS_PER_RUN) {
        sim_error(c->sim, "max78000 check: golden layer outside a recorded run (or more than %d layers)",
                  M7_MAX_LAYERS_PER_RUN);
        return;
    }
    m7_glayer_t *gl = &r->layer[r->nlayers++];
    gl->y = y;
    for (unsigned q = 0; q < 4; q++) max78000_layer_params(c->gold, q, y, &gl->lp[q]);
    if (c->cov) max78000_cov_layer(c->cov, c->gold, y, gl->lp);
    for (unsigned g = 0; g < NG; g++)
        for (unsigned w = 0; w < NW; w++) {
            uint8_t l = c->gold->dwritten[g][w];
            if (!l) continue;
            wl_push(&gl->words,
                    (m7_wword_t){.g = (uint8_t)g, .lanes = l, .w = (uint16_t)w, .value = c->gold->dmem[g][w]});
            c->since[g][w] |= l;
            c->gold->dwritten[g][w] = 0;
        }
    if (c->conf.present && c->golden_runs == 0 && y < c->conf.nlayers) golden_vs_conf(c, y);
    else if (c->conf.present && c->golden_runs == 0 && c->conf.nlayers) /* its check would silently drop */
        sim_error(c->sim, "expectation file %s/layer%u.txt is missing: the run has layer %u (layer0..%u.txt found)",
                  c->conf.dir, y, y, c->conf.nlayers - 1);
}

/* The work of the oldest run the RTL has not finished (the one that just ended when called at its end): MACs
 * (each enabled processor's T-tap kernel over X input passes, for every output pixel and output channel) and the
 * ideal engine's cycles (one output pixel of one output channel per cycle per input pass, issue 12). False when
 * no golden run is queued. */
bool m7_check_next_run_work(const m7_check_t *c, uint64_t *macs, uint64_t *ideal)
{
    if (c->qn == 0) return false;
    const m7_grun_t *r = c->queue[c->qhead];
    *macs = *ideal = 0;
    for (unsigned i = 0; i < r->nlayers; i++) {
        const max78000_lp_t *lp = r->layer[i].lp, *f = NULL;
        unsigned procs = 0;
        for (unsigned q = 0; q < 4; q++) {
            if (!lp[q].valid || !lp[q].pro_en) continue;
            procs += (unsigned)__builtin_popcount(lp[q].pro_en);
            if (!f) f = &lp[q];
        }
        if (!f || f->passthru) continue;
        const uint64_t outs = (uint64_t)f->NK * (uint64_t)f->H_out * (uint64_t)f->W_out * f->X;
        *ideal += outs;
        *macs += outs * procs * f->T;
    }
    return true;
}

void m7_check_stop_run(m7_check_t *c, unsigned last_done)
{
    if (c->qn == 0) return;
    m7_grun_t *r = c->queue[c->qhead];
    unsigned keep = 0;
    for (unsigned i = 0; i < r->nlayers; i++) {
        if (r->layer[i].y <= last_done) r->layer[keep++] = r->layer[i];
        else free(r->layer[i].words.v);
    }
    r->nlayers = keep;
}

void m7_check_golden_end(m7_check_t *c)
{
    m7_grun_t *r = c->building;
    if (!r || r->nlayers == 0) return;
    if (c->qn == QUEUE) {
        sim_error(c->sim, "max78000 check: %d golden runs started that the RTL has not finished", QUEUE);
        return;
    }
    c->queue[(c->qhead + c->qn++) % QUEUE] = r;
    c->building = NULL;
    c->golden_runs++;
}

/* ---- RTL side ----------------------------------------------------------------------------------- */

void m7_check_rtl_write(m7_check_t *c, unsigned g, unsigned w, uint32_t data, uint8_t be, unsigned layer,
                        uint64_t cycle)
{
    if (c->nwr == c->capwr) {
        c->capwr = c->capwr ? 2 * c->capwr : 4096;
        c->wr = xrealloc(c->wr, c->capwr * sizeof *c->wr);
    }
    c->wr[c->nwr++] = (rtl_write_t){
        .g = (uint8_t)g, .be = be, .layer = (uint8_t)layer, .w = (uint16_t)w, .data = data, .cycle = cycle};
}

bool m7_check_last_write(const m7_check_t *c, unsigned *g, unsigned *w, uint8_t *be, uint64_t *cycle)
{
    if (!c->nwr) return false;
    const rtl_write_t *x = &c->wr[c->nwr - 1];
    *g = x->g;
    *w = x->w;
    *be = x->be;
    *cycle = x->cycle;
    return true;
}

/* Compares byte images over a list of words: gm/dm get the bytes of the listed lanes, then one
 * sb_compare per run of consecutive words. Returns the number of differing bytes. */
typedef struct cmp {
    m7_check_t *c;
    scoreboard_t *sb;
    mem_t *gm, *dm;
    const char *what;
    coord_ctx_t ctx;
    uint64_t seg_lo, seg_hi, ndiff;
} cmp_t;

static void cmp_flush(cmp_t *x)
{
    if (x->seg_hi > x->seg_lo)
        x->ndiff += sb_compare(x->sb, stderr, x->dm, x->gm, x->seg_lo, x->seg_hi - x->seg_lo, x->what, coord, &x->ctx,
                               sim_cycle(x->c->sim));
    x->seg_lo = x->seg_hi = 0;
}

static void cmp_word(cmp_t *x, unsigned g, unsigned w, uint8_t lanes, uint32_t expect, uint32_t got)
{
    uint64_t a = sysaddr(g, w);
    for (unsigned b = 0; b < 4; b++)
        if (lanes & (1u << b)) {
            mem_write8(x->gm, a + b, (uint8_t)(expect >> (8 * b)));
            mem_write8(x->dm, a + b, (uint8_t)(got >> (8 * b)));
        }
    if (a != x->seg_hi) cmp_flush(x);
    if (!x->seg_hi) x->seg_lo = a;
    x->seg_hi = a + 4;
}

static void cmp_begin(cmp_t *x, m7_check_t *c, const char *what, const m7_glayer_t *gl, const m7_grun_t *run)
{
    memset(x, 0, sizeof *x);
    x->c = c;
    x->sb = sim_scoreboard(c->sim);
    x->gm = mem_new();
    x->dm = mem_new();
    x->what = what;
    x->ctx.layer = gl;
    x->ctx.run = run;
}

static uint64_t cmp_end(cmp_t *x)
{
    cmp_flush(x);
    mem_free(x->gm);
    mem_free(x->dm);
    return x->ndiff;
}

static uint32_t peek(m7_check_t *c, unsigned g, unsigned w) { return c->peek(c->peek_user, g, w); }

/* RTL layer image (dimg/dlanes) against a conformance layer file. */
static uint64_t rtl_vs_conf(m7_check_t *c, const m7_glayer_t *gl)
{
    const max78000_words_t *L = &c->conf.layer[gl->y];
    char what[600];
    snprintf(what, sizeof what, "RTL vs %s/layer%u.txt", c->conf.dir, gl->y);
    cmp_t x;
    cmp_begin(&x, c, what, gl, NULL);
    unsigned unwritten = 0;
    for (size_t i = 0; i < L->n; i++) {
        unsigned g, w, lane;
        decode_sys(L->addr[i], &g, &w, &lane);
        if (c->dlanes[g][w] != 0xF && unwritten++ == 0)
            sim_error(c->sim,
                      "%s: word 0x%08x (mem %u word 0x%04x) not fully written by the RTL in layer %u "
                      "(lanes 0x%x)",
                      what, L->addr[i], g, w, gl->y, c->dlanes[g][w]);
        cmp_word(&x, g, w, 0xF, L->value[i], c->dimg[g][w]);
    }
    uint64_t n = cmp_end(&x);
    if (!n && !unwritten) sim_note(c->sim, "%s: %zu words match", what, L->n);
    return n + unwritten;
}

/* One layer: RTL writes of that layer vs the golden layer's words; stray RTL writes. */
static uint64_t compare_layer(m7_check_t *c, const m7_glayer_t *gl, bool first_run)
{
    /* RTL layer image */
    for (size_t i = 0; i < c->nwr; i++) {
        const rtl_write_t *x = &c->wr[i];
        if (x->layer != gl->y) continue;
        uint32_t bm = 0;
        for (unsigned b = 0; b < 4; b++)
            if (x->be & (1u << b)) bm |= 0xFFu << (8 * b);
        c->dimg[x->g][x->w] = (c->dimg[x->g][x->w] & ~bm) | (x->data & bm);
        c->dlanes[x->g][x->w] |= x->be;
        c->dcycle[x->g][x->w] = x->cycle;
    }
    char what[64];
    snprintf(what, sizeof what, "layer %u output", gl->y);
    cmp_t x;
    cmp_begin(&x, c, what, gl, NULL);
    unsigned unwritten = 0;
    uint64_t mark = 0;
    for (size_t i = 0; i < gl->words.n; i++) {
        const m7_wword_t *e = &gl->words.v[i];
        uint8_t have = c->dlanes[e->g][e->w];
        c->glanes[e->g][e->w] = e->lanes;
        uint32_t got = c->dimg[e->g][e->w];
        if ((have & e->lanes) != e->lanes) {
            got = peek(c, e->g, e->w); /* never written in this layer: show what the RAM holds */
            if (unwritten++ == 0) {
                char where[200];
                coord(&x.ctx, sysaddr(e->g, e->w) + (unsigned)__builtin_ctz(e->lanes & ~have), where, sizeof where);
                sim_error(c->sim, "layer %u: the RTL did not write %s (lanes 0x%x of 0x%x missing)", gl->y, where,
                          e->lanes & ~have, e->lanes);
            }
        }
        uint64_t before = x.ndiff;
        cmp_word(&x, e->g, e->w, e->lanes, e->value, got);
        cmp_flush(&x);
        if (x.ndiff > before && !mark && c->dcycle[e->g][e->w]) mark = c->dcycle[e->g][e->w];
    }
    uint64_t n = cmp_end(&x);
    if (mark) sim_mark_failure(c->sim, mark, "RTL write of the first mismatching output byte");
    /* stray writes: lanes the RTL wrote in this layer that the golden layer did not */
    unsigned stray = 0;
    for (size_t i = 0; i < c->nwr; i++) {
        const rtl_write_t *w = &c->wr[i];
        if (w->layer != gl->y) continue;
        uint8_t extra = w->be & (uint8_t)~c->glanes[w->g][w->w];
        if (extra && stray++ == 0) {
            char where[200];
            coord(&(coord_ctx_t){.layer = gl}, sysaddr(w->g, w->w) + (unsigned)__builtin_ctz(extra), where,
                  sizeof where);
            sim_mark_failure(c->sim, w->cycle, "stray RTL write");
            sim_error(c->sim,
                      "stray write by the RTL in layer %u at %s (cycle %llu, data 0x%08x be 0x%x): the golden "
                      "model's layer wrote nothing there",
                      gl->y, where, (unsigned long long)w->cycle, w->data, w->be);
        }
    }
    if (stray > 1) sim_error(c->sim, "layer %u: %u stray RTL writes in all", gl->y, stray);
    if (first_run && c->conf.present && gl->y < c->conf.nlayers) n += rtl_vs_conf(c, gl);
    /* clear the scratch images */
    for (size_t i = 0; i < c->nwr; i++) {
        const rtl_write_t *w = &c->wr[i];
        if (w->layer != gl->y) continue;
        c->dimg[w->g][w->w] = 0;
        c->dlanes[w->g][w->w] = 0;
        c->dcycle[w->g][w->w] = 0;
    }
    for (size_t i = 0; i < gl->words.n; i++) c->glanes[gl->words.v[i].g][gl->words.v[i].w] = 0;
    return n + unwritten + stray;
}

/* Final image after a run: every byte the run's golden layers wrote, RTL RAM vs golden memory. */
static uint64_t compare_final(m7_check_t *c, const m7_grun_t *r)
{
    for (unsigned i = 0; i < r->nlayers; i++)
        for (size_t k = 0; k < r->layer[i].words.n; k++) {
            const m7_wword_t *e = &r->layer[i].words.v[k];
            c->glanes[e->g][e->w] |= e->lanes;
        }
    cmp_t x;
    cmp_begin(&x, c, "final image", NULL, r);
    for (unsigned g = 0; g < NG; g++)
        for (unsigned w = 0; w < NW; w++)
            if (c->glanes[g][w]) {
                cmp_word(&x, g, w, c->glanes[g][w], c->gold->dmem[g][w], peek(c, g, w));
                c->glanes[g][w] = 0;
            }
    return cmp_end(&x);
}

/* The run against expected.txt: the RTL's memory (side 0) and the golden model's (side 1), sides first..last. */
static uint64_t expected_vs(m7_check_t *c, const m7_grun_t *r, int first_side, int last_side)
{
    const max78000_words_t *E = &c->conf.expected;
    char what[600];
    uint64_t n = 0;
    for (int side = first_side; side <= last_side; side++) {
        snprintf(what, sizeof what, "%s vs %s/expected.txt", side ? "golden model" : "RTL", c->conf.dir);
        cmp_t x;
        cmp_begin(&x, c, what, NULL, r);
        for (size_t i = 0; i < E->n; i++) {
            unsigned g, w, lane;
            decode_sys(E->addr[i], &g, &w, &lane);
            cmp_word(&x, g, w, 0xF, E->value[i], side ? c->gold->dmem[g][w] : peek(c, g, w));
        }
        uint64_t d = cmp_end(&x);
        if (!d) sim_note(c->sim, "%s: %zu words match", what, E->n);
        n += d;
    }
    return n;
}

void m7_check_rtl_run_end(m7_check_t *c)
{
    scoreboard_t *sb = sim_scoreboard(c->sim);
    uint64_t before = sb_current(sb)->mismatches;
    if (!c->qn) {
        sim_error(c->sim, "the RTL finished a run (%zu data-memory writes) that the golden model never started",
                  c->nwr);
        c->nwr = 0;
        return;
    }
    m7_grun_t *r = c->queue[c->qhead];
    c->qhead = (c->qhead + 1) % QUEUE;
    c->qn--;
    bool first = c->runs_checked == 0;
    uint64_t bad = 0;
    size_t words = 0;
    for (unsigned i = 0; i < r->nlayers; i++) {
        bad += compare_layer(c, &r->layer[i], first);
        words += r->layer[i].words.n;
    }
    /* RTL writes in layers the golden run did not execute */
    for (size_t i = 0; i < c->nwr; i++) {
        bool known = false;
        for (unsigned k = 0; k < r->nlayers && !known; k++) known = r->layer[k].y == c->wr[i].layer;
        if (!known) {
            sim_mark_failure(c->sim, c->wr[i].cycle, "RTL write in a layer the golden run did not execute");
            sim_error(c->sim,
                      "the RTL wrote mem %u word 0x%04x in layer %u, which the golden run (%u layers) did "
                      "not execute",
                      c->wr[i].g, c->wr[i].w, c->wr[i].layer, r->nlayers);
            bad++;
            break;
        }
    }
    bad += compare_final(c, r);
    if (first && c->conf.present) bad += expected_vs(c, r, 0, 1);
    if (sb_current(sb)->mismatches > before) sim_error(c->sim, "MISMATCH %s", sb_last_mismatch(sb));
    else if (!bad)
        sim_note(c->sim, "run %llu: %u layers, %zu golden words, %zu RTL writes: all match",
                 (unsigned long long)c->runs_checked, r->nlayers, words, c->nwr);
    c->runs_checked++;
    c->nwr = 0;
    run_free(r);
}

void m7_check_golden_only(m7_check_t *c)
{
    scoreboard_t *sb = sim_scoreboard(c->sim);
    uint64_t before = sb_current(sb)->mismatches, bad = 0;
    if (c->conf.present && !c->qn)
        sim_error(c->sim, "golden-only: the program started no run, nothing to compare with %s/expected.txt",
                  c->conf.dir);
    for (bool first = true; c->qn; first = false) {
        m7_grun_t *r = c->queue[c->qhead];
        c->qhead = (c->qhead + 1) % QUEUE;
        c->qn--;
        if (first && c->conf.present) bad += expected_vs(c, r, 1, 1);
        run_free(r);
    }
    if (sb_current(sb)->mismatches > before) sim_error(c->sim, "MISMATCH %s", sb_last_mismatch(sb));
    (void)bad;
}

void m7_check_golden_image(m7_check_t *c, scoreboard_t *sb)
{
    (void)sb;
    cmp_t x;
    cmp_begin(&x, c, "check_golden image", NULL, NULL);
    for (unsigned g = 0; g < NG; g++)
        for (unsigned w = 0; w < NW; w++)
            if (c->since[g][w]) {
                cmp_word(&x, g, w, c->since[g][w], c->gold->dmem[g][w], peek(c, g, w));
                c->since[g][w] = 0;
            }
    cmp_end(&x);
}
