/* Plusarg checking (plusargs.h): lookup, "did you mean" by edit distance, the +help table. */
#include "plusargs.h"
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

const sim_plusarg_def_t *plusarg_find(const char *name, size_t len)
{
    for (const sim_plusarg_def_t *p = tb_plusargs; p->name; p++)
        if (strlen(p->name) == len && strncmp(p->name, name, len) == 0) return p;
    return NULL;
}

/* Levenshtein distance of a[0..la) and b, capped at 9 (names are short). */
static size_t distance(const char *a, size_t la, const char *b)
{
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

void plusargs_print(const char *acc, FILE *out)
{
    fprintf(out, "%s plusargs (ARGS='...'):\n", acc);
    for (const sim_plusarg_def_t *p = tb_plusargs; p->name; p++) {
        char arg[64];
        snprintf(arg, sizeof arg, "+%s%s%s", p->name, *p->value ? "=" : "", p->value);
        fprintf(out, "  %-22s %s [default: %s]\n", arg, p->help, p->dflt);
    }
}

int plusarg_parse_u64(const char *v, uint64_t *out)
{
    int base = 10;
    if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) base = 16, v += 2;
    if (!*v) return -1;
    uint64_t x = 0;
    for (; *v; v++) {
        int d = isdigit((unsigned char)*v)                    ? *v - '0'
                : (base == 16 && isxdigit((unsigned char)*v)) ? tolower((unsigned char)*v) - 'a' + 10
                                                              : -1;
        if (d < 0) return -1;
        if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) return -1; /* more than 64 bits */
        x = x * (uint64_t)base + (uint64_t)d;
    }
    *out = x;
    return 0;
}

/* The value column of the table says what a value may be: '' a flag (nothing, 0 or 1), "a|b|c" of
 * numbers one of them, PCT 0..100, N / J / C an unsigned 64-bit number (decimal or 0x hex), anything else
 * (FILE, NAME, KIND[:N], ...) is checked by the code that reads it. */
int plusarg_check_value(const sim_plusarg_def_t *d, const char *v, char *why, size_t n)
{
    const char *spec = d->value;
    uint64_t x;
    if (!*spec) {
        if (!v || !*v || !strcmp(v, "0") || !strcmp(v, "1")) return 0;
        snprintf(why, n, "+%s is a flag: give +%s (or +%s=0 / +%s=1), not '%s'", d->name, d->name, d->name, d->name, v);
        return -1;
    }
    if (!v) return 0; /* "+name" alone: the reader says whether that means anything */
    bool choice = strchr(spec, '|') != NULL;
    for (const char *c = spec; choice && *c; c++)
        if (!isdigit((unsigned char)*c) && *c != '|') choice = false;
    if (choice) {
        for (const char *c = spec; *c; c += strcspn(c, "|") + (c[strcspn(c, "|")] == '|'))
            if (strcspn(c, "|") == strlen(v) && strncmp(c, v, strlen(v)) == 0) return 0;
        snprintf(why, n, "+%s=%s is out of range: accepted values are %s", d->name, v, spec);
        return -1;
    }
    bool pct = !strcmp(spec, "PCT");
    if (pct || !strcmp(spec, "N") || !strcmp(spec, "J") || !strcmp(spec, "C")) {
        if (plusarg_parse_u64(v, &x) != 0) {
            snprintf(why, n, "+%s=%s is not %s", d->name, v,
                     pct ? "a percentage 0..100" : "an unsigned number 0..18446744073709551615 (decimal or 0x hex)");
            return -1;
        }
        if (pct && x > 100) {
            snprintf(why, n, "+%s=%s is out of range: a percentage 0..100", d->name, v);
            return -1;
        }
    }
    return 0;
}

int plusargs_check(const char *acc, int argc, char **argv, FILE *out, FILE *err)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "+verilator+", 11) == 0) continue; /* Verilator's own */
        if (a[0] != '+') {
            fprintf(err, "ERROR: argument '%s' is not a plusarg (+name or +name=value); +help lists them\n", a);
            return 2;
        }
        size_t len = strcspn(a + 1, "=");
        if (len == 4 && strncmp(a + 1, "help", 4) == 0) {
            plusargs_print(acc, out);
            return 1;
        }
        const sim_plusarg_def_t *def = plusarg_find(a + 1, len);
        if (def) {
            char why[256];
            if (plusarg_check_value(def, a[1 + len] == '=' ? a + 2 + len : NULL, why, sizeof why) == 0) continue;
            fprintf(err, "ERROR: %s (%s)\n", why, acc);
            return 2;
        }
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

/* Levenshtein-closest of a NULL-terminated list, if within 2 edits. */
const char *plusarg_closest(const char *name, size_t len, const char *const *list)
{
    const char *best = NULL;
    size_t bd = 3;
    for (; *list; list++) {
        size_t d = distance(name, len, *list);
        if (d < bd) bd = d, best = *list;
    }
    return best;
}
