/* AXI4 slave memory for NVDLA's DBBIF subset (shared/spec/nvdla.md §3.2).
 *
 * Timing model: axi_slave_tick() runs at a rising edge. A handshake happened at this edge when the DUT's
 * valid (sampled now) meets the ready this model drove during the cycle that just ended (or our valid
 * meets the DUT's ready). Outputs computed here are driven until the next edge, so a latency of 0 means
 * the response is presented in the cycle after the request handshake.
 *
 * Ordering: pending read bursts and write responses sit in per-id FIFOs (linked lists through one pool).
 * Only the head of an id's FIFO may be served, which keeps AXI same-id ordering. Without reorder_ids the
 * oldest head overall is served (strict request order); with it, a seeded choice among the heads whose
 * latency has elapsed. Read bursts are not interleaved: once started, a burst is sent to its rlast.
 * The outstanding limit is enforced by backpressure (arready/awready stay low while max_outstanding
 * bursts are in flight), so exceeding it cannot happen and needs no separate check. */
#include "axi_slave.h"
#include "bits.h"
#include "fifo.h"
#include "rng.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W_AHEAD_MAX = 64 }; /* W beats we accept before their AW arrives */

typedef struct burst { /* a pending read burst or write response */
    uint64_t seq;      /* request order within its channel */
    uint64_t ready;    /* cycle from which it may be presented */
    uint32_t addr;     /* beat-aligned start */
    uint16_t beat;     /* beats already sent (reads) */
    uint8_t id, len;
    int32_t next; /* next in the same-id FIFO, or in the free list */
} burst_t;

typedef struct idq { /* per-id FIFOs plus the set of non-empty ids */
    int32_t head[256], tail[256];
    uint16_t pos[256];
    uint8_t active[256];
    unsigned nactive;
} idq_t;

typedef struct aw_entry { /* accepted AW still receiving W beats */
    uint64_t seq, cycle;
    uint32_t addr; /* beat-aligned start */
    uint16_t beat;
    uint8_t id, len;
} aw_entry_t;

typedef struct w_beat {
    uint64_t data[AXI_WORDS_MAX], strb, cycle;
    bool last;
} w_beat_t;

typedef struct presented { /* an R beat or B response on the wires */
    bool valid;
    int32_t idx; /* pool index of its burst */
    uint64_t data[AXI_WORDS_MAX];
    bool last;
} presented_t;

struct axi_slave {
    const bfm_env_t *env;
    char name[32];
    mem_t *mem;
    axi_cfg_t cfg;
    unsigned bb, words; /* bytes and 64-bit words per beat */
    rng_t rng_aw, rng_w, rng_ar, rng_r, rng_b, rng_rlat, rng_wlat;
    burst_t *pool;
    int32_t pool_cap, free_head;
    idq_t rq, bq;
    fifo_t awq; /* aw_entry_t */
    fifo_t wq;  /* w_beat_t received before their AW */
    uint64_t rd_seq, wr_seq;
    unsigned rd_outstanding, wr_outstanding; /* AR..last R, AW..B */
    int32_t r_cur;                           /* read burst being sent, -1 none */
    presented_t r, b;
    axi_in_t prev_in;
    axi_out_t prev_out;
    bool aw_wait, w_wait, ar_wait; /* valid was up at the last edge without a handshake */
    uint64_t ticks;
    axi_stats_t stats;
    axi_write_fn on_write;
    void *on_write_user;
    uint8_t cand[256]; /* scratch for choose() */
};

static uint64_t now(const axi_slave_t *s) { return s->env && s->env->cycle ? *s->env->cycle : s->ticks; }

/* A beat's data (or strobes, words = 0) in hex, most significant byte lane first, as a log line shows it. */
enum { HEX_BEAT = 2 + 16 * AXI_WORDS_MAX + 1 };
static const char *hex_beat(char *buf, const axi_slave_t *s, const uint64_t *data)
{
    char *p = buf;
    p += sprintf(p, "0x");
    for (unsigned k = s->words; k-- > 0;) p += sprintf(p, "%016" PRIx64, data[k]);
    return buf;
}

