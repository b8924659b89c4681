/* ai8xize program reader (`+cfg=<folder>`, `make run ACC=max78000 SDK=<folder>`): runs the folder's main()
 * as the MCU would, turning every CNN bus access it makes into a program operation with the file:line it
 * came from. What it understands is exactly the C that ai8xize writes (docs/max78000.md "Reading ai8xize
 * output"); any other statement stops the reader naming file:line.
 *   - register and memory writes `*((volatile uint32_t *) 0xA) = 0xV;`, the ISR's `&=`/`|=` (computed from
 *     the values the program wrote: the only bit the hardware sets, cnn_irq, must be among those cleared);
 *   - memcpy32 / memcpy_8to32 of sampledata/bias arrays, the kernel stream of cnn_load_weights (set-address
 *     byte write, then the words), FIFO writes `= *inK++` with their FIFO_STAT polls, `for` loops;
 *   - the interrupt wait (wait_irq, then CNN_ISR), cnn_unload's reads (checked against the golden model by
 *     the APB monitor), check_output: one checked read per known-answer word, located in sampleoutput.h;
 *   - host-only statements (clocks, GPIO, printf, the host-side unpacking of cnn_unload) are listed and
 *     ignored because they never reach the CNN's APB.
 * The helper functions whose loops carry the data (memcpy32, memcpy_8to32, cnn_load_weights,
 * check_output) are recognised by their whole body, so a program that changed one is refused too. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* strdup */
#endif
#include "ai8x_import.h"
#include "ai8x_src.h"
#include "max78000_decode.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_VARS 64
#define MAX_SHADOW 4096
#define CTRL_IRQ_BIT (1u << 12) /* spec D44: the only CTRL bit the hardware sets */

typedef struct var {
    char name[48];
    const ai8x_array_t *arr; /* pointer into an array (arr != NULL) */
    size_t idx;
    uint32_t addr; /* or a bus address */
} var_t;

typedef struct ix {
    ai8x_src_t src;
    program_t *p;
    char *err;
    size_t errlen;
    var_t vars[MAX_VARS]; /* arrays' aliases and pointer variables */
    size_t nvars;
    uint32_t sh_addr[MAX_SHADOW], sh_val[MAX_SHADOW]; /* last value written per register address */
    size_t nsh;
    int depth;
    size_t nchecked; /* known-answer words */
    size_t nmasked;  /* of which with a nonzero mask: those compare something */
    bool riscv;      /* a --riscv program: main_riscv.c drives the CNN */
} ix_t;

