#include "nvdla_golden.h"
#include "bdma_golden.h"
#include "cdp_golden.h"
#include "nvdla_pp.h"
#include "pdp_golden.h"
#include "sdp_golden.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BDMA_BASE = 0x10000, UNIT_WINDOW = 0x1000, GLB_INTR_SET = 0x1008, GLB_INTR_STATUS = 0x100C,
       GLB_LIVE_BITS = 0x3F00FF, DP_FIRST = 0x8000, DP_END = 0xE000, CDP_LUT_CFG = 0xD008, CDP_LUT_DATA = 0xD00C };

/* The datapath ping-pong units, in window order from 0x8000. */
enum { U_SDP_RDMA, U_SDP, U_PDP_RDMA, U_PDP, U_CDP_RDMA, U_CDP, NDP };

struct nvdla_golden {
    mem_t        *mem;
    bdma_golden_t bdma;
    nvdla_pp_t    dp[NDP];
    cdp_lut_t     lut;
    uint32_t      sdp_unequal[2];          /* D_STATUS.STATUS_UNEQUAL per group, last completion */
    nvdla_box_t  *boxes;
    size_t        nboxes, cap, taken;
    uint32_t      intr_expected;
    unsigned      unmodelled_layers;       /* convolution-fed SDP layers (no convolution model yet) */
    char          errors[1024];
};

nvdla_golden_t *nvdla_golden_new(mem_t *mem) {
    nvdla_golden_t *g = calloc(1, sizeof *g);
    if (!g) abort();
    g->mem = mem;
    static const uint32_t op_en_off[NDP] = {0x008, 0x038, 0x008, 0x008, 0x008, 0x048};
    for (int u = 0; u < NDP; u++) nvdla_pp_init(&g->dp[u], DP_FIRST + 0x1000u * (uint32_t)u, op_en_off[u]);
    return g;
}

void nvdla_golden_free(nvdla_golden_t *g) {
    if (!g) return;
    free(g->boxes);
    free(g);
}

static void emit_box(void *user, const nvdla_box_t *box) {
    nvdla_golden_t *g = user;
    if (g->nboxes == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 32;
        g->boxes = realloc(g->boxes, g->cap * sizeof *g->boxes);
        if (!g->boxes) abort();
    }
    g->boxes[g->nboxes++] = *box;
}

static void note_error(void *user, const char *msg) {
    nvdla_golden_t *g = user;
    size_t used = strlen(g->errors);
    snprintf(g->errors + used, sizeof g->errors - used, "%s%s", used ? "\n" : "", msg);
}

/* Runs every layer whose groups are enabled, in completion order (a completion may start the other
 * group at once, rule 6). SDP with output to PDP waits for PDP to be enabled on the fly. */
static void schedule(nvdla_golden_t *g) {
    nvdla_dp_ctx_t ctx = {.mem = g->mem, .emit = emit_box, .error = note_error, .user = g};
    nvdla_pp_t *sr = &g->dp[U_SDP_RDMA], *sdp = &g->dp[U_SDP], *pr = &g->dp[U_PDP_RDMA], *pdp = &g->dp[U_PDP],
               *cr = &g->dp[U_CDP_RDMA], *cdp = &g->dp[U_CDP];
    for (bool ran = true; ran;) {
        ran = false;
        if (nvdla_pp_ready(sr) && sdp_golden_rdma_nothing(sr)) {
            nvdla_pp_complete(sr);   /* no read stream enabled: done at once (NVIDIA NV_NVDLA_SDP_rdma.v) */
            ran = true;
        }
        if (nvdla_pp_ready(sdp) && sdp_golden_flying(sdp)) {
            /* Fed on the fly by CACC: the convolution pipeline is not modelled yet, so this layer's output is
             * checked only by the stimulus' own CRC; its completion interrupt is expected. */
            g->intr_expected |= 0x1u << nvdla_pp_complete(sdp);
            if (nvdla_pp_ready(sr)) nvdla_pp_complete(sr);   /* its operand reads belong to this layer */
            g->unmodelled_layers++;
            ran = true;
        }
        if (sdp_golden_runnable(sdp, sr) && (!sdp_golden_to_pdp(sdp) || pdp_golden_onfly_ready(pdp))) {
            bool uneq = false;
            int grp = sdp->consumer;
            if (sdp_golden_to_pdp(sdp)) {
                nv_cube_t stream;
                sdp_golden_run(sdp, sr, &ctx, grp, &stream, &uneq);
                pdp_golden_run(pdp, pr, &ctx, pdp->consumer, &stream);
                nv_cube_free(&stream);
                g->intr_expected |= 0x10u << nvdla_pp_complete(pdp);
            } else {
                sdp_golden_run(sdp, sr, &ctx, grp, NULL, &uneq);
            }
            g->sdp_unequal[grp] = uneq;
            nvdla_pp_complete(sr);
            g->intr_expected |= 0x1u << nvdla_pp_complete(sdp);
            ran = true;
        }
        if (pdp_golden_offfly_runnable(pdp, pr)) {
            pdp_golden_run(pdp, pr, &ctx, pdp->consumer, NULL);
            nvdla_pp_complete(pr);
            g->intr_expected |= 0x10u << nvdla_pp_complete(pdp);
            ran = true;
        }
        if (cdp_golden_runnable(cdp, cr)) {
            cdp_golden_run(cdp, cr, &g->lut, &ctx, cdp->consumer);
            nvdla_pp_complete(cr);
            g->intr_expected |= 0x4u << nvdla_pp_complete(cdp);
            ran = true;
        }
    }
}

