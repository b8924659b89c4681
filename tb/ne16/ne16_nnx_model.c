/* pulp-nnx test data and functional model in C (see ne16_nnx_model.h). */
#include "ne16_nnx_model.h"
#include <stdlib.h>
#include <string.h>

static int64_t wrap32(int64_t v) { return (int64_t)(int32_t)(uint32_t)(uint64_t)v; }

/* torch.randint(min, max): uniform over [min, max) of the type (NnxTestGenerator._generate_random). */
static int64_t draw(rng_t *g, unsigned bits, bool sgn)
{
    const uint64_t span = (1ull << bits) - 1; /* max - min: the high end is exclusive */
    const uint64_t u = bits == 32 ? (uint64_t)rng_next(g) % span : rng_below(g, (uint32_t)span);
    return sgn ? (int64_t)u - (int64_t)(1ll << (bits - 1)) : (int64_t)u;
}

static unsigned wci(const nnx_conf_t *c) { return c->depthwise ? 1 : c->in_c; }

void nnx_model_conv(const nnx_conf_t *c, const nnx_data_t *d, unsigned shift, unsigned out_bits, bool out_signed,
                    int64_t *out)
{
    const int64_t lo = out_signed ? -(1ll << (out_bits - 1)) : 0;
    const int64_t hi = out_signed ? (1ll << (out_bits - 1)) - 1 : (int64_t)((1ull << out_bits) - 1);
    for (unsigned oh = 0; oh < c->out_h; oh++)
        for (unsigned ow = 0; ow < c->out_w; ow++)
            for (unsigned co = 0; co < c->out_c; co++) {
                /* F.conv2d on the zero-padded input, in int64, then cast to the int32 accumulator */
                int64_t acc = 0;
                for (unsigned kh = 0; kh < c->k; kh++)
                    for (unsigned kw = 0; kw < c->k; kw++) {
                        const int ih = (int)(oh * c->stride + kh) - (int)c->pad_t;
                        const int iw = (int)(ow * c->stride + kw) - (int)c->pad_l;
                        if (ih < 0 || iw < 0 || ih >= (int)c->in_h || iw >= (int)c->in_w) continue;
                        const uint8_t *px = d->input + ((size_t)ih * c->in_w + (size_t)iw) * c->in_c;
                        for (unsigned ci = 0; ci < wci(c); ci++) {
                            const unsigned ch = c->depthwise ? co : ci;
                            const int8_t w = d->weight[(((size_t)co * wci(c) + ci) * c->k + kh) * c->k + kw];
                            acc += (int64_t)px[ch] * w;
                        }
                    }
                int64_t t = wrap32(acc);
                if (c->has_nq) { /* _norm_quant */
                    t *= (int64_t)d->scale[co];
                    if (c->has_bias) t = wrap32(wrap32(t) + d->bias[co]); /* int32 add: wraps, then the clamp is moot */
                    if (c->has_relu && t < 0) t = 0;
                    t >>= shift;
                    t = t < lo ? lo : t > hi ? hi : t;
                }
                out[((size_t)oh * c->out_w + ow) * c->out_c + co] = t;
            }
}

/* _calculate_global_shift: ceil(log2(std / 2^(bits-1))) clamped to 0..255, std unbiased (torch). The
 * smallest n >= 0 with std <= 2^(bits-1+n), compared on variances so no libm is needed; a zero or undefined
 * std (one element: NaN, cast to 0 by torch) gives 0. */
static unsigned global_shift(const int64_t *v, size_t n, unsigned bits)
{
    if (n < 2) return 0;
    double mean = 0, var = 0;
    for (size_t i = 0; i < n; i++) mean += (double)v[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++) var += ((double)v[i] - mean) * ((double)v[i] - mean);
    var /= (double)(n - 1);
    unsigned s = 0;
    double target = (double)(1ull << (bits - 1));
    while (s < 255 && var > target * target) {
        s++;
        target *= 2;
    }
    return s;
}

int nnx_data_make(const nnx_conf_t *c, rng_t *rng, nnx_data_t *d)
{
    memset(d, 0, sizeof *d);
    const size_t nin = (size_t)c->in_h * c->in_w * c->in_c, nw = (size_t)c->out_c * wci(c) * c->k * c->k;
    const size_t nout = (size_t)c->out_h * c->out_w * c->out_c;
    d->input = malloc(nin);
    d->weight = malloc(nw);
    d->scale = calloc(c->out_c, sizeof *d->scale);
    d->bias = calloc(c->out_c, sizeof *d->bias);
    d->output = malloc(nout * sizeof *d->output);
    if (!d->input || !d->weight || !d->scale || !d->bias || !d->output) {
        nnx_data_free(d);
        return -1;
    }
    /* generation order of from_conf: input (NCHW), weight, scale, bias */
    for (unsigned ch = 0; ch < c->in_c; ch++)
        for (unsigned i = 0; i < c->in_h * c->in_w; i++)
            d->input[(size_t)i * c->in_c + ch] = (uint8_t)draw(rng, 8, false);
    for (size_t i = 0; i < nw; i++) d->weight[i] = (int8_t)draw(rng, 8, true);
    if (c->has_nq) {
        for (unsigned k = 0; k < c->out_c; k++) d->scale[k] = (uint32_t)draw(rng, c->scale_bits, false);
        if (c->has_bias)
            for (unsigned k = 0; k < c->out_c; k++) d->bias[k] = (int32_t)draw(rng, 32, true);
        /* the shift that brings the int32 outputs (shift 0) into out_type's range */
        nnx_model_conv(c, d, 0, 32, true, d->output);
        d->shift = global_shift(d->output, nout, c->out_bits);
    }
    nnx_model_conv(c, d, d->shift, c->out_bits, c->out_signed, d->output);
    return 0;
}

void nnx_data_free(nnx_data_t *d)
{
    free(d->input);
    free(d->weight);
    free(d->scale);
    free(d->bias);
    free(d->output);
    memset(d, 0, sizeof *d);
}

size_t nnx_weight_encode(const nnx_conf_t *c, const int8_t *weight, uint8_t *out)
{
    /* depthwise: (cout, 1, h, w) transposed to (1, cout, h, w); cin padded to 16 (_CIN_SUBTILE); layout
     * (cout, cinMajor, bits, h*w, cinMinor) with 8 channels per byte, little bit order */
    const unsigned cout = c->depthwise ? 1 : c->out_c, cin = c->depthwise ? c->out_c : c->in_c;
    const unsigned hw = c->k * c->k, major = (cin + 15) / 16, bits = 8;
    const size_t size = (size_t)cout * major * bits * hw * 2;
    if (!out) return size;
    memset(out, 0, size);
    for (unsigned co = 0; co < cout; co++)
        for (unsigned ci = 0; ci < cin; ci++)
            for (unsigned s = 0; s < hw; s++) {
                const size_t src = c->depthwise ? (size_t)ci * hw + s : ((size_t)co * cin + ci) * hw + s;
                const unsigned u = (unsigned)(weight[src] + 128); /* weight - offset, offset = -2^(8-1) */
                for (unsigned b = 0; b < bits; b++) {
                    const size_t byte = ((((size_t)co * major + ci / 16) * bits + b) * hw + s) * 2 + (ci % 16) / 8;
                    out[byte] |= (uint8_t)((u >> b & 1u) << (ci % 8));
                }
            }
    return size;
}
