/* Compressed weights written for nv_full's convolution jobs (nvf_wt_cmp.h): the generator's own encoder, kept apart
 * from the golden model's decoder (golden/nvdla/conv_wcmp.c) so that a misreading of the format in one does not
 * hide in the other; the RTL decides between them. */
#ifndef NV_FULL_ABSENT
#include "nvf_wt_cmp.h"
#include <stdlib.h>
#include <string.h>

static uint32_t round_up(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

void nvf_wt_compress(program_t *p, rng_t *r, const uint8_t *dense, const nvf_wt_shape_t *s, uint64_t wt_at,
                     uint64_t wmb_at, uint64_t wgs_at, nvf_wt_cmp_t *out)
{
    const uint32_t elems = s->K * s->kelems, groups = (s->K + s->kg - 1) / s->kg;
    out->wmb_bytes = round_up((elems + 7) / 8, 128);
    uint8_t *wmb = calloc(out->wmb_bytes, 1), *cw = calloc((size_t)elems * s->esz + 128, 1),
            *wgs = calloc(round_up(4 * groups, 32), 1);
    if (!wmb || !cw || !wgs) abort();
    uint32_t e = 0, at = 0;
    out->explicit_zeros = 0;
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t gn = s->K - g * s->kg < s->kg ? s->K - g * s->kg : s->kg, start = at;
        for (uint32_t i = 0; i < gn * s->kelems; i++, e++) {
            const uint8_t *d = dense + (size_t)e * s->esz;
            const bool zero = d[0] == 0 && (s->esz == 1 || d[1] == 0);
            /* a zero may also be stored as an element with its bit set: the format allows it */
            if (zero && !(s->explicit_zero_pct && rng_chance(r, s->explicit_zero_pct))) continue;
            out->explicit_zeros += zero;
            wmb[e / 8] |= (uint8_t)(1u << (e % 8));
            memcpy(cw + at, d, s->esz);
            at += s->esz;
        }
        const uint32_t size = at - start;
        for (int b = 0; b < 4; b++) wgs[4 * g + b] = (uint8_t)(size >> (8 * b));
    }
    out->nonzero = at / s->esz;
    out->wt_bytes = round_up(at, 128);
    prog_mem(p, wt_at, cw, out->wt_bytes);
    prog_mem(p, wmb_at, wmb, out->wmb_bytes);
    prog_mem(p, wgs_at, wgs, round_up(4 * groups, 32));
    free(wmb), free(cw), free(wgs);
}
#endif
