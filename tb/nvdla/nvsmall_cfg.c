/* nv_small trace-player importer (spec nvdla.md §7). Two passes: parse and validate every .cfg line in
 * file order into a command list (so every error names its line and sync_wait ordering is checked where
 * it occurs), then emit the program in the replayer's order: job, memory, registers, events + checks. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getline, strdup */
#endif
#include "nvsmall_cfg.h"
#include "input_error.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 8
#define CHUNK_BYTES (1u << 20) /* coalesced OP_MEM ops are cut at 1 MiB */

/* GLB interrupt bit map (§4.3): event "<BLK>_<g>" is bit base + g. */
static const struct {
    const char *blk;
    unsigned base;
} event_bits[] = {
    {"SDP", 0}, {"CDP", 2}, {"PDP", 4}, {"BDMA", 6}, {"RUBIK", 8}, {"CDMA_DAT", 16}, {"CDMA_WT", 18}, {"CACC", 20},
};

typedef enum { PAT_ALL_ZERO, PAT_ONES, PAT_AFIVE, PAT_FIVEA, PAT_ADDR, PAT_RANDOM, PAT_X } pattern_t;
static const struct {
    const char *name;
    pattern_t pat;
    int fill;
} patterns[] = {
    {"ALL_ZERO", PAT_ALL_ZERO, 0x00}, {"ONES", PAT_ONES, 0xFF},   {"AFIVE", PAT_AFIVE, 0xA5},
    {"FIVEA", PAT_FIVEA, 0x5A},       {"X", PAT_X, 0x00}, /* X: an unknown value; 0 is as good as any */
    {"ADDR", PAT_ADDR, -1},           {"RANDOM", PAT_RANDOM, -1},
};

typedef enum {
    C_WRITE,
    C_READ_CHECK,
    C_READ,
    C_POLL,
    C_INTR,
    C_CHECK_CRC,
    C_CHECK_NOTHING,
    C_MEM_INIT,
    C_MEM_LOAD
} cmd_kind_t;

typedef struct cmd {
    cmd_kind_t kind;
    int line;
    uint32_t reg;   /* register byte address */
    uint32_t value; /* register value; crc for C_CHECK_CRC */
    uint64_t base, size;
    unsigned bit; /* C_INTR: GLB status bit */
    int pat;      /* C_MEM_INIT: index into patterns[] */
    char *file;   /* C_MEM_LOAD / C_MEM_INIT from a file: path joined with the .cfg's directory */
    char *sync;   /* C_INTR / C_CHECK_*: sync id */
} cmd_t;

typedef struct loader {
    program_t *p;
    const char *cfg;  /* interned */
    char *dir;        /* directory of the .cfg ("." if none) */
    const char *path; /* file being read, for messages */
    int line;
    char *err;
    size_t errlen;
    nvsmall_resolve_fn resolve;
    void *user;
    cmd_t *cmds;
    size_t n, cap;
    char **notified; /* "BLK ID" of each sync_notify seen so far */
    size_t nnotified;
} loader_t;

static int fail(loader_t *ld, const char *tok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(loader_t *ld, const char *tok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    input_verror(ld->err, ld->errlen, ld->path, ld->line, tok, fmt, ap);
    va_end(ap);
    return -1;
}

static void *xrealloc(void *q, size_t n)
{
    void *r = realloc(q, n ? n : 1);
    if (!r) {
        fprintf(stderr, "nvsmall_cfg: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return r;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fprintf(stderr, "nvsmall_cfg: out of memory\n");
        exit(2);
    }
    return d;
}

static bool ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b)) return false;
    return *a == *b;
}

bool nvsmall_event_bit(const char *event, unsigned *bit)
{
    const char *us = strrchr(event, '_');
    if (!us || (us[1] != '0' && us[1] != '1') || us[2]) return false;
    size_t len = (size_t)(us - event);
    for (size_t i = 0; i < sizeof event_bits / sizeof *event_bits; i++) {
        const char *b = event_bits[i].blk;
        if (strlen(b) != len) continue;
        size_t k = 0;
        while (k < len && toupper((unsigned char)event[k]) == b[k]) k++;
        if (k == len) {
            *bit = event_bits[i].base + (unsigned)(us[1] - '0');
            return true;
        }
    }
    return false;
}

