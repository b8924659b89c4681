/* Unit tests of the APB4 master against a small C APB slave with a register file, PSTRB, per-address
 * wait states (MAX78000 rdy_sel style) and PSLVERR decode (NE16 style): SETUP/ACCESS sequencing, payload
 * stability, read data, error reporting, timeout, the observer and seeded idle cycles. */
#include "apb_master.h"
#include "unit.h"

typedef struct slave {
    uint32_t regs[64];
    unsigned waits_lo, waits_hi; /* wait states for addr < 0x80 / 0x80..0xFF */
    bool hang;                   /* never raise PREADY */
    apb_in_t o;
    unsigned count;  /* ACCESS cycles seen for the current transfer */
    apb_out_t setup; /* payload seen in SETUP */
    bool in_transfer;
    unsigned violations, transfers;
} slave_t;

static unsigned waits_of(const slave_t *s, uint32_t a) { return a < 0x80 ? s->waits_lo : s->waits_hi; }

static void slave_edge(slave_t *s, const apb_out_t *mo)
{
    if (mo->penable && !mo->psel) s->violations++;
    if (mo->psel && !mo->penable) {                    /* SETUP */
        if (s->in_transfer) s->violations++;           /* SETUP while a transfer is open */
        if (!mo->pwrite && mo->pstrb) s->violations++; /* APB4: PSTRB low on reads */
        s->setup = *mo;
        s->in_transfer = true;
        s->count = 0;
    } else if (mo->psel && mo->penable) { /* ACCESS */
        if (!s->in_transfer || mo->paddr != s->setup.paddr || mo->pwrite != s->setup.pwrite ||
            mo->pwdata != s->setup.pwdata || mo->pstrb != s->setup.pstrb)
            s->violations++;
        if (s->o.pready) { /* transfer completes at this edge */
            s->transfers++;
            s->in_transfer = false;
            uint32_t a = mo->paddr;
            bool err = (a & 0xFF) >= 0x80 && (a & 0xFF) < 0xC0;
            if (mo->pwrite && !err) {
                uint32_t *r = &s->regs[(a >> 2) & 63];
                for (int k = 0; k < 4; k++)
                    if (mo->pstrb >> k & 1) *r = (*r & ~(0xFFu << (8 * k))) | (mo->pwdata & (0xFFu << (8 * k)));
            }
        } else {
            s->count++;
        }
    } else if (s->in_transfer) {
        s->violations++; /* PSEL dropped mid-transfer */
        s->in_transfer = false;
    }
    /* outputs for the next cycle */
    s->o = (apb_in_t){0};
    if (s->in_transfer && !s->hang && s->count == waits_of(s, s->setup.paddr & 0xFF)) {
        uint32_t a = s->setup.paddr & 0xFF;
        s->o.pready = true;
        s->o.pslverr = a >= 0x80 && a < 0xC0;
        s->o.prdata = s->o.pslverr || s->setup.pwrite ? 0 : s->regs[(a >> 2) & 63];
    }
}

typedef struct obs {
    unsigned n;
    uint32_t rdata[64];
    bool slverr[64];
    uint64_t tag[64];
} obs_t;

static void observe(void *user, const apb_req_t *req, uint32_t rdata, bool slverr, uint64_t cycle)
{
    (void)cycle;
    obs_t *o = user;
    if (o->n < 64) {
        o->rdata[o->n] = rdata;
        o->slverr[o->n] = slverr;
        o->tag[o->n++] = req->tag;
    }
}

static uint64_t run(unit_env_t *e, apb_master_t *m, slave_t *s, uint64_t max, uint64_t *psel_bits)
{
    apb_out_t out = {0};
    uint64_t start = e->cycle;
    if (psel_bits) *psel_bits = 0;
    for (; e->cycle - start < max; e->cycle++) {
        apb_out_t prev = out;
        apb_in_t in = s->o;
        apb_master_tick(m, &in, &out);
        slave_edge(s, &prev);
        if (psel_bits && e->cycle - start < 64 && out.psel && !out.penable) *psel_bits |= 1ull << (e->cycle - start);
        if (apb_master_idle(m) && !s->in_transfer && e->cycle - start > 2) break;
    }
    return e->cycle - start;
}

static void push(apb_master_t *m, uint32_t addr, uint32_t data, uint8_t strb, bool write, bool xerr, uint64_t tag)
{
    apb_req_t r = {.addr = addr, .data = data, .strb = strb, .write = write, .expect_error = xerr, .tag = tag};
    apb_master_push(m, &r);
}

