/* Unit tests of the MAX78000 golden model against the spec's worked examples and rules
 * (shared/spec/max78000.md): each test drives the model through its APB interface and computes the
 * result with the model; expectations are the spec's own numbers. */
#include "unit.h"

#include "max78000_golden.h"
#include "max78000_layer.h"
#include "max78000_regs.h"

#define Q(q, off) MAX78000_QUAD_ADDR(q, off)
#define LREG(q, r, y) Q(q, 0x010u + 0x80u * (r) + 4u * (y))

static void wr(max78000_t *m, uint32_t a, uint32_t d) { max78000_apb_write(m, a, d, 0xF); }
static uint32_t rd(max78000_t *m, uint32_t a) { return max78000_apb_read(m, a).rdata; }

/* 3.9 examples: mnist layer 0 (s=-1) and layer 1 (s=-2). */
static void test_output_stage(unit_t *u)
{
    CHECK_EQ(max78000_out8(6784, -1, false, false), 27);
    CHECK_EQ((uint32_t)max78000_out8(-4096, -1, false, false), (uint32_t)-16);
    CHECK_EQ(max78000_out8(-4096, -1, false, true), 0);
    CHECK_EQ((uint32_t)max78000_out8(-52477, -2, false, false), (uint32_t)-102);
    /* floor(0.5 + total * 2^s / 128): half rounds toward +infinity; clamp; abs wins over ReLU (D39). */
    CHECK_EQ(max78000_out8(64, 0, false, false), 1);
    CHECK_EQ((uint32_t)max78000_out8(-64, 0, false, false), 0);
    CHECK_EQ((uint32_t)max78000_out8(-65, 0, false, false), (uint32_t)-1);
    CHECK_EQ(max78000_out8(1 << 20, 0, false, false), 127);
    CHECK_EQ((uint32_t)max78000_out8(-(1 << 20), 0, false, false), (uint32_t)-128);
    CHECK_EQ(max78000_out8(-(1 << 20), 0, true, true), 127);
    CHECK_EQ(max78000_out8(3, 7, false, false), 3);  /* s = 7: no shift */
    CHECK_EQ(max78000_out8(3, 9, false, false), 12); /* left shift by 2 */
}

/* D34: truncation toward zero, or round half away from zero with poolrnd. */
static void test_avg_pool(unit_t *u)
{
    CHECK_EQ((uint64_t)max78000_avg(-5, 4, false), (uint64_t)-1);
    CHECK_EQ((uint64_t)max78000_avg(7, 4, false), 1);
    CHECK_EQ((uint64_t)max78000_avg(6, 4, true), 2);
    CHECK_EQ((uint64_t)max78000_avg(-6, 4, true), (uint64_t)-2);
    CHECK_EQ((uint64_t)max78000_avg(-5, 4, true), (uint64_t)-1);
}

/* 3.3: the express stream of mnist processor 0 and the non-express read-back of the result. */
static void test_express_load(unit_t *u)
{
    max78000_t *m = max78000_new();
    wr(m, Q(0, 0), 0x00100008);
    CHECK(!max78000_apb_write(m, 0x50180001, 0x00000100, 0x2).slverr, "set-address write");
    const uint32_t s[] = {0x33110429, 0xf6ea2cf4, 0xf7760e1b, 0xf080e006, 0x1541abcd};
    for (unsigned i = 0; i < 5; i++) wr(m, 0x50180000 + 4 * i, s[i]);
    uint8_t hi;
    uint64_t lo;
    max78000_mram_word(m, 0, 0, &hi, &lo);
    CHECK_EQ(hi, 0x33);
    CHECK_EQ(lo, 0x110429F6EA2CF4F7ull);
    max78000_mram_word(m, 0, 1, &hi, &lo);
    CHECK_EQ(hi, 0x76);
    CHECK_EQ(lo, 0x0E1BF080E0061541ull);
    max78000_mram_word(m, 0, 2, &hi, &lo); /* 2 of 9 bytes only: never written */
    CHECK_EQ(hi, 0);
    CHECK_EQ(lo, 0);
    /* D29 read-back of word 1 through the non-express slots. */
    CHECK_EQ(rd(m, 0x50180010), 0x76);
    CHECK_EQ(rd(m, 0x50180014), 0x0E1BF080);
    CHECK_EQ(rd(m, 0x50180018), 0xE0061541);
    CHECK_EQ(rd(m, 0x5018001C), 0);
    /* A new set-address discards the partial word and restarts at word 5 of processor 3. */
    max78000_apb_write(m, 0x5018C000 + 4 * 5 + 2, 0x00010000, 0x4);
    for (unsigned i = 0; i < 3; i++) wr(m, 0x50180000, 0x01020304 + 0x04040404u * i); /* address bits ignored */
    max78000_mram_word(m, 3 * 1 + 0, 5, &hi, &lo);
    CHECK_EQ(hi, 0x01);
    CHECK_EQ(lo, 0x0203040506070809ull);
    max78000_free(m);
}

