#include "sequencer.h"
#include "scoreboard.h"
#include <stdlib.h>
#include <string.h>

enum { TAG_RING = 256 };

struct sequencer {
    sim_t *sim;
    const acc_ops_t *ops;
    void *acc;
    const program_t *prog;
    size_t i;          /* current op */
    bool issued;       /* the current op's bus request went out */
    uint64_t op_start; /* cycle the current op began */
    uint64_t next_tag;
    uint64_t wait_tag;
    uint64_t default_timeout;
    bool begun;
    bool source_ended;  /* a live program's source (prog->source) has no more operations */
    uint32_t last_data; /* data of the last read/poll response, for the source */
    uint64_t loaded;    /* bytes of data the back-door loads so far wrote (program_check_region) */
    char skip_reason[256];
    /* The op of each of the last TAG_RING requests (its index: a live program's ops may move): a posted
     * write's error comes back after the sequencer moved on, and is still told with its program line. */
    struct {
        uint64_t tag;
        size_t op;
        bool used;
    } tags[TAG_RING];
};

sequencer_t *seq_new(sim_t *sim, const acc_ops_t *ops, void *acc, const program_t *prog, uint64_t default_timeout)
{
    sequencer_t *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->sim = sim;
    s->ops = ops;
    s->acc = acc;
    s->prog = prog;
    s->default_timeout = default_timeout;
    s->next_tag = 1;
    return s;
}

void seq_free(sequencer_t *s) { free(s); }
const op_t *seq_op_of_tag(const sequencer_t *s, uint64_t tag, uint64_t mask)
{
    const op_t *found = NULL;
    uint64_t newest = 0;
    for (size_t k = 0; k < TAG_RING; k++)
        if (s->tags[k].used && (s->tags[k].tag & mask) == tag && (!found || s->tags[k].tag > newest)) {
            newest = s->tags[k].tag;
            found = s->tags[k].op < s->prog->n ? &s->prog->ops[s->tags[k].op] : NULL;
        }
    return found;
}

const op_t *seq_current_op(const sequencer_t *s) { return &s->prog->ops[s->i < s->prog->n ? s->i : s->prog->n]; }
const char *seq_skip_reason(const sequencer_t *s) { return s->skip_reason; }

static const char *where(const op_t *op, char *buf, size_t n)
{
    if (op->file) snprintf(buf, n, " (%s:%d)", op->file, op->line);
    else buf[0] = 0;
    return buf;
}

/* Every back-door load, of any stimulus format or driver, passes here before it allocates host memory. */
static bool load_within_limits(sequencer_t *s, const op_t *op)
{
    char err[400];
    if (!program_check_region(op, s->prog->source ? SIZE_MAX : s->i, &s->loaded, err, sizeof err)) return true;
    sim_error(s->sim, "%s", err);
    return false;
}

static uint64_t timeout_of(const sequencer_t *s, const op_t *op)
{
    if (op->timeout) return op->timeout;
    if (s->default_timeout) return s->default_timeout; /* +watchdog= */
    uint64_t t = s->ops->default_watchdog ? s->ops->default_watchdog : 200000;
    if (op->kind == OP_WAIT_IRQ && s->ops->wait_budget) {
        uint64_t b = s->ops->wait_budget(s->acc);
        if (b > t) t = b;
    }
    return t;
}

static void next_op(sequencer_t *s)
{
    s->i++;
    s->issued = false;
    s->op_start = sim_cycle(s->sim);
}

static void issue(sequencer_t *s, const op_t *op, bool write)
{
    bus_req_t r = {.addr = op->addr,
                   .data = write ? op->data : 0,
                   .strb = op->strb,
                   .write = write,
                   .nposted = write && op->nposted,
                   .tag = s->next_tag++};
    s->wait_tag = r.tag;
    s->tags[r.tag % TAG_RING].tag = r.tag;
    s->tags[r.tag % TAG_RING].op = s->i;
    s->tags[r.tag % TAG_RING].used = true;
    s->ops->bus_push(s->acc, &r);
    s->issued = true;
}

/* Wait for the response with wait_tag; returns true with *resp when it arrived. */
static bool take_response(sequencer_t *s, bus_resp_t *resp)
{
    while (s->ops->bus_pop(s->acc, resp)) {
        if (resp->tag == s->wait_tag) return true;
        sim_error(s->sim, "bus: unexpected response tag %llu (waiting for %llu)", (unsigned long long)resp->tag,
                  (unsigned long long)s->wait_tag);
    }
    return false;
}

static void watchdog(sequencer_t *s, const op_t *op, const char *what)
{
    char reg[96], loc[300];
    s->ops->reg_name(s->acc, op->addr, reg, sizeof reg);
    sim_error(s->sim, "watchdog: %s did not complete within %llu cycles%s", what, (unsigned long long)timeout_of(s, op),
              where(op, loc, sizeof loc));
    s->ops->describe(s->acc, stderr);
}

