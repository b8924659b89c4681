/* The native trace format: the file form of a program (grammar and semantics in vectors/README.md).
 * trace_read appends the file's operations to a program; trace_write dumps any program so that
 * write -> read -> write gives identical text. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getline, strdup */
#endif
#include "program.h"
#include "input_error.h"
#include "tb_accs.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 8      /* more than any command takes; extra ones only need counting */
#define MEM_LINE_BYTES 64 /* bytes per written mem/check_mem line */

/* The accelerators of this tree (tb/<acc>/tb_<acc>.sv): the Makefile writes them into tb_accs.h, so that this
 * common code names none of them. */
static const char *const known_accs[] = {TB_ACCS};
enum { NACCS = sizeof known_accs / sizeof *known_accs };

typedef struct reader {
    program_t *p;
    const char *path; /* interned */
    int line;
    char *err;
    size_t errlen;
} reader_t;

/* "path:line: what (saw 'token')"; returns -1 so callers can `return fail(...)`. */
static int fail(reader_t *r, const char *tok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(reader_t *r, const char *tok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    input_verror(r->err, r->errlen, r->path, r->line, tok, fmt, ap);
    va_end(ap);
    return -1;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Hex number with optional 0x, at most `max`. */
static int get_hex(reader_t *r, const char *tok, const char *what, uint64_t max, uint64_t *out)
{
    const char *s = tok;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (!*s) return fail(r, tok, "bad hex number for %s", what);
    uint64_t v = 0;
    for (; *s; s++) {
        int d = hexval((unsigned char)*s);
        if (d < 0) return fail(r, tok, "bad hex number for %s", what);
        if (v >> 60) return fail(r, tok, "%s out of range (more than 64 bits)", what);
        v = v << 4 | (uint64_t)d;
    }
    if (v > max) return fail(r, tok, "%s out of range (max 0x%" PRIx64 ")", what, max);
    *out = v;
    return 0;
}

static int get_dec(reader_t *r, const char *tok, const char *what, uint64_t *out)
{
    if (!*tok) return fail(r, tok, "bad decimal number for %s", what);
    uint64_t v = 0;
    for (const char *s = tok; *s; s++) {
        if (*s < '0' || *s > '9') return fail(r, tok, "bad decimal number for %s", what);
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10) return fail(r, tok, "%s out of range (more than 64 bits)", what);
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* Buffers built by the reader grow in powers of two, so appending many 64-byte lines to one op stays
 * linear; the capacity is implied by nbytes and need not be stored. */
static size_t cap_for(size_t n)
{
    size_t c = 64;
    while (c < n) c *= 2;
    return c;
}

/* mem / check_mem: append to the previous op when it is the same kind from this file and the new bytes
 * continue it, so a dumped image reads back as the one op it was. */
static int add_bytes(reader_t *r, op_kind_t kind, const char *atok, const char *htok)
{
    uint64_t addr;
    if (get_hex(r, atok, "address", UINT64_MAX, &addr)) return -1;
    size_t len = strlen(htok);
    if (len % 2) return fail(r, htok, "odd number of hex digits in byte string");
    for (size_t i = 0; i < len; i++)
        if (hexval((unsigned char)htok[i]) < 0) return fail(r, htok, "bad hex digit '%c' in byte string", htok[i]);
    size_t n = len / 2;

    op_t *o = r->p->n ? &r->p->ops[r->p->n - 1] : NULL;
    if (!(o && o->kind == kind && o->file == r->path && o->nbytes && o->addr + o->nbytes == addr)) {
        o = program_add(r->p, kind);
        o->addr = addr;
        o->file = r->path;
        o->line = r->line;
    }
    size_t old = o->nbytes;
    if (!o->bytes || cap_for(old + n) > cap_for(old)) {
        uint8_t *b = realloc(o->bytes, cap_for(old + n));
        if (!b) return fail(r, NULL, "out of memory");
        o->bytes = b;
    }
    for (size_t i = 0; i < n; i++)
        o->bytes[old + i] = (uint8_t)(hexval((unsigned char)htok[2 * i]) << 4 | hexval((unsigned char)htok[2 * i + 1]));
    o->nbytes = old + n;
    o->size = o->nbytes;
    return 0;
}

static int set_text(reader_t *r, char **dst, const char *rest)
{
    char *s = malloc(strlen(rest) + 1);
    if (!s) return fail(r, NULL, "out of memory");
    strcpy(s, rest);
    free(*dst);
    *dst = s;
    return 0;
}

static op_t *new_op(reader_t *r, op_kind_t kind)
{
    op_t *o = program_add(r->p, kind);
    o->file = r->path;
    o->line = r->line;
    return o;
}

static int count_error(reader_t *r, const char *cmd, int lo, int hi, int got, char **tok)
{
    const char *saw = got > hi ? tok[hi + 1] : tok[0];
    if (lo == hi) return fail(r, saw, "'%s' takes %d operand%s, got %d", cmd, lo, lo == 1 ? "" : "s", got);
    return fail(r, saw, "'%s' takes %d to %d operands, got %d", cmd, lo, hi, got);
}

/* ---- the commands: the table says each one's operand count and handler; a handler decodes and checks its
 * operands, then appends the operation. ---------------------------------------------------------------- */

/* One non-blank, comment-stripped line: tok[0] the command, tok[1..] its operands (nops of them), `rest` the
 * text after the command (for job, skip and name, whose argument is the rest of the line). */
typedef struct line {
    char **tok;
    int nops;
    const char *rest;
} line_t;

/* A numeric operand of an operation: its name in messages, how it is written (hex with an optional 0x, at most
 * max; or decimal), the field of the operation it sets and its value when the line leaves it out. */
typedef enum { F_ADDR, F_DATA, F_MASK, F_STRB, F_SIZE, F_TIMEOUT } field_t;
typedef struct operand {
    const char *what;
    bool decimal;
    uint64_t max;
    field_t field;
    uint64_t dflt;
} operand_t;
enum { MAX_OPERANDS = 4 };

typedef struct command command_t;
typedef int (*handler_t)(reader_t *r, const command_t *c, const line_t *l);
struct command {
    const char *name;
    int lo, hi; /* operands; hi ANY: free text, any number of words */
    handler_t handle;
    op_kind_t kind; /* the operation it appends; the header commands (acc, name, seed, plusarg) append none */
    operand_t args[MAX_OPERANDS]; /* cmd_op's operands, in order */
};
enum { ANY = -1 };

static int cmd_acc(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c;
    for (size_t i = 0; i < NACCS; i++)
        if (!strcmp(l->tok[1], known_accs[i])) {
            snprintf(r->p->acc, sizeof r->p->acc, "%s", l->tok[1]);
            return 0;
        }
    char expected[160] = ""; /* "a, b or c" */
    size_t used = 0;
    for (size_t i = 0; i < NACCS && used < sizeof expected; i++)
        used += (size_t)snprintf(expected + used, sizeof expected - used, "%s%s",
                                 i == 0           ? ""
                                 : i + 1 == NACCS ? " or "
                                                  : ", ",
                                 known_accs[i]);
    return fail(r, l->tok[1], "unknown accelerator (expected %s)", expected);
}

static int cmd_name(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c;
    return set_text(r, &r->p->name, l->rest);
}

static int cmd_seed(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c;
    r->p->seed_given = true;
    return get_dec(r, l->tok[1], "seed", &r->p->seed);
}

/* a plusarg of the dumped run; the simulator checks name and value */
static int cmd_plusarg(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c;
    const char *a = l->tok[1];
    if (a[0] != '+' || !a[1] || a[1] == '=') return fail(r, a, "'plusarg' takes one +name or +name=value");
    program_add_plusarg(r->p, a);
    return 0;
}

/* job <name>, skip <reason> */
static int cmd_text(reader_t *r, const command_t *c, const line_t *l)
{
    if (l->nops < 1) return fail(r, l->tok[0], "'%s' needs a %s", c->name, c->kind == OP_JOB ? "name" : "reason");
    return set_text(r, &new_op(r, c->kind)->text, l->rest);
}

/* mem / check_mem <addr> <bytes> */
static int cmd_bytes(reader_t *r, const command_t *c, const line_t *l)
{
    return add_bytes(r, c->kind, l->tok[1], l->tok[2]);
}

/* An operation of numbers (the table's args): every operand given decoded and range-checked in order, the
 * first bad one the error; then the operation appended. */
static int cmd_op(reader_t *r, const command_t *c, const line_t *l)
{
    uint64_t v[MAX_OPERANDS];
    for (int i = 0; i < MAX_OPERANDS && c->args[i].what; i++) {
        const operand_t *a = &c->args[i];
        const char *tok = i < l->nops ? l->tok[i + 1] : NULL;
        if (!tok) v[i] = a->dflt;
        else if (a->decimal ? get_dec(r, tok, a->what, &v[i]) : get_hex(r, tok, a->what, a->max, &v[i])) return -1;
    }
    op_t *o = new_op(r, c->kind);
    for (int i = 0; i < MAX_OPERANDS && c->args[i].what; i++) {
        switch (c->args[i].field) {
        case F_ADDR: o->addr = v[i]; break;
        case F_DATA: o->data = (uint32_t)v[i]; break;
        case F_MASK: o->mask = (uint32_t)v[i]; break;
        case F_STRB: o->strb = (uint8_t)v[i]; break;
        case F_SIZE: o->size = v[i]; break;
        case F_TIMEOUT: o->timeout = v[i]; break;
        }
    }
    o->nposted = !strcmp(c->name, "wn");
    return 0;
}

/* Operands (what, decimal, max, field, default). */
#define ADDRESS                                 \
    {                                           \
        "address", false, UINT64_MAX, F_ADDR, 0 \
    }
#define HEX32(w, f)                \
    {                              \
        w, false, UINT32_MAX, f, 0 \
    }
#define MASK(dflt)                              \
    {                                           \
        "mask", false, UINT32_MAX, F_MASK, dflt \
    }
#define SIZE                                 \
    {                                        \
        "size", false, UINT64_MAX, F_SIZE, 0 \
    }
#define TIMEOUT                                   \
    {                                             \
        "timeout", true, UINT64_MAX, F_TIMEOUT, 0 \
    }

/* The grammar of vectors/README.md: each command, its operand count, what reads it and, for an operation of
 * numbers, its operands. */
static const command_t commands[] = {
    {.name = "acc", .lo = 1, .hi = 1, .handle = cmd_acc},
    {.name = "name", .lo = 1, .hi = ANY, .handle = cmd_name},
    {.name = "seed", .lo = 1, .hi = 1, .handle = cmd_seed},
    {.name = "plusarg", .lo = 1, .hi = 1, .handle = cmd_plusarg},
    {.name = "job", .lo = 0, .hi = ANY, .handle = cmd_text, .kind = OP_JOB},
    {.name = "skip", .lo = 0, .hi = ANY, .handle = cmd_text, .kind = OP_SKIP},
    {.name = "mem", .lo = 2, .hi = 2, .handle = cmd_bytes, .kind = OP_MEM},
    {.name = "check_mem", .lo = 2, .hi = 2, .handle = cmd_bytes, .kind = OP_CHECK_MEM},
    {.name = "w",
     .lo = 2,
     .hi = 3,
     .handle = cmd_op,
     .kind = OP_WRITE,
     .args = {ADDRESS, HEX32("data", F_DATA), {"strobe", false, 0xF, F_STRB, 0xF}}},
    {.name = "wn",
     .lo = 2,
     .hi = 3,
     .handle = cmd_op,
     .kind = OP_WRITE,
     .args = {ADDRESS, HEX32("data", F_DATA), {"strobe", false, 0xF, F_STRB, 0xF}}},
    {.name = "r",
     .lo = 2,
     .hi = 3,
     .handle = cmd_op,
     .kind = OP_READ,
     .args = {ADDRESS, HEX32("expected value", F_DATA), MASK(0xFFFFFFFFu)}},
    {.name = "poll",
     .lo = 2,
     .hi = 4,
     .handle = cmd_op,
     .kind = OP_POLL,
     .args = {ADDRESS, HEX32("value", F_DATA), MASK(0xFFFFFFFFu), TIMEOUT}},
    {.name = "wait_irq",
     .lo = 0,
     .hi = 2,
     .handle = cmd_op,
     .kind = OP_WAIT_IRQ,
     .args = {MASK(0), TIMEOUT}}, /* mask 0: the accelerator's own completion event */
    {.name = "idle",
     .lo = 1,
     .hi = 1,
     .handle = cmd_op,
     .kind = OP_IDLE,
     .args = {{"cycle count", true, UINT64_MAX, F_SIZE, 0}}},
    {.name = "fill",
     .lo = 3,
     .hi = 3,
     .handle = cmd_op,
     .kind = OP_MEM_FILL,
     .args = {ADDRESS, SIZE, {"fill byte", false, 0xFF, F_DATA, 0}}},
    {.name = "check_crc",
     .lo = 3,
     .hi = 3,
     .handle = cmd_op,
     .kind = OP_CHECK_CRC,
     .args = {ADDRESS, SIZE, HEX32("crc", F_DATA)}},
    {.name = "check_golden", .lo = 0, .hi = 0, .handle = cmd_op, .kind = OP_CHECK_GOLDEN},
};
#undef ADDRESS
#undef HEX32
#undef MASK
#undef SIZE
#undef TIMEOUT

static const command_t *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(name, commands[i].name)) return &commands[i];
    return NULL;
}

/* One line: the command looked up, its operand count checked (a free-text command needs at least its lower
 * bound), then its handler. */
static int do_line(reader_t *r, const line_t *l)
{
    const command_t *c = find_command(l->tok[0]);
    if (!c) return fail(r, l->tok[0], "unknown command");
    if (l->nops < c->lo || (c->hi != ANY && l->nops > c->hi))
        return count_error(r, c->name, c->lo, c->hi == ANY ? c->lo : c->hi, l->nops, l->tok);
    return c->handle(r, c, l);
}

/* Splits s in place at blanks: up to MAX_TOKENS words into tok[] (NULL after the last), *nt of them; returns how
 * many there are in all. */
static int split_words(char *s, char **tok, int *nt)
{
    int total = 0;
    *nt = 0;
    while (*s) {
        char *t = s;
        while (*s && !isspace((unsigned char)*s)) s++;
        if (*s) *s++ = '\0';
        while (isspace((unsigned char)*s)) s++;
        if (*nt < MAX_TOKENS) tok[(*nt)++] = t;
        total++;
    }
    tok[*nt] = NULL;
    return total;
}

int trace_read(program_t *p, const char *path, char *err, size_t errlen)
{
    reader_t r = {.p = p, .path = NULL, .line = 0, .err = err, .errlen = errlen};
    FILE *f = fopen(path, "r");
    if (!f) {
        if (err && errlen) snprintf(err, errlen, "%s: cannot open trace: %s", path, strerror(errno));
        return -1;
    }
    r.path = program_intern_file(p, path);

    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&buf, &cap, f)) >= 0) {
        r.line++;
        if ((size_t)len != strlen(buf)) {
            rc = fail(&r, NULL, "NUL byte in line");
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        /* trim trailing space (also \r\n) */
        size_t n = strlen(buf);
        while (n && isspace((unsigned char)buf[n - 1])) buf[--n] = '\0';

        /* rest-of-line text after the command, for job/skip/name */
        char *s = buf;
        while (isspace((unsigned char)*s)) s++;
        if (!*s) continue;
        char *rest = s;
        while (*rest && !isspace((unsigned char)*rest)) rest++;
        while (isspace((unsigned char)*rest)) rest++;
        char *rest_copy = strdup(rest);
        if (!rest_copy) {
            rc = fail(&r, NULL, "out of memory");
            break;
        }

        char *tok[MAX_TOKENS + 1];
        int nt;
        int total = split_words(s, tok, &nt);
        /* job, name and skip take the rest of the line as free text: any number of words. */
        const command_t *c = nt ? find_command(tok[0]) : NULL;
        bool free_text = c && c->hi == ANY;
        if (total > MAX_TOKENS && !free_text) rc = fail(&r, tok[MAX_TOKENS - 1], "too many operands for '%s'", tok[0]);
        else rc = do_line(&r, &(line_t){.tok = tok, .nops = nt - 1, .rest = rest_copy});
        free(rest_copy);
    }
    if (rc == 0 && ferror(f)) {
        if (err && errlen) snprintf(err, errlen, "%s: read error", path);
        rc = -1;
    }
    free(buf);
    fclose(f);
    return rc;
}

