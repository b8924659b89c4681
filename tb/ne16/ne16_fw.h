/* Program building blocks that drive NE16 exactly as firmware does (pulp-nnx sequence, spec 2.3): ACQUIRE,
 * job-register writes, TRIGGER, wait for the done event, JOB_ERROR read, golden check; plus loading a
 * layer's tensors (random data, garbage around them for M6) into memory with back-door writes. The
 * expected ACQUIRE ids and JOB_ERROR values are tracked here from the firmware's point of view. */
#ifndef NE16_FW_H
#define NE16_FW_H
#include "ne16_driver.h"
#include "program.h"
#include "rng.h"
#include <stdbool.h>
#include <stdint.h>

#define NE16_APB_BASE 0x00000000u /* PADDR of the register window (PADDR[31:8] is ignored) */

typedef struct ne16_fw {
    program_t *p;
    rng_t rng;
    uint8_t next_id;    /* the id the next successful ACQUIRE returns */
    uint32_t job_error; /* JOB_ERROR as firmware expects it */
    uint32_t ctx[2][NE16_NUM_JOB_REGS];
    unsigned jobs;
} ne16_fw_t;

void fw_init(ne16_fw_t *fw, program_t *p, uint64_t seed, const char *stream);
/* Bus ops on the register window. */
void fw_w(ne16_fw_t *fw, uint32_t off, uint32_t v);
void fw_r(ne16_fw_t *fw, uint32_t off, uint32_t expect, uint32_t mask);
/* ACQUIRE expecting the next id; returns the job's context. */
unsigned fw_acquire(ne16_fw_t *fw);
/* Write the job registers of the open context: all 24, or only those that differ from what the context
 * holds (context reuse, as the GAP SDK does). */
void fw_regs(ne16_fw_t *fw, unsigned ctx, const uint32_t regs[NE16_NUM_JOB_REGS], bool changed_only);
/* Commit (value 0: and trigger). */
void fw_commit(ne16_fw_t *fw, uint32_t value);
/* Wait for n done events; timeout from the 6.3 bound of the jobs (sum of iterations) with stall margin. */
void fw_wait(ne16_fw_t *fw, unsigned n, uint64_t iterations);
/* After job `id` completed with `code`: read JOB_ERROR and expect the sticky value. */
void fw_check_error(ne16_fw_t *fw, uint8_t id, int code);
/* One whole job: acquire, registers, trigger, wait, JOB_ERROR, check_golden. Returns the job id. */
uint8_t fw_job(ne16_fw_t *fw, const uint32_t regs[NE16_NUM_JOB_REGS], bool changed_only);
/* SOFT_CLEAR with value v: firmware expectations reset (ids from 0, JOB_ERROR 0, registers if v == 0). */
void fw_soft_clear(ne16_fw_t *fw, uint32_t v);
uint64_t fw_iterations(const uint32_t regs[NE16_NUM_JOB_REGS]);
int fw_code(const uint32_t regs[NE16_NUM_JOB_REGS]);

/* Place the layer's buffers in the 1 MiB slot at `base` (with random misalignment), fill inputs, weights,
 * scale/shift/bias with random data (corner values sometimes) and garbage around every tensor, and emit
 * the back-door loads. Returns 0, or -1 with err. */
int fw_layer_load(ne16_fw_t *fw, ne16_layer_t *l, uint32_t base, char *err, size_t errlen);
/* Emit the register values of every job of a layer; returns the number of jobs or -1. */
int fw_layer_regs(const ne16_layer_t *l, uint32_t (*regs)[NE16_NUM_JOB_REGS], size_t max, char *err, size_t errlen);
#endif
