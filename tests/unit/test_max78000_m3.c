/* The MAX78000 golden model's M3 register behaviour that no ai8xize program of ../shared exercises on
 * its own: FIFO_STAT flags and thresholds (D10), words dropped by a full or disabled FIFO, the FIFO interrupt,
 * the mlator (3.12), and the fast FIFO (its words, flags, qupac broadcast and refusals). The FIFO-fed runs and
 * streaming layers are covered by test_max78000_ai8x and the programs of vectors/max78000/ai8x_fastfifo. */
#include "unit.h"

#include "max78000_golden.h"
#include "max78000_regs.h"

#include <string.h>

#define FIFO_CTRL 0x50000000u
#define FIFO_STAT 0x50000004u
#define FIFO_WR(k) (0x50000008u + 4u * (k))
#define Q0 0x50100000u

static uint32_t rd(max78000_t *m, uint32_t a) { return max78000_apb_read(m, a).rdata; }
static void wr(max78000_t *m, uint32_t a, uint32_t v) { max78000_apb_write(m, a, v, 0xF); }

static void test_fifo_flags(unit_t *u)
{
    max78000_t *m = max78000_new();
    CHECK_EQ(rd(m, FIFO_STAT), 0u); /* all disabled: flags read 0 */
    /* FIFOs 0 and 1 on, empty threshold 2, full threshold 5; no run waits, so words stay */
    wr(m, FIFO_CTRL, 0x3u << 12 | 2u << 7 | 5u << 2);
    CHECK_EQ(rd(m, FIFO_STAT), 0x3u << 4 | 0x3u << 12 | 1u << 17 | 1u << 19);
    for (unsigned i = 0; i < 6; i++) wr(m, FIFO_WR(0), i);
    /* FIFO 0: level 6 > 5 almost full; FIFO 1 empty */
    CHECK_EQ(rd(m, FIFO_STAT), 0x2u << 4 | 0x1u << 8 | 0x2u << 12 | 1u << 17 | 1u << 19);
    for (unsigned i = 0; i < 4; i++) wr(m, FIFO_WR(0), i); /* 2 fit, 2 dropped */
    CHECK_EQ(m->fifo_level[0], 8u);
    CHECK_EQ(rd(m, FIFO_STAT) & 0x1u, 1u); /* full[0] */
    wr(m, FIFO_WR(2), 7);                  /* disabled: dropped */
    CHECK_EQ(m->fifo_level[2], 0u);
    CHECK(!max78000_irq(m), "no FIFO interrupt enabled");
    wr(m, FIFO_CTRL, 0x3u << 12 | 2u << 7 | 5u << 2 | 1u << 16); /* full_int_en[0] */
    CHECK(max78000_irq(m), "full FIFO 0 with full_int_en[0] raises irq");
    max78000_free(m);
}

/* The fast FIFO (0x400C_0400): FF_SR {full, empty}, 16 words then drops; with quadrant 0's ffifo_en and
 * fifogrp its words are layer 0's input of quadrant 0 in place of FIFO 0's (which keeps its own words); with
 * qupac too, of every quadrant (memory 4q at its own RPTR_BASE). Refused when a run starts: qupac without the
 * fast FIFO, qupac with IFRMs that differ or with APB FIFOs enabled, fifogrp = 0. */
#define FF_SR (MAX78000_FFIFO_BASE + MAX78000_FF_SR_OFF)
#define FF_DR (MAX78000_FFIFO_BASE + MAX78000_FF_DR_OFF)

/* Every quadrant's IFRM (ifrm_q2 in quadrant 2, 3 elsewhere) and CTRL with qupac and fifo_en; quadrants 1-3
 * get cnn_en as slaves of quadrant 0 (ext_sync 4), as ai8xize enables them. */
static void qupac_quadrants(max78000_t *m, uint32_t ifrm_q2)
{
    for (unsigned q = 0; q < 4; q++) {
        wr(m, Q0 + 0x400000u * q + 0x990, q == 2 ? ifrm_q2 : 3);
        wr(m, Q0 + 0x400000u * q, MAX78000_CTRL_QUPAC_MASK | MAX78000_CTRL_FIFO_EN_MASK | (q ? 0x801u : 0u));
    }
}

