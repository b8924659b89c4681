/* Decoded parameters of one quadrant's layer registers (spec sections 2.3 and 3). Used by the golden
 * model's layer arithmetic and by tests/generators that need the same derivations. */
#ifndef MAX78000_LAYER_H
#define MAX78000_LAYER_H
#include "max78000_golden.h"

typedef struct max78000_lp {
    /* geometry (3.5) */
    int rpad, cpad, H_in, W_in, ph, pw, st, H_p, W_p, kh, kw, H_out, W_out;
    bool pool, maxpool, poolrnd, chw;
    /* weights and loops (3.4) */
    unsigned T, osad, qb, X, NK, S, Nop;
    uint32_t mcnt_sad;
    /* enables and sums (3.8) */
    uint16_t mask_en, pro_en;
    unsigned cnnsi;
    bool writes; /* D36 */
    bool bias_en;
    unsigned bptr_sad;
    /* output (3.9, 3.10) */
    bool bigdwrt, relu, out_abs;
    int s; /* D25 */
    uint32_t wbase, toff, moff, choff, rptr, inc;
    /* M3 */
    bool ewise, prepool, conv2d, passthru, deconv;
    uint32_t roll, roll_next; /* circular buffers (2.4): FBUF of this layer's input, of the next layer's */
    unsigned ewise_func;
    bool valid; /* geometry and loop counts are usable (H_out, W_out, NK > 0 ...) */
} max78000_lp_t;

void max78000_layer_params(const max78000_t *m, unsigned q, unsigned y, max78000_lp_t *lp);

/* Weight of global processor p at mask address A, tap t (D32). */
int max78000_weight(const max78000_t *m, unsigned p, const max78000_lp_t *lp, uint32_t A, unsigned t);
#endif
