/* Unit tests of the AXI slave memory against a small C AXI master: byte-exact writes with strobes and
 * read-back, W before AW, read data sampled at beat time, per-id ordering under reorder_ids with stalls,
 * the outstanding limit, seeded reproducibility, logging, every protocol check, and a 512-bit bus (nv_full's
 * DBB and CVIF): a burst starting inside a beat, byte lanes by address, strobes, 4 KiB at the wide beat. */
#include "axi_slave.h"
#include "mem.h"
#include "rng.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

enum { MAXTX = 512, SHADOW = 1 << 16 };
#define BASE 0x80000000u

typedef struct txn {
    bool write;
    uint8_t id, len;
    uint32_t addr;
    uint64_t data[16];
    uint8_t strb[16];
} txn_t;

/* A well-behaved AXI master: issues reads and writes in list order on AR/AW, W beats in AW order
 * (optionally ahead of their AW), random rready/bready, and checks every R beat against a shadow. */
typedef struct master {
    txn_t *tx;
    unsigned ntx;
    unsigned next_ar, next_aw; /* next transaction index to consider for AR / AW */
    unsigned w_tx, w_beat;     /* W cursor over write transactions */
    unsigned aw_done;          /* AWs handshaked */
    bool w_lead;               /* W may run ahead of AW */
    unsigned rready_pct, bready_pct;
    rng_t rng;
    axi_in_t o; /* outputs to the slave */
    /* read checking: per-id FIFO of issued reads (indices into tx) */
    unsigned rfifo[256][MAXTX / 4], rh[256], rn[256];
    unsigned rbeat[256];
    unsigned reads_done, writes_done, r_errors, overtakes, r_beats;
    unsigned inflight_rd, max_inflight_rd;
    unsigned order_rd[MAXTX], nrd_order; /* completion order of read bursts (tx indices) */
    unsigned bfifo[256][MAXTX / 4], bh[256], bn[256], b_errors;
    const uint8_t *shadow; /* expected memory contents at BASE */
    uint64_t trace_hash;   /* hash of slave outputs every cycle */
    uint64_t bready_low;   /* edges at which bready was low */
} master_t;

static bool is_kind(const txn_t *t, bool write) { return t->write == write; }

static void m_init(master_t *m, txn_t *tx, unsigned ntx, uint64_t seed)
{
    memset(m, 0, sizeof *m);
    m->tx = tx;
    m->ntx = ntx;
    m->rready_pct = m->bready_pct = 100;
    rng_seed(&m->rng, seed);
    m->trace_hash = 1469598103934665603ull;
}

static void advance(master_t *m, unsigned *i, bool write)
{
    while (*i < m->ntx && !is_kind(&m->tx[*i], write)) (*i)++;
}

