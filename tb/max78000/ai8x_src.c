/* Source reader for ai8xize-generated programs (ai8x_src.h): comments, the preprocessor lines ai8xize
 * writes, `#define NAME { ... }` arrays, and a statement tree of the C code. Anything else the
 * preprocessor would need (#if, #define of a non-array, an #ifdef of a macro we could know) is an error
 * naming file:line: the reader never guesses. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* strdup */
#endif
#include "ai8x_src.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rd {
    ai8x_src_t *src;
    const char *path;
    char *err;
    size_t errlen;
} rd_t;

static int src_fail(rd_t *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int src_fail(rd_t *r, int line, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->errlen, "%s:%d: %s", r->path, line, msg);
    return -1;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    size_t k;
    while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (b) {
        b[n] = 0;
        *len = n;
    }
    return b;
}

/* Blanks comments in place (keeping newlines, so line numbers stay), leaving string literals alone. */
static void strip_comments(char *s)
{
    bool block = false, str = false, chr = false;
    for (char *p = s; *p; p++) {
        if (block) {
            if (p[0] == '*' && p[1] == '/') {
                p[0] = p[1] = ' ';
                p++;
                block = false;
            } else if (*p != '\n') *p = ' ';
        } else if (str || chr) {
            if (*p == '\\' && p[1]) p++;
            else if ((str && *p == '"') || (chr && *p == '\'')) str = chr = false;
        } else if (p[0] == '/' && p[1] == '*') {
            p[0] = p[1] = ' ';
            p++;
            block = true;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n') *p++ = ' ';
            if (!*p) break;
        } else if (*p == '"') str = true;
        else if (*p == '\'') chr = true;
    }
}

static const char *file_of(rd_t *r)
{
    ai8x_src_t *s = r->src;
    char **nf = realloc(s->files, (s->nfiles + 1) * sizeof *nf);
    if (!nf) return NULL;
    s->files = nf;
    return s->files[s->nfiles++] = strdup(r->path);
}

/* `#define NAME { \` ... `}`: the numbers of the lines up to the closing brace. *lp is the index of the
 * define's line; on return, of its last line. */
static int read_array(rd_t *r, char **lines, size_t nlines, size_t *lp, const char *name, const char *file)
{
    ai8x_array_t a = {.name = strdup(name), .file = file};
    size_t cap = 0;
    bool closed = false;
    size_t i = *lp;
    const char *p = strchr(lines[i], '{') + 1;
    for (;;) {
        while (*p) {
            if (isspace((unsigned char)*p) || *p == ',' || (*p == '\\' && !p[1 + strspn(p + 1, " \t\r")])) {
                p++;
                continue;
            }
            if (*p == '}') {
                closed = true;
                break;
            }
            char *end;
            unsigned long long v = strtoull(p, &end, 0);
            if (end == p || v > 0xFFFFFFFFull ||
                !(isspace((unsigned char)*end) || *end == ',' || *end == '}' || *end == '\\' || !*end)) {
                free(a.name);
                free(a.v);
                free(a.line);
                return src_fail(r, (int)i + 1, "array %s: not a 32-bit number: '%.20s'", name, p);
            }
            if (a.n == cap) {
                cap = cap ? 2 * cap : 256;
                uint32_t *nv = realloc(a.v, cap * sizeof *nv);
                int *nl = nv ? realloc(a.line, cap * sizeof *nl) : NULL;
                if (nv) a.v = nv;
                if (nl) a.line = nl;
                if (!nv || !nl) {
                    free(a.name);
                    free(a.v);
                    free(a.line);
                    return src_fail(r, (int)i + 1, "out of memory");
                }
            }
            a.v[a.n] = (uint32_t)v;
            a.line[a.n++] = (int)i + 1;
            p = end;
        }
        if (closed) break;
        if (++i >= nlines) {
            free(a.name);
            free(a.v);
            free(a.line);
            return src_fail(r, (int)*lp + 1, "array %s: no closing '}'", name);
        }
        p = lines[i];
    }
    *lp = i;
    ai8x_array_t *na = realloc(r->src->arrays, (r->src->narrays + 1) * sizeof *na);
    if (!na) {
        free(a.name);
        free(a.v);
        free(a.line);
        return src_fail(r, (int)i + 1, "out of memory");
    }
    r->src->arrays = na;
    r->src->arrays[r->src->narrays++] = a;
    return 0;
}

