/* Interrupt line monitor: counts rises (level) or pulses, flags rises while disarmed as spurious, and
 * for pulse interrupts flags a line held high for more than one cycle. */
#include "irq_monitor.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

struct irq_monitor {
    const bfm_env_t *env;
    char name[32];
    irq_kind_t kind;
    bool armed, line, long_reported;
    uint64_t count, last_cycle, high_since, ticks;
};

static uint64_t now(const irq_monitor_t *m) { return m->env && m->env->cycle ? *m->env->cycle : m->ticks; }

irq_monitor_t *irq_monitor_new(const bfm_env_t *env, const char *name, irq_kind_t kind)
{
    irq_monitor_t *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->env = env;
    snprintf(m->name, sizeof m->name, "%s", name ? name : "irq");
    m->kind = kind;
    return m;
}

void irq_monitor_free(irq_monitor_t *m) { free(m); }

void irq_monitor_tick(irq_monitor_t *m, bool line)
{
    uint64_t t = now(m);
    m->ticks++;
    if (line && !m->line) {
        m->count++;
        m->last_cycle = t;
        m->high_since = t;
        m->long_reported = false;
        if (!m->armed)
            bfm_errorf(m->env, m->name, "cycle %" PRIu64 ": spurious %s interrupt (monitor not armed)", t,
                       m->kind == IRQ_PULSE ? "pulse" : "level");
        if (m->env && m->env->log_enabled)
            bfm_logf(m->env, m->name, "cycle %" PRIu64 ": interrupt %s #%" PRIu64, t,
                     m->kind == IRQ_PULSE ? "pulse" : "rise", m->count);
    } else if (line && m->kind == IRQ_PULSE && !m->long_reported) {
        m->long_reported = true;
        bfm_errorf(m->env, m->name,
                   "cycle %" PRIu64 ": pulse interrupt high for more than one cycle (since cycle %" PRIu64 ")", t,
                   m->high_since);
    }
    m->line = line;
}

bool irq_monitor_level(const irq_monitor_t *m) { return m->line; }
uint64_t irq_monitor_count(const irq_monitor_t *m) { return m->count; }
uint64_t irq_monitor_last_cycle(const irq_monitor_t *m) { return m->last_cycle; }
void irq_monitor_arm(irq_monitor_t *m, bool armed) { m->armed = armed; }
