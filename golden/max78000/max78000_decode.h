/* MAX78000 APB address decode (spec 1.3), shared by the golden model and the trace tools. */
#ifndef MAX78000_DECODE_H
#define MAX78000_DECODE_H
#include <stdint.h>

typedef enum max78000_dec_kind {
    DEC_INVALID,
    DEC_FIFO_CTRL,
    DEC_FIFO_STAT,
    DEC_FIFO_WR,
    DEC_AOD_CTRL,
    DEC_CTRL,
    DEC_SRAM,
    DEC_LCNT_MAX,
    DEC_TEST,
    DEC_LREG,
    DEC_STRM0,
    DEC_STRM1,
    DEC_FBUF,
    DEC_IFRM,
    DEC_LCTRL1,
    DEC_MLAT,
    DEC_BRAM,
    DEC_TRAM,
    DEC_MRAM,
    DEC_DSRAM,
    DEC_FF_CR,
    DEC_FF_SR,
    DEC_FF_IE,
    DEC_FF_IS,
    DEC_FF_DR /* the fast FIFO at 0x400C_0400 (M3) */
} max78000_dec_kind_t;

/* q: quadrant. idx: layer y / stream z / FIFO k / BRAM entry / TRAM entry / MRAM word / SRAM word.
 * idx2: per-layer register r / MRAM 4-byte part (0..3) / data memory g. proc: processor i (TRAM, MRAM). */
typedef struct max78000_dec {
    max78000_dec_kind_t kind;
    unsigned q, idx, idx2, proc;
} max78000_dec_t;

max78000_dec_t max78000_decode(uint32_t addr);
const char *max78000_dec_name(max78000_dec_kind_t k);

/* Writable masks of the per-layer registers r = 0..15 (from max78000_regs.h). */
extern const uint32_t max78000_lreg_wmask[16];
#endif