/* ---- .cfg lexing (§7.1): name ( arg , arg ... ) ; [// comment] ------------------------------------- */

typedef struct call {
    char name[32];
    char *arg[MAX_ARGS];
    bool quoted[MAX_ARGS];
    int n;
} call_t;

static bool word_char(int c) { return isalnum(c) || c == '_' || c == '.'; }
static const char *skip_ws(const char *s)
{
    while (isspace((unsigned char)*s)) s++;
    return s;
}

/* 1 = a call, 0 = blank or comment line, -1 = does not parse. Arguments point into `line`. */
static int lex(char *line, call_t *c)
{
    char *s = (char *)skip_ws(line);
    if (!*s || (s[0] == '/' && s[1] == '/')) return 0;
    size_t k = 0;
    if (!(isalpha((unsigned char)*s) || *s == '_')) return -1;
    while (isalnum((unsigned char)*s) || *s == '_') {
        if (k + 1 >= sizeof c->name) return -1;
        c->name[k++] = *s++;
    }
    c->name[k] = '\0';
    s = (char *)skip_ws(s);
    if (*s++ != '(') return -1;
    c->n = 0;
    s = (char *)skip_ws(s);
    if (*s == ')') {
        s++;
    } else {
        for (;;) {
            if (c->n == MAX_ARGS) return -1;
            char *start, *end;
            bool q = *s == '"';
            if (q) {
                start = ++s;
                while (*s && *s != '"') {
                    if (!(word_char((unsigned char)*s) || *s == '/')) return -1;
                    s++;
                }
                if (*s != '"' || s == start) return -1;
                end = s++;
            } else {
                start = s;
                while (word_char((unsigned char)*s)) s++;
                if (s == start) return -1;
                end = s;
            }
            s = (char *)skip_ws(s);
            char sep = *s++;
            if (sep != ',' && sep != ')') return -1;
            *end = '\0'; /* after reading sep: end may be the separator itself */
            c->arg[c->n] = start;
            c->quoted[c->n++] = q;
            if (sep == ')') break;
            s = (char *)skip_ws(s);
        }
    }
    s = (char *)skip_ws(s);
    if (*s++ != ';') return -1;
    s = (char *)skip_ws(s);
    return (!*s || (s[0] == '/' && s[1] == '/')) ? 1 : -1;
}

/* Python int(x, 0) as the upstream parser uses it: 0x hex or decimal (a decimal with a leading 0 is
 * rejected there too). */
static int get_num(loader_t *ld, const char *tok, const char *what, uint64_t max, uint64_t *out)
{
    const char *s = tok;
    unsigned radix = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        radix = 16;
        s += 2;
    } else if (s[0] == '0' && s[1]) {
        for (const char *z = s; *z; z++)
            if (*z != '0') return fail(ld, tok, "bad number for %s (leading 0 on a decimal)", what);
    }
    if (!*s) return fail(ld, tok, "bad number for %s", what);
    uint64_t v = 0;
    for (; *s; s++) {
        int d = isdigit((unsigned char)*s)                     ? *s - '0'
                : (radix == 16 && isxdigit((unsigned char)*s)) ? toupper((unsigned char)*s) - 'A' + 10
                                                               : -1;
        if (d < 0) return fail(ld, tok, "bad number for %s", what);
        if (v > (UINT64_MAX - (uint64_t)d) / radix) return fail(ld, tok, "%s out of range", what);
        v = v * radix + (uint64_t)d;
    }
    if (v > max) return fail(ld, tok, "%s out of range (max 0x%" PRIx64 ")", what, max);
    *out = v;
    return 0;
}

