/* The simulation context and the C side of the kernel interface (tb_api.h): plusargs, program selection
 * (test generator, native trace or imported stimulus), the per-cycle step, wave windows, and the final
 * verdict, report and exit status. */
#define _POSIX_C_SOURCE 200809L
#include "sim.h"
#include "checkout_file.h"
#include "cycle_budget.h"
#include "dev_continue.h"
#include "driver_play.h"
#include "dut_info.h"
#include "plusargs.h"
#include "results.h"
#include "scoreboard.h"
#include "sequencer.h"
#include "waves.h"
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_ARGS = 64, MAX_ERRORS_KEPT = 16, WAVE_TAIL = 100, MAX_SUMMARY = 4 };

struct sim {
    const tb_kernel_ops_t *kops;
    const acc_ops_t *acc_ops;
    void *acc;
    int argc;
    char **argv;
    uint64_t cycle;
    uint64_t seed;
    uint64_t max_cycles;
    bfm_env_t env;
    program_t prog;
    sequencer_t *seq;
    scoreboard_t *sb;
    wave_ctl_t waves;
    int errors;
    char first_errors[MAX_ERRORS_KEPT][512];
    int nkept;
    seq_status_t status;
    uint64_t fail_cycle; /* first cycle the run was known to fail */
    uint64_t mark_cycle; /* when the DUT did the wrong thing, if known (sim_mark_failure) */
    char verdict_reason[512];
    uint64_t checked_reads;         /* expected register values read (sim_count_check) */
    const mem_t *fenced[2];         /* memories with a fence (sim_watch_fences): the DUT's, the golden model's */
    char summary[MAX_SUMMARY][400]; /* what a check covered less of than it reads like (sim_summary) */
    int nsummary;
    bool fault_fired;        /* the requested +fault was injected (sim_fault_injected) */
    dev_continue_t *devcont; /* the DUT's deviations whose errors do not stop the run (dev_continue.h) */
    struct timespec t0;
    bool quiet;
    const char **wave_signals; /* the accelerator's signals, then the DUT's below its instance */
    /* golden-only runs: the accelerator's ops with the bus and interrupt served by its golden model */
    acc_ops_t golden_ops;
    bus_resp_t golden_ring[64];
    unsigned golden_head, golden_n;
};

static sim_t the_sim; /* the per-process simulation context (DPI callbacks have no user pointer) */

sim_t *sim_get(void) { return &the_sim; }
/* NULL while the DUT is held in reset: its outputs mean nothing then (random in X-randomised builds), so the
 * DPI ticks neither drive nor check it. */
void *sim_acc(const sim_t *s) { return s->cycle < tb_reset_cycles() ? NULL : s->acc; }
uint64_t sim_cycle(const sim_t *s) { return s->cycle; }
uint64_t sim_seed(const sim_t *s) { return s->seed; }
const bfm_env_t *sim_env(sim_t *s) { return &s->env; }
scoreboard_t *sim_scoreboard(sim_t *s) { return s->sb; }
int sim_error_count(const sim_t *s) { return s->errors; }
const char *sim_where_tag(const sim_t *s, uint64_t tag, uint64_t mask, char *buf, size_t n)
{
    const op_t *op = s->seq ? seq_op_of_tag(s->seq, tag, mask) : NULL;
    if (op && op->file) snprintf(buf, n, " (%s:%d)", op->file, op->line);
    else if (n) buf[0] = 0;
    return buf;
}
bool sim_driver_run(const sim_t *s) { return s->prog.source != NULL; }
uint64_t sim_stall(const sim_t *s) { return s->acc_ops->stall ? s->acc_ops->stall(s) : 1; }

const char *sim_plusarg(const sim_t *s, const char *name)
{
    size_t n = strlen(name);
    if (!plusarg_find(name, n)) { /* every plusarg the code reads is in the tables, so +help and the check hold */
        fprintf(stderr,
                "testbench bug: plusarg +%s is read but not declared in tb/common/plusargs.tsv or "
                "tb/%s/%s_plusargs.tsv\n",
                name, tb_acc_ops.name, tb_acc_ops.name);
        fflush(stdout);
        _Exit(70); /* not abort(): the crash handler would report through this very function again */
    }
    for (int i = 1; i < s->argc; i++) {
        const char *a = s->argv[i];
        if (a[0] == '+' && strncmp(a + 1, name, n) == 0) {
            if (a[1 + n] == '=') return a + 2 + n;
            if (a[1 + n] == '\0') return "";
        }
    }
    for (size_t i = 0; i < s->prog.nplusargs; i++) { /* recorded in the replayed trace (+dump=) */
        const char *a = s->prog.plusargs[i];
        if (strncmp(a + 1, name, n) == 0) {
            if (a[1 + n] == '=') return a + 2 + n;
            if (a[1 + n] == '\0') return "";
        }
    }
    return NULL;
}

