#include "bdma_golden.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    CFG_SRC_ADDR_LOW = 0x00,
    CFG_DST_ADDR_LOW = 0x08,
    CFG_LINE = 0x10,
    CFG_CMD = 0x14,
    CFG_LINE_REPEAT = 0x18,
    CFG_SRC_LINE = 0x1C,
    CFG_DST_LINE = 0x20,
    CFG_SURF_REPEAT = 0x24,
    CFG_SRC_SURF = 0x28,
    CFG_DST_SURF = 0x2C,
    CFG_OP = 0x30,
    CFG_LAUNCH0 = 0x34,
    CFG_LAUNCH1 = 0x38,
};

/* Stored bits of the twelve command registers (CSV field masks: addresses/strides [31:5]). */
static const uint32_t cfg_mask[12] = {
    0xFFFFFFE0u, 0xFFFFFFFFu, 0xFFFFFFE0u, 0xFFFFFFFFu, 0x00001FFFu, 0x00000003u,
    0x00FFFFFFu, 0xFFFFFFE0u, 0xFFFFFFE0u, 0x00FFFFFFu, 0xFFFFFFE0u, 0xFFFFFFE0u,
};

static uint32_t reg(const bdma_golden_t *b, uint32_t off) { return b->cfg[off / 4]; }

static bdma_cmd_t snapshot(const bdma_golden_t *b)
{
    bdma_cmd_t c = {
        .src = reg(b, CFG_SRC_ADDR_LOW),
        .dst = reg(b, CFG_DST_ADDR_LOW),
        .line_bytes = (reg(b, CFG_LINE) + 1) * 32,
        .lines = reg(b, CFG_LINE_REPEAT) + 1,
        .surfs = reg(b, CFG_SURF_REPEAT) + 1,
        .src_line = reg(b, CFG_SRC_LINE),
        .dst_line = reg(b, CFG_DST_LINE),
        .src_surf = reg(b, CFG_SRC_SURF),
        .dst_surf = reg(b, CFG_DST_SURF),
    };
    if (b->cvif) { /* arnvdla.h BDMA_CFG_CMD: SRC_RAM_TYPE bit 0, DST_RAM_TYPE bit 1; 0 = CVIF, 1 = MCIF */
        c.src_space = reg(b, CFG_CMD) & 1 ? 0 : NVDLA_CV_SPACE;
        c.dst_space = reg(b, CFG_CMD) & 2 ? 0 : NVDLA_CV_SPACE;
    }
    return c;
}

void bdma_copy(mem_t *mem, const bdma_cmd_t *c)
{
    uint8_t *buf = malloc(c->line_bytes);
    if (!buf) abort();
    for (uint32_t s = 0; s < c->surfs; s++)
        for (uint32_t l = 0; l < c->lines; l++) {
            uint32_t src = c->src + s * c->src_surf + l * c->src_line; /* modulo 2^32 */
            uint32_t dst = c->dst + s * c->dst_surf + l * c->dst_line;
            for (uint32_t k = 0; k < c->line_bytes; k++) buf[k] = mem_read8(mem, c->src_space | (uint32_t)(src + k));
            for (uint32_t k = 0; k < c->line_bytes; k++) mem_write8(mem, c->dst_space | (uint32_t)(dst + k), buf[k]);
        }
    free(buf);
}

static uint32_t launch(bdma_golden_t *b, mem_t *mem, int group, bdma_emit_fn emit, bdma_error_fn error, void *user)
{
    if (b->queued == 0) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "BDMA: CFG_LAUNCH%d with no command pushed: the group never completes "
                 "(spec §5 rule 3)",
                 group);
        error(user, msg);
        return 0;
    }
    for (int i = 0; i < b->queued; i++) {
        const bdma_cmd_t *c = &b->queue[i];
        bdma_copy(mem, c);
        nvdla_box_t box = {.unit = "BDMA",
                           .group = group,
                           .cmd = i,
                           .space = c->dst_space,
                           .addr = c->dst,
                           .line_bytes = c->line_bytes,
                           .lines = c->lines,
                           .surfs = c->surfs,
                           .line_stride = c->dst_line,
                           .surf_stride = c->dst_surf};
        emit(user, &box);
    }
    b->queued = 0;
    b->launches++;
    return 0x40u << group;
}

uint32_t bdma_golden_write(bdma_golden_t *b, mem_t *mem, uint32_t off, uint32_t data, bdma_emit_fn emit,
                           bdma_error_fn error, void *user)
{
    if (off <= CFG_DST_SURF) {
        b->cfg[off / 4] = data & cfg_mask[off / 4];
        return 0;
    }
    if (off == CFG_OP && (data & 1)) {
        if (b->queued == BDMA_QUEUE_DEPTH) {
            error(user, "BDMA: CFG_OP push into a full 20-entry queue: the command is dropped");
            return 0;
        }
        b->queue[b->queued++] = snapshot(b);
        return 0;
    }
    if ((off == CFG_LAUNCH0 || off == CFG_LAUNCH1) && (data & 1))
        return launch(b, mem, off == CFG_LAUNCH0 ? 0 : 1, emit, error, user);
    return 0;
}
