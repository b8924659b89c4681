/* Reader of the MAX78000 conformance trace subset and word lists (see max78000_trace.h). */
#include "max78000_trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses one hex field at *s; advances *s. */
static int hexfield(char **s, uint32_t *v)
{
    char *end;
    while (**s == ' ' || **s == '\t') (*s)++;
    if (!**s) return -1;
    errno = 0;
    unsigned long x = strtoul(*s, &end, 16);
    if (end == *s || errno || x > 0xFFFFFFFFul || (*end && *end != ' ' && *end != '\t')) return -1;
    *v = (uint32_t)x;
    *s = end;
    return 0;
}

static int rest_empty(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return *s == 0;
}

/* Strips the comment and the line end; returns the first non-blank character. */
static char *clean(char *line)
{
    char *h = strchr(line, '#');
    if (h) *h = 0;
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = 0;
    while (*line == ' ' || *line == '\t') line++;
    return line;
}

static int grow(void **p, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap) return 0;
    size_t nc = *cap ? 2 * *cap : 1024;
    void *q = realloc(*p, nc * elem);
    if (!q) return -1;
    *p = q;
    *cap = nc;
    return 0;
}

int max78000_trace_load(max78000_trace_t *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char buf[1024];
    int line = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        char *s = clean(buf);
        if (!*s) continue;
        if (grow((void **)&t->ops, &t->cap, t->n, sizeof *t->ops)) {
            snprintf(err, errlen, "%s:%d: out of memory", path, line);
            goto fail;
        }
        max78000_top_t *op = &t->ops[t->n];
        memset(op, 0, sizeof *op);
        op->line = line;
        if (!strcmp(s, "wait_irq")) {
            op->kind = MAX78000_T_WAIT_IRQ;
        } else if ((s[0] == 'w' || s[0] == 'r') && (s[1] == ' ' || s[1] == '\t')) {
            uint32_t a, b, c;
            char *p = s + 1;
            if (hexfield(&p, &a) || hexfield(&p, &b) || hexfield(&p, &c) || !rest_empty(p)) {
                snprintf(err, errlen, "%s:%d: expected '%c <addr> <%s> <%s>' (hex): '%s'", path, line, s[0],
                         s[0] == 'w' ? "data" : "expected", s[0] == 'w' ? "pstrb" : "mask", s);
                goto fail;
            }
            op->addr = a;
            if (s[0] == 'w') {
                if (c == 0 || c > 0xF) {
                    snprintf(err, errlen, "%s:%d: pstrb 0x%x out of range 1..f", path, line, c);
                    goto fail;
                }
                op->kind = MAX78000_T_WRITE;
                op->data = b;
                op->strb = (uint8_t)c;
            } else {
                op->kind = MAX78000_T_READ;
                op->data = b;
                op->mask = c;
            }
        } else {
            snprintf(err, errlen, "%s:%d: unknown operation '%s'", path, line, s);
            goto fail;
        }
        t->n++;
    }
    fclose(f);
    return 0;
fail:
    fclose(f);
    max78000_trace_free(t);
    return -1;
}

void max78000_trace_free(max78000_trace_t *t)
{
    free(t->ops);
    memset(t, 0, sizeof *t);
}

int max78000_words_load(max78000_words_t *w, const char *path, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char buf[1024];
    int line = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        char *s = clean(buf);
        if (!*s) continue;
        uint32_t a, v;
        if (hexfield(&s, &a) || hexfield(&s, &v) || !rest_empty(s)) {
            snprintf(err, errlen, "%s:%d: expected '<addr> <value>' (hex)", path, line);
            goto fail;
        }
        if (w->n == w->cap) { /* both arrays grow together */
            size_t nc = w->cap ? 2 * w->cap : 1024;
            uint32_t *na = realloc(w->addr, nc * sizeof *na);
            if (na) w->addr = na;
            uint32_t *nv = na ? realloc(w->value, nc * sizeof *nv) : NULL;
            if (!nv) {
                snprintf(err, errlen, "%s:%d: out of memory", path, line);
                goto fail;
            }
            w->value = nv;
            w->cap = nc;
        }
        w->addr[w->n] = a;
        w->value[w->n] = v;
        w->n++;
    }
    fclose(f);
    return 0;
fail:
    fclose(f);
    max78000_words_free(w);
    return -1;
}

void max78000_words_free(max78000_words_t *w)
{
    free(w->addr);
    free(w->value);
    memset(w, 0, sizeof *w);
}
