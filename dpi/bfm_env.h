/* Services a bus-functional model needs from the simulation that owns it: the current cycle, an error
 * sink and an optional transaction log. One bfm_env_t per simulation context; BFMs keep a pointer. */
#ifndef BFM_ENV_H
#define BFM_ENV_H
#include <stdbool.h>
#include <stdint.h>

typedef struct bfm_env {
    void *user;            /* the owning simulation context */
    const uint64_t *cycle; /* current clock cycle (read-only for BFMs) */
    /* A protocol violation or BFM error. `who` names the model instance ("csb", "dbb"). */
    void (*error)(void *user, const char *who, const char *msg);
    /* A transaction log line; called only when `log_enabled` is set. */
    void (*log)(void *user, const char *who, const char *msg);
    bool log_enabled;
} bfm_env_t;

/* printf-style helpers that format and forward to env->error / env->log, prefixing nothing:
 * the sink adds cycle and instance name. */
void bfm_errorf(const bfm_env_t *env, const char *who, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void bfm_logf(const bfm_env_t *env, const char *who, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#endif