/* D29 non-express writes + D32: mnist layer 4 weight check (T = 1, A = 0x2400 + (16K + e) * 8). */
static void test_weight_addressing(unit_t *u)
{
    max78000_t *m = max78000_new();
    wr(m, Q(0, 0), 0x00000008);            /* mexpress = 0 */
    uint32_t slot = 0x50180000 + 128 * 16; /* processor 0 word 128 */
    wr(m, slot + 0x0, 0x95);
    wr(m, slot + 0x4, 0xF90CE4BB);
    wr(m, slot + 0x8, 0x2E5E2CF0);
    wr(m, slot + 0xC, 0);
    wr(m, LREG(0, MAX78000_LR_ONED, 4), 0x100);
    wr(m, LREG(0, MAX78000_LR_MCNT, 4), 0x240028F8);
    wr(m, Q(0, 0xA10 + 4 * 4), 0x480F);
    max78000_lp_t lp;
    max78000_layer_params(m, 0, 4, &lp);
    CHECK_EQ(lp.T, 1);
    CHECK_EQ(lp.X, 16);
    CHECK_EQ(lp.NK, 10);
    CHECK_EQ(lp.S, 10);
    const int expect[9] = {-16, 44, 94, 46, -69, -28, 12, -7, -107};
    for (unsigned e = 0; e < 9; e++)
        CHECK(max78000_weight(m, 0, &lp, lp.mcnt_sad + e * 8, 0) == expect[e], "pass %u: %d", e,
              max78000_weight(m, 0, &lp, lp.mcnt_sad + e * 8, 0));
    /* 3x3 at word w: tap t = W[71-8t:64-8t]; tap 0 = slot 8. */
    wr(m, LREG(0, MAX78000_LR_ONED, 5), 0);
    max78000_layer_params(m, 0, 5, &lp);
    CHECK_EQ(lp.T, 9);
    CHECK_EQ((uint32_t)max78000_weight(m, 0, &lp, 128 * 8, 0), (uint32_t)-107);
    CHECK_EQ((uint32_t)max78000_weight(m, 0, &lp, 128 * 8, 8), (uint32_t)-16);
    max78000_free(m);
}

/* 3.5 geometry of mnist layers 1 and 4 from their register values. */
static void test_geometry(unit_t *u)
{
    max78000_t *m = max78000_new();
    wr(m, LREG(0, MAX78000_LR_RCNT, 1), 0x0002001F);
    wr(m, LREG(0, MAX78000_LR_CCNT, 1), 0x0002001F);
    wr(m, LREG(0, MAX78000_LR_PRCNT, 1), 1);
    wr(m, LREG(0, MAX78000_LR_PCCNT, 1), 1);
    wr(m, LREG(0, MAX78000_LR_STRIDE, 1), 1);
    wr(m, LREG(0, MAX78000_LR_LCTRL0, 1), 0xEBA0);
    max78000_lp_t lp;
    max78000_layer_params(m, 0, 1, &lp);
    CHECK_EQ(lp.H_in, 28);
    CHECK_EQ(lp.H_p, 14);
    CHECK_EQ(lp.H_out, 16);
    CHECK_EQ(lp.W_out, 16);
    CHECK(lp.maxpool && lp.relu && !lp.chw && lp.cnnsi == 0xE, "layer 1 flags");
    max78000_free(m);
}

