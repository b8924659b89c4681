/* The per-simulation context: the one place that holds a run's state (seed, cycle, bus models,
 * sequencer, scoreboard, reports). DPI entry points reach it through sim_get(); nothing else is global.
 * An accelerator plugs in through acc_ops_t (tb/<acc>/<acc>_tb.c). */
#ifndef SIM_H
#define SIM_H
#include "bfm_env.h"
#include "mem.h"
#include "plusargs.h" /* sim_plusarg_def_t, tb_plusargs: the table the plusargs are read against */
#include "program.h"
#include "tb_api.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct sim sim_t;
typedef struct scoreboard scoreboard_t;

/* A bus request from the sequencer to the accelerator's configuration bus (CSB or APB). */
typedef struct bus_req {
    uint64_t addr; /* byte address */
    uint32_t data;
    uint8_t strb;
    bool write, nposted;
    uint64_t tag;
} bus_req_t;

typedef struct bus_resp {
    uint64_t tag;
    uint32_t data;
    bool error; /* APB PSLVERR */
    uint64_t cycle;
} bus_resp_t;

typedef struct acc_ops {
    const char *name; /* "nvdla" */
    void *(*create)(sim_t *sim);
    void (*destroy)(void *acc);
    /* Build the program of a named test (generators, directed and register tests). Returns 0, or -1 with
     * a message (unknown test: list the known ones). */
    int (*build)(void *acc, const char *test, uint64_t seed, program_t *p, char *err, size_t errlen);
    /* Import an external stimulus file (NVDLA .cfg). NULL if the accelerator has none. */
    int (*import)(void *acc, const char *path, program_t *p, char *err, size_t errlen);
    void (*bus_push)(void *acc, const bus_req_t *req);
    bool (*bus_pop)(void *acc, bus_resp_t *resp); /* responses to reads / non-posted writes */
    bool (*bus_idle)(void *acc);
    /* Progress an OP_WAIT_IRQ: returns true once the interrupt condition for `mask` is met (and acked). */
    bool (*wait_irq)(void *acc, uint32_t mask);
    mem_t *(*dut_mem)(void *acc);
    mem_t *(*golden_mem)(void *acc); /* shadow the golden model writes; may be NULL */
    /* Compare DUT memory with the golden model's output since the last check; reports through sb. */
    void (*golden_check)(void *acc, scoreboard_t *sb);
    /* Name a bus address for messages ("NVDLA_BDMA.CFG_OP_0"); returns buf. */
    const char *(*reg_name)(void *acc, uint64_t addr, char *buf, size_t n);
    /* Extra lines for failure messages (unit state, outstanding traffic). */
    void (*describe)(void *acc, FILE *f);
    /* Waveform: scope to dump and signals for the GTKWave save file (NULL-terminated, full paths). */
    const char *wave_scope;
    const char *const *wave_signals;
    /* Cycles a wait may take before the watchdog fires, unless +watchdog= says otherwise; 0 = 200000. */
    uint64_t default_watchdog;
    /* A bound on the cycles the DUT may take for the work the program has started, derived from the program
     * (e.g. the layers of a MAX78000 run); an interrupt wait's watchdog is at least this. May be NULL. */
    uint64_t (*wait_budget)(void *acc);
    /* The run's stall level: how hard the bus models hold the DUT back (the accelerator's own +stall, declared in
     * tb/<acc>/<acc>_plusargs.tsv: 0 never, 1 seeded, the default). Common code keys the cycle budgets and the
     * functional-coverage file names on it (sim_stall). NULL: the accelerator has no such setting, read as 1. */
    uint64_t (*stall)(const sim_t *sim);
    /* Golden-only runs (+golden_only / GOLDEN_ONLY=1): the program runs on the golden model alone, no RTL is
     * simulated, and only the stimulus' own expectations are checked (read values, CRCs, expected files).
     * golden_bus executes one bus request on the golden model at once (*resp: read data, error);
     * golden_irq is the interrupt condition for `mask` by the golden model; golden_finish runs the
     * end-of-program checks (may be NULL). golden_bus NULL: the accelerator has no golden-only mode. */
    void (*golden_bus)(void *acc, const bus_req_t *req, bus_resp_t *resp);
    bool (*golden_irq)(void *acc, uint32_t mask);
    void (*golden_finish)(void *acc, scoreboard_t *sb);
} acc_ops_t;

