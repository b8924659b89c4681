/* The NE16 test registry: name -> seeded program generator (tests are listed by `+test=?`). */
#include "ne16_tb.h"
#include "ne16_directed.h"
#include "ne16_gen.h"
#include "ne16_queue.h"
#include "ne16_regtests.h"
#include "ne16_sweep.h"
#include "test_registry.h"
#include <stdio.h>

static int random_job(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    return ne16_gen_random(p, seed, 6, err, errlen);
}
static int random_long(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    return ne16_gen_random(p, seed, 12, err, errlen);
}
static int cross_sweep(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    return ne16_gen_cross_sweep(p, seed, NE16_SWEEP_BINS_PER_SEED, err, errlen);
}

/* `needs`: DUT features (tb/ne16/duts/<dut>.dut, `features`) the test is about; on a DUT without them the
 * test is skipped, by capability, with the reason in the report. Tests about something else keep to the
 * semantics the DUT shares with the spec instead (the generators ask dut_has()). */
static const test_entry_t tests[] = {
    {"reg_reset", ne16_reg_reset, "pslverr job_error",
     "reset values; unmapped/misaligned reads answer PSLVERR; first ACQUIRE"},
    {"reg_rw", ne16_reg_rw, "commit_only",
     "random job-register data with random PSTRB in both contexts; SOFT_CLEAR 0 / !=0"},
    {"reg_errors", ne16_reg_errors, "pslverr", "every PSLVERR case of spec 1.2; write-only reads; window alias"},
    {"ex1", ne16_ex1, "round", "spec 5 EX1: 1x1 int8 with bias, floor and ROUND"},
    {"ex2", ne16_ex2, "", "spec 5 EX2: 3x3 pad 1, 3.7 and pulp-nnx registers"},
    {"ex3", ne16_ex3, "", "spec 5 EX3: depthwise, raw int32"},
    {"ex4", ne16_ex4, "", "spec 5 EX4: Qw=4 weight encoding"},
    {"ex5", ne16_ex5, "round out16", "spec 5 EX5: normalisation corner cases (12 jobs)"},
    {"ex6", ne16_ex6, "", "spec 5 EX6: streamin"},
    {"ex7", ne16_ex7, "", "spec 5 EX7: MODE16"},
    {"ex8", ne16_ex8, "", "spec 5 EX8: linear"},
    {"ex9", ne16_ex9, "", "spec 5 EX9: stride 2x2"},
    {"random", random_job, "", "6 constrained-random jobs over spec 6.1 (10% illegal, 20% ignored fields randomised)"},
    {"random_long", random_long, "", "12 constrained-random jobs"},
    {"cross_sweep", cross_sweep, "round out16",
     "one small layer per full-cross bin (64s+i) mod N, i<64 (tb/ne16/ne16_sweep.h)"},
    {"smoke_gaps", ne16_gen_smoke_gaps, "job_error mode16_rem qw1",
     "one linear MODE16 job per Qw, one job per illegal-job code 1..7"},
    {"streamin_chain", ne16_streamin_chain, "", "Ki split over two jobs: raw partial sums, then streamin + normquant"},
    {"q_two_inflight", ne16_q_two_inflight, "", "two jobs in flight, both contexts"},
    {"q_acquire_full", ne16_q_acquire_full, "", "ACQUIRE while open (-2) and while full (-1)"},
    {"q_commit_only", ne16_q_commit_only, "commit_only", "commit-only then triggered job; two commit-only jobs"},
    {"q_soft_clear", ne16_q_soft_clear, "", "SOFT_CLEAR idle, open, running, held; value 0 and != 0"},
    {"q_b2b_modes", ne16_q_b2b_modes, "job_error", "back-to-back jobs of different modes, an illegal one in the queue"},
    {"q_sw_sync", ne16_q_sw_sync, "sw_events", "SW_SYNC values 0..7 with garbage high bits"},
    {"q_ctx_reuse", ne16_q_ctx_reuse, "", "jobs that rewrite only the changed registers of a context"},
    {"neg_bus_error", ne16_neg_bus_error, "pslverr", "NEGATIVE: job-register write without ACQUIRE -> PSLVERR"},
};

/* The native trace reader takes at most 7 words after `job` (tb/common/trace_native.c MAX_TOKENS), so a
 * longer job name would make the +dump of this program unreadable. */
static int check_job_names(const program_t *p, char *err, size_t errlen)
{
    for (size_t i = 0; i < p->n; i++) {
        if (p->ops[i].kind != OP_JOB || !p->ops[i].text) continue;
        unsigned words = 0;
        for (const char *s = p->ops[i].text; *s; s++)
            if (*s != ' ' && (s == p->ops[i].text || s[-1] == ' ')) words++;
        if (words > 7) {
            snprintf(err, errlen, "test generator: job name '%s' has %u words; native traces allow 7", p->ops[i].text,
                     words);
            return -1;
        }
    }
    return 0;
}

/* The throughput jobs, from their table in ne16_directed.c (bench_ne16 reads them from the listing). */
static bool perf_entry(size_t i, test_entry_t *e)
{
    const ne16_perf_job_t *j = ne16_perf_job(i);
    if (!j) return false;
    *e = (test_entry_t){j->name, NULL, "", j->what};
    return true;
}

/* Listed only: ne16_tb.c runs the live driver itself. */
static const test_entry_t nnx_tests[] = {
    {"pulpnnx", NULL, NULL,
     "pulp-nnx's NE16 driver live on the layer of +pulpnnx=<dir with conf.json> (docs/pulpnnx.md)"},
};

static const test_section_t sections[] = {
    {tests, sizeof tests / sizeof *tests, NULL, NULL, NULL},
    {NULL, 0, perf_entry, ne16_perf, "; MACs/cycle with +perf +stall=0"},
    {nnx_tests, sizeof nnx_tests / sizeof *nnx_tests, NULL, NULL, NULL},
};

static const test_registry_t registry = {"NE16",         16, 16384, sections, sizeof sections / sizeof *sections,
                                         check_job_names};

int ne16_build_test(const char *test, uint64_t seed, program_t *p, char *err, size_t errlen)
{
    return test_registry_build(&registry, test, seed, true, p, err, errlen);
}