static cmd_t *add_cmd(loader_t *ld, cmd_kind_t kind)
{
    if (ld->n == ld->cap) {
        ld->cap = ld->cap ? 2 * ld->cap : 256;
        ld->cmds = xrealloc(ld->cmds, ld->cap * sizeof *ld->cmds);
    }
    cmd_t *c = &ld->cmds[ld->n++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->line = ld->line;
    return c;
}

static int want_args(loader_t *ld, const call_t *c, int want)
{
    if (c->n == want) return 0;
    return fail(ld, c->n > want ? c->arg[want] : c->name, "%s takes %d argument%s, got %d", c->name, want,
                want == 1 ? "" : "s", c->n);
}

static int want_bare(loader_t *ld, const call_t *c, int i, const char *what)
{
    if (!c->quoted[i]) return 0;
    return fail(ld, c->arg[i], "%s must not be quoted", what);
}

static int check_mem_name(loader_t *ld, const char *tok)
{
    if (ieq(tok, "pri_mem") || !strcmp(tok, "1")) return 0;
    if (ieq(tok, "sec_mem")) return fail(ld, tok, "sec_mem (SRAMIF) does not exist in this design");
    return fail(ld, tok, "unknown memory (expected pri_mem or 1)");
}

/* mem_* commands: a trailing sync-id argument ("do it after the sync fires") is unused by nv_small and
 * not supported by a sequential replayer. */
static int mem_args(loader_t *ld, const call_t *c, int want)
{
    if (c->n == want + 1)
        return fail(ld, c->arg[want], "%s with a trailing sync-id argument is not supported", c->name);
    if (want_args(ld, c, want)) return -1;
    for (int i = 0; i < c->n; i++)
        if (i != 2 && want_bare(ld, c, i, "argument")) return -1;
    if (check_mem_name(ld, c->arg[0])) return -1;
    uint64_t base;
    return get_num(ld, c->arg[1], "base address", UINT64_MAX, &base);
}

static char *join_dir(const loader_t *ld, const char *name)
{
    size_t n = strlen(ld->dir) + strlen(name) + 2;
    char *s = xrealloc(NULL, n);
    snprintf(s, n, "%s/%s", ld->dir, name);
    return s;
}

static int reg_cmd(loader_t *ld, const call_t *c, cmd_kind_t kind)
{
    if (want_args(ld, c, 2) || want_bare(ld, c, 0, "register name") || want_bare(ld, c, 1, "argument")) return -1;
    uint32_t addr;
    if (!ld->resolve(ld->user, c->arg[0], &addr)) return fail(ld, c->arg[0], "unknown register '%s'", c->arg[0]);
    uint64_t v = 0;
    if (kind != C_READ && get_num(ld, c->arg[1], "register value", UINT32_MAX, &v)) return -1;
    cmd_t *k = add_cmd(ld, kind);
    k->reg = addr;
    k->value = (uint32_t)v;
    return 0;
}

static int sync_cmd(loader_t *ld, const call_t *c, bool notify)
{
    if (want_args(ld, c, 2) || want_bare(ld, c, 0, "block") || want_bare(ld, c, 1, "sync id")) return -1;
    char key[256];
    snprintf(key, sizeof key, "%s %s", c->arg[0], c->arg[1]);
    if (notify) {
        ld->notified = xrealloc(ld->notified, (ld->nnotified + 1) * sizeof *ld->notified);
        ld->notified[ld->nnotified++] = xstrdup(key);
        return 0;
    }
    for (size_t i = 0; i < ld->nnotified; i++)
        if (!strcmp(ld->notified[i], key)) return 0;
    return fail(ld, c->arg[1], "sync_wait(%s, %s) has no earlier sync_notify", c->arg[0], c->arg[1]);
}

static int intr_cmd(loader_t *ld, const call_t *c)
{
    if (c->n == 1) return fail(ld, c->arg[0], "intr_notify without an event ID (any interrupt) is not supported");
    if (want_args(ld, c, 2) || want_bare(ld, c, 0, "event") || want_bare(ld, c, 1, "sync id")) return -1;
    unsigned bit;
    if (!nvsmall_event_bit(c->arg[0], &bit))
        return fail(ld, c->arg[0], "unknown interrupt event (expected <BLOCK>_<0|1>, e.g. SDP_0)");
    for (size_t i = 0; i < ld->n; i++)
        if (ld->cmds[i].kind == C_INTR && !strcmp(ld->cmds[i].sync, c->arg[1]))
            return fail(ld, c->arg[1], "sync id already used by the intr_notify at line %d", ld->cmds[i].line);
    cmd_t *k = add_cmd(ld, C_INTR);
    k->bit = bit;
    k->sync = xstrdup(c->arg[1]);
    return 0;
}

static int check_cmd(loader_t *ld, const call_t *c)
{
    if (!strcmp(c->name, "check_file")) return fail(ld, c->name, "check_file is unimplemented upstream");
    if (!strcmp(c->name, "check_nothing")) {
        if (want_args(ld, c, 1) || want_bare(ld, c, 0, "sync id")) return -1;
        add_cmd(ld, C_CHECK_NOTHING)->sync = xstrdup(c->arg[0]);
        return 0;
    }
    if (want_args(ld, c, 5)) return -1;
    for (int i = 0; i < 5; i++)
        if (want_bare(ld, c, i, "argument")) return -1;
    uint64_t base, size, crc;
    if (check_mem_name(ld, c->arg[1]) || get_num(ld, c->arg[2], "base address", UINT64_MAX, &base) ||
        get_num(ld, c->arg[3], "size", UINT64_MAX, &size) || get_num(ld, c->arg[4], "crc", UINT32_MAX, &crc))
        return -1;
    cmd_t *k = add_cmd(ld, C_CHECK_CRC);
    k->sync = xstrdup(c->arg[0]);
    k->base = base;
    k->size = size;
    k->value = (uint32_t)crc;
    return 0;
}

static int mem_init_cmd(loader_t *ld, const call_t *c)
{
    if (mem_args(ld, c, 4)) return -1;
    int pat = -1;
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++)
        if (!strcmp(c->arg[3], patterns[i].name)) pat = (int)i;
    if (pat < 0) return fail(ld, c->arg[3], "unknown mem_init pattern (ALL_ZERO ONES AFIVE FIVEA ADDR RANDOM X)");
    cmd_t k = {.kind = C_MEM_INIT, .line = ld->line, .pat = pat};
    if (get_num(ld, c->arg[1], "base address", UINT64_MAX, &k.base)) return -1;
    if (c->quoted[2]) k.file = join_dir(ld, c->arg[2]); /* size = file extent, found when emitting */
    else if (get_num(ld, c->arg[2], "size", UINT64_MAX, &k.size)) return -1;
    if (!k.file && patterns[pat].fill < 0 && k.size > NVSMALL_MAX_GEN_BYTES)
        return fail(ld, c->arg[2], "pattern too large: %s over more than %u bytes", c->arg[3], NVSMALL_MAX_GEN_BYTES);
    *add_cmd(ld, C_MEM_INIT) = k;
    return 0;
}