/* Provided by the accelerator's testbench file. */
extern const acc_ops_t tb_acc_ops;

sim_t *sim_get(void);          /* the running simulation (for DPI entry points) */
void *sim_acc(const sim_t *s); /* the accelerator context acc_ops_t.create returned; NULL in reset */
uint64_t sim_cycle(const sim_t *s);
uint64_t sim_seed(const sim_t *s);
const bfm_env_t *sim_env(sim_t *s);
const char *sim_plusarg(const sim_t *s, const char *name); /* "+name=value" → "value", or NULL */
uint64_t sim_plusarg_u64(const sim_t *s, const char *name, uint64_t dflt);
bool sim_plusarg_flag(const sim_t *s, const char *name); /* "+name" or "+name=1" */
scoreboard_t *sim_scoreboard(sim_t *s);
/* " (file:line)" of the program op that issued bus request `tag` (under mask), or "" when unknown: for errors
 * that arrive after the sequencer moved on (a posted write's PSLVERR). Returns buf. */
const char *sim_where_tag(const sim_t *s, uint64_t tag, uint64_t mask, char *buf, size_t n);
bool sim_driver_run(const sim_t *s); /* the program comes from a driver in the loop (driver_loop.h) */
uint64_t sim_stall(const sim_t *s);  /* the accelerator's stall level (acc_ops_t.stall; 1 without one) */

/* One fault an accelerator can inject (+fault=NAME[:N]); `id` 0 is reserved for "no fault". */
typedef struct sim_fault_kind {
    const char *name; /* NULL ends the table */
    int id;
    uint64_t dflt;   /* N when the plusarg gives none */
    const char *arg; /* what N means, for the error message ("beat", "bit"); NULL: takes no N */
} sim_fault_kind_t;
/* Parses +fault=NAME[:N] against `kinds`: returns the kind's id (0 without +fault) and sets *n. An unknown
 * name or a bad N stops the run (exit 2) listing the known faults. */
int sim_plusarg_fault(const sim_t *s, const sim_fault_kind_t *kinds, uint64_t *n);

/* The requested +fault was injected: a run whose +fault never fired fails ("requested but never injected"),
 * since its pass would say nothing. Accelerators call it where they inject. */
void sim_fault_injected(sim_t *s);
/* One expected value was checked outside the scoreboard's byte compares (a register read against its
 * expected value). A run that compared no output byte and checked no such value fails ("nothing was
 * checked") unless its program is register-only. */
void sim_count_check(sim_t *s);

/* Report an error (counts toward failure) or a note, with the cycle and current job prefixed. */
void sim_error(sim_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sim_note(sim_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line printed as "coverage: ..." just before the run's verdict, even under +quiet: a check that constrains
 * only part of what its name suggests says so where the verdict is read (at most 4 per run). */
/* The memories whose fence (mem_fence_set) the sequencer checks every step; either may be NULL. Asking the
 * accelerator for its memories each cycle is no option: a view may be rebuilt on each call (MAX78000). */
void sim_watch_fences(sim_t *s, const mem_t *dut, const mem_t *golden);
/* The first unreported access outside a watched fence, as a sentence in buf; false when there is none. */
bool sim_fence_report(sim_t *s, char *buf, size_t n);
void sim_summary(sim_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sim_error_count(const sim_t *s);
/* The cycle a failure happened in the DUT (e.g. when the first wrong byte was written), if earlier than
 * its detection: the GTKWave marker goes there. The first call wins. */
void sim_mark_failure(sim_t *s, uint64_t cycle, const char *what);
#endif
