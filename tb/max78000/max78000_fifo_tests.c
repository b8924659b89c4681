/* MAX78000 FIFO register tests (spec 2.1, D10): FIFO_WRk pushes, FIFO_STAT flags and thresholds, the FIFO
 * interrupt. No run is started, so nothing pops and every level is exact. Expected values come from a small
 * shadow written from the spec's rules (never from the golden model, which checks the same reads on its own
 * through the APB monitor). */
#include "max78000_fifo_tests.h"
#include "max78000_fw.h"
#include "max78000_regs.h"
#include "rng.h"

enum { FIFO_DEPTH = 8 };

typedef struct {
    uint32_t ctrl;
    unsigned level[4];
} fifo_shadow_t;

/* FIFO_STAT per D10; summaries over the enabled FIFOs, 0 when none; rptr_eq/wptr_eq read 0 (the spec does
 * not define them; docs/max78000_rtl.md). */
static uint32_t shadow_stat(const fifo_shadow_t *s, bool *irq)
{
    unsigned en = (s->ctrl >> 12) & 0xF, fthr = (s->ctrl >> 2) & 7, ethr = (s->ctrl >> 7) & 7;
    uint32_t full = 0, empty = 0, af = 0, ae = 0;
    bool alf = en != 0, allaf = en != 0;
    for (unsigned k = 0; k < 4; k++) {
        if (!(en >> k & 1)) continue;
        unsigned l = s->level[k];
        full |= (uint32_t)(l == FIFO_DEPTH) << k;
        empty |= (uint32_t)(l == 0) << k;
        af |= (uint32_t)(l > fthr) << k;
        ae |= (uint32_t)(l < ethr) << k;
        alf = alf && l == FIFO_DEPTH;
        allaf = allaf && l > fthr;
    }
    *irq = (full & (s->ctrl >> 16 & 0xF)) || (empty & (s->ctrl >> 20 & 0xF)) || (af & (s->ctrl >> 24 & 0xF)) ||
           (ae & (s->ctrl >> 28 & 0xF));
    return (uint32_t)(ae != 0) << 19 | (uint32_t)allaf << 18 | (uint32_t)(empty != 0) << 17 | (uint32_t)alf << 16 |
           ae << 12 | af << 8 | empty << 4 | full;
}

static void set_ctrl(program_t *p, fifo_shadow_t *s, uint32_t v)
{
    v &= MAX78000_FIFO_CTRL_WMASK;
    for (unsigned k = 0; k < 4; k++)
        if (!(v >> (12 + k) & 1)) s->level[k] = 0; /* a disabled FIFO holds nothing */
    s->ctrl = v;
    prog_write(p, MAX78000_GLOB_BASE + MAX78000_FIFO_CTRL_OFF, v);
}

static void push(program_t *p, fifo_shadow_t *s, unsigned k, uint32_t v)
{
    if ((s->ctrl >> (12 + k) & 1) && s->level[k] < FIFO_DEPTH) s->level[k]++; /* otherwise dropped (spec 2.1) */
    prog_write(p, MAX78000_GLOB_BASE + MAX78000_FIFO_WR_OFF(k), v);
}

static void check(program_t *p, const fifo_shadow_t *s)
{
    bool irq;
    uint32_t st = shadow_stat(s, &irq);
    prog_read(p, MAX78000_GLOB_BASE + MAX78000_FIFO_STAT_OFF, st, 0xFFFFFFFFu);
    prog_read(p, MAX78000_GLOB_BASE + MAX78000_FIFO_CTRL_OFF, s->ctrl, 0xFFFFFFFFu);
    for (unsigned k = 0; k < 4; k++) /* write-only data ports read 0 */
        prog_read(p, MAX78000_GLOB_BASE + MAX78000_FIFO_WR_OFF(k), 0, 0xFFFFFFFFu);
    (void)irq;
}

int m7_fifo_regs(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "max78000.fifo_regs");
    fifo_shadow_t s = {.ctrl = MAX78000_FIFO_CTRL_RESET};
    prog_job(p, "FIFO 0 fills to 8 words, the 9th is dropped; flags at every level (D10)");
    set_ctrl(p, &s, 1u << 12 | 3u << 7 | 5u << 2);
    check(p, &s);
    for (unsigned i = 0; i < FIFO_DEPTH + 2; i++) {
        push(p, &s, 0, (uint32_t)rng_next(&r));
        check(p, &s);
    }
    prog_job(p, "disabled FIFOs drop writes and read 0 flags; clearing fifo_en empties a FIFO");
    push(p, &s, 2, 1);
    check(p, &s);
    set_ctrl(p, &s, 0);
    check(p, &s);
    prog_job(p, "random enables, thresholds and pushes on all four FIFOs");
    for (int step = 0; step < 60; step++) {
        if (rng_below(&r, 8) == 0) {
            uint32_t v = (uint32_t)rng_next(&r) & 0x0000FB9Cu; /* no interrupt enables here */
            set_ctrl(p, &s, v | (s.ctrl & 3));
        } else {
            push(p, &s, rng_below(&r, 4), (uint32_t)rng_next(&r));
        }
        check(p, &s);
    }
    set_ctrl(p, &s, 0x3);
    return 0;
}

/* The FIFO interrupt (D06, D10): each source with its enable raises irq; clearing the condition (here by
 * disabling the FIFO, which empties it) or the enable lowers it. The irq monitor compares the line with the
 * golden model every cycle; the waits below make the program itself see each rise. */
int m7_fifo_irq(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "max78000.fifo_irq");
    fifo_shadow_t s = {.ctrl = MAX78000_FIFO_CTRL_RESET};
    static const char *const src[4] = {"full", "empty", "almost full", "almost empty"};
    unsigned k0 = rng_below(&r, 4);
    for (unsigned kind = 0; kind < 4; kind++) {
        /* a different FIFO per source: whether disabling a FIFO empties it is not settled between the RTL
         * (it does) and the golden model (it keeps the words), see docs/max78000_rtl.md */
        unsigned k = (k0 + kind) & 3;
        prog_job(p, "FIFO %u: %s interrupt", k, src[kind]);
        uint32_t base = 1u << (12 + k) | 4u << 7 | 2u << 2 | 3u;
        set_ctrl(p, &s, base); /* enabled and empty: empty and almost-empty hold, no interrupt enabled */
        check(p, &s);
        uint32_t ien = 1u << (16 + 4 * kind + k); /* full 19:16, empty 23:20, almost full 27:24, almost empty 31:28 */
        unsigned n = kind == 0 ? FIFO_DEPTH : kind == 2 ? 3 : 0;
        for (unsigned i = 0; i < n; i++) push(p, &s, k, (uint32_t)rng_next(&r));
        set_ctrl(p, &s, base | ien);
        prog_wait_irq(p, 0, 100);
        check(p, &s);
        if (kind == 3) { /* almost empty ends when the level reaches the threshold 4 */
            for (unsigned i = 0; i < 4; i++) push(p, &s, k, (uint32_t)rng_next(&r));
            check(p, &s);
        }
        set_ctrl(p, &s, 3); /* disabled: flags 0, the interrupt falls */
        check(p, &s);
    }
    return 0;
}