static const char *hex_strb(char *buf, const axi_slave_t *s, uint64_t strb)
{
    snprintf(buf, HEX_BEAT, "0x%0*" PRIx64, (int)(s->bb / 4), strb);
    return buf;
}
static bool logging(const axi_slave_t *s) { return s->env && s->env->log_enabled; }

/* ---- pool and per-id FIFOs ---- */

static void pool_grow(axi_slave_t *s)
{
    int32_t old = s->pool_cap, cap = old ? 2 * old : 64;
    burst_t *p = realloc(s->pool, (size_t)cap * sizeof *p);
    if (!p) {
        fprintf(stderr, "%s: out of memory\n", s->name);
        abort();
    }
    s->pool = p;
    for (int32_t i = cap - 1; i >= old; i--) {
        p[i].next = s->free_head;
        s->free_head = i;
    }
    s->pool_cap = cap;
}

static int32_t pool_alloc(axi_slave_t *s)
{
    if (s->free_head < 0) pool_grow(s);
    int32_t i = s->free_head;
    s->free_head = s->pool[i].next;
    return i;
}

static void pool_release(axi_slave_t *s, int32_t i)
{
    s->pool[i].next = s->free_head;
    s->free_head = i;
}

static void idq_init(idq_t *q)
{
    for (int i = 0; i < 256; i++) q->head[i] = q->tail[i] = -1;
    q->nactive = 0;
}

static void idq_push(idq_t *q, burst_t *pool, int32_t i)
{
    uint8_t id = pool[i].id;
    pool[i].next = -1;
    if (q->head[id] < 0) {
        q->head[id] = q->tail[id] = i;
        q->pos[id] = (uint16_t)q->nactive;
        q->active[q->nactive++] = id;
    } else {
        pool[q->tail[id]].next = i;
        q->tail[id] = i;
    }
}

static int32_t idq_pop(idq_t *q, burst_t *pool, uint8_t id)
{
    int32_t i = q->head[id];
    q->head[id] = pool[i].next;
    if (q->head[id] < 0) {
        q->tail[id] = -1;
        uint8_t last = q->active[--q->nactive];
        q->active[q->pos[id]] = last;
        q->pos[last] = q->pos[id];
    }
    return i;
}

/* The burst to serve next, or -1: see the ordering rules at the top of the file. */
static int32_t choose(axi_slave_t *s, idq_t *q, rng_t *rng, uint64_t t)
{
    if (!q->nactive) return -1;
    if (!s->cfg.reorder_ids) {
        int32_t best = -1;
        for (unsigned k = 0; k < q->nactive; k++) {
            int32_t i = q->head[q->active[k]];
            if (best < 0 || s->pool[i].seq < s->pool[best].seq) best = i;
        }
        return s->pool[best].ready <= t ? best : -1;
    }
    unsigned n = 0;
    for (unsigned k = 0; k < q->nactive; k++)
        if (s->pool[q->head[q->active[k]]].ready <= t) s->cand[n++] = q->active[k];
    if (!n) return -1;
    return q->head[s->cand[n > 1 ? rng_below(rng, n) : 0]];
}

/* ---- construction ---- */

