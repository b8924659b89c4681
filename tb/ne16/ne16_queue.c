/* NE16 job-queue and control tests (spec ne16.md 2.3, 6.1 "Queue"): two jobs in flight, ACQUIRE while
 * open and while full, commit-only then trigger, two commit-only jobs, SOFT_CLEAR idle/open/running/held,
 * back-to-back jobs of different modes, SW_SYNC, context reuse. The testbench's reference model checks
 * every read; the values the firmware expects are also written into the program. */
#include "ne16_queue.h"
#include "ne16_fw.h"
#include "ne16_gen.h"
#include "dut_info.h"

/* Load a random layer of `mode` into slot `slot`; its first job's registers go to regs. */
static int load_job(ne16_fw_t *fw, ne16_layer_mode_t mode, unsigned slot, uint64_t max_cycles,
                    uint32_t regs[NE16_NUM_JOB_REGS], char *err, size_t errlen)
{
    ne16_layer_t l;
    ne16_random_layer(&fw->rng, &l, mode, rng_range(&fw->rng, 1, 8), max_cycles);
    if (l.strided) { /* one job per layer here: stride 1, with the 3.7 padding limits re-applied */
        l.strided = false;
        const unsigned k = l.mode == NE16_LAYER_3X3 || l.mode == NE16_LAYER_DW ? 3 : 1;
        /* a padding cut to 1 can leave the padded input smaller than the kernel: grow the input by a row or
         * column (which changes Ho or Wo, so the limit is applied again) */
        for (bool changed = true; changed;) {
            changed = false;
            if (l.pb == 2 && ne16_layer_ho(&l) % 3 == 1) l.pb = 1, changed = true;
            if (l.pr == 2 && ne16_layer_wo(&l) % 3 == 1) l.pr = 1, changed = true;
            if (l.hi + l.pt + l.pb < k) l.hi++, changed = true;
            if (l.wi + l.pl + l.pr < k) l.wi++, changed = true;
        }
    }
    if (fw_layer_load(fw, &l, 0x100000u * (slot + 1), err, errlen)) return -1;
    uint32_t all[1][NE16_NUM_JOB_REGS];
    if (fw_layer_regs(&l, all, 1, err, errlen) != 1) return -1;
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) regs[i] = all[0][i];
    return 0;
}

/* A job that runs long enough (tens of thousands of cycles) for the queue to fill behind it. */
static int load_long_job(ne16_fw_t *fw, unsigned slot, uint32_t regs[NE16_NUM_JOB_REGS], char *err, size_t errlen)
{
    ne16_layer_t l = {0};
    l.mode = NE16_LAYER_3X3;
    l.ki = 32;
    l.ko = 40;
    l.hi = 7;
    l.wi = 7;
    l.qw = 8;
    /* the symmetric offset -2^(Qw-1) (D9, feature wsym), or the same offset layer-wise on a DUT without it */
    l.symmetric = dut_has("wsym");
    l.wmin = -(1 << (l.qw - 1));
    l.out_bits = 8;
    l.norm_bits = 8;
    l.streamout = true;
    l.right_shift = 10;
    if (fw_layer_load(fw, &l, 0x100000u * (slot + 1), err, errlen)) return -1;
    uint32_t all[1][NE16_NUM_JOB_REGS];
    if (fw_layer_regs(&l, all, 1, err, errlen) != 1) return -1;
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) regs[i] = all[0][i];
    return 0;
}

static uint64_t iters2(const uint32_t *a, const uint32_t *b) { return fw_iterations(a) + fw_iterations(b); }

int ne16_q_two_inflight(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.queue");
    for (unsigned rep = 0; rep < 3; rep++) {
        uint32_t a[NE16_NUM_JOB_REGS], b[NE16_NUM_JOB_REGS];
        if (load_job(&fw, (ne16_layer_mode_t)rng_below(&fw.rng, 4), 0, 30000, a, err, errlen)) return -1;
        if (load_job(&fw, (ne16_layer_mode_t)rng_below(&fw.rng, 4), 1, 30000, b, err, errlen)) return -1;
        prog_job(p, "two in flight #%u", rep);
        const uint8_t ida = fw.next_id;
        fw_regs(&fw, fw_acquire(&fw), a, false);
        fw_commit(&fw, 0);
        fw_regs(&fw, fw_acquire(&fw), b, false);
        fw_commit(&fw, 0);
        fw_r(&fw, NE16_REG_STATUS, 0, 0); /* value depends on timing: the model checks it */
        fw_r(&fw, NE16_REG_RUNNING_JOB, 0, 0);
        fw_wait(&fw, 2, iters2(a, b));
        fw_r(&fw, NE16_REG_STATUS, 0, 0xFFFFFFFFu);
        fw_r(&fw, NE16_REG_RUNNING_JOB, (uint8_t)(ida + 1), 0xFFFFFFFFu);
        fw_r(&fw, NE16_REG_FINISHED_JOBS, 2 * (rep + 1), 0xFFFFFFFFu);
        fw_check_error(&fw, ida, 0);
        prog_check_golden(p);
    }
    return 0;
}