static int ix_fail(ix_t *x, const ai8x_stmt_t *s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int ix_fail(ix_t *x, const ai8x_stmt_t *s, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (s) snprintf(x->err, x->errlen, "%s:%d: %s", s->file, s->line, msg);
    else snprintf(x->err, x->errlen, "%s", msg);
    return -1;
}

static void locate(ix_t *x, op_t *o, const char *file, int line)
{
    o->file = program_intern_file(x->p, file);
    o->line = line;
}

static void shadow_set(ix_t *x, uint32_t addr, uint32_t v)
{
    for (size_t i = 0; i < x->nsh; i++)
        if (x->sh_addr[i] == addr) {
            x->sh_val[i] = v;
            return;
        }
    if (x->nsh < MAX_SHADOW) {
        x->sh_addr[x->nsh] = addr;
        x->sh_val[x->nsh++] = v;
    }
}

static bool shadow_get(const ix_t *x, uint32_t addr, uint32_t *v)
{
    for (size_t i = 0; i < x->nsh; i++)
        if (x->sh_addr[i] == addr) {
            *v = x->sh_val[i];
            return true;
        }
    return false;
}

static void emit_write(ix_t *x, const ai8x_stmt_t *s, uint32_t addr, uint32_t data, uint8_t strb, const char *file,
                       int line)
{
    op_t *o = program_add(x->p, OP_WRITE);
    o->addr = addr;
    o->data = data;
    o->strb = strb;
    locate(x, o, file ? file : s->file, file ? line : s->line);
    if (strb == 0xF && !(addr & 3)) shadow_set(x, addr, data);
}

static void emit_read(ix_t *x, uint32_t addr, uint32_t expect, uint32_t mask, const char *file, int line)
{
    op_t *o = program_add(x->p, OP_READ);
    o->addr = addr;
    o->data = expect;
    o->mask = mask;
    locate(x, o, file, line);
}

static var_t *var_find(ix_t *x, const char *name)
{
    for (size_t i = x->nvars; i-- > 0;)
        if (!strcmp(x->vars[i].name, name)) return &x->vars[i];
    return NULL;
}

static var_t *var_set(ix_t *x, const char *name)
{
    var_t *v = var_find(x, name);
    if (!v && x->nvars < MAX_VARS) {
        v = &x->vars[x->nvars++];
        snprintf(v->name, sizeof v->name, "%s", name);
    }
    if (v) {
        v->arr = NULL;
        v->idx = 0;
        v->addr = 0;
    }
    return v;
}

/* ---- constant expressions: numbers, ( ), ~, <<, >>, &, |, +, * ---------------------------------------- */
typedef struct ex {
    const char *p;
    bool bad;
} ex_t;
static uint64_t ex_or(ex_t *e);
static void ex_ws(ex_t *e)
{
    while (isspace((unsigned char)*e->p)) e->p++;
}
static uint64_t ex_unary(ex_t *e)
{
    ex_ws(e);
    if (*e->p == '~') {
        e->p++;
        return ~ex_unary(e) & 0xFFFFFFFFu;
    }
    if (*e->p == '(') {
        e->p++;
        uint64_t v = ex_or(e);
        ex_ws(e);
        if (*e->p != ')') e->bad = true;
        else e->p++;
        return v;
    }
    if (!isdigit((unsigned char)*e->p)) {
        e->bad = true;
        return 0;
    }
    char *end;
    uint64_t v = strtoull(e->p, &end, 0);
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L') end++;
    e->p = end;
    return v;
}
static uint64_t ex_mul(ex_t *e)
{
    uint64_t v = ex_unary(e);
    for (ex_ws(e); *e->p == '*'; ex_ws(e)) {
        e->p++;
        v *= ex_unary(e);
    }
    return v;
}
static uint64_t ex_add(ex_t *e)
{
    uint64_t v = ex_mul(e);
    for (ex_ws(e); *e->p == '+'; ex_ws(e)) {
        e->p++;
        v += ex_mul(e);
    }
    return v;
}
static uint64_t ex_shift(ex_t *e)
{
    uint64_t v = ex_add(e);
    for (ex_ws(e); (e->p[0] == '<' || e->p[0] == '>') && e->p[1] == e->p[0]; ex_ws(e)) {
        bool left = e->p[0] == '<';
        e->p += 2;
        uint64_t s = ex_add(e);
        if (s > 31) e->bad = true;
        else v = left ? v << s : v >> s;
    }
    return v;
}
static uint64_t ex_and(ex_t *e)
{
    uint64_t v = ex_shift(e);
    for (ex_ws(e); *e->p == '&' && e->p[1] != '&'; ex_ws(e)) {
        e->p++;
        v &= ex_shift(e);
    }
    return v;
}
static uint64_t ex_or(ex_t *e)
{
    uint64_t v = ex_and(e);
    for (ex_ws(e); *e->p == '|' && e->p[1] != '|'; ex_ws(e)) {
        e->p++;
        v |= ex_and(e);
    }
    return v;
}
/* A constant expression filling all of [s, s+n) (n = strlen if 0). */
static bool const_expr(const char *s, size_t n, uint32_t *out)
{
    char buf[256];
    if (!n) n = strlen(s);
    if (n >= sizeof buf) return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    ex_t e = {buf, false};
    uint64_t v = ex_or(&e);
    ex_ws(&e);
    if (e.bad || *e.p || v > 0xFFFFFFFFu) return false;
    *out = (uint32_t)v;
    return true;
}

/* ---- statements ------------------------------------------------------------------------------------ */
static const ai8x_stmt_t *find_function(const ix_t *x, const char *name)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i < x->src.top.nkids; i++) {
        const ai8x_stmt_t *s = &x->src.top.kids[i];
        if (!s->has_block) continue;
        /* the name's '(' is the first one after any attribute: `void __attribute__((...)) name(void)` */
        const char *par = strchr(s->text, '(');
        if (par && !strncmp(s->text, "void __attribute__((", 20)) {
            const char *close = strstr(s->text, ")) ");
            par = close ? strchr(close + 3, '(') : NULL;
        }
        if (!par || par - s->text < (ptrdiff_t)nl) continue;
        const char *nm = par - nl;
        if (!strncmp(nm, name, nl) && (nm == s->text || nm[-1] == ' ' || nm[-1] == '*')) return s;
    }
    return NULL;
}

/* The body as one line: each statement followed by "; ", blocks as "{ ... } ". */
static void canon(const ai8x_stmt_t *s, char *buf, size_t n, size_t *o)
{
    for (size_t i = 0; i < s->nkids && *o < n; i++) {
        const ai8x_stmt_t *k = &s->kids[i];
        *o += (size_t)snprintf(buf + *o, n - *o, "%s%s", k->text, k->has_block ? " { " : "; ");
        if (*o >= n) return;
        if (k->has_block) {
            canon(k, buf, n, o);
            if (*o < n) *o += (size_t)snprintf(buf + *o, n - *o, "} ");
        }
    }
}

