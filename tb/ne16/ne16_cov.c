/* NE16 functional coverage: crosses over the 6.1 configuration space, 6.2 error codes and queue scenarios. */
#include "ne16_cov.h"
#include <stdlib.h>
#include <string.h>

enum { MAXD = 4, MAXBINS = 64 };

typedef struct dim {
    const char *name;
    unsigned n;
    const char *const *labels;
} dim_t;

static const char *const L_MODE[] = {"3x3", "dw", "1x1", "linear"};
static const char *const L_MODE_SP[] = {"3x3", "dw", "1x1"};         /* spatial modes */
static const char *const L_MODE_PAD[] = {"3x3", "dw"};               /* padding and filter mask */
static const char *const L_MODE_KI[] = {"3x3", "1x1", "linear"};     /* Ki tiling (DW has none) */
static const char *const L_QW[] = {"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"};
static const char *const L_IN[] = {"u8", "u16"};
static const char *const L_BITS[] = {"8", "16", "32"};
static const char *const L_SO[] = {"raw", "normquant"};
static const char *const L_OFFON[] = {"off", "on"};
static const char *const L_SIDE[] = {"top", "right", "bottom", "left"};
static const char *const L_STRIDE[] = {"s1", "s2"};
static const char *const L_WOFFS[] = {"symmetric", "layer"};
static const char *const L_TILES[] = {"one", "many"};
static const char *const L_CODE[] = {"quant_bits", "norm_bits", "filter_mode", "nb_zero", "rem_range",
                                     "streamin", "mode16_dw"};
static const char *const L_QUEUE[] = {"back_to_back", "acquire_full", "acquire_open", "commit_only",
                                      "auto_trigger", "clear_idle", "clear_open", "clear_running", "clear_held",
                                      "clear_zero", "sw_sync", "ctx_reuse"};

#define D(name, labels) {name, sizeof labels / sizeof *labels, labels}
enum { X_MODE_QW, X_MODE_IN, X_MODE_OUT, X_NORM_QUANT, X_NQ_FLAGS, X_PAD, X_STRIDE, X_FMASK, X_STREAMIN,
       X_WOFFS, X_KO_TILES, X_KI_TILES, X_SP_TILES, X_ILLEGAL, X_QUEUE, X_N };

static const struct cross {
    const char *name;
    unsigned nd;
    dim_t d[MAXD];
} crosses[X_N] = {
    [X_MODE_QW] = {"mode_x_weight_bits", 2, {D("mode", L_MODE), D("qw", L_QW)}},
    [X_MODE_IN] = {"mode_x_input", 2, {D("mode", L_MODE), D("in", L_IN)}},
    [X_MODE_OUT] = {"mode_x_output_bits_x_streamout", 3, {D("mode", L_MODE), D("out", L_BITS), D("so", L_SO)}},
    [X_NORM_QUANT] = {"norm_bits_x_quant_bits", 2, {D("norm", L_BITS), D("quant", L_BITS)}},
    [X_NQ_FLAGS] = {"bias_x_shift_x_round_x_rect", 4,
                    {D("bias", L_OFFON), D("norm_shift", L_OFFON), D("round", L_OFFON), D("keep_sign", L_OFFON)}},
    [X_PAD] = {"mode_x_padding_side", 2, {D("mode", L_MODE_PAD), D("side", L_SIDE)}},
    [X_STRIDE] = {"mode_x_stride", 2, {D("mode", L_MODE_SP), D("stride", L_STRIDE)}},
    [X_FMASK] = {"mode_x_filter_mask", 2, {D("mode", L_MODE_PAD), D("mask", L_OFFON)}},
    [X_STREAMIN] = {"mode_x_streamin", 2, {D("mode", L_MODE), D("streamin", L_OFFON)}},
    [X_WOFFS] = {"mode_x_weight_offset", 2, {D("mode", L_MODE), D("woffs", L_WOFFS)}},
    [X_KO_TILES] = {"mode_x_ko_subtiles", 2, {D("mode", L_MODE), D("ko", L_TILES)}},
    [X_KI_TILES] = {"mode_x_ki_subtiles", 2, {D("mode", L_MODE_KI), D("ki", L_TILES)}},
    [X_SP_TILES] = {"mode_x_spatial_subtiles", 2, {D("mode", L_MODE_SP), D("hw", L_TILES)}},
    [X_ILLEGAL] = {"illegal_job_code", 1, {D("code", L_CODE)}},
    [X_QUEUE] = {"queue_scenario", 1, {D("scenario", L_QUEUE)}},
};

struct ne16_cov {
    uint64_t count[X_N][MAXBINS];
};

/* Bins the spec does not allow are not bins at all. */
static int allowed(unsigned x, const unsigned *v)
{
    if (x == X_MODE_IN && v[0] == 1 && v[1] == 1) return 0;   /* D20: MODE16 with depthwise is illegal */
    return 1;
}

static unsigned nbins(unsigned x)
{
    unsigned n = 1;
    for (unsigned i = 0; i < crosses[x].nd; i++) n *= crosses[x].d[i].n;
    return n;
}