static void test_fast_fifo(unit_t *u)
{
    max78000_t *m = max78000_new();
    CHECK_EQ(rd(m, FF_SR), 1u);                        /* empty */
    for (unsigned i = 0; i < 17; i++) wr(m, FF_DR, i); /* no run waits: 16 stay, the 17th is dropped */
    CHECK_EQ(m->ff_level, 16u);
    CHECK_EQ(rd(m, FF_SR), 2u); /* full */
    CHECK_EQ(rd(m, FF_DR), 0u); /* write-only */
    max78000_apb_write(m, FF_DR, 5, 0x1);
    CHECK(strstr(m->unsupported, "FF_DR write with PSTRB") != NULL, "partial FF_DR write refused: '%s'",
          m->unsupported);
    max78000_free(m);

    m = max78000_new();
    wr(m, FIFO_CTRL, 1u << 12);         /* APB FIFO 0 enabled too: it keeps its words */
    wr(m, Q0 + 0x10 + 10 * 0x80, 0x40); /* L0 RPTR_BASE */
    wr(m, Q0 + 0x990, 3);               /* IFRM */
    uint32_t c = MAX78000_CTRL_FIFO_EN_MASK | MAX78000_CTRL_FFIFO_EN_MASK | MAX78000_CTRL_FIFOGRP_MASK;
    wr(m, Q0, c);
    wr(m, Q0, c | MAX78000_CTRL_CNN_EN_MASK); /* the run waits for 3 words */
    wr(m, FIFO_WR(0), 0xdead);
    wr(m, FF_DR, 0x11223344);
    wr(m, FF_DR, 0x55667788);
    CHECK(m->fifo_wait, "the run still waits (2 of 3 words)");
    CHECK_EQ(m->fifo_taken[0], 2u);
    CHECK_EQ(m->ff_level, 0u);
    CHECK_EQ(m->fifo_level[0], 1u);
    CHECK_EQ(rd(m, 0x50400000u + 4u * 0x40), 0x11223344u); /* memory 0 at RPTR_BASE */
    CHECK_EQ(rd(m, 0x50400000u + 4u * 0x41), 0x55667788u);
    CHECK(!m->unsupported[0], "nothing refused: '%s'", m->unsupported);
    max78000_free(m);

    m = max78000_new();
    for (unsigned q = 0; q < 4; q++)
        wr(m, Q0 + 0x400000u * q + 0x10 + 10 * 0x80, 0x40 + q); /* L0 RPTR_BASE differs per quadrant */
    qupac_quadrants(m, 3);
    wr(m, Q0, c | MAX78000_CTRL_QUPAC_MASK);
    wr(m, Q0, c | MAX78000_CTRL_QUPAC_MASK | MAX78000_CTRL_CNN_EN_MASK);
    wr(m, FF_DR, 0xa1b2c3d4);
    for (unsigned q = 0; q < 4; q++)
        CHECK_EQ(rd(m, 0x50400000u + 0x400000u * q + 4u * (0x40 + q)), 0xa1b2c3d4u); /* memory 4q */
    CHECK_EQ(m->fifo_taken[0], 1u);
    CHECK(!m->unsupported[0], "qupac with the fast FIFO runs: '%s'", m->unsupported);
    max78000_free(m);

    m = max78000_new();
    wr(m, Q0 + 0x400000u, MAX78000_CTRL_QUPAC_MASK); /* quadrant 1: qupac, no fast FIFO */
    CHECK(!m->unsupported[0], "a register write alone is not refused");
    wr(m, Q0, MAX78000_CTRL_CNN_EN_MASK);
    CHECK(strstr(m->unsupported, "qupac") != NULL, "qupac without the fast FIFO refused at the start: '%s'",
          m->unsupported);
    max78000_free(m);

    m = max78000_new();
    qupac_quadrants(m, 5);
    wr(m, Q0, c | MAX78000_CTRL_QUPAC_MASK | MAX78000_CTRL_CNN_EN_MASK);
    CHECK(strstr(m->unsupported, "IFRM 0x5 in quadrant 2") != NULL, "qupac with differing IFRMs refused: '%s'",
          m->unsupported);
    max78000_free(m);

    m = max78000_new();
    wr(m, FIFO_CTRL, 2u << 12); /* APB FIFO 1 enabled beside qupac */
    for (unsigned q = 0; q < 4; q++) wr(m, Q0 + 0x400000u * q + 0x990, 3);
    wr(m, Q0, c | MAX78000_CTRL_QUPAC_MASK | MAX78000_CTRL_CNN_EN_MASK);
    CHECK(strstr(m->unsupported, "qupac with FIFO_CTRL.fifo_en 0x2") != NULL, "qupac with APB FIFOs refused: '%s'",
          m->unsupported);
    max78000_free(m);

    m = max78000_new();
    wr(m, Q0 + 0x990, 3);
    wr(m, Q0, MAX78000_CTRL_FIFO_EN_MASK | MAX78000_CTRL_FFIFO_EN_MASK); /* fifogrp = 0 */
    wr(m, Q0, MAX78000_CTRL_FIFO_EN_MASK | MAX78000_CTRL_FFIFO_EN_MASK | MAX78000_CTRL_CNN_EN_MASK);
    CHECK(strstr(m->unsupported, "fifogrp") != NULL, "fifogrp = 0 refused: '%s'", m->unsupported);
    max78000_free(m);
}

static void test_mlator(unit_t *u)
{
    max78000_t *m = max78000_new();
    for (unsigned w = 0; w < 16; w++) /* memory 0 words 0x10.. : lane 1 = 0x10 + w */
        wr(m, 0x50400000u + 4u * (0x10 + w), (0x10u + w) << 8 | 0xAAu);
    wr(m, Q0 + 0x310, 0x10);        /* L0 WPTR_BASE */
    wr(m, Q0 + 0xA10, 1u << 4);     /* L0 wptr_inc = 1: d = 2 */
    wr(m, Q0, 1u << 17);            /* mlatch_sel = 1 */
    wr(m, Q0, 1u << 17 | 1u << 16); /* mlat_ld 0 -> 1 */
    uint32_t g0 = 0x10u | 0x12u << 8 | 0x14u << 16 | 0x16u << 24;
    CHECK_EQ(rd(m, Q0 + 0x1000), g0); /* prime read */
    CHECK_EQ(rd(m, Q0 + 0x1000), g0);
    CHECK_EQ(rd(m, Q0 + 0x1000), 0x18u | 0x1Au << 8 | 0x1Cu << 16 | 0x1Eu << 24);
    max78000_free(m);
}

int main(void)
{
    unit_t uu = {.name = "test_max78000_m3"}, *u = &uu;
    UNIT_RUN(u, test_fifo_flags);
    UNIT_RUN(u, test_mlator);
    UNIT_RUN(u, test_fast_fifo);
    return unit_done(u);
}