/* 3.2 CHW example: mnist layer 0 pixel (7,6) is byte 2 of word 50. An identity 1x1 layer (weight 1,
 * s = 7) copies processor 0's CHW input to HWC output, so the output of pixel 202 shows which byte the
 * processor read. Also exercises the start sequence and completion (D42-D44). */
static void test_chw_identity_layer(unit_t *u)
{
    max78000_t *m = max78000_new();
    for (unsigned w = 0; w < 196; w++) wr(m, 0x50400000 + 4 * w, 0x01010101u * (w & 0x3F) + 0x00402000u);
    wr(m, 0x50180000 + 0, 0);
    wr(m, 0x50180004, 0);
    wr(m, 0x50180008, 1);
    wr(m, 0x5018000C, 0); /* W[0][0] slot 0 = 1 */
    wr(m, LREG(0, MAX78000_LR_RCNT, 0), 27);
    wr(m, LREG(0, MAX78000_LR_CCNT, 0), 27);
    wr(m, LREG(0, MAX78000_LR_ONED, 0), 0x100);
    wr(m, LREG(0, MAX78000_LR_WPTR_BASE, 0), 0x2000 + 0x400);
    wr(m, LREG(0, MAX78000_LR_LCTRL0, 0), 0x0860); /* sramlsrc, parallel, master */
    wr(m, LREG(0, MAX78000_LR_POST, 0), 7u << 13); /* s = +7 */
    wr(m, LREG(0, MAX78000_LR_EN, 0), 0x00010001);
    for (unsigned q = 0; q < 4; q++) wr(m, Q(q, 0), 0x00100808 | (q ? 1u : 0u));
    CHECK(!max78000_irq(m), "no interrupt before the start");
    wr(m, Q(0, 0), 0x00100009);
    CHECK(max78000_irq(m), "interrupt after the run");
    CHECK_EQ(rd(m, Q(0, 0)), 0x00101009);
    CHECK_EQ(rd(m, Q(1, 0)), 0x00101809);
    uint32_t in = max78000_dmem_word(m, 0, 50);
    CHECK_EQ(max78000_dmem_word(m, 1, 0x400 + 202) & 0xFF, (in >> 16) & 0xFF);
    unsigned bad = 0;
    for (unsigned n = 0; n < 784; n++)
        bad += (max78000_dmem_word(m, 1, 0x400 + n) & 0xFF) !=
               ((max78000_dmem_word(m, 0, n >> 2) >> (8 * (n & 3))) & 0xFF);
    CHECK(bad == 0, "%u of 784 pixels not copied", bad);
    CHECK_EQ(max78000_dmem_word(m, 1, 0x400 + 202) & 0xFFFFFF00u, 0); /* other lanes untouched */
    for (unsigned q = 0; q < 4; q++) wr(m, Q(q, 0), rd(m, Q(q, 0)) & ~0x1001u);
    CHECK(!max78000_irq(m), "interrupt cleared by the ISR sequence");
    max78000_free(m);
}

/* Spec 4, Stop [M2]: a run stopped after layer 0 of two. Layer 0 is the identity layer above (memory 0's CHW
 * input to memory 1); layer 1 is the same layer writing over the input in memory 0. The model runs whole at
 * the start; max78000_stop_after(0) must give back memory 0's input, keep layer 0's output, take cnn_irq back
 * (only where no CTRL write has written it since) and make the next start begin at layer 0. */
