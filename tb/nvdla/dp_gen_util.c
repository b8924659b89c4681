#include "dp_gen_util.h"
#include "nvdla_regs.h"
#include <stdio.h>
#include <stdlib.h>

void dp_put(dp_wlist_t *l, uint32_t addr, uint32_t value)
{
    if (l->n == sizeof l->w / sizeof *l->w) {
        fprintf(stderr, "dp_gen_util: register list full at 0x%05x\n", addr);
        abort();
    }
    l->w[l->n].a = addr;
    l->w[l->n++].v = value;
}

void dp_emit_shuffled(program_t *p, rng_t *r, dp_wlist_t *l)
{
    for (size_t i = l->n; i > 1; i--) {
        size_t j = rng_below(r, (uint32_t)i);
        __typeof__(l->w[0]) t = l->w[i - 1];
        l->w[i - 1] = l->w[j];
        l->w[j] = t;
    }
    for (size_t i = 0; i < l->n; i++) prog_write(p, l->w[i].a, l->w[i].v);
    l->n = 0;
}

void dp_fill_random(program_t *p, rng_t *r, uint32_t addr, uint32_t size)
{
    uint8_t *b = malloc(size);
    if (!b) abort();
    for (uint32_t i = 0; i < size; i++) b[i] = (uint8_t)rng_next(r);
    prog_mem(p, addr, b, size);
    free(b);
}

void dp_strides_atom(rng_t *r, uint32_t w, uint32_t h, uint32_t atom, uint32_t *ls, uint32_t *ss)
{
    *ls = w * atom + atom * (rng_chance(r, 50) ? 0 : rng_range(r, 1, 4));
    *ss = h * *ls + atom * (rng_chance(r, 50) ? 0 : rng_range(r, 1, 6));
}

void dp_strides(rng_t *r, uint32_t w, uint32_t h, uint32_t *ls, uint32_t *ss) { dp_strides_atom(r, w, h, 8, ls, ss); }

uint32_t dp_footprint_atom(uint32_t w, uint32_t h, uint32_t s, uint32_t ls, uint32_t ss, uint32_t atom)
{
    return (s - 1) * ss + (h - 1) * ls + w * atom;
}

uint32_t dp_footprint(uint32_t w, uint32_t h, uint32_t s, uint32_t ls, uint32_t ss)
{
    return dp_footprint_atom(w, h, s, ls, ss, 8);
}

uint32_t dp_junk(rng_t *r) { return (uint32_t)rng_next(r); }

void dp_read_results(program_t *p, dp_unit_t unit)
{
    static const uint32_t sdp[] = {NVDLA_SDP_D_STATUS_0,
                                   NVDLA_SDP_D_STATUS_NAN_INPUT_NUM_0,
                                   NVDLA_SDP_D_STATUS_INF_INPUT_NUM_0,
                                   NVDLA_SDP_D_STATUS_NAN_OUTPUT_NUM_0,
                                   NVDLA_SDP_D_PERF_LUT_UFLOW_0,
                                   NVDLA_SDP_D_PERF_LUT_OFLOW_0,
                                   NVDLA_SDP_D_PERF_OUT_SATURATION_0,
                                   NVDLA_SDP_D_PERF_LUT_HYBRID_0,
                                   NVDLA_SDP_D_PERF_LUT_LE_HIT_0,
                                   NVDLA_SDP_D_PERF_LUT_LO_HIT_0,
                                   0},
                          pdp[] = {NVDLA_PDP_D_INF_INPUT_NUM_0, NVDLA_PDP_D_NAN_INPUT_NUM_0,
                                   NVDLA_PDP_D_NAN_OUTPUT_NUM_0, 0},
                          cdp[] = {NVDLA_CDP_D_NAN_INPUT_NUM_0,   NVDLA_CDP_D_INF_INPUT_NUM_0,
                                   NVDLA_CDP_D_NAN_OUTPUT_NUM_0,  NVDLA_CDP_D_OUT_SATURATION_0,
                                   NVDLA_CDP_D_PERF_LUT_UFLOW_0,  NVDLA_CDP_D_PERF_LUT_OFLOW_0,
                                   NVDLA_CDP_D_PERF_LUT_HYBRID_0, NVDLA_CDP_D_PERF_LUT_LE_HIT_0,
                                   NVDLA_CDP_D_PERF_LUT_LO_HIT_0, 0};
    static const uint32_t *const regs[] = {sdp, pdp, cdp};
    static const uint32_t pointer[] = {NVDLA_SDP_S_POINTER_0, NVDLA_PDP_S_POINTER_0, NVDLA_CDP_S_POINTER_0};
    /* Each result read follows a read of the group's destination address (nonzero once programmed), so that a
     * read path that returns its previous data instead of the register shows up as a mismatch. */
    static const uint32_t dst[] = {NVDLA_SDP_D_DST_BASE_ADDR_LOW_0, NVDLA_PDP_D_DST_BASE_ADDR_LOW_0,
                                   NVDLA_CDP_D_DST_BASE_ADDR_LOW_0};
    for (uint32_t g = 0; g < 2; g++) {
        prog_write(p, pointer[unit], g);
        for (const uint32_t *a = regs[unit]; *a; a++) {
            prog_read(p, dst[unit], 0, 0);
            prog_read(p, *a, 0, 0);
        }
    }
}