/* Bodies of the helpers whose semantics the reader implements itself (as ai8xize writes them). */
static const struct {
    const char *name, *body;
} builtins[] = {
    {"memcpy32", "while (n-- > 0) { *dst++ = *src++; } "},
    {"memcpy_8to32", "while (n-- > 0) { *dst++ = *src++; } "},
    {"cnn_load_weights",
     "uint32_t len; volatile uint32_t *addr; const uint32_t *ptr = kernels; "
     "while ((addr = (volatile uint32_t *) *ptr++) != 0) { *((volatile uint8_t *) ((uint32_t) addr | 1)) = 0x01; "
     "len = *ptr++; while (len-- > 0) *addr++ = *ptr++; } return CNN_OK; "},
    {"check_output",
     "int i; uint32_t mask, len; volatile uint32_t *addr; const uint32_t *ptr = sample_output; "
     "while ((addr = (volatile uint32_t *) *ptr++) != 0) { mask = *ptr++; len = *ptr++; for (i = 0; i < len; i++) "
     "if ((*addr++ & mask) != *ptr++) { printf(\"Data mismatch (%d/%d) at address 0x%08x: Expected 0x%08x, read "
     "0x%08x.\\n\", i + 1, len, addr - 1, *(ptr - 1), *(addr - 1) & mask); return CNN_FAIL; } } return CNN_OK; "},
};

static int check_builtin(ix_t *x, const ai8x_stmt_t *fn, const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++) {
        if (strcmp(builtins[i].name, name) != 0) continue;
        char buf[2048];
        size_t o = 0;
        canon(fn, buf, sizeof buf, &o);
        if (o >= sizeof buf || strcmp(buf, builtins[i].body) != 0)
            return ix_fail(x, fn,
                           "function %s is not the one ai8xize writes (its body differs; the reader implements "
                           "that helper itself and cannot follow a changed one)",
                           name);
        return 1;
    }
    return 0;
}

/* Statements that never reach the CNN's APB: the MCU's clocks, power, GPIO, timers, console, the host-side
 * variables and unpacking (cnn_unload's out_buf), local declarations without initialiser. */
static bool host_only(const char *t)
{
    static const char *const prefix[] = {
        "MXC_",
        "printf(",
        "SystemCoreClockUpdate(",
        "CNN_START",
        "CNN_COMPLETE",
        "cnn_time = ",
        "gpio_out.",
        /* the RISC-V core's interrupt controller (--riscv programs) */
        "NVIC_ClearPendingIRQ(CNN_IRQn)",
        "NVIC_ClearPendingEVENT(CNN_IRQn)",
        "NVIC_EnableIRQ(CNN_IRQn)",
        "NVIC_EnableEVENT(CNN_IRQn)",
        "__enable_irq()",
        "out_buf[",
        "*out_buf++ = val",
        "*out_buf++ = (val",
        "offs = ",
        "offs += ",
        "offs++",
        "uint8_t *out_buf = (uint8_t *) out_buf32",
        "uint8_t *out_buf = (uint8_t *) out_buf",
    };
    static const char *const decl[] = {
        "int i",        "uint32_t offs",           "uint32_t val", "volatile uint32_t *addr", "uint32_t mask, len",
        "uint32_t len", "mxc_gpio_cfg_t gpio_out",
    };
    for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++)
        if (!strncmp(t, prefix[i], strlen(prefix[i]))) return true;
    for (size_t i = 0; i < sizeof decl / sizeof *decl; i++)
        if (!strcmp(t, decl[i])) return true;
    return false;
}

static int exec_block(ix_t *x, const ai8x_stmt_t *blk, bool *ret);
static int call(ix_t *x, const ai8x_stmt_t *s, const char *name, const char *args);

/* Address of `*((volatile uint32_t *) 0xA)` at t; *rest points after it. */
static bool mmio(const char *t, uint32_t *addr, const char **rest)
{
    static const char pre[] = "*((volatile uint32_t *) ";
    if (strncmp(t, pre, sizeof pre - 1) != 0) return false;
    const char *p = t + sizeof pre - 1;
    char *end;
    unsigned long long a = strtoull(p, &end, 0);
    if (end == p || a > 0xFFFFFFFFull || end[0] != ')') return false;
    *addr = (uint32_t)a;
    *rest = end + 1;
    return true;
}

