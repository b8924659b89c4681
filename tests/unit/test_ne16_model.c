/* Unit tests of the NE16 testbench's control-plane reference model (tb/ne16/ne16_model.c: spec ne16.md
 * 1.2 PSLVERR cases, 2.1 read values, 2.3 queue) and its coverage table (tb/ne16/ne16_cov.c). The
 * testbench sources are compiled into this binary directly (the unit makefile links golden models and
 * bus models only). */
#include "../../tb/common/fcov.c"
#include "../../tb/ne16/ne16_cov.c"
#include "../../tb/ne16/ne16_model.c"
#include "unit.h"

static ne16_pred_t acc(ne16_model_t *m, bool w, uint32_t addr, uint32_t data, uint8_t strb)
{
    ne16_pred_t p;
    ne16_model_access(m, w, addr, data, strb, &p);
    return p;
}
static uint32_t rd(ne16_model_t *m, uint32_t off) { return acc(m, false, off, 0, 0).rdata; }

static void test_pslverr(unit_t *u)
{
    ne16_model_t m;
    ne16_model_reset(&m);
    CHECK(acc(&m, true, NE16_REG_CONFIG0, 1, 0xF).slverr, "job register write without ACQUIRE");
    CHECK(acc(&m, true, NE16_REG_TRIGGER, 0, 0xF).slverr, "TRIGGER without ACQUIRE");
    CHECK(acc(&m, true, NE16_REG_STATUS, 0, 0xF).slverr, "write to STATUS");
    CHECK(acc(&m, true, NE16_REG_ACQUIRE, 0, 0xF).slverr, "write to ACQUIRE");
    CHECK(acc(&m, true, NE16_REG_SOFT_CLEAR, 0, 0x7).slverr, "SOFT_CLEAR with PSTRB 0111");
    CHECK(acc(&m, true, NE16_REG_SW_SYNC, 0, 0xE).slverr, "SW_SYNC with PSTRB 1110");
    CHECK(acc(&m, false, 0x22, 0, 0).slverr, "misaligned read");
    CHECK(acc(&m, false, 0x80, 0, 0).slverr, "read of 0x80");
    CHECK(!acc(&m, false, 0x7C, 0, 0).slverr, "read of a job register without ACQUIRE is fine");
    CHECK(!acc(&m, false, 0x1C, 0, 0).slverr && rd(&m, 0x1C) == 0, "SW_SYNC reads 0");
    CHECK(!acc(&m, true, 0xABCDEF1C, 5, 0xF).slverr, "PADDR[31:8] ignored");
    CHECK_EQ(acc(&m, true, NE16_REG_SW_SYNC, 0xFFFFFFFEu, 0xF).sw_evt, 0x40);
    CHECK_EQ(rd(&m, NE16_REG_ACQUIRE), 0);
    CHECK(!acc(&m, true, NE16_REG_CONFIG0, 0x11223344u, 0x5).slverr, "job register write with ACQUIRE open");
    CHECK_EQ(rd(&m, NE16_REG_CONFIG0), 0x00220044u);
    CHECK(!acc(&m, true, NE16_REG_CONFIG0, 0xFFFFFFFFu, 0x0).slverr, "PSTRB 0000 is no error");
    CHECK_EQ(rd(&m, NE16_REG_CONFIG0), 0x00220044u);
}

