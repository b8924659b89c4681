/* NE16 register tests, derived from the register description (golden/ne16/ne16_regs.h, generated from
 * rtl/ne16/regs/ne16_regs.csv; the access class of each control register is the CSV's access column and
 * flags, mirrored in the table below: WO = ACC_W, RO = ACC_R, RO rdstrobe (a read side effect) = ACC_RC) and the PSLVERR rules of spec ne16.md 1.2: reset values, read-back of random data
 * with random PSTRB in both contexts, every PSLVERR case, write-only reads, the 0x00-0xFF window alias. */
#include "ne16_regtests.h"
#include "ne16_fw.h"
#include "ne16_tb.h"

typedef enum { ACC_W, ACC_R, ACC_RC, ACC_RW } access_t;

static const struct {
    uint32_t off;
    access_t acc;
    uint32_t reset;
} ctrl_regs[] = {
    {NE16_REG_TRIGGER, ACC_W, 0},   {NE16_REG_ACQUIRE, ACC_RC, 0},    {NE16_REG_FINISHED_JOBS, ACC_R, 0},
    {NE16_REG_STATUS, ACC_R, 0},    {NE16_REG_RUNNING_JOB, ACC_R, 0}, {NE16_REG_SOFT_CLEAR, ACC_W, 0},
    {NE16_REG_JOB_ERROR, ACC_R, 0}, {NE16_REG_SW_SYNC, ACC_W, 0},
};
enum { NCTRL = sizeof ctrl_regs / sizeof *ctrl_regs };

static void rd_err(ne16_fw_t *fw, uint32_t addr) { prog_read(fw->p, NE16_EXPECT_SLVERR | addr, 0, 0); }
static void wr_err(ne16_fw_t *fw, uint32_t addr, uint32_t v, uint8_t strb)
{
    prog_write(fw->p, NE16_EXPECT_SLVERR | addr, v);
    fw->p->ops[fw->p->n - 1].strb = strb;
}
static void wr_strb(ne16_fw_t *fw, uint32_t addr, uint32_t v, uint8_t strb)
{
    prog_write(fw->p, addr, v);
    fw->p->ops[fw->p->n - 1].strb = strb;
}

int ne16_reg_reset(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.reg");
    prog_job(p, "reset values");
    for (unsigned i = 0; i < NCTRL; i++) /* ACQUIRE has a side effect: read it last */
        if (ctrl_regs[i].acc != ACC_RC) fw_r(&fw, ctrl_regs[i].off, ctrl_regs[i].reset, 0xFFFFFFFFu);
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) fw_r(&fw, NE16_JOB_REG_BASE + 4 * i, 0, 0xFFFFFFFFu);
    prog_job(p, "unmapped/misaligned reads answer PSLVERR");
    for (uint32_t off = 0x80; off < 0x100; off += 4) rd_err(&fw, off);
    for (unsigned i = 0; i < 8; i++) rd_err(&fw, (uint32_t)rng_below(&fw.rng, 0x40) * 4 + rng_range(&fw.rng, 1, 3));
    prog_job(p, "ACQUIRE after reset");
    fw_acquire(&fw);
    fw_r(&fw, NE16_REG_ACQUIRE, 0xFFFFFFFEu, 0xFFFFFFFFu);
    return 0;
}

/* Write random data with random strobes into the open context and read it back. */
static void rw_context(ne16_fw_t *fw, unsigned ctx)
{
    for (unsigned round = 0; round < 3; round++)
        for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) {
            const uint32_t v = (uint32_t)rng_next(&fw->rng);
            const uint8_t strb = round == 0 ? 0xF : (uint8_t)rng_below(&fw->rng, 16);
            const uint32_t off = NE16_JOB_REG_BASE + 4 * i;
            /* PADDR[31:8] is ignored: sometimes use an alias of the window */
            const uint32_t addr = off | (rng_chance(&fw->rng, 20) ? (uint32_t)rng_next(&fw->rng) & 0xFFFFFF00u : 0);
            wr_strb(fw, addr, v, strb);
            uint32_t *r = &fw->ctx[ctx][i];
            for (unsigned b = 0; b < 4; b++)
                if (strb >> b & 1u) *r = (*r & ~(0xFFu << 8 * b)) | (v & 0xFFu << 8 * b);
            fw_r(fw, off, *r, 0xFFFFFFFFu);
        }
}

