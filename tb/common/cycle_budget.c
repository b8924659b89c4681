/* Cycle budgets (cycle_budget.h). Table format (tab-separated, '#' comments, a header line):
 *   acc  dut  test  job  stall  seed  budget  tolerance_pct  note
 * dut/test/seed: exact or "*"; job: a prefix of the job name ("*" any); stall: the run's stall level (sim_stall:
 * the accelerator's +stall, 1 by default; "*" any);
 * budget: N, the cycles of one job (its start to its end), or xR, the cycles the engine ran in a job over what an
 * ideal engine needs for its work (where the testbench reports both: sb_job_t.ideal_cycles), at most R; tolerance in
 * percent. Every matching row applies. */
#define _POSIX_C_SOURCE 200809L
#include "cycle_budget.h"
#include "checkout_file.h"
#include "dut_info.h"
#include "plusargs.h"
#include "scoreboard.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { NCOLS = 9 };

static bool match(const char *pat, const char *v) { return !strcmp(pat, "*") || !strcmp(pat, v); }

void cycle_budget_check(sim_t *s, const char *path, const char *test)
{
    char where[4200];
    FILE *f;
    if (path && *path) {
        snprintf(where, sizeof where, "%s", path);
        if (!(f = fopen(path, "r"))) {
            sim_error(s, "+cycle_budgets=%s: cannot open: %s", path, strerror(errno));
            return;
        }
    } else if (!(f = checkout_fopen("tb/common/cycle_budgets.tsv", where, sizeof where))) {
        return; /* a simulator outside a checkout: no table, said by +cycle_budgets= when it matters */
    }
    char stall[24], seed[32];
    snprintf(stall, sizeof stall, "%llu", (unsigned long long)sim_stall(s));
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)sim_seed(s));
    scoreboard_t *sb = sim_scoreboard(s);
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    bool header = true;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#') continue;
        char *col[NCOLS] = {0}, *save = NULL;
        int nc = 0;
        for (char *t = strtok_r(line, "\t", &save); t && nc < NCOLS; t = strtok_r(NULL, "\t", &save)) col[nc++] = t;
        if (header) {
            header = false;
            if (nc < NCOLS || strcmp(col[0], "acc") != 0) {
                sim_error(s, "%s:%d: the header must be acc dut test job stall seed budget tolerance_pct note", where,
                          lineno);
                break;
            }
            continue;
        }
        uint64_t budget = 0, tol;
        double ratio = 0;
        char *end = NULL;
        bool is_ratio = nc >= NCOLS && col[6][0] == 'x';
        if (is_ratio) ratio = strtod(col[6] + 1, &end);
        if (nc < NCOLS || plusarg_parse_u64(col[7], &tol) ||
            (is_ratio ? (*end || !(ratio > 0)) : (plusarg_parse_u64(col[6], &budget) || !budget))) {
            sim_error(s, "%s:%d: expected %d tab-separated cells, a budget N > 0 or xR > 0 and a tolerance in percent",
                      where, lineno, NCOLS);
            break;
        }
        if (strcmp(col[0], tb_acc_ops.name) || !match(col[1], tb_dut.name) || !match(col[2], test) ||
            !match(col[4], stall) || !match(col[5], seed))
            continue;
        for (size_t i = 0; i < sb_njobs(sb); i++) {
            const sb_job_t *j = sb_job(sb, i);
            if (strcmp(col[3], "*") && strncmp(j->name, col[3], strlen(col[3]))) continue;
            if (is_ratio) {
                if (!j->ideal_cycles) continue;
                double r = (double)j->engine_cycles / (double)j->ideal_cycles, lim = ratio * (1 + (double)tol / 100);
                if (r > lim)
                    sim_error(s,
                              "cycle budget: job '%s' engine took %llu cycles, %.3fx the ideal %llu, over its budget "
                              "of x%g +%llu%% (x%.3f) in %s:%d; a deliberate slowdown updates that line",
                              j->name, (unsigned long long)j->engine_cycles, r, (unsigned long long)j->ideal_cycles,
                              ratio, (unsigned long long)tol, lim, where, lineno);
                else
                    sim_note(s, "cycle budget: job '%s' engine %.3fx the ideal, budget x%g +%llu%% (%s:%d)", j->name, r,
                             ratio, (unsigned long long)tol, where, lineno);
                continue;
            }
            uint64_t cycles = j->end - j->start, limit = budget + budget * tol / 100;
            if (cycles > limit)
                sim_error(s,
                          "cycle budget: job '%s' took %llu cycles, over its budget of %llu +%llu%% (%llu) in %s:%d; "
                          "a deliberate slowdown updates that line",
                          j->name, (unsigned long long)cycles, (unsigned long long)budget, (unsigned long long)tol,
                          (unsigned long long)limit, where, lineno);
            else
                sim_note(s, "cycle budget: job '%s' %llu cycles of %llu +%llu%% (%s:%d)", j->name,
                         (unsigned long long)cycles, (unsigned long long)budget, (unsigned long long)tol, where,
                         lineno);
        }
    }
    free(line);
    fclose(f);
}
