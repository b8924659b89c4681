/* MAX78000 golden model, M3 input side: the APB FIFOs feeding layer 0 (D10, D46) and the circular
 * streaming buffers (2.4). Internal to golden/max78000. */
#ifndef MAX78000_STREAM_H
#define MAX78000_STREAM_H
#include "max78000_golden.h"

/* Byte mask of the byte lanes set in `lanes` (bit l: bits 8l+7..8l). */
static inline uint32_t max78000_lanes_bm(unsigned lanes)
{
    uint32_t bm = 0;
    for (unsigned l = 0; l < 4; l++)
        if (lanes & (1u << l)) bm |= 0xFFu << (8 * l);
    return bm;
}

/* Logical streaming buffers: byte lane `lane` of logical word `off`. */
void max78000_sbuf_put(max78000_sbuf_t *b, size_t off, unsigned lane_bits, uint32_t v);
bool max78000_sbuf_get(const max78000_sbuf_t *b, size_t off, uint32_t *w);
void max78000_sbuf_next_layer(max78000_t *m); /* the next layer's input buffers become this layer's */
void max78000_sbuf_clear(max78000_t *m);

/* FIFO_WRk write, FIFO_STAT read, the FIFO interrupt. The writes return true when the word completed the input
 * a waiting run needs (D46): the caller then runs it (max78000_golden.c), master quadrant m->fifo_master. */
bool max78000_fifo_write(max78000_t *m, unsigned k, uint32_t data);
/* The fast FIFO (M3): a word written to FF_DR (returns as max78000_fifo_write), and FF_SR ({full, empty}). */
bool max78000_ffifo_write(max78000_t *m, uint32_t data);
uint32_t max78000_ffifo_stat(const max78000_t *m);
/* qupac with the fast FIFO (--fast-fifo-quad): its words go to every quadrant, and layer 0's local output
 * slot K of quadrant q goes to lane q of slot 4K's word (max78000_layer.c). */
bool max78000_qupac(const max78000_t *m);
uint32_t max78000_fifo_stat(const max78000_t *m);
bool max78000_fifo_irq(const max78000_t *m);
/* A start of master quadrant `master`: returns true when the run goes now (the caller runs it: the layer sequence,
 * max78000_golden.c), false when it waits for the FIFOs (CTRL.fifo_en, D46) until a FIFO write completes its
 * input. The calls go one way, golden -> layer -> stream: this file runs nothing itself. */
bool max78000_start(max78000_t *m, unsigned master);
#endif
