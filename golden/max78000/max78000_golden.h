/* Register-level golden model of the MAX78000 CNN accelerator (shared/spec/max78000.md).
 *
 * It consumes APB accesses exactly as the bus carries them (full system address, data, PSTRB), keeps the
 * accelerator's state (global and quadrant registers, data SRAM, MRAM, BRAM, TRAM), runs the layer
 * sequence when the program starts the CNN (spec section 4) and answers reads. Runs complete instantly:
 * the start write returns with the results in data memory and cnn_irq set, so the model is never "busy".
 * Pure C11; no simulator headers. No global state: everything lives in max78000_t. */
#ifndef MAX78000_GOLDEN_H
#define MAX78000_GOLDEN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX78000_NQUAD 4
#define MAX78000_NPROC 64 /* 16 per quadrant */
#define MAX78000_NDMEM 16 /* data memories, one per 4 processors */
#define MAX78000_DMEM_WORDS 8192
#define MAX78000_MRAM_WORDS 768
#define MAX78000_TRAM_WORDS 3072
#define MAX78000_BRAM_BYTES 512
#define MAX78000_NLAYER 32
#define MAX78000_NLREG 16 /* per-layer registers r = 0..15 (RCNT .. POST) */
#define MAX78000_NSTREAM 8

/* Per-layer register index r (spec 2.3). */
enum {
    MAX78000_LR_RCNT,
    MAX78000_LR_CCNT,
    MAX78000_LR_ONED,
    MAX78000_LR_PRCNT,
    MAX78000_LR_PCCNT,
    MAX78000_LR_STRIDE,
    MAX78000_LR_WPTR_BASE,
    MAX78000_LR_WPTR_TOFF,
    MAX78000_LR_WPTR_MOFF,
    MAX78000_LR_WPTR_CHOFF,
    MAX78000_LR_RPTR_BASE,
    MAX78000_LR_LCTRL0,
    MAX78000_LR_MCNT,
    MAX78000_LR_TPTR,
    MAX78000_LR_EN,
    MAX78000_LR_POST
};

typedef struct max78000_quad {
    uint32_t ctrl, sram, lcnt_max, test, ifrm;
    uint32_t lreg[MAX78000_NLREG][MAX78000_NLAYER];
    uint32_t lctrl1[MAX78000_NLAYER];
    uint32_t strm0[MAX78000_NSTREAM], strm1[MAX78000_NSTREAM], fbuf[MAX78000_NSTREAM];
    uint8_t bram[MAX78000_BRAM_BYTES];
    uint16_t tram[16][MAX78000_TRAM_WORDS];
    uint8_t mram[16][MAX78000_MRAM_WORDS][9]; /* [i][w][slot]; slot 8 = W[71:64] */
    uint8_t stage[9];                         /* non-express staging register (D29) */
    /* mlator (3.12) */
    uint32_t mlat_ptr;
    bool mlat_primed;
    /* express loader (D30) */
    bool xp_valid;
    unsigned xp_proc, xp_word, xp_nbytes;
    uint8_t xp_buf[9];
} max78000_quad_t;

/* Logical (unwrapped) words of a circular streaming buffer in one data memory (max78000_stream.c). */
typedef struct max78000_sbuf {
    uint32_t *w;
    size_t n, cap;
} max78000_sbuf_t;

#define MAX78000_FIFO_DEPTH 8   /* D10 */
#define MAX78000_FFIFO_DEPTH 16 /* the fast FIFO: more than the threshold of 10 ai8xize sets (docs/max78000.md) */

typedef struct max78000 max78000_t;
/* Called after each layer's writes (before cnn_irq of the last layer is set). */
typedef void (*max78000_layer_hook_t)(void *ctx, const max78000_t *m, unsigned layer);