static void test_stop_after(unit_t *u)
{
    max78000_t *m = max78000_new();
    char why[160];
    CHECK(!max78000_stop_after(m, 0, why, sizeof why), "no run to stop yet");
    uint32_t in[196];
    for (unsigned w = 0; w < 196; w++) {
        in[w] = 0x01010101u * (w & 0x3F) + 0x00402000u;
        wr(m, 0x50400000 + 4 * w, in[w]);
    }
    wr(m, 0x50180000 + 0, 0);
    wr(m, 0x50180004, 0);
    wr(m, 0x50180008, 1);
    wr(m, 0x5018000C, 0);
    for (unsigned y = 0; y < 2; y++) {
        wr(m, LREG(0, MAX78000_LR_RCNT, y), 27);
        wr(m, LREG(0, MAX78000_LR_CCNT, y), 27);
        wr(m, LREG(0, MAX78000_LR_ONED, y), 0x100);
        wr(m, LREG(0, MAX78000_LR_WPTR_BASE, y), y ? 0 : 0x2000 + 0x400);
        wr(m, LREG(0, MAX78000_LR_LCTRL0, y), 0x0860);
        wr(m, LREG(0, MAX78000_LR_POST, y), 7u << 13);
        wr(m, LREG(0, MAX78000_LR_EN, y), 0x00010001);
    }
    for (unsigned q = 0; q < 4; q++) {
        wr(m, Q(q, MAX78000_LCNT_MAX_OFF), 1);
        wr(m, Q(q, 0), 0x00100808 | (q ? 1u : 0u));
    }
    wr(m, Q(0, 0), 0x00100009); /* the whole run, at once */
    CHECK(max78000_dmem_word(m, 0, 1) != in[1], "layer 1 wrote over the input");
    wr(m, Q(2, 0), 0x00101809); /* Q2's cnn_irq, written during the run */
    wr(m, Q(0, 0), 0x00100008); /* the stop */
    CHECK(max78000_stop_after(m, 0, why, sizeof why), "stop after layer 0: %s", why);
    unsigned bad = 0;
    for (unsigned w = 0; w < 196; w++) bad += max78000_dmem_word(m, 0, w) != in[w];
    CHECK(bad == 0, "%u of 196 input words not given back", bad);
    CHECK_EQ(max78000_dmem_word(m, 1, 0x400 + 202) & 0xFF, (in[50] >> 16) & 0xFF);     /* layer 0's output stays */
    CHECK_EQ(rd(m, Q(1, 0)) & MAX78000_CTRL_CNN_IRQ_MASK, 0);                          /* taken back */
    CHECK_EQ(rd(m, Q(2, 0)) & MAX78000_CTRL_CNN_IRQ_MASK, MAX78000_CTRL_CNN_IRQ_MASK); /* as written */
    CHECK_EQ(m->next_layer, 0);
    CHECK(!max78000_stop_after(m, 0, why, sizeof why), "a run is stopped once");
    /* oneshot: layer 0 alone leaves the next layer 1; a stop of it makes the next start begin at layer 0 */
    for (unsigned q = 0; q < 4; q++) wr(m, Q(q, 0), 0x00100808 | (q ? 1u : 0u));
    wr(m, Q(0, 0), 0x00100109);
    CHECK_EQ(m->next_layer, 1);
    CHECK(!max78000_stop_after(m, 1, why, sizeof why), "layer 1 is not the oneshot run's layer");
    CHECK(max78000_stop_after(m, 0, why, sizeof why), "stop of the oneshot layer: %s", why);
    CHECK_EQ(m->next_layer, 0);
    max78000_free(m);
}

/* D41 and D23: quadrant 0 collects quadrant 1's sum and wins over quadrant 1's own write; bias (D35). */
static void test_cross_quadrant(unit_t *u)
{
    max78000_t *m = max78000_new();
    /* Input pixel value 2 for processor 0 (memory 0) and 3 for processor 16 (memory 4), HWC lane 0. */
    wr(m, 0x50400000, 2);
    wr(m, 0x50800000, 3);
    wr(m, 0x50180008, 5);
    wr(m, 0x5018000C, 0); /* W[0][0] slot 0 = 5 */
    wr(m, 0x50580008, 7);
    wr(m, 0x5058000C, 0);    /* W[16][0] slot 0 = 7 */
    wr(m, 0x50108000, 0xFF); /* bias -1 in quadrant 0 */
    for (unsigned q = 0; q < 2; q++) {
        wr(m, LREG(q, MAX78000_LR_ONED, 0), 0x100);
        wr(m, LREG(q, MAX78000_LR_WPTR_BASE, 0), 0x2000 * 15 + 9);
        wr(m, LREG(q, MAX78000_LR_LCTRL0, 0), q ? 0x10820u : 0x12820u); /* 32-bit out; Q0 adds Q1 */
        wr(m, LREG(q, MAX78000_LR_EN, 0), 0x00010001);
    }
    wr(m, LREG(0, MAX78000_LR_POST, 0), 0x1000);
    wr(m, Q(0, 0), 1);
    CHECK_EQ(max78000_dmem_word(m, 15, 9), (uint32_t)(2 * 5 + 3 * 7 - 128));
    max78000_free(m);
}

