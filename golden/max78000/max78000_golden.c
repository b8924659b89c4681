/* MAX78000 golden model: APB decode, registers, memories, start/completion (spec sections 1, 2, 4).
 * The layer arithmetic is in max78000_layer.c. */
#include "max78000_golden.h"
#include "max78000_decode.h"
#include "max78000_regs.h"
#include "max78000_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

max78000_t *max78000_new(void)
{
    max78000_t *m = calloc(1, sizeof *m);
    if (m) max78000_reset(m);
    return m;
}

void max78000_free(max78000_t *m)
{
    if (m) {
        max78000_sbuf_clear(m);
        free(m->prerun);
    }
    free(m);
}

void max78000_reset(max78000_t *m)
{
    max78000_layer_hook_t hook = m->hook;
    void *ctx = m->hook_ctx;
    uint32_t(*prerun)[MAX78000_DMEM_WORDS] = m->prerun;
    max78000_sbuf_clear(m);
    memset(m, 0, sizeof *m);
    m->hook = hook;
    m->hook_ctx = ctx;
    m->prerun = prerun; /* a buffer only: run_stoppable is false */
    m->fifo_ctrl = MAX78000_FIFO_CTRL_RESET;
    m->aod_ctrl = MAX78000_AOD_CTRL_RESET;
    for (unsigned q = 0; q < MAX78000_NQUAD; q++) {
        m->q[q].ctrl = MAX78000_CTRL_RESET;
        m->q[q].sram = MAX78000_SRAM_RESET;
    }
}

void max78000_set_layer_hook(max78000_t *m, max78000_layer_hook_t hook, void *ctx)
{
    m->hook = hook;
    m->hook_ctx = ctx;
}

static uint32_t lane_mask(uint8_t strb) { return max78000_lanes_bm(strb); }

/* D03: only writable bits of strobed bytes change. */
static void reg_write(uint32_t *reg, uint32_t data, uint8_t strb, uint32_t wmask)
{
    uint32_t m = lane_mask(strb) & wmask;
    *reg = (*reg & ~m) | (data & m);
}

bool max78000_irq(const max78000_t *m)
{
    for (unsigned q = 0; q < MAX78000_NQUAD; q++)
        if (m->q[q].ctrl & MAX78000_CTRL_CNN_IRQ_MASK) return true;
    return max78000_fifo_irq(m);
}

bool max78000_waiting(const max78000_t *m) { return m->fifo_wait; }

/* D44: cnn_irq in every quadrant whose cnn_en is 1 (remembered, for a stop to take back). */
static void set_done(max78000_t *m)
{
    m->run_irq_set = 0;
    for (unsigned q = 0; q < MAX78000_NQUAD; q++)
        if (m->q[q].ctrl & MAX78000_CTRL_CNN_EN_MASK) {
            if (!(m->q[q].ctrl & MAX78000_CTRL_CNN_IRQ_MASK)) m->run_irq_set |= (uint8_t)(1u << q);
            m->q[q].ctrl |= MAX78000_CTRL_CNN_IRQ_MASK;
        }
}

static void run_layer_hooked(max78000_t *m, unsigned y)
{
    max78000_run_layer(m, y);
    max78000_sbuf_next_layer(m);
    if (m->hook) m->hook(m->hook_ctx, m, y);
}

/* D42/D43: a start of master quadrant `master` that goes now (max78000_start, or the FIFO write that completed its
 * input). Oneshot runs one layer per start. */
static void run_now(max78000_t *m, unsigned master)
{
    const max78000_quad_t *mq = &m->q[master];
    unsigned last = REG_GET(mq->lcnt_max, MAX78000_LCNT_MAX_LCNT);
    m->runs++;
    /* what a stop needs to re-run this run up to any of its layers: its start state (streaming keeps state in the
       circular buffers as well, so a stop of a streaming run is not modelled) */
    bool stream = mq->ctrl & (MAX78000_CTRL_FIFO_EN_MASK | MAX78000_CTRL_STREAM_EN_MASK);
    if (!stream && !m->prerun) m->prerun = malloc(sizeof m->dmem);
    m->run_stoppable = !stream && m->prerun;
    if (m->run_stoppable) memcpy(m->prerun, m->dmem, sizeof m->dmem);
    m->run_master = master;
    m->run_layers0 = m->layers_run;
    m->run_macs0 = m->macs;
    if (mq->ctrl & MAX78000_CTRL_ONESHOT_MASK) {
        unsigned y = m->next_layer > last ? 0 : m->next_layer;
        m->run_first = m->run_last = y;
        run_layer_hooked(m, y);
        m->next_layer = (y >= last) ? 0 : y + 1;
    } else {
        m->run_first = 0;
        m->run_last = last;
        for (unsigned y = 0; y <= last; y++) run_layer_hooked(m, y);
        m->next_layer = 0;
    }
    set_done(m);
}

