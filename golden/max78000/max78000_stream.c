/* MAX78000 golden model: FIFO input (D10, D46) and circular streaming buffers (2.4), M3.
 * The model computes every layer on the whole frame once its input is there (2.4: the outputs must equal
 * those of the network computed without streaming). A run started with CTRL.fifo_en waits until every
 * enabled FIFO k has delivered IFRM[k] words; while it waits, each word written into a FIFO is taken at
 * once (the FIFO never fills, as with an engine that keeps up). Words land where the hardware puts them:
 * memory 4k at layer 0's RPTR_BASE + offset, wrapped at FBUF[0] when the buffer is circular. A circular
 * buffer (CTRL.stream_en and lilbuf, FBUF[y] != 0) keeps its whole logical contents beside the wrapped
 * memory, so the next layer reads the frame the previous layer wrote even where the memory has been
 * overwritten (ai8x-synthesis apbaccess.py: offs = (offs - out_offset) % (rollover*4) + out_offset). */
#include "max78000_stream.h"
#include "max78000_regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void max78000_sbuf_put(max78000_sbuf_t *b, size_t off, unsigned lane_bits, uint32_t v)
{
    if (off >= b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap <= off) cap *= 2;
        uint32_t *nw = realloc(b->w, cap * sizeof *nw);
        if (!nw) return; /* the read then falls back to memory: a mismatch, never silent */
        memset(nw + b->cap, 0, (cap - b->cap) * sizeof *nw);
        b->w = nw;
        b->cap = cap;
    }
    uint32_t bm = max78000_lanes_bm(lane_bits);
    b->w[off] = (b->w[off] & ~bm) | (v & bm);
    if (off + 1 > b->n) b->n = off + 1;
}

bool max78000_sbuf_get(const max78000_sbuf_t *b, size_t off, uint32_t *w)
{
    if (!b->n) return false;
    *w = off < b->n ? b->w[off] : 0;
    return true;
}

static void sbuf_free(max78000_sbuf_t *b)
{
    free(b->w);
    memset(b, 0, sizeof *b);
}

void max78000_sbuf_next_layer(max78000_t *m)
{
    for (unsigned g = 0; g < MAX78000_NDMEM; g++) {
        sbuf_free(&m->lin[g]);
        m->lin[g] = m->lout[g];
        memset(&m->lout[g], 0, sizeof m->lout[g]);
    }
}

void max78000_sbuf_clear(max78000_t *m)
{
    for (unsigned g = 0; g < MAX78000_NDMEM; g++) {
        sbuf_free(&m->lin[g]);
        sbuf_free(&m->lout[g]);
    }
}

/* The circular read buffer of layer y in quadrant q: FBUF[y], or 0 when the layer reads plain memory. */
static uint32_t roll_of(const max78000_t *m, unsigned q, unsigned y)
{
    uint32_t c = m->q[q].ctrl;
    if (y >= MAX78000_NSTREAM || !(c & MAX78000_CTRL_STREAM_EN_MASK) || !(c & MAX78000_CTRL_LILBUF_MASK)) return 0;
    return m->q[q].fbuf[y] & 0x1FFFFu;
}

/* The fast FIFO takes FIFO 0's place while quadrant 0's CTRL.ffifo_en is set (ai8x-synthesis writes no
 * FIFO_CTRL then). */
static bool ff_feeds(const max78000_t *m) { return (m->q[0].ctrl & MAX78000_CTRL_FFIFO_EN_MASK) != 0; }

bool max78000_qupac(const max78000_t *m) { return ff_feeds(m) && (m->q[0].ctrl & MAX78000_CTRL_QUPAC_MASK); }

/* One FIFO word into layer 0's input (D46); with qupac the fast FIFO's word goes to memory 4q of every
 * quadrant q (processors 16q..16q+3), each at its own layer 0's RPTR_BASE and circular buffer. */
