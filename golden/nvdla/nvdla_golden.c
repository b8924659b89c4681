#include "nvdla_golden.h"
#include "bdma_golden.h"
#include "cdp_golden.h"
#include "conv_golden.h"
#include "dp_atom32.h"
#include "nvdla_pp.h"
#include "pdp_golden.h"
#include "sdp_golden.h"
#include "sdp_lut.h"
#include "nvdla_regs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    BDMA_BASE = 0x10000,
    UNIT_WINDOW = 0x1000,
    GLB_INTR_SET = 0x1008,
    GLB_INTR_STATUS = 0x100C,
    GLB_LIVE_BITS = 0x3F00FF,
    DP_FIRST = 0x8000,
    DP_END = 0xE000,
    CDP_LUT_CFG = 0xD008,
    CDP_LUT_DATA = 0xD00C,
    SDP_LUT_CFG = 0x9008,
    SDP_LUT_DATA = 0x900C
};

/* The datapath ping-pong units, in window order from 0x8000. */
enum { U_SDP_RDMA, U_SDP, U_PDP_RDMA, U_PDP, U_CDP_RDMA, U_CDP, NDP };
/* Units with per-group result registers the model predicts: the datapath units, and CACC (D_OUT_SATURATION). */
enum { U_CACC = NDP, NRES };

struct nvdla_golden {
    mem_t *mem;
    bdma_golden_t bdma;
    nvdla_pp_t dp[NDP];
    nvdla_pp_t conv[CONV_NUNITS]; /* CDMA, CSC, CMAC_A, CMAC_B, CACC */
    nvdla_pp_t rbk;               /* RUBIK (nv_full): nv_full's register layout, stored as written */
    cdp_lut_t lut;
    sdp_lut_t sdp_lut; /* SDP's EW LUT (nv_full's; nv_small's RTL has none and the model never reads it there) */
    unsigned unsettled[NRES][2]; /* layers the model completed whose DUT completion is not yet seen */
    nvdla_box_t *boxes;
    size_t nboxes, cap, taken;
    uint32_t intr_expected;
    nvdla_layer_hook_t hook;
    void *hook_user;
    unsigned unmodelled_layers; /* convolution-fed SDP layers the model does not compute (refused) */
    unsigned conv_layers;       /* convolution layers computed since reset (coverage) */
    nvdla_conv_out_t *conv_out; /* since nvdla_golden_take_conv; each cube allocated */
    size_t nconv, capconv, conv_taken;
    uint32_t conv_banks;          /* CDMA.D_BANK of the last of them */
    bool result_unknown[NRES][2]; /* last layer of the group not modelled (its results unpredicted) */
    bool atom32;                  /* 32-byte atoms (nv_full): SDP and PDP through dp_atom32.h */
    char errors[1024];
};

nvdla_golden_t *nvdla_golden_new(mem_t *mem)
{
    nvdla_golden_t *g = calloc(1, sizeof *g);
    if (!g) abort();
    g->mem = mem;
    static const uint32_t op_en_off[NDP] = {0x008, 0x038, 0x008, 0x008, 0x008, 0x048};
    for (int u = 0; u < NDP; u++) nvdla_pp_init(&g->dp[u], DP_FIRST + 0x1000u * (uint32_t)u, op_en_off[u]);
    conv_golden_init(g->conv);
    /* our map has no RUBIK: every bit is kept, the configuration having applied nv_full's store masks */
    nvdla_pp_init(&g->rbk, NVDLA_RBK_MODEL_BASE, 0x008);
    for (int w = 0; w < NVDLA_PP_WORDS; w++) g->rbk.mask[w] = 0xFFFFFFFFu;
    return g;
}

void nvdla_golden_configure(nvdla_golden_t *g, const nvdla_golden_cfg_t *cfg)
{
    g->bdma.cvif = cfg->cvif;
    g->atom32 = cfg->atom_bytes == 32;
}

static void drop_taken_conv(nvdla_golden_t *g)
{
    for (size_t i = 0; i < g->conv_taken; i++) {
        nv_acc_cube_free(g->conv_out[i].acc);
        free(g->conv_out[i].acc);
    }
    memmove(g->conv_out, g->conv_out + g->conv_taken, (g->nconv - g->conv_taken) * sizeof *g->conv_out);
    g->nconv -= g->conv_taken;
    g->conv_taken = 0;
}