int ne16_q_acquire_full(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.queue");
    uint32_t a[NE16_NUM_JOB_REGS], b[NE16_NUM_JOB_REGS], c[NE16_NUM_JOB_REGS];
    if (load_long_job(&fw, 0, a, err, errlen)) return -1;
    if (load_job(&fw, NE16_LAYER_1X1, 1, 20000, b, err, errlen)) return -1;
    if (load_job(&fw, NE16_LAYER_3X3, 2, 20000, c, err, errlen)) return -1;
    prog_job(p, "ACQUIRE while open and while full");
    fw_regs(&fw, fw_acquire(&fw), a, false);
    fw_r(&fw, NE16_REG_ACQUIRE, 0xFFFFFFFEu, 0xFFFFFFFFu); /* an ACQUIRE is already open */
    fw_commit(&fw, 0);
    fw_regs(&fw, fw_acquire(&fw), b, false);
    fw_commit(&fw, 0);
    fw_r(&fw, NE16_REG_ACQUIRE, 0xFFFFFFFFu, 0xFFFFFFFFu); /* two jobs committed: full */
    fw_r(&fw, NE16_REG_STATUS, NE16_STATUS_CTX0_BUSY_MASK | NE16_STATUS_CTX1_BUSY_MASK, 0xFFFFFFFFu);
    fw_wait(&fw, 2, iters2(a, b));
    fw_check_error(&fw, 0, 0);
    prog_check_golden(p);
    prog_job(p, "ACQUIRE after the queue drained");
    fw_job(&fw, c, false);
    return 0;
}

int ne16_q_commit_only(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.queue");
    uint32_t r[4][NE16_NUM_JOB_REGS];
    for (unsigned i = 0; i < 4; i++)
        if (load_job(&fw, (ne16_layer_mode_t)(i % 4), i, 20000, r[i], err, errlen)) return -1;
    prog_job(p, "commit-only, then a triggered job");
    fw_regs(&fw, fw_acquire(&fw), r[0], false);
    fw_commit(&fw, 1); /* commit only: must not start */
    prog_idle(p, 200);
    fw_r(&fw, NE16_REG_STATUS, NE16_STATUS_CTX0_BUSY_MASK, 0xFFFFFFFFu);
    fw_r(&fw, NE16_REG_FINISHED_JOBS, 0, 0xFFFFFFFFu);
    fw_regs(&fw, fw_acquire(&fw), r[1], false);
    fw_commit(&fw, 0); /* triggers both */
    fw_wait(&fw, 2, iters2(r[0], r[1]));
    fw_r(&fw, NE16_REG_FINISHED_JOBS, 2, 0xFFFFFFFFu);
    fw_check_error(&fw, 1, 0);
    prog_check_golden(p);
    prog_job(p, "two commit-only jobs trigger themselves");
    fw_regs(&fw, fw_acquire(&fw), r[2], false);
    fw_commit(&fw, 0x55);
    prog_idle(p, 100);
    fw_r(&fw, NE16_REG_FINISHED_JOBS, 2, 0xFFFFFFFFu);
    fw_regs(&fw, fw_acquire(&fw), r[3], false);
    fw_commit(&fw, 0xFFFFFFFFu);
    fw_wait(&fw, 2, iters2(r[2], r[3]));
    fw_r(&fw, NE16_REG_FINISHED_JOBS, 4, 0xFFFFFFFFu);
    fw_r(&fw, NE16_REG_STATUS, 0, 0xFFFFFFFFu);
    prog_check_golden(p);
    return 0;
}

