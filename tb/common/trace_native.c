/* The native trace format: the file form of a program (grammar and semantics in vectors/README.md).
 * trace_read appends the file's operations to a program; trace_write dumps any program so that
 * write -> read -> write gives identical text. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getline, strdup */
#endif
#include "program.h"
#include "tb_accs.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 8          /* more than any command takes; extra ones only need counting */
#define MEM_LINE_BYTES 64     /* bytes per written mem/check_mem line */

/* The accelerators of this tree (tb/<acc>/tb_<acc>.sv): the Makefile writes them into tb_accs.h, so that this
 * common code names none of them. */
static const char *const known_accs[] = { TB_ACCS };
enum { NACCS = sizeof known_accs / sizeof *known_accs };

typedef struct reader {
    program_t  *p;
    const char *path;         /* interned */
    int         line;
    char       *err;
    size_t      errlen;
} reader_t;

/* "path:line: what (saw 'token')"; returns -1 so callers can `return fail(...)`. */
static int fail(reader_t *r, const char *tok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(reader_t *r, const char *tok, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->err && r->errlen) {
        if (tok)
            snprintf(r->err, r->errlen, "%s:%d: %s (saw '%.80s')", r->path, r->line, msg, tok);
        else
            snprintf(r->err, r->errlen, "%s:%d: %s", r->path, r->line, msg);
    }
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
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    if (!*s)
        return fail(r, tok, "bad hex number for %s", what);
    uint64_t v = 0;
    for (; *s; s++) {
        int d = hexval((unsigned char)*s);
        if (d < 0)
            return fail(r, tok, "bad hex number for %s", what);
        if (v >> 60)
            return fail(r, tok, "%s out of range (more than 64 bits)", what);
        v = v << 4 | (uint64_t)d;
    }
    if (v > max)
        return fail(r, tok, "%s out of range (max 0x%" PRIx64 ")", what, max);
    *out = v;
    return 0;
}