void nvdla_golden_free(nvdla_golden_t *g)
{
    if (!g) return;
    g->conv_taken = g->nconv;
    drop_taken_conv(g);
    free(g->conv_out);
    free(g->boxes);
    free(g);
}

static void emit_box(void *user, const nvdla_box_t *box)
{
    nvdla_golden_t *g = user;
    if (g->nboxes == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 32;
        g->boxes = realloc(g->boxes, g->cap * sizeof *g->boxes);
        if (!g->boxes) abort();
    }
    g->boxes[g->nboxes++] = *box;
}

static void note_error(void *user, const char *msg)
{
    nvdla_golden_t *g = user;
    size_t used = strlen(g->errors);
    snprintf(g->errors + used, sizeof g->errors - used, "%s%s", used ? "\n" : "", msg);
}

void nvdla_golden_set_layer_hook(nvdla_golden_t *g, nvdla_layer_hook_t hook, void *user)
{
    g->hook = hook;
    g->hook_user = user;
}

static void sample(nvdla_golden_t *g, const nvdla_layer_t *l)
{
    static const char *const actor[] = {
        [NVDLA_LAYER_BDMA] = "the golden model's BDMA",        [NVDLA_LAYER_SDP] = "the golden model's SDP",
        [NVDLA_LAYER_PDP] = "the golden model's PDP",          [NVDLA_LAYER_CDP] = "the golden model's CDP",
        [NVDLA_LAYER_CONV] = "the golden model's convolution", [NVDLA_LAYER_RUBIK] = "the golden model's RUBIK",
        [NVDLA_LAYER_CDP_LUT] = "the golden model's CDP",      [NVDLA_LAYER_SDP_LUT] = "the golden model's SDP"};
    mem_fence_actor(g->mem, actor[l->unit]); /* names the unit in a fence report (mem.h) */
    nvdla_layer_t seen = *l;
    seen.atom32 = g->atom32, seen.mem = g->mem;
    if (g->hook) g->hook(g->hook_user, &seen);
}

/* The ping-pong unit of a result unit (U_SDP.., U_CACC). */
static const nvdla_pp_t *result_pp(const nvdla_golden_t *g, int u)
{
    return u == U_CACC ? &g->conv[CONV_CACC] : &g->dp[u];
}

/* A layer of result unit u completed in the model: its result registers stay unchecked until the DUT's done
 * interrupt for that group is seen (nvdla_golden_done_seen). Returns the completed group. */
static int completed(nvdla_golden_t *g, int u)
{
    int grp = nvdla_pp_complete((nvdla_pp_t *)result_pp(g, u)); /* g is ours to modify: drop the const view */
    g->unsettled[u][grp]++;
    g->result_unknown[u][grp] = false;
    return grp;
}

/* The SDP layer of the CONSUMER group (input from memory through rdma, or flying from CACC with rdma supplying
 * only operand streams, possibly NULL), streamed into PDP on the fly when SDP outputs there; records SDP's
 * result registers and PDP's completion. The caller completes SDP (and SDP_RDMA). */