static void test_transfers(unit_t *u)
{
    unit_env_t e;
    unit_env_init(&e);
    e.env.log_enabled = true;
    apb_cfg_t cfg = {.idle_pct = 30};
    apb_master_t *m = apb_master_new(&e.env, "apb", &cfg, 3);
    obs_t ob = {0};
    apb_master_on_accept(m, observe, &ob);
    slave_t s = {.waits_lo = 0, .waits_hi = 3};
    push(m, 0x20, 0x11223344, 0xF, true, false, 1);
    push(m, 0x20, 0xAABBCCDD, 0x5, true, false, 2); /* bytes 0 and 2 */
    push(m, 0x20, 0, 0xF, false, false, 3);         /* PSTRB must go out as 0 */
    push(m, 0xC4, 0xCAFEF00D, 0xF, true, false, 4); /* 3 wait states */
    push(m, 0xC4, 0, 0, false, false, 5);
    push(m, 0x21, 0x0000EE00, 0x2, true, false, 6); /* D02 sub-word write: PADDR[1:0] kept */
    push(m, 0x20, 0, 0, false, false, 7);
    run(&e, m, &s, 1000, NULL);
    CHECK_EQ(s.violations, 0);
    CHECK_EQ(s.transfers, 7);
    apb_resp_t r[8];
    unsigned n = 0;
    while (n < 8 && apb_master_pop(m, &r[n])) n++;
    CHECK_EQ(n, 7);
    CHECK_EQ(r[2].rdata, 0x11BB33DDu);
    CHECK_EQ(r[4].rdata, 0xCAFEF00Du);
    CHECK_EQ(r[4].wait_states, 3);
    CHECK_EQ(r[2].wait_states, 0);
    CHECK_EQ(r[6].rdata, 0x11BBEEDDu);
    for (unsigned i = 0; i < n; i++)
        CHECK(r[i].tag == i + 1 && !r[i].slverr && !r[i].timeout, "response %u: tag %" PRIu64, i, r[i].tag);
    CHECK_EQ(ob.n, 7);
    CHECK_EQ(ob.rdata[4], 0xCAFEF00Du);
    CHECK(e.errors == 0, "unexpected errors:\n%s", e.err);
    CHECK_EQ(e.logs, 7);
    apb_master_free(m);
}

static void test_back_to_back(unit_t *u)
{
    /* no idle, no waits: a transfer every 2 cycles */
    unit_env_t e;
    unit_env_init(&e);
    apb_master_t *m = apb_master_new(&e.env, "apb", NULL, 3);
    slave_t s = {0};
    for (unsigned i = 0; i < 20; i++) push(m, 4 * i, i, 0xF, true, false, i);
    uint64_t cycles = run(&e, m, &s, 1000, NULL);
    CHECK_EQ(s.transfers, 20);
    CHECK(cycles <= 20 * 2 + 3, "20 zero-wait transfers took %" PRIu64 " cycles", cycles);
    CHECK_EQ(s.violations, 0);
    apb_master_free(m);
}

static void test_errors(unit_t *u)
{
    unit_env_t e;
    unit_env_init(&e);
    apb_master_t *m = apb_master_new(&e.env, "apb0", NULL, 1);
    obs_t ob = {0};
    apb_master_on_accept(m, observe, &ob);
    slave_t s = {0};
    push(m, 0x84, 0x1234, 0xF, true, false, 1); /* unexpected PSLVERR: error */
    push(m, 0x88, 0, 0, false, true, 2);        /* expected PSLVERR: response only */
    run(&e, m, &s, 100, NULL);
    CHECK(unit_env_has(&e, "PSLVERR on write of 0x00001234", "0x00000084"), "PSLVERR not reported:\n%s", e.err);
    CHECK(unit_env_has(&e, "cycle ", NULL), "no cycle in message");
    CHECK_EQ(e.errors, 1);
    apb_resp_t r;
    CHECK(apb_master_pop(m, &r) && r.slverr, "first response lacks slverr");
    CHECK(apb_master_pop(m, &r) && r.slverr && r.tag == 2, "second response lacks slverr");
    CHECK(ob.n == 2 && ob.slverr[0] && ob.slverr[1], "observer did not see PSLVERR");
    apb_master_free(m);

    /* a slave that never raises PREADY */
    unit_env_init(&e);
    apb_cfg_t cfg = {.ready_timeout = 10};
    m = apb_master_new(&e.env, "apb0", &cfg, 1);
    slave_t h = {.hang = true};
    push(m, 0x10, 0, 0, false, false, 9);
    push(m, 0x14, 0, 0, false, false, 10);
    run(&e, m, &h, 200, NULL);
    CHECK(unit_env_has(&e, "PREADY low for 11 ACCESS cycles", "read of 0x00000010"), "timeout not reported:\n%s",
          e.err);
    CHECK(apb_master_pop(m, &r) && r.timeout && r.tag == 9, "no timeout response");
    CHECK(apb_master_pop(m, &r) && r.timeout && r.tag == 10, "second transfer did not time out too");
    CHECK(apb_master_idle(m), "master not idle after timeouts");
    apb_master_free(m);
}

static uint64_t idle_pattern(uint64_t seed)
{
    unit_env_t e;
    unit_env_init(&e);
    apb_cfg_t cfg = {.idle_pct = 50};
    apb_master_t *m = apb_master_new(&e.env, "apb", &cfg, seed);
    slave_t s = {0};
    for (unsigned i = 0; i < 40; i++) push(m, 4 * (i & 15), i, 0xF, true, false, i);
    uint64_t bits;
    run(&e, m, &s, 64, &bits);
    apb_master_free(m);
    return bits;
}

static void test_seeded_idle(unit_t *u)
{
    uint64_t a = idle_pattern(8), b = idle_pattern(8), c = idle_pattern(9);
    CHECK_EQ(a, b);
    CHECK(a != c, "seeds 8 and 9 gave the same SETUP pattern");
    int setups = __builtin_popcountll(a);
    CHECK(setups > 10 && setups < 30, "idle_pct 50: %d SETUPs in 64 cycles", setups);
}

int main(void)
{
    unit_t u = {.name = "apb_master"};
    UNIT_RUN(&u, test_transfers);
    UNIT_RUN(&u, test_back_to_back);
    UNIT_RUN(&u, test_errors);
    UNIT_RUN(&u, test_seeded_idle);
    return unit_done(&u);
}