static int mem_load_cmd(loader_t *ld, const call_t *c)
{
    if (mem_args(ld, c, 3)) return -1;
    if (!c->quoted[2]) return fail(ld, c->arg[2], "mem_load needs a quoted file name");
    cmd_t *k = add_cmd(ld, C_MEM_LOAD);
    get_num(ld, c->arg[1], "base address", UINT64_MAX, &k->base); /* validated by mem_args */
    k->file = join_dir(ld, c->arg[2]);
    return 0;
}

static int parse_line(loader_t *ld, char *line)
{
    /* the message quotes the line as written, so keep a copy before lex() cuts it up */
    char shown[160];
    snprintf(shown, sizeof shown, "%s", skip_ws(line));
    size_t n = strlen(shown);
    while (n && isspace((unsigned char)shown[n - 1])) shown[--n] = '\0';

    call_t c;
    int r = lex(line, &c);
    if (r == 0) return 0;
    const char *nm = c.name;
    if (r > 0) {
        if (!strcmp(nm, "reg_write")) return reg_cmd(ld, &c, C_WRITE);
        if (!strcmp(nm, "reg_read_check")) return reg_cmd(ld, &c, C_READ_CHECK);
        if (!strcmp(nm, "reg_read")) return reg_cmd(ld, &c, C_READ);
        if (!strcmp(nm, "poll_reg_equal")) return reg_cmd(ld, &c, C_POLL);
        if (!strcmp(nm, "sync_notify")) return sync_cmd(ld, &c, true);
        if (!strcmp(nm, "sync_wait")) return sync_cmd(ld, &c, false);
        if (!strcmp(nm, "intr_notify")) return intr_cmd(ld, &c);
        if (!strcmp(nm, "check_crc") || !strcmp(nm, "check_nothing") || !strcmp(nm, "check_file"))
            return check_cmd(ld, &c);
        if (!strcmp(nm, "mem_init")) return mem_init_cmd(ld, &c);
        if (!strcmp(nm, "mem_load")) return mem_load_cmd(ld, &c);
        uint64_t v;
        if (!strcmp(nm, "mem_reserve")) /* no-op for a sparse memory */
            return mem_args(ld, &c, 3) || get_num(ld, c.arg[2], "size", UINT64_MAX, &v) ? -1 : 0;
        if (!strcmp(nm, "mem_release")) /* (mem, base, sync id): no-op */
            return want_args(ld, &c, 3) || check_mem_name(ld, c.arg[0]) ||
                           get_num(ld, c.arg[1], "base address", UINT64_MAX, &v)
                       ? -1
                       : 0;
    }
    if (ld->err && ld->errlen)
        snprintf(ld->err, ld->errlen, "%s:%d: unrecognized line '%s'", ld->path, ld->line, shown);
    return -1;
}