bool max78000_stop_after(max78000_t *m, unsigned last_done, char *why, size_t whylen)
{
    if (!m->run_stoppable) {
        snprintf(why, whylen, "%s",
                 m->runs == 0
                     ? "no run has started"
                     : "the run streams or takes FIFO input, or was stopped already: a stop of it is not modelled");
        return false;
    }
    if (last_done < m->run_first || last_done > m->run_last) {
        snprintf(why, whylen, "layer %u is not one of the run's layers %u..%u", last_done, m->run_first, m->run_last);
        return false;
    }
    /* the run again from its start, up to last_done: no hook (the scoreboard has these layers already) */
    memcpy(m->dmem, m->prerun, sizeof m->dmem);
    m->layers_run = m->run_layers0;
    m->macs = m->run_macs0;
    for (unsigned y = m->run_first; y <= last_done; y++) max78000_run_layer(m, y);
    max78000_clear_written(m);
    for (unsigned q = 0; q < MAX78000_NQUAD; q++)
        if (m->run_irq_set & (1u << q)) m->q[q].ctrl &= ~MAX78000_CTRL_CNN_IRQ_MASK;
    m->run_irq_set = 0;
    m->next_layer = 0;
    m->run_stoppable = false;
    return true;
}

static void ctrl_write(max78000_t *m, unsigned q, uint32_t data, uint8_t strb)
{
    uint32_t old = m->q[q].ctrl;
    reg_write(&m->q[q].ctrl, data, strb, MAX78000_CTRL_WMASK);
    m->run_irq_set &= (uint8_t) ~(1u << q); /* its cnn_irq bit is what was written now */
    uint32_t v = m->q[q].ctrl;
    unsigned ext = REG_GET(v, MAX78000_CTRL_EXT_SYNC);
    bool is_master = !(ext & 4) || (ext & 3) == q;
    if (!(old & MAX78000_CTRL_MLAT_LD_MASK) && (v & MAX78000_CTRL_MLAT_LD_MASK) && !(v & MAX78000_CTRL_CNN_EN_MASK)) {
        m->q[q].mlat_ptr = m->q[q].lreg[MAX78000_LR_WPTR_BASE][0] & 0x1FFFFu; /* 3.12 */
        m->q[q].mlat_primed = false;
    }
    if (!(old & MAX78000_CTRL_CNN_EN_MASK) && (v & MAX78000_CTRL_CNN_EN_MASK) && is_master && max78000_start(m, q))
        run_now(m, q);
    /* D13 simple1b is stored; flag the controls whose behaviour is missing. */
}

/* D15: zeroize / BIST of this quadrant's memories of class c (0 SRAM, 1 MRAM, 2 TRAM, 3 BRAM). */
static void zero_class(max78000_t *m, unsigned q, unsigned c)
{
    max78000_quad_t *Q = &m->q[q];
    switch (c) {
    case 0: memset(m->dmem[4 * q], 0, 4 * sizeof m->dmem[0]); break;
    case 1: memset(Q->mram, 0, sizeof Q->mram); break;
    case 2: memset(Q->tram, 0, sizeof Q->tram); break;
    default: memset(Q->bram, 0, sizeof Q->bram); break;
    }
}