static void check_crc(sequencer_t *s, const op_t *op)
{
    mem_t *dut = s->ops->dut_mem(s->acc);
    uint32_t crc = mem_crc32(dut, op->addr, op->size);
    sb_add_compared(sim_scoreboard(s->sim), op->size);
    if (crc == op->data) {
        sim_note(s->sim, "check_crc [0x%llx, +0x%llx) = 0x%08x ok", (unsigned long long)op->addr,
                 (unsigned long long)op->size, crc);
        return;
    }
    char loc[300];
    sim_error(s->sim, "check_crc [0x%llx, +0x%llx): expected CRC 0x%08x, DUT memory gives 0x%08x%s",
              (unsigned long long)op->addr, (unsigned long long)op->size, op->data, crc, where(op, loc, sizeof loc));
    mem_t *gold = s->ops->golden_mem ? s->ops->golden_mem(s->acc) : NULL;
    if (gold) { /* the golden model's full image locates the damage the CRC only detects */
        uint32_t gcrc = mem_crc32(gold, op->addr, op->size);
        uint64_t first = 0, n = mem_diff(dut, gold, op->addr, op->size, &first);
        sim_note(s->sim, "golden model image CRC 0x%08x (%s the expected CRC); DUT differs from it in %llu bytes%s",
                 gcrc, gcrc == op->data ? "matches" : "does NOT match", (unsigned long long)n, n ? "" : "");
        if (n)
            sim_note(s->sim, "first difference at 0x%llx: golden 0x%02x, DUT 0x%02x", (unsigned long long)first,
                     mem_host_read8(gold, first), mem_host_read8(dut, first));
    }
}

static void check_mem(sequencer_t *s, const op_t *op)
{
    mem_t *dut = s->ops->dut_mem(s->acc);
    sb_add_compared(sim_scoreboard(s->sim), op->nbytes);
    for (size_t k = 0; k < op->nbytes; k++) {
        uint8_t got = mem_host_read8(dut, op->addr + k);
        if (got != op->bytes[k]) {
            char loc[300];
            sim_error(s->sim, "check_mem at 0x%llx (byte %zu of %zu%s%s): expected 0x%02x got 0x%02x%s",
                      (unsigned long long)(op->addr + k), k, op->nbytes, op->text ? " from " : "",
                      op->text ? op->text : "", op->bytes[k], got, where(op, loc, sizeof loc));
            return;
        }
    }
}

static void check_golden(sequencer_t *s, const op_t *op)
{
    if (!s->ops->golden_check) {
        char loc[300];
        sim_error(s->sim, "check_golden: accelerator '%s' has no golden model%s", s->ops->name,
                  where(op, loc, sizeof loc));
        return;
    }
    scoreboard_t *sb = sim_scoreboard(s->sim);
    uint64_t before = sb_current(sb)->mismatches;
    s->ops->golden_check(s->acc, sb);
    if (sb_current(sb)->mismatches > before) sim_error(s->sim, "MISMATCH %s", sb_last_mismatch(sb));
}