uint64_t sim_plusarg_u64(const sim_t *s, const char *name, uint64_t dflt)
{
    const char *v = sim_plusarg(s, name);
    if (!v || !*v) return dflt;
    uint64_t x;
    if (plusarg_parse_u64(v, &x) != 0) {
        fprintf(stderr, "ERROR: +%s=%s is not an unsigned number 0..18446744073709551615 (decimal or 0x hex)\n", name,
                v);
        exit(2);
    }
    return x;
}

bool sim_plusarg_flag(const sim_t *s, const char *name)
{
    const char *v = sim_plusarg(s, name);
    return v && (*v == '\0' || strcmp(v, "1") == 0);
}

int sim_plusarg_fault(const sim_t *s, const sim_fault_kind_t *kinds, uint64_t *n)
{
    const char *f = sim_plusarg(s, "fault");
    *n = 0;
    if (!f || !*f) return 0;
    const char *colon = strchr(f, ':');
    size_t len = colon ? (size_t)(colon - f) : strlen(f);
    for (const sim_fault_kind_t *k = kinds; k->name; k++) {
        if (strlen(k->name) != len || strncmp(f, k->name, len) != 0) continue;
        *n = k->dflt;
        if (colon) {
            char *end;
            *n = strtoull(colon + 1, &end, 0);
            if (!k->arg || *end || end == colon + 1) break;
        }
        return k->id;
    }
    char known[512] = "";
    size_t used = 0;
    for (const sim_fault_kind_t *k = kinds; k->name && used < sizeof known; k++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s%s%s%s", k == kinds ? "" : ", ", k->name,
                                 k->arg ? "[:" : "", k->arg ? k->arg : "", k->arg ? "]" : "");
    fprintf(stderr, "ERROR: bad +fault=%s for %s (known: %s)\n", f, s->acc_ops->name, known);
    exit(2);
}

/* Returns true for an error of a deviation the run continues past (dev_continue.h): printed, kept, not counted. */
static bool vreport(sim_t *s, const char *kind, const char *fmt, va_list ap)
{
    char msg[480];
    vsnprintf(msg, sizeof msg, fmt, ap);
    sb_job_t *j = s->sb ? sb_current(s->sb) : NULL;
    char line[1200];
    snprintf(line, sizeof line, "[cycle %llu] %s%s%s%s %s", (unsigned long long)s->cycle, kind, j ? " job '" : "",
             j ? j->name : "", j ? "'" : "", msg);
    const bool error = strcmp(kind, "ERROR") == 0;
    const char *dev = error ? dev_continue_match(s->devcont, line) : NULL;
    fprintf(stderr, "%s%s%s%s\n", line, dev ? " (deviation " : "", dev ? dev : "", dev ? ": the run continues)" : "");
    if (error) {
        if (s->nkept < MAX_ERRORS_KEPT) snprintf(s->first_errors[s->nkept++], 512, "%.511s", line);
        if (s->sb && !dev) sb_note_error(s->sb, s->cycle, line);
    }
    return dev != NULL;
}

void sim_error(sim_t *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const bool continued = vreport(s, "ERROR", fmt, ap);
    va_end(ap);
    if (!continued) s->errors++;
}

void sim_fault_injected(sim_t *s) { s->fault_fired = true; }
void sim_count_check(sim_t *s) { s->checked_reads++; }

/* A run that would pass without having checked anything, or without the fault it was asked to inject, fails. */
static void check_something_checked(sim_t *s)
{
    if (s->status == SEQ_SKIPPED) return;
    const char *fault = sim_plusarg(s, "fault");
    if (fault && *fault && !s->fault_fired)
        sim_error(s,
                  "fault %s requested but never injected (the program never reached it: pick another job, beat "
                  "or test)",
                  fault);
    uint64_t bytes = 0;
    for (size_t i = 0; i < sb_njobs(s->sb); i++) bytes += sb_job(s->sb, i)->bytes_compared;
    if (s->status == SEQ_DONE && !bytes && !s->checked_reads && !s->prog.register_only)
        sim_error(s,
                  "nothing was checked: no output byte compared and no expected register value read (%zu "
                  "operations)",
                  s->prog.n);
    if (s->errors && s->status == SEQ_DONE) s->status = SEQ_FAILED;
    if (!dev_continue_hits(s->devcont) || s->status != SEQ_DONE) return;
    /* Past a continued deviation the run counts only if it went to its end and compared its outputs; it is
     * never a pass (the regression names it XFAIL when nothing else failed: flow/deviations.py). */
    if (!bytes) sim_error(s, "the run went on past a deviation (continue) but compared no output byte");
    else dev_continue_summary(s->devcont, stdout, (unsigned long long)bytes);
    s->status = SEQ_FAILED;
}

void sim_mark_failure(sim_t *s, uint64_t cycle, const char *what)
{
    if (s->mark_cycle) return;
    s->mark_cycle = cycle;
    fprintf(stderr, "[cycle %llu] NOTE the failure originates at cycle %llu: %s (GTKWave marker there)\n",
            (unsigned long long)s->cycle, (unsigned long long)cycle, what);
}