static int get_hex32(reader_t *r, const char *tok, const char *what, uint32_t *out)
{
    uint64_t v;
    if (get_hex(r, tok, what, UINT32_MAX, &v))
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int get_dec(reader_t *r, const char *tok, const char *what, uint64_t *out)
{
    if (!*tok)
        return fail(r, tok, "bad decimal number for %s", what);
    uint64_t v = 0;
    for (const char *s = tok; *s; s++) {
        if (*s < '0' || *s > '9')
            return fail(r, tok, "bad decimal number for %s", what);
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return fail(r, tok, "%s out of range (more than 64 bits)", what);
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
    while (c < n)
        c *= 2;
    return c;
}

/* mem / check_mem: append to the previous op when it is the same kind from this file and the new bytes
 * continue it, so a dumped image reads back as the one op it was. */
static int add_bytes(reader_t *r, op_kind_t kind, const char *atok, const char *htok)
{
    uint64_t addr;
    if (get_hex(r, atok, "address", UINT64_MAX, &addr))
        return -1;
    size_t len = strlen(htok);
    if (len % 2)
        return fail(r, htok, "odd number of hex digits in byte string");
    for (size_t i = 0; i < len; i++)
        if (hexval((unsigned char)htok[i]) < 0)
            return fail(r, htok, "bad hex digit '%c' in byte string", htok[i]);
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
        if (!b)
            return fail(r, NULL, "out of memory");
        o->bytes = b;
    }
    for (size_t i = 0; i < n; i++)
        o->bytes[old + i] = (uint8_t)(hexval((unsigned char)htok[2 * i]) << 4 |
                                      hexval((unsigned char)htok[2 * i + 1]));
    o->nbytes = old + n;
    o->size = o->nbytes;
    return 0;
}

static int set_text(reader_t *r, char **dst, const char *rest)
{
    char *s = malloc(strlen(rest) + 1);
    if (!s)
        return fail(r, NULL, "out of memory");
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
    if (lo == hi)
        return fail(r, saw, "'%s' takes %d operand%s, got %d", cmd, lo, lo == 1 ? "" : "s", got);
    return fail(r, saw, "'%s' takes %d to %d operands, got %d", cmd, lo, hi, got);
}

/* ---- the commands: the table says each one's operand count and handler; a handler decodes and checks its
 * operands, then appends the operation. ---------------------------------------------------------------- */

/* One non-blank, comment-stripped line: tok[0] the command, tok[1..] its operands (nops of them), `rest` the
 * text after the command (for job, skip and name, whose argument is the rest of the line). */
typedef struct line {
    char      **tok;
    int         nops;
    const char *rest;
} line_t;

typedef struct command command_t;
typedef int (*handler_t)(reader_t *r, const command_t *c, const line_t *l);
struct command {
    const char *name;
    int         lo, hi;       /* operands; hi ANY: free text, any number of words */
    handler_t   handle;
    op_kind_t   kind;         /* the operation it appends; the header commands (acc, name, seed, plusarg) append none */
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
    char expected[160] = "";   /* "a, b or c" */
    size_t used = 0;
    for (size_t i = 0; i < NACCS && used < sizeof expected; i++)
        used += (size_t)snprintf(expected + used, sizeof expected - used, "%s%s",
                                 i == 0 ? "" : i + 1 == NACCS ? " or " : ", ", known_accs[i]);
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
    if (a[0] != '+' || !a[1] || a[1] == '=')
        return fail(r, a, "'plusarg' takes one +name or +name=value");
    program_add_plusarg(r->p, a);
    return 0;
}

/* job <name>, skip <reason> */
static int cmd_text(reader_t *r, const command_t *c, const line_t *l)
{
    if (l->nops < 1)
        return fail(r, l->tok[0], "'%s' needs a %s", c->name, c->kind == OP_JOB ? "name" : "reason");
    return set_text(r, &new_op(r, c->kind)->text, l->rest);
}

/* w / wn <addr> <data> [strobe] */
static int cmd_write(reader_t *r, const command_t *c, const line_t *l)
{
    uint64_t addr, strb = 0xF;
    uint32_t data;
    if (get_hex(r, l->tok[1], "address", UINT64_MAX, &addr) || get_hex32(r, l->tok[2], "data", &data) ||
        (l->nops == 3 && get_hex(r, l->tok[3], "strobe", 0xF, &strb)))
        return -1;
    op_t *o = new_op(r, OP_WRITE);
    o->addr = addr;
    o->data = data;
    o->strb = (uint8_t)strb;
    o->nposted = c->name[1] == 'n';
    return 0;
}

/* r <addr> <expected> [mask] */
static int cmd_read(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c;
    uint64_t addr;
    uint32_t data, mask = 0xFFFFFFFFu;
    if (get_hex(r, l->tok[1], "address", UINT64_MAX, &addr) || get_hex32(r, l->tok[2], "expected value", &data) ||
        (l->nops == 3 && get_hex32(r, l->tok[3], "mask", &mask)))
        return -1;
    op_t *o = new_op(r, OP_READ);
    o->addr = addr;
    o->data = data;
    o->mask = mask;
    return 0;
}

/* poll <addr> <value> [mask [timeout]] */
static int cmd_poll(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c;
    uint64_t addr, timeout = 0;
    uint32_t data, mask = 0xFFFFFFFFu;
    if (get_hex(r, l->tok[1], "address", UINT64_MAX, &addr) || get_hex32(r, l->tok[2], "value", &data) ||
        (l->nops >= 3 && get_hex32(r, l->tok[3], "mask", &mask)) ||
        (l->nops >= 4 && get_dec(r, l->tok[4], "timeout", &timeout)))
        return -1;
    op_t *o = new_op(r, OP_POLL);
    o->addr = addr;
    o->data = data;
    o->mask = mask;
    o->timeout = timeout;
    return 0;
}

/* wait_irq [mask [timeout]] */
static int cmd_wait_irq(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c;
    uint32_t mask = 0;
    uint64_t timeout = 0;
    if ((l->nops >= 1 && get_hex32(r, l->tok[1], "mask", &mask)) ||
        (l->nops >= 2 && get_dec(r, l->tok[2], "timeout", &timeout)))
        return -1;
    op_t *o = new_op(r, OP_WAIT_IRQ);
    o->mask = mask;
    o->timeout = timeout;
    return 0;
}

/* idle <cycles> */
static int cmd_idle(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c;
    uint64_t v;
    if (get_dec(r, l->tok[1], "cycle count", &v))
        return -1;
    new_op(r, OP_IDLE)->size = v;
    return 0;
}

/* mem / check_mem <addr> <bytes> */
static int cmd_bytes(reader_t *r, const command_t *c, const line_t *l)
{
    return add_bytes(r, c->kind, l->tok[1], l->tok[2]);
}

/* fill <addr> <size> <byte> */
static int cmd_fill(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c;
    uint64_t addr, size, byte;
    if (get_hex(r, l->tok[1], "address", UINT64_MAX, &addr) || get_hex(r, l->tok[2], "size", UINT64_MAX, &size) ||
        get_hex(r, l->tok[3], "fill byte", 0xFF, &byte))
        return -1;
    op_t *o = new_op(r, OP_MEM_FILL);
    o->addr = addr;
    o->size = size;
    o->data = (uint32_t)byte;
    return 0;
}

/* check_crc <addr> <size> <crc> */
static int cmd_check_crc(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c;
    uint64_t addr, size;
    uint32_t crc;
    if (get_hex(r, l->tok[1], "address", UINT64_MAX, &addr) || get_hex(r, l->tok[2], "size", UINT64_MAX, &size) ||
        get_hex32(r, l->tok[3], "crc", &crc))
        return -1;
    op_t *o = new_op(r, OP_CHECK_CRC);
    o->addr = addr;
    o->size = size;
    o->data = crc;
    return 0;
}

static int cmd_check_golden(reader_t *r, const command_t *c, const line_t *l)
{
    (void)c, (void)l;
    new_op(r, OP_CHECK_GOLDEN);
    return 0;
}

/* The grammar of vectors/README.md: each command, its operand count and what reads it. */
static const command_t commands[] = {
    {"acc",          1, 1,   cmd_acc,          OP_JOB},
    {"name",         1, ANY, cmd_name,         OP_JOB},
    {"seed",         1, 1,   cmd_seed,         OP_JOB},
    {"plusarg",      1, 1,   cmd_plusarg,      OP_JOB},
    {"job",          0, ANY, cmd_text,         OP_JOB},
    {"skip",         0, ANY, cmd_text,         OP_SKIP},
    {"w",            2, 3,   cmd_write,        OP_WRITE},
    {"wn",           2, 3,   cmd_write,        OP_WRITE},
    {"r",            2, 3,   cmd_read,         OP_READ},
    {"poll",         2, 4,   cmd_poll,         OP_POLL},
    {"wait_irq",     0, 2,   cmd_wait_irq,     OP_WAIT_IRQ},
    {"idle",         1, 1,   cmd_idle,         OP_IDLE},
    {"mem",          2, 2,   cmd_bytes,        OP_MEM},
    {"check_mem",    2, 2,   cmd_bytes,        OP_CHECK_MEM},
    {"fill",         3, 3,   cmd_fill,         OP_MEM_FILL},
    {"check_crc",    3, 3,   cmd_check_crc,    OP_CHECK_CRC},
    {"check_golden", 0, 0,   cmd_check_golden, OP_CHECK_GOLDEN},
};

static const command_t *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(name, commands[i].name))
            return &commands[i];
    return NULL;
}