/* D01-D05: decode, PSTRB, wait states, PSLVERR. */
static void test_apb(unit_t *u)
{
    max78000_t *m = max78000_new();
    const uint32_t bad[] = {0x50000018, 0x50000FFC, 0x50001004, 0x500FFFFC, 0x50100830,
                            0x50100994, 0x50100A90, 0x50101004, 0x50108800, 0x50113000,
                            0x5018F000, 0x50320000, 0x510FFFFC, 0x51100000, 0x4FFFFFFC};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        max78000_resp_t r = max78000_apb_read(m, bad[i]);
        CHECK(r.slverr && r.rdata == 0 && r.wait_states == 0, "0x%08x must be invalid", bad[i]);
    }
    CHECK_EQ(max78000_apb_read(m, 0x50100000).wait_states, 3);
    CHECK_EQ(max78000_apb_read(m, 0x50001000).wait_states, 3);
    wr(m, 0x50100000, 0x00100008);
    CHECK_EQ(max78000_apb_read(m, 0x50100000).wait_states, 0);
    CHECK_EQ(max78000_apb_read(m, 0x50500000).wait_states, 3);
    /* D02/D03 byte write into a data word and a register. */
    wr(m, 0x50400010, 0x11223344);
    max78000_apb_write(m, 0x50400011, 0x0000AA00, 0x2);
    CHECK_EQ(rd(m, 0x50400010), 0x1122AA44);
    max78000_apb_write(m, LREG(2, MAX78000_LR_RCNT, 3), 0xFFFFFFFF, 0x4);
    CHECK_EQ(rd(m, LREG(2, MAX78000_LR_RCNT, 3)), 0x00030000);
    /* BRAM byte, TRAM halfword. */
    wr(m, 0x50108004, 0xFFFFFF80);
    CHECK_EQ(rd(m, 0x50108004), 0x80);
    wr(m, 0x50110008, 0xFFFFBEEF);
    CHECK_EQ(rd(m, 0x50110008), 0xBEEF);
    max78000_free(m);
}

/* Reset values and writable masks of every register, from the generated table, plus spot checks of
 * the table against the spec's literal masks (catches a wrong JSON description). */
