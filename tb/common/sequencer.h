/* Runs a program one operation at a time against the accelerator (acc_ops_t), one step per clock cycle:
 * bus writes are pipelined, reads wait for their data, waits have watchdogs, checks go to the scoreboard. */
#ifndef SEQUENCER_H
#define SEQUENCER_H
#include "program.h"
#include "sim.h"
#include <stdbool.h>
#include <stdint.h>

typedef enum { SEQ_RUNNING, SEQ_DONE, SEQ_FAILED, SEQ_SKIPPED } seq_status_t;

typedef struct sequencer sequencer_t;

/* default_timeout: the +watchdog a user gave, or 0: then the accelerator's default_watchdog (200000 when 0),
 * raised for interrupt waits to its wait_budget(). */
sequencer_t *seq_new(sim_t *sim, const acc_ops_t *ops, void *acc, const program_t *prog, uint64_t default_timeout);
void seq_free(sequencer_t *s);
seq_status_t seq_step(sequencer_t *s); /* once per cycle, after the rising edge */
const op_t *seq_current_op(const sequencer_t *s);
/* The op that issued bus request `tag` (compared under mask: bus models that keep fewer tag bits), among the
 * last 256 requests; NULL when unknown. */
const op_t *seq_op_of_tag(const sequencer_t *s, uint64_t tag, uint64_t mask);
const char *seq_skip_reason(const sequencer_t *s);
#endif