/* Returns true when the op finished this cycle (so the next may start in the same cycle). */
static bool run_op(sequencer_t *s, const op_t *op)
{
    sim_t *sim = s->sim;
    uint64_t waited = sim_cycle(sim) - s->op_start;
    bus_resp_t resp;
    char reg[96], loc[300];
    switch (op->kind) {
    case OP_JOB:
        sb_job_begin(sim_scoreboard(sim), op->text ? op->text : "", sim_cycle(sim));
        sim_note(sim, "start");
        return true;
    case OP_WRITE:
        if (!s->issued) {
            issue(s, op, true);
            if (!op->nposted) return true;
        }
        if (take_response(s, &resp)) {
            if (resp.error) {
                sim_error(sim, "bus error on write of 0x%08x to %s (0x%llx)%s", op->data,
                          s->ops->reg_name(s->acc, op->addr, reg, sizeof reg), (unsigned long long)op->addr,
                          where(op, loc, sizeof loc));
            }
            return true;
        }
        if (waited > timeout_of(s, op)) watchdog(s, op, "non-posted write");
        return false;
    case OP_READ:
    case OP_POLL:
        if (!s->issued) issue(s, op, false);
        if (!take_response(s, &resp)) {
            if (waited > timeout_of(s, op)) watchdog(s, op, op->kind == OP_READ ? "read" : "poll");
            return false;
        }
        s->last_data = resp.data;
        if (resp.error) {
            sim_error(sim, "bus error on read of %s (0x%llx)%s", s->ops->reg_name(s->acc, op->addr, reg, sizeof reg),
                      (unsigned long long)op->addr, where(op, loc, sizeof loc));
            return true;
        }
        if (op->kind == OP_READ && op->mask && !op->readback) sim_count_check(sim); /* an expected value was read */
        if (((resp.data ^ op->data) & op->mask) == 0) return true;
        if (op->kind == OP_POLL) {
            if (waited > timeout_of(s, op)) {
                sim_error(sim, "poll of %s (0x%llx): still 0x%08x, want 0x%08x under mask 0x%08x after %llu cycles%s",
                          s->ops->reg_name(s->acc, op->addr, reg, sizeof reg), (unsigned long long)op->addr, resp.data,
                          op->data, op->mask, (unsigned long long)waited, where(op, loc, sizeof loc));
                return true;
            }
            s->issued = false; /* read again */
            return false;
        }
        sim_error(sim, "read of %s (0x%llx): expected 0x%08x under mask 0x%08x, got 0x%08x (differs in 0x%08x)%s",
                  s->ops->reg_name(s->acc, op->addr, reg, sizeof reg), (unsigned long long)op->addr, op->data, op->mask,
                  resp.data, (resp.data ^ op->data) & op->mask, where(op, loc, sizeof loc));
        return true;
    case OP_WAIT_IRQ:
        if (s->ops->wait_irq(s->acc, op->mask)) {
            sim_note(sim, "interrupt 0x%x after %llu cycles", op->mask, (unsigned long long)waited);
            return true;
        }
        if (waited > timeout_of(s, op)) {
            char what[96];
            snprintf(what, sizeof what, "wait for interrupt (event mask 0x%x)", op->mask);
            watchdog(s, op, what);
            return true;
        }
        return false;
    case OP_IDLE: return waited >= op->size;
    case OP_MEM:
    case OP_MEM_FILL: {
        if (!load_within_limits(s, op)) return true;
        mem_t *g = s->ops->golden_mem ? s->ops->golden_mem(s->acc) : NULL;
        if (op->kind == OP_MEM) {
            mem_host_write(s->ops->dut_mem(s->acc), op->addr, op->bytes, op->nbytes);
            if (g) mem_host_write(g, op->addr, op->bytes, op->nbytes);
        } else {
            mem_fill(s->ops->dut_mem(s->acc), op->addr, op->size, (uint8_t)op->data);
            if (g) mem_fill(g, op->addr, op->size, (uint8_t)op->data);
        }
        return true;
    }
    case OP_CHECK_CRC: check_crc(s, op); return true;
    case OP_CHECK_MEM: check_mem(s, op); return true;
    case OP_CHECK_GOLDEN: check_golden(s, op); return true;
    case OP_SKIP: snprintf(s->skip_reason, sizeof s->skip_reason, "%s", op->text ? op->text : ""); return true;
    }
    return true;
}

/* An access of the DUT or the golden model outside the regions the stimulus declared (drv_mem_fence): the
 * golden model's happen within a register write, the DUT's on its bus; either ends the run at once. */
static bool fence_crossed(sequencer_t *s)
{
    char msg[600];
    if (!sim_fence_report(s->sim, msg, sizeof msg)) return false;
    sim_error(s->sim, "DMA outside the stimulus's memory: %s", msg);
    return true;
}

seq_status_t seq_step(sequencer_t *s)
{
    if (s->skip_reason[0]) return SEQ_SKIPPED;
    if (!s->begun) {
        s->begun = true;
        s->op_start = sim_cycle(s->sim);
    }
    /* Several ops that need no bus time (memory, checks, job marks) run back to back in one cycle;
     * bus writes go out one per cycle. */
    if (fence_crossed(s)) return SEQ_FAILED;
    prog_source_t *src = s->prog->source;
    for (int budget = 0; budget < 64; budget++) {
        if (s->i >= s->prog->n) { /* a live program: ask its source (a driver) for the next operations */
            if (!src || s->source_ended) break;
            if (src->more(src, s->ops, s->acc)) s->i = 0;
            else s->source_ended = true;
            if (sim_error_count(s->sim)) return SEQ_FAILED;
            if (s->i >= s->prog->n) break;
        }
        const op_t *op = &s->prog->ops[s->i];
        bool bus_op = op->kind == OP_WRITE || op->kind == OP_READ || op->kind == OP_POLL;
        /* Checks see memory only after every posted write has been accepted. */
        bool needs_quiet = op->kind == OP_CHECK_CRC || op->kind == OP_CHECK_MEM || op->kind == OP_CHECK_GOLDEN;
        if (needs_quiet && !s->ops->bus_idle(s->acc)) return SEQ_RUNNING;
        if (!run_op(s, op)) return SEQ_RUNNING;
        if (sim_error_count(s->sim)) return SEQ_FAILED;
        if (src) src->done(src, op, s->last_data);
        if (s->skip_reason[0]) return SEQ_SKIPPED;
        next_op(s);
        if (bus_op) return SEQ_RUNNING;
    }
    if (s->i < s->prog->n || (src && !s->source_ended)) return SEQ_RUNNING;
    if (!s->ops->bus_idle(s->acc)) return SEQ_RUNNING;
    return SEQ_DONE;
}
