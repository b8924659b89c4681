/* Driver in the loop (driver_loop.h): the driver's coroutine and the program source that feeds the
 * sequencer from it, and the record of what it did for +dump=.
 *
 * Hand-off: the sequencer calls more() when it has executed every operation; more() empties the program and
 * resumes the coroutine, which appends its next operation and swaps back; the sequencer executes it, in
 * simulated time, then calls done() with the value a read returned and, on its next step, more() again,
 * which resumes the driver where its call returns. One operation per switch, so the driver's view (memory,
 * cycle, values) is always current.
 *
 * Switching: makecontext/swapcontext only start the coroutine on its own stack; every later switch is
 * _setjmp/_longjmp, which save no signal mask. swapcontext makes a sigprocmask system call per switch: measured
 * here 650 ns of CPU per round trip against 34 ns (docs/drivers.md). Neither side ever returns through the
 * other's frames: the driver ends by jumping back. */
#define _XOPEN_SOURCE 700 /* ucontext, _setjmp */
#undef _FORTIFY_SOURCE    /* its longjmp check refuses a jump to another stack, which is the point here */
#include "driver_loop.h"
#include "sequencer.h"
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

struct drv {
    prog_source_t src; /* first: the program's source is this driver */
    sim_t *sim;
    program_t *prog; /* the sequencer's program: this driver's pending operation(s) */
    program_t rec;   /* every operation performed, as a native trace (only with +dump=) */
    bool recording;
    drv_main_t main;
    void *arg;
    void (*arg_free)(void *);
    ucontext_t host, coro; /* only to start the coroutine */
    jmp_buf host_jb, coro_jb;
    void *stack;
    size_t stack_bytes;
    bool started, finished;
    const acc_ops_t *ops; /* the sequencer's accelerator ops (golden-only: the golden model's) */
    void *acc;
    uint32_t value;                         /* what the last read returned */
    bool plain;                             /* the pending read is drv_reg_read's: the driver judges the value */
    uint64_t watchdog;                      /* cycles a run of reads of one address may take (a driver's poll) */
    uint64_t poll_addr, poll_since, poll_n; /* consecutive reads of one address */
    size_t rec_poll_n;                      /* trailing plain reads of poll_addr in rec (candidates for a poll) */
    drv_stats_t st;
};

static void rec_copy(drv_t *d, const op_t *op)
{
    if (!d->recording) return;
    op_t *r = program_add(&d->rec, op->kind);
    *r = *op;
    r->file = NULL;
    r->line = 0;
    if (op->nbytes) {
        r->bytes = malloc(op->nbytes);
        if (!r->bytes) abort();
        memcpy(r->bytes, op->bytes, op->nbytes);
    }
    if (op->text) r->text = strdup(op->text);
}

/* Append an operation for the sequencer and sleep until it has run. */
static void run(drv_t *d, const op_t *op)
{
    op_t *o = program_add(d->prog, op->kind);
    uint8_t *bytes = NULL;
    if (op->nbytes) {
        bytes = malloc(op->nbytes);
        if (!bytes) abort();
        memcpy(bytes, op->bytes, op->nbytes);
    }
    *o = *op;
    o->bytes = bytes;
    o->text = op->text ? strdup(op->text) : NULL;
    if (!d->plain || d->poll_n == 0 || op->addr != d->poll_addr) d->rec_poll_n = 0;
    rec_copy(d, o);
    d->st.ops++;
    d->st.switches++;
    if (!_setjmp(d->coro_jb)) _longjmp(d->host_jb, 1);
}

static uint64_t default_watchdog(const drv_t *d)
{
    uint64_t w = sim_plusarg_u64(d->sim, "watchdog", 0);
    if (!w) w = d->ops && d->ops->default_watchdog ? d->ops->default_watchdog : 200000;
    return w;
}

/* A read returned `value`. Reads of one address in a row whose value changed are the driver polling: in the
 * record they become one OP_POLL for the final value under the bits that changed (the reads before the first
 * one equal to the final value stay reads), so the replay issues the same reads in the same cycles. */
