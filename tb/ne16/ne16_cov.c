/* NE16 functional coverage: crosses over the 6.1 configuration space, 6.2 error codes and queue scenarios, in
 * the table format of tb/common/fcov.h. */
#include "ne16_cov.h"
#include <string.h>

static const char *const L_MODE[] = {"3x3", "dw", "1x1", "linear"};
static const char *const L_MODE_SP[] = {"3x3", "dw", "1x1"};     /* spatial modes */
static const char *const L_MODE_PAD[] = {"3x3", "dw"};           /* padding and filter mask */
static const char *const L_MODE_KI[] = {"3x3", "1x1", "linear"}; /* Ki tiling (DW has none) */
static const char *const L_QW[] = {"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"};
static const char *const L_IN[] = {"u8", "u16"};
static const char *const L_BITS[] = {"8", "16", "32"};
static const char *const L_SO[] = {"raw", "normquant"};
static const char *const L_OFFON[] = {"off", "on"};
static const char *const L_SIDE[] = {"top", "right", "bottom", "left"};
static const char *const L_STRIDE[] = {"s1", "s2"};
static const char *const L_WOFFS[] = {"symmetric", "layer"};
static const char *const L_TILES[] = {"one", "many"};
static const char *const L_CODE[] = {"quant_bits", "norm_bits", "filter_mode", "nb_zero",
                                     "rem_range",  "streamin",  "mode16_dw"};
static const char *const L_QUEUE[] = {"back_to_back", "acquire_full", "acquire_open", "commit_only",
                                      "auto_trigger", "clear_idle",   "clear_open",   "clear_running",
                                      "clear_held",   "clear_zero",   "sw_sync",      "ctx_reuse"};