axi_slave_t *axi_slave_new(const bfm_env_t *env, const char *name, mem_t *mem, const axi_cfg_t *cfg, uint64_t seed)
{
    unsigned bb = cfg && cfg->beat_bytes ? cfg->beat_bytes : 8;
    if (bb != 8 && bb != 16 && bb != 32 && bb != 64) return NULL;
    axi_slave_t *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->env = env;
    snprintf(s->name, sizeof s->name, "%s", name ? name : "axi");
    s->mem = mem;
    if (cfg) s->cfg = *cfg;
    s->bb = bb;
    s->words = bb / 8;
    /* One stream per purpose so that e.g. enabling R gaps does not change the AW stall pattern. */
    static const char *const streams[] = {"aw", "w", "ar", "r", "b", "rlat", "wlat"};
    rng_t *rngs[] = {&s->rng_aw, &s->rng_w, &s->rng_ar, &s->rng_r, &s->rng_b, &s->rng_rlat, &s->rng_wlat};
    for (int i = 0; i < 7; i++) {
        char sn[48];
        snprintf(sn, sizeof sn, "%s.%s", s->name, streams[i]);
        rng_seed_stream(rngs[i], seed, sn);
    }
    s->free_head = -1;
    unsigned prealloc = s->cfg.max_outstanding ? 2 * s->cfg.max_outstanding : 512;
    while ((unsigned)s->pool_cap < prealloc) pool_grow(s);
    idq_init(&s->rq);
    idq_init(&s->bq);
    fifo_init(&s->awq, sizeof(aw_entry_t), s->cfg.max_outstanding ? s->cfg.max_outstanding : 256);
    fifo_init(&s->wq, sizeof(w_beat_t), W_AHEAD_MAX);
    s->r_cur = -1;
    return s;
}

void axi_slave_free(axi_slave_t *s)
{
    if (!s) return;
    free(s->pool);
    fifo_free(&s->awq);
    fifo_free(&s->wq);
    free(s);
}

bool axi_slave_idle(const axi_slave_t *s)
{
    return s->rd_outstanding == 0 && s->wr_outstanding == 0 && fifo_empty(&s->wq) && !s->r.valid && !s->b.valid;
}

axi_stats_t axi_slave_stats(const axi_slave_t *s) { return s->stats; }

void axi_slave_on_write(axi_slave_t *s, axi_write_fn fn, void *user)
{
    s->on_write = fn;
    s->on_write_user = user;
}

/* ---- request channel checks ---- */

static void check_addr(axi_slave_t *s, const char *ch, uint8_t id, uint32_t addr, uint8_t len, uint64_t t)
{
    if (addr & 7)
        bfm_errorf(s->env, s->name,
                   "cycle %" PRIu64 ": %s id 0x%02x addr 0x%08" PRIx32 ": address not 8-byte aligned (%s)", t, ch, id,
                   addr, s->bb == 8 ? "SIZE is 8 bytes" : "NVDLA's smallest access is 8 bytes");
    if (len > 15)
        bfm_errorf(s->env, s->name,
                   "cycle %" PRIu64 ": %s id 0x%02x addr 0x%08" PRIx32 ": len %u exceeds 15 (the port is 4 bits)", t,
                   ch, id, addr, len);
    if ((addr & 0xFFFu & ~(s->bb - 1)) + ((uint32_t)len + 1) * s->bb > 0x1000)
        bfm_errorf(s->env, s->name,
                   "cycle %" PRIu64 ": %s id 0x%02x addr 0x%08" PRIx32 " len %u: burst crosses a 4 KiB boundary", t, ch,
                   id, addr, len);
}