static void decode_bin(unsigned x, unsigned b, unsigned *v)
{
    for (int i = (int)crosses[x].nd - 1; i >= 0; i--) {
        v[i] = b % crosses[x].d[i].n;
        b /= crosses[x].d[i].n;
    }
}

static void hit(ne16_cov_t *c, unsigned x, unsigned v0, unsigned v1, unsigned v2, unsigned v3)
{
    const unsigned v[MAXD] = {v0, v1, v2, v3};
    unsigned b = 0;
    for (unsigned i = 0; i < crosses[x].nd; i++) b = b * crosses[x].d[i].n + v[i];
    if (b < MAXBINS) c->count[x][b]++;
}

ne16_cov_t *ne16_cov_new(void) { return calloc(1, sizeof(ne16_cov_t)); }
void ne16_cov_free(ne16_cov_t *c) { free(c); }
void ne16_cov_queue(ne16_cov_t *c, ne16_qcov_t what) { hit(c, X_QUEUE, what, 0, 0, 0); }

static unsigned bits_idx(unsigned code) { return code > 2 ? 2 : code; }

void ne16_cov_job(ne16_cov_t *c, const uint32_t regs[NE16_NUM_JOB_REGS], int code)
{
    ne16_job_cfg_t k;
    ne16_job_decode(regs, &k);
    if (code) {
        if (code >= 1 && code <= 7) hit(c, X_ILLEGAL, (unsigned)code - 1, 0, 0, 0);
        return;
    }
    const unsigned mode = k.linear ? 3 : k.filter_mode;   /* 0 3x3, 1 dw, 2 1x1, 3 linear */
    hit(c, X_MODE_QW, mode, k.qw - 1, 0, 0);
    hit(c, X_MODE_IN, mode, k.mode16, 0, 0);
    hit(c, X_MODE_OUT, mode, bits_idx(k.quant_bits), k.streamout, 0);
    if (k.streamout) {
        hit(c, X_NORM_QUANT, bits_idx(k.norm_bits), bits_idx(k.quant_bits), 0, 0);
        hit(c, X_NQ_FLAGS, k.norm_bias, k.norm_shift, k.round, k.quant_rect);
    }
    if (mode <= 1) {
        if (k.pad_top) hit(c, X_PAD, mode, 0, 0, 0);
        if (k.pad_right) hit(c, X_PAD, mode, 1, 0, 0);
        if (k.pad_bottom) hit(c, X_PAD, mode, 2, 0, 0);
        if (k.pad_left) hit(c, X_PAD, mode, 3, 0, 0);
        hit(c, X_FMASK, mode, (k.mask_top | k.mask_right | k.mask_bottom | k.mask_left) != 0, 0, 0);
    }
    if (mode <= 2) {
        hit(c, X_STRIDE, mode, k.strided, 0, 0);
        hit(c, X_SP_TILES, mode, k.nb_ho * k.nb_wo > 1, 0, 0);
    }
    hit(c, X_STREAMIN, mode, k.streamin, 0, 0);
    hit(c, X_WOFFS, mode, k.weight_offs, 0, 0);
    hit(c, X_KO_TILES, mode, k.nb_ko > 1, 0, 0);
    if (mode != 1) hit(c, X_KI_TILES, mode == 0 ? 0 : mode == 2 ? 1 : 2, k.nb_ki > 1, 0, 0);
}

static void bin_label(unsigned x, unsigned b, char *buf, size_t n)
{
    unsigned v[MAXD] = {0};
    decode_bin(x, b, v);
    size_t used = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < crosses[x].nd && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s=%s", i ? "," : "", crosses[x].d[i].name,
                                 crosses[x].d[i].labels[v[i]]);
}

void ne16_cov_write(const ne16_cov_t *c, FILE *f, const char *test, uint64_t seed)
{
    fprintf(f, "# ne16 coverage: test %s seed %llu\n", test ? test : "", (unsigned long long)seed);
    for (unsigned x = 0; x < X_N; x++)
        for (unsigned b = 0; b < nbins(x); b++) {
            unsigned v[MAXD] = {0};
            decode_bin(x, b, v);
            if (!allowed(x, v)) continue;
            char label[160];
            bin_label(x, b, label, sizeof label);
            fprintf(f, "%s %s %llu\n", crosses[x].name, label, (unsigned long long)c->count[x][b]);
        }
}

unsigned ne16_cov_bins(const ne16_cov_t *c)
{
    (void)c;
    unsigned n = 0;
    for (unsigned x = 0; x < X_N; x++)
        for (unsigned b = 0; b < nbins(x); b++) {
            unsigned v[MAXD] = {0};
            decode_bin(x, b, v);
            n += (unsigned)allowed(x, v);
        }
    return n;
}

unsigned ne16_cov_hit(const ne16_cov_t *c)
{
    unsigned n = 0;
    for (unsigned x = 0; x < X_N; x++)
        for (unsigned b = 0; b < nbins(x); b++) {
            unsigned v[MAXD] = {0};
            decode_bin(x, b, v);
            n += allowed(x, v) && c->count[x][b] > 0;
        }
    return n;
}