static void run_sdp(nvdla_golden_t *g, const nvdla_dp_ctx_t *ctx, const nvdla_pp_t *rdma, const nv_acc_cube_t *flying)
{
    nvdla_pp_t *sdp = &g->dp[U_SDP], *pr = &g->dp[U_PDP_RDMA], *pdp = &g->dp[U_PDP];
    const int grp = sdp->consumer;
    const bool to_pdp = sdp_golden_to_pdp(sdp);
    sdp_result_t res;
    nv_cube_t stream;
    mem_fence_actor(g->mem, flying ? "the golden model's convolution and SDP" : "the golden model's SDP");
    if (g->atom32) { /* from memory, to memory or to PDP on the fly (dp_atom32.h) */
        sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_SDP, .group = grp, .core = sdp, .rdma = rdma, .onfly = to_pdp});
        if (flying || !rdma)
            nv_dp_error(ctx, "SDP grp %d: input from the convolution: not computed for 32-byte atoms yet", grp);
        else {
            sdp_lut_stats_t st = {.prec = nvdla_pp_bits(sdp, NVDLA_SDP_D_DATA_FORMAT_0, 1, 0),
                                  .le_linear = nvdla_pp_bits(sdp, NVDLA_SDP_S_LUT_CFG_0, 0, 0)};
            if (!to_pdp) sdp32_run_lut(sdp, rdma, &g->sdp_lut, ctx, grp, &st);
            else {
                sample(g,
                       &(nvdla_layer_t){.unit = NVDLA_LAYER_PDP, .group = pdp->consumer, .core = pdp, .onfly = true});
                pdp32_fly_run(sdp, rdma, &g->sdp_lut, &st, pdp, ctx, grp, pdp->consumer);
                g->intr_expected |= 0x10u << completed(g, U_PDP);
            }
            uint64_t n = 0;
            for (int k = 0; k < SDP_LUT_OUTCOMES; k++) n += st.n[k];
            if (n) sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_SDP_LUT, .group = grp, .core = sdp, .sdp_lut = &st});
        }
        return;
    }
    sdp_golden_run(sdp, rdma, ctx, grp, flying, to_pdp ? &stream : NULL, &res);
    sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_SDP,
                               .group = grp,
                               .core = sdp,
                               .rdma = rdma,
                               .onfly = to_pdp,
                               .flying = flying != NULL,
                               .sdp_saturated = res.out_saturation});
    if (to_pdp) {
        sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_PDP, .group = pdp->consumer, .core = pdp, .onfly = true});
        pdp_golden_run(pdp, pr, ctx, pdp->consumer, &stream);
        nv_cube_free(&stream);
        g->intr_expected |= 0x10u << completed(g, U_PDP);
    }
    sdp->d[grp][(NVDLA_SDP_D_STATUS_0 & 0xFFF) / 4] = res.unequal;
    sdp->d[grp][(NVDLA_SDP_D_PERF_OUT_SATURATION_0 & 0xFFF) / 4] = res.out_saturation;
}

/* One convolution layer: CDMA..CACC of their CONSUMER groups feeding SDP (and PDP on the fly) of theirs. A layer
 * the model refuses (e.g. an image format it does not compute) is checked only by the stimulus' own CRC; its
 * interrupts are expected all the same. */
static void run_conv(nvdla_golden_t *g, const nvdla_dp_ctx_t *ctx)
{
    nvdla_pp_t *sr = &g->dp[U_SDP_RDMA];
    conv_layer_t L;
    nv_acc_cube_t acc;
    mem_fence_actor(g->mem, "the golden model's convolution");
    nvdla_pp_t *pdp = &g->dp[U_PDP];
    const bool to_pdp32 = g->atom32 && sdp_golden_to_pdp(&g->dp[U_SDP]); /* nv_full: conv -> SDP -> PDP */
    if (g->atom32) { /* nv_full: the layer's CDMA registers and its SDP, as nvdla_layer_t says */
        sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_CONV,
                                   .group = g->conv[CONV_CDMA].consumer,
                                   .core = &g->conv[CONV_CDMA],
                                   .rdma = &g->dp[U_SDP]});
        if (to_pdp32)
            sample(g, &(nvdla_layer_t){
                          .unit = NVDLA_LAYER_PDP, .group = pdp->consumer, .core = pdp, .onfly = true, .flying = true});
    }
    bool computed =
        g->atom32 ? conv32_run(g->conv, &g->dp[U_SDP], sr, pdp, ctx) : conv_golden_run(g->conv, ctx, &acc, &L);
    if (to_pdp32) g->intr_expected |= 0x10u << completed(g, U_PDP); /* PDP completes whether computed or not */
    if (computed && !g->atom32) {
        const uint32_t banks = nvdla_pp_reg(&g->conv[CONV_CDMA], NVDLA_CDMA_D_BANK_0);
        sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_CONV,
                                   .group = g->conv[CONV_CDMA].consumer,
                                   .core = &g->conv[CONV_CSC],
                                   .conv = &L,
                                   .conv_index = g->conv_layers,
                                   .bank_change = g->conv_layers == 0 || banks != g->conv_banks});
        g->conv_layers++, g->conv_banks = banks;
        run_sdp(g, ctx, nvdla_pp_ready(sr) ? sr : NULL, &acc); /* SDP_RDMA: operand streams only */
        if (g->nconv == g->capconv) {
            g->capconv = g->capconv ? 2 * g->capconv : 4;
            g->conv_out = realloc(g->conv_out, g->capconv * sizeof *g->conv_out);
            if (!g->conv_out) abort();
        }
        nv_acc_cube_t *kept = malloc(sizeof *kept);
        if (!kept) abort();
        *kept = acc;
        g->conv_out[g->nconv++] = (nvdla_conv_out_t){.group = g->conv[CONV_CDMA].consumer, .acc = kept};
        g->conv[CONV_CACC].d[g->conv[CONV_CACC].consumer][(NVDLA_CACC_D_OUT_SATURATION_0 & 0xFFF) / 4] = L.saturated;
    } else if (!computed) {
        g->unmodelled_layers++;
    }
    if (nvdla_pp_ready(sr)) nvdla_pp_complete(sr); /* its operand reads belong to this layer */
    const int sg = completed(g, U_SDP);
    g->intr_expected |= 0x1u << sg;
    g->result_unknown[U_SDP][sg] = !computed;
    const int cdma_g = nvdla_pp_complete(&g->conv[CONV_CDMA]);
    g->intr_expected |= (0x10000u | 0x40000u) << cdma_g; /* CDMA_DAT_DONE, CDMA_WT_DONE */
    for (int u = CONV_CSC; u < CONV_CACC; u++) nvdla_pp_complete(&g->conv[u]);
    const int cacc_g = completed(g, U_CACC);
    g->intr_expected |= 0x100000u << cacc_g; /* CACC_DONE */
    g->result_unknown[U_CACC][cacc_g] = !computed;
}

