/* Formatting helpers for bus-functional models: format once, hand the line to the owner's sink. */
#include "bfm_env.h"

#include <stdarg.h>
#include <stdio.h>

/* Long enough for any protocol message; longer lines are truncated rather than allocated. */
enum { BFM_MSG_MAX = 1024 };

void bfm_errorf(const bfm_env_t *env, const char *who, const char *fmt, ...)
{
    if (!env || !env->error) return;
    char buf[BFM_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    env->error(env->user, who, buf);
}

void bfm_logf(const bfm_env_t *env, const char *who, const char *fmt, ...)
{
    if (!env || !env->log || !env->log_enabled) return;
    char buf[BFM_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    env->log(env->user, who, buf);
}
