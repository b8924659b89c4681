/* Functional coverage of NE16 jobs over the configuration space of spec ne16.md 6.1/6.2: a table of
 * crosses, each enumerating exactly the bins the spec allows. Jobs are sampled from the registers the APB
 * monitor saw (not from the generator), so any stimulus (random, directed, trace) counts. A run writes
 * every bin with its count to +cov=<file> (or a file named after test and seed inside +cov=<dir>/);
 * flow/fcov_report.py merges files and reports holes (python3 -m flow.fcov_report ne16).
 *
 * The full product cross (filter mode x weight bits x input mode x norm bits x quant bits x bias x shift x
 * round) is also exposed as an enumeration of its allowed bins, so the cross_sweep test can build one job
 * per bin and the nightly hits every bin deterministically. */
#ifndef NE16_COV_H
#define NE16_COV_H
#include "fcov.h"
#include "ne16_job.h"
#include <stdbool.h>
#include <stdint.h>

/* Queue / control scenarios (6.1 "Queue"), sampled by the testbench from the reference model. */
typedef enum {
    NE16_QCOV_BACK_TO_BACK,  /* a job committed while another is committed and not completed */
    NE16_QCOV_ACQ_FULL,      /* ACQUIRE answered 0xFFFFFFFF */
    NE16_QCOV_ACQ_OPEN,      /* ACQUIRE answered 0xFFFFFFFE */
    NE16_QCOV_COMMIT_ONLY,   /* TRIGGER != 0 with nothing waiting */
    NE16_QCOV_AUTO_TRIGGER,  /* second commit-only triggers both */
    NE16_QCOV_CLEAR_IDLE,    /* SOFT_CLEAR with nothing open or committed */
    NE16_QCOV_CLEAR_OPEN,    /* SOFT_CLEAR while an ACQUIRE is open */
    NE16_QCOV_CLEAR_RUNNING, /* SOFT_CLEAR aborts a running job */
    NE16_QCOV_CLEAR_HELD,    /* SOFT_CLEAR drops a committed, untriggered job */
    NE16_QCOV_CLEAR_ZERO,    /* SOFT_CLEAR value 0 (job registers cleared) */
    NE16_QCOV_SW_SYNC,       /* SW_SYNC pulse */
    NE16_QCOV_CTX_REUSE,     /* a job committed after fewer than 24 job-register writes */
    NE16_QCOV_N
} ne16_qcov_t;

/* The NE16 table (fcov_free, fcov_write, fcov_bins, fcov_hits and fcov_write_plusarg serve it as any other). */
fcov_t *ne16_cov_new(void);
/* A job completed: cfg decoded from its registers, code = its JOB_ERROR code (0 = ran). */
void ne16_cov_job(fcov_t *c, const uint32_t regs[NE16_NUM_JOB_REGS], int code);
void ne16_cov_queue(fcov_t *c, ne16_qcov_t what);

/* ---- the full product cross ------------------------------------------------------------------------ */
#define NE16_COV_FULL_NAME "mode_x_qw_x_in_x_norm_x_quant_x_bias_x_shift_x_round"

/* One bin of the full cross, in layer terms. */
typedef struct ne16_fullbin {
    unsigned mode;       /* 0 3x3, 1 depthwise, 2 1x1, 3 linear (= ne16_layer_mode_t) */
    unsigned qw;         /* weight bits 1..8 */
    bool mode16;         /* uint16 input */
    unsigned norm_bits;  /* 8/16/32 */
    unsigned quant_bits; /* 8/16/32 */
    bool norm_bias, norm_shift, round;
} ne16_fullbin_t;

/* Number of allowed bins of the full cross. */
unsigned ne16_cov_full_count(void);
/* The i-th allowed bin (0 <= i < count, in report order); returns 0, or -1 if i is out of range. */
int ne16_cov_full_bin(unsigned i, ne16_fullbin_t *b);
/* The allowed-bin index a job hits, or -1 when it hits none (rejected, or STREAMOUT=0). */
int ne16_cov_full_index(const uint32_t regs[NE16_NUM_JOB_REGS], int code);
/* Hit count of allowed bin i of the full cross. */
uint64_t ne16_cov_full_hits(const fcov_t *c, unsigned i);
#endif