/* Master edge: `so` are the slave outputs driven during the cycle that just ended. */
static void m_edge(master_t *m, const axi_out_t *so)
{
    axi_in_t *o = &m->o;
    uint64_t h = m->trace_hash;
    uint64_t sig = (uint64_t)so->awready | (uint64_t)so->wready << 1 | (uint64_t)so->arready << 2 |
                   (uint64_t)so->rvalid << 3 | (uint64_t)so->bvalid << 4 | (uint64_t)so->rid << 8 |
                   (uint64_t)so->bid << 16 | (uint64_t)so->rlast << 24;
    m->trace_hash = (h ^ sig ^ so->rdata[0]) * 1099511628211ull;

    if (so->rvalid && o->rready) {
        m->r_beats++;
        unsigned id = so->rid;
        if (!m->rn[id]) {
            m->r_errors++;
        } else {
            unsigned ti = m->rfifo[id][m->rh[id] % (MAXTX / 4)];
            const txn_t *t = &m->tx[ti];
            unsigned beat = m->rbeat[id]++;
            uint32_t a = t->addr + 8 * beat - BASE;
            uint64_t want = 0;
            for (int k = 7; k >= 0; k--) want = want << 8 | m->shadow[a + (unsigned)k];
            bool last = beat == t->len;
            if (so->rdata[0] != want || so->rlast != last) m->r_errors++;
            if (last) {
                /* overtaking: an older read (lower tx index) of another id still pending */
                for (unsigned j = 0; j < 256; j++)
                    if (j != id && m->rn[j] && m->rfifo[j][m->rh[j] % (MAXTX / 4)] < ti) {
                        m->overtakes++;
                        break;
                    }
                m->rh[id]++;
                m->rn[id]--;
                m->rbeat[id] = 0;
                m->reads_done++;
                m->inflight_rd--;
                if (m->nrd_order < MAXTX) m->order_rd[m->nrd_order++] = ti;
            }
        }
    }
    if (so->bvalid && o->bready) {
        unsigned id = so->bid;
        if (!m->bn[id]) m->b_errors++;
        else {
            m->bh[id]++;
            m->bn[id]--;
        }
        m->writes_done++;
    }
    if (o->arvalid && so->arready) {
        unsigned ti = m->next_ar++;
        unsigned id = m->tx[ti].id;
        m->rfifo[id][(m->rh[id] + m->rn[id]++) % (MAXTX / 4)] = ti;
        m->inflight_rd++;
        if (m->inflight_rd > m->max_inflight_rd) m->max_inflight_rd = m->inflight_rd;
        o->arvalid = false;
    }
    if (o->awvalid && so->awready) {
        unsigned id = m->tx[m->next_aw].id;
        m->bfifo[id][(m->bh[id] + m->bn[id]++) % (MAXTX / 4)] = m->next_aw;
        m->next_aw++;
        m->aw_done++;
        o->awvalid = false;
    }
    if (o->wvalid && so->wready) {
        o->wvalid = false;
        if (++m->w_beat > m->tx[m->w_tx].len) {
            m->w_beat = 0;
            m->w_tx++;
        }
    }
    /* new requests (valid stays up once raised: only set when not already presenting) */
    advance(m, &m->next_ar, false);
    if (!o->arvalid && m->next_ar < m->ntx) {
        const txn_t *t = &m->tx[m->next_ar];
        o->arvalid = true;
        o->arid = t->id;
        o->arlen = t->len;
        o->araddr = t->addr;
    }
    advance(m, &m->next_aw, true);
    if (!o->awvalid && m->next_aw < m->ntx) {
        const txn_t *t = &m->tx[m->next_aw];
        o->awvalid = true;
        o->awid = t->id;
        o->awlen = t->len;
        o->awaddr = t->addr;
    }
    advance(m, &m->w_tx, true);
    if (!o->wvalid && m->w_tx < m->ntx) {
        /* W for write k waits for AW k unless w_lead */
        unsigned aw_index_of_w = 0;
        for (unsigned i = 0; i < m->w_tx; i++) aw_index_of_w += m->tx[i].write;
        if (m->w_lead || aw_index_of_w < m->aw_done) {
            const txn_t *t = &m->tx[m->w_tx];
            o->wvalid = true;
            o->wdata[0] = t->data[m->w_beat];
            o->wstrb = t->strb[m->w_beat];
            o->wlast = m->w_beat == t->len;
        }
    }
    o->rready = rng_chance(&m->rng, m->rready_pct);
    o->bready = rng_chance(&m->rng, m->bready_pct);
}

/* Clock both until the master has nothing left and the slave is idle. */
static uint64_t run(unit_env_t *e, axi_slave_t *s, master_t *m, uint64_t max)
{
    axi_out_t so = {0};
    uint64_t start = e->cycle;
    unsigned nrd = 0, nwr = 0;
    for (unsigned i = 0; i < m->ntx; i++)
        if (m->tx[i].write) nwr++;
        else nrd++;
    while (e->cycle - start < max) {
        axi_out_t prev = so;
        m->bready_low += !m->o.bready;
        axi_slave_tick(s, &m->o, &so);
        m_edge(m, &prev);
        e->cycle++;
        if (m->reads_done == nrd && m->writes_done == nwr && axi_slave_idle(s)) break;
    }
    return e->cycle - start;
}