void sim_note(sim_t *s, const char *fmt, ...)
{
    if (s->quiet) return;
    va_list ap;
    va_start(ap, fmt);
    vreport(s, "NOTE", fmt, ap);
    va_end(ap);
}

void sim_watch_fences(sim_t *s, const mem_t *dut, const mem_t *golden)
{
    s->fenced[0] = dut;
    s->fenced[1] = golden;
}

bool sim_fence_report(sim_t *s, char *buf, size_t n)
{
    for (int i = 0; i < 2; i++)
        if (s->fenced[i] && mem_fence_report(s->fenced[i], buf, n)) return true;
    return false;
}

void sim_summary(sim_t *s, const char *fmt, ...)
{
    if (s->nsummary >= MAX_SUMMARY) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->summary[s->nsummary++], sizeof s->summary[0], fmt, ap);
    va_end(ap);
}

/* Bus models prefix their messages with "cycle N: "; the report line carries the cycle already. */
static const char *strip_cycle(const char *msg)
{
    if (strncmp(msg, "cycle ", 6) != 0) return msg;
    const char *p = msg + 6;
    while (*p >= '0' && *p <= '9') p++;
    return (p[0] == ':' && p[1] == ' ') ? p + 2 : msg;
}

static void env_error(void *user, const char *who, const char *msg)
{
    sim_error((sim_t *)user, "%s: %s", who, strip_cycle(msg));
}

static void env_log(void *user, const char *who, const char *msg)
{
    sim_t *s = user;
    fprintf(stdout, "[cycle %llu] %s: %s\n", (unsigned long long)s->cycle, who, strip_cycle(msg));
}

static uint64_t pick_seed(const sim_t *s)
{
    const char *v = sim_plusarg(s, "seed");
    if (v && *v) return sim_plusarg_u64(s, "seed", 1);
    if (s->prog.seed_given) return s->prog.seed; /* a replayed trace runs with the seed it was dumped with */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec * 1000003u) % 1000000007u;
}

/* +trace=: read before the accelerator is created, so that the plusargs and the seed the trace recorded
 * (+dump=) are in force when the bus models read theirs. */