#define D FCOV_DIM
enum {
    X_MODE_QW,
    X_MODE_IN,
    X_MODE_OUT,
    X_NORM_QUANT,
    X_NQ_FLAGS,
    X_FULL,
    X_PAD,
    X_STRIDE,
    X_FMASK,
    X_STREAMIN,
    X_WOFFS,
    X_KO_TILES,
    X_KI_TILES,
    X_SP_TILES,
    X_ILLEGAL,
    X_QUEUE,
    X_N
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
static bool full_allowed(const unsigned *v) { return !(v[0] == 1 && v[2] == 1); }    /* D20 (6.2 code 7): dw, u16 */
static bool mode_in_allowed(const unsigned *v) { return !(v[0] == 1 && v[1] == 1); } /* D20: MODE16 with dw */

static const fcov_cross_t crosses[X_N] = {
    [X_MODE_QW] = {"mode_x_weight_bits", 2, {D("mode", L_MODE), D("qw", L_QW)}},
    [X_MODE_IN] = {"mode_x_input", 2, {D("mode", L_MODE), D("in", L_IN)}, mode_in_allowed},
    [X_MODE_OUT] = {"mode_x_output_bits_x_streamout", 3, {D("mode", L_MODE), D("out", L_BITS), D("so", L_SO)}},
    [X_NORM_QUANT] = {"norm_bits_x_quant_bits", 2, {D("norm", L_BITS), D("quant", L_BITS)}},
    [X_NQ_FLAGS] = {"bias_x_shift_x_round_x_rect",
                    4,
                    {D("bias", L_OFFON), D("norm_shift", L_OFFON), D("round", L_OFFON), D("keep_sign", L_OFFON)}},
    /* The full product of the numeric configuration (the NE16 issue's "Done when"). Dimension order is the
     * bin order ne16_cov_full_bin enumerates; the cross_sweep test depends on it only through that API. */
    [X_FULL] = {NE16_COV_FULL_NAME,
                8,
                {D("mode", L_MODE), D("qw", L_QW), D("in", L_IN), D("norm", L_BITS), D("quant", L_BITS),
                 D("bias", L_OFFON), D("shift", L_OFFON), D("round", L_OFFON)},
                full_allowed},
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

fcov_t *ne16_cov_new(void) { return fcov_new("ne16", crosses, X_N); }

void ne16_cov_queue(fcov_t *c, ne16_qcov_t what) { fcov_hit4(c, X_QUEUE, what, 0, 0, 0); }

static unsigned bits_idx(unsigned code) { return code > 2 ? 2 : code; }

/* The full-cross dimension values of a legal STREAMOUT=1 job; 0, or -1 when the job is no sample. */
static int full_values(const ne16_job_cfg_t *k, int code, unsigned *v)
{
    if (code || !k->streamout) return -1;
    const unsigned w[FCOV_MAXD] = {k->linear ? 3 : k->filter_mode, k->qw - 1,    k->mode16,     bits_idx(k->norm_bits),
                                   bits_idx(k->quant_bits),        k->norm_bias, k->norm_shift, k->round};
    memcpy(v, w, sizeof w);
    return 0;
}

void ne16_cov_job(fcov_t *c, const uint32_t regs[NE16_NUM_JOB_REGS], int code)
{
    ne16_job_cfg_t k;
    ne16_job_decode(regs, &k);
    if (code) {
        if (code >= 1 && code <= 7) fcov_hit4(c, X_ILLEGAL, (unsigned)code - 1, 0, 0, 0);
        return;
    }
    const unsigned mode = k.linear ? 3 : k.filter_mode; /* 0 3x3, 1 dw, 2 1x1, 3 linear */
    fcov_hit4(c, X_MODE_QW, mode, k.qw - 1, 0, 0);
    fcov_hit4(c, X_MODE_IN, mode, k.mode16, 0, 0);
    fcov_hit4(c, X_MODE_OUT, mode, bits_idx(k.quant_bits), k.streamout, 0);
    if (k.streamout) {
        fcov_hit4(c, X_NORM_QUANT, bits_idx(k.norm_bits), bits_idx(k.quant_bits), 0, 0);
        fcov_hit4(c, X_NQ_FLAGS, k.norm_bias, k.norm_shift, k.round, k.quant_rect);
    }
    unsigned fv[FCOV_MAXD];
    if (full_values(&k, code, fv) == 0) fcov_hit(c, X_FULL, fv);
    if (mode <= 1) {
        if (k.pad_top) fcov_hit4(c, X_PAD, mode, 0, 0, 0);
        if (k.pad_right) fcov_hit4(c, X_PAD, mode, 1, 0, 0);
        if (k.pad_bottom) fcov_hit4(c, X_PAD, mode, 2, 0, 0);
        if (k.pad_left) fcov_hit4(c, X_PAD, mode, 3, 0, 0);
        fcov_hit4(c, X_FMASK, mode, (k.mask_top | k.mask_right | k.mask_bottom | k.mask_left) != 0, 0, 0);
    }
    if (mode <= 2) {
        fcov_hit4(c, X_STRIDE, mode, k.strided, 0, 0);
        fcov_hit4(c, X_SP_TILES, mode, k.nb_ho * k.nb_wo > 1, 0, 0);
    }
    fcov_hit4(c, X_STREAMIN, mode, k.streamin, 0, 0);
    fcov_hit4(c, X_WOFFS, mode, k.weight_offs, 0, 0);
    fcov_hit4(c, X_KO_TILES, mode, k.nb_ko > 1, 0, 0);
    if (mode != 1) fcov_hit4(c, X_KI_TILES, mode == 0 ? 0 : mode == 2 ? 1 : 2, k.nb_ki > 1, 0, 0);
}

/* ---- full cross enumeration ------------------------------------------------------------------------ */
static const fcov_cross_t *const FULL = &crosses[X_FULL];

unsigned ne16_cov_full_count(void)
{
    unsigned n = 0, v[FCOV_MAXD];
    for (unsigned b = 0; b < fcov_raw_bins(FULL); b++) {
        fcov_decode(FULL, b, v);
        n += full_allowed(v);
    }
    return n;
}

/* Next bin in raw order: an odometer over the dimension values (last dimension fastest, as fcov_encode). */
static void next_values(unsigned *v)
{
    for (int i = (int)FULL->nd - 1; i >= 0; i--) {
        if (++v[i] < FULL->d[i].n) return;
        v[i] = 0;
    }
}

/* Raw bin number of allowed bin i (a linear scan without divisions: 4608 bins). */
static int full_raw(unsigned i)
{
    unsigned v[FCOV_MAXD] = {0};
    for (unsigned b = 0; b < fcov_raw_bins(FULL); b++, next_values(v))
        if (full_allowed(v) && i-- == 0) return (int)b;
    return -1;
}

int ne16_cov_full_bin(unsigned i, ne16_fullbin_t *fb)
{
    const int b = full_raw(i);
    if (b < 0) return -1;
    unsigned v[FCOV_MAXD] = {0};
    fcov_decode(FULL, (unsigned)b, v);
    static const unsigned bits[] = {8, 16, 32};
    *fb = (ne16_fullbin_t){.mode = v[0],
                           .qw = v[1] + 1,
                           .mode16 = v[2],
                           .norm_bits = bits[v[3]],
                           .quant_bits = bits[v[4]],
                           .norm_bias = v[5],
                           .norm_shift = v[6],
                           .round = v[7]};
    return 0;
}

int ne16_cov_full_index(const uint32_t regs[NE16_NUM_JOB_REGS], int code)
{
    ne16_job_cfg_t k;
    ne16_job_decode(regs, &k);
    unsigned v[FCOV_MAXD];
    if (full_values(&k, code, v) || !full_allowed(v)) return -1;
    const unsigned raw = fcov_encode(FULL, v);
    unsigned w[FCOV_MAXD] = {0};
    int idx = 0;
    for (unsigned b = 0; b < raw; b++, next_values(w)) idx += full_allowed(w);
    return idx;
}

uint64_t ne16_cov_full_hits(const fcov_t *c, unsigned i)
{
    const int b = full_raw(i);
    if (b < 0) return 0;
    unsigned v[FCOV_MAXD] = {0};
    fcov_decode(FULL, (unsigned)b, v);
    return fcov_count(c, X_FULL, v);
}