static int array_word(ix_t *x, const ai8x_stmt_t *s, var_t *v, uint32_t *w, const char **file, int *line)
{
    if (!v->arr) return ix_fail(x, s, "'%s' does not point into an array", v->name);
    if (v->idx >= v->arr->n)
        return ix_fail(x, s, "'%s' reads past the end of array %s (%zu elements)", v->name, v->arr->name, v->arr->n);
    *w = v->arr->v[v->idx];
    *file = v->arr->file;
    *line = v->arr->line[v->idx];
    v->idx++;
    return 0;
}

static int exec_mmio(ix_t *x, const ai8x_stmt_t *s, uint32_t addr, const char *rest)
{
    char op[4] = "", name[48];
    int n = 0;
    if (sscanf(rest, " %3[=&|]%n", op, &n) != 1) return ix_fail(x, s, "unsupported statement '%.80s'", s->text);
    const char *rhs = rest + n;
    while (*rhs == ' ') rhs++;
    if (!strcmp(op, "=")) {
        uint32_t v;
        if (const_expr(rhs, 0, &v)) {
            emit_write(x, s, addr, v, 0xF, NULL, 0);
            return 0;
        }
        int m = 0;
        if (sscanf(rhs, "*%47[A-Za-z0-9_]++%n", name, &m) == 1 && !rhs[m]) {
            var_t *var = var_find(x, name);
            if (!var) return ix_fail(x, s, "unknown pointer '%s'", name);
            const char *file = NULL;
            int line = 0;
            if (array_word(x, s, var, &v, &file, &line)) return -1;
            emit_write(x, s, addr, v, 0xF, file, line);
            return 0;
        }
        return ix_fail(x, s, "unsupported right-hand side '%.60s'", rhs);
    }
    if (strcmp(op, "&=") != 0 && strcmp(op, "|=") != 0)
        return ix_fail(x, s, "unsupported assignment operator '%s'", op);
    uint32_t v, old;
    if (!const_expr(rhs, 0, &v)) return ix_fail(x, s, "unsupported operand '%.60s' (not a constant expression)", rhs);
    if (!shadow_get(x, addr, &old))
        return ix_fail(x, s, "read-modify-write of 0x%08x, which the program never wrote: its value is unknown here",
                       addr);
    /* Quadrant CTRL: hardware sets cnn_irq (D44); a result that keeps that bit would depend on it. */
    bool ctrl = addr >= 0x50100000u && addr < 0x51100000u && ((addr - 0x50100000u) & 0x3FFFFFu) == 0;
    uint32_t res = op[0] == '&' ? old & v : old | v;
    if (ctrl && op[0] == '&' && (v & CTRL_IRQ_BIT))
        return ix_fail(x, s, "'&=' on CTRL 0x%08x keeps cnn_irq, which the hardware sets: the result is not known here",
                       addr);
    if (ctrl && op[0] == '|' && !(v & CTRL_IRQ_BIT))
        return ix_fail(x, s, "'|=' on CTRL 0x%08x keeps cnn_irq, which the hardware sets: the result is not known here",
                       addr);
    /* The read: what the program wrote, except the bits the hardware may set. */
    emit_read(x, addr, old, ctrl ? ~CTRL_IRQ_BIT : 0xFFFFFFFFu, s->file, s->line);
    x->p->ops[x->p->n - 1].readback = true; /* the program's own value: not the known answer */
    emit_write(x, s, addr, res, 0xF, NULL, 0);
    return 0;
}

/* cnn_unload's reads through `addr`: checked against the golden model by the APB monitor. */
static int exec_addr_var(ix_t *x, const ai8x_stmt_t *s, bool *handled)
{
    const char *t = s->text;
    var_t *a = var_find(x, "addr");
    unsigned long long v;
    int n = 0;
    *handled = true;
    if (sscanf(t, "addr = (volatile uint32_t *) %lli%n", &v, &n) == 1 && !t[n]) {
        if (!(a = var_set(x, "addr"))) return ix_fail(x, s, "too many variables");
        a->addr = (uint32_t)v;
        return 0;
    }
    if (!strcmp(t, "val = *addr++") || !strcmp(t, "*out_buf++ = *addr++") || !strcmp(t, "val = *addr")) {
        if (!a || a->arr) return ix_fail(x, s, "'addr' is not set to a bus address");
        emit_read(x, a->addr, 0, 0, s->file, s->line);
        if (strcmp(t, "val = *addr") != 0) a->addr += 4;
        return 0;
    }
    if ((sscanf(t, "addr += %lli%n", &v, &n) == 1 || sscanf(t, "addr -= %lli%n", &v, &n) == 1) && !t[n]) {
        if (!a || a->arr) return ix_fail(x, s, "'addr' is not set to a bus address");
        a->addr = t[5] == '+' ? a->addr + 4u * (uint32_t)v : a->addr - 4u * (uint32_t)v;
        return 0;
    }
    *handled = false;
    return 0;
}