struct max78000 {
    uint32_t fifo_ctrl, aod_ctrl;
    max78000_quad_t q[MAX78000_NQUAD];
    uint32_t dmem[MAX78000_NDMEM][MAX78000_DMEM_WORDS];
    uint8_t dwritten[MAX78000_NDMEM][MAX78000_DMEM_WORDS]; /* byte lanes written by layers (bits 3:0) */
    unsigned next_layer;                                   /* oneshot: next layer to run */
    /* M3 FIFO input (D10, D46) and streaming (2.4), max78000_stream.c */
    uint32_t fifo[4][MAX78000_FIFO_DEPTH];
    unsigned fifo_level[4];
    bool fifo_wait; /* a started run waits for its layer-0 input from the FIFOs */
    unsigned fifo_master;
    uint32_t fifo_taken[4]; /* words taken into layer 0 by the waiting run */
    /* the fast FIFO (M3): FF_CR/FF_IE/FF_IS stored only; its words replace FIFO 0's while Q0 CTRL.ffifo_en */
    uint32_t ff_cr, ff_ie, ff_is;
    uint32_t ff[MAX78000_FFIFO_DEPTH];
    unsigned ff_level;
    max78000_sbuf_t lin[MAX78000_NDMEM], lout[MAX78000_NDMEM]; /* this layer's circular input, the next's */
    max78000_layer_hook_t hook;
    void *hook_ctx;
    /* Stop [M2] (max78000_stop_after): the run the model executed last, and what it found at its start */
    uint32_t (*prerun)[MAX78000_DMEM_WORDS];  /* its data memories at the start (heap, 512 KiB); NULL: none yet */
    bool run_stoppable;                       /* not streaming, no FIFO input, not yet stopped */
    unsigned run_master, run_first, run_last; /* its master quadrant and layers */
    uint8_t run_irq_set;                      /* quadrants whose cnn_irq its completion set, unwritten since */
    uint64_t run_layers0, run_macs0;          /* the statistics before it */
    /* statistics and diagnostics */
    uint64_t layers_run, runs, macs;
    char unsupported[160]; /* first unsupported feature met ("" if none) */
};

/* APB response of one access. */
typedef struct max78000_resp {
    uint32_t rdata;
    bool slverr;
    unsigned wait_states; /* D04: rdy_sel of the addressed window at the start of the access */
} max78000_resp_t;

/* Allocates (1.5 MB) and resets; NULL on allocation failure. */
max78000_t *max78000_new(void);
void max78000_free(max78000_t *m);
void max78000_reset(max78000_t *m); /* power-on reset (D09); keeps the hook */
void max78000_set_layer_hook(max78000_t *m, max78000_layer_hook_t hook, void *ctx);

max78000_resp_t max78000_apb_write(max78000_t *m, uint32_t addr, uint32_t data, uint8_t strb);
max78000_resp_t max78000_apb_read(max78000_t *m, uint32_t addr);
bool max78000_irq(const max78000_t *m); /* D06, with the FIFO interrupts (D10) */
/* True while a started run waits for FIFO input (the model is then "busy"). */
bool max78000_waiting(const max78000_t *m);

/* Spec 4, Stop [M2]: the run the model executed last (it runs whole at its start) was stopped by clearing the
 * master's cnn_en and ended after its layer `last_done`, the layer the DUT was in when the stop took effect. Its data
 * memories become those of the run stopped there, the cnn_irq bits its completion set are taken back and the next
 * start begins at layer 0. False, with the reason in why[], when that run cannot be stopped there (a streaming or
 * FIFO-input run, none, or a layer outside it). */
bool max78000_stop_after(max78000_t *m, unsigned last_done, char *why, size_t whylen);

/* Back-door access to data memory g (0..15), word w; used by scoreboards and tests. */
uint32_t max78000_dmem_word(const max78000_t *m, unsigned g, unsigned w);
/* Data-memory word at a system address; false if the address is not in a data SRAM. */
bool max78000_dmem_at(const max78000_t *m, uint32_t addr, uint32_t *value);
/* System address of data memory g word w. */
uint32_t max78000_dmem_addr(unsigned g, unsigned w);
/* MRAM word of global processor p (0..63) as {hi: bits 71:64, lo: bits 63:0}. */
void max78000_mram_word(const max78000_t *m, unsigned p, unsigned w, uint8_t *hi, uint64_t *lo);
void max78000_clear_written(max78000_t *m);

/* Runs layer y in all four quadrants (section 3.13); exposed for unit tests. No hook call, no cnn_irq. */
void max78000_run_layer(max78000_t *m, unsigned y);

/* The 8-bit output stage (spec 3.9) for a total at full precision; exposed for unit tests. */
int max78000_out8(int64_t total, int s, bool out_abs, bool relu);
/* Average pool of Tsum over N values (D34). */
int64_t max78000_avg(int64_t tsum, int64_t n, bool poolrnd);
#endif
