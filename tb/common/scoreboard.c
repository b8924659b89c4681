#include "scoreboard.h"
#include <stdlib.h>
#include <string.h>

struct scoreboard {
    sb_job_t *jobs;
    size_t n, cap;
    bool open; /* the last job has not ended */
    char last_mismatch[512];
    uint64_t first_mismatch_addr;
    size_t first_mismatch_job; /* 1 + index of the job it belongs to; 0 = none */
};

scoreboard_t *sb_new(void) { return calloc(1, sizeof(scoreboard_t)); }

void sb_free(scoreboard_t *sb)
{
    if (!sb) return;
    free(sb->jobs);
    free(sb);
}

static sb_job_t *push_job(scoreboard_t *sb, const char *name, uint64_t cycle)
{
    if (sb->n == sb->cap) {
        sb->cap = sb->cap ? 2 * sb->cap : 16;
        sb->jobs = realloc(sb->jobs, sb->cap * sizeof *sb->jobs);
        if (!sb->jobs) abort();
    }
    sb_job_t *j = &sb->jobs[sb->n++];
    memset(j, 0, sizeof *j);
    snprintf(j->name, sizeof j->name, "%s", name);
    j->start = j->end = cycle;
    sb->open = true;
    return j;
}

void sb_job_begin(scoreboard_t *sb, const char *name, uint64_t cycle)
{
    sb_job_end(sb, cycle);
    push_job(sb, name, cycle);
}

void sb_job_end(scoreboard_t *sb, uint64_t cycle)
{
    if (sb->open && sb->n) sb->jobs[sb->n - 1].end = cycle;
    sb->open = false;
}

sb_job_t *sb_current(scoreboard_t *sb)
{
    if (!sb->n) return push_job(sb, "(setup)", 0);
    return &sb->jobs[sb->n - 1];
}

size_t sb_njobs(const scoreboard_t *sb) { return sb->n; }
const sb_job_t *sb_job(const scoreboard_t *sb, size_t i) { return &sb->jobs[i]; }
bool sb_job_failed(const sb_job_t *j) { return j->errors > 0 || j->mismatches > 0; }

void sb_note_error(scoreboard_t *sb, uint64_t cycle, const char *msg)
{
    sb_job_t *j = sb_current(sb);
    if (j->errors++ == 0) {
        j->first_error_cycle = cycle;
        snprintf(j->first_error, sizeof j->first_error, "%s", msg);
    }
}

const char *sb_last_mismatch(const scoreboard_t *sb) { return sb->last_mismatch; }

bool sb_first_mismatch_addr(const scoreboard_t *sb, uint64_t *addr)
{
    if (sb->first_mismatch_job != sb->n || !sb->n) return false;
    *addr = sb->first_mismatch_addr;
    return true;
}

void sb_add_compared(scoreboard_t *sb, uint64_t bytes) { sb_current(sb)->bytes_compared += bytes; }
void sb_add_engine_run(scoreboard_t *sb, uint64_t cycles, uint64_t ideal)
{
    sb_current(sb)->engine_cycles += cycles;
    sb_current(sb)->ideal_cycles += ideal;
}

uint64_t sb_compare(scoreboard_t *sb, FILE *out, const mem_t *dut, const mem_t *gold, uint64_t addr, uint64_t len,
                    const char *what, sb_coord_fn coord, const void *ctx, uint64_t cycle)
{
    (void)cycle; /* kept in the signature for checkers that timestamp their own lines */
    sb_job_t *j = sb_current(sb);
    j->bytes_compared += len;
    uint32_t region[3] = {(uint32_t)addr, (uint32_t)len, mem_crc32(dut, addr, len)};
    j->out_digest = crc32_update(j->out_digest, region, sizeof region);
    uint64_t first = 0;
    uint64_t ndiff = mem_diff(dut, gold, addr, len, &first);
    if (!ndiff) return 0;
    /* Walk from the first difference, printing the first few with coordinates. */
    uint64_t shown = j->mismatches < SB_MAX_SHOWN ? SB_MAX_SHOWN - j->mismatches : 0;
    if (j->mismatches == 0) {
        char c[160] = "";
        if (coord) coord(ctx, first, c, sizeof c);
        sb->first_mismatch_addr = first;
        sb->first_mismatch_job = sb->n;
        snprintf(sb->last_mismatch, sizeof sb->last_mismatch,
                 "%s: %llu of %llu bytes differ, first at %s%saddr 0x%08llx: expected 0x%02x got 0x%02x", what,
                 (unsigned long long)ndiff, (unsigned long long)len, c, *c ? " " : "", (unsigned long long)first,
                 mem_host_read8(gold, first), mem_host_read8(dut, first));
    }
    for (uint64_t a = first; a < addr + len && shown; a++) {
        uint8_t e = mem_host_read8(gold, a), g = mem_host_read8(dut, a);
        if (e == g) continue;
        char c[160] = "";
        if (coord) coord(ctx, a, c, sizeof c);
        fprintf(out, "  mismatch %s: %s%saddr 0x%08llx: expected 0x%02x got 0x%02x\n", what, c, *c ? " " : "",
                (unsigned long long)a, e, g);
        shown--;
    }
    j->mismatches += ndiff;
    return ndiff;
}