static void test_registers(unit_t *u)
{
    max78000_t *m = max78000_new();
    for (size_t i = 0; i < MAX78000_REG_TABLE_N; i++) {
        const max78000_reg_desc_t *d = &max78000_reg_table[i];
        unsigned nb = d->block == 1 ? 4 : 1;
        uint32_t idle = d->idle; /* status bits of an idle accelerator */
        for (unsigned b = 0; b < nb; b++)
            for (unsigned k = 0; k < d->count; k++) {
                uint32_t base = d->block == 1   ? MAX78000_QUAD_ADDR(b, 0)
                                : d->block == 2 ? MAX78000_FFIFO_BASE
                                                : MAX78000_GLOB_BASE;
                uint32_t a = base + d->offset + k * d->stride;
                if (d->block == 1 && d->offset == 0) continue; /* CTRL: would start runs; below */
                if (d->womask && d->block == 2) continue;      /* FF_DR: pushes words; test_max78000_m3 */
                max78000_resp_t r = max78000_apb_read(m, a);
                CHECK(!r.slverr && r.rdata == (d->reset | idle), "%s[%u] q%u reset 0x%08x", d->name, k, b, r.rdata);
                if (d->block == 1 && d->offset == 0xC) continue; /* TEST run bits act; see test_bist */
                wr(m, a, 0xFFFFFFFF);
                uint32_t v = rd(m, a);
                CHECK(v == ((d->wmask & d->rmask) | idle), "%s[%u] q%u after all-ones 0x%08x", d->name, k, b, v);
                wr(m, a, 0);
                CHECK(rd(m, a) == idle, "%s[%u] q%u after zero", d->name, k, b);
            }
    }
    CHECK_EQ(rd(m, Q(3, 0)), 0x6);
    CHECK_EQ(MAX78000_FIFO_CTRL_WMASK, 0xFFFFFB9F);
    CHECK_EQ(MAX78000_AOD_CTRL_WMASK, 0x000FFF03);
    CHECK_EQ(MAX78000_SRAM_WMASK, 0x0079BFFF);
    CHECK_EQ(MAX78000_SRAM_RESET, 0xE);
    CHECK_EQ(MAX78000_RCNT_WMASK, 0x000303FF);
    CHECK_EQ(MAX78000_ONED_WMASK, 0x003FFFFF);
    CHECK_EQ(MAX78000_WPTR_BASE_WMASK, 0x1FFFF);
    CHECK_EQ(MAX78000_LCTRL0_WMASK, 0x1FFFF);
    CHECK_EQ(MAX78000_TPTR_WMASK, 0x0FFF0FFF);
    CHECK_EQ(MAX78000_POST_WMASK, 0x1FFFFFFF);
    CHECK_EQ(MAX78000_STRM1_WMASK, 0x0FFF01FF);
    CHECK_EQ(MAX78000_FBUF_WMASK, 0x1FFFF);
    CHECK_EQ(MAX78000_IFRM_WMASK, 0xFFFFF);
    CHECK_EQ(MAX78000_LCTRL1_WMASK, 0x1FFFF);
    CHECK_EQ(MAX78000_TEST_WMASK, 0x3FFF);
    max78000_free(m);
}

/* D15: zeroize and BIST of quadrant 1's memories. */
static void test_bist(unit_t *u)
{
    max78000_t *m = max78000_new();
    wr(m, Q(1, 0x300000 + 3 * 0x8000 + 40), 0x12345678);
    wr(m, Q(1, 0x8000), 0x12);
    wr(m, Q(1, 0), 0x00100008);
    max78000_apb_write(m, Q(1, 0x80001), 0x100, 2);
    wr(m, Q(1, 0x80000), 0x11111111);
    wr(m, Q(1, 0x80000), 0x22222222);
    wr(m, Q(1, 0x80000), 0x33333333);
    wr(m, Q(1, 0xC), 0x2); /* sramz */
    CHECK_EQ(rd(m, Q(1, 0xC)), 0x2 | (1u << 22) | (1u << 28));
    CHECK_EQ(rd(m, Q(1, 0x300000 + 3 * 0x8000 + 40)), 0);
    CHECK_EQ(rd(m, Q(1, 0x80004)), 0x11111122); /* MRAM untouched: slots 7..4 */
    wr(m, Q(1, 0xC), 0x2 | 0x4 | 0x40);         /* + mbistrun, bbistrun */
    CHECK_EQ(rd(m, Q(1, 0xC)), 0x46 | (1u << 22) | (1u << 28) | (1u << 19) | (1u << 21) | (1u << 27));
    CHECK_EQ(rd(m, Q(1, 0x80004)), 0);
    CHECK_EQ(rd(m, Q(1, 0x8000)), 0);
    wr(m, Q(1, 0xC), 0);
    CHECK_EQ(rd(m, Q(1, 0xC)), 0);
    max78000_free(m);
}

int main(void)
{
    unit_t u = {.name = "test_max78000_golden"};
    UNIT_RUN(&u, test_output_stage);
    UNIT_RUN(&u, test_avg_pool);
    UNIT_RUN(&u, test_express_load);
    UNIT_RUN(&u, test_weight_addressing);
    UNIT_RUN(&u, test_geometry);
    UNIT_RUN(&u, test_chw_identity_layer);
    UNIT_RUN(&u, test_stop_after);
    UNIT_RUN(&u, test_cross_quadrant);
    UNIT_RUN(&u, test_apb);
    UNIT_RUN(&u, test_registers);
    UNIT_RUN(&u, test_bist);
    return unit_done(&u);
}