/* Random bursts in [BASE, BASE+SHADOW), not crossing 4 KiB; writes update `shadow`. */
static unsigned make_txns(txn_t *tx, unsigned n, bool writes, unsigned nids, rng_t *r, uint8_t *shadow)
{
    for (unsigned i = 0; i < n; i++) {
        txn_t *t = &tx[i];
        memset(t, 0, sizeof *t);
        t->write = writes;
        t->id = (uint8_t)(rng_below(r, nids) * 0x11); /* full 8-bit ids: 0x00, 0x11, ... */
        t->len = (uint8_t)rng_below(r, 16);
        uint32_t page = rng_below(r, SHADOW / 4096);
        uint32_t off = 8 * rng_below(r, 512 - (t->len + 1u) + 1);
        t->addr = BASE + page * 4096 + off;
        for (unsigned b = 0; b <= t->len; b++) {
            t->data[b] = rng_next(r);
            t->strb[b] = rng_chance(r, 50) ? 0xFF : (uint8_t)rng_next(r);
            if (writes)
                for (int k = 0; k < 8; k++)
                    if (t->strb[b] >> k & 1)
                        shadow[t->addr - BASE + 8 * b + (unsigned)k] = (uint8_t)(t->data[b] >> (8 * k));
        }
    }
    return n;
}

static axi_cfg_t stress_cfg(void)
{
    return (axi_cfg_t){.aw_stall_pct = 30,
                       .w_stall_pct = 30,
                       .ar_stall_pct = 30,
                       .r_gap_pct = 25,
                       .b_gap_pct = 25,
                       .rd_lat_min = 0,
                       .rd_lat_max = 20,
                       .wr_lat_min = 0,
                       .wr_lat_max = 12,
                       .reorder_ids = true,
                       .max_outstanding = 256};
}

/* lead 2: W before AW as lead 1, through a port with its own window of the memory (cfg.space: nv_full's CVIF). */
static void test_write_read(unit_t *u)
{
    for (int lead = 0; lead < 3; lead++) {
        unit_env_t e;
        unit_env_init(&e);
        mem_t *mem = mem_new();
        uint8_t *shadow = calloc(SHADOW, 1);
        axi_cfg_t cfg = stress_cfg();
        const uint64_t space = lead == 2 ? 1ull << 32 : 0;
        cfg.space = space;
        axi_slave_t *s = axi_slave_new(&e.env, "dbb", mem, &cfg, 3);
        static txn_t tx[MAXTX];
        rng_t r;
        rng_seed(&r, 77 + (uint64_t)lead);
        unsigned n = make_txns(tx, 150, true, 4, &r, shadow);
        master_t *m = malloc(sizeof *m);
        m_init(m, tx, n, 1);
        m->w_lead = lead > 0;
        m->bready_pct = 70;
        m->shadow = shadow;
        run(&e, s, m, 100000);
        CHECK(m->writes_done == n, "lead %d: %u of %u writes acknowledged", lead, m->writes_done, n);
        CHECK(m->b_errors == 0, "lead %d: %u B responses with unexpected ids", lead, m->b_errors);
        uint8_t got[SHADOW];
        mem_read(mem, space | BASE, got, SHADOW);
        CHECK(memcmp(got, shadow, SHADOW) == 0, "lead %d: memory differs from the strobe-applied shadow", lead);
        if (space) {
            uint8_t zero[SHADOW] = {0};
            mem_read(mem, BASE, got, SHADOW);
            CHECK(memcmp(got, zero, SHADOW) == 0, "space 2^32: a write landed outside the port's window");
        }
        axi_stats_t st = axi_slave_stats(s);
        uint64_t beats = 0, bytes = 0;
        for (unsigned i = 0; i < n; i++)
            for (unsigned b = 0; b <= tx[i].len; b++, beats++) bytes += (uint64_t)__builtin_popcount(tx[i].strb[b]);
        CHECK_EQ(st.aw_bursts, n);
        CHECK_EQ(st.b_resps, n);
        CHECK_EQ(st.w_beats, beats);
        CHECK_EQ(st.bytes_written, bytes);
        CHECK(st.b_not_ready == m->bready_low && m->bready_low > 0,
              "lead %d: %llu edges with bready low counted, %llu driven", lead, (unsigned long long)st.b_not_ready,
              (unsigned long long)m->bready_low);
        /* now read everything back, with random rready */
        n = make_txns(tx, 200, false, 4, &r, shadow);
        m_init(m, tx, n, 2);
        m->rready_pct = 60;
        m->shadow = shadow;
        run(&e, s, m, 100000);
        CHECK(m->reads_done == n, "lead %d: %u of %u reads completed", lead, m->reads_done, n);
        CHECK(m->r_errors == 0, "lead %d: %u R beats wrong (data, rlast or id)", lead, m->r_errors);
        st = axi_slave_stats(s);
        CHECK_EQ(st.ar_bursts, n);
        CHECK_EQ(st.bytes_read, st.r_beats * 8);
        CHECK(e.errors == 0, "lead %d: unexpected errors:\n%s", lead, e.err);
        free(m);
        free(shadow);
        axi_slave_free(s);
        mem_free(mem);
    }
}