static int exec_stmt(ix_t *x, const ai8x_stmt_t *s, bool *ret)
{
    const char *t = s->text, *rest;
    uint32_t addr;
    char name[64], arr[64];
    int n = 0;
    if (!strncmp(t, "return", 6) && (!t[6] || t[6] == ' ')) {
        *ret = true;
        return 0;
    }
    if (s->has_block) {
        long a, b;
        char iv[2], iv2[2], iv3[2];
        if (sscanf(t, "for (%1[a-z] = %li; %1[a-z] < %li; %1[a-z]++)%n", iv, &a, iv2, &b, iv3, &n) == 5 && !t[n]) {
            for (long i = a; i < b; i++) {
                if (exec_block(x, s, ret)) return -1;
                if (*ret) return 0;
            }
            return 0;
        }
        return ix_fail(x, s, "unsupported block '%.80s'", t);
    }
    if (mmio(t, &addr, &rest)) return exec_mmio(x, s, addr, rest);
    {
        uint32_t a2, mask, val;
        int m = 0;
        if (sscanf(t, "while (((*((volatile uint32_t *) %i) & %i)) != %i)%n", &a2, &mask, &val, &m) == 3 && !t[m]) {
            /* busy-wait while (reg & mask) != val: a poll until it is equal */
            op_t *o = program_add(x->p, OP_POLL);
            o->addr = a2;
            o->data = val;
            o->mask = mask;
            locate(x, o, s->file, s->line);
            return 0;
        }
    }
    if (sscanf(t, "const uint32_t *%63[A-Za-z0-9_] = %63[A-Za-z0-9_]%n", name, arr, &n) == 2 && !t[n]) {
        var_t *src = var_find(x, arr);
        if (!src || !src->arr) return ix_fail(x, s, "'%s' is not an array", arr);
        const ai8x_array_t *sa = src->arr;
        size_t si = src->idx;
        var_t *v = var_set(x, name);
        if (!v) return ix_fail(x, s, "too many variables");
        v->arr = sa;
        v->idx = si;
        return 0;
    }
    bool handled;
    if (exec_addr_var(x, s, &handled)) return -1;
    if (handled) return 0;
    if (!strcmp(t, "while (cnn_time == 0) MXC_LP_EnterSleepMode()") ||
        !strcmp(t, "while (cnn_time == 0) asm volatile(\"wfi\")")) {
        /* sleep until the CNN interrupt; the handler (registered by cnn_enable) then runs: CNN_ISR on the
         * Arm core, CNN_IRQHandler on the RISC-V core (--riscv) */
        op_t *o = program_add(x->p, OP_WAIT_IRQ);
        o->mask = 0; /* the irq line */
        locate(x, o, s->file, s->line);
        return call(x, s, x->riscv ? "CNN_IRQHandler" : "CNN_ISR", "");
    }
    if (!strcmp(t, "if (check_output() != CNN_OK) fail()")) return call(x, s, "check_output", "");
    if (host_only(t)) return 0;
    /* a call `name(args)` of a function of the program */
    if (sscanf(t, "%63[A-Za-z0-9_](%n", name, &n) == 1 && n > 0 && t[strlen(t) - 1] == ')') {
        char args[256];
        size_t al = strlen(t) - (size_t)n - 1;
        if (al >= sizeof args) return ix_fail(x, s, "call arguments too long");
        memcpy(args, t + n, al);
        args[al] = 0;
        return call(x, s, name, args);
    }
    return ix_fail(x, s, "unsupported statement '%.80s'", t);
}

static int exec_block(ix_t *x, const ai8x_stmt_t *blk, bool *ret)
{
    for (size_t i = 0; i < blk->nkids && !*ret; i++)
        if (exec_stmt(x, &blk->kids[i], ret)) return -1;
    return 0;
}

