/* Shared pieces of the SDP/PDP/CDP golden models: the feature cube held in C order, the callbacks that
 * report written regions and configuration errors, and cube reads/writes in the nv_small layout
 * (spec nvdla_datapath.md §1.2; nvdla.md §6). */
#ifndef NVDLA_DP_H
#define NVDLA_DP_H
#include "mem.h"
#include "nvdla_golden.h"
#include "nvdla_pp.h"
#include <stdbool.h>
#include <stdint.h>

/* A feature cube of int8 atoms: v[((s*h + y)*w + x)*8 + lane], S = ceil(c/8) surfaces, pad lanes kept. */
typedef struct nv_cube {
    uint32_t w, h, c, s;
    int8_t *v;
} nv_cube_t;

typedef struct nvdla_dp_ctx {
    mem_t *mem;
    void (*emit)(void *user, const nvdla_box_t *box);
    void (*error)(void *user, const char *msg);
    void *user;
} nvdla_dp_ctx_t;

/* Memory placement of a cube: base, strides, and 1x1 packing (SDP only, W=H=1: surface s at base+8s). */
typedef struct nv_place {
    uint32_t base, line_stride, surf_stride;
    bool packed1x1;
} nv_place_t;

void nv_cube_alloc(nv_cube_t *c, uint32_t w, uint32_t h, uint32_t ch);
void nv_cube_free(nv_cube_t *c);
static inline int8_t *nv_atom(const nv_cube_t *c, uint32_t s, uint32_t y, uint32_t x)
{
    return c->v + (((size_t)s * c->h + y) * c->w + x) * 8;
}
uint32_t nv_atom_addr(const nv_place_t *p, uint32_t s, uint32_t y, uint32_t x);
void nv_cube_read(const nvdla_dp_ctx_t *ctx, nv_cube_t *c, const nv_place_t *p);
/* Writes every atom and emits the written box (unit name, group). */
void nv_cube_write(const nvdla_dp_ctx_t *ctx, const nv_cube_t *c, const nv_place_t *p, const char *unit, int group);
/* Cubes above this many bytes are refused with an error (register tests enable groups holding random
 * sizes up to 8192x8192x8192; no generated or trace job comes near it). */
#define NV_CUBE_MAX_BYTES (64u << 20)
bool nv_cube_too_big(const nvdla_dp_ctx_t *ctx, const char *unit, int group, uint32_t w, uint32_t h, uint32_t c);
void nv_dp_error(const nvdla_dp_ctx_t *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
