#include "nvdla_golden.h"
#include "bdma_golden.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BDMA_BASE = 0x10000, UNIT_WINDOW = 0x1000, GLB_INTR_SET = 0x1008, GLB_INTR_STATUS = 0x100C,
       GLB_LIVE_BITS = 0x3F00FF };

struct nvdla_golden {
    mem_t        *mem;
    bdma_golden_t bdma;
    nvdla_box_t  *boxes;
    size_t        nboxes, cap, taken;
    uint32_t      intr_expected;
    char          errors[1024];
};

nvdla_golden_t *nvdla_golden_new(mem_t *mem) {
    nvdla_golden_t *g = calloc(1, sizeof *g);
    if (!g) abort();
    g->mem = mem;
    return g;
}

void nvdla_golden_free(nvdla_golden_t *g) {
    if (!g) return;
    free(g->boxes);
    free(g);
}

static void emit_box(void *user, const nvdla_box_t *box) {
    nvdla_golden_t *g = user;
    if (g->nboxes == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 32;
        g->boxes = realloc(g->boxes, g->cap * sizeof *g->boxes);
        if (!g->boxes) abort();
    }
    g->boxes[g->nboxes++] = *box;
}

static void note_error(void *user, const char *msg) {
    nvdla_golden_t *g = user;
    size_t used = strlen(g->errors);
    snprintf(g->errors + used, sizeof g->errors - used, "%s%s", used ? "\n" : "", msg);
}

void nvdla_golden_write(nvdla_golden_t *g, uint32_t addr, uint32_t data) {
    if (addr >= BDMA_BASE && addr < BDMA_BASE + UNIT_WINDOW)
        g->intr_expected |= bdma_golden_write(&g->bdma, g->mem, addr - BDMA_BASE, data, emit_box, note_error, g);
    else if (addr == GLB_INTR_SET)
        g->intr_expected |= data & GLB_LIVE_BITS;
    else if (addr == GLB_INTR_STATUS)
        g->intr_expected &= ~data;
}

const nvdla_box_t *nvdla_golden_take_boxes(nvdla_golden_t *g, size_t *n) {
    /* Boxes handed out by the previous call are dropped now: compact what came after them. */
    memmove(g->boxes, g->boxes + g->taken, (g->nboxes - g->taken) * sizeof *g->boxes);
    g->nboxes -= g->taken;
    g->taken = g->nboxes;
    *n = g->nboxes;
    return g->boxes;
}

uint32_t nvdla_golden_intr_expected(const nvdla_golden_t *g) { return g->intr_expected; }
const char *nvdla_golden_errors(const nvdla_golden_t *g) { return g->errors; }

void nvdla_box_coord(const nvdla_box_t *b, uint32_t addr, char *buf, size_t n) {
    /* Find the (surface, line) whose span holds addr; boxes are small enough to scan. */
    for (uint32_t s = 0; s < b->surfs; s++)
        for (uint32_t l = 0; l < b->lines; l++) {
            uint32_t start = b->addr + s * b->surf_stride + l * b->line_stride;
            if ((uint32_t)(addr - start) < b->line_bytes) {
                snprintf(buf, n, "%s grp %d cmd %d surf %u line %u byte %u", b->unit, b->group, b->cmd, s, l,
                         (uint32_t)(addr - start));
                return;
            }
        }
    snprintf(buf, n, "%s grp %d cmd %d (outside box)", b->unit, b->group, b->cmd);
}