int ne16_reg_rw(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.reg");
    prog_job(p, "context 0 read-back with PSTRB");
    const unsigned c0 = fw_acquire(&fw);
    rw_context(&fw, c0);
    fw_commit(&fw, 1); /* commit only: held, never triggered */
    prog_job(p, "context 1 read-back with PSTRB");
    const unsigned c1 = fw_acquire(&fw);
    rw_context(&fw, c1);
    prog_job(p, "SOFT_CLEAR(!=0) keeps both contexts");
    fw_soft_clear(&fw, 0xA5);
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) fw_r(&fw, NE16_JOB_REG_BASE + 4 * i, fw.ctx[0][i], 0xFFFFFFFFu);
    fw_r(&fw, NE16_REG_STATUS, 0, 0xFFFFFFFFu);
    prog_job(p, "PSTRB=0 writes nothing");
    fw_acquire(&fw);
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) {
        wr_strb(&fw, NE16_JOB_REG_BASE + 4 * i, ~fw.ctx[0][i], 0);
        fw_r(&fw, NE16_JOB_REG_BASE + 4 * i, fw.ctx[0][i], 0xFFFFFFFFu);
    }
    prog_job(p, "SOFT_CLEAR(0) zeroes both contexts");
    fw_soft_clear(&fw, 0);
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) fw_r(&fw, NE16_JOB_REG_BASE + 4 * i, 0, 0xFFFFFFFFu);
    fw_acquire(&fw);
    fw_acquire(&fw); /* ACQUIRE while open: expects id 1, gets -2 -- patched below */
    p->ops[p->n - 1].data = 0xFFFFFFFEu;
    fw.next_id = 1;
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) fw_r(&fw, NE16_JOB_REG_BASE + 4 * i, 0, 0xFFFFFFFFu);
    return 0;
}

int ne16_reg_errors(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.reg");
    prog_job(p, "PSLVERR cases of 1.2, nothing open");
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++)
        wr_err(&fw, NE16_JOB_REG_BASE + 4 * i, (uint32_t)rng_next(&fw.rng), 0xF);
    wr_err(&fw, NE16_REG_TRIGGER, 0, 0xF);
    for (unsigned i = 0; i < NCTRL; i++)
        if (ctrl_regs[i].acc == ACC_R || ctrl_regs[i].acc == ACC_RC) wr_err(&fw, ctrl_regs[i].off, 0xFFFFFFFFu, 0xF);
    for (unsigned i = 0; i < NCTRL; i++)
        if (ctrl_regs[i].acc == ACC_W)
            wr_err(&fw, ctrl_regs[i].off, 1, (uint8_t)rng_range(&fw.rng, 0, 14)); /* PSTRB != 1111 */
    for (uint32_t off = 0x80; off < 0x100; off += 0x14) wr_err(&fw, off, 0, 0xF);
    for (unsigned i = 0; i < 6; i++)
        wr_err(&fw, (uint32_t)rng_below(&fw.rng, 0x40) * 4 + rng_range(&fw.rng, 1, 3), 0, 0xF);
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) fw_r(&fw, NE16_JOB_REG_BASE + 4 * i, 0, 0xFFFFFFFFu);
    fw_r(&fw, NE16_REG_STATUS, 0, 0xFFFFFFFFu);
    prog_job(p, "write-only registers read 0");
    fw_r(&fw, NE16_REG_TRIGGER, 0, 0xFFFFFFFFu);
    fw_r(&fw, NE16_REG_SOFT_CLEAR, 0, 0xFFFFFFFFu);
    fw_r(&fw, NE16_REG_SW_SYNC, 0, 0xFFFFFFFFu);
    prog_job(p, "PSLVERR cases with an ACQUIRE open");
    const unsigned ctx = fw_acquire(&fw);
    wr_err(&fw, NE16_REG_STATUS, 0, 0xF);
    wr_err(&fw, NE16_REG_TRIGGER, 0, 0x7);
    fw_regs(&fw, ctx, fw.ctx[ctx], false);
    wr_err(&fw, NE16_JOB_REG_BASE + 1, 0, 0xF); /* misaligned job register */
    fw_soft_clear(&fw, 3);
    wr_err(&fw, NE16_REG_TRIGGER, 0, 0xF); /* the clear closed the ACQUIRE */
    fw_r(&fw, NE16_REG_JOB_ERROR, 0, 0xFFFFFFFFu);
    return 0;
}

/* NEGATIVE: firmware forgets ACQUIRE; the PSLVERR must be reported as a bus error. */
int ne16_neg_bus_error(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.reg");
    prog_job(p, "job-register write without ACQUIRE");
    fw_w(&fw, NE16_REG_CONFIG0, 0x12345678u);
    fw_r(&fw, NE16_REG_STATUS, 0, 0xFFFFFFFFu);
    return 0;
}