/* One line: the command looked up, its operand count checked (a free-text command needs at least its lower
 * bound), then its handler. */
static int do_line(reader_t *r, const line_t *l)
{
    const command_t *c = find_command(l->tok[0]);
    if (!c)
        return fail(r, l->tok[0], "unknown command");
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
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s)
            *s++ = '\0';
        while (isspace((unsigned char)*s))
            s++;
        if (*nt < MAX_TOKENS)
            tok[(*nt)++] = t;
        total++;
    }
    tok[*nt] = NULL;
    return total;
}

int trace_read(program_t *p, const char *path, char *err, size_t errlen)
{
    reader_t r = { .p = p, .path = NULL, .line = 0, .err = err, .errlen = errlen };
    FILE *f = fopen(path, "r");
    if (!f) {
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot open trace: %s", path, strerror(errno));
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
        if (hash)
            *hash = '\0';
        /* trim trailing space (also \r\n) */
        size_t n = strlen(buf);
        while (n && isspace((unsigned char)buf[n - 1]))
            buf[--n] = '\0';

        /* rest-of-line text after the command, for job/skip/name */
        char *s = buf;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            continue;
        char *rest = s;
        while (*rest && !isspace((unsigned char)*rest))
            rest++;
        while (isspace((unsigned char)*rest))
            rest++;
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
        if (total > MAX_TOKENS && !free_text)
            rc = fail(&r, tok[MAX_TOKENS - 1], "too many operands for '%s'", tok[0]);
        else
            rc = do_line(&r, &(line_t){.tok = tok, .nops = nt - 1, .rest = rest_copy});
        free(rest_copy);
    }
    if (rc == 0 && ferror(f)) {
        if (err && errlen)
            snprintf(err, errlen, "%s: read error", path);
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
    while (*b && isspace((unsigned char)*b))
        b++;
    const char *e = b + strlen(b);
    while (e > b && isspace((unsigned char)e[-1]))
        e--;
    if (e == b) {
        fputs(if_empty, f);
        return;
    }
    for (const char *c = b; c < e; c++)
        fputc((*c == '#' || (iscntrl((unsigned char)*c) && *c != '\t')) ? '_' : *c, f);
}

static bool text_empty(const char *s)
{
    if (!s)
        return true;
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            return false;
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
        if (j > i && !(o->kind == first->kind && o->nbytes && o->addr == addr))
            break;
        for (size_t k = 0; k < o->nbytes; k++) {
            if (col == 0)
                fprintf(f, "%s %" PRIx64 " ", kw, addr);
            fprintf(f, "%02x", o->bytes[k]);
            addr++;
            if (++col == MEM_LINE_BYTES) {
                fputc('\n', f);
                col = 0;
            }
        }
    }
    if (col)
        fputc('\n', f);
    return j - 1;
}