/* Runs every layer whose groups are enabled, in completion order (a completion may start the other
 * group at once, rule 6). SDP with output to PDP waits for PDP to be enabled on the fly. */
static void schedule(nvdla_golden_t *g)
{
    nvdla_dp_ctx_t ctx = {.mem = g->mem, .emit = emit_box, .error = note_error, .user = g};
    nvdla_pp_t *sr = &g->dp[U_SDP_RDMA], *sdp = &g->dp[U_SDP], *pr = &g->dp[U_PDP_RDMA], *pdp = &g->dp[U_PDP],
               *cr = &g->dp[U_CDP_RDMA], *cdp = &g->dp[U_CDP];
    for (bool ran = true; ran;) {
        ran = false;
        if (nvdla_pp_ready(sr) && sdp_golden_rdma_nothing(sr)) {
            nvdla_pp_complete(sr); /* no read stream enabled: done at once (NVIDIA NV_NVDLA_SDP_rdma.v) */
            ran = true;
        }
        if (nvdla_pp_ready(sdp) && sdp_golden_flying(sdp) && conv_golden_ready(g->conv) &&
            (!sdp_golden_to_pdp(sdp) || pdp_golden_onfly_ready(pdp))) {
            run_conv(g, &ctx);
            ran = true;
        }
        if (sdp_golden_runnable(sdp, sr) && (!sdp_golden_to_pdp(sdp) || pdp_golden_onfly_ready(pdp))) {
            run_sdp(g, &ctx, sr, NULL);
            nvdla_pp_complete(sr);
            g->intr_expected |= 0x1u << completed(g, U_SDP);
            ran = true;
        }
        if (pdp_golden_offfly_runnable(pdp, pr)) {
            sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_PDP, .group = pdp->consumer, .core = pdp, .rdma = pr});
            if (g->atom32) pdp32_run(pdp, pr, &ctx, pdp->consumer);
            else pdp_golden_run(pdp, pr, &ctx, pdp->consumer, NULL);
            nvdla_pp_complete(pr);
            g->intr_expected |= 0x10u << completed(g, U_PDP);
            ran = true;
        }
        if (cdp_golden_runnable(cdp, cr)) {
            sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_CDP, .group = cdp->consumer, .core = cdp, .rdma = cr});
            if (g->atom32) {
                cdp_lut_stats_t stats = {{0}, {0}};
                if (cdp32_run(cdp, cr, &g->lut, &ctx, cdp->consumer, &stats))
                    sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_CDP_LUT,
                                               .group = cdp->consumer,
                                               .core = cdp,
                                               .rdma = cr,
                                               .lut = &stats});
            } else cdp_golden_run(cdp, cr, &g->lut, &ctx, cdp->consumer);
            nvdla_pp_complete(cr);
            g->intr_expected |= 0x4u << completed(g, U_CDP);
            ran = true;
        }
    }
}

static void conv_write(nvdla_golden_t *g, uint32_t addr, uint32_t data)
{
    if (nvdla_pp_write(&g->conv[(addr - CONV_FIRST) / UNIT_WINDOW], addr, data)) schedule(g);
}

