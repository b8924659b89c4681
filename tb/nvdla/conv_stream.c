#include "conv_stream.h"
#include "conv_golden.h"
#include <stdio.h>
#include <stdlib.h>

void conv_stream_push(conv_stream_t *s, int32_t value, bool layer_end)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v) abort();
    }
    s->v[s->n++] = value;
    s->layer_ends += layer_end;
}

void conv_stream_clear(conv_stream_t *s) { s->n = 0, s->layer_ends = 0; }

void conv_stream_free(conv_stream_t *s)
{
    free(s->v);
    *s = (conv_stream_t){0};
}

uint64_t conv_stream_compare(const conv_stream_t *s, const nvdla_conv_out_t *layers, size_t nlayers, char *msg,
                             size_t len)
{
    uint64_t bad = 0;
    size_t i = 0;
    msg[0] = 0;
    for (size_t l = 0; l < nlayers; l++) {
        const nv_acc_cube_t *a = layers[l].acc;
        for (uint32_t g = 0; g < a->s; g++)
            for (uint32_t y = 0; y < a->h; y++)
                for (uint32_t x = 0; x < a->w; x++)
                    for (uint32_t lane = 0; lane < 8; lane++, i++) {
                        const int32_t want = nv_acc_atom(a, g, y, x)[lane];
                        if (i < s->n && s->v[i] == want) continue;
                        if (!bad++) {
                            if (i < s->n)
                                snprintf(msg, len, "grp %d k %u h %u w %u: expected %d got %d", layers[l].group,
                                         g * 8 + lane, y, x, want, s->v[i]);
                            else
                                snprintf(msg, len, "grp %d: the stream ended after %zu values, at k %u h %u w %u",
                                         layers[l].group, s->n, g * 8 + lane, y, x);
                        }
                    }
    }
    if (s->n > i) {
        if (!bad++) snprintf(msg, len, "%zu values more than the %zu of the model's layers", s->n - i, i);
    } else if (!bad && s->layer_ends != nlayers) {
        bad++;
        snprintf(msg, len, "%u value(s) flagged layer end for %zu layer(s)", s->layer_ends, nlayers);
    } else if (!bad) {
        snprintf(msg, len, "%zu values of %zu layer(s) agree", i, nlayers);
    }
    return bad;
}