/* ---- surface (.dat) files (§7.3) ----------------------------------------------------------------- */

/* Coalesces contiguous records into OP_MEM ops of up to CHUNK_BYTES. */
typedef struct chunk {
    uint8_t *buf;
    size_t n, cap;
    uint64_t addr;
    const char *file; /* interned */
    int line;
} chunk_t;

static void chunk_flush(program_t *p, chunk_t *ch)
{
    if (!ch->n) return;
    op_t *o = program_add(p, OP_MEM);
    o->addr = ch->addr;
    o->bytes = xrealloc(ch->buf, ch->n);
    o->nbytes = ch->n;
    o->size = ch->n;
    o->file = ch->file;
    o->line = ch->line;
    ch->buf = NULL;
    ch->n = ch->cap = 0;
}

/* Room for `size` more bytes at `addr`, starting a new op unless they continue the current one. */
static uint8_t *chunk_reserve(program_t *p, chunk_t *ch, uint64_t addr, size_t size, int line)
{
    if (ch->n && (ch->addr + ch->n != addr || ch->n + size > CHUNK_BYTES)) chunk_flush(p, ch);
    if (!ch->n) {
        ch->addr = addr;
        ch->line = line;
    }
    if (ch->n + size > ch->cap) {
        size_t cap = ch->cap ? ch->cap : 4096;
        while (cap < ch->n + size) cap *= 2;
        ch->buf = xrealloc(ch->buf, cap);
        ch->cap = cap;
    }
    uint8_t *dst = ch->buf + ch->n;
    ch->n += size;
    return dst;
}

static char *trim_rec(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '{') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n' || s[n - 1] == '}' ||
                 s[n - 1] == ','))
        s[--n] = '\0';
    return s;
}

/* mem_core's m_atov: 0x hex, leading-0 octal, else decimal (strict here: bad digits are an error). */
static int dat_num(loader_t *ld, const char *tok, const char *what, uint64_t max, uint64_t *out)
{
    const char *s = tok;
    unsigned radix = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        radix = 16;
        s += 2;
    } else if (s[0] == '0') {
        radix = 8;
    }
    if (!*s) return fail(ld, tok, "bad %s in surface record", what);
    uint64_t v = 0;
    for (; *s; s++) {
        int d = isdigit((unsigned char)*s)    ? *s - '0'
                : isxdigit((unsigned char)*s) ? toupper((unsigned char)*s) - 'A' + 10
                                              : 99;
        if (d >= (int)radix) return fail(ld, tok, "bad %s in surface record", what);
        if (v > (UINT64_MAX - (uint64_t)d) / radix) return fail(ld, tok, "%s out of range in surface record", what);
        v = v * radix + (uint64_t)d;
    }
    if (v > max) return fail(ld, tok, "%s out of range in surface record (max 0x%" PRIx64 ")", what, max);
    *out = v;
    return 0;
}

/* "key:value" part of a record; returns the value text. */
static char *rec_field(loader_t *ld, char *part, const char *key)
{
    part = trim_rec(part);
    size_t k = strlen(key);
    char *colon = strchr(part, ':');
    if (strncmp(part, key, k) || !colon) {
        fail(ld, part, "surface record field should be '%s:...'", key);
        return NULL;
    }
    return trim_rec(colon + 1);
}