static void test_write(max78000_t *m, unsigned q, uint32_t data, uint8_t strb)
{
    uint32_t old = m->q[q].test;
    reg_write(&m->q[q].test, data, strb, MAX78000_TEST_WMASK);
    uint32_t v = m->q[q].test;
    for (unsigned c = 0; c < 4; c++) {
        uint32_t bist = 1u << (2 * c), zero = 1u << (2 * c + 1);
        uint32_t bdone = 1u << (18 + c), zdone = 1u << (22 + c);
        if ((v & zero) && !(old & zero)) {
            zero_class(m, q, c);
            v |= zdone | MAX78000_TEST_ZERODONE_MASK;
        }
        if ((v & bist) && !(old & bist)) {
            zero_class(m, q, c);
            v |= bdone | MAX78000_TEST_BISTDONE_MASK;
        }
        if (!(v & zero)) v &= ~zdone;
        if (!(v & bist)) v &= ~bdone;
    }
    if (!(v & (0xFu << 22))) v &= ~MAX78000_TEST_ZERODONE_MASK;
    if (!(v & (0xFu << 18))) v &= ~MAX78000_TEST_BISTDONE_MASK;
    m->q[q].test = v;
}

/* MRAM write (spec 3.3, D29 non-express, D30 express). */
static void mram_write(max78000_t *m, const max78000_dec_t *d, uint32_t addr, uint32_t data, uint8_t strb)
{
    max78000_quad_t *Q = &m->q[d->q];
    if (Q->ctrl & MAX78000_CTRL_MEXPRESS_MASK) {
        if (addr & 3) { /* set-address */
            Q->xp_valid = true;
            Q->xp_proc = (addr >> 14) & 15;
            Q->xp_word = (addr >> 2) & 0xFFF;
            Q->xp_nbytes = 0;
            return;
        }
        if (!Q->xp_valid) {
            if (!m->unsupported[0])
                snprintf(m->unsupported, sizeof m->unsupported,
                         "express MRAM data write 0x%08x before any set-address write (ignored)", addr);
            return;
        }
        for (int b = 3; b >= 0; b--) {
            if (!(strb & (1u << b))) continue;
            Q->xp_buf[8 - Q->xp_nbytes] = (uint8_t)(data >> (8 * b));
            if (++Q->xp_nbytes == 9) {
                if (Q->xp_word < MAX78000_MRAM_WORDS) memcpy(Q->mram[Q->xp_proc][Q->xp_word], Q->xp_buf, 9);
                Q->xp_word++;
                Q->xp_nbytes = 0;
            }
        }
        return;
    }
    unsigned part = d->idx2; /* (t>>2)&3 */
    uint8_t *st = Q->stage;
    for (unsigned b = 0; b < 4; b++) {
        if (!(strb & (1u << b))) continue;
        uint8_t byte = (uint8_t)(data >> (8 * b));
        if (part == 0 && b == 0) st[8] = byte;
        else if (part == 1) st[4 + b] = byte;
        else if (part == 2) st[b] = byte;
    }
    if (part == 3) memcpy(Q->mram[d->proc][d->idx], st, 9);
}