static int load_trace(sim_t *s, const char *trace, char *err, size_t errlen)
{
    if (trace_read(&s->prog, trace, err, errlen) != 0) return -1;
    if (!s->prog.name || !*s->prog.name) { /* external traces carry no name line: use the file's */
        const char *base = strrchr(trace, '/');
        base = base ? base + 1 : trace;
        free(s->prog.name);
        s->prog.name = strndup(base, strcspn(base, "."));
    }
    if (strcmp(s->prog.acc, s->acc_ops->name) != 0) {
        snprintf(err, errlen, "%s: trace is for accelerator '%s' but this simulator is '%s'", trace, s->prog.acc,
                 s->acc_ops->name);
        return -1;
    }
    for (size_t i = 0; i < s->prog.nplusargs; i++) { /* only those that change the outcome, with good values */
        const char *a = s->prog.plusargs[i];
        size_t len = strcspn(a + 1, "=");
        const sim_plusarg_def_t *d = plusarg_find(a + 1, len);
        char why[256];
        if (!d || !d->repro) {
            snprintf(err, errlen, "%s: plusarg %s: not one that changes a run's outcome on %s (make help)", trace, a,
                     s->acc_ops->name);
            return -1;
        }
        if (plusarg_check_value(d, a[1 + len] == '=' ? a + 2 + len : NULL, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: %s", trace, why);
            return -1;
        }
    }
    return 0;
}

/* Build the program of +cfg= (imported stimulus) or +test= (generator); +trace= was read by load_trace. */
static int load_program(sim_t *s, char *err, size_t errlen)
{
    const char *trace = sim_plusarg(s, "trace");
    const char *cfg = sim_plusarg(s, "cfg");
    const char *test = sim_plusarg(s, "test");
    s->prog.seed = s->seed;
    if (trace && *trace) return 0;
    if (cfg && *cfg) {
        if (!s->acc_ops->import) {
            snprintf(err, errlen, "+cfg: accelerator '%s' imports no external format", s->acc_ops->name);
            return -1;
        }
        return s->acc_ops->import(s->acc, cfg, &s->prog, err, errlen);
    }
    if (test && *test) return s->acc_ops->build(s->acc, test, s->seed, &s->prog, err, errlen);
    snprintf(err, errlen, "no stimulus: give +test=<name>, +trace=<file> or +cfg=<file> (see README.md)");
    return -1;
}

/* The checks of values that need more than the table: +watchdog/+max_cycles at least 1, every +features name
 * a feature of this DUT (with a "did you mean"). 0, or -1 with one line in err. */
static int check_args(const sim_t *s, char *err, size_t n)
{
    static const char *const positive[] = {"watchdog", "max_cycles"}; /* 0 would silently mean "default" */
    for (size_t i = 0; i < sizeof positive / sizeof *positive; i++) {
        const char *v = sim_plusarg(s, positive[i]);
        if (v && *v && sim_plusarg_u64(s, positive[i], 1) == 0) {
            snprintf(err, n, "+%s=%s is out of range: at least 1 cycle", positive[i], v);
            return -1;
        }
    }
    /* +features=a,b: each one a feature of this DUT (a typo would turn the tests needing it into skips). */
    const char *f = sim_plusarg(s, "features");
    for (const char *p = f ? f : ""; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        size_t len = strcspn(p, ",");
        bool known = false;
        for (const char *const *k = tb_dut.features; *k && !known; k++)
            known = strlen(*k) == len && strncmp(*k, p, len) == 0;
        if (known) continue;
        const char *best = plusarg_closest(p, len, tb_dut.features);
        int used = snprintf(err, n, "+features=%s: '%.*s' is not a feature of DUT %s%s%s%s (its features:", f, (int)len,
                            p, tb_dut.name, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
        for (const char *const *k = tb_dut.features; *k && used > 0 && (size_t)used < n; k++)
            used += snprintf(err + used, n - (size_t)used, " %s", *k);
        if (used > 0 && (size_t)used < n) snprintf(err + used, n - (size_t)used, ")");
        return -1;
    }
    return 0;
}

/* What can only be checked once the program is known: the job +fault_job names exists, the operations stay
 * within the host's limits. */
static int check_program(sim_t *s, char *err, size_t errlen)
{
    if (program_check_limits(&s->prog, err, errlen) != 0) return -1;
    if (plusarg_find("fault_job", 9)) {
        const char *fj = sim_plusarg(s, "fault_job");
        if (fj && *fj) {
            uint64_t j = sim_plusarg_u64(s, "fault_job", 0), jobs = 0;
            for (size_t i = 0; i < s->prog.n; i++) jobs += s->prog.ops[i].kind == OP_JOB;
            /* ops before the first job mark run in an implicit first job (named after the program) */
            if (s->prog.n == 0 || s->prog.ops[0].kind != OP_JOB) jobs++;
            const char *f = sim_plusarg(s, "fault");
            if (!f || !*f) {
                snprintf(err, errlen, "+fault_job=%s without +fault=: nothing to inject", fj);
                return -1;
            }
            /* a live driver's jobs are made as it runs: a +fault_job past them is caught as a fault that never fired */
            if (j >= jobs && !s->prog.source) {
                snprintf(err, errlen, "+fault_job=%s is out of range: %s has %llu job%s (0..%llu)", fj,
                         s->prog.name ? s->prog.name : "the program", (unsigned long long)jobs, jobs == 1 ? "" : "s",
                         (unsigned long long)(jobs - 1));
                return -1;
            }
        }
    }
    return 0;
}

/* +dump=: the program as a native trace, with the seed and every plusarg that changes the outcome (those of
 * the command line, else of the replayed trace), so that its replay runs as this run did. */
static int dump_program(sim_t *s, const char *dump)
{
    FILE *f = fopen(dump, "w");
    if (!f) {
        fprintf(stderr, "ERROR: +dump=%s: cannot open for writing\n", dump);
        return 2;
    }
    program_t rec = s->prog; /* the same ops; its own plusarg list */
    rec.plusargs = NULL;
    rec.nplusargs = 0;
    for (const sim_plusarg_def_t *d = tb_plusargs; d->name; d++) {
        if (!d->repro || !strcmp(d->name, "golden_only")) continue; /* golden-only is how to run it, not what */
        const char *v = sim_plusarg(s, d->name);
        if (!v) continue;
        char arg[512];
        snprintf(arg, sizeof arg, "+%s%s%s", d->name, *v ? "=" : "", v);
        program_add_plusarg(&rec, arg);
    }
    trace_write(&rec, f);
    for (size_t i = 0; i < rec.nplusargs; i++) free(rec.plusargs[i]);
    free(rec.plusargs);
    fclose(f);
    printf("program dumped to %s (%zu operations, seed %llu, %zu plusargs)\n", dump, s->prog.n,
           (unsigned long long)s->seed, rec.nplusargs);
    return 0;
}

uint64_t tb_reset_cycles(void) { return 20; }

int tb_verilator_seed(void)
{
    uint64_t z = the_sim.seed + 0x9E3779B97F4A7C15ull; /* splitmix64: neighbouring seeds far apart */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (int)(z % 0x7FFFFFFEull) + 1;
}

/* ---- golden-only runs: the bus and the interrupt answered by the golden model at once ---------------- */
static void golden_push(void *acc, const bus_req_t *r)
{
    sim_t *s = &the_sim;
    bus_resp_t resp = {.tag = r->tag, .cycle = s->cycle};
    s->acc_ops->golden_bus(acc, r, &resp);
    if (r->write && !r->nposted) { /* posted writes answer nothing: an error is said here, where the op is known */
        if (resp.error) {
            const op_t *op = s->seq ? seq_current_op(s->seq) : NULL; /* the write being issued */
            char loc[300] = "";
            if (op && op->file) snprintf(loc, sizeof loc, " (%s:%d)", op->file, op->line);
            sim_error(s,
                      "bus: write of 0x%08llx (strb 0x%x) to 0x%08llx answered with an error by the golden model "
                      "(no register or memory there)%s",
                      (unsigned long long)r->data, r->strb, (unsigned long long)r->addr, loc);
        }
        return;
    }
    if (s->golden_n == sizeof s->golden_ring / sizeof *s->golden_ring) {
        sim_error(s, "golden-only: more than %zu unconsumed responses", sizeof s->golden_ring / sizeof *s->golden_ring);
        return;
    }
    s->golden_ring[(s->golden_head + s->golden_n++) % 64] = resp;
}

static bool golden_pop(void *acc, bus_resp_t *resp)
{
    sim_t *s = &the_sim;
    (void)acc;
    if (!s->golden_n) return false;
    *resp = s->golden_ring[s->golden_head];
    s->golden_head = (s->golden_head + 1) % 64;
    s->golden_n--;
    return true;
}

static bool golden_idle(void *acc)
{
    (void)acc;
    return true;
}

static void golden_no_check(void *acc, scoreboard_t *sb) { (void)acc, (void)sb; } /* no DUT to compare */

/* What the regression names the run after (flow/regress.py test_name): the test, else the trace's file name
 * without its extension. */
static const char *run_test_name(const sim_t *s, char *buf, size_t n)
{
    const char *t = sim_plusarg(s, "test");
    if (t && *t) return t;
    const char *p = sim_plusarg(s, "trace");
    if (!p || !*p) p = sim_plusarg(s, "cfg");
    if (!p) return "";
    const char *base = strrchr(p, '/');
    base = base ? base + 1 : p;
    const char *dot = strrchr(base, '.');
    snprintf(buf, n, "%.*s", (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base)), base);
    return buf;
}

/* +deviations=FILE|none, else the checkout's tb/<acc>/duts/<dut>.deviations when the DUT has one. */
static int load_dev_continue(sim_t *s, char *err, size_t n)
{
    const char *arg = sim_plusarg(s, "deviations");
    char where[4200], rel[256], name[256];
    const char *path = NULL;
    if (arg && *arg) {
        if (strcmp(arg, "none") != 0) path = arg;
    } else {
        snprintf(rel, sizeof rel, "tb/%s/duts/%s.deviations", s->acc_ops->name, tb_dut.name);
        FILE *f = checkout_fopen(rel, where, sizeof where);
        if (f) {
            fclose(f);
            path = where;
        }
    }
    s->devcont = dev_continue_load(path, run_test_name(s, name, sizeof name), err, n);
    return s->devcont ? 0 : -1;
}

static int finish(sim_t *s, const char *crash);

/* Golden-only mode: the sequencer's ops with the bus and interrupt of the golden model (checked first). */
static int run_golden_only(sim_t *s)
{
    const acc_ops_t *a = s->acc_ops;
    if (!a->golden_bus || !a->golden_irq) {
        fprintf(stderr, "ERROR: +golden_only: %s has no golden-only mode yet (its testbench provides no golden_bus)\n",
                a->name);
        return 2;
    }
    s->golden_ops = *a;
    s->golden_ops.bus_push = golden_push;
    s->golden_ops.bus_pop = golden_pop;
    s->golden_ops.bus_idle = golden_idle;
    s->golden_ops.wait_irq = a->golden_irq;
    s->golden_ops.golden_check = golden_no_check;
    s->golden_ops.dut_mem = a->golden_mem ? a->golden_mem : a->dut_mem; /* CRC/byte checks read the model */
    printf("golden-only: %s runs on the golden model alone (no RTL)\n", s->prog.name ? s->prog.name : "");
    return 0;
}

/* The save file's signals: the accelerator's bus wires (acc_ops), then the DUT's own internals, which the
 * DUT description names relative to the instance <wave_scope>.dut. */
static const char **wave_signal_list(const acc_ops_t *a)
{
    size_t na = 0, nd = 0;
    while (a->wave_signals && a->wave_signals[na]) na++;
    while (tb_dut.wave_signals[nd]) nd++;
    const char **out = calloc(na + nd + 1, sizeof *out);
    if (!out) abort();
    for (size_t i = 0; i < na; i++) out[i] = a->wave_signals[i];
    for (size_t i = 0; i < nd; i++) {
        const char *sig = tb_dut.wave_signals[i];
        if (sig[0] == '-') {
            out[na + i] = strdup(sig);
        } else {
            size_t len = strlen(a->wave_scope) + strlen(sig) + 6;
            char *full = malloc(len);
            if (!full) abort();
            snprintf(full, len, "%s.dut.%s", a->wave_scope, sig);
            out[na + i] = full;
        }
    }
    return out;
}

static void wave_signal_list_free(const acc_ops_t *a, const char **list)
{
    if (!list) return;
    size_t na = 0;
    while (a->wave_signals && a->wave_signals[na]) na++;
    for (size_t i = na; list[i]; i++) free((char *)list[i]);
    free(list);
}

static void print_repro(const sim_t *s, FILE *f, bool seed_known, bool every_plusarg);

/* A run refused before its first cycle (a stimulus that does not read, a bad value): the error, the result file
 * and the same repro line a failing run prints, so that every failure can be re-run as it was. Returns 2. */
static int setup_fail(const sim_t *s, const char *err, bool seed_known)
{
    if (err && *err) fprintf(stderr, "ERROR: %s\n", err);
    if (err) results_write_setup_error(s->acc_ops->name, sim_plusarg(s, "results"), err, seed_known ? s->seed : 0);
    fflush(stdout);
    print_repro(s, stderr, seed_known, false);
    return 2;
}

int tb_init(int argc, char **argv, const tb_kernel_ops_t *ops)
{
    sim_t *s = &the_sim;
    memset(s, 0, sizeof *s);
    clock_gettime(CLOCK_MONOTONIC, &s->t0);
    s->kops = ops;
    s->acc_ops = &tb_acc_ops;
    s->argc = argc;
    s->argv = argv;
    if (argc > MAX_ARGS) {
        fprintf(stderr, "ERROR: %d arguments, at most %d are accepted (the %dth is '%.80s')\n", argc - 1, MAX_ARGS - 1,
                MAX_ARGS, argv[MAX_ARGS]);
        return 2;
    }
    int bad = plusargs_check(s->acc_ops->name, argc, argv, stdout, stderr);
    if (bad == 1) exit(0); /* +help printed the table */
    if (bad) { /* its repro line passes every plusarg on, the refused one too: run, it refuses the same way */
        print_repro(s, stderr, false, true);
        return bad;
    }
    char err[16384] = ""; /* room for the whole test list (unknown +test=): a shorter buffer cut it */
    const char *test = sim_plusarg(s, "test"), *trace = sim_plusarg(s, "trace");
    program_init(&s->prog, s->acc_ops->name, test ? test : "", 0);
    if (trace && *trace && load_trace(s, trace, err, sizeof err) != 0) return setup_fail(s, err, false);
    s->seed = pick_seed(s);
    if (check_args(s, err, sizeof err) != 0) { return setup_fail(s, err, true); }
    s->quiet = sim_plusarg_flag(s, "quiet");
    s->max_cycles = sim_plusarg_u64(s, "max_cycles", 50000000);
    s->env.user = s;
    s->env.cycle = &s->cycle;
    s->env.error = env_error;
    s->env.log = env_log;
    s->env.log_enabled = sim_plusarg_flag(s, "log");
    s->sb = sb_new();
    s->status = SEQ_RUNNING;
    setvbuf(stdout, NULL, _IOLBF, 0); /* keep notes, logs and errors in order in a captured log */
    printf("accel-cosim %s on DUT %s (%s): seed %llu\n", s->acc_ops->name, tb_dut.name, tb_dut.describe,
           (unsigned long long)s->seed);

    if (load_dev_continue(s, err, sizeof err) != 0) { return setup_fail(s, err, true); }
    s->acc = s->acc_ops->create(s);
    if (!s->acc) return setup_fail(s, NULL, true); /* create() printed why */
    if (load_program(s, err, sizeof err) != 0 || check_program(s, err, sizeof err) != 0) {
        return setup_fail(s, err, true);
    }
    if (sim_plusarg_flag(s, "via_driver") && !s->prog.source) drv_play_attach(&s->prog, s);
    const char *dump = sim_plusarg(s, "dump");
    if (dump && *dump && !s->prog.source) { /* a live driver's program is written when it has run (finish) */
        int rc = dump_program(s, dump);
        if (rc) return setup_fail(s, NULL, true);
    }
    /* A program without job marks is one job named after the program (a driver's: until it starts one). */
    if (s->prog.n == 0 || s->prog.ops[0].kind != OP_JOB) sb_job_begin(s->sb, s->prog.name ? s->prog.name : "", 0);
    s->wave_signals = wave_signal_list(s->acc_ops);
    waves_init(&s->waves, s, ops, s->acc_ops->wave_scope, s->wave_signals);
    uint64_t watchdog = sim_plusarg_u64(s, "watchdog", 0); /* 0: per accelerator and program (sequencer.h) */
    bool golden_only = sim_plusarg_flag(s, "golden_only");
    if (golden_only) {
        int rc = run_golden_only(s);
        if (rc) return setup_fail(s, NULL, true);
    }
    s->seq = seq_new(s, golden_only ? &s->golden_ops : s->acc_ops, s->acc, &s->prog, watchdog);
    if (golden_only) { /* the sequencer alone, one operation step per "cycle"; no Verilated model */
        while (s->status == SEQ_RUNNING) {
            s->cycle++;
            s->status = seq_step(s->seq);
            if (s->errors > 0 && s->status == SEQ_RUNNING) s->status = SEQ_FAILED;
            if (s->cycle >= s->max_cycles && s->status == SEQ_RUNNING) {
                sim_error(s, "simulation limit +max_cycles=%llu reached", (unsigned long long)s->max_cycles);
                s->status = SEQ_FAILED;
            }
        }
        if (s->acc_ops->golden_finish && s->status != SEQ_SKIPPED) s->acc_ops->golden_finish(s->acc, s->sb);
        if (s->errors > 0 && s->status == SEQ_DONE) s->status = SEQ_FAILED;
        exit(finish(s, NULL));
    }
    return 0;
}

int tb_step(void)
{
    sim_t *s = &the_sim;
    s->cycle++;
    waves_step(&s->waves, s->cycle);
    if (s->cycle <= tb_reset_cycles() + 32) return TB_RUN; /* CSB traffic 32 cycles after reset */
    if (s->status == SEQ_RUNNING) s->status = seq_step(s->seq);
    if (s->kops->verilator_errors(s->kops->kernel) > 0 && s->errors == 0)
        sim_error(s, "SystemVerilog assertion failed (see $error above)");
    if (s->errors > 0 && s->status == SEQ_RUNNING) s->status = SEQ_FAILED;
    if (s->status == SEQ_FAILED && waves_recording(&s->waves)) {
        /* Record WAVE_TAIL more cycles after a failure, with the sequencer stopped. */
        if (!s->fail_cycle) s->fail_cycle = s->cycle;
        return s->cycle < s->fail_cycle + WAVE_TAIL ? TB_RUN : TB_STOP;
    }
    if (s->status != SEQ_RUNNING) return TB_STOP;
    if (s->cycle >= s->max_cycles) {
        sim_error(s, "simulation limit +max_cycles=%llu reached", (unsigned long long)s->max_cycles);
        s->status = SEQ_FAILED;
        return TB_STOP;
    }
    return TB_RUN;
}

static double elapsed(const sim_t *s)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - s->t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - s->t0.tv_nsec);
}