/* ---- writing ------------------------------------------------------------------------------------- */

/* Free text (job name, skip reason, test name) must survive the reader: no '#' (comment), no control
 * characters, no surrounding blanks, not empty. */
static void put_text(FILE *f, const char *s, const char *if_empty)
{
    const char *b = s ? s : "";
    while (*b && isspace((unsigned char)*b)) b++;
    const char *e = b + strlen(b);
    while (e > b && isspace((unsigned char)e[-1])) e--;
    if (e == b) {
        fputs(if_empty, f);
        return;
    }
    for (const char *c = b; c < e; c++) fputc((*c == '#' || (iscntrl((unsigned char)*c) && *c != '\t')) ? '_' : *c, f);
}

static bool text_empty(const char *s)
{
    if (!s) return true;
    for (; *s; s++)
        if (!isspace((unsigned char)*s)) return false;
    return true;
}

/* Consecutive contiguous mem (or check_mem) ops are written as one byte stream cut into 64-byte lines;
 * the reader merges such lines back into one op, so the text round-trips exactly. Returns the index of
 * the last op consumed. */
static size_t put_bytes(FILE *f, const program_t *p, size_t i)
{
    const op_t *first = &p->ops[i];
    const char *kw = first->kind == OP_MEM ? "mem" : "check_mem";
    uint64_t addr = first->addr;
    size_t col = 0;
    size_t j = i;
    for (; j < p->n; j++) {
        const op_t *o = &p->ops[j];
        if (j > i && !(o->kind == first->kind && o->nbytes && o->addr == addr)) break;
        for (size_t k = 0; k < o->nbytes; k++) {
            if (col == 0) fprintf(f, "%s %" PRIx64 " ", kw, addr);
            fprintf(f, "%02x", o->bytes[k]);
            addr++;
            if (++col == MEM_LINE_BYTES) {
                fputc('\n', f);
                col = 0;
            }
        }
    }
    if (col) fputc('\n', f);
    return j - 1;
}