static uint32_t mram_read(const max78000_t *m, const max78000_dec_t *d)
{
    const uint8_t *w = m->q[d->q].mram[d->proc][d->idx];
    switch (d->idx2) {
    case 0: return w[8];
    case 1: return (uint32_t)w[4] | (uint32_t)w[5] << 8 | (uint32_t)w[6] << 16 | (uint32_t)w[7] << 24;
    case 2: return (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
    default: return 0;
    }
}

static unsigned wait_states(const max78000_t *m, const max78000_dec_t *d)
{
    switch (d->kind) {
    case DEC_INVALID: return 0;
    case DEC_FF_CR:
    case DEC_FF_SR:
    case DEC_FF_IE:
    case DEC_FF_IS:
    case DEC_FF_DR: return 0; /* no rdy_sel */
    case DEC_FIFO_CTRL:
    case DEC_FIFO_STAT:
    case DEC_FIFO_WR: return REG_GET(m->fifo_ctrl, MAX78000_FIFO_CTRL_RDY_SEL);
    case DEC_AOD_CTRL: return REG_GET(m->aod_ctrl, MAX78000_AOD_CTRL_RDY_SEL);
    default: return REG_GET(m->q[d->q].ctrl, MAX78000_CTRL_RDY_SEL);
    }
}

max78000_resp_t max78000_apb_write(max78000_t *m, uint32_t addr, uint32_t data, uint8_t strb)
{
    max78000_dec_t d = max78000_decode(addr);
    max78000_resp_t r = {0, d.kind == DEC_INVALID, wait_states(m, &d)};
    max78000_quad_t *Q = &m->q[d.q];
    switch (d.kind) {
    case DEC_INVALID: break;
    case DEC_FIFO_CTRL: reg_write(&m->fifo_ctrl, data, strb, MAX78000_FIFO_CTRL_WMASK); break;
    case DEC_FIFO_STAT: break;
    case DEC_FIFO_WR:
        if (strb == 0xF) {
            if (max78000_fifo_write(m, d.idx, data)) run_now(m, m->fifo_master);
        } else if (!m->unsupported[0])
            snprintf(m->unsupported, sizeof m->unsupported,
                     "FIFO_WR%u write with PSTRB 0x%x (only whole words are "
                     "specified)",
                     d.idx, strb);
        break;
    case DEC_AOD_CTRL: reg_write(&m->aod_ctrl, data, strb, MAX78000_AOD_CTRL_WMASK); break;
    case DEC_FF_CR: reg_write(&m->ff_cr, data, strb, MAX78000_FF_CR_WMASK); break;
    case DEC_FF_SR: break;
    case DEC_FF_IE: reg_write(&m->ff_ie, data, strb, MAX78000_FF_IE_WMASK); break;
    case DEC_FF_IS: reg_write(&m->ff_is, data, strb, MAX78000_FF_IS_WMASK); break;
    case DEC_FF_DR:
        if (strb == 0xF) {
            if (max78000_ffifo_write(m, data)) run_now(m, m->fifo_master);
        } else if (!m->unsupported[0])
            snprintf(m->unsupported, sizeof m->unsupported,
                     "FF_DR write with PSTRB 0x%x (only whole words are "
                     "specified)",
                     strb);
        break;
    case DEC_CTRL: ctrl_write(m, d.q, data, strb); break;
    case DEC_SRAM: reg_write(&Q->sram, data, strb, MAX78000_SRAM_WMASK); break;
    case DEC_LCNT_MAX: reg_write(&Q->lcnt_max, data, strb, MAX78000_LCNT_MAX_WMASK); break;
    case DEC_TEST: test_write(m, d.q, data, strb); break;
    case DEC_LREG: reg_write(&Q->lreg[d.idx2][d.idx], data, strb, max78000_lreg_wmask[d.idx2]); break;
    case DEC_STRM0: reg_write(&Q->strm0[d.idx], data, strb, MAX78000_STRM0_WMASK); break;
    case DEC_STRM1: reg_write(&Q->strm1[d.idx], data, strb, MAX78000_STRM1_WMASK); break;
    case DEC_FBUF: reg_write(&Q->fbuf[d.idx], data, strb, MAX78000_FBUF_WMASK); break;
    case DEC_IFRM: reg_write(&Q->ifrm, data, strb, MAX78000_IFRM_WMASK); break;
    case DEC_LCTRL1: reg_write(&Q->lctrl1[d.idx], data, strb, MAX78000_LCTRL1_WMASK); break;
    case DEC_MLAT: break;
    case DEC_BRAM:
        if (strb & 1) Q->bram[d.idx] = (uint8_t)data;
        break;
    case DEC_TRAM: {
        uint16_t *t = &Q->tram[d.proc][d.idx];
        if (strb & 1) *t = (uint16_t)((*t & 0xFF00u) | (data & 0xFFu));
        if (strb & 2) *t = (uint16_t)((*t & 0x00FFu) | (data & 0xFF00u));
        break;
    }
    case DEC_MRAM: mram_write(m, &d, addr, data, strb); break;
    case DEC_DSRAM: {
        uint32_t bm = lane_mask(strb);
        uint32_t *w = &m->dmem[d.idx2][d.idx];
        *w = (*w & ~bm) | (data & bm);
        break;
    }
    }
    return r;
}

/* 3.12 (unverified): lane mlatch_sel of words ptr, ptr+d, ptr+2d, ptr+3d (d = layer 0's wptr_inc + 1),
 * first word in bits 7:0; the first read after a load primes and returns the first group without moving. */
static uint32_t mlat_read(max78000_t *m, unsigned q)
{
    max78000_quad_t *Q = &m->q[q];
    uint32_t d = REG_GET(Q->lctrl1[0], MAX78000_LCTRL1_WPTR_INC) + 1, lane = REG_GET(Q->ctrl, MAX78000_CTRL_MLATCH_SEL),
             v = 0;
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t p = (Q->mlat_ptr + i * d) & 0x1FFFFu;
        v |= ((m->dmem[p >> 13][p & 0x1FFF] >> (8 * lane)) & 0xFFu) << (8 * i);
    }
    if (Q->mlat_primed) Q->mlat_ptr = (Q->mlat_ptr + 4 * d) & 0x1FFFFu;
    Q->mlat_primed = true;
    return v;
}

