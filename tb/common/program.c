/* The program IR: a growable array of operations plus the strings it owns (job names, skip reasons,
 * interned source file names). See program.h; the file form is trace_native.c. */
#include "program.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Out of memory is not a recoverable condition for a testbench: say so and stop, never crash. */
static void *xrealloc(void *ptr, size_t n)
{
    void *q = realloc(ptr, n ? n : 1);
    if (!q) {
        fprintf(stderr, "program: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return q;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xrealloc(NULL, n);
    memcpy(d, s, n);
    return d;
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) n = 0;
    char *s = xrealloc(NULL, (size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

void program_init(program_t *p, const char *acc, const char *name, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    if (acc) snprintf(p->acc, sizeof p->acc, "%s", acc);
    p->name = name ? xstrdup(name) : NULL;
    p->seed = seed;
}

void program_free(program_t *p)
{
    if (p->source && p->source->release) p->source->release(p->source);
    for (size_t i = 0; i < p->n; i++) {
        free(p->ops[i].bytes);
        free(p->ops[i].text);
    }
    free(p->ops);
    for (size_t i = 0; i < p->nfiles; i++) free(p->files[i]);
    free(p->files);
    for (size_t i = 0; i < p->nplusargs; i++) free(p->plusargs[i]);
    free(p->plusargs);
    free(p->name);
    memset(p, 0, sizeof *p);
}

op_t *program_add(program_t *p, op_kind_t kind)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->ops = xrealloc(p->ops, p->cap * sizeof *p->ops);
    }
    op_t *o = &p->ops[p->n++];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->strb = 0xF;
    o->mask = 0xFFFFFFFFu;
    return o;
}

/* Few distinct files per program (a trace, a .cfg and its .dat files): a linear search is enough. The
 * returned pointer stays valid until program_free (only the pointer array moves). */
const char *program_intern_file(program_t *p, const char *path)
{
    if (!path) return NULL;
    for (size_t i = 0; i < p->nfiles; i++)
        if (strcmp(p->files[i], path) == 0) return p->files[i];
    p->files = xrealloc(p->files, (p->nfiles + 1) * sizeof *p->files);
    p->files[p->nfiles] = xstrdup(path);
    return p->files[p->nfiles++];
}

void program_add_plusarg(program_t *p, const char *arg)
{
    p->plusargs = xrealloc(p->plusargs, (p->nplusargs + 1) * sizeof *p->plusargs);
    p->plusargs[p->nplusargs++] = xstrdup(arg);
}

static int op_fail(const op_t *o, size_t i, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int op_fail(const op_t *o, size_t i, char *err, size_t errlen, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (o->file) snprintf(err, errlen, "%s:%d: %s", o->file, o->line, msg);
    else if (i == SIZE_MAX) snprintf(err, errlen, "a driver's operation: %s", msg);
    else snprintf(err, errlen, "operation %zu of the program: %s", i + 1, msg);
    return -1;
}

static const char *const op_names[] = {
    [OP_MEM] = "mem",   [OP_MEM_FILL] = "fill", [OP_CHECK_CRC] = "check_crc", [OP_CHECK_MEM] = "check_mem",
    [OP_IDLE] = "idle", [OP_POLL] = "poll",     [OP_WAIT_IRQ] = "wait_irq",
};

int program_check_region(const op_t *o, size_t i, uint64_t *loaded, char *err, size_t errlen)
{
    const char *name =
        (size_t)o->kind < sizeof op_names / sizeof *op_names && op_names[o->kind] ? op_names[o->kind] : "operation";
    if (o->size > PROG_MAX_REGION)
        return op_fail(o, i, err, errlen, "%s of 0x%llx bytes exceeds the limit of 0x%llx bytes per operation", name,
                       (unsigned long long)o->size, PROG_MAX_REGION);
    if (o->size && o->addr + o->size - 1 < o->addr)
        return op_fail(o, i, err, errlen, "%s [0x%llx, +0x%llx) wraps around the address space", name,
                       (unsigned long long)o->addr, (unsigned long long)o->size);
    if (o->kind == OP_CHECK_CRC && o->size == 0)
        return op_fail(o, i, err, errlen, "check_crc over 0 bytes checks nothing");
    if (o->kind == OP_MEM || (o->kind == OP_MEM_FILL && (o->data & 0xFF))) *loaded += o->size;
    if (*loaded > PROG_MAX_LOADED)
        return op_fail(o, i, err, errlen,
                       "%s of 0x%llx bytes at 0x%llx: the program loads more than 0x%llx bytes of data (host memory)",
                       name, (unsigned long long)o->size, (unsigned long long)o->addr, PROG_MAX_LOADED);
    return 0;
}

int program_check_limits(const program_t *p, char *err, size_t errlen)
{
    uint64_t loaded = 0;
    for (size_t i = 0; i < p->n; i++) {
        const op_t *o = &p->ops[i];
        switch (o->kind) {
        case OP_MEM:
        case OP_MEM_FILL:
        case OP_CHECK_CRC:
        case OP_CHECK_MEM:
            if (program_check_region(o, i, &loaded, err, errlen)) return -1;
            break;
        case OP_IDLE:
            if (o->size > PROG_MAX_CYCLES)
                return op_fail(o, i, err, errlen, "idle of %llu cycles exceeds the limit of %llu",
                               (unsigned long long)o->size, PROG_MAX_CYCLES);
            break;
        case OP_POLL:
        case OP_WAIT_IRQ:
            if (o->timeout > PROG_MAX_CYCLES)
                return op_fail(o, i, err, errlen, "%s timeout of %llu cycles exceeds the limit of %llu",
                               op_names[o->kind], (unsigned long long)o->timeout, PROG_MAX_CYCLES);
            break;
        default: break;
        }
    }
    return 0;
}

void prog_job(program_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    program_add(p, OP_JOB)->text = s;
}

void prog_write(program_t *p, uint64_t addr, uint32_t data)
{
    op_t *o = program_add(p, OP_WRITE);
    o->addr = addr;
    o->data = data;
}

void prog_write_np(program_t *p, uint64_t addr, uint32_t data)
{
    op_t *o = program_add(p, OP_WRITE);
    o->addr = addr;
    o->data = data;
    o->nposted = true;
}

void prog_read(program_t *p, uint64_t addr, uint32_t expect, uint32_t mask)
{
    op_t *o = program_add(p, OP_READ);
    o->addr = addr;
    o->data = expect;
    o->mask = mask;
}

void prog_poll(program_t *p, uint64_t addr, uint32_t value, uint32_t mask, uint64_t timeout)
{
    op_t *o = program_add(p, OP_POLL);
    o->addr = addr;
    o->data = value;
    o->mask = mask;
    o->timeout = timeout;
}

void prog_wait_irq(program_t *p, uint32_t mask, uint64_t timeout)
{
    op_t *o = program_add(p, OP_WAIT_IRQ);
    o->mask = mask;
    o->timeout = timeout;
}

void prog_idle(program_t *p, uint64_t cycles) { program_add(p, OP_IDLE)->size = cycles; }

/* An operation of kind `kind` carrying a copy of bytes[0..n) at addr. */
static op_t *add_bytes(program_t *p, op_kind_t kind, uint64_t addr, const void *bytes, size_t n)
{
    /* Copy before program_add: `bytes` may point into this program (an earlier op's buffer stays put,
     * but be safe against any aliasing). */
    uint8_t *copy = xrealloc(NULL, n);
    if (n) memcpy(copy, bytes, n);
    op_t *o = program_add(p, kind);
    o->addr = addr;
    o->bytes = copy;
    o->nbytes = n;
    o->size = n;
    return o;
}

void prog_mem(program_t *p, uint64_t addr, const void *bytes, size_t n) { add_bytes(p, OP_MEM, addr, bytes, n); }

void prog_check_mem(program_t *p, uint64_t addr, const void *bytes, size_t n, const char *where)
{
    op_t *o = add_bytes(p, OP_CHECK_MEM, addr, bytes, n);
    if (where) o->text = xstrdup(where);
}

void prog_mem_fill(program_t *p, uint64_t addr, uint64_t size, uint8_t v)
{
    op_t *o = program_add(p, OP_MEM_FILL);
    o->addr = addr;
    o->size = size;
    o->data = v;
}

void prog_check_crc(program_t *p, uint64_t addr, uint64_t size, uint32_t crc)
{
    op_t *o = program_add(p, OP_CHECK_CRC);
    o->addr = addr;
    o->size = size;
    o->data = crc;
}

void prog_check_golden(program_t *p) { program_add(p, OP_CHECK_GOLDEN); }

void prog_skip(program_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    program_add(p, OP_SKIP)->text = s;
}
