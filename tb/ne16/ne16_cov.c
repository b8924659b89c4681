/* NE16 functional coverage: crosses over the 6.1 configuration space, 6.2 error codes and queue scenarios. */
#include "ne16_cov.h"
#include <stdlib.h>
#include <string.h>

enum { MAXD = 8 };

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
enum { X_MODE_QW, X_MODE_IN, X_MODE_OUT, X_NORM_QUANT, X_NQ_FLAGS, X_FULL, X_PAD, X_STRIDE, X_FMASK, X_STREAMIN,
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
    /* The full product of the numeric configuration (the NE16 issue's "Done when"). Dimension order is the
     * bin order ne16_cov_full_bin enumerates; the cross_sweep test depends on it only through that API. */
    [X_FULL] = {NE16_COV_FULL_NAME, 8,
                {D("mode", L_MODE), D("qw", L_QW), D("in", L_IN), D("norm", L_BITS), D("quant", L_BITS),
                 D("bias", L_OFFON), D("shift", L_OFFON), D("round", L_OFFON)}},
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
    unsigned  off[X_N + 1];   /* first counter of each cross in count[] */
    uint64_t *count;
};

/* Bins the spec does not allow are not bins at all.
 * Full cross (X_FULL), dimension by dimension against spec ne16.md 6.1, 6.2 and the decision log:
 *   - mode: FILTER_MODE 00/01/10 and LINEAR=1 are the four modes; FILTER_MODE=11 (6.2 code 3) is not a label.
 *     STRIDED_2X2 is a separate CONFIG0 bit (bit 8, "store only the four corner pixels"), not a filter mode:
 *     it is covered by mode_x_stride and randomised by the sweep.
 *   - qw: Qw 1..8 all legal in every mode (D13) -> no exclusion.
 *   - in: MODE16 with depthwise is illegal (D20, 6.2 code 7) -> EXCLUDED: mode=dw,in=u16 (8x3x3x8 = 576 bins).
 *     MODE16 with 3x3, 1x1 and linear is legal (D11, D12, 3.9).
 *   - norm / quant: 8/16/32 all legal; the reserved code 11 (6.2 codes 1 and 2) is not a label -> no exclusion.
 *   - bias / shift / round: independent CONFIG0 bits, no rule forbids any combination (4.4) -> no exclusion.
 *   - STREAMIN needs QUANT_BITS=32 (D14, 6.2 code 6): STREAMIN is not a dimension and STREAMIN=0 is legal with
 *     every quant width -> no exclusion.
 *   - NORM_BITS/NORM_BIAS/NORM_SHIFT/ROUND are ignored with STREAMOUT=0 (2.2): the cross samples only jobs with
 *     STREAMOUT=1, where every dimension has a meaning.
 * Allowed: 4x8x2x3x3x2x2x2 = 4608 minus 576 = 4032 bins. */