max78000_resp_t max78000_apb_read(max78000_t *m, uint32_t addr)
{
    max78000_dec_t d = max78000_decode(addr);
    max78000_resp_t r = {0, d.kind == DEC_INVALID, wait_states(m, &d)};
    const max78000_quad_t *Q = &m->q[d.q];
    switch (d.kind) {
    case DEC_INVALID:
    case DEC_FIFO_WR:
    case DEC_FF_DR: break;
    case DEC_FF_CR: r.rdata = m->ff_cr; break;
    case DEC_FF_SR: r.rdata = max78000_ffifo_stat(m); break;
    case DEC_FF_IE: r.rdata = m->ff_ie; break;
    case DEC_FF_IS: r.rdata = m->ff_is; break;
    case DEC_MLAT: r.rdata = mlat_read(m, d.q); break;
    case DEC_FIFO_STAT: r.rdata = max78000_fifo_stat(m); break;
    case DEC_FIFO_CTRL: r.rdata = m->fifo_ctrl; break;
    case DEC_AOD_CTRL: r.rdata = m->aod_ctrl; break;
    case DEC_CTRL: r.rdata = Q->ctrl; break;
    case DEC_SRAM: r.rdata = Q->sram; break;
    case DEC_LCNT_MAX: r.rdata = Q->lcnt_max; break;
    case DEC_TEST: r.rdata = Q->test; break;
    case DEC_LREG: r.rdata = Q->lreg[d.idx2][d.idx]; break;
    case DEC_STRM0: r.rdata = Q->strm0[d.idx]; break;
    case DEC_STRM1: r.rdata = Q->strm1[d.idx]; break;
    case DEC_FBUF: r.rdata = Q->fbuf[d.idx]; break;
    case DEC_IFRM: r.rdata = Q->ifrm; break;
    case DEC_LCTRL1: r.rdata = Q->lctrl1[d.idx]; break;
    case DEC_BRAM: r.rdata = Q->bram[d.idx]; break;
    case DEC_TRAM: r.rdata = Q->tram[d.proc][d.idx]; break;
    case DEC_MRAM: r.rdata = mram_read(m, &d); break;
    case DEC_DSRAM: r.rdata = m->dmem[d.idx2][d.idx]; break;
    }
    return r;
}

uint32_t max78000_dmem_word(const max78000_t *m, unsigned g, unsigned w)
{
    return m->dmem[g & 15][w & (MAX78000_DMEM_WORDS - 1)];
}

uint32_t max78000_dmem_addr(unsigned g, unsigned w)
{
    return MAX78000_QUAD_ADDR(g >> 2, 0x300000u + (g & 3) * 0x8000u + 4u * w);
}

bool max78000_dmem_at(const max78000_t *m, uint32_t addr, uint32_t *value)
{
    max78000_dec_t d = max78000_decode(addr);
    if (d.kind != DEC_DSRAM) return false;
    *value = m->dmem[d.idx2][d.idx];
    return true;
}

void max78000_mram_word(const max78000_t *m, unsigned p, unsigned w, uint8_t *hi, uint64_t *lo)
{
    const uint8_t *b = m->q[(p >> 4) & 3].mram[p & 15][w % MAX78000_MRAM_WORDS];
    uint64_t v = 0;
    for (int s = 7; s >= 0; s--) v = v << 8 | b[s];
    *hi = b[8];
    *lo = v;
}

void max78000_clear_written(max78000_t *m) { memset(m->dwritten, 0, sizeof m->dwritten); }
