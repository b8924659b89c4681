/* Unit tests of the TCDM slave against a small C model of NE16's lock-stepped memory master: byte-exact
 * stores with byte enables (including the ne16.md §1.3 example), r_valid exactly one cycle after the
 * grant, full throughput, seeded stall patterns, the M6 unmapped pattern, and every protocol check. */
#include "tcdm_slave.h"
#include "rng.h"
#include "unit.h"

#include <stdlib.h>

enum { NP = 9, MAXT = 400, SPAN = 4096 };
#define BASE 0x10000000u

typedef struct tx {
    bool read;
    uint32_t a;
    uint8_t be[NP];
    uint32_t data[NP];
} tx_t;

typedef struct engine {
    const tx_t *tx;
    unsigned ntx, next;
    tcdm_in_t o;
    bool presenting;
    int expect_resp; /* tx index whose response must arrive at this edge, -1 none */
    unsigned grants, timing_errors, data_errors;
    const uint8_t *shadow; /* expected memory (for reads) */
} engine_t;

static void present(engine_t *e)
{
    const tx_t *t = &e->tx[e->next];
    for (unsigned i = 0; i < NP; i++) {
        tcdm_port_in_t *p = &e->o.port[i];
        p->req = true;
        p->add = t->a + 4 * i;
        p->wen = t->read;
        p->be = t->read ? 0xF : t->be[i];
        p->data = t->data[i];
    }
    e->presenting = true;
}

/* Engine edge: `so` = slave outputs driven during the cycle that just ended. */
static void engine_edge(engine_t *e, const tcdm_out_t *so)
{
    bool any_rv = false;
    for (unsigned i = 0; i < NP; i++) any_rv |= so->port[i].r_valid;
    if (e->expect_resp >= 0) {
        const tx_t *t = &e->tx[e->expect_resp];
        if (t->read) {
            for (unsigned i = 0; i < NP; i++) {
                if (!so->port[i].r_valid) {
                    e->timing_errors++;
                    continue;
                }
                uint32_t off = t->a + 4 * i - BASE, want = 0;
                for (int k = 3; k >= 0; k--) want = want << 8 | e->shadow[off + (unsigned)k];
                if (so->port[i].r_data != want) e->data_errors++;
            }
        }
        e->expect_resp = -1;
    } else if (any_rv) {
        e->timing_errors++; /* r_valid with nothing granted one cycle before */
    }
    bool gnt_all = true, gnt_any = false;
    for (unsigned i = 0; i < NP; i++) {
        gnt_all &= so->port[i].gnt;
        gnt_any |= so->port[i].gnt;
    }
    if (gnt_any != gnt_all) e->timing_errors++; /* M2: partial grant */
    if (e->presenting && gnt_all) {
        e->grants++;
        e->expect_resp = (int)e->next;
        e->next++;
        e->presenting = false;
        memset(&e->o, 0, sizeof e->o);
    }
    if (!e->presenting && e->next < e->ntx) present(e);
}

static uint64_t run(unit_env_t *ue, tcdm_slave_t *s, engine_t *e, uint64_t max, uint64_t *gnt_bits)
{
    tcdm_out_t so;
    memset(&so, 0, sizeof so);
    uint64_t start = ue->cycle;
    if (gnt_bits) *gnt_bits = 0;
    for (; ue->cycle - start < max; ue->cycle++) {
        tcdm_out_t prev = so;
        tcdm_slave_tick(s, &e->o, &so);
        engine_edge(e, &prev);
        if (gnt_bits && ue->cycle - start < 64 && so.port[0].gnt) *gnt_bits |= 1ull << (ue->cycle - start);
        if (e->next == e->ntx && !e->presenting && e->expect_resp < 0 && tcdm_slave_idle(s)) break;
    }
    return ue->cycle - start;
}

