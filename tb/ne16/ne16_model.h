/* Reference model of the NE16 control plane (spec ne16.md 1.2, 1.4, 2.1-2.3), fed by the APB monitor and
 * the event monitor: it predicts PSLVERR and PRDATA of every APB transfer, keeps the two job contexts and
 * the committed-job FIFO like the hardware, and says which jobs are triggered (so the golden model can run
 * them in job order), which start and complete, and which a SOFT_CLEAR aborts. Pure C, no simulator. */
#ifndef NE16_MODEL_H
#define NE16_MODEL_H
#include "ne16_regs.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { NE16_ACQ_FULL = 0xFFFFFFFFu, NE16_ACQ_OPEN = 0xFFFFFFFEu };

typedef struct ne16_mjob {
    uint8_t id, ctx;
    uint32_t regs[NE16_NUM_JOB_REGS]; /* the context at commit */
    bool ran;                         /* handed out by ne16_model_next_triggered */
    int code;                         /* JOB_ERROR code the golden model predicted (set by the caller) */
    uint32_t serial;                  /* commit order since reset, unique per run */
} ne16_mjob_t;

/* What an APB transfer should do (predicted before it is applied). */
typedef struct ne16_pred {
    bool slverr;
    uint32_t rdata;  /* reads only */
    const char *why; /* reason of a predicted PSLVERR ("write to read-only register") */
    /* side effects, for the testbench */
    bool committed, triggered, acquired, cleared, sw_sync;
    uint8_t sw_evt;  /* one-hot pulse expected in the next cycle */
    size_t naborted; /* SOFT_CLEAR: jobs dropped (running, waiting or held) */
    ne16_mjob_t aborted[2];
} ne16_pred_t;

typedef struct ne16_model {
    uint8_t next_id, last_id;
    bool open, trig, running;
    uint32_t ctx[2][NE16_NUM_JOB_REGS];
    ne16_mjob_t fifo[2];
    unsigned count;
    uint32_t finished, job_error, serial;
} ne16_model_t;

void ne16_model_reset(ne16_model_t *m);
/* Predict and apply one completed APB transfer (addr: PADDR). */
void ne16_model_access(ne16_model_t *m, bool write, uint32_t addr, uint32_t data, uint8_t strb, ne16_pred_t *p);
/* The oldest triggered job the golden model has not run yet (marks it ran), or NULL. */
ne16_mjob_t *ne16_model_next_triggered(ne16_model_t *m);
/* busy_o rose: the head job starts. Returns it, or NULL when no job may start (then *why says why). */
const ne16_mjob_t *ne16_model_start(ne16_model_t *m, const char **why);
/* evt_done_o pulsed: the running job completes. Returns 0 with *done = the job, or -1 (no job running). */
int ne16_model_done(ne16_model_t *m, ne16_mjob_t *done);
/* A job could start now (FIFO non-empty, triggered, engine idle). */
bool ne16_model_startable(const ne16_model_t *m);
uint32_t ne16_model_status(const ne16_model_t *m);
/* Name of a register offset ("CONFIG0"), or NULL outside the map. */
const char *ne16_reg_name_of(uint32_t off);
#endif
