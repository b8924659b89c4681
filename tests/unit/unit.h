/* Tiny unit-test harness. Each test function takes `unit_t *u` (CHECK uses it implicitly); main() runs
 * them with UNIT_RUN and returns unit_done(), which prints "<name>: N passed, N failed".
 * Also a capturing bfm_env_t for bus-model tests: errors and log lines are collected for inspection. */
#ifndef UNIT_H
#define UNIT_H
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfm_env.h"

typedef struct unit {
    const char *name;
    const char *test; /* current test function */
    unsigned passed, failed;
} unit_t;

static inline void unit_check(unit_t *u, bool ok, const char *file, int line, const char *expr, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static inline void unit_check(unit_t *u, bool ok, const char *file, int line, const char *expr, const char *fmt, ...)
{
    if (ok) {
        u->passed++;
        return;
    }
    u->failed++;
    fprintf(stderr, "%s:%d: FAIL in %s: %s: ", file, line, u->test ? u->test : "?", expr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

#define CHECK(cond, ...) unit_check(u, (cond) ? true : false, __FILE__, __LINE__, #cond, __VA_ARGS__)
#define CHECK_EQ(a, b)                                                                                    \
    do {                                                                                                  \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                                  \
        unit_check(u, a_ == b_, __FILE__, __LINE__, #a " == " #b, "0x%" PRIx64 " != 0x%" PRIx64, a_, b_); \
    } while (0)
#define UNIT_RUN(u, fn)  \
    do {                 \
        (u)->test = #fn; \
        fn(u);           \
    } while (0)

/* A path under the shared folder (the spec, conformance data), relative to the checkout the tests run in:
 * ../shared/<rel>, or $COSIM_SHARED/<rel> when that is set. A test whose data is absent says so and why. */
static inline const char *unit_shared(char *buf, size_t n, const char *rel)
{
    const char *root = getenv("COSIM_SHARED");
    snprintf(buf, n, "%s/%s", root && *root ? root : "../shared", rel);
    return buf;
}

static inline int unit_done(unit_t *u)
{
    printf("%s: %u passed, %u failed\n", u->name, u->passed, u->failed);
    return u->failed ? 1 : 0;
}

/* ---- capturing environment for bus models ---- */
enum { UNIT_MSG_BUF = 1 << 16 };
typedef struct unit_env {
    bfm_env_t env;
    uint64_t cycle;
    unsigned errors, logs;
    char err[UNIT_MSG_BUF]; /* all error messages, one per line (truncated when full) */
    size_t err_len;
    bool echo; /* print errors to stderr as they come (debugging) */
} unit_env_t;

static inline void unit_env_error(void *user, const char *who, const char *msg)
{
    unit_env_t *e = user;
    e->errors++;
    int n = snprintf(e->err + e->err_len, sizeof e->err - e->err_len, "%s: %s\n", who, msg);
    if (n > 0 && e->err_len + (size_t)n < sizeof e->err) e->err_len += (size_t)n;
    if (e->echo) fprintf(stderr, "  [error @%" PRIu64 "] %s: %s\n", e->cycle, who, msg);
}

static inline void unit_env_log(void *user, const char *who, const char *msg)
{
    (void)who;
    (void)msg;
    ((unit_env_t *)user)->logs++;
}

static inline void unit_env_init(unit_env_t *e)
{
    memset(e, 0, sizeof *e);
    e->env.user = e;
    e->env.cycle = &e->cycle;
    e->env.error = unit_env_error;
    e->env.log = unit_env_log;
}

static inline void unit_env_clear(unit_env_t *e)
{
    e->errors = 0;
    e->err_len = 0;
    e->err[0] = '\0';
}

/* True when one captured error message contains w1 and (unless NULL) w2. */
static inline bool unit_env_has(const unit_env_t *e, const char *w1, const char *w2)
{
    const char *line = e->err;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[1024];
        size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
        memcpy(buf, line, n);
        buf[n] = '\0';
        if (strstr(buf, w1) && (!w2 || strstr(buf, w2))) return true;
        line += len + (end ? 1 : 0);
    }
    return false;
}
#endif