/* Reads of 6 ids, long latency spread, stalls: per-id order must hold; with reorder_ids some bursts must
 * overtake older ones of other ids, without it none may. */
static void ordering_run(unit_t *u, bool reorder, unsigned *overtakes)
{
    unit_env_t e;
    unit_env_init(&e);
    mem_t *mem = mem_new();
    uint8_t *shadow = calloc(SHADOW, 1);
    rng_t r;
    rng_seed(&r, 5);
    for (unsigned i = 0; i < SHADOW; i++) shadow[i] = (uint8_t)rng_next(&r);
    mem_write(mem, BASE, shadow, SHADOW);
    axi_cfg_t cfg = stress_cfg();
    cfg.reorder_ids = reorder;
    cfg.rd_lat_max = 40;
    axi_slave_t *s = axi_slave_new(&e.env, "dbb", mem, &cfg, 11);
    static txn_t tx[MAXTX];
    unsigned n = make_txns(tx, 300, false, 6, &r, shadow);
    master_t *m = malloc(sizeof *m);
    m_init(m, tx, n, 4);
    m->rready_pct = 80;
    m->shadow = shadow;
    run(&e, s, m, 100000);
    CHECK(m->reads_done == n, "reorder %d: %u of %u reads completed", reorder, m->reads_done, n);
    CHECK(m->r_errors == 0, "reorder %d: %u R beats out of per-id order or wrong", reorder, m->r_errors);
    CHECK(e.errors == 0, "reorder %d: unexpected errors:\n%s", reorder, e.err);
    /* per-id completion order must be issue order */
    unsigned last[256];
    bool ok = true;
    for (unsigned i = 0; i < 256; i++) last[i] = 0;
    for (unsigned k = 0; k < m->nrd_order; k++) {
        unsigned ti = m->order_rd[k], id = tx[ti].id;
        if (last[id] && ti < last[id]) ok = false;
        last[id] = ti + 1;
    }
    CHECK(ok, "reorder %d: bursts of one id completed out of AR order", reorder);
    *overtakes = m->overtakes;
    free(m);
    free(shadow);
    axi_slave_free(s);
    mem_free(mem);
}

static void test_ordering(unit_t *u)
{
    unsigned with, without;
    ordering_run(u, true, &with);
    ordering_run(u, false, &without);
    CHECK(with > 10, "reorder_ids on: only %u overtakes across ids", with);
    CHECK(without == 0, "reorder_ids off: %u overtakes across ids", without);
}

static void test_limit_and_latency(unit_t *u)
{
    unit_env_t e;
    unit_env_init(&e);
    mem_t *mem = mem_new();
    uint8_t *shadow = calloc(SHADOW, 1);
    axi_cfg_t cfg = {.rd_lat_min = 30, .rd_lat_max = 30, .max_outstanding = 4};
    axi_slave_t *s = axi_slave_new(&e.env, "dbb", mem, &cfg, 1);
    static txn_t tx[MAXTX];
    rng_t r;
    rng_seed(&r, 9);
    unsigned n = make_txns(tx, 40, false, 3, &r, shadow);
    master_t *m = malloc(sizeof *m);
    m_init(m, tx, n, 4);
    m->shadow = shadow;
    run(&e, s, m, 100000);
    CHECK(m->reads_done == n, "%u of %u reads", m->reads_done, n);
    CHECK(m->max_inflight_rd == 4, "max in flight %u with max_outstanding 4", m->max_inflight_rd);
    axi_slave_free(s);

    /* R data is read when the beat is presented: a back-door write during the latency is visible */
    axi_cfg_t cfg2 = {.rd_lat_min = 10, .rd_lat_max = 10};
    s = axi_slave_new(&e.env, "dbb", mem, &cfg2, 1);
    mem_write64_strb(mem, 0x1000, 0x1111111111111111ull, 0xFF);
    axi_in_t in = {.arvalid = true, .arid = 7, .arlen = 0, .araddr = 0x1000, .rready = true};
    axi_out_t out;
    axi_slave_tick(s, &in, &out); /* arready becomes visible */
    e.cycle++;
    axi_slave_tick(s, &in, &out); /* AR handshake at this edge */
    in.arvalid = false;
    mem_write64_strb(mem, 0x1000, 0x2222222222222222ull, 0xFF);
    uint64_t seen = 0;
    unsigned cycles = 0;
    for (; cycles < 30 && !out.rvalid; cycles++) {
        e.cycle++;
        axi_slave_tick(s, &in, &out);
    }
    CHECK(out.rvalid && out.rid == 7 && out.rlast, "no R beat for id 7 (rvalid %d)", out.rvalid);
    seen = out.rdata[0];
    CHECK_EQ(seen, 0x2222222222222222ull);
    CHECK(cycles == 10, "first R beat after %u ticks, want rd_lat 10", cycles);
    CHECK(e.errors == 0, "unexpected errors:\n%s", e.err);
    axi_slave_free(s);
    free(m);
    free(shadow);
    mem_free(mem);
}

