/* Helpers shared by the PDP and CDP stimulus generators: a register write list emitted in a seeded
 * order (the order of writes before D_OP_ENABLE is free), random memory fills and feature-cube strides. */
#ifndef DP_GEN_UTIL_H
#define DP_GEN_UTIL_H
#include "program.h"
#include "rng.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dp_wlist {
    struct {
        uint32_t a, v;
    } w[160];
    size_t n;
} dp_wlist_t;

void dp_put(dp_wlist_t *l, uint32_t addr, uint32_t value);
void dp_emit_shuffled(program_t *p, rng_t *r, dp_wlist_t *l);
void dp_fill_random(program_t *p, rng_t *r, uint32_t addr, uint32_t size);
/* Line and surface strides (multiples of 8) of a w x h x s cube of atoms: packed or with gaps. */
void dp_strides(rng_t *r, uint32_t w, uint32_t h, uint32_t *ls, uint32_t *ss);
uint32_t dp_footprint(uint32_t w, uint32_t h, uint32_t s, uint32_t ls, uint32_t ss);
/* The same for atoms of `atom` bytes (nv_full: 32); dp_strides is its 8-byte case, with the same draws. */
void dp_strides_atom(rng_t *r, uint32_t w, uint32_t h, uint32_t atom, uint32_t *ls, uint32_t *ss);
uint32_t dp_footprint_atom(uint32_t w, uint32_t h, uint32_t s, uint32_t ls, uint32_t ss, uint32_t atom);
uint32_t dp_junk(rng_t *r);
typedef enum { DP_SDP, DP_PDP, DP_CDP } dp_unit_t;
/* After a unit's jobs completed (interrupts seen): read its per-group RO result registers in both groups (the
 * unit's S_POINTER.PRODUCER set to each; the caller sets the pointers again before its next job). The
 * testbench compares each with the golden model's value. */
void dp_read_results(program_t *p, dp_unit_t unit);
#endif
