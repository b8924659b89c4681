/* Compressed convolution weights expanded (conv_wcmp.h, where the format's evidence is). */
#include "conv_wcmp.h"
#include <stdio.h>
#include <string.h>

uint32_t conv_wmb_bytes(uint32_t K, uint32_t kelems)
{
    const uint64_t bits = (uint64_t)K * kelems;
    return (uint32_t)((bits + 1023) / 1024 * 128);
}

bool conv_wt_expand(const conv_wcmp_t *c, uint8_t *dense, char *why, size_t whylen)
{
    const uint64_t elems = (uint64_t)c->K * c->kelems;
    if (c->wmb_bytes != conv_wmb_bytes(c->K, c->kelems)) {
        snprintf(why, whylen, "WMB_BYTES %zu, not the %u bytes of a %llu-element bitmap (128-byte units)", c->wmb_bytes,
                 conv_wmb_bytes(c->K, c->kelems), (unsigned long long)elems);
        return false;
    }
    uint64_t e = 0, at = 0; /* element of the dense stream, byte of the compressed one */
    for (uint32_t g = 0; g * c->kg < c->K; g++) {
        const uint32_t gn = c->K - g * c->kg < c->kg ? c->K - g * c->kg : c->kg;
        const uint64_t start = at;
        for (uint64_t i = 0; i < (uint64_t)gn * c->kelems; i++, e++) {
            uint8_t *d = dense + e * c->esz;
            if (!(c->wmb[e / 8] >> (e % 8) & 1)) {
                memset(d, 0, c->esz);
                continue;
            }
            if (at + c->esz > c->wt_bytes) {
                snprintf(why, whylen, "the bitmap needs more than WEIGHT_BYTES %zu compressed bytes (group %u)",
                         c->wt_bytes, g);
                return false;
            }
            memcpy(d, c->wt + at, c->esz);
            at += c->esz;
        }
        const uint8_t *w = c->wgs + 4 * g;
        const uint32_t size = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
        if (size != at - start) {
            snprintf(why, whylen, "WGS of kernel group %u says %u bytes, its bitmap %llu", g, size,
                     (unsigned long long)(at - start));
            return false;
        }
    }
    if ((at + 127) / 128 * 128 != c->wt_bytes) {
        snprintf(why, whylen,
                 "WEIGHT_BYTES %zu, not the %llu compressed bytes rounded up to 128 (CSC reads every entry)",
                 c->wt_bytes, (unsigned long long)at);
        return false;
    }
    return true;
}