static uint64_t trace_of(uint64_t seed)
{
    unit_env_t e;
    unit_env_init(&e);
    mem_t *mem = mem_new();
    uint8_t *shadow = calloc(SHADOW, 1);
    axi_cfg_t cfg = stress_cfg();
    axi_slave_t *s = axi_slave_new(&e.env, "dbb", mem, &cfg, seed);
    static txn_t tx[MAXTX];
    rng_t r;
    rng_seed(&r, 1);
    unsigned n = make_txns(tx, 60, true, 3, &r, shadow);
    n += make_txns(tx + n, 60, false, 3, &r, shadow);
    master_t *m = malloc(sizeof *m);
    m_init(m, tx, n, 1);
    m->shadow = shadow;
    run(&e, s, m, 100000);
    uint64_t h = m->trace_hash ^ (e.errors ? 1 : 0);
    free(m);
    free(shadow);
    axi_slave_free(s);
    mem_free(mem);
    return h;
}

static void test_seeded(unit_t *u)
{
    uint64_t a = trace_of(21), b = trace_of(21), c = trace_of(22);
    CHECK_EQ(a, b);
    CHECK(a != c, "seeds 21 and 22 gave identical ready/valid traces");
}

static void test_logging(unit_t *u)
{
    unit_env_t e;
    unit_env_init(&e);
    e.env.log_enabled = true;
    mem_t *mem = mem_new();
    uint8_t *shadow = calloc(SHADOW, 1);
    axi_cfg_t cfg = {0};
    axi_slave_t *s = axi_slave_new(&e.env, "dbb", mem, &cfg, 1);
    static txn_t tx[4];
    rng_t r;
    rng_seed(&r, 1);
    make_txns(tx, 2, true, 1, &r, shadow);
    make_txns(tx + 2, 2, false, 1, &r, shadow);
    master_t *m = malloc(sizeof *m);
    m_init(m, tx, 4, 1);
    m->shadow = shadow;
    run(&e, s, m, 1000);
    axi_stats_t st = axi_slave_stats(s);
    uint64_t want = st.aw_bursts + st.w_beats + st.b_resps + st.ar_bursts + st.r_beats;
    CHECK(e.logs == want, "%u log lines, want one per handshake (%" PRIu64 ")", e.logs, want);
    free(m);
    free(shadow);
    axi_slave_free(s);
    mem_free(mem);
}

/* ---- protocol checks, driven by hand ---- */

/* Run a sequence of master outputs (one per edge) against a slave and return the error text. */
static void drive(unit_env_t *e, const axi_cfg_t *cfg, const axi_in_t *seq, unsigned n)
{
    mem_t *mem = mem_new();
    axi_slave_t *s = axi_slave_new(&e->env, "dbb", mem, cfg, 1);
    axi_out_t out;
    for (unsigned i = 0; i < n; i++, e->cycle++) axi_slave_tick(s, &seq[i], &out);
    axi_slave_free(s);
    mem_free(mem);
}