static ai8x_stmt_t *add_kid(ai8x_stmt_t *parent)
{
    ai8x_stmt_t *nk = realloc(parent->kids, (parent->nkids + 1) * sizeof *nk);
    if (!nk) return NULL;
    parent->kids = nk;
    memset(&nk[parent->nkids], 0, sizeof *nk);
    return &nk[parent->nkids++];
}

/* Normalised text: runs of whitespace become one space, none at the ends. */
static char *norm(const char *b, size_t n)
{
    char *t = malloc(n + 1), *o = t;
    if (!t) return NULL;
    bool sp = false;
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)b[i])) {
            sp = o != t;
            continue;
        }
        if (sp) *o++ = ' ';
        sp = false;
        *o++ = b[i];
    }
    *o = 0;
    return t;
}

/* Splits the (comment-free, preprocessor-free) code into statements at `;`, `{` and `}` outside
 * parentheses. */
static int split(rd_t *r, const char *code, const char *file)
{
    ai8x_stmt_t *stack[32] = {&r->src->top};
    int depth = 0, paren = 0, line = 1, start_line = 1;
    const char *start = code;
    bool in_str = false;
    for (const char *p = code; *p; p++) {
        if (*p == '\n') line++;
        if (in_str) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == '"') in_str = false;
            continue;
        }
        if (*p == '"') {
            in_str = true;
            continue;
        }
        if (isspace((unsigned char)*p) && start == p) {
            start = p + 1;
            start_line = line + (*p == '\n' ? 0 : 0);
            continue;
        }
        if (start == p) start_line = line;
        if (*p == '(') paren++;
        else if (*p == ')') paren--;
        if (paren > 0 || (*p != ';' && *p != '{' && *p != '}')) continue;
        if (paren < 0) return src_fail(r, line, "unbalanced ')'");
        char *t = norm(start, (size_t)(p - start));
        if (!t) return src_fail(r, line, "out of memory");
        if (*p == '}') {
            if (*t) {
                free(t);
                return src_fail(r, start_line, "statement without ';' before '}'");
            }
            free(t);
            if (depth == 0) return src_fail(r, line, "unbalanced '}'");
            depth--;
        } else if (*t || *p == '{') {
            ai8x_stmt_t *s = add_kid(stack[depth]);
            if (!s) {
                free(t);
                return src_fail(r, line, "out of memory");
            }
            s->text = t;
            s->line = start_line;
            s->file = file;
            if (*p == '{') {
                /* `= { ... };` initialisers are not used by ai8xize outside the headers' arrays */
                if (depth + 1 >= 32) return src_fail(r, line, "blocks nested too deeply");
                s->has_block = 1;
                stack[++depth] = s;
            }
        } else free(t);
        start = p + 1;
        start_line = line;
    }
    if (depth) return src_fail(r, line, "end of file inside a block (missing '}')");
    return 0;
}