/* Reads a surface file. emit: append its bytes at base as OP_MEM ops. Always: *extent = highest
 * written offset + 1 (0 when the file has no bytes). */
static int dat_read(loader_t *ld, const char *path, uint64_t base, bool emit, uint64_t *extent)
{
    FILE *f = fopen(path, "r");
    const char *saved_path = ld->path;
    int saved_line = ld->line;
    if (!f) return fail(ld, path, "cannot open surface file: %s", strerror(errno));
    ld->path = program_intern_file(ld->p, path);
    ld->line = 0;
    chunk_t ch = {.file = ld->path};
    char *buf = NULL;
    size_t cap = 0;
    int rc = 0;
    *extent = 0;
    /* The lone "{" and "}" lines frame the records (optional: output dumps have none); a file opened by "{" must
     * be closed by "}" (else it was cut short). Any other line that is not a record is an error, never a skipped
     * line: a dropped record would end as a CRC mismatch blaming the DUT. */
    enum { BEFORE, OPEN, RECORDS, CLOSED } state = BEFORE;
    while (rc == 0 && getline(&buf, &cap, f) >= 0) {
        ld->line++;
        char *raw = (char *)skip_ws(buf);
        size_t rn = strlen(raw);
        while (rn && isspace((unsigned char)raw[rn - 1])) raw[--rn] = '\0';
        if (!rn || raw[0] == '#') continue;
        if (state == CLOSED) {
            rc = fail(ld, raw, "line after the closing '}' of the surface file");
            break;
        }
        if (!strcmp(raw, "{") || !strcmp(raw, "}")) {
            if (raw[0] == '{' ? state != BEFORE : state != OPEN) {
                rc = fail(ld, raw, "unexpected '%s' line in surface file", raw);
                break;
            }
            state = raw[0] == '{' ? OPEN : CLOSED;
            continue;
        }
        if (state == BEFORE) state = RECORDS;
        if (raw[rn - 1] == ',') raw[--rn] = '\0';
        while (rn && isspace((unsigned char)raw[rn - 1])) raw[--rn] = '\0';
        if (raw[0] != '{' || !rn || raw[rn - 1] != '}' || strchr(raw + 1, '{') || strchr(raw, '}') != raw + rn - 1) {
            rc = fail(ld, raw, "malformed surface record (expected {offset:O, size:N, payload:B ...})");
            break;
        }
        char *s = trim_rec(raw);
        char *parts[3];
        int np = 0;
        for (char *q = s;; q++) {
            if (np < 3) parts[np] = q;
            np++;
            q = strchr(q, ',');
            if (!q) break;
            *q = '\0';
        }
        if (np != 3) {
            rc = fail(ld, s, "surface record has %d comma-separated fields, expected 3 (offset, size, payload)", np);
            break;
        }
        uint64_t off, size;
        char *ov = rec_field(ld, parts[0], "offset");
        if (!ov || dat_num(ld, ov, "offset", UINT32_MAX, &off)) {
            rc = -1;
            break;
        }
        char *sv = rec_field(ld, parts[1], "size");
        if (!sv || dat_num(ld, sv, "size", NVSMALL_MAX_GEN_BYTES, &size)) {
            rc = -1;
            break;
        }
        char *pv = rec_field(ld, parts[2], "payload");
        if (!pv) {
            rc = -1;
            break;
        }

        uint8_t *dst = emit && size ? chunk_reserve(ld->p, &ch, base + off, (size_t)size, ld->line) : NULL;
        uint64_t i = 0;
        for (char *t = pv; *t;) {
            char *e = t;
            while (*e && !isspace((unsigned char)*e)) e++;
            char save = *e;
            *e = '\0';
            uint64_t b;
            if (i >= size) {
                rc = fail(ld, t, "payload has more bytes than size %" PRIu64, size);
                break;
            }
            if (dat_num(ld, t, "payload byte", 0xFF, &b)) {
                rc = -1;
                break;
            }
            if (dst) dst[i] = (uint8_t)b;
            i++;
            *e = save;
            t = (char *)skip_ws(e);
        }
        if (rc) break;
        if (dst) memset(dst + i, 0, (size_t)(size - i)); /* short payload: zeros (SV semantics, spec 7.3) */
        if (size && off + size > *extent) *extent = off + size;
    }
    if (rc == 0 && state == OPEN) rc = fail(ld, NULL, "surface file ends without its closing '}' line (cut short?)");
    if (rc == 0) chunk_flush(ld->p, &ch);
    free(ch.buf);
    free(buf);
    fclose(f);
    if (rc == 0) {
        ld->path = saved_path;
        ld->line = saved_line;
    }
    return rc;
}