static void expect(unit_t *u, unit_env_t *e, const char *what, const char *w1, const char *w2)
{
    CHECK(unit_env_has(e, w1, w2), "%s: no error naming '%s' / '%s'; got:\n%s", what, w1, w2 ? w2 : "", e->err);
    CHECK(unit_env_has(e, "cycle ", NULL), "%s: no cycle in message", what);
}

static void test_checks(unit_t *u)
{
    unit_env_t e;
    axi_cfg_t stall = {.aw_stall_pct = 100, .w_stall_pct = 100, .ar_stall_pct = 100};
    axi_cfg_t open = {0};

    axi_in_t aw = {.awvalid = true, .awid = 0x42, .awaddr = 0x80001000};
    axi_in_t none = {0};
    unit_env_init(&e);
    drive(&e, &stall, (axi_in_t[]){aw, aw, none}, 3);
    expect(u, &e, "AW withdraw", "AW id 0x42 addr 0x80001000", "awvalid withdrawn");

    axi_in_t aw2 = aw;
    aw2.awaddr += 8;
    unit_env_init(&e);
    drive(&e, &stall, (axi_in_t[]){aw, aw2}, 2);
    expect(u, &e, "AW change", "AW id 0x42 addr 0x80001000", "payload changed");

    axi_in_t ar = {.arvalid = true, .arid = 0x93, .araddr = 0x80002000, .arlen = 3};
    unit_env_init(&e);
    drive(&e, &stall, (axi_in_t[]){ar, none}, 2);
    expect(u, &e, "AR withdraw", "AR id 0x93 addr 0x80002000", "arvalid withdrawn");
    axi_in_t ar2 = ar;
    ar2.arlen = 2;
    unit_env_init(&e);
    drive(&e, &stall, (axi_in_t[]){ar, ar2}, 2);
    expect(u, &e, "AR change", "AR id 0x93", "payload changed");

    axi_in_t w = {.wvalid = true, .wdata = {1}, .wstrb = 0xFF, .wlast = true};
    unit_env_init(&e);
    drive(&e, &stall, (axi_in_t[]){w, none}, 2);
    expect(u, &e, "W withdraw", "W id", "wvalid withdrawn");
    axi_in_t w2 = w;
    w2.wstrb = 0x0F;
    unit_env_init(&e);
    drive(&e, &stall, (axi_in_t[]){w, w2}, 2);
    expect(u, &e, "W change", "W id", "payload changed");

    /* address checks on accepted requests (first tick raises ready, second handshakes) */
    axi_in_t cross = {.arvalid = true, .arid = 1, .araddr = 0x80000FF8, .arlen = 1, .rready = true};
    unit_env_init(&e);
    drive(&e, &open, (axi_in_t[]){cross, cross}, 2);
    expect(u, &e, "4K crossing", "AR id 0x01 addr 0x80000ff8", "crosses a 4 KiB boundary");
    axi_in_t unal = {.awvalid = true, .awid = 2, .awaddr = 0x80000004};
    unit_env_init(&e);
    drive(&e, &open, (axi_in_t[]){unal, unal}, 2);
    expect(u, &e, "unaligned", "AW id 0x02 addr 0x80000004", "not 8-byte aligned");
    axi_in_t longb = {.arvalid = true, .arid = 3, .araddr = 0x80000000, .arlen = 16};
    unit_env_init(&e);
    drive(&e, &open, (axi_in_t[]){longb, longb}, 2);
    expect(u, &e, "len > 15", "AR id 0x03", "exceeds 15");

    /* wlast on the first of two beats */
    axi_in_t seq[4] = {{0}};
    seq[1] = (axi_in_t){.awvalid = true, .awid = 5, .awaddr = 0x80000100, .awlen = 1};
    seq[2] = (axi_in_t){.wvalid = true, .wdata = {0xAA}, .wstrb = 0xFF, .wlast = true};
    seq[3] = (axi_in_t){.wvalid = true, .wdata = {0xBB}, .wstrb = 0xFF, .wlast = true};
    unit_env_init(&e);
    drive(&e, &open, seq, 4);
    expect(u, &e, "early wlast", "W id 0x05 addr 0x80000100", "wlast=1 on beat 1 of a 2-beat burst");
    CHECK(unit_env_has(&e, "W id 0x05 addr 0x80000108", NULL) == false, "last beat wrongly flagged");
    /* missing wlast on the final beat */
    seq[2].wlast = false;
    seq[3].wlast = false;
    unit_env_init(&e);
    drive(&e, &open, seq, 4);
    expect(u, &e, "missing wlast", "W id 0x05 addr 0x80000108", "wlast=0 on beat 2 of a 2-beat burst");

    /* W beats without any AW beyond the allowance */
    static axi_in_t many[70];
    for (unsigned i = 0; i < 70; i++) many[i] = (axi_in_t){.wvalid = i > 0, .wdata = {i}, .wstrb = 0xFF, .wlast = true};
    unit_env_init(&e);
    drive(&e, &open, many, 70);
    expect(u, &e, "W without AW", "W beats without an AW", "allowance");
    CHECK(e.errors == 5, "W overflow: %u errors for beats 65..69:\n%s", e.errors, e.err);
}