static int allowed(unsigned x, const unsigned *v)
{
    if (x == X_MODE_IN && v[0] == 1 && v[1] == 1) return 0;   /* D20: MODE16 with depthwise is illegal */
    if (x == X_FULL && v[0] == 1 && v[2] == 1) return 0;      /* D20 (6.2 code 7): mode=dw with in=u16 */
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

static unsigned encode_bin(unsigned x, const unsigned *v)
{
    unsigned b = 0;
    for (unsigned i = 0; i < crosses[x].nd; i++) b = b * crosses[x].d[i].n + v[i];
    return b;
}

static void hitv(ne16_cov_t *c, unsigned x, const unsigned *v)
{
    for (unsigned i = 0; i < crosses[x].nd; i++)
        if (v[i] >= crosses[x].d[i].n) return;   /* cannot happen with decoded fields; never index out of range */
    c->count[c->off[x] + encode_bin(x, v)]++;
}

static void hit(ne16_cov_t *c, unsigned x, unsigned v0, unsigned v1, unsigned v2, unsigned v3)
{
    const unsigned v[MAXD] = {v0, v1, v2, v3};
    hitv(c, x, v);
}

ne16_cov_t *ne16_cov_new(void)
{
    ne16_cov_t *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    for (unsigned x = 0; x < X_N; x++) c->off[x + 1] = c->off[x] + nbins(x);
    c->count = calloc(c->off[X_N], sizeof *c->count);
    if (!c->count) {
        free(c);
        return NULL;
    }
    return c;
}

void ne16_cov_free(ne16_cov_t *c)
{
    if (c) free(c->count);
    free(c);
}

void ne16_cov_queue(ne16_cov_t *c, ne16_qcov_t what) { hit(c, X_QUEUE, what, 0, 0, 0); }

static unsigned bits_idx(unsigned code) { return code > 2 ? 2 : code; }

/* The full-cross dimension values of a legal STREAMOUT=1 job; 0, or -1 when the job is no sample. */
static int full_values(const ne16_job_cfg_t *k, int code, unsigned *v)
{
    if (code || !k->streamout) return -1;
    const unsigned w[MAXD] = {k->linear ? 3 : k->filter_mode, k->qw - 1, k->mode16, bits_idx(k->norm_bits),
                              bits_idx(k->quant_bits), k->norm_bias, k->norm_shift, k->round};
    memcpy(v, w, sizeof w);
    return 0;
}

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
    unsigned fv[MAXD];
    if (full_values(&k, code, fv) == 0) hitv(c, X_FULL, fv);
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

static int bin_allowed(unsigned x, unsigned b)
{
    unsigned v[MAXD] = {0};
    decode_bin(x, b, v);
    return allowed(x, v);
}

void ne16_cov_write(const ne16_cov_t *c, FILE *f, const char *test, uint64_t seed)
{
    fprintf(f, "# ne16 coverage: test %s seed %llu\n", test ? test : "", (unsigned long long)seed);
    for (unsigned x = 0; x < X_N; x++)
        for (unsigned b = 0; b < nbins(x); b++) {
            if (!bin_allowed(x, b)) continue;
            char label[200];
            bin_label(x, b, label, sizeof label);
            fprintf(f, "%s %s %llu\n", crosses[x].name, label, (unsigned long long)c->count[c->off[x] + b]);
        }
}

unsigned ne16_cov_bins(const ne16_cov_t *c)
{
    (void)c;
    unsigned n = 0;
    for (unsigned x = 0; x < X_N; x++)
        for (unsigned b = 0; b < nbins(x); b++) n += (unsigned)bin_allowed(x, b);
    return n;
}

unsigned ne16_cov_hit(const ne16_cov_t *c)
{
    unsigned n = 0;
    for (unsigned x = 0; x < X_N; x++)
        for (unsigned b = 0; b < nbins(x); b++) n += bin_allowed(x, b) && c->count[c->off[x] + b] > 0;
    return n;
}

/* ---- full cross enumeration ------------------------------------------------------------------------ */
unsigned ne16_cov_full_count(void)
{
    unsigned n = 0;
    for (unsigned b = 0; b < nbins(X_FULL); b++) n += (unsigned)bin_allowed(X_FULL, b);
    return n;
}

/* Next bin in raw order: an odometer over the dimension values (last dimension fastest, as encode_bin). */
static void next_values(unsigned x, unsigned *v)
{
    for (int i = (int)crosses[x].nd - 1; i >= 0; i--) {
        if (++v[i] < crosses[x].d[i].n) return;
        v[i] = 0;
    }
}

/* Raw bin number of allowed bin i (a linear scan without divisions: 4608 bins). */
static int full_raw(unsigned i)
{
    unsigned v[MAXD] = {0};
    for (unsigned b = 0; b < nbins(X_FULL); b++, next_values(X_FULL, v))
        if (allowed(X_FULL, v) && i-- == 0) return (int)b;
    return -1;
}

int ne16_cov_full_bin(unsigned i, ne16_fullbin_t *fb)
{
    const int b = full_raw(i);
    if (b < 0) return -1;
    unsigned v[MAXD] = {0};
    decode_bin(X_FULL, (unsigned)b, v);
    static const unsigned bits[] = {8, 16, 32};
    *fb = (ne16_fullbin_t){.mode = v[0], .qw = v[1] + 1, .mode16 = v[2], .norm_bits = bits[v[3]],
                           .quant_bits = bits[v[4]], .norm_bias = v[5], .norm_shift = v[6], .round = v[7]};
    return 0;
}

int ne16_cov_full_index(const uint32_t regs[NE16_NUM_JOB_REGS], int code)
{
    ne16_job_cfg_t k;
    ne16_job_decode(regs, &k);
    unsigned v[MAXD];
    if (full_values(&k, code, v) || !allowed(X_FULL, v)) return -1;
    const unsigned raw = encode_bin(X_FULL, v);
    unsigned w[MAXD] = {0};
    int idx = 0;
    for (unsigned b = 0; b < raw; b++, next_values(X_FULL, w)) idx += allowed(X_FULL, w);
    return idx;
}

uint64_t ne16_cov_full_hits(const ne16_cov_t *c, unsigned i)
{
    const int b = full_raw(i);
    return b < 0 ? 0 : c->count[c->off[X_FULL] + (unsigned)b];
}
