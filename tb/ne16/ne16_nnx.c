/* Test `pulpnnx`: one pulp-nnx layer configuration run live through pulp-nnx's own NE16 driver (see
 * ne16_nnx_host.h). The driver programs the registers; the bench's golden model, fed from the APB monitor,
 * predicts every job's output and the scoreboard compares it (check_golden). On top, the expected output of
 * pulp-nnx's functional model (ne16_nnx_model.c) is compared with the DUT's memory and with the golden
 * model's, so that a disagreement names which of the three differs. */
#include "ne16_nnx_host.h"
#include "mem.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef NE16_PULP_NNX /* the run itself: only with pulp-nnx's driver built in (tb/ne16/pulpnnx/pulpnnx.mk) */
#define MAX_SHOWN 8
#define TCDM_BASE 0x00010000u

static uint32_t align(uint32_t a, uint32_t n) { return (a + n - 1) / n * n; }

/* Data placement: weights, then the input with room below it for the padding offset ne16_pad_addr takes
 * off, then the output, scale and bias, each 32-byte aligned. */
static void layout(nnx_run_t *r, size_t wbytes)
{
    const nnx_conf_t *c = &r->conf;
    r->a_weight = TCDM_BASE;
    const uint32_t below = (c->pad_t * c->in_w + c->pad_l) * c->in_c;
    r->a_input = align(r->a_weight + (uint32_t)wbytes + below + 64, 32);
    r->a_output = align(r->a_input + c->in_h * c->in_w * c->in_c + 64, 32);
    r->a_scale = align(r->a_output + c->out_h * c->out_w * c->out_c * c->out_bits / 8 + 64, 32);
    r->a_bias = align(r->a_scale + c->out_c * 4 + 64, 32);
}

static void load(drv_t *d, const nnx_run_t *r)
{
    const nnx_conf_t *c = &r->conf;
    const size_t wbytes = nnx_weight_encode(c, r->data.weight, NULL);
    uint8_t *w = malloc(wbytes);
    if (!w) drv_fail(d, "pulp-nnx: out of memory for %zu weight bytes", wbytes);
    nnx_weight_encode(c, r->data.weight, w);
    drv_mem_write(d, r->a_weight, w, wbytes);
    free(w);
    drv_mem_write(d, r->a_input, r->data.input, (size_t)c->in_h * c->in_w * c->in_c);
    if (c->has_nq) {
        for (unsigned k = 0; k < c->out_c; k++) {
            const uint32_t s = r->data.scale[k];
            const uint8_t b[4] = {(uint8_t)s, (uint8_t)(s >> 8), (uint8_t)(s >> 16), (uint8_t)(s >> 24)};
            drv_mem_write(d, r->a_scale + k * (c->scale_bits / 8), b, c->scale_bits / 8);
        }
        for (unsigned k = 0; c->has_bias && k < c->out_c; k++) {
            const uint32_t v = (uint32_t)r->data.bias[k];
            const uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
            drv_mem_write(d, r->a_bias + 4 * k, b, 4);
        }
    }
}

/* The functional model's output against memory m (the DUT's or the golden model's), element by element
 * with its coordinates. Returns the number of differing elements. */
static unsigned compare(drv_t *d, const nnx_run_t *r, const mem_t *m, const char *who)
{
    const nnx_conf_t *c = &r->conf;
    const unsigned ob = c->out_bits / 8;
    unsigned bad = 0;
    for (unsigned h = 0; h < c->out_h; h++)
        for (unsigned w = 0; w < c->out_w; w++)
            for (unsigned k = 0; k < c->out_c; k++) {
                const size_t i = ((size_t)h * c->out_w + w) * c->out_c + k;
                const uint32_t a = r->a_output + (uint32_t)(i * ob);
                uint32_t got = 0;
                for (unsigned b = 0; b < ob; b++) got |= (uint32_t)mem_read8(m, a + b) << (8 * b);
                const uint32_t want = (uint32_t)(uint64_t)r->data.output[i] & (ob == 4 ? 0xFFFFFFFFu : 0xFFu);
                if (got == want) continue;
                if (bad++ < MAX_SHOWN)
                    sim_error(drv_sim(d),
                              "pulp-nnx %s: functional model differs from the %s at h=%u w=%u k=%u "
                              "(0x%08x): expected 0x%0*x got 0x%0*x",
                              r->dir, who, h, w, k, a, (int)(2 * ob), want, (int)(2 * ob), got);
            }
    if (bad > MAX_SHOWN) sim_error(drv_sim(d), "pulp-nnx %s: %u elements differ from the %s in all", r->dir, bad, who);
    return bad;
}

