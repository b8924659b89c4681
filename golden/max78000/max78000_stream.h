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
void     max78000_sbuf_put(max78000_sbuf_t *b, size_t off, unsigned lane_bits, uint32_t v);
bool     max78000_sbuf_get(const max78000_sbuf_t *b, size_t off, uint32_t *w);
void     max78000_sbuf_next_layer(max78000_t *m);   /* the next layer's input buffers become this layer's */
void     max78000_sbuf_clear(max78000_t *m);

/* FIFO_WRk write, FIFO_STAT read, the FIFO interrupt. */
void     max78000_fifo_write(max78000_t *m, unsigned k, uint32_t data);
/* The fast FIFO (M3): a word written to FF_DR, and FF_SR ({full, empty}). */
void     max78000_ffifo_write(max78000_t *m, uint32_t data);
uint32_t max78000_ffifo_stat(const max78000_t *m);
/* qupac with the fast FIFO (--fast-fifo-quad): its words go to every quadrant, and layer 0's local output
 * slot K of quadrant q goes to lane q of slot 4K's word (max78000_layer.c). */
bool     max78000_qupac(const max78000_t *m);
uint32_t max78000_fifo_stat(const max78000_t *m);
bool     max78000_fifo_irq(const max78000_t *m);
/* A start of master quadrant `master`: runs now, or waits for the FIFOs when CTRL.fifo_en (D46). */
void     max78000_start(max78000_t *m, unsigned master);

/* In max78000_golden.c: the layer sequence of a start (D42-D44). */
void     max78000_run_now(max78000_t *m, unsigned master);
#endif