/* ---- a 512-bit bus ---- */

static unsigned wide_words_seen;
static void count_word(void *user, uint8_t id, uint32_t addr, uint64_t data, uint8_t strb, uint64_t cycle)
{
    (void)user, (void)id, (void)addr, (void)data, (void)strb, (void)cycle;
    wide_words_seen++;
}

static void test_wide(unit_t *u)
{
    axi_cfg_t odd = {.beat_bytes = 24};
    CHECK(axi_slave_new(NULL, "x", NULL, &odd, 1) == NULL, "a 24-byte beat was accepted");
    unit_env_t e;
    unit_env_init(&e);
    mem_t *mem = mem_new();
    axi_cfg_t cfg = {.beat_bytes = 64};
    axi_slave_t *s = axi_slave_new(&e.env, "dbb", mem, &cfg, 1);
    axi_slave_on_write(s, count_word, NULL);
    wide_words_seen = 0;
    /* a 2-beat write starting at byte 32 of a beat: beat 0 carries lanes 32..63 (the strobes say so), beat 1 all */
    axi_in_t seq[8] = {{0}};
    seq[1] = (axi_in_t){.awvalid = true, .awid = 9, .awaddr = BASE + 0x1020, .awlen = 1};
    seq[2] = (axi_in_t){.wvalid = true, .wstrb = 0xFFFFFFFF00000000ull};
    seq[3] = (axi_in_t){.wvalid = true, .wstrb = ~0ull, .wlast = true};
    for (unsigned k = 0; k < AXI_WORDS_MAX; k++) {
        seq[2].wdata[k] = 0x1111111111111111ull * (k + 1);
        seq[3].wdata[k] = 0x0101010101010101ull * (0x80 + k);
    }
    seq[4] = seq[5] = seq[6] = seq[7] = (axi_in_t){.bready = true};
    axi_out_t out;
    unsigned bresp = 0;
    for (unsigned i = 0; i < 8; i++, e.cycle++) {
        axi_slave_tick(s, &seq[i], &out);
        bresp += out.bvalid && out.bid == 9;
    }
    CHECK(bresp >= 1, "no B response for the wide write");
    CHECK(mem_read8(mem, BASE + 0x1000) == 0 && mem_read8(mem, BASE + 0x101F) == 0, "lanes without strobes written");
    CHECK_EQ(mem_read64(mem, BASE + 0x1020), 0x5555555555555555ull); /* beat 0 word 4 */
    CHECK_EQ(mem_read64(mem, BASE + 0x1038), 0x8888888888888888ull); /* beat 0 word 7 */
    CHECK_EQ(mem_read64(mem, BASE + 0x1040), 0x8080808080808080ull); /* beat 1 word 0 */
    CHECK_EQ(mem_read64(mem, BASE + 0x1078), 0x8787878787878787ull); /* beat 1 word 7 */
    axi_stats_t st = axi_slave_stats(s);
    CHECK_EQ(st.bytes_written, 96);
    CHECK(wide_words_seen == 12, "the write observer saw %u words, want the 12 with strobes", wide_words_seen);
    /* read it back from the beat below: whole beats, lanes by address */
    axi_in_t ar = {.arvalid = true, .arid = 4, .araddr = BASE + 0x1000, .arlen = 1, .rready = true};
    axi_in_t rr = {.rready = true};
    uint64_t got[2][AXI_WORDS_MAX] = {{0}};
    unsigned beats = 0, lasts = 0;
    for (unsigned i = 0; i < 10; i++, e.cycle++) {
        axi_slave_tick(s, i < 2 ? &ar : &rr, &out);
        if (out.rvalid && beats < 2) {
            memcpy(got[beats++], out.rdata, sizeof got[0]);
            lasts += out.rlast;
        }
    }
    CHECK(beats == 2 && lasts == 1, "%u R beats (%u with rlast), want 2 (1)", beats, lasts);
    CHECK(got[0][0] == 0 && got[0][4] == 0x5555555555555555ull && got[1][7] == 0x8787878787878787ull,
          "R data of the wide read: %016" PRIx64 " %016" PRIx64 " %016" PRIx64, got[0][0], got[0][4], got[1][7]);
    CHECK(e.errors == 0, "errors on a well-formed wide burst:\n%s", e.err);
    axi_slave_free(s);
    mem_free(mem);
    /* 4 KiB is reached in wide beats: 2 beats from 0xf80 fit, from 0xfc0 they cross */
    axi_in_t fits = {.arvalid = true, .arid = 1, .araddr = BASE + 0xF80, .arlen = 1, .rready = true};
    axi_in_t cross = fits;
    cross.araddr = BASE + 0xFC0;
    unit_env_init(&e);
    drive(&e, &cfg, (axi_in_t[]){fits, fits}, 2);
    CHECK(e.errors == 0, "2 wide beats from 0xf80 flagged:\n%s", e.err);
    unit_env_init(&e);
    drive(&e, &cfg, (axi_in_t[]){cross, cross}, 2);
    expect(u, &e, "wide 4K crossing", "AR id 0x01 addr 0x80000fc0", "crosses a 4 KiB boundary");
}