static void engine_init(engine_t *e, const tx_t *tx, unsigned n, const uint8_t *shadow)
{
    memset(e, 0, sizeof *e);
    e->tx = tx;
    e->ntx = n;
    e->expect_resp = -1;
    e->shadow = shadow;
}

static void apply(uint8_t *shadow, const tx_t *t)
{
    for (unsigned i = 0; i < NP; i++)
        for (unsigned k = 0; k < 4; k++)
            if (t->be[i] >> k & 1) shadow[t->a - BASE + 4 * i + k] = (uint8_t)(t->data[i] >> (8 * k));
}

static void test_transfers(unit_t *u)
{
    unit_env_t ue;
    unit_env_init(&ue);
    mem_t *mem = mem_new();
    tcdm_cfg_t cfg = {.nports = NP, .gnt_stall_pct = 35};
    tcdm_slave_t *s = tcdm_slave_new(&ue.env, "tcdm", mem, &cfg, 4);
    static tx_t tx[MAXT];
    uint8_t *shadow = calloc(SPAN, 1);
    rng_t r;
    rng_seed(&r, 12);
    /* the spec's example: A=0x3000 offset, port 0 be=1110, ports 1-7 1111, port 8 0001 */
    tx[0] = (tx_t){.a = BASE + 0x100};
    for (unsigned i = 0; i < NP; i++) {
        tx[0].be[i] = i == 0 ? 0xE : i == 8 ? 0x1 : 0xF;
        tx[0].data[i] = 0x11111111u * (i + 1);
    }
    apply(shadow, &tx[0]);
    unsigned n = 1;
    for (; n < 200; n++) {
        tx_t *t = &tx[n];
        t->read = false;
        t->a = BASE + 4 * rng_below(&r, SPAN / 4 - NP);
        bool full = rng_chance(&r, 30); /* whole-window stores take a fast path */
        for (unsigned i = 0; i < NP; i++) {
            t->be[i] = full ? 0xF : (uint8_t)rng_below(&r, 16); /* includes be=0000 ports */
            t->data[i] = (uint32_t)rng_next(&r);
        }
        apply(shadow, t);
    }
    engine_t e;
    engine_init(&e, tx, n, shadow);
    run(&ue, s, &e, 10000, NULL);
    CHECK_EQ(e.grants, n);
    CHECK_EQ(e.timing_errors, 0);
    uint8_t got[SPAN];
    mem_read(mem, BASE, got, SPAN);
    CHECK(memcmp(got, shadow, SPAN) == 0, "memory differs from the byte-enable shadow");
    CHECK_EQ(mem_read8(mem, BASE + 0x100), shadow[0x100]); /* byte lane 0 of port 0 untouched (be=1110) */
    /* read everything back */
    for (unsigned k = 0; k < 150; k++) tx[k] = (tx_t){.read = true, .a = BASE + 4 * rng_below(&r, SPAN / 4 - NP)};
    engine_init(&e, tx, 150, shadow);
    run(&ue, s, &e, 10000, NULL);
    CHECK_EQ(e.grants, 150);
    CHECK_EQ(e.timing_errors, 0);
    CHECK_EQ(e.data_errors, 0);
    tcdm_stats_t st = tcdm_slave_stats(s);
    CHECK_EQ(st.writes, n);
    CHECK_EQ(st.reads, 150);
    CHECK(st.stall_cycles > 50, "only %" PRIu64 " stall cycles at 35%%", st.stall_cycles);
    CHECK(ue.errors == 0, "unexpected errors:\n%s", ue.err);
    tcdm_slave_free(s);

    /* no stalls: one transaction per cycle, r_valid after writes when configured */
    cfg.gnt_stall_pct = 0;
    cfg.r_valid_on_write = false;
    s = tcdm_slave_new(&ue.env, "tcdm", mem, &cfg, 4);
    engine_init(&e, tx, 150, shadow);
    uint64_t cycles = run(&ue, s, &e, 10000, NULL);
    CHECK(cycles <= 150 + 3, "150 unstalled reads took %" PRIu64 " cycles", cycles);
    CHECK_EQ(e.data_errors, 0);
    tcdm_slave_free(s);
    free(shadow);
    mem_free(mem);
}

