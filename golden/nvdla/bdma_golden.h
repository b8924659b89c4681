/* BDMA part of the NVDLA golden model (spec nvdla.md §5): CFG registers, the 20-entry command queue,
 * launch groups and the strided copy of each command. */
#ifndef BDMA_GOLDEN_H
#define BDMA_GOLDEN_H
#include "mem.h"
#include "nvdla_golden.h"
#include <stdbool.h>
#include <stdint.h>

#define BDMA_QUEUE_DEPTH 20

typedef struct bdma_cmd {
    uint32_t src, dst, line_bytes, lines, surfs, src_line, dst_line, src_surf, dst_surf;
    /* the memory each side is in: 0 (DBB) or NVDLA_CV_SPACE (CVSRAM), from CFG_CMD's RAM types when the
     * configuration has a CVIF; addresses wrap modulo 2^32 inside their memory */
    uint64_t src_space, dst_space;
} bdma_cmd_t;

typedef struct bdma_golden {
    uint32_t cfg[12];                   /* CFG_SRC_ADDR_LOW .. CFG_DST_SURF (0x00..0x2C) as stored */
    bdma_cmd_t queue[BDMA_QUEUE_DEPTH]; /* pushed, not yet launched */
    int queued;
    int launches;
    bool cvif; /* CFG_CMD's SRC/DST_RAM_TYPE select DBB (1, MC) or CVSRAM (0, CV); without a CVIF both are DBB */
} bdma_golden_t;

/* Handles a write at BDMA offset `off` (0x00..0xFFF). Executes launched groups on `mem`, appends written
 * boxes through `emit`, returns the GLB interrupt bits the write will eventually raise (0x40/0x80). */
typedef void (*bdma_emit_fn)(void *user, const nvdla_box_t *box);
typedef void (*bdma_error_fn)(void *user, const char *msg);
uint32_t bdma_golden_write(bdma_golden_t *b, mem_t *mem, uint32_t off, uint32_t data, bdma_emit_fn emit,
                           bdma_error_fn error, void *user);
/* The strided copy of one command (exposed for unit tests). */
void bdma_copy(mem_t *mem, const bdma_cmd_t *c);
#endif