static void deliver(max78000_t *m, unsigned k, uint32_t word)
{
    uint32_t off = m->fifo_taken[k]++;
    unsigned last = k == 0 && max78000_qupac(m) ? 3 : k;
    for (unsigned q = k; q <= last; q++) {
        unsigned g = 4 * q;
        uint32_t rptr = m->q[q].lreg[MAX78000_LR_RPTR_BASE][0] & 0x1FFFu;
        uint32_t roll = roll_of(m, q, 0);
        m->dmem[g][(rptr + (roll ? off % roll : off)) & 0x1FFFu] = word;
        if (roll) max78000_sbuf_put(&m->lin[g], off, 0xF, word);
    }
}

static uint32_t ifrm(const max78000_t *m, unsigned k) { return m->q[k].ifrm & 0xFFFFFu; }

/* The FIFOs that feed layer 0. */
static unsigned sources(const max78000_t *m)
{
    return REG_GET(m->fifo_ctrl, MAX78000_FIFO_CTRL_FIFO_EN) | (ff_feeds(m) ? 1u : 0u);
}

/* Head word of the source of FIFO k, removed; false when it is empty. */
static bool src_pop(max78000_t *m, unsigned k, uint32_t *w)
{
    uint32_t *q = m->fifo[k];
    unsigned *lvl = &m->fifo_level[k], depth = MAX78000_FIFO_DEPTH;
    if (k == 0 && ff_feeds(m)) {
        q = m->ff;
        lvl = &m->ff_level;
        depth = MAX78000_FFIFO_DEPTH;
    }
    if (!*lvl) return false;
    *w = q[0];
    memmove(q, q + 1, (depth - 1) * sizeof *q);
    (*lvl)--;
    return true;
}

/* Takes what the waiting run needs from the FIFOs; true (the run may go) once every enabled FIFO has delivered
 * IFRM. */
static bool drain(max78000_t *m)
{
    if (!m->fifo_wait) return false;
    unsigned en = sources(m);
    bool done = en != 0;
    uint32_t w;
    for (unsigned k = 0; k < 4; k++) {
        if (!(en & (1u << k))) continue;
        while (m->fifo_taken[k] < ifrm(m, k) && src_pop(m, k, &w)) deliver(m, k, w);
        if (m->fifo_taken[k] < ifrm(m, k)) done = false;
    }
    if (done) m->fifo_wait = false;
    return done;
}

/* The fast FIFO as ai8x-synthesis uses it is ffifo_en with fifogrp in quadrant 0 (processors 0-3), with or
 * without qupac (--fast-fifo-quad). Its other uses have no evidence of what the hardware does: fifogrp = 0
 * would route bytes to processors 0/16/32/48, and qupac without the fast FIFO has nothing to broadcast. A run
 * with them is refused when it starts (a register write alone changes nothing). */
static void fast_fifo_refusals(max78000_t *m)
{
    for (unsigned q = 0; q < 4 && !m->unsupported[0]; q++) {
        uint32_t v = m->q[q].ctrl;
        if ((v & MAX78000_CTRL_FFIFO_EN_MASK) && (q != 0 || !(v & MAX78000_CTRL_FIFOGRP_MASK)))
            snprintf(m->unsupported, sizeof m->unsupported,
                     "quadrant %u CTRL=0x%08x: fast-FIFO input other than "
                     "into quadrant 0 with fifogrp (M3) not modelled",
                     q, v);
        else if ((v & MAX78000_CTRL_QUPAC_MASK) && !ff_feeds(m))
            snprintf(m->unsupported, sizeof m->unsupported,
                     "quadrant %u CTRL=0x%08x: qupac (fast-FIFO x16 "
                     "broadcast, M3) without the fast FIFO feeding quadrant 0 not modelled",
                     q, v);
        else if (max78000_qupac(m) && REG_GET(m->fifo_ctrl, MAX78000_FIFO_CTRL_FIFO_EN))
            snprintf(m->unsupported, sizeof m->unsupported,
                     "qupac with FIFO_CTRL.fifo_en 0x%x: the fast FIFO feeds "
                     "every quadrant then (ai8xize writes no FIFO_CTRL)",
                     REG_GET(m->fifo_ctrl, MAX78000_FIFO_CTRL_FIFO_EN));
        else if (max78000_qupac(m) && ifrm(m, q) != ifrm(m, 0))
            snprintf(m->unsupported, sizeof m->unsupported,
                     "qupac with IFRM 0x%x in quadrant %u and 0x%x in quadrant "
                     "0: every quadrant takes each broadcast word (ai8xize writes the same IFRM in all four)",
                     ifrm(m, q), q, ifrm(m, 0));
    }
}

