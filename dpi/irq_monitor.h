/* Interrupt line monitor: level or pulse interrupts, rise/pulse counts, and spurious-interrupt detection
 * (an assertion while the test has not armed the monitor is an error through env). */
#ifndef IRQ_MONITOR_H
#define IRQ_MONITOR_H
#include "bfm_env.h"
#include <stdbool.h>
#include <stdint.h>

typedef enum { IRQ_LEVEL, IRQ_PULSE } irq_kind_t;
typedef struct irq_monitor irq_monitor_t;

irq_monitor_t *irq_monitor_new(const bfm_env_t *env, const char *name, irq_kind_t kind);
void irq_monitor_free(irq_monitor_t *m);
void irq_monitor_tick(irq_monitor_t *m, bool line);      /* once per rising edge */
bool irq_monitor_level(const irq_monitor_t *m);          /* line value at the last edge */
uint64_t irq_monitor_count(const irq_monitor_t *m);      /* rising edges (level) or pulses seen */
uint64_t irq_monitor_last_cycle(const irq_monitor_t *m); /* cycle of the last rise/pulse */
/* While armed, assertions are expected; a rise while disarmed is reported as spurious. */
void irq_monitor_arm(irq_monitor_t *m, bool armed);
#endif