static void test_queue(unit_t *u)
{
    ne16_model_t m;
    ne16_model_reset(&m);
    const char *why = NULL;
    CHECK_EQ(rd(&m, NE16_REG_ACQUIRE), 0);
    CHECK_EQ(rd(&m, NE16_REG_ACQUIRE), NE16_ACQ_OPEN);
    acc(&m, true, NE16_REG_WEIGHTS_PTR, 0x1000, 0xF);
    ne16_pred_t p = acc(&m, true, NE16_REG_TRIGGER, 1, 0xF); /* commit only */
    CHECK(p.committed && !p.triggered, "commit-only does not trigger");
    CHECK(ne16_model_next_triggered(&m) == NULL, "nothing to run yet");
    CHECK(!ne16_model_startable(&m), "held job cannot start");
    CHECK(ne16_model_start(&m, &why) == NULL && why, "start refused: %s", why ? why : "");
    CHECK_EQ(rd(&m, NE16_REG_STATUS), NE16_STATUS_CTX0_BUSY_MASK);
    CHECK_EQ(rd(&m, NE16_REG_ACQUIRE), 1);
    acc(&m, true, NE16_REG_WEIGHTS_PTR, 0x2000, 0xF);
    CHECK_EQ(rd(&m, NE16_REG_WEIGHTS_PTR), 0x2000); /* open context 1 */
    p = acc(&m, true, NE16_REG_TRIGGER, 7, 0xF);    /* second commit-only: auto trigger */
    CHECK(p.triggered, "second commit-only triggers both");
    CHECK_EQ(rd(&m, NE16_REG_ACQUIRE), NE16_ACQ_FULL);
    CHECK_EQ(rd(&m, NE16_REG_WEIGHTS_PTR), 0x1000); /* not open: context next_id & 1 = 0 */
    ne16_mjob_t *a = ne16_model_next_triggered(&m), *b = ne16_model_next_triggered(&m);
    CHECK(a && b && a->id == 0 && b->id == 1 && a->regs[0] == 0x1000 && b->regs[0] == 0x2000, "job order");
    CHECK(ne16_model_next_triggered(&m) == NULL, "each job handed out once");
    a->code = 4;
    const ne16_mjob_t *s = ne16_model_start(&m, &why);
    CHECK(s && s->id == 0, "job 0 starts");
    CHECK_EQ(rd(&m, NE16_REG_RUNNING_JOB), 0);
    ne16_mjob_t d;
    CHECK(ne16_model_done(&m, &d) == 0 && d.id == 0, "job 0 completes");
    CHECK_EQ(rd(&m, NE16_REG_FINISHED_JOBS), 1);
    CHECK_EQ(rd(&m, NE16_REG_STATUS), NE16_STATUS_CTX1_BUSY_MASK);
    CHECK_EQ(rd(&m, NE16_REG_JOB_ERROR), 0x00010004u);
    CHECK(ne16_model_start(&m, &why) != NULL, "job 1 starts");
    CHECK_EQ(rd(&m, NE16_REG_RUNNING_JOB), 1);
    CHECK(ne16_model_done(&m, &d) == 0 && d.id == 1, "job 1 completes");
    CHECK(!m.trig && m.count == 0, "empty FIFO clears the trigger");
    CHECK_EQ(rd(&m, NE16_REG_JOB_ERROR), 0x00010004u); /* sticky: last rejected job */
    CHECK(ne16_model_done(&m, &d) != 0, "spurious done is refused");
}

static void test_soft_clear(unit_t *u)
{
    ne16_model_t m;
    ne16_model_reset(&m);
    rd(&m, NE16_REG_ACQUIRE);
    acc(&m, true, NE16_REG_CONFIG0, 0xCAFE, 0xF);
    acc(&m, true, NE16_REG_TRIGGER, 0, 0xF);
    ne16_model_next_triggered(&m);
    const char *why = NULL;
    ne16_model_start(&m, &why);
    rd(&m, NE16_REG_ACQUIRE);
    ne16_pred_t p = acc(&m, true, NE16_REG_SOFT_CLEAR, 1, 0xF);
    CHECK(p.cleared && p.naborted == 1 && p.aborted[0].id == 0, "running job aborted");
    CHECK(!m.open && m.count == 0 && !m.running && m.next_id == 0, "state cleared");
    CHECK_EQ(rd(&m, NE16_REG_CONFIG0), 0xCAFE); /* value != 0 keeps the registers */
    acc(&m, true, NE16_REG_SOFT_CLEAR, 0, 0xF);
    CHECK_EQ(rd(&m, NE16_REG_CONFIG0), 0);
    CHECK_EQ(rd(&m, NE16_REG_ACQUIRE), 0);
}

static void test_cov(unit_t *u)
{
    fcov_t *c = ne16_cov_new();
    const unsigned bins = fcov_bins(c);
    CHECK(bins > 100, "%u bins", bins);
    CHECK_EQ(fcov_hits(c), 0);
    uint32_t regs[NE16_NUM_JOB_REGS] = {0};
    regs[NE16_JOB_SUBTILE_NB0] = regs[NE16_JOB_SUBTILE_NB1] = 0x00010001;
    regs[NE16_JOB_CONFIG0] = 0x00C08047; /* 1x1, Qw 8, raw 32-bit */
    ne16_cov_job(c, regs, 0);
    const unsigned h1 = fcov_hits(c);
    CHECK(h1 >= 8, "one legal job hits %u bins", h1);
    ne16_cov_job(c, regs, 0);
    CHECK_EQ(fcov_hits(c), h1);
    ne16_cov_job(c, regs, 7);
    CHECK_EQ(fcov_hits(c), h1 + 1); /* only the illegal-code bin */
    ne16_cov_queue(c, NE16_QCOV_SW_SYNC);
    CHECK_EQ(fcov_hits(c), h1 + 2);
    FILE *f = tmpfile();
    fcov_write(c, f, "t", 1);
    rewind(f);
    char line[256];
    unsigned n = 0, dw16 = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        n++;
        if (strstr(line, "mode_x_input mode=dw,in=u16")) dw16++;
    }
    fclose(f);
    CHECK_EQ(n, bins);
    CHECK(dw16 == 0, "the illegal MODE16+DW combination is no bin");
    fcov_free(c);
}

int main(void)
{
    unit_t u = {.name = "test_ne16_model"};
    UNIT_RUN(&u, test_pslverr);
    UNIT_RUN(&u, test_queue);
    UNIT_RUN(&u, test_soft_clear);
    UNIT_RUN(&u, test_cov);
    return unit_done(&u);
}