/* every_plusarg: pass on every plusarg but those said as make variables (a refused plusarg: unknown ones too). */
static void print_repro(const sim_t *s, FILE *f, bool seed_known, bool every_plusarg)
{
    fprintf(f, "repro: make run ACC=%s", s->acc_ops->name);
    if (!tb_dut.is_default) fprintf(f, " DUT=%s", tb_dut.name);
    const char *keys[] = {"test", "trace", "cfg"};
    const char *mk[] = {"TEST", "TRACE", "CFG"};
    for (int i = 0; i < 3; i++) {
        const char *v = sim_plusarg(s, keys[i]);
        if (v && *v) fprintf(f, " %s=%s", mk[i], v);
    }
    /* Before the seed is picked (a trace that does not read): the one given, else none (make run then replays a
     * trace with the seed it recorded). */
    const char *given = sim_plusarg(s, "seed");
    if (seed_known) fprintf(f, " SEED=%llu", (unsigned long long)s->seed);
    else if (given && *given) fprintf(f, " SEED=%s", given);
    /* Every other plusarg that changes the outcome (plusargs.tsv: repro = yes) is passed through verbatim. */
    bool first = true;
    for (int i = 1; i < s->argc; i++) {
        const char *a = s->argv[i];
        if (a[0] != '+' || strncmp(a, "+verilator+", 11) == 0) continue;
        const sim_plusarg_def_t *d = plusarg_find(a + 1, strcspn(a + 1, "="));
        if (every_plusarg) {
            if (d && (!strcmp(d->name, "test") || !strcmp(d->name, "trace") || !strcmp(d->name, "cfg") ||
                      !strcmp(d->name, "seed")))
                continue; /* said above as TEST=, TRACE=, CFG=, SEED= */
        } else if (!d || !d->repro) continue;
        fprintf(f, "%s%s", first ? " ARGS='" : " ", a);
        first = false;
    }
    fprintf(f, "%s\n", first ? "" : "'");
}