/* valid must stay up and the payload stable from the first valid cycle to the handshake. */
static void check_stable(axi_slave_t *s, const axi_in_t *in, uint64_t t)
{
    const axi_in_t *p = &s->prev_in;
    if (s->aw_wait) {
        if (!in->awvalid)
            bfm_errorf(s->env, s->name,
                       "cycle %" PRIu64 ": AW id 0x%02x addr 0x%08" PRIx32 ": awvalid withdrawn before awready", t,
                       p->awid, p->awaddr);
        else if (in->awid != p->awid || in->awaddr != p->awaddr || in->awlen != p->awlen)
            bfm_errorf(s->env, s->name,
                       "cycle %" PRIu64 ": AW id 0x%02x addr 0x%08" PRIx32 " len %u: payload"
                       " changed while awvalid && !awready (now id 0x%02x addr 0x%08" PRIx32 " len %u)",
                       t, p->awid, p->awaddr, p->awlen, in->awid, in->awaddr, in->awlen);
    }
    if (s->ar_wait) {
        if (!in->arvalid)
            bfm_errorf(s->env, s->name,
                       "cycle %" PRIu64 ": AR id 0x%02x addr 0x%08" PRIx32 ": arvalid withdrawn before arready", t,
                       p->arid, p->araddr);
        else if (in->arid != p->arid || in->araddr != p->araddr || in->arlen != p->arlen)
            bfm_errorf(s->env, s->name,
                       "cycle %" PRIu64 ": AR id 0x%02x addr 0x%08" PRIx32 " len %u: payload"
                       " changed while arvalid && !arready (now id 0x%02x addr 0x%08" PRIx32 " len %u)",
                       t, p->arid, p->araddr, p->arlen, in->arid, in->araddr, in->arlen);
    }
    if (s->w_wait) {
        const aw_entry_t *aw = fifo_empty(&s->awq) ? NULL : fifo_at(&s->awq, 0);
        unsigned id = aw ? aw->id : 0;
        uint32_t addr = aw ? aw->addr + s->bb * aw->beat : 0;
        if (!in->wvalid)
            bfm_errorf(s->env, s->name,
                       "cycle %" PRIu64 ": W id 0x%02x addr 0x%08" PRIx32 ": wvalid withdrawn before wready", t, id,
                       addr);
        else if (memcmp(in->wdata, p->wdata, s->words * sizeof *in->wdata) || in->wstrb != p->wstrb ||
                 in->wlast != p->wlast) {
            char d0[HEX_BEAT], s0[HEX_BEAT], d1[HEX_BEAT], s1[HEX_BEAT];
            bfm_errorf(s->env, s->name,
                       "cycle %" PRIu64 ": W id 0x%02x addr 0x%08" PRIx32 ": payload changed"
                       " while wvalid && !wready (data %s strb %s last %d -> data %s strb %s last %d)",
                       t, id, addr, hex_beat(d0, s, p->wdata), hex_strb(s0, s, p->wstrb), p->wlast,
                       hex_beat(d1, s, in->wdata), hex_strb(s1, s, in->wstrb), in->wlast);
        }
    }
}

/* ---- write path ---- */

/* Match buffered W beats with AW bursts in order and commit them to memory. */
static void drain_writes(axi_slave_t *s, uint64_t t)
{
    while (!fifo_empty(&s->awq) && !fifo_empty(&s->wq)) {
        aw_entry_t *aw = fifo_at(&s->awq, 0);
        w_beat_t w;
        fifo_pop(&s->wq, &w);
        uint32_t addr = aw->addr + s->bb * aw->beat;
        bool want_last = aw->beat == aw->len;
        if (w.last != want_last)
            bfm_errorf(s->env, s->name,
                       "cycle %" PRIu64 ": W id 0x%02x addr 0x%08" PRIx32 ": wlast=%d on beat %u"
                       " of a %u-beat burst",
                       w.cycle, aw->id, addr, w.last, aw->beat + 1, aw->len + 1);
        for (unsigned k = 0; k < s->words; k++) {
            uint8_t strb = (uint8_t)(w.strb >> (8 * k));
            mem_write64_strb(s->mem, s->cfg.space | (uint32_t)(addr + 8 * k), w.data[k], strb);
            s->stats.bytes_written += popcount8(strb);
            if (s->on_write && strb) s->on_write(s->on_write_user, aw->id, addr + 8 * k, w.data[k], strb, t);
        }
        s->stats.w_beats++;
        if (logging(s)) {
            char d[HEX_BEAT], st[HEX_BEAT];
            bfm_logf(s->env, s->name, "cycle %" PRIu64 ": W  id 0x%02x addr 0x%08" PRIx32 " data %s strb %s%s", w.cycle,
                     aw->id, addr, hex_beat(d, s, w.data), hex_strb(st, s, w.strb), w.last ? " last" : "");
        }
        if (++aw->beat > aw->len) {
            int32_t i = pool_alloc(s);
            burst_t *b = &s->pool[i];
            b->seq = aw->seq;
            b->ready = t + rng_range(&s->rng_wlat, s->cfg.wr_lat_min, s->cfg.wr_lat_max);
            b->addr = aw->addr;
            b->id = aw->id;
            b->len = aw->len;
            b->beat = 0;
            idq_push(&s->bq, s->pool, i);
            fifo_pop(&s->awq, NULL);
        }
    }
}

