/* NE16 register-level golden model (spec ne16.md section 4): the 24 job registers of one context plus a
 * memory image in, the memory image after the job out, with every written output element listed with
 * its tensor coordinates so a scoreboard can name mismatches. Pure C11; no simulator headers. */
#ifndef NE16_GOLDEN_H
#define NE16_GOLDEN_H
#include <stddef.h>
#include <stdint.h>
#include "mem.h"
#include "ne16_job.h"

/* One stored output element: nbytes (1/2/4) little-endian bytes at addr (mod 2^32). Coordinates are
 * those of the job: k = absolute output channel, h/w = output row/column (strided jobs: the stride-2
 * output, i.e. subtile pixel 0/2 -> 0/1). */
typedef struct ne16_out_elem {
    uint32_t addr;
    uint8_t nbytes;
    uint16_t k, h, w;
} ne16_out_elem_t;

typedef struct ne16_golden_result {
    int error;              /* JOB_ERROR code of 6.2 (0 = job ran) */
    ne16_out_elem_t *elems; /* in write order (4.6) */
    size_t n, cap;
    int oom; /* allocation failure while recording (memory results still valid) */
} ne16_golden_result_t;

void ne16_result_init(ne16_golden_result_t *r);
void ne16_result_free(ne16_golden_result_t *r);
/* The element covering byte address addr, or NULL. Linear search: meant for reporting mismatches. */
const ne16_out_elem_t *ne16_result_find(const ne16_golden_result_t *r, uint32_t addr);

/* Run one job. m is updated in place with the job's stores (reads of any address are fine, M6).
 * res may be NULL. Returns the JOB_ERROR code (0 = ok); a rejected job leaves m unchanged. */
int ne16_golden_job(const uint32_t regs[NE16_NUM_JOB_REGS], mem_t *m, ne16_golden_result_t *res);

/* 4.4 normalisation/quantisation of one wrapped accumulator; returns the low 8*ob bits to store.
 * scale: unsigned (already NORM_BITS wide); shift_byte: the per-channel shift byte (used if NORM_SHIFT). */
uint32_t ne16_norm_quant(const ne16_job_cfg_t *c, int32_t acc, uint32_t scale, int32_t bias, uint8_t shift_byte);
#endif