static void test_unmapped_pattern(unit_t *u)
{
    unit_env_t ue;
    unit_env_init(&ue);
    mem_t *mem = mem_new();
    tcdm_cfg_t cfg = {.nports = NP, .unmapped_pattern = true};
    tcdm_slave_t *s = tcdm_slave_new(&ue.env, "tcdm", mem, &cfg, 77);
    uint8_t *shadow = calloc(SPAN, 1);
    for (unsigned i = 0; i < SPAN; i++) shadow[i] = tcdm_unmapped_byte(77, BASE + i);
    /* a back-door loaded and mapped region */
    for (unsigned i = 0x200; i < 0x220; i++) shadow[i] = (uint8_t)i;
    mem_write(mem, BASE + 0x200, shadow + 0x200, 0x20);
    tcdm_slave_map(s, BASE + 0x200, 0x20);
    /* bytes stored through the port read back; their neighbours stay pattern */
    static tx_t tx[4];
    tx[0] = (tx_t){.a = BASE + 0x400};
    tx[0].be[0] = 0x6;
    tx[0].data[0] = 0xAABBCCDDu;
    apply(shadow, &tx[0]);
    tx[1] = (tx_t){.read = true, .a = BASE + 0x1F0}; /* straddles unmapped and mapped words */
    tx[2] = (tx_t){.read = true, .a = BASE + 0x400};
    tx[3] = (tx_t){.read = true, .a = BASE + 0x800}; /* all unmapped, memory is 0 */
    engine_t e;
    engine_init(&e, tx, 4, shadow);
    run(&ue, s, &e, 100, NULL);
    CHECK_EQ(e.grants, 4);
    CHECK_EQ(e.data_errors, 0);
    CHECK(tcdm_unmapped_byte(77, BASE) != tcdm_unmapped_byte(78, BASE) ||
              tcdm_unmapped_byte(77, BASE + 1) != tcdm_unmapped_byte(78, BASE + 1),
          "pattern ignores the seed");
    CHECK(ue.errors == 0, "unexpected errors:\n%s", ue.err);
    tcdm_slave_free(s);
    free(shadow);
    mem_free(mem);
}

static uint64_t gnt_pattern(uint64_t seed)
{
    unit_env_t ue;
    unit_env_init(&ue);
    mem_t *mem = mem_new();
    tcdm_cfg_t cfg = {.nports = NP, .gnt_stall_pct = 50};
    tcdm_slave_t *s = tcdm_slave_new(&ue.env, "tcdm", mem, &cfg, seed);
    static tx_t tx[64];
    for (unsigned i = 0; i < 64; i++) tx[i] = (tx_t){.read = true, .a = BASE + 64 * i};
    uint8_t *shadow = calloc(SPAN, 1);
    engine_t e;
    engine_init(&e, tx, 64, shadow);
    uint64_t bits;
    run(&ue, s, &e, 64, &bits);
    tcdm_slave_free(s);
    free(shadow);
    mem_free(mem);
    return bits;
}

static void test_seeded(unit_t *u)
{
    uint64_t a = gnt_pattern(1), b = gnt_pattern(1), c = gnt_pattern(2);
    CHECK_EQ(a, b);
    CHECK(a != c, "seeds 1 and 2 gave the same grant pattern");
    int ones = __builtin_popcountll(a);
    CHECK(ones > 18 && ones < 46, "gnt_stall_pct 50: %d grants in 64 cycles", ones);
}

/* ---- protocol checks, driven by hand ---- */