static void accept_aw(axi_slave_t *s, const axi_in_t *in, uint64_t t)
{
    check_addr(s, "AW", in->awid, in->awaddr, in->awlen, t);
    aw_entry_t e = {
        .seq = s->wr_seq++, .cycle = t, .addr = in->awaddr & ~(s->bb - 1), .id = in->awid, .len = in->awlen};
    fifo_push(&s->awq, &e);
    s->wr_outstanding++;
    s->stats.aw_bursts++;
    if (logging(s))
        bfm_logf(s->env, s->name, "cycle %" PRIu64 ": AW id 0x%02x addr 0x%08" PRIx32 " len %u", t, in->awid,
                 in->awaddr, in->awlen);
}

static void accept_w(axi_slave_t *s, const axi_in_t *in, uint64_t t)
{
    /* After drain_writes the buffer only holds beats whose AW has not arrived yet. */
    if (fifo_empty(&s->awq) && fifo_count(&s->wq) >= W_AHEAD_MAX) {
        char d[HEX_BEAT], st[HEX_BEAT];
        bfm_errorf(s->env, s->name,
                   "cycle %" PRIu64 ": W data %s strb %s: more than %d W"
                   " beats without an AW (beyond the bursts announced plus the data-before-address allowance);"
                   " beat dropped",
                   t, hex_beat(d, s, in->wdata), hex_strb(st, s, in->wstrb), W_AHEAD_MAX);
        return;
    }
    w_beat_t w = {.cycle = t, .strb = in->wstrb, .last = in->wlast};
    memcpy(w.data, in->wdata, s->words * sizeof *w.data);
    fifo_push(&s->wq, &w);
}

/* ---- read path ---- */

static void accept_ar(axi_slave_t *s, const axi_in_t *in, uint64_t t)
{
    check_addr(s, "AR", in->arid, in->araddr, in->arlen, t);
    int32_t i = pool_alloc(s);
    burst_t *b = &s->pool[i];
    b->seq = s->rd_seq++;
    b->ready = t + rng_range(&s->rng_rlat, s->cfg.rd_lat_min, s->cfg.rd_lat_max);
    b->addr = in->araddr & ~(s->bb - 1);
    b->id = in->arid;
    b->len = in->arlen;
    b->beat = 0;
    idq_push(&s->rq, s->pool, i);
    s->rd_outstanding++;
    s->stats.ar_bursts++;
    if (logging(s))
        bfm_logf(s->env, s->name, "cycle %" PRIu64 ": AR id 0x%02x addr 0x%08" PRIx32 " len %u", t, in->arid,
                 in->araddr, in->arlen);
}

static void r_handshake(axi_slave_t *s, uint64_t t)
{
    burst_t *b = &s->pool[s->r.idx];
    s->stats.r_beats++;
    s->stats.bytes_read += s->bb;
    if (logging(s)) {
        char d[HEX_BEAT];
        bfm_logf(s->env, s->name, "cycle %" PRIu64 ": R  id 0x%02x addr 0x%08" PRIx32 " data %s%s", t, b->id,
                 b->addr + s->bb * b->beat, hex_beat(d, s, s->r.data), s->r.last ? " last" : "");
    }
    b->beat++;
    if (s->r.last) {
        idq_pop(&s->rq, s->pool, b->id);
        pool_release(s, s->r.idx);
        s->rd_outstanding--;
        s->r_cur = -1;
    }
    s->r.valid = false;
}

static void b_handshake(axi_slave_t *s, uint64_t t)
{
    burst_t *b = &s->pool[s->b.idx];
    s->stats.b_resps++;
    if (logging(s))
        bfm_logf(s->env, s->name, "cycle %" PRIu64 ": B  id 0x%02x (burst at 0x%08" PRIx32 ")", t, b->id, b->addr);
    idq_pop(&s->bq, s->pool, b->id);
    pool_release(s, s->b.idx);
    s->wr_outstanding--;
    s->b.valid = false;
}

