/* The MAX78000 golden model's M3 register behaviour that no ai8xize program of ../shared exercises on
 * its own: FIFO_STAT flags and thresholds (D10), words dropped by a full or disabled FIFO, the FIFO interrupt,
 * and the mlator (3.12). The FIFO-fed runs and streaming layers are covered by test_max78000_ai8x. */
#include "unit.h"

#include "max78000_golden.h"
#include "max78000_regs.h"

#define FIFO_CTRL 0x50000000u
#define FIFO_STAT 0x50000004u
#define FIFO_WR(k) (0x50000008u + 4u * (k))
#define Q0 0x50100000u

static uint32_t rd(max78000_t *m, uint32_t a) { return max78000_apb_read(m, a).rdata; }
static void wr(max78000_t *m, uint32_t a, uint32_t v) { max78000_apb_write(m, a, v, 0xF); }

static void test_fifo_flags(unit_t *u)
{
    max78000_t *m = max78000_new();
    CHECK_EQ(rd(m, FIFO_STAT), 0u);                      /* all disabled: flags read 0 */
    /* FIFOs 0 and 1 on, empty threshold 2, full threshold 5; no run waits, so words stay */
    wr(m, FIFO_CTRL, 0x3u << 12 | 2u << 7 | 5u << 2);
    CHECK_EQ(rd(m, FIFO_STAT), 0x3u << 4 | 0x3u << 12 | 1u << 17 | 1u << 19);
    for (unsigned i = 0; i < 6; i++) wr(m, FIFO_WR(0), i);
    /* FIFO 0: level 6 > 5 almost full; FIFO 1 empty */
    CHECK_EQ(rd(m, FIFO_STAT), 0x2u << 4 | 0x1u << 8 | 0x2u << 12 | 1u << 17 | 1u << 19);
    for (unsigned i = 0; i < 4; i++) wr(m, FIFO_WR(0), i);   /* 2 fit, 2 dropped */
    CHECK_EQ(m->fifo_level[0], 8u);
    CHECK_EQ(rd(m, FIFO_STAT) & 0x1u, 1u);               /* full[0] */
    wr(m, FIFO_WR(2), 7);                                /* disabled: dropped */
    CHECK_EQ(m->fifo_level[2], 0u);
    CHECK(!max78000_irq(m), "no FIFO interrupt enabled");
    wr(m, FIFO_CTRL, 0x3u << 12 | 2u << 7 | 5u << 2 | 1u << 16);   /* full_int_en[0] */
    CHECK(max78000_irq(m), "full FIFO 0 with full_int_en[0] raises irq");
    max78000_free(m);
}

static void test_mlator(unit_t *u)
{
    max78000_t *m = max78000_new();
    for (unsigned w = 0; w < 16; w++)                    /* memory 0 words 0x10.. : lane 1 = 0x10 + w */
        wr(m, 0x50400000u + 4u * (0x10 + w), (0x10u + w) << 8 | 0xAAu);
    wr(m, Q0 + 0x310, 0x10);                             /* L0 WPTR_BASE */
    wr(m, Q0 + 0xA10, 1u << 4);                          /* L0 wptr_inc = 1: d = 2 */
    wr(m, Q0, 1u << 17);                                 /* mlatch_sel = 1 */
    wr(m, Q0, 1u << 17 | 1u << 16);                      /* mlat_ld 0 -> 1 */
    uint32_t g0 = 0x10u | 0x12u << 8 | 0x14u << 16 | 0x16u << 24;
    CHECK_EQ(rd(m, Q0 + 0x1000), g0);                    /* prime read */
    CHECK_EQ(rd(m, Q0 + 0x1000), g0);
    CHECK_EQ(rd(m, Q0 + 0x1000), 0x18u | 0x1Au << 8 | 0x1Cu << 16 | 0x1Eu << 24);
    max78000_free(m);
}

int main(void)
{
    unit_t uu = {.name = "test_max78000_m3"}, *u = &uu;
    UNIT_RUN(u, test_fifo_flags);
    UNIT_RUN(u, test_mlator);
    return unit_done(u);
}