/* +dump= of a driver run: the operations the driver performed, up to the end or the failure. */
static void dump_live_program(sim_t *s)
{
    const char *dump = sim_plusarg(s, "dump");
    if (!dump || !*dump || !s->prog.source) return;
    FILE *f = fopen(dump, "w");
    if (!f) {
        sim_error(s, "+dump=%s: cannot open for writing", dump);
        s->status = SEQ_FAILED;
        return;
    }
    s->prog.source->dump(s->prog.source, f);
    fclose(f);
    printf("driver run dumped to %s (replays without the driver: make run TRACE=%s SEED=%llu)\n", dump, dump,
           (unsigned long long)s->seed);
}

static int finish(sim_t *s, const char *crash)
{
    uint64_t vl_errors = (uint64_t)s->kops->verilator_errors(s->kops->kernel);
    if (crash) {
        sim_error(s, "%s", crash);
        s->status = SEQ_FAILED;
    }
    if (s->status == SEQ_RUNNING) {
        sim_error(s, "simulation ended before the program finished (op %zu of %zu)",
                  s->seq ? (size_t)(seq_current_op(s->seq) - s->prog.ops) : 0, s->prog.n);
        s->status = SEQ_FAILED;
    }
    if (vl_errors && s->status != SEQ_FAILED) s->status = SEQ_FAILED;
    if (!crash) check_something_checked(s);
    sb_job_end(s->sb, s->cycle);
    dump_live_program(s);
    if (s->status == SEQ_DONE && !sim_plusarg_flag(s, "golden_only")) { /* golden-only cycles are not the DUT's */
        cycle_budget_check(s, sim_plusarg(s, "cycle_budgets"), s->prog.name ? s->prog.name : "");
        if (s->errors) s->status = SEQ_FAILED;
    }
    waves_finish(&s->waves, s->cycle,
                 s->mark_cycle   ? s->mark_cycle
                 : s->fail_cycle ? s->fail_cycle
                                 : (s->errors ? s->cycle : 0));
    const char *verdict = s->status == SEQ_DONE ? "PASS" : s->status == SEQ_SKIPPED ? "SKIP" : "FAIL";
    double wall = elapsed(s);
    for (size_t i = 0; i < sb_njobs(s->sb); i++) {
        const sb_job_t *j = sb_job(s->sb, i);
        printf("job %-40s %s  cycles %llu  bytes compared %llu  mismatches %llu\n", j->name,
               sb_job_failed(j) ? "FAIL" : (s->status == SEQ_SKIPPED ? "SKIP" : "PASS"),
               (unsigned long long)(j->end - j->start), (unsigned long long)j->bytes_compared,
               (unsigned long long)j->mismatches);
    }
    /* What the run checked, in one line a tool can read (flow/fuzz.py tells a pass that compared nothing by it):
     * the output bytes compared over every job and the expected values read (known answers). */
    uint64_t compared = 0;
    for (size_t i = 0; i < sb_njobs(s->sb); i++) compared += sb_job(s->sb, i)->bytes_compared;
    printf("checked: %llu output bytes compared, %llu expected values read\n", (unsigned long long)compared,
           (unsigned long long)s->checked_reads);
    for (int i = 0; i < s->nsummary; i++) printf("coverage: %s\n", s->summary[i]);
    if (s->status == SEQ_SKIPPED) printf("SKIP %s: %s\n", s->prog.name ? s->prog.name : "", seq_skip_reason(s->seq));
    char cont[64] = "";
    if (dev_continue_hits(s->devcont))
        snprintf(cont, sizeof cont, " (+%zu of continued deviations)", dev_continue_hits(s->devcont));
    printf("%s %s seed %llu: %llu cycles, %zu jobs, %d errors%s, %.3f s (%.0f cycles/s)\n", verdict,
           s->prog.name ? s->prog.name : "", (unsigned long long)s->seed, (unsigned long long)s->cycle, sb_njobs(s->sb),
           s->errors, cont, wall, wall > 0 ? (double)s->cycle / wall : 0.0);
    if (s->status == SEQ_FAILED) print_repro(s, stdout, true, false);
    results_info_t ri = {
        .acc = s->acc_ops->name,
        .dut = tb_dut.name,
        .test = s->prog.name,
        .seed = s->seed,
        .verdict = verdict,
        .reason = s->status == SEQ_SKIPPED ? seq_skip_reason(s->seq) : (s->nkept ? s->first_errors[0] : ""),
        .cycles = s->cycle,
        .wall_s = wall,
        .sb = s->sb,
        .errors = (const char(*)[512])s->first_errors,
        .nerrors = s->nkept,
    };
    results_write(sim_plusarg(s, "results"), &ri);
    s->fenced[0] = s->fenced[1] = NULL; /* they go with the accelerator */
    if (s->acc) s->acc_ops->destroy(s->acc);
    s->acc = NULL;
    dev_continue_free(s->devcont);
    s->devcont = NULL;
    wave_signal_list_free(s->acc_ops, s->wave_signals);
    s->wave_signals = NULL;
    if (s->status == SEQ_SKIPPED) return TB_EXIT_SKIP; /* distinct from a pass: nothing was verified */
    return s->status == SEQ_DONE ? 0 : 1;
}

int tb_finish(void) { return finish(&the_sim, NULL); }

int tb_crash(int signo)
{
    char msg[64];
    snprintf(msg, sizeof msg, "crashed with signal %d", signo);
    return finish(&the_sim, msg) ? 1 : 1;
}
