#include "dp_gen_util.h"
#include <stdio.h>
#include <stdlib.h>

void dp_put(dp_wlist_t *l, uint32_t addr, uint32_t value) {
    if (l->n == sizeof l->w / sizeof *l->w) {
        fprintf(stderr, "dp_gen_util: register list full at 0x%05x\n", addr);
        abort();
    }
    l->w[l->n].a = addr;
    l->w[l->n++].v = value;
}

void dp_emit_shuffled(program_t *p, rng_t *r, dp_wlist_t *l) {
    for (size_t i = l->n; i > 1; i--) {
        size_t j = rng_below(r, (uint32_t)i);
        __typeof__(l->w[0]) t = l->w[i - 1];
        l->w[i - 1] = l->w[j];
        l->w[j] = t;
    }
    for (size_t i = 0; i < l->n; i++) prog_write(p, l->w[i].a, l->w[i].v);
    l->n = 0;
}

void dp_fill_random(program_t *p, rng_t *r, uint32_t addr, uint32_t size) {
    uint8_t *b = malloc(size);
    if (!b) abort();
    for (uint32_t i = 0; i < size; i++) b[i] = (uint8_t)rng_next(r);
    prog_mem(p, addr, b, size);
    free(b);
}

void dp_strides(rng_t *r, uint32_t w, uint32_t h, uint32_t *ls, uint32_t *ss) {
    *ls = w * 8 + 8 * (rng_chance(r, 50) ? 0 : rng_range(r, 1, 4));
    *ss = h * *ls + 8 * (rng_chance(r, 50) ? 0 : rng_range(r, 1, 6));
}

uint32_t dp_footprint(uint32_t w, uint32_t h, uint32_t s, uint32_t ls, uint32_t ss) {
    return (s - 1) * ss + (h - 1) * ls + w * 8;
}

uint32_t dp_junk(rng_t *r) { return (uint32_t)rng_next(r); }
