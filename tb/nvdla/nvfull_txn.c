/* Reader of NVIDIA's trace-player tests (nvfull_txn.h): one pass over input.txn in file order, each line into
 * operations of the program, each .dat file read as the line that names it is. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getline, strdup */
#endif
#include "nvfull_txn.h"
#include "input_error.h"
#include "nvdla_golden.h" /* NVDLA_CV_SPACE */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
    DAT_LINE_BYTES = 32,      /* NVIDIA's converter: 32 bytes a line, or it stops */
    GLB_INTR_STATUS = 0x000C, /* nv_full's GLB.S_INTR_STATUS_0 (arnvdla.h): reads of it wait for the hardware */
    MAX_TOKENS = 8,
};

/* NVIDIA's harness: load_mem and dump_mem go to the responder of the address's top nibble, else it aborts. */
static const struct window {
    const char *name;
    uint32_t base, size;
    uint64_t space;
} windows[] = {
    {"DBB", 0x80000000u, 0x10000000u, 0},
    {"CVSRAM", 0x50000000u, 0x10000000u, NVDLA_CV_SPACE},
};
static const mem_region_t fence[] = {
    {0x80000000u, 0x10000000u, "DBB's window 0x80000000-0x8fffffff"},
    {NVDLA_CV_SPACE | 0x50000000u, 0x10000000u, "CVSRAM's window 0x50000000-0x5fffffff"},
};

const mem_region_t *nvfull_txn_windows(size_t *n)
{
    *n = sizeof fence / sizeof *fence;
    return fence;
}

typedef struct reader {
    program_t *p;
    const char *path; /* file being read (interned), for messages */
    int line;
    char *dir;
    char *err;
    size_t errlen;
    nvfull_txn_info_t *info;
} reader_t;