static int builtin_memcpy(ix_t *x, const ai8x_stmt_t *s, const char *args, bool bytes)
{
    unsigned long long dst;
    char src[64], cnt[64];
    int n = 0;
    if (sscanf(args, "(uint32_t *) %lli, %63[A-Za-z0-9_], %63[^\n]%n", &dst, src, cnt, &n) != 3 || args[n])
        return ix_fail(x, s, "unsupported arguments of %s: '%.80s'", bytes ? "memcpy_8to32" : "memcpy32", args);
    uint32_t count;
    const char *c = cnt;
    static const char sz[] = "sizeof(uint8_t) * ";
    if (!strncmp(c, sz, sizeof sz - 1)) c += sizeof sz - 1;
    if (!const_expr(c, 0, &count)) return ix_fail(x, s, "unsupported element count '%s'", cnt);
    var_t *v = var_find(x, src);
    if (!v || !v->arr) return ix_fail(x, s, "'%s' is not an array", src);
    if (v->idx + count > v->arr->n)
        return ix_fail(x, s, "copies %u elements of %s, which has %zu", count, src, v->arr->n - v->idx);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t w = v->arr->v[v->idx + i];
        if (bytes && w > 0xFF) return ix_fail(x, s, "%s[%u] = 0x%x is not a byte", src, i, w);
        emit_write(x, s, (uint32_t)dst + 4 * i, w, 0xF, v->arr->file, v->arr->line[v->idx + i]);
    }
    return 0;
}

static int builtin_weights(ix_t *x, const ai8x_stmt_t *s)
{
    var_t *k = var_find(x, "kernels");
    if (!k || !k->arr) return ix_fail(x, s, "cnn_load_weights: 'kernels' is not an array");
    const ai8x_array_t *a = k->arr;
    size_t i = 0;
    for (;;) {
        if (i >= a->n) return ix_fail(x, s, "kernel stream %s ends without its 0 terminator", a->name);
        uint32_t addr = a->v[i], line = (uint32_t)a->line[i];
        i++;
        if (!addr) return 0;
        if (i >= a->n) return ix_fail(x, s, "kernel stream %s: no length after address 0x%08x", a->name, addr);
        uint32_t len = a->v[i++];
        if (i + len > a->n)
            return ix_fail(x, s, "kernel stream %s: record at 0x%08x claims %u words, %zu left", a->name, addr, len,
                           a->n - i);
        /* `*((volatile uint8_t *) (addr | 1)) = 0x01`: a byte write, data in its own lane (D02) */
        emit_write(x, s, addr | 1, 0x01u << 8, 0x2, a->file, (int)line);
        for (uint32_t j = 0; j < len; j++, i++) emit_write(x, s, addr + 4 * j, a->v[i], 0xF, a->file, a->line[i]);
    }
}

/* A damaged record of a word stream: the message names the array's own file:line of the record at fault and
 * the record before it (a record one word too long makes its last word read as the next record's address),
 * then the statement that read the stream. */
