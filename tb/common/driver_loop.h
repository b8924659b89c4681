/* Driver in the loop: a vendor's or user's C driver runs live against the simulation, in its own coroutine
 * (ucontext), beside the per-cycle bus models. Each call below is one program operation (program.h): the
 * coroutine hands it to the sequencer and sleeps until the sequencer has executed it, so every register
 * access goes through the accelerator's real bus model (CSB, APB: checks, backpressure, the monitor that
 * feeds the golden model), waits have the sequencer's watchdog, and simulated time advances only while the
 * driver is blocked. Nothing spins on the host. The run keeps everything else a program run has: seed,
 * scoreboard jobs, golden checks, repro line, waves; +dump= writes the operations the driver performed as a
 * native trace that replays without it (reads it repeated until a value changed become polls).
 *
 * An accelerator plugs a driver in from its build()/import() hook with drv_attach(); see docs/drivers.md. */
#ifndef DRIVER_LOOP_H
#define DRIVER_LOOP_H
#include "program.h"
#include "sim.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct drv drv_t;

/* The driver's body, run in the coroutine. A nonzero return fails the run ("driver returned N"). */
typedef int (*drv_main_t)(drv_t *d, void *arg);

/* Make program p (empty) a live driver run: its operations are produced by main(d, arg) as the run goes.
 * arg_free (may be NULL) releases arg when the program is freed. stack_bytes: 0 = 1 MiB. */
void drv_attach(program_t *p, sim_t *sim, drv_main_t main, void *arg, void (*arg_free)(void *), size_t stack_bytes);

/* ---- called by the driver (from inside main) ---------------------------------------------------- */
uint32_t drv_reg_read(drv_t *d, uint64_t addr);                /* blocks until the data is back */
void drv_reg_write(drv_t *d, uint64_t addr, uint32_t data);    /* posted: returns once issued */
void drv_reg_write_np(drv_t *d, uint64_t addr, uint32_t data); /* non-posted: waits for the ack */
/* A read the bench checks ((value ^ expect) & mask == 0, mask 0: no check) like a program's OP_READ and
 * records as it is; returns the value. */
uint32_t drv_reg_expect(drv_t *d, uint64_t addr, uint32_t expect, uint32_t mask);
/* Memory through the memory model's back door (no simulated time): writes reach the DUT's memory and the
 * golden model's shadow, reads see the DUT's memory (the golden model's in golden-only runs). */
void drv_mem_write(drv_t *d, uint64_t addr, const void *src, size_t n);
void drv_mem_fill(drv_t *d, uint64_t addr, uint64_t n, uint8_t v);
void drv_mem_read(drv_t *d, uint64_t addr, void *dst, size_t n);
/* The regions the stimulus declares (a loadable's memory entries): from now on every DUT and golden-model access
 * outside them fails the run, naming the actor, the address and the nearest region (mem_fence_set, mem.h). */
void drv_mem_fence(drv_t *d, const mem_region_t *regions, size_t n);
/* Wait for the interrupt: mask 0 = the line (the driver services it); otherwise the accelerator's
 * OP_WAIT_IRQ meaning. timeout 0 = the watchdog. A watchdog expiry fails the run: the call does not return. */
void drv_wait_irq(drv_t *d, uint32_t mask, uint64_t timeout);
void drv_idle(drv_t *d, uint64_t cycles);                                           /* let simulated time pass */
void drv_job(drv_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3))); /* new scoreboard job */
void drv_check_golden(drv_t *d);                                                    /* DUT memory vs golden model */
/* Any other program operation (the fields of *op are copied); returns the value a read/poll returned. */
uint32_t drv_op(drv_t *d, const op_t *op);
uint64_t drv_cycle(const drv_t *d);
uint64_t drv_seed(const drv_t *d);
sim_t *drv_sim(const drv_t *d);
/* Fail the run with a message naming the driver and cycle; the driver is not resumed. */
_Noreturn void drv_fail(drv_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void drv_vnote(drv_t *d, const char *fmt, va_list ap);

/* Counters of the run (the microbenchmark, docs/drivers.md). */
typedef struct drv_stats {
    uint64_t switches, ops, reg_reads, reg_writes, polls_recorded;
} drv_stats_t;
drv_stats_t drv_stats(const drv_t *d);
#endif