static void dp_write(nvdla_golden_t *g, uint32_t addr, uint32_t data)
{
    if (addr == CDP_LUT_CFG) cdp_lut_cfg_write(&g->lut, data);
    else if (addr == CDP_LUT_DATA) cdp_lut_data_write(&g->lut, data);
    else if (addr == SDP_LUT_CFG) sdp_lut_cfg_write(&g->sdp_lut, data);
    else if (addr == SDP_LUT_DATA) sdp_lut_data_write(&g->sdp_lut, data);
    if (nvdla_pp_write(&g->dp[(addr - DP_FIRST) / UNIT_WINDOW], addr, data)) schedule(g);
}

/* RUBIK's enabled groups, in order; done raises RUBIK_DONE (GLB status bits 8, 9). */
static void run_rubik(nvdla_golden_t *g)
{
    nvdla_dp_ctx_t ctx = {.mem = g->mem, .emit = emit_box, .error = note_error, .user = g};
    while (nvdla_pp_ready(&g->rbk)) {
        sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_RUBIK, .group = g->rbk.consumer, .core = &g->rbk});
        rubik32_run(&g->rbk, &ctx, g->rbk.consumer);
        g->intr_expected |= 0x100u << nvdla_pp_complete(&g->rbk);
    }
}

void nvdla_golden_write(nvdla_golden_t *g, uint32_t addr, uint32_t data)
{
    if (addr >= DP_FIRST && addr < DP_END) dp_write(g, addr, data);
    else if (addr >= CONV_FIRST && addr < CONV_END) conv_write(g, addr, data);
    else if (addr >= BDMA_BASE && addr < BDMA_BASE + UNIT_WINDOW) {
        if ((addr == BDMA_BASE + 0x34 || addr == BDMA_BASE + 0x38) && (data & 1) && g->bdma.queued) /* CFG_LAUNCH0/1 */
            sample(g, &(nvdla_layer_t){.unit = NVDLA_LAYER_BDMA,
                                       .group = addr == BDMA_BASE + 0x38,
                                       .cmds = g->bdma.queue,
                                       .ncmds = g->bdma.queued});
        g->intr_expected |= bdma_golden_write(&g->bdma, g->mem, addr - BDMA_BASE, data, emit_box, note_error, g);
    } else if (addr >= NVDLA_RBK_MODEL_BASE && addr < NVDLA_RBK_MODEL_BASE + UNIT_WINDOW) {
        if (nvdla_pp_write(&g->rbk, addr, data)) run_rubik(g);
    } else if (addr == GLB_INTR_SET) g->intr_expected |= data & GLB_LIVE_BITS;
    else if (addr == GLB_INTR_STATUS) g->intr_expected &= ~data;
}

const nvdla_box_t *nvdla_golden_boxes(const nvdla_golden_t *g, size_t *n)
{
    *n = g->nboxes;
    return g->boxes;
}

const nvdla_box_t *nvdla_golden_take_boxes(nvdla_golden_t *g, size_t *n)
{
    /* Boxes handed out by the previous call are dropped now: compact what came after them. */
    memmove(g->boxes, g->boxes + g->taken, (g->nboxes - g->taken) * sizeof *g->boxes);
    g->nboxes -= g->taken;
    g->taken = g->nboxes;
    *n = g->nboxes;
    return g->boxes;
}

const nvdla_conv_out_t *nvdla_golden_take_conv(nvdla_golden_t *g, size_t *n)
{
    drop_taken_conv(g);
    g->conv_taken = g->nconv;
    *n = g->nconv;
    return g->conv_out;
}

uint32_t nvdla_golden_intr_expected(const nvdla_golden_t *g) { return g->intr_expected; }

unsigned nvdla_golden_unmodelled(const nvdla_golden_t *g) { return g->unmodelled_layers; }
const char *nvdla_golden_errors(const nvdla_golden_t *g) { return g->errors; }

/* Per-group RO result registers (spec nvdla.md §4.2 rule 4) the model predicts, by unit. Values: CACC
 * D_OUT_SATURATION is computed by the convolution model (conv_golden.c); SDP D_STATUS and
 * D_PERF_OUT_SATURATION are computed (nvdla_datapath.md §2.7); the FP16 NaN/Inf counters are 0 for int8 and
 * the SDP LUT counters 0 (LUT compiled out, nvdla.md); PDP/CDP results are 0 as the RTL keeps them (the spec
 * defines no count for them). The timing-dependent D_PERF_*_WRITE_STALL counters are not predicted. */