void trace_write(const program_t *p, FILE *f)
{
    fprintf(f, "# accel-cosim native trace (format: vectors/README.md)\n");
    if (p->acc[0])
        fprintf(f, "acc %s\n", p->acc);
    if (!text_empty(p->name)) {
        fputs("name ", f);
        put_text(f, p->name, "");
        fputc('\n', f);
    }
    fprintf(f, "seed %" PRIu64 "\n", p->seed);
    for (size_t i = 0; i < p->nplusargs; i++)
        fprintf(f, "plusarg %s\n", p->plusargs[i]);

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
            if ((o->strb & 0xF) != 0xF)
                fprintf(f, " %x", o->strb & 0xF);
            fputc('\n', f);
            break;
        case OP_READ:
            fprintf(f, "r %" PRIx64 " %08" PRIx32, o->addr, o->data);
            if (o->mask != 0xFFFFFFFFu)
                fprintf(f, " %08" PRIx32, o->mask);
            fputc('\n', f);
            break;
        case OP_POLL:
            fprintf(f, "poll %" PRIx64 " %08" PRIx32, o->addr, o->data);
            if (o->mask != 0xFFFFFFFFu || o->timeout)
                fprintf(f, " %08" PRIx32, o->mask);
            if (o->timeout)
                fprintf(f, " %" PRIu64, o->timeout);
            fputc('\n', f);
            break;
        case OP_WAIT_IRQ:
            fputs("wait_irq", f);
            if (o->mask || o->timeout)
                fprintf(f, " %" PRIx32, o->mask);
            if (o->timeout)
                fprintf(f, " %" PRIu64, o->timeout);
            fputc('\n', f);
            break;
        case OP_IDLE:
            fprintf(f, "idle %" PRIu64 "\n", o->size);
            break;
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
        case OP_CHECK_GOLDEN:
            fputs("check_golden\n", f);
            break;
        }
    }
}