static void record_read(drv_t *d, uint64_t addr, uint32_t value, bool plain)
{
    if (d->poll_n && addr == d->poll_addr) {
        d->poll_n++;
        if (sim_cycle(d->sim) - d->poll_since > d->watchdog) {
            char reg[96];
            d->ops->reg_name(d->acc, addr, reg, sizeof reg);
            sim_error(d->sim,
                      "watchdog: the driver read %s (0x%llx) %llu times in a row over %llu cycles (last value "
                      "0x%08x) without doing anything else",
                      reg, (unsigned long long)addr, (unsigned long long)d->poll_n,
                      (unsigned long long)(sim_cycle(d->sim) - d->poll_since), value);
        }
    } else {
        d->poll_addr = addr;
        d->poll_n = 1;
        d->poll_since = sim_cycle(d->sim);
    }
    if (!d->recording) return;
    op_t *last = &d->rec.ops[d->rec.n - 1];
    if (!plain) {
        d->rec_poll_n = 0;
        return;
    }
    last->data = value;
    last->mask = 0xFFFFFFFFu;
    /* earlier plain reads of this address with another value, back to the last one equal to this value */
    size_t k = 0;
    uint32_t changed = 0;
    while (k < d->rec_poll_n && d->rec.ops[d->rec.n - 2 - k].data != value) {
        changed |= d->rec.ops[d->rec.n - 2 - k].data ^ value;
        k++;
    }
    if (k) {
        d->rec.n -= k + 1; /* reads carry no owned bytes or text */
        op_t *p = program_add(&d->rec, OP_POLL);
        p->addr = addr;
        p->data = value;
        p->mask = changed;
        d->st.polls_recorded++;
        d->rec_poll_n = 0; /* a poll ends the run: later reads start a new one */
    } else {
        d->rec_poll_n++;
    }
}

static void src_done(prog_source_t *src, const op_t *op, uint32_t value)
{
    drv_t *d = (drv_t *)src;
    d->value = value;
    bool read = op->kind == OP_READ || op->kind == OP_POLL;
    if (read) record_read(d, op->addr, value, d->plain);
    else d->poll_n = 0;
}

static void trampoline(unsigned lo, unsigned hi)
{
    drv_t *d = (drv_t *)(((uintptr_t)hi << 16 << 16) | (uintptr_t)lo);
    int rc = d->main(d, d->arg);
    if (rc) sim_error(d->sim, "driver returned %d", rc);
    d->finished = true;
    _longjmp(d->host_jb, 1); /* never return: uc_link's context is a frame long gone */
}

static bool src_more(prog_source_t *src, const struct acc_ops *ops, void *acc)
{
    drv_t *d = (drv_t *)src;
    program_t *p = d->prog;
    for (size_t i = 0; i < p->n; i++) { /* the operations the sequencer has executed */
        free(p->ops[i].bytes);
        free(p->ops[i].text);
    }
    p->n = 0;
    if (d->finished) return false;
    d->ops = ops;
    d->acc = acc;
    d->st.switches++;
    if (_setjmp(d->host_jb)) return p->n > 0; /* the driver appended an operation, or ended */
    if (d->started) _longjmp(d->coro_jb, 1);
    {
        d->started = true;
        d->watchdog = default_watchdog(d);
        d->stack_bytes = d->stack_bytes ? d->stack_bytes : (size_t)1 << 20;
        d->stack = malloc(d->stack_bytes);
        if (!d->stack || getcontext(&d->coro) != 0) abort();
        d->coro.uc_stack.ss_sp = d->stack;
        d->coro.uc_stack.ss_size = d->stack_bytes;
        d->coro.uc_link = &d->host;
        uintptr_t u = (uintptr_t)d;
        makecontext(&d->coro, (void (*)(void))trampoline, 2, (unsigned)(u & 0xFFFFFFFFu), (unsigned)(u >> 16 >> 16));
        swapcontext(&d->host, &d->coro); /* the driver's first yield comes back through host_jb */
    }
    abort();
}

static void src_dump(prog_source_t *src, FILE *f)
{
    drv_t *d = (drv_t *)src;
    trace_write(&d->rec, f);
}

static void src_release(prog_source_t *src)
{
    drv_t *d = (drv_t *)src;
    if (d->arg_free) d->arg_free(d->arg);
    program_free(&d->rec);
    free(d->stack); /* an unfinished driver (a failed run) is abandoned with its stack */
    free(d);
}

void drv_attach(program_t *p, sim_t *sim, drv_main_t main, void *arg, void (*arg_free)(void *), size_t stack_bytes)
{
    drv_t *d = calloc(1, sizeof *d);
    if (!d) abort();
    d->src = (prog_source_t){.more = src_more, .done = src_done, .dump = src_dump, .release = src_release};
    d->sim = sim;
    d->prog = p;
    d->main = main;
    d->arg = arg;
    d->arg_free = arg_free;
    d->stack_bytes = stack_bytes;
    const char *dump = sim_plusarg(sim, "dump");
    d->recording = dump && *dump;
    program_init(&d->rec, p->acc, p->name, p->seed);
    p->source = &d->src;
}