/* ---- a port placed in a shared memory (space: nv_full's CVIF at NVDLA_CV_SPACE) ---- */

static void test_mem_base(unit_t *u)
{
    unit_env_t e;
    unit_env_init(&e);
    mem_t *mem = mem_new();
    const uint64_t window = 1ull << 32;
    axi_cfg_t cfg = {.beat_bytes = 64, .space = window};
    axi_slave_t *s = axi_slave_new(&e.env, "cvif", mem, &cfg, 1);
    mem_write8(mem, window + 0x51000040, 0xce); /* what a back-door load put in the window */
    axi_in_t seq[10] = {{0}};
    seq[1] = (axi_in_t){.awvalid = true, .awid = 2, .awaddr = 0x51000000, .awlen = 0};
    seq[2] = (axi_in_t){.wvalid = true, .wstrb = 0xFF, .wdata = {0x1122334455667788ull}, .wlast = true};
    seq[3] = (axi_in_t){.arvalid = true, .arid = 3, .araddr = 0x51000040, .arlen = 0, .rready = true, .bready = true};
    for (unsigned i = 4; i < 10; i++) seq[i] = (axi_in_t){.rready = true, .bready = true};
    axi_out_t out;
    uint64_t r0 = 0;
    bool rv = false;
    for (unsigned i = 0; i < 10; i++, e.cycle++) {
        axi_slave_tick(s, &seq[i], &out);
        if (out.rvalid && !rv) rv = true, r0 = out.rdata[0];
    }
    CHECK_EQ(mem_read64(mem, window + 0x51000000), 0x1122334455667788ull);
    CHECK(mem_read64(mem, 0x51000000) == 0, "the write landed below the port's window");
    CHECK(rv && (r0 & 0xff) == 0xce, "the read did not come from the window (rvalid %d, data %016" PRIx64 ")", rv, r0);
    CHECK(e.errors == 0, "errors:\n%s", e.err);
    axi_slave_free(s);
    mem_free(mem);
}

int main(void)
{
    unit_t u = {.name = "axi_slave"};
    UNIT_RUN(&u, test_write_read);
    UNIT_RUN(&u, test_ordering);
    UNIT_RUN(&u, test_limit_and_latency);
    UNIT_RUN(&u, test_seeded);
    UNIT_RUN(&u, test_logging);
    UNIT_RUN(&u, test_checks);
    UNIT_RUN(&u, test_wide);
    UNIT_RUN(&u, test_mem_base);
    return unit_done(&u);
}