int ai8x_src_read(ai8x_src_t *src, const char *path, char *err, size_t errlen)
{
    rd_t r = {src, path, err, errlen};
    size_t len;
    char *buf = read_all(path, &len);
    if (!buf) return src_fail(&r, 0, "cannot read the file");
    const char *file = file_of(&r);
    if (!file) {
        free(buf);
        return src_fail(&r, 0, "out of memory");
    }
    r.path = file;
    strip_comments(buf);
    /* lines */
    size_t nlines = 1;
    for (char *p = buf; *p; p++) nlines += *p == '\n';
    char **lines = malloc(nlines * sizeof *lines);
    if (!lines) {
        free(buf);
        return src_fail(&r, 0, "out of memory");
    }
    size_t n = 0;
    for (char *p = buf;;) {
        lines[n++] = p;
        char *nl = strchr(p, '\n');
        if (!nl) break;
        *nl = 0;
        p = nl + 1;
    }
    /* preprocessor: lines it removes become empty; active[] is the #ifdef stack */
    bool active[16] = {true};
    int lvl = 0, rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        char *p = lines[i] + strspn(lines[i], " \t\r");
        if (*p != '#') {
            if (!active[lvl]) lines[i][0] = 0;
            continue;
        }
        char dir[16] = "", name[64] = "";
        sscanf(p + 1, " %15[a-z] %63[A-Za-z0-9_]", dir, name);
        if (!strcmp(dir, "include")) {
        } else if (!strcmp(dir, "ifdef") || !strcmp(dir, "ifndef")) {
            /* ai8xize only tests CNN_INFERENCE_TIMER, a build option of the SDK that a known-answer run
             * leaves undefined; any other macro we would have to know: refuse */
            if (strcmp(name, "CNN_INFERENCE_TIMER") != 0)
                rc = src_fail(&r, (int)i + 1, "#%s %s: unsupported preprocessor condition", dir, name);
            else if (lvl + 1 >= 16) rc = src_fail(&r, (int)i + 1, "#if nested too deeply");
            else {
                lvl++;
                active[lvl] = active[lvl - 1] && dir[2] == 'n';
            }
        } else if (!strcmp(dir, "else")) {
            if (!lvl) rc = src_fail(&r, (int)i + 1, "#else without #ifdef");
            else active[lvl] = active[lvl - 1] && !active[lvl];
        } else if (!strcmp(dir, "endif")) {
            if (!lvl) rc = src_fail(&r, (int)i + 1, "#endif without #ifdef");
            else lvl--;
        } else if (!strcmp(dir, "define") && strchr(p, '{')) {
            size_t i0 = i;
            if (active[lvl]) rc = read_array(&r, lines, n, &i, name, file);
            else
                while (i + 1 < n && !strchr(lines[i], '}')) i++;
            while (i0 < i) lines[i0++][0] = 0;
        } else rc = src_fail(&r, (int)i + 1, "unsupported preprocessor line '%.60s'", p);
        lines[i][0] = 0;
    }
    if (!rc && lvl) rc = src_fail(&r, (int)n, "#ifdef without #endif");
    /* re-join the lines for the statement splitter */
    if (!rc) {
        size_t tot = 0;
        for (size_t i = 0; i < n; i++) tot += strlen(lines[i]) + 1;
        char *code = malloc(tot + 1), *o = code;
        if (!code) rc = src_fail(&r, 0, "out of memory");
        else {
            for (size_t i = 0; i < n; i++) {
                size_t l = strlen(lines[i]);
                memcpy(o, lines[i], l);
                o += l;
                *o++ = '\n';
            }
            *o = 0;
            rc = split(&r, code, file);
            free(code);
        }
    }
    free(lines);
    free(buf);
    return rc;
}

static void free_stmt(ai8x_stmt_t *s)
{
    for (size_t i = 0; i < s->nkids; i++) free_stmt(&s->kids[i]);
    free(s->kids);
    free(s->text);
}

void ai8x_src_free(ai8x_src_t *src)
{
    for (size_t i = 0; i < src->narrays; i++) {
        free(src->arrays[i].name);
        free(src->arrays[i].v);
        free(src->arrays[i].line);
    }
    free(src->arrays);
    free_stmt(&src->top);
    for (size_t i = 0; i < src->nfiles; i++) free(src->files[i]);
    free(src->files);
    memset(src, 0, sizeof *src);
}

const ai8x_array_t *ai8x_src_array(const ai8x_src_t *src, const char *name)
{
    for (size_t i = 0; i < src->narrays; i++)
        if (!strcmp(src->arrays[i].name, name)) return &src->arrays[i];
    return NULL;
}
