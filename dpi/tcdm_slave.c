/* NE16 TCDM memory slave (shared/spec/ne16.md §1.3): lock-stepped ports granted together with a seeded
 * stall pattern, responses one cycle after the grant, byte-enabled stores, M1 checks, and the
 * optional M6 pattern for unmapped bytes (mapping kept as a 0xFF-per-byte shadow mem_t). */
#include "tcdm_slave.h"
#include "bits.h"
#include "rng.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tcdm_slave {
    const bfm_env_t *env;
    char name[32];
    mem_t *mem;
    mem_t *mapped; /* unmapped_pattern only: 0xFF for every mapped byte */
    tcdm_cfg_t cfg;
    uint64_t seed;
    rng_t rng;
    bool gnt; /* offer driven during the current cycle */
    bool resp_pending;
    uint64_t ticks;
    tcdm_stats_t stats;
    tcdm_write_fn on_write;
    void *on_write_user;
};

static uint64_t now(const tcdm_slave_t *s) { return s->env && s->env->cycle ? *s->env->cycle : s->ticks; }

uint8_t tcdm_unmapped_byte(uint64_t seed, uint32_t addr)
{
    /* splitmix64 finaliser over (seed, word address): cheap, deterministic, well mixed. */
    uint64_t z = seed ^ ((uint64_t)(addr & ~3u) * 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (uint8_t)(z >> (8 * (addr & 3)));
}

tcdm_slave_t *tcdm_slave_new(const bfm_env_t *env, const char *name, mem_t *mem, const tcdm_cfg_t *cfg, uint64_t seed)
{
    tcdm_slave_t *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->env = env;
    snprintf(s->name, sizeof s->name, "%s", name ? name : "tcdm");
    s->mem = mem;
    if (cfg) s->cfg = *cfg;
    if (s->cfg.nports == 0 || s->cfg.nports > TCDM_MAX_PORTS) {
        bfm_errorf(env, s->name, "nports %u out of range 1..%d; using %d", s->cfg.nports, TCDM_MAX_PORTS,
                   s->cfg.nports ? TCDM_MAX_PORTS : 1);
        s->cfg.nports = s->cfg.nports ? TCDM_MAX_PORTS : 1;
    }
    s->seed = seed;
    rng_seed_stream(&s->rng, seed, s->name);
    if (s->cfg.unmapped_pattern) s->mapped = mem_new();
    return s;
}

void tcdm_slave_free(tcdm_slave_t *s)
{
    if (!s) return;
    mem_free(s->mapped);
    free(s);
}

bool tcdm_slave_idle(const tcdm_slave_t *s) { return !s->resp_pending; }
tcdm_stats_t tcdm_slave_stats(const tcdm_slave_t *s) { return s->stats; }

void tcdm_slave_map(tcdm_slave_t *s, uint32_t addr, uint32_t n)
{
    if (s->mapped) mem_fill(s->mapped, addr, n, 0xFF);
}

void tcdm_slave_on_write(tcdm_slave_t *s, tcdm_write_fn fn, void *user)
{
    s->on_write = fn;
    s->on_write_user = user;
}

static uint32_t read_word(const tcdm_slave_t *s, uint32_t addr)
{
    uint32_t v = mem_read32(s->mem, addr);
    if (!s->mapped) return v;
    uint32_t m = mem_read32(s->mapped, addr);
    if (m == 0xFFFFFFFFu) return v;
    uint32_t r = 0;
    for (unsigned k = 0; k < 4; k++) {
        uint32_t byte = (m >> (8 * k) & 0xFF) ? (v >> (8 * k) & 0xFF) : tcdm_unmapped_byte(s->seed, addr + k);
        r |= byte << (8 * k);
    }
    return r;
}

/* M1 lock-step. HWPE-Mem (pulp-platform/hci protocols.rst, rules 1-3) has no rule that holds an ungranted
 * request stable or keeps it up until its grant, nor one on byte enables of reads: the handshake is req && gnt
 * in one cycle, and an ungranted request simply never happened. The former M3 (stability, no withdrawal)
 * and M4 (reads with be=1111) checks were stricter than that protocol and are relaxed for every DUT. */
static void check_request(tcdm_slave_t *s, const tcdm_in_t *in, uint64_t t)
{
    unsigned n = s->cfg.nports;
    uint32_t reqmask = 0;
    for (unsigned i = 0; i < n; i++) reqmask |= (uint32_t)in->port[i].req << i;
    if (reqmask != ((1u << n) - 1)) {
        bfm_errorf(s->env, s->name,
                   "cycle %" PRIu64 ": M1: req not lock-stepped (req mask 0x%0*" PRIx32 " over %u"
                   " ports)",
                   t, (int)((n + 3) / 4), reqmask, n);
        return;
    }
    const tcdm_port_in_t *p = in->port;
    uint32_t A = p[0].add;
    if (A & 3) bfm_errorf(s->env, s->name, "cycle %" PRIu64 ": M1: A=0x%08" PRIx32 " (add[0]) not word-aligned", t, A);
    for (unsigned i = 1; i < n; i++) {
        if (p[i].wen != p[0].wen) {
            bfm_errorf(s->env, s->name,
                       "cycle %" PRIu64 ": M1: wen not lock-stepped at A=0x%08" PRIx32 " (port %u"
                       " wen %d, port 0 wen %d)",
                       t, A, i, p[i].wen, p[0].wen);
            break;
        }
    }
    for (unsigned i = 1; i < n; i++) {
        if (p[i].add != (uint32_t)(A + 4 * i)) {
            bfm_errorf(s->env, s->name, "cycle %" PRIu64 ": M1: add[%u]=0x%08" PRIx32 ", want A+4*%u=0x%08" PRIx32, t,
                       i, p[i].add, i, (uint32_t)(A + 4 * i));
            break;
        }
    }
}

/* Perform the granted transaction. Lock-stepped windows (the normal case) move all ports' bytes with one
 * memory call; anything irregular (already reported) falls back to port-by-port accesses. */
static void access(tcdm_slave_t *s, const tcdm_in_t *in, tcdm_out_t *out, bool window, bool full_be, uint64_t t)
{
    unsigned n = s->cfg.nports;
    const tcdm_port_in_t *p = in->port;
    uint8_t buf[4 * TCDM_MAX_PORTS];
    uint32_t A = p[0].add;
    if (p[0].wen && window && !s->mapped) {
        mem_read(s->mem, A, buf, 4u * n);
        for (unsigned i = 0; i < n; i++) {
            const uint8_t *b = buf + 4 * i;
            out->port[i].r_data = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            out->port[i].r_valid = true;
        }
        s->resp_pending = true;
        return;
    }
    if (!p[0].wen && window && full_be && !s->mapped && !s->on_write) {
        for (unsigned i = 0; i < n; i++)
            for (unsigned k = 0; k < 4; k++) buf[4 * i + k] = (uint8_t)(p[i].data >> (8 * k));
        mem_write(s->mem, A, buf, 4u * n);
        s->stats.bytes_written += 4u * n;
        for (unsigned i = 0; i < n; i++) out->port[i].r_valid = s->cfg.r_valid_on_write;
        s->resp_pending = s->cfg.r_valid_on_write;
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        tcdm_port_out_t *o = &out->port[i];
        if (!p[i].req) continue;
        uint32_t a = p[i].add & ~3u;
        if (p[i].wen) {
            o->r_data = read_word(s, a);
            o->r_valid = true;
        } else {
            uint8_t be = p[i].be & 0xF;
            if (be) {
                mem_write32_strb(s->mem, a, p[i].data, be);
                if (s->mapped) mem_write32_strb(s->mapped, a, 0xFFFFFFFFu, be);
                s->stats.bytes_written += popcount8(be);
                if (s->on_write) s->on_write(s->on_write_user, a, p[i].data, be, t);
            }
            o->r_valid = s->cfg.r_valid_on_write;
        }
        s->resp_pending |= o->r_valid;
    }
}

void tcdm_slave_tick(tcdm_slave_t *s, const tcdm_in_t *in, tcdm_out_t *out)
{
    uint64_t t = now(s);
    s->ticks++;
    unsigned n = s->cfg.nports;
    const tcdm_port_in_t *p = in->port;

    /* One pass gathers everything the checks and the fast paths need. */
    uint32_t A = p[0].add, reqmask = 0;
    bool wen_ok = true, add_ok = true, be_full = true;
    for (unsigned i = 0; i < n; i++) {
        reqmask |= (uint32_t)p[i].req << i;
        wen_ok &= p[i].wen == p[0].wen;
        add_ok &= p[i].add == (uint32_t)(A + 4 * i);
        be_full &= (p[i].be & 0xF) == 0xF;
    }
    bool anyreq = reqmask != 0;
    bool lockstep = reqmask == (1u << n) - 1 && wen_ok && add_ok && !(A & 3);

    if (anyreq && !lockstep) check_request(s, in, t);

    for (unsigned i = 0; i < n; i++) {
        out->port[i].r_valid = false;
        out->port[i].r_data = 0;
    }
    s->resp_pending = false;
    bool granted = anyreq && s->gnt;
    if (granted) {
        bool window = lockstep && (uint64_t)A + 4u * n <= 0x100000000ull; /* no 2^32 wrap inside */
        access(s, in, out, window, be_full, t);
        if (p[0].wen) s->stats.reads++;
        else s->stats.writes++;
        if (s->env && s->env->log_enabled)
            bfm_logf(s->env, s->name, "cycle %" PRIu64 ": %s A=0x%08" PRIx32 " port0 %s 0x%08" PRIx32 " be 0x%x", t,
                     p[0].wen ? "R" : "W", A, p[0].wen ? "rdata" : "data", p[0].wen ? out->port[0].r_data : p[0].data,
                     p[0].be & 0xF);
    } else if (anyreq) {
        s->stats.stall_cycles++;
    }

    /* Next cycle's offer: all ports together (M2), drawn every cycle so a seed fixes the pattern. */
    s->gnt = !rng_chance(&s->rng, s->cfg.gnt_stall_pct);
    for (unsigned i = 0; i < n; i++) out->port[i].gnt = s->gnt;
    for (unsigned i = n; i < TCDM_MAX_PORTS; i++) out->port[i] = (tcdm_port_out_t){0};
}