static void dp_write(nvdla_golden_t *g, uint32_t addr, uint32_t data) {
    if (addr == CDP_LUT_CFG) cdp_lut_cfg_write(&g->lut, data);
    else if (addr == CDP_LUT_DATA) cdp_lut_data_write(&g->lut, data);
    if (nvdla_pp_write(&g->dp[(addr - DP_FIRST) / UNIT_WINDOW], addr, data)) schedule(g);
}

void nvdla_golden_write(nvdla_golden_t *g, uint32_t addr, uint32_t data) {
    if (addr >= DP_FIRST && addr < DP_END)
        dp_write(g, addr, data);
    else if (addr >= BDMA_BASE && addr < BDMA_BASE + UNIT_WINDOW)
        g->intr_expected |= bdma_golden_write(&g->bdma, g->mem, addr - BDMA_BASE, data, emit_box, note_error, g);
    else if (addr == GLB_INTR_SET)
        g->intr_expected |= data & GLB_LIVE_BITS;
    else if (addr == GLB_INTR_STATUS)
        g->intr_expected &= ~data;
}

const nvdla_box_t *nvdla_golden_take_boxes(nvdla_golden_t *g, size_t *n) {
    /* Boxes handed out by the previous call are dropped now: compact what came after them. */
    memmove(g->boxes, g->boxes + g->taken, (g->nboxes - g->taken) * sizeof *g->boxes);
    g->nboxes -= g->taken;
    g->taken = g->nboxes;
    *n = g->nboxes;
    return g->boxes;
}

uint32_t nvdla_golden_intr_expected(const nvdla_golden_t *g) { return g->intr_expected; }

unsigned nvdla_golden_unmodelled(const nvdla_golden_t *g) { return g->unmodelled_layers; }
const char *nvdla_golden_errors(const nvdla_golden_t *g) { return g->errors; }

bool nvdla_golden_sdp_unequal(const nvdla_golden_t *g, int group) { return g->sdp_unequal[group & 1]; }

bool nvdla_box_locate(const nvdla_box_t *b, uint32_t addr, uint32_t *surf, uint32_t *line, uint32_t *off) {
    for (uint32_t s = 0; s < b->surfs; s++) {
        uint32_t rel = addr - (b->addr + s * b->surf_stride);
        uint32_t l = b->line_stride ? rel / b->line_stride : 0;
        if (l >= b->lines || rel - l * b->line_stride >= b->line_bytes) continue;
        if (surf) *surf = s;
        if (line) *line = l;
        if (off) *off = rel - l * b->line_stride;
        return true;
    }
    return false;
}

void nvdla_box_coord(const nvdla_box_t *b, uint32_t addr, char *buf, size_t n) {
    uint32_t s, l, off;
    if (!nvdla_box_locate(b, addr, &s, &l, &off))
        snprintf(buf, n, "%s grp %d cmd %d (outside box)", b->unit, b->group, b->cmd);
    else if (b->kind == NVDLA_BOX_PACKED)             /* 1x1 cube, surfaces contiguous: offset = channel */
        snprintf(buf, n, "%s grp %d c %u h 0 w 0", b->unit, b->group, off);
    else if (b->kind == NVDLA_BOX_CUBE)
        snprintf(buf, n, "%s grp %d c %u h %u w %u", b->unit, b->group, 8 * s + off % 8, l, off / 8);
    else
        snprintf(buf, n, "%s grp %d cmd %d surf %u line %u byte %u", b->unit, b->group, b->cmd, s, l, off);
}