static int fail(reader_t *r, const char *tok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(reader_t *r, const char *tok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    input_verror(r->err, r->errlen, r->path, r->line, tok, fmt, ap);
    va_end(ap);
    return -1;
}

static void *xmalloc(size_t n)
{
    void *q = malloc(n ? n : 1);
    if (!q) {
        fprintf(stderr, "nvfull_txn: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return q;
}

/* A 32-bit hexadecimal field, 0x and 1..8 digits (NVIDIA's files write every number so). */
static int hex32(reader_t *r, const char *tok, const char *what, uint32_t *out)
{
    if (tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X') || !tok[2])
        return fail(r, tok, "%s must be a hexadecimal number 0x...", what);
    uint64_t v = 0;
    for (const char *s = tok + 2; *s; s++) {
        if (!isxdigit((unsigned char)*s)) return fail(r, tok, "%s must be a hexadecimal number 0x...", what);
        v = v * 16 + (uint64_t)(isdigit((unsigned char)*s) ? *s - '0' : toupper((unsigned char)*s) - 'A' + 10);
        if (v > UINT32_MAX) return fail(r, tok, "%s does not fit 32 bits", what);
    }
    *out = (uint32_t)v;
    return 0;
}

/* The CSB byte address of a register field: 0xffff (or 0) misc bits over the 16-bit word address. */
static int csb_addr(reader_t *r, const char *tok, uint32_t *byte_addr)
{
    uint32_t v;
    if (hex32(r, tok, "register address", &v)) return -1;
    if ((v >> 16) != 0xFFFFu && (v >> 16) != 0)
        return fail(r, tok, "register address: the top 16 bits (CSB misc bits) must be 0xffff or 0");
    *byte_addr = (v & 0xFFFFu) << 2;
    return 0;
}

/* The window [addr, addr+len) lies in, as a program address (CVSRAM's with NVDLA_CV_SPACE). */
static int mem_window(reader_t *r, char *const *tok, uint64_t *where, uint32_t *len)
{
    uint32_t addr;
    if (hex32(r, tok[1], "memory address", &addr) || hex32(r, tok[2], "byte count", len)) return -1;
    if (*len == 0) return fail(r, tok[2], "byte count is 0");
    if (*len % DAT_LINE_BYTES)
        return fail(r, tok[2], "byte count is not a multiple of %d (a .dat line holds %d bytes)", DAT_LINE_BYTES,
                    DAT_LINE_BYTES);
    for (size_t i = 0; i < sizeof windows / sizeof *windows; i++) {
        const struct window *w = &windows[i];
        if (addr < w->base || addr - w->base >= w->size) continue;
        if (*len > w->size - (addr - w->base))
            return fail(r, tok[2], "%s of 0x%x bytes at 0x%08x runs past the end of %s's window (0x%08x)", tok[0], *len,
                        addr, w->name, w->base + (w->size - 1));
        *where = w->space | addr;
        return 0;
    }
    return fail(r, tok[1], "memory address is in neither DBB's window (0x8xxxxxxx) nor CVSRAM's (0x5xxxxxxx)");
}

/* `len` bytes of a .dat file (NVIDIA's format: header lines, then lines of 32 "0xHH" bytes; the converter
 * takes the lines that start with "0x", or " 0x", and stops once it has the bytes it wants). */
static int dat_read(reader_t *r, const char *name, uint32_t len, uint8_t *out)
{
    if (!*name || strchr(name, '/')) return fail(r, name, "data file must be a file name in the test's folder");
    size_t n = strlen(r->dir) + strlen(name) + 2;
    char *path = xmalloc(n);
    snprintf(path, n, "%s/%s", r->dir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        int rc = fail(r, name, "cannot open data file %s: %s", path, strerror(errno));
        free(path);
        return rc;
    }
    const char *saved_path = r->path;
    const int saved_line = r->line;
    r->path = program_intern_file(r->p, path);
    r->line = 0;
    free(path);
    char *buf = NULL;
    size_t cap = 0, got = 0;
    ssize_t nread;
    int rc = 0;
    while (rc == 0 && got < len && (nread = getline(&buf, &cap, f)) >= 0) {
        r->line++;
        if ((size_t)nread != strlen(buf)) {
            rc = fail(r, NULL, "NUL byte in line");
            break;
        }
        const char *s = buf[0] == ' ' ? buf + 1 : buf;
        if (s[0] != '0' || s[1] != 'x') continue; /* a header line (W=, Crc=, "dumped memory, ...") */
        int k = 0;
        for (char *t = strtok(buf, " \t\r\n"); t && rc == 0; t = strtok(NULL, " \t\r\n"), k++) {
            if (k == DAT_LINE_BYTES) {
                rc = fail(r, t, "data line has more than %d bytes", DAT_LINE_BYTES);
                break;
            }
            uint32_t b;
            if (t[0] != '0' || t[1] != 'x' || !isxdigit((unsigned char)t[2]) || !isxdigit((unsigned char)t[3]) ||
                t[4] || hex32(r, t, "data byte", &b)) {
                rc = fail(r, t, "data byte %d must be 0xHH (two hexadecimal digits)", k);
                break;
            }
            out[got + (size_t)k] = (uint8_t)b;
        }
        if (rc == 0 && k != DAT_LINE_BYTES) rc = fail(r, NULL, "data line has %d bytes, not %d", k, DAT_LINE_BYTES);
        got += DAT_LINE_BYTES;
    }
    free(buf);
    fclose(f);
    if (rc) return rc; /* the message names the data file's line */
    r->path = saved_path;
    r->line = saved_line;
    if (got < len) return fail(r, name, "data file holds 0x%zx bytes, the line asks for 0x%x", got, len);
    return 0;
}

static op_t *at(reader_t *r, op_t *o)
{
    o->file = r->path;
    o->line = r->line;
    return o;
}

static int want(reader_t *r, char *const *tok, int ntok, int args)
{
    if (ntok - 1 == args) return 0;
    return fail(r, ntok - 1 > args ? tok[args + 1] : tok[0], "%s takes %d argument%s, got %d", tok[0], args,
                args == 1 ? "" : "s", ntok - 1);
}

static int parse_line(reader_t *r, char *line)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char *tok[MAX_TOKENS + 1];
    int ntok = 0;
    for (char *t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
        if (ntok == MAX_TOKENS) return fail(r, t, "too many fields");
        tok[ntok++] = t;
    }
    if (!ntok) return 0;
    program_t *p = r->p;
    const char *cmd = tok[0];
    if (!strcmp(cmd, "wait")) {
        if (want(r, tok, ntok, 0)) return -1;
        prog_wait_irq(p, 0, NVFULL_TXN_IRQ_TIMEOUT);
        at(r, &p->ops[p->n - 1]);
        r->info->waits++;
        return 0;
    }
    if (!strcmp(cmd, "write_reg")) {
        uint32_t a, d;
        if (want(r, tok, ntok, 2) || csb_addr(r, tok[1], &a) || hex32(r, tok[2], "register data", &d)) return -1;
        prog_write(p, a, d);
        at(r, &p->ops[p->n - 1]);
        r->info->writes++;
        return 0;
    }
    if (!strcmp(cmd, "read_reg")) {
        uint32_t a, m, e;
        if (want(r, tok, ntok, 3) || csb_addr(r, tok[1], &a) || hex32(r, tok[2], "read mask", &m) ||
            hex32(r, tok[3], "expected value", &e))
            return -1;
        if (!m) return fail(r, tok[2], "read mask is 0: the read would check nothing");
        if (a == GLB_INTR_STATUS) {
            prog_poll(p, a, e, m, NVFULL_TXN_POLL_TIMEOUT);
            r->info->polls++;
        } else {
            prog_read(p, a, e, m);
            r->info->reads++;
        }
        at(r, &p->ops[p->n - 1]);
        return 0;
    }
    if (!strcmp(cmd, "load_mem") || !strcmp(cmd, "dump_mem")) {
        uint64_t where = 0;
        uint32_t len = 0;
        if (want(r, tok, ntok, 3) || mem_window(r, tok, &where, &len)) return -1;
        uint8_t *bytes = xmalloc(len);
        if (dat_read(r, tok[3], len, bytes)) {
            free(bytes);
            return -1;
        }
        bool load = cmd[0] == 'l';
        op_t *o = at(r, program_add(p, load ? OP_MEM : OP_CHECK_MEM));
        o->addr = where;
        o->bytes = bytes;
        o->nbytes = len;
        o->size = len;
        if (!load && where >> 32) { /* CVSRAM: name it, the program's address carries NVDLA_CV_SPACE */
            char what[48];
            snprintf(what, sizeof what, "CVSRAM at 0x%08x", (uint32_t)where);
            o->text = strdup(what);
        }
        if (load) {
            r->info->loads++;
            r->info->load_bytes += len;
        } else {
            r->info->dumps++;
            r->info->dump_bytes += len;
        }
        return 0;
    }
    if (!strcmp(cmd, "write_mem") || !strcmp(cmd, "read_mem"))
        return fail(r, cmd, "%s is not supported (NVIDIA's converter has no handler for it either)", cmd);
    return fail(r, cmd, "unknown command (write_reg, read_reg, load_mem, dump_mem, wait)");
}

bool nvfull_txn_is(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return false;
    if (S_ISDIR(st.st_mode)) {
        size_t n = strlen(path) + sizeof "/input.txn";
        char *f = xmalloc(n);
        snprintf(f, n, "%s/input.txn", path);
        bool is = stat(f, &st) == 0 && S_ISREG(st.st_mode);
        free(f);
        return is;
    }
    size_t n = strlen(path);
    return n > 4 && !strcmp(path + n - 4, ".txn");
}

/* The test's name: its folder's (NVIDIA's layout <test>/input.txn). */
static char *test_name(const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    size_t b = n;
    while (b && dir[b - 1] != '/') b--;
    char *s = xmalloc(n - b + 1);
    memcpy(s, dir + b, n - b);
    s[n - b] = '\0';
    return s;
}

int nvfull_txn_load(program_t *p, const char *path, nvfull_txn_info_t *info, char *err, size_t errlen)
{
    struct stat st;
    bool is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    size_t n = strlen(path) + sizeof "/input.txn";
    char *txn = xmalloc(n);
    char *dir;
    if (is_dir) {
        snprintf(txn, n, "%s/input.txn", path);
        dir = strdup(path);
    } else {
        snprintf(txn, n, "%s", path);
        const char *slash = strrchr(path, '/');
        dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    }
    if (!dir) exit(2);
    *info = (nvfull_txn_info_t){0};
    reader_t r = {.p = p, .err = err, .errlen = errlen, .dir = dir, .info = info};
    FILE *f = fopen(txn, "r");
    if (!f) {
        if (err && errlen) snprintf(err, errlen, "%s: cannot open trace-player test: %s", txn, strerror(errno));
        free(txn);
        free(dir);
        return -1;
    }
    snprintf(p->acc, sizeof p->acc, "nvdla");
    free(p->name);
    p->name = test_name(dir);
    r.path = program_intern_file(p, txn);
    free(txn);
    prog_job(p, "%s", p->name);
    at(&r, &p->ops[p->n - 1])->line = 1;
    /* Issue 38: started at once, sanity3 and sanity3_cvsram enabled their convolution while the flush still ran; it
     * overwrote their input and weights in the CBUF and the RTL wrote zeros where NVIDIA expects 0x7fff. */
    prog_idle(p, NVFULL_TXN_SETTLE_CYCLES);
    at(&r, &p->ops[p->n - 1])->line = 1;
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&buf, &cap, f)) >= 0) {
        r.line++;
        if ((size_t)len != strlen(buf)) rc = fail(&r, NULL, "NUL byte in line");
        else rc = parse_line(&r, buf);
    }
    free(buf);
    fclose(f);
    if (rc == 0 && !info->reads && !info->polls && !info->dumps)
        rc = fail(&r, NULL, "the test checks nothing: no read_reg and no dump_mem");
    if (rc == 0) { /* the golden model over everything it wrote, once the trace has run (a DUT run) */
        prog_check_golden(p);
        at(&r, &p->ops[p->n - 1]);
    }
    free(dir);
    return rc;
}