static int arr_fail(ix_t *x, const ai8x_stmt_t *s, const ai8x_array_t *a, size_t at, size_t prev, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int arr_fail(ix_t *x, const ai8x_stmt_t *s, const ai8x_array_t *a, size_t at, size_t prev, const char *fmt, ...)
{
    char msg[320], before[160] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (prev != SIZE_MAX)
        snprintf(before, sizeof before, "; the record before it starts at word %zu (line %d, address 0x%08x)", prev,
                 a->line[prev], a->v[prev]);
    const size_t w = at < a->n ? at : a->n - 1;
    snprintf(x->err, x->errlen, "%s:%d: %s, word %zu: %s%s (read by %s:%d)", a->file, a->n ? a->line[w] : 0, a->name, w,
             msg, before, s->file, s->line);
    return -1;
}

static bool mapped(uint32_t addr) { return max78000_decode(addr).kind != DEC_INVALID; }

static int builtin_check(ix_t *x, const ai8x_stmt_t *s)
{
    var_t *k = var_find(x, "sample_output");
    if (!k || !k->arr) return ix_fail(x, s, "check_output: 'sample_output' is not an array");
    const ai8x_array_t *a = k->arr;
    size_t i = 0, prev = SIZE_MAX;
    for (;;) {
        if (i >= a->n) return ix_fail(x, s, "known answer %s ends without its 0 terminator", a->name);
        const size_t start = i;
        uint32_t addr = a->v[i++];
        if (!addr) break;
        if (i + 2 > a->n)
            return arr_fail(x, s, a, start, prev, "known-answer record at 0x%08x is cut short (no mask, no length)",
                            addr);
        uint32_t mask = a->v[i++], len = a->v[i++];
        if (i + len > a->n)
            return arr_fail(x, s, a, start, prev, "known-answer record at 0x%08x claims %u words, %zu left", addr, len,
                            a->n - i);
        if (!mapped(addr) || (len && !mapped(addr + 4 * (len - 1))))
            return arr_fail(x, s, a, start, prev,
                            "known-answer record at 0x%08x (%u words) reads outside the CNN's address map", addr, len);
        for (uint32_t j = 0; j < len; j++, i++) {
            emit_read(x, addr + 4 * j, a->v[i], mask, a->file, a->line[i]);
            x->nchecked++;
            x->nmasked += mask != 0;
        }
        prev = start;
    }
    if (!x->nchecked) return ix_fail(x, s, "known answer %s holds no words: nothing would be checked", a->name);
    /* Not an error: on the RTL the golden model's comparison still checks the run; golden-only it fails as
     * "nothing was checked" (sim.c). Said here, as it is what the known answer covers. */
    if (x->nmasked < x->nchecked)
        printf("known answer %s (%s): %zu of its %zu words have a nonzero mask and are compared\n", a->name, a->file,
               x->nmasked, x->nchecked);
    return 0;
}

static int call(ix_t *x, const ai8x_stmt_t *s, const char *name, const char *args)
{
    const ai8x_stmt_t *fn = find_function(x, name);
    if (!fn) return ix_fail(x, s, "call of '%s', which the program does not define and the reader does not know", name);
    if (++x->depth > 16) return ix_fail(x, s, "calls nested too deeply");
    int b = check_builtin(x, fn, name), rc;
    if (b < 0) rc = -1;
    else if (b && !strcmp(name, "memcpy32")) rc = builtin_memcpy(x, s, args, false);
    else if (b && !strcmp(name, "memcpy_8to32")) rc = builtin_memcpy(x, s, args, true);
    else if (b && !strcmp(name, "cnn_load_weights")) rc = builtin_weights(x, s);
    else if (b) rc = builtin_check(x, s);
    else {
        bool ret = false;
        size_t nv = x->nvars;
        rc = exec_block(x, fn, &ret);
        x->nvars = nv; /* locals go out of scope */
    }
    x->depth--;
    return rc;
}

/* Top level: array aliases `static const uint32_t name[] = MACRO;`, host variables, function definitions. */
static int exec_top(ix_t *x)
{
    for (size_t i = 0; i < x->src.top.nkids; i++) {
        const ai8x_stmt_t *s = &x->src.top.kids[i];
        char ty[16], name[64], mac[64];
        int n = 0;
        if (s->has_block) continue;
        /* --riscv programs place the input arrays in the RISC-V core's flash: a linker matter */
        static const char rvflash[] = "__attribute__ ((section(\".rvflash_section\"))) ";
        const char *t = s->text;
        if (x->riscv && !strncmp(t, rvflash, sizeof rvflash - 1)) t += sizeof rvflash - 1;
        if (sscanf(t, "static const %15s %63[A-Za-z0-9_][] = %63[A-Za-z0-9_]%n", ty, name, mac, &n) == 3 && !t[n] &&
            (!strcmp(ty, "uint32_t") || !strcmp(ty, "uint8_t"))) {
            const ai8x_array_t *a = ai8x_src_array(&x->src, mac);
            if (!a) return ix_fail(x, s, "array %s is not defined in the folder's headers", mac);
            var_t *v = var_set(x, name);
            if (!v) return ix_fail(x, s, "too many arrays");
            v->arr = a;
            continue;
        }
        if (!strcmp(s->text, "volatile uint32_t cnn_time") || !strncmp(s->text, "static int32_t ml_data", 22))
            continue; /* host variables */
        return ix_fail(x, s, "unsupported top-level statement '%.80s'", s->text);
    }
    return 0;
}

/* A folder ai8xize did not complete holds no cnn.c/main.c: its log says why. */
static bool generator_error(const char *dir, char *why, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/log.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[512];
    bool found = false;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "ERROR:", 6)) {
            line[strcspn(line, "\n")] = 0;
            snprintf(why, n, "%.300s", line);
            found = true;
            break;
        }
    fclose(f);
    return found;
}

/* Generated programs whose known answer the hardware as specified cannot produce, with the evidence
 * (docs/max78000.md);
 * they are reported skipped with it. tests/unit/test_max78000_ai8x.c replays them anyway and requires the
 * stated failure, so an entry that stops being true is noticed. */
const ai8x_defect_t ai8x_defects[] = {
    {"fifostream-group-notvga64x48-hwc",
     "ai8xize enables FIFOs 0-2 (FIFO_CTRL 0x7908, IFRM 0xc00 in quadrants 0-2) for HWC channels on processors "
     "0, 16, 32 but loads only FIFO 0 with channel 0 (izer/load.py packs an HWC word from one quadrant's "
     "processors 4c..4c+3): FIFOs 1 and 2 never deliver, the run never ends, channels 1-2 of the known answer "
     "never reach the CNN"},
    {NULL, NULL},
};

