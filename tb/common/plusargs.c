/* Plusarg checking (plusargs.h): lookup, "did you mean" by edit distance, the +help table. */
#include "plusargs.h"
#include <string.h>

const sim_plusarg_def_t *plusarg_find(const char *name, size_t len) {
    for (const sim_plusarg_def_t *p = tb_plusargs; p->name; p++)
        if (strlen(p->name) == len && strncmp(p->name, name, len) == 0) return p;
    return NULL;
}

/* Levenshtein distance of a[0..la) and b, capped at 9 (names are short). */
static size_t distance(const char *a, size_t la, const char *b) {
    size_t lb = strlen(b), row[64];
    if (la >= 63 || lb >= 63) return 9;
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            if (up + 1 < best) best = up + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb] < 9 ? row[lb] : 9;
}

void plusargs_print(const char *acc, FILE *out) {
    fprintf(out, "%s plusargs (ARGS='...'):\n", acc);
    for (const sim_plusarg_def_t *p = tb_plusargs; p->name; p++) {
        char arg[64];
        snprintf(arg, sizeof arg, "+%s%s%s", p->name, *p->value ? "=" : "", p->value);
        fprintf(out, "  %-22s %s [default: %s]\n", arg, p->help, p->dflt);
    }
}

int plusargs_check(const char *acc, int argc, char **argv, FILE *out, FILE *err) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "+verilator+", 11) == 0) continue;   /* Verilator's own */
        if (a[0] != '+') {
            fprintf(err, "ERROR: argument '%s' is not a plusarg (+name or +name=value); +help lists them\n", a);
            return 2;
        }
        size_t len = strcspn(a + 1, "=");
        if (len == 4 && strncmp(a + 1, "help", 4) == 0) {
            plusargs_print(acc, out);
            return 1;
        }
        if (plusarg_find(a + 1, len)) continue;
        const sim_plusarg_def_t *best = NULL;
        size_t bd = 9;
        for (const sim_plusarg_def_t *p = tb_plusargs; p->name; p++) {
            size_t d = distance(a + 1, len, p->name);
            if (d < bd) bd = d, best = p;
        }
        fprintf(err, "ERROR: unknown plusarg '%s' for %s", a, acc);
        if (best && bd <= 2) fprintf(err, "; did you mean '+%s'?", best->name);
        fprintf(err, " Known:");
        for (const sim_plusarg_def_t *p = tb_plusargs; p->name; p++) fprintf(err, " +%s", p->name);
        fprintf(err, " (and +verilator+...)\n");
        return 2;
    }
    return 0;
}