static int nnx_main(drv_t *d, void *arg)
{
    nnx_run_t *r = arg;
    const nnx_conf_t *c = &r->conf;
    ne16_tb_set_driver(d);
    const char *base = strrchr(r->dir, '/');
    drv_job(d, "pulpnnx %.40s", base ? base + 1 : r->dir);
    sim_note(drv_sim(d),
             "pulp-nnx %s: %ux%ux%u -> %ux%ux%u, %ux%u%s stride %u, pad t%u b%u l%u r%u, out %sint%u%s%s%s, "
             "shift %u",
             r->dir, c->in_h, c->in_w, c->in_c, c->out_h, c->out_w, c->out_c, c->k, c->k,
             c->depthwise ? " depthwise" : "", c->stride, c->pad_t, c->pad_b, c->pad_l, c->pad_r,
             c->out_signed ? "" : "u", c->out_bits,
             c->has_nq ? c->scale_bits == 8 ? ", scale uint8" : ", scale uint32" : "", c->has_bias ? ", bias" : "",
             c->has_relu ? ", relu" : "", r->data.shift);
    load(d, r);
    nnx_layer_execute(r);
    /* pulp-nnx's model against ours (independent of the DUT), then the DUT against ours (the scoreboard, with
     * job coordinates, as a replay of the +dump trace reports it; a failure ends the run here), then the DUT
     * against pulp-nnx's model */
    sim_t *sim = drv_sim(d);
    const mem_t *gold = tb_acc_ops.golden_mem ? tb_acc_ops.golden_mem(sim_acc(sim)) : NULL;
    const unsigned bad_gold = gold ? compare(d, r, gold, "golden model") : 0;
    drv_check_golden(d);
    const unsigned bad_dut = compare(d, r, tb_acc_ops.dut_mem(sim_acc(sim)), "DUT");
    sim_note(sim, "pulp-nnx functional model: %u output elements; %u differ from the golden model, %u from the DUT",
             c->out_h * c->out_w * c->out_c, bad_gold, bad_dut);
    ne16_tb_set_driver(NULL);
    return 0;
}

static void run_free(void *arg)
{
    nnx_run_t *r = arg;
    nnx_data_free(&r->data);
    free(r);
}
#endif

int ne16_nnx_attach(sim_t *sim, program_t *p, uint64_t seed, char *err, size_t errlen)
{
    const char *dir = sim_plusarg(sim, "pulpnnx");
    if (!dir || !*dir) {
        snprintf(err, errlen, "test pulpnnx needs +pulpnnx=<folder with a conf.json> (make run ACC=ne16 PULPNNX=...)");
        return -1;
    }
#ifndef NE16_PULP_NNX
    snprintf(err, errlen,
             "test pulpnnx: pulp-nnx's driver was not built (no ../shared/upstream/pulp_nnx, or PULP_NNX=...)");
    (void)p, (void)seed;
    return -1;
#else
    nnx_run_t *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(r->dir, sizeof r->dir, "%s", dir);
    for (size_t n = strlen(r->dir); n > 1 && r->dir[n - 1] == '/'; n--) r->dir[n - 1] = 0;
    char path[300];
    snprintf(path, sizeof path, "%s/conf.json", r->dir);
    if (nnx_conf_load(path, &r->conf, err, errlen)) {
        free(r);
        return -1;
    }
    rng_t g;
    rng_seed_stream(&g, seed, "ne16.pulpnnx.data");
    if (nnx_data_make(&r->conf, &g, &r->data)) {
        free(r);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    layout(r, nnx_weight_encode(&r->conf, r->data.weight, NULL));
    drv_attach(p, sim, nnx_main, r, run_free, 0);
    return 0;
#endif
}
