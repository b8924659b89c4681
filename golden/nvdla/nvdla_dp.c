#include "nvdla_dp.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nv_cube_alloc(nv_cube_t *c, uint32_t w, uint32_t h, uint32_t ch)
{
    c->w = w;
    c->h = h;
    c->c = ch;
    c->s = (ch + 7) / 8;
    c->v = calloc((size_t)c->s * h * w * 8, 1);
    if (!c->v) abort();
}

void nv_cube_free(nv_cube_t *c)
{
    free(c->v);
    c->v = NULL;
}

uint32_t nv_atom_addr(const nv_place_t *p, uint32_t s, uint32_t y, uint32_t x)
{
    if (p->packed1x1) return p->base + 8 * s;
    return p->base + s * p->surf_stride + y * p->line_stride + x * 8; /* modulo 2^32 */
}

void nv_cube_read(const nvdla_dp_ctx_t *ctx, nv_cube_t *c, const nv_place_t *p)
{
    for (uint32_t s = 0; s < c->s; s++)
        for (uint32_t y = 0; y < c->h; y++)
            for (uint32_t x = 0; x < c->w; x++) {
                uint32_t a = nv_atom_addr(p, s, y, x);
                mem_read(ctx->mem, a, nv_atom(c, s, y, x), 8);
            }
}

void nv_cube_write(const nvdla_dp_ctx_t *ctx, const nv_cube_t *c, const nv_place_t *p, const char *unit, int group)
{
    for (uint32_t s = 0; s < c->s; s++)
        for (uint32_t y = 0; y < c->h; y++)
            for (uint32_t x = 0; x < c->w; x++) {
                mem_write(ctx->mem, nv_atom_addr(p, s, y, x), nv_atom(c, s, y, x), 8);
            }
    nvdla_box_t b = {.group = group, .cmd = 0, .addr = p->base, .kind = NVDLA_BOX_CUBE};
    snprintf(b.unit, sizeof b.unit, "%s", unit);
    if (p->packed1x1) {
        b.kind = NVDLA_BOX_PACKED;
        b.line_bytes = 8 * c->s;
        b.lines = b.surfs = 1;
    } else {
        b.line_bytes = 8 * c->w;
        b.lines = c->h;
        b.surfs = c->s;
        b.line_stride = p->line_stride;
        b.surf_stride = p->surf_stride;
    }
    ctx->emit(ctx->user, &b);
}

void nv_dp_error(const nvdla_dp_ctx_t *ctx, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ctx->error(ctx->user, msg);
}

bool nv_cube_too_big(const nvdla_dp_ctx_t *ctx, const char *unit, int group, uint32_t w, uint32_t h, uint32_t c)
{
    uint64_t bytes = (uint64_t)w * h * ((c + 7) / 8) * 8;
    if (bytes <= NV_CUBE_MAX_BYTES) return false;
    nv_dp_error(ctx, "%s grp %d: cube %ux%ux%u (%llu bytes) is beyond the golden model's limit; layer not modelled",
                unit, group, w, h, c, (unsigned long long)bytes);
    return true;
}
