/* Table-driven functional coverage (see fcov.h). */
#include "fcov.h"
#include <stdlib.h>
#include <string.h>

struct fcov {
    const char *acc;
    const fcov_cross_t *x;
    unsigned nx;
    unsigned *off; /* first counter of each cross */
    uint64_t *count;
};

unsigned fcov_raw_bins(const fcov_cross_t *x)
{
    unsigned n = 1;
    for (unsigned i = 0; i < x->nd; i++) n *= x->d[i].n;
    return n;
}

void fcov_decode(const fcov_cross_t *x, unsigned b, unsigned *v)
{
    for (int i = (int)x->nd - 1; i >= 0; i--) {
        v[i] = b % x->d[i].n;
        b /= x->d[i].n;
    }
}

unsigned fcov_encode(const fcov_cross_t *x, const unsigned *v)
{
    unsigned b = 0;
    for (unsigned i = 0; i < x->nd; i++) b = b * x->d[i].n + v[i];
    return b;
}

static bool allowed_bin(const fcov_cross_t *x, unsigned b)
{
    unsigned v[FCOV_MAXD] = {0};
    fcov_decode(x, b, v);
    return !x->allowed || x->allowed(v);
}

fcov_t *fcov_new(const char *acc, const fcov_cross_t *crosses, unsigned ncrosses)
{
    fcov_t *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->acc = acc, c->x = crosses, c->nx = ncrosses;
    c->off = calloc(ncrosses + 1, sizeof *c->off);
    if (!c->off) abort();
    for (unsigned i = 0; i < ncrosses; i++) c->off[i + 1] = c->off[i] + fcov_raw_bins(&crosses[i]);
    c->count = calloc(c->off[ncrosses] ? c->off[ncrosses] : 1, sizeof *c->count);
    if (!c->count) abort();
    return c;
}

void fcov_free(fcov_t *c)
{
    if (!c) return;
    free(c->off);
    free(c->count);
    free(c);
}

static int index_of(const fcov_t *c, unsigned x, const unsigned *v)
{
    if (x >= c->nx) return -1;
    const fcov_cross_t *X = &c->x[x];
    for (unsigned i = 0; i < X->nd; i++)
        if (v[i] >= X->d[i].n) return -1;
    if (X->allowed && !X->allowed(v)) return -1;
    return (int)(c->off[x] + fcov_encode(X, v));
}

bool fcov_hit(fcov_t *c, unsigned x, const unsigned *v)
{
    const int i = index_of(c, x, v);
    if (i < 0) return false;
    c->count[i]++;
    return true;
}

bool fcov_hit4(fcov_t *c, unsigned x, unsigned v0, unsigned v1, unsigned v2, unsigned v3)
{
    const unsigned v[FCOV_MAXD] = {v0, v1, v2, v3};
    return fcov_hit(c, x, v);
}

uint64_t fcov_count(const fcov_t *c, unsigned x, const unsigned *v)
{
    const int i = index_of(c, x, v);
    return i < 0 ? 0 : c->count[i];
}

void fcov_write(const fcov_t *c, FILE *f, const char *test, uint64_t seed)
{
    fprintf(f, "# %s coverage: test %s seed %llu\n", c->acc, test ? test : "", (unsigned long long)seed);
    for (unsigned x = 0; x < c->nx; x++) {
        const fcov_cross_t *X = &c->x[x];
        for (unsigned b = 0; b < fcov_raw_bins(X); b++) {
            if (!allowed_bin(X, b)) continue;
            unsigned v[FCOV_MAXD] = {0};
            fcov_decode(X, b, v);
            fprintf(f, "%s ", X->name);
            for (unsigned i = 0; i < X->nd; i++)
                fprintf(f, "%s%s=%s", i ? "," : "", X->d[i].name, X->d[i].labels[v[i]]);
            fprintf(f, " %llu\n", (unsigned long long)c->count[c->off[x] + b]);
        }
    }
}

unsigned fcov_bins(const fcov_t *c)
{
    unsigned n = 0;
    for (unsigned x = 0; x < c->nx; x++)
        for (unsigned b = 0; b < fcov_raw_bins(&c->x[x]); b++) n += allowed_bin(&c->x[x], b);
    return n;
}

unsigned fcov_hits(const fcov_t *c)
{
    unsigned n = 0;
    for (unsigned x = 0; x < c->nx; x++)
        for (unsigned b = 0; b < fcov_raw_bins(&c->x[x]); b++) n += allowed_bin(&c->x[x], b) && c->count[c->off[x] + b];
    return n;
}