int ai8x_import(const char *dir, program_t *p, char *err, size_t errlen)
{
    return ai8x_import_ex(dir, p, true, err, errlen);
}

/* A program folder may hold only the files in which it differs from another ai8xize folder, naming that folder in
 * base.txt (one path, relative to the program folder; '#' lines are comments): the repository's programs take
 * the files they share with ../shared's from there instead of holding copies. base is "" without base.txt. */
static int read_base(const char *dir, int dl, char *base, size_t n, char *err, size_t errlen)
{
    char path[1024], line[1024];
    base[0] = 0;
    snprintf(path, sizeof path, "%.*s/base.txt", dl, dir);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int ln = 0, at = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#') continue;
        if (base[0]) {
            fclose(f);
            snprintf(err, errlen, "%s:%d: a second folder (base.txt names one)", path, ln);
            return -1;
        }
        if (snprintf(base, n, "%.*s/%s", dl, dir, line) >= (int)n) {
            fclose(f);
            snprintf(err, errlen, "%s:%d: path too long", path, ln);
            return -1;
        }
        at = ln;
    }
    fclose(f);
    struct stat st;
    if (!base[0]) {
        snprintf(err, errlen, "%s:%d: names no folder", path, ln);
        return -1;
    }
    if (stat(base, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s:%d: base folder %s does not exist", path, at, base);
        return -1;
    }
    return 0;
}

/* dir/name, or base/name when dir has no such file and a base folder is named. */
static void program_file(char *path, size_t n, const char *dir, int dl, const char *base, const char *name)
{
    snprintf(path, n, "%.*s/%s", dl, dir, name);
    if (base[0] && access(path, F_OK) != 0) snprintf(path, n, "%s/%s", base, name);
}

int ai8x_import_ex(const char *dir, program_t *p, bool skip_defects, char *err, size_t errlen)
{
    /* A --riscv program (main_riscv.c beside main.c) runs the CNN from the RISC-V core: main.c is then the Arm
     * core's boot stub (it sets the RISC-V boot address and sleeps; it never reaches the CNN) and is not read. */
    const char *files[] = {"weights.h", "sampledata.h", "sampleoutput.h", "cnn.c", "main.c"};
    ix_t *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return -1;
    }
    x->p = p;
    x->err = err;
    x->errlen = errlen;
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/') dl--;
    const char *base = dir + dl;
    while (base > dir && base[-1] != '/') base--;
    free(p->name);
    p->name = strndup(base, (size_t)(dir + dl - base));
    int rc = 0;
    char path[1024], why[400], from[1024];
    if (read_base(dir, (int)dl, from, sizeof from, err, errlen)) {
        free(x);
        return -1;
    }
    program_file(path, sizeof path, dir, (int)dl, from, "cnn.c");
    FILE *probe = fopen(path, "r");
    if (!probe && generator_error(dir, why, sizeof why)) {
        prog_skip(p, "unusable stimulus: ai8xize generated no program for %s (its log.txt: %s)", p->name, why);
        free(x);
        return 0;
    }
    if (probe) fclose(probe);
    program_file(path, sizeof path, dir, (int)dl, from, "main_riscv.c");
    if ((probe = fopen(path, "r"))) {
        fclose(probe);
        x->riscv = true;
        files[4] = "main_riscv.c";
    }
    for (const ai8x_defect_t *d = ai8x_defects; d->name; d++)
        if (skip_defects && !strcmp(d->name, p->name)) {
            prog_skip(p, "unusable stimulus: %s: known answer not reachable by the hardware as specified: %s", p->name,
                      d->why);
            free(x);
            return 0;
        }
    for (size_t i = 0; i < sizeof files / sizeof *files && !rc; i++) {
        program_file(path, sizeof path, dir, (int)dl, from, files[i]);
        rc = ai8x_src_read(&x->src, path, err, errlen);
    }
    if (!rc) rc = exec_top(x);
    if (!rc) {
        prog_job(p, "%s", p->name);
        const ai8x_stmt_t *m = find_function(x, "main");
        ai8x_stmt_t at = {.file = x->src.nfiles ? x->src.files[x->src.nfiles - 1] : dir, .line = 0};
        if (!m) rc = ix_fail(x, &at, "no main()");
        else {
            bool ret = false;
            rc = exec_block(x, m, &ret);
        }
        if (!rc && !x->nchecked) rc = ix_fail(x, m, "main() never calls check_output: nothing would be checked");
        if (!rc) prog_check_golden(p);
    }
    ai8x_src_free(&x->src);
    free(x);
    return rc;
}
