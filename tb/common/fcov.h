/* Table-driven functional coverage shared by the testbenches: a table of crosses, each a product of labelled
 * dimensions with an `allowed` rule, so that combinations the spec forbids are not bins at all. Runs write
 * every allowed bin with its hit count ("<cross> <bin> <count>" lines) to +cov=<file> or into +cov=<dir>/;
 * flow/fcov_report.py merges files, applies the accelerator's tables (waivers, required crosses) and reports
 * holes. Every accelerator's table (tb/<acc>/<acc>_cov.c) is one of these. */
#ifndef FCOV_H
#define FCOV_H
#include "sim.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { FCOV_MAXD = 8 }; /* NE16's full product cross has 8 dimensions */

typedef struct fcov_dim {
    const char *name;
    unsigned n;
    const char *const *labels;
} fcov_dim_t;
#define FCOV_DIM(name, labels)                       \
    {                                                \
        name, sizeof labels / sizeof *labels, labels \
    }

typedef struct fcov_cross {
    const char *name;
    unsigned nd;
    fcov_dim_t d[FCOV_MAXD];
    /* NULL: every combination allowed; otherwise 0 for a combination the spec forbids (say why where defined) */
    bool (*allowed)(const unsigned *v);
} fcov_cross_t;

typedef struct fcov fcov_t;

fcov_t *fcov_new(const char *acc, const fcov_cross_t *crosses, unsigned ncrosses);
void fcov_free(fcov_t *c);
/* One sample of cross x with dimension values v[0..nd): counted if in range and allowed; returns whether it
 * was. */
bool fcov_hit(fcov_t *c, unsigned x, const unsigned *v);
/* Shorthand for crosses of up to four dimensions. */
bool fcov_hit4(fcov_t *c, unsigned x, unsigned v0, unsigned v1, unsigned v2, unsigned v3);
void fcov_write(const fcov_t *c, FILE *f, const char *test, uint64_t seed);
unsigned fcov_bins(const fcov_t *c); /* allowed bins */
unsigned fcov_hits(const fcov_t *c); /* allowed bins hit */
uint64_t fcov_count(const fcov_t *c, unsigned x, const unsigned *v);
/* Raw bins of a cross (the product of its dimensions, allowed or not); raw bin number <-> dimension values,
 * last dimension fastest (the order fcov_write lists bins in). */
unsigned fcov_raw_bins(const fcov_cross_t *x);
void fcov_decode(const fcov_cross_t *x, unsigned b, unsigned *v);
unsigned fcov_encode(const fcov_cross_t *x, const unsigned *v);
/* At the end of a run: write to +cov=<file>, or <dir>/<test>.s<seed>.stall<n>.cov for +cov=<dir>/; nothing
 * without +cov or when the run failed. */
void fcov_write_plusarg(const fcov_t *c, sim_t *sim);
#endif