void trace_write(const program_t *p, FILE *f)
{
    fprintf(f, "# accel-cosim native trace (format: vectors/README.md)\n");
    if (p->acc[0]) fprintf(f, "acc %s\n", p->acc);
    if (!text_empty(p->name)) {
        fputs("name ", f);
        put_text(f, p->name, "");
        fputc('\n', f);
    }
    fprintf(f, "seed %" PRIu64 "\n", p->seed);
    for (size_t i = 0; i < p->nplusargs; i++) fprintf(f, "plusarg %s\n", p->plusargs[i]);

    for (size_t i = 0; i < p->n; i++) {
        const op_t *o = &p->ops[i];
        switch (o->kind) {
        case OP_JOB:
            fputs("job ", f);
            put_text(f, o->text, "(unnamed)");
            fputc('\n', f);
            break;
        case OP_SKIP:
            fputs("skip ", f);
            put_text(f, o->text, "(no reason given)");
            fputc('\n', f);
            break;
        case OP_WRITE:
            fprintf(f, "%s %" PRIx64 " %08" PRIx32, o->nposted ? "wn" : "w", o->addr, o->data);
            if ((o->strb & 0xF) != 0xF) fprintf(f, " %x", o->strb & 0xF);
            fputc('\n', f);
            break;
        case OP_READ:
            fprintf(f, "r %" PRIx64 " %08" PRIx32, o->addr, o->data);
            if (o->mask != 0xFFFFFFFFu) fprintf(f, " %08" PRIx32, o->mask);
            fputc('\n', f);
            break;
        case OP_POLL:
            fprintf(f, "poll %" PRIx64 " %08" PRIx32, o->addr, o->data);
            if (o->mask != 0xFFFFFFFFu || o->timeout) fprintf(f, " %08" PRIx32, o->mask);
            if (o->timeout) fprintf(f, " %" PRIu64, o->timeout);
            fputc('\n', f);
            break;
        case OP_WAIT_IRQ:
            fputs("wait_irq", f);
            if (o->mask || o->timeout) fprintf(f, " %" PRIx32, o->mask);
            if (o->timeout) fprintf(f, " %" PRIu64, o->timeout);
            fputc('\n', f);
            break;
        case OP_IDLE: fprintf(f, "idle %" PRIu64 "\n", o->size); break;
        case OP_MEM:
        case OP_CHECK_MEM:
            if (o->nbytes) /* an empty image has no effect and no text form */
                i = put_bytes(f, p, i);
            break;
        case OP_MEM_FILL:
            fprintf(f, "fill %" PRIx64 " %" PRIx64 " %02" PRIx32 "\n", o->addr, o->size, o->data & 0xFF);
            break;
        case OP_CHECK_CRC:
            fprintf(f, "check_crc %" PRIx64 " %" PRIx64 " %08" PRIx32 "\n", o->addr, o->size, o->data);
            break;
        case OP_CHECK_GOLDEN: fputs("check_golden\n", f); break;
        }
    }
}