bool max78000_start(max78000_t *m, unsigned master)
{
    fast_fifo_refusals(m);
    bool first = !(m->q[master].ctrl & MAX78000_CTRL_ONESHOT_MASK) || m->next_layer == 0;
    if (!(m->q[master].ctrl & MAX78000_CTRL_FIFO_EN_MASK)) {
        if (first) max78000_sbuf_clear(m);
        return true;
    }
    m->fifo_wait = true;
    m->fifo_master = master;
    memset(m->fifo_taken, 0, sizeof m->fifo_taken);
    max78000_sbuf_clear(m);
    unsigned en = sources(m);
    for (unsigned k = 0; k < 4; k++)
        if ((en & (1u << k)) && !ifrm(m, k) && !m->unsupported[0])
            snprintf(m->unsupported, sizeof m->unsupported,
                     "FIFO %u enabled with IFRM = 0 in quadrant %u: the run would wait for ever", k, k);
    return drain(m);
}

bool max78000_fifo_write(max78000_t *m, unsigned k, uint32_t data)
{
    k &= 3;
    if (!(REG_GET(m->fifo_ctrl, MAX78000_FIFO_CTRL_FIFO_EN) & (1u << k)) || m->fifo_level[k] >= MAX78000_FIFO_DEPTH)
        return false; /* dropped (2.1) */
    m->fifo[k][m->fifo_level[k]++] = data;
    return drain(m);
}

bool max78000_ffifo_write(max78000_t *m, uint32_t data)
{
    if (m->ff_level >= MAX78000_FFIFO_DEPTH) return false; /* dropped, as the APB FIFOs drop (2.1) */
    m->ff[m->ff_level++] = data;
    return drain(m);
}

uint32_t max78000_ffifo_stat(const max78000_t *m)
{
    return (uint32_t)(m->ff_level == MAX78000_FFIFO_DEPTH) << 1 | (uint32_t)(m->ff_level == 0);
}

uint32_t max78000_fifo_stat(const max78000_t *m)
{
    unsigned en = REG_GET(m->fifo_ctrl, MAX78000_FIFO_CTRL_FIFO_EN);
    unsigned et = REG_GET(m->fifo_ctrl, MAX78000_FIFO_CTRL_EMPTY_THRESH),
             ft = REG_GET(m->fifo_ctrl, MAX78000_FIFO_CTRL_FULL_THRESH);
    uint32_t full = 0, empty = 0, afull = 0, aempty = 0;
    for (unsigned k = 0; k < 4; k++) {
        if (!(en & (1u << k))) continue; /* D10: a disabled FIFO's flags read 0 */
        unsigned l = m->fifo_level[k];
        full |= (uint32_t)(l == MAX78000_FIFO_DEPTH) << k;
        empty |= (uint32_t)(l == 0) << k;
        afull |= (uint32_t)(l > ft) << k;
        aempty |= (uint32_t)(l < et) << k;
    }
    uint32_t v = full | empty << 4 | afull << 8 | aempty << 12;
    if (en && full == en) v |= 1u << 16;
    if (empty) v |= 1u << 17;
    if (en && afull == en) v |= 1u << 18;
    if (aempty) v |= 1u << 19;
    return v;
}

bool max78000_fifo_irq(const max78000_t *m)
{
    uint32_t s = max78000_fifo_stat(m), c = m->fifo_ctrl;
    return ((s & 0xFu) & REG_GET(c, MAX78000_FIFO_CTRL_FULL_INT_EN)) ||
           (((s >> 4) & 0xFu) & REG_GET(c, MAX78000_FIFO_CTRL_EMPTY_INT_EN)) ||
           (((s >> 8) & 0xFu) & REG_GET(c, MAX78000_FIFO_CTRL_ALMOST_FULL_INT_EN)) ||
           (((s >> 12) & 0xFu) & REG_GET(c, MAX78000_FIFO_CTRL_ALMOST_EMPTY_INT_EN));
}