static tcdm_in_t req_at(uint32_t a, bool read)
{
    tcdm_in_t in;
    memset(&in, 0, sizeof in);
    for (unsigned i = 0; i < NP; i++)
        in.port[i] = (tcdm_port_in_t){.req = true, .add = a + 4 * i, .wen = read, .be = 0xF, .data = i};
    return in;
}

static void drive(unit_env_t *ue, unsigned stall, const tcdm_in_t *seq, unsigned n)
{
    mem_t *mem = mem_new();
    tcdm_cfg_t cfg = {.nports = NP, .gnt_stall_pct = stall};
    tcdm_slave_t *s = tcdm_slave_new(&ue->env, "tcdm", mem, &cfg, 1);
    tcdm_out_t out;
    for (unsigned i = 0; i < n; i++, ue->cycle++) { tcdm_slave_tick(s, &seq[i], &out); }
    tcdm_slave_free(s);
    mem_free(mem);
}

static void expect(unit_t *u, unit_env_t *ue, const char *what, const char *w1, const char *w2)
{
    CHECK(unit_env_has(ue, w1, w2), "%s: no error naming '%s' / '%s'; got:\n%s", what, w1, w2 ? w2 : "", ue->err);
    CHECK(unit_env_has(ue, "cycle ", NULL), "%s: no cycle in message", what);
}

static void test_checks(unit_t *u)
{
    unit_env_t ue;
    tcdm_in_t none;
    memset(&none, 0, sizeof none);
    tcdm_in_t good = req_at(BASE, true);

    tcdm_in_t partial = good;
    partial.port[5].req = false;
    unit_env_init(&ue);
    drive(&ue, 0, &partial, 1);
    expect(u, &ue, "partial req", "M1: req not lock-stepped", "0x1df");

    tcdm_in_t wen = req_at(BASE, false);
    wen.port[3].wen = true;
    unit_env_init(&ue);
    drive(&ue, 0, &wen, 1);
    expect(u, &ue, "wen mismatch", "M1: wen not lock-stepped", "port 3");

    tcdm_in_t add = good;
    add.port[4].add += 4;
    unit_env_init(&ue);
    drive(&ue, 0, &add, 1);
    expect(u, &ue, "add mismatch", "M1: add[4]", "A+4*4");

    tcdm_in_t unal = req_at(BASE + 2, true);
    unit_env_init(&ue);
    drive(&ue, 0, &unal, 1);
    expect(u, &ue, "unaligned", "M1: A=0x10000002", "not word-aligned");

    /* HWPE-Mem (pulp-platform/hci protocols.rst, rules 1-3) has no rule on read byte enables, none that holds
     * an ungranted request stable, and none against withdrawing it: all of these are legal. */
    tcdm_in_t be = good;
    be.port[8].be = 0x7;
    unit_env_init(&ue);
    drive(&ue, 0, &be, 1);
    CHECK(ue.errors == 0, "a read with be=0x7 raised errors:\n%s", ue.err);
    tcdm_in_t moved = req_at(BASE + 0x40, true);
    tcdm_in_t wr = req_at(BASE, false), wr2 = wr;
    wr2.port[2].data ^= 1;
    unit_env_init(&ue);
    drive(&ue, 100, (tcdm_in_t[]){good, moved, wr, wr2, good, good, none}, 7);
    CHECK(ue.errors == 0, "changed or withdrawn ungranted requests raised errors:\n%s", ue.err);
    /* a granted request may be followed by anything */
    unit_env_init(&ue);
    drive(&ue, 0, (tcdm_in_t[]){none, good, moved, none}, 4);
    CHECK(ue.errors == 0, "granted requests raised errors:\n%s", ue.err);
}

int main(void)
{
    unit_t u = {.name = "tcdm_slave"};
    UNIT_RUN(&u, test_transfers);
    UNIT_RUN(&u, test_unmapped_pattern);
    UNIT_RUN(&u, test_seeded);
    UNIT_RUN(&u, test_checks);
    return unit_done(&u);
}