/* ---- the driver's calls ----------------------------------------------------------------------------- */
uint32_t drv_op(drv_t *d, const op_t *op)
{
    run(d, op);
    return d->value;
}

uint32_t drv_reg_read(drv_t *d, uint64_t addr)
{
    op_t o = {.kind = OP_READ, .addr = addr, .strb = 0xF, .mask = 0}; /* mask 0: the driver judges the value */
    d->st.reg_reads++;
    d->plain = true;
    uint32_t v = drv_op(d, &o);
    d->plain = false;
    return v;
}

uint32_t drv_reg_expect(drv_t *d, uint64_t addr, uint32_t expect, uint32_t mask)
{
    op_t o = {.kind = OP_READ, .addr = addr, .data = expect, .strb = 0xF, .mask = mask};
    d->st.reg_reads++;
    return drv_op(d, &o);
}

void drv_reg_write(drv_t *d, uint64_t addr, uint32_t data)
{
    op_t o = {.kind = OP_WRITE, .addr = addr, .data = data, .strb = 0xF, .mask = 0xFFFFFFFFu};
    d->st.reg_writes++;
    run(d, &o);
}

void drv_reg_write_np(drv_t *d, uint64_t addr, uint32_t data)
{
    op_t o = {.kind = OP_WRITE, .addr = addr, .data = data, .strb = 0xF, .mask = 0xFFFFFFFFu, .nposted = true};
    d->st.reg_writes++;
    run(d, &o);
}

void drv_mem_write(drv_t *d, uint64_t addr, const void *src, size_t n)
{
    op_t o = {.kind = OP_MEM, .addr = addr, .bytes = (uint8_t *)(uintptr_t)src, .nbytes = n, .size = n};
    run(d, &o);
}

void drv_mem_fill(drv_t *d, uint64_t addr, uint64_t n, uint8_t v)
{
    op_t o = {.kind = OP_MEM_FILL, .addr = addr, .size = n, .data = v};
    run(d, &o);
}

void drv_mem_read(drv_t *d, uint64_t addr, void *dst, size_t n)
{
    uint8_t *b = dst;
    const mem_t *m = d->ops->dut_mem(d->acc);
    for (size_t i = 0; i < n; i++) b[i] = mem_host_read8(m, addr + i);
}

void drv_mem_fence(drv_t *d, const mem_region_t *regions, size_t n)
{
    mem_t *m = d->ops->dut_mem(d->acc);
    mem_fence_set(m, regions, n);
    mem_fence_actor(m, "the DUT");
    mem_t *g = d->ops->golden_mem ? d->ops->golden_mem(d->acc) : NULL;
    if (g) {
        mem_fence_set(g, regions, n);
        mem_fence_actor(g, "the golden model");
    }
    sim_watch_fences(d->sim, m, g);
}

void drv_wait_irq(drv_t *d, uint32_t mask, uint64_t timeout)
{
    op_t o = {.kind = OP_WAIT_IRQ, .mask = mask, .timeout = timeout};
    run(d, &o);
}

void drv_idle(drv_t *d, uint64_t cycles)
{
    op_t o = {.kind = OP_IDLE, .size = cycles};
    run(d, &o);
}

void drv_job(drv_t *d, const char *fmt, ...)
{
    char name[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    op_t o = {.kind = OP_JOB, .text = name};
    run(d, &o);
}

void drv_check_golden(drv_t *d)
{
    op_t o = {.kind = OP_CHECK_GOLDEN};
    run(d, &o);
}

uint64_t drv_cycle(const drv_t *d) { return sim_cycle(d->sim); }
uint64_t drv_seed(const drv_t *d) { return sim_seed(d->sim); }
sim_t *drv_sim(const drv_t *d) { return d->sim; }
drv_stats_t drv_stats(const drv_t *d) { return d->st; }

void drv_vnote(drv_t *d, const char *fmt, va_list ap)
{
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    sim_note(d->sim, "driver: %s", msg);
}

_Noreturn void drv_fail(drv_t *d, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sim_error(d->sim, "driver: %s", msg);
    for (;;) /* the sequencer stops on the error and never resumes it */
        if (!_setjmp(d->coro_jb)) _longjmp(d->host_jb, 1);
}