static const struct {
    int unit;
    uint32_t addr;
} result_regs[] = {
    {U_SDP, NVDLA_SDP_D_STATUS_0},
    {U_SDP, NVDLA_SDP_D_STATUS_NAN_INPUT_NUM_0},
    {U_SDP, NVDLA_SDP_D_STATUS_INF_INPUT_NUM_0},
    {U_SDP, NVDLA_SDP_D_STATUS_NAN_OUTPUT_NUM_0},
    {U_SDP, NVDLA_SDP_D_PERF_LUT_UFLOW_0},
    {U_SDP, NVDLA_SDP_D_PERF_LUT_OFLOW_0},
    {U_SDP, NVDLA_SDP_D_PERF_OUT_SATURATION_0},
    {U_SDP, NVDLA_SDP_D_PERF_LUT_HYBRID_0},
    {U_SDP, NVDLA_SDP_D_PERF_LUT_LE_HIT_0},
    {U_SDP, NVDLA_SDP_D_PERF_LUT_LO_HIT_0},
    {U_PDP, NVDLA_PDP_D_INF_INPUT_NUM_0},
    {U_PDP, NVDLA_PDP_D_NAN_INPUT_NUM_0},
    {U_PDP, NVDLA_PDP_D_NAN_OUTPUT_NUM_0},
    {U_CDP, NVDLA_CDP_D_NAN_INPUT_NUM_0},
    {U_CDP, NVDLA_CDP_D_INF_INPUT_NUM_0},
    {U_CDP, NVDLA_CDP_D_NAN_OUTPUT_NUM_0},
    {U_CDP, NVDLA_CDP_D_OUT_SATURATION_0},
    {U_CDP, NVDLA_CDP_D_PERF_LUT_UFLOW_0},
    {U_CDP, NVDLA_CDP_D_PERF_LUT_OFLOW_0},
    {U_CDP, NVDLA_CDP_D_PERF_LUT_HYBRID_0},
    {U_CDP, NVDLA_CDP_D_PERF_LUT_LE_HIT_0},
    {U_CDP, NVDLA_CDP_D_PERF_LUT_LO_HIT_0},
    {U_CACC, NVDLA_CACC_D_OUT_SATURATION_0},
};

bool nvdla_golden_result(const nvdla_golden_t *g, uint32_t addr, uint32_t *expect)
{
    for (size_t i = 0; i < sizeof result_regs / sizeof *result_regs; i++) {
        if (result_regs[i].addr != addr) continue;
        const nvdla_pp_t *u = result_pp(g, result_regs[i].unit);
        if (g->unsettled[result_regs[i].unit][u->producer] || u->op_en[u->producer] ||
            g->result_unknown[result_regs[i].unit][u->producer])
            return false;
        *expect = u->d[u->producer][(addr & 0xFFF) / 4];
        return true;
    }
    return false;
}

void nvdla_golden_done_seen(nvdla_golden_t *g, uint32_t status)
{
    /* each result unit's GLB done bits: group 0 at `bit`, group 1 above it */
    static const struct {
        int bit, unit;
    } done_bit[] = {{0, U_SDP}, {2, U_CDP}, {4, U_PDP}, {20, U_CACC}};
    for (size_t i = 0; i < sizeof done_bit / sizeof *done_bit; i++)
        for (int grp = 0; grp < 2; grp++) {
            unsigned *n = &g->unsettled[done_bit[i].unit][grp];
            if ((status >> (done_bit[i].bit + grp) & 1) && *n) (*n)--;
        }
}

bool nvdla_box_locate(const nvdla_box_t *b, uint32_t addr, uint32_t *surf, uint32_t *line, uint32_t *off)
{
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

void nvdla_box_coord(const nvdla_box_t *b, uint32_t addr, char *buf, size_t n)
{
    uint32_t s, l, off;
    if (!nvdla_box_locate(b, addr, &s, &l, &off))
        snprintf(buf, n, "%s grp %d cmd %d (outside box)", b->unit, b->group, b->cmd);
    else if (b->kind == NVDLA_BOX_PACKED) /* 1x1 cube, surfaces contiguous: offset = channel */
        snprintf(buf, n, "%s grp %d c %u h 0 w 0", b->unit, b->group, off);
    else if (b->kind == NVDLA_BOX_CUBE)
        snprintf(buf, n, "%s grp %d c %u h %u w %u", b->unit, b->group, 8 * s + off % 8, l, off / 8);
    else snprintf(buf, n, "%s grp %d cmd %d surf %u line %u byte %u", b->unit, b->group, b->cmd, s, l, off);
}