/* ---- emission ------------------------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static op_t *at(loader_t *ld, op_t *o, int line)
{
    o->file = ld->cfg;
    o->line = line;
    return o;
}

static int emit_mem_init(loader_t *ld, const cmd_t *c)
{
    uint64_t size = c->size;
    ld->line = c->line;
    if (c->file) {
        if (dat_read(ld, c->file, c->base, false, &size)) return -1;
        ld->line = c->line;
        if (!size) return fail(ld, c->file, "mem_init file has no records");
        if (patterns[c->pat].fill < 0 && size > NVSMALL_MAX_GEN_BYTES)
            return fail(ld, patterns[c->pat].name, "pattern too large: file extent 0x%" PRIx64, size);
    }
    if (patterns[c->pat].fill >= 0) {
        prog_mem_fill(ld->p, c->base, size, (uint8_t)patterns[c->pat].fill);
        at(ld, &ld->p->ops[ld->p->n - 1], c->line);
        return 0;
    }
    /* ADDR / RANDOM: materialise. The RANDOM stream depends on the program seed and the base address
     * only, so a seed reproduces the memory image. */
    uint64_t state = ld->p->seed ^ (c->base * 0xD1B54A32D192ED03ull), word = 0;
    chunk_t ch = {.file = ld->cfg};
    for (uint64_t done = 0; done < size;) {
        size_t n = (size_t)(size - done < CHUNK_BYTES ? size - done : CHUNK_BYTES);
        uint8_t *d = chunk_reserve(ld->p, &ch, c->base + done, n, c->line);
        for (size_t i = 0; i < n; i++) {
            uint64_t g = done + i;
            if (patterns[c->pat].pat == PAT_ADDR) {
                d[i] = (uint8_t)(c->base + g);
            } else {
                if (g % 8 == 0) word = splitmix64(&state);
                d[i] = (uint8_t)(word >> (8 * (g % 8)));
            }
        }
        done += n;
        chunk_flush(ld->p, &ch);
    }
    free(ch.buf);
    return 0;
}

static int emit(loader_t *ld)
{
    program_t *p = ld->p;
    int first = ld->n ? ld->cmds[0].line : 1;
    at(ld, program_add(p, OP_JOB), first)->text = xstrdup(p->name);

    for (size_t i = 0; i < ld->n; i++) {
        const cmd_t *c = &ld->cmds[i];
        uint64_t extent;
        if (c->kind == C_MEM_INIT && emit_mem_init(ld, c)) return -1;
        ld->line = c->line;
        if (c->kind == C_MEM_LOAD && dat_read(ld, c->file, c->base, true, &extent)) return -1;
    }
    for (size_t i = 0; i < ld->n; i++) {
        const cmd_t *c = &ld->cmds[i];
        switch (c->kind) {
        case C_WRITE: prog_write(p, c->reg, c->value); break;
        case C_READ_CHECK: prog_read(p, c->reg, c->value, 0xFFFFFFFFu); break;
        case C_READ: prog_read(p, c->reg, 0, 0); break;
        case C_POLL: prog_poll(p, c->reg, c->value, 0xFFFFFFFFu, NVSMALL_POLL_TIMEOUT); break;
        default: continue;
        }
        at(ld, &p->ops[p->n - 1], c->line);
    }
    int last_intr = 0;
    for (size_t i = 0; i < ld->n; i++) {
        const cmd_t *e = &ld->cmds[i];
        if (e->kind != C_INTR) continue;
        last_intr = e->line;
        prog_wait_irq(p, 1u << e->bit, NVSMALL_IRQ_TIMEOUT);
        at(ld, &p->ops[p->n - 1], e->line);
        for (size_t j = 0; j < ld->n; j++) {
            const cmd_t *c = &ld->cmds[j];
            if (c->kind == C_CHECK_CRC && !strcmp(c->sync, e->sync)) {
                prog_check_crc(p, c->base, c->size, c->value);
                at(ld, &p->ops[p->n - 1], c->line);
            }
        }
    }
    /* Besides the trace's CRCs: the memory against the golden model's over every region it wrote, once every
     * interrupt the trace waits for is in (a later layer may still be running at an earlier one). A layer the
     * model cannot compute is an error there, with its reason, in every mode. */
    if (last_intr) {
        prog_check_golden(p);
        at(ld, &p->ops[p->n - 1], last_intr);
    }
    return 0;
}

