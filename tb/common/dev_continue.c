/* Named deviations a run continues past (dev_continue.h). Reads the same file flow/deviations.py reads, with
 * its rules: blocks of `key value` lines starting at `name`, '#' comments except on match/repro lines. */
#define _POSIX_C_SOURCE 200809L
#include "dev_continue.h"
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEVS = 64 };

typedef struct {
    char name[96];
    char where[300];  /* file:line of its name, for errors */
    char *match;      /* regex text */
    char tests[1024]; /* space-separated */
    bool cont;
    regex_t re;
    bool compiled;
    size_t hits;
} cont_dev_t;

struct dev_continue {
    cont_dev_t d[MAX_DEVS];
    size_t n;
};

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t l = strlen(s);
    while (l && isspace((unsigned char)s[l - 1])) s[--l] = 0;
    return s;
}

static bool lists_test(const char *tests, const char *test)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", tests);
    for (char *save, *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        if (!strcmp(t, "*") || (test && !strcmp(t, test))) return true;
    return false;
}

void dev_continue_free(dev_continue_t *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->n; i++) {
        if (d->d[i].compiled) regfree(&d->d[i].re);
        free(d->d[i].match);
    }
    free(d);
}

static dev_continue_t *fail(dev_continue_t *d, char *err, size_t n, const char *fmt, const char *where,
                            const char *what)
{
    snprintf(err, n, fmt, where, what);
    dev_continue_free(d);
    return NULL;
}

dev_continue_t *dev_continue_load(const char *path, const char *test, char *err, size_t n)
{
    dev_continue_t *d = calloc(1, sizeof *d);
    if (!d) abort();
    err[0] = 0;
    if (!path) return d;
    FILE *f = fopen(path, "r");
    if (!f) return fail(d, err, n, "%s: cannot open: %s", path, strerror(errno));
    char raw[4096], where[300];
    cont_dev_t *cur = NULL;
    for (int lineno = 1; fgets(raw, sizeof raw, f); lineno++) {
        snprintf(where, sizeof where, "%.280s:%d", path, lineno);
        raw[strcspn(raw, "\n")] = 0;
        char *line = trim(raw);
        bool keep_hash = !strncmp(line, "match", 5) || !strncmp(line, "repro", 5);
        if (!keep_hash) {
            char *hash = strchr(line, '#');
            if (hash) *hash = 0;
            line = trim(line);
        }
        if (!*line) continue;
        char *val = line + strcspn(line, " \t");
        if (*val) *val++ = 0;
        val = trim(val);
        if (!strcmp(line, "name")) {
            if (d->n == MAX_DEVS) {
                fclose(f);
                return fail(d, err, n, "%s: more than %s deviations", where, "64");
            }
            cur = &d->d[d->n++];
            snprintf(cur->name, sizeof cur->name, "%s", val);
            snprintf(cur->where, sizeof cur->where, "%s", where);
            continue;
        }
        if (!cur) {
            fclose(f);
            return fail(d, err, n, "%s: '%s' before the first 'name'", where, line);
        }
        if (!strcmp(line, "match")) {
            free(cur->match);
            cur->match = strdup(val);
        } else if (!strcmp(line, "tests")) {
            size_t used = strlen(cur->tests);
            snprintf(cur->tests + used, sizeof cur->tests - used, " %s", val);
        } else if (!strcmp(line, "continue")) {
            if (strcmp(val, "yes")) {
                fclose(f);
                return fail(d, err, n, "%s: continue takes 'yes', not '%s'", where, val);
            }
            cur->cont = true;
        }
        /* other keys (spec, repro, describe) are flow/deviations.py's business */
    }
    fclose(f);
    for (size_t i = 0; i < d->n; i++) {
        cont_dev_t *v = &d->d[i];
        if (!v->cont || !lists_test(v->tests, test)) continue;
        if (!v->match) return fail(d, err, n, "%s: continued deviation '%s' has no match", v->where, v->name);
        int rc = regcomp(&v->re, v->match, REG_EXTENDED | REG_NOSUB);
        if (rc) {
            char why[200];
            regerror(rc, &v->re, why, sizeof why);
            return fail(d, err, n, "%s: the match of a continued deviation must be a POSIX extended regex: %s",
                        v->where, why);
        }
        v->compiled = true;
    }
    return d;
}

const char *dev_continue_match(dev_continue_t *d, const char *line)
{
    for (size_t i = 0; d && i < d->n; i++)
        if (d->d[i].compiled && regexec(&d->d[i].re, line, 0, NULL, 0) == 0) {
            d->d[i].hits++;
            return d->d[i].name;
        }
    return NULL;
}

size_t dev_continue_hits(const dev_continue_t *d)
{
    size_t h = 0;
    for (size_t i = 0; d && i < d->n; i++) h += d->d[i].hits;
    return h;
}

void dev_continue_summary(const dev_continue_t *d, FILE *f, unsigned long long bytes_compared)
{
    for (size_t i = 0; d && i < d->n; i++)
        if (d->d[i].hits)
            fprintf(f,
                    "deviation %s continued past %zu error line(s); the run went to its end and compared %llu "
                    "output bytes\n",
                    d->d[i].name, d->d[i].hits, bytes_compared);
}