static void next_r(axi_slave_t *s, uint64_t t)
{
    int32_t i = s->r_cur >= 0 ? s->r_cur : choose(s, &s->rq, &s->rng_r, t);
    if (i < 0) return;
    s->r_cur = i; /* committed: the burst runs to its rlast before another starts */
    if (rng_chance(&s->rng_r, s->cfg.r_gap_pct)) return;
    const burst_t *b = &s->pool[i];
    s->r.valid = true;
    s->r.idx = i;
    for (unsigned k = 0; k < s->words; k++) /* memory as of the beat's presentation */
        s->r.data[k] = mem_read64(s->mem, s->cfg.space | (uint32_t)(b->addr + s->bb * b->beat + 8 * k));
    s->r.last = b->beat == b->len;
}

static void next_b(axi_slave_t *s, uint64_t t)
{
    int32_t i = choose(s, &s->bq, &s->rng_b, t);
    if (i < 0 || rng_chance(&s->rng_b, s->cfg.b_gap_pct)) return;
    s->b.valid = true;
    s->b.idx = i;
}

void axi_slave_tick(axi_slave_t *s, const axi_in_t *in, axi_out_t *out)
{
    uint64_t t = now(s);
    s->ticks++;
    check_stable(s, in, t);
    s->aw_wait = in->awvalid && !s->prev_out.awready;
    s->w_wait = in->wvalid && !s->prev_out.wready;
    s->ar_wait = in->arvalid && !s->prev_out.arready;

    if (s->prev_out.rvalid && in->rready) r_handshake(s, t);
    if (s->prev_out.bvalid && in->bready) b_handshake(s, t);
    if (!in->bready) s->stats.b_not_ready++;
    if (in->arvalid && s->prev_out.arready) accept_ar(s, in, t);
    if (in->awvalid && s->prev_out.awready) accept_aw(s, in, t);
    if (in->wvalid && s->prev_out.wready) {
        drain_writes(s, t);
        accept_w(s, in, t);
    }
    drain_writes(s, t);

    if (!s->r.valid) next_r(s, t);
    if (!s->b.valid) next_b(s, t);

    /* Ready stalls are drawn every cycle, so a seed gives the same pattern whatever the traffic. */
    bool aw_stall = rng_chance(&s->rng_aw, s->cfg.aw_stall_pct);
    bool w_stall = rng_chance(&s->rng_w, s->cfg.w_stall_pct);
    bool ar_stall = rng_chance(&s->rng_ar, s->cfg.ar_stall_pct);
    unsigned lim = s->cfg.max_outstanding;
    out->awready = !aw_stall && (!lim || s->wr_outstanding < lim);
    out->wready = !w_stall;
    out->arready = !ar_stall && (!lim || s->rd_outstanding < lim);
    out->rvalid = s->r.valid;
    out->rid = s->r.valid ? s->pool[s->r.idx].id : 0;
    if (s->r.valid) memcpy(out->rdata, s->r.data, sizeof out->rdata);
    else memset(out->rdata, 0, sizeof out->rdata);
    out->rlast = s->r.valid && s->r.last;
    out->bvalid = s->b.valid;
    out->bid = s->b.valid ? s->pool[s->b.idx].id : 0;

    s->prev_in = *in;
    s->prev_out = *out;
}

unsigned axi_slave_pending_writes(const axi_slave_t *s, axi_range_t *out, unsigned max)
{
    unsigned n = 0;
    for (size_t i = 0; i < fifo_count(&s->awq); i++, n++) { /* still receiving W beats */
        const aw_entry_t *e = fifo_at(&s->awq, i);
        if (n < max) out[n] = (axi_range_t){e->addr, s->bb * (e->len + 1u)};
    }
    for (int id = 0; id < 256; id++) /* all beats in, B not yet taken */
        for (int32_t i = s->bq.head[id]; i >= 0; i = s->pool[i].next, n++)
            if (n < max) out[n] = (axi_range_t){s->pool[i].addr, s->bb * (s->pool[i].len + 1u)};
    return n;
}