/* Every check must be bound to a sync id that an intr_notify fires. */
static int check_bindings(loader_t *ld)
{
    for (size_t i = 0; i < ld->n; i++) {
        const cmd_t *c = &ld->cmds[i];
        if (c->kind != C_CHECK_CRC && c->kind != C_CHECK_NOTHING) continue;
        bool found = false;
        for (size_t j = 0; j < ld->n && !found; j++)
            found = ld->cmds[j].kind == C_INTR && !strcmp(ld->cmds[j].sync, c->sync);
        if (!found) {
            ld->line = c->line;
            return fail(ld, c->sync, "%s bound to a sync id that no intr_notify fires",
                        c->kind == C_CHECK_CRC ? "check_crc" : "check_nothing");
        }
    }
    return 0;
}

/* Test name: the .cfg's directory name (upstream layout <test>/<test>.cfg), else the file's stem. */
static char *test_name(const char *cfg_path)
{
    const char *slash = strrchr(cfg_path, '/');
    if (slash) {
        const char *d = slash;
        while (d > cfg_path && d[-1] != '/') d--;
        size_t n = (size_t)(slash - d);
        if (n && !(n == 1 && d[0] == '.') && !(n == 2 && d[0] == '.' && d[1] == '.')) {
            char *s = xrealloc(NULL, n + 1);
            memcpy(s, d, n);
            s[n] = '\0';
            return s;
        }
    }
    const char *b = slash ? slash + 1 : cfg_path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    char *s = xrealloc(NULL, n + 1);
    memcpy(s, b, n);
    s[n] = '\0';
    return s;
}

int nvsmall_cfg_load(program_t *p, const char *cfg_path, nvsmall_resolve_fn resolve, void *user, char *err,
                     size_t errlen)
{
    loader_t ld = {.p = p, .err = err, .errlen = errlen, .resolve = resolve, .user = user};
    ld.path = cfg_path;
    FILE *f = fopen(cfg_path, "r");
    if (!f) {
        if (err && errlen)
            snprintf(err, errlen,
                     "%s: cannot open: %s (a +cfg= is NVIDIA's nv_small .cfg trace, or an nv_full trace-player "
                     "folder holding input.txn)",
                     cfg_path, strerror(errno));
        return -1;
    }
    ld.cfg = ld.path = program_intern_file(p, cfg_path);
    const char *slash = strrchr(cfg_path, '/');
    if (slash) {
        size_t n = (size_t)(slash - cfg_path);
        ld.dir = xrealloc(NULL, n + 2);
        memcpy(ld.dir, cfg_path, n ? n : 1); /* "/x.cfg" -> "/" */
        ld.dir[n ? n : 1] = '\0';
    } else {
        ld.dir = xstrdup(".");
    }

    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&buf, &cap, f)) >= 0) {
        ld.line++;
        if ((size_t)len != strlen(buf)) rc = fail(&ld, NULL, "NUL byte in line");
        else rc = parse_line(&ld, buf);
    }
    free(buf);
    fclose(f);

    if (rc == 0) rc = check_bindings(&ld);
    if (rc == 0) {
        snprintf(p->acc, sizeof p->acc, "nvdla");
        free(p->name);
        p->name = test_name(cfg_path);
        rc = emit(&ld);
    }

    for (size_t i = 0; i < ld.n; i++) {
        free(ld.cmds[i].file);
        free(ld.cmds[i].sync);
    }
    free(ld.cmds);
    for (size_t i = 0; i < ld.nnotified; i++) free(ld.notified[i]);
    free(ld.notified);
    free(ld.dir);
    return rc;
}