int ne16_q_soft_clear(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.queue");
    uint32_t a[NE16_NUM_JOB_REGS], b[NE16_NUM_JOB_REGS], c[NE16_NUM_JOB_REGS], d[NE16_NUM_JOB_REGS];
    if (load_long_job(&fw, 0, a, err, errlen)) return -1;
    if (load_job(&fw, NE16_LAYER_3X3, 1, 20000, b, err, errlen)) return -1;
    if (load_job(&fw, NE16_LAYER_LINEAR, 2, 20000, c, err, errlen)) return -1;
    if (load_job(&fw, NE16_LAYER_DW, 3, 20000, d, err, errlen)) return -1;
    prog_job(p, "SOFT_CLEAR while idle");
    fw_soft_clear(&fw, 0x1234);
    fw_r(&fw, NE16_REG_FINISHED_JOBS, 0, 0xFFFFFFFFu);
    prog_job(p, "SOFT_CLEAR while open (registers kept)");
    fw_regs(&fw, fw_acquire(&fw), b, false);
    fw_soft_clear(&fw, 1);
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) fw_r(&fw, NE16_JOB_REG_BASE + 4 * i, b[i], 0xFFFFFFFFu);
    fw_r(&fw, NE16_REG_ACQUIRE, 0, 0xFFFFFFFFu); /* ids restart at 0 */
    fw.next_id = 1;
    fw_commit(&fw, 0); /* context 0 still holds b: runs b */
    fw_wait(&fw, 1, fw_iterations(b));
    fw_check_error(&fw, 0, 0);
    prog_check_golden(p);
    prog_job(p, "SOFT_CLEAR aborts a running job");
    fw_regs(&fw, fw_acquire(&fw), a, false);
    fw_commit(&fw, 0);
    prog_idle(p, 400);
    fw_r(&fw, NE16_REG_STATUS, NE16_STATUS_CTX1_BUSY_MASK, 0xFFFFFFFFu);
    fw_soft_clear(&fw, 7);
    fw_r(&fw, NE16_REG_STATUS, 0, 0xFFFFFFFFu);
    fw_r(&fw, NE16_REG_FINISHED_JOBS, 0, 0xFFFFFFFFu);
    fw_r(&fw, NE16_REG_RUNNING_JOB, 0, 0xFFFFFFFFu);
    prog_idle(p, 50);     /* no done event, no memory traffic (checked) */
    prog_check_golden(p); /* the aborted job's outputs are undefined */
    prog_job(p, "the queue works after the abort");
    fw_job(&fw, c, false);
    prog_job(p, "SOFT_CLEAR(0) drops held job, clears registers");
    fw_regs(&fw, fw_acquire(&fw), d, false);
    fw_commit(&fw, 1);
    prog_idle(p, 50);
    fw_soft_clear(&fw, 0);
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) fw_r(&fw, NE16_JOB_REG_BASE + 4 * i, 0, 0xFFFFFFFFu);
    fw_r(&fw, NE16_REG_STATUS, 0, 0xFFFFFFFFu);
    prog_idle(p, 100);
    prog_check_golden(p);
    prog_job(p, "after SOFT_CLEAR(0)");
    fw_job(&fw, d, false);
    return 0;
}

int ne16_q_b2b_modes(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.queue");
    for (unsigned pair = 0; pair < 4; pair++) {
        uint32_t a[NE16_NUM_JOB_REGS], b[NE16_NUM_JOB_REGS];
        if (load_job(&fw, (ne16_layer_mode_t)((2 * pair) % 4), 0, 20000, a, err, errlen)) return -1;
        if (load_job(&fw, (ne16_layer_mode_t)((2 * pair + 1) % 4), 1, 20000, b, err, errlen)) return -1;
        if (pair == 3) ne16_make_illegal(&fw.rng, a, rng_range(&fw.rng, 1, 7)); /* rejected, then a normal job */
        prog_job(p, "back-to-back pair %u%s", pair, pair == 3 ? " (first illegal)" : "");
        const uint8_t ida = fw.next_id;
        fw_regs(&fw, fw_acquire(&fw), a, false);
        fw_commit(&fw, 0);
        fw_regs(&fw, fw_acquire(&fw), b, false);
        fw_commit(&fw, 0);
        fw_wait(&fw, 2, iters2(a, b));
        fw_check_error(&fw, ida, fw_code(a));
        prog_check_golden(p);
    }
    return 0;
}

int ne16_q_sw_sync(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.queue");
    prog_job(p, "SW_SYNC pulses");
    for (unsigned v = 0; v < 16; v++) {
        fw_w(&fw, NE16_REG_SW_SYNC, (v & 7u) | (v >= 8 ? (uint32_t)rng_next(&fw.rng) & ~7u : 0));
        prog_idle(p, rng_below(&fw.rng, 3));
    }
    fw_r(&fw, NE16_REG_SW_SYNC, 0, 0xFFFFFFFFu); /* write-only: reads 0 */
    return 0;
}

int ne16_q_ctx_reuse(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.queue");
    for (unsigned i = 0; i < 6; i++) {
        uint32_t r[NE16_NUM_JOB_REGS];
        if (load_job(&fw, (ne16_layer_mode_t)(i / 2 % 4), i % 3, 20000, r, err, errlen)) return -1;
        prog_job(p, "context reuse %u (%s)", i, i < 2 ? "all registers" : "changed registers only");
        fw_job(&fw, r, i >= 2);
    }
    return 0;
}
