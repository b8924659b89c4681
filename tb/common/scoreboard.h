/* Per-job scoreboard: jobs with start/end cycles, bytes compared, mismatches with tensor coordinates, and
 * the pass/fail verdict of each job. Golden-model checkers feed it through sb_compare(). */
#ifndef SCOREBOARD_H
#define SCOREBOARD_H
#include "mem.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SB_MAX_SHOWN 8 /* mismatches printed per job */

typedef struct sb_job {
    char name[128];
    uint64_t start, end; /* cycles */
    uint64_t bytes_compared;
    uint32_t out_digest; /* CRC-32 over (address, CRC-32 of the DUT's bytes) of every compared region:
                                     equal on two DUTs when they wrote the same output (differential runs) */
    uint64_t mismatches;
    unsigned errors; /* errors of any kind while the job was current */
    uint64_t first_error_cycle;
    uint64_t engine_cycles; /* cycles the accelerator's engine ran, and what an ideal engine needs for the */
    uint64_t ideal_cycles;  /* same work, where the testbench knows it (cycle budgets "xR") */
    char first_error[512];
} sb_job_t;

typedef struct scoreboard scoreboard_t;

/* Formats the coordinates of byte `addr` of a compared region into buf ("surf 1 line 3 byte 17"). */
typedef void (*sb_coord_fn)(const void *ctx, uint64_t addr, char *buf, size_t n);

scoreboard_t *sb_new(void);
void sb_free(scoreboard_t *sb);
void sb_job_begin(scoreboard_t *sb, const char *name, uint64_t cycle);
void sb_job_end(scoreboard_t *sb, uint64_t cycle);
sb_job_t *sb_current(scoreboard_t *sb); /* the open job (an implicit one if none was begun) */
size_t sb_njobs(const scoreboard_t *sb);
const sb_job_t *sb_job(const scoreboard_t *sb, size_t i);
void sb_note_error(scoreboard_t *sb, uint64_t cycle, const char *msg);
/* Compare [addr, addr+len) of dut against gold; every differing byte counts, the first SB_MAX_SHOWN of
 * the job are printed to `out` with coordinates and address. Returns the number of differing bytes. */
uint64_t sb_compare(scoreboard_t *sb, FILE *out, const mem_t *dut, const mem_t *gold, uint64_t addr, uint64_t len,
                    const char *what, sb_coord_fn coord, const void *ctx, uint64_t cycle);
/* Account bytes compared by a check that is not a region compare (CRC windows, expected bytes). */
void sb_add_compared(scoreboard_t *sb, uint64_t bytes);
/* Account an engine run of the current job: its cycles and an ideal engine's for the same work. */
void sb_add_engine_run(scoreboard_t *sb, uint64_t cycles, uint64_t ideal);
/* The first mismatch of the most recent failing comparison, one line, for the error report. */
const char *sb_last_mismatch(const scoreboard_t *sb);
/* Address of the first mismatching byte of the current job, if any. */
bool sb_first_mismatch_addr(const scoreboard_t *sb, uint64_t *addr);
bool sb_job_failed(const sb_job_t *j);
#endif
