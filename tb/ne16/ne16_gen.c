/* NE16 constrained-random generator (see ne16_gen.h). */
#include "ne16_gen.h"
#include "ne16_job.h"
#include "dut_info.h"
#include <stdio.h>
#include <string.h>

static unsigned nbu(unsigned x, unsigned t) { return (x + t - 1) / t; }

/* Ko/Ki around subtile edges: 1, SUB-1, SUB, SUB+1, or anything up to hi. */
static unsigned edge_pick(rng_t *g, unsigned sub, unsigned hi)
{
    switch (rng_below(g, 6)) {
    case 0: return 1;
    case 1: return sub - 1;
    case 2: return sub;
    case 3: return sub + 1;
    default: return rng_range(g, 1, hi);
    }
}

/* Rough cycle estimate of the RTL for one job (window loads, weight planes, MAC steps, stores). */
static uint64_t estimate(const ne16_layer_t *l)
{
    const unsigned ksub = l->mode == NE16_LAYER_DW ? 16 : 32, eb = ne16_layer_eb(l);
    const uint64_t nko = nbu(l->ko, ksub), n_ko = l->ko < ksub ? l->ko : ksub;
    const uint64_t nki = l->mode == NE16_LAYER_LINEAR ? nbu(l->ki, 256)
                         : l->mode == NE16_LAYER_DW   ? 1
                                                      : nbu(l->ki * eb, 16);
    const uint64_t sp = l->mode == NE16_LAYER_LINEAR ? 1
                                                     : (uint64_t)nbu(ne16_layer_ho(l), l->strided ? 2 : 3) *
                                                           nbu(ne16_layer_wo(l), l->strided ? 2 : 3);
    return nko * sp * (nki * (80 + n_ko * (3 * l->qw + 10)) + 9 * (n_ko + 8) + 100);
}

static void fix_padding(ne16_layer_t *l)
{
    const unsigned k = l->mode == NE16_LAYER_1X1 ? 1 : 3;
    while (l->hi + l->pt + l->pb < k) l->hi++;
    while (l->wi + l->pl + l->pr < k) l->wi++;
    /* 3.7 cannot express pb = 2 when Ho mod 3 = 1 (ne16_layer_check rejects it): use 1 then */
    if (!l->strided && l->pb == 2 && ne16_layer_ho(l) % 3 == 1) l->pb = 1;
    if (!l->strided && l->pr == 2 && ne16_layer_wo(l) % 3 == 1) l->pr = 1;
    while (l->hi + l->pt + l->pb < k) l->hi++;
    while (l->wi + l->pl + l->pr < k) l->wi++;
    if (l->strided && (l->ko * ne16_layer_ob(l)) % 2) l->ko++;
    if (l->mode == NE16_LAYER_DW) l->ki = l->ko;
}

static void random_layer(rng_t *g, ne16_layer_t *l, ne16_layer_mode_t mode, unsigned qw, uint64_t max_cycles,
                         const ne16_fullbin_t *force)
{
    memset(l, 0, sizeof *l);
    l->mode = mode;
    l->qw = qw;
    l->symmetric = rng_chance(g, 30);
    l->wmin = (int)rng_range(g, 0, 511) - 256;
    l->mode16 = mode != NE16_LAYER_DW && rng_chance(g, 30);
    l->out_bits = 8u << rng_below(g, 3);
    l->norm_bits = 8u << rng_below(g, 3);
    l->streamout = rng_chance(g, 70);
    l->streamin = l->out_bits == 32 && rng_chance(g, 35);
    l->relu = rng_chance(g, 50);
    l->round = rng_chance(g, 50);
    l->norm_shift = rng_chance(g, 30);
    l->norm_bias = rng_chance(g, 50);
    l->right_shift = rng_below(g, 32);
    l->rem_full_as_zero = rng_chance(g, 30);
    l->pad_value = rng_chance(g, 30) ? 0 : (uint16_t)rng_next(g);
    if (force) { /* extra draws only here: the unforced stream (random, queue tests) is unchanged */
        l->mode16 = force->mode16;
        l->out_bits = force->quant_bits;
        l->norm_bits = force->norm_bits;
        l->streamout = true;
        l->norm_bias = force->norm_bias;
        l->norm_shift = force->norm_shift;
        l->round = force->round;
        l->streamin = l->out_bits == 32 && rng_chance(g, 35);
        /* ROUND only acts with a shift > 0 (4.4 step 3): keep the global shift nonzero then */
        if (l->round && !l->norm_shift && l->right_shift == 0) l->right_shift = rng_range(g, 1, 31);
    }
    /* A DUT without a feature gets the semantics both share (no extra draws: the stream stays the same) */
    if (!dut_has("round")) l->round = false;
    if (!dut_has("out16") && l->out_bits == 16) l->out_bits = 32;
    if (!dut_has("wsym")) l->symmetric = false; /* D9: the layer-wise WEIGHT_OFFSET (random wmin) instead */
    l->streamin = l->streamin && l->out_bits == 32;
    if (!dut_has("norm_exact") && l->norm_bits == 32) l->norm_bias = true;      /* D6: 32-bit scale, no bias */
    if (!dut_has("mode16_rem") && mode == NE16_LAYER_LINEAR) l->mode16 = false; /* D12 */
    if (!dut_has("qw1") && l->qw == 1) l->qw = 2;                               /* D13 */
    l->hi = l->wi = 1;
    if (mode == NE16_LAYER_LINEAR) {
        const unsigned unit = l->mode16 ? 8 : 16;
        l->ki = unit * (rng_chance(g, 15) ? rng_range(g, 1, 1024 / unit) : rng_range(g, 1, 24));
        l->ko = edge_pick(g, 32, 70);
    } else {
        const bool big_k = rng_chance(g, 8);
        l->ki = big_k ? rng_range(g, 100, 300) : rng_chance(g, 20) ? edge_pick(g, 16, 70) : rng_range(g, 1, 20);
        const unsigned ksub = mode == NE16_LAYER_DW ? 16 : 32;
        l->ko = mode == NE16_LAYER_DW ? edge_pick(g, 16, 40)
                : rng_chance(g, 30)   ? edge_pick(g, ksub, 100)
                                      : rng_range(g, 1, 12);
        const bool big_hw = !big_k && rng_chance(g, 10);
        l->hi = big_hw ? rng_range(g, 10, 20) : rng_range(g, 1, 9);
        l->wi = big_hw ? rng_range(g, 10, 20) : rng_range(g, 1, 9);
        if (mode != NE16_LAYER_1X1) {
            l->pt = rng_below(g, 3);
            l->pb = rng_below(g, 3);
            l->pl = rng_below(g, 3);
            l->pr = rng_below(g, 3);
            if (rng_chance(g, 30)) {
                l->mask_top = (uint8_t)rng_below(g, 4);
                l->mask_bottom = (uint8_t)rng_below(g, 4);
                l->mask_left = (uint8_t)rng_below(g, 4);
                l->mask_right = (uint8_t)rng_below(g, 4);
                if (rng_chance(g, 10)) l->mask_top = (uint8_t)rng_range(g, 3, 255);
            }
        }
        l->strided = rng_chance(g, 25);
        fix_padding(l);
        /* the pulp-nnx convention equals 3.7 only with VALUE = 0 and programs OUTFEAT_D0 = 32 */
        l->pulp_variant = !l->strided && l->pad_value == 0 && l->out_bits != 16 && rng_chance(g, 40);
    }
    if (l->mode16 && mode == NE16_LAYER_DW) l->mode16 = false;
    /* shrink until the job fits the cycle budget */
    for (int guard = 0; guard < 64 && estimate(l) > max_cycles; guard++) {
        if (mode == NE16_LAYER_LINEAR) {
            if (l->ki > (l->mode16 ? 8u : 16u))
                l->ki = (l->ki / 2 + (l->mode16 ? 7 : 15)) / (l->mode16 ? 8 : 16) * (l->mode16 ? 8 : 16);
            else if (l->ko > 1) l->ko = (l->ko + 1) / 2;
            continue;
        }
        if (l->hi * l->wi > 9) {
            l->hi = (l->hi + 1) / 2;
            l->wi = (l->wi + 1) / 2;
        } else if (l->ki > 16 && mode != NE16_LAYER_DW) l->ki /= 2;
        else if (l->ko > 8) l->ko /= 2;
        else if (l->hi > 1 || l->wi > 1) {
            l->hi = l->hi > 1 ? l->hi - 1 : 1;
            l->wi = l->wi > 1 ? l->wi - 1 : 1;
        } else break;
        if (mode == NE16_LAYER_DW) l->ki = l->ko;
        fix_padding(l);
    }
}

void ne16_random_layer(rng_t *g, ne16_layer_t *l, ne16_layer_mode_t mode, unsigned qw, uint64_t max_cycles)
{
    random_layer(g, l, mode, qw, max_cycles, NULL);
}

void ne16_random_layer_bin(rng_t *g, ne16_layer_t *l, const ne16_fullbin_t *b, uint64_t max_cycles)
{
    random_layer(g, l, (ne16_layer_mode_t)b->mode, b->qw, max_cycles, b);
}

void ne16_perturb_ignored(rng_t *g, uint32_t r[NE16_NUM_JOB_REGS])
{
    ne16_job_cfg_t c;
    ne16_job_decode(r, &c);
    uint32_t *cf = &r[NE16_JOB_CONFIG0];
    r[NE16_JOB_INFEAT_D2_STRIDE] = (uint32_t)rng_next(g);
    *cf |= ((uint32_t)rng_next(g) & (NE16_CONFIG0_RES1_MASK | NE16_CONFIG0_RES2_MASK));
    r[NE16_JOB_WEIGHT_OFFSET] ^= (uint32_t)rng_next(g) & 0x7FFFFF00u; /* D9: bits 30:8 unused */
    if (!c.weight_offs) r[NE16_JOB_WEIGHT_OFFSET] = (uint32_t)rng_next(g);
    if (!c.mode16) r[NE16_JOB_PADDING] ^= (uint32_t)rng_next(g) & 0xFF00u;
    if (!c.linear) r[NE16_JOB_WEIGHTS_D2_STRIDE] = (uint32_t)rng_next(g);
    if (c.quant_bits == 0) r[NE16_JOB_OUTFEAT_D0_STRIDE] = (uint32_t)rng_next(g);
    if (c.is1x1) {
        r[NE16_JOB_WEIGHTS_D0_STRIDE] = (uint32_t)rng_next(g);
        r[NE16_JOB_FILTER_MASK] = (uint32_t)rng_next(g);
    }
    if (c.dw && dut_has("dw_ki_ignored")) { /* D21 */
        r[NE16_JOB_SUBTILE_NB0] = (r[NE16_JOB_SUBTILE_NB0] & 0xFFFF0000u) | rng_below(g, 0x10000);
        r[NE16_JOB_SUBTILE_REM0] = (r[NE16_JOB_SUBTILE_REM0] & 0xFFFF0000u) | rng_below(g, 0x10000);
    }
    if (!c.streamout) {
        *cf = (*cf & ~(NE16_CONFIG0_NORM_BITS_MASK | NE16_CONFIG0_NORM_BIAS_MASK | NE16_CONFIG0_NORM_SHIFT_MASK |
                       NE16_CONFIG0_RIGHT_SHIFT_MASK | NE16_CONFIG0_ROUND_MASK | NE16_CONFIG0_QUANT_RECT_MASK)) |
              ((uint32_t)rng_next(g) &
               (NE16_CONFIG0_NORM_BITS_MASK | NE16_CONFIG0_NORM_BIAS_MASK | NE16_CONFIG0_NORM_SHIFT_MASK |
                NE16_CONFIG0_RIGHT_SHIFT_MASK | NE16_CONFIG0_ROUND_MASK | NE16_CONFIG0_QUANT_RECT_MASK));
        r[NE16_JOB_SCALE_PTR] = (uint32_t)rng_next(g);
        r[NE16_JOB_SCALE_SHIFT_PTR] = (uint32_t)rng_next(g);
        r[NE16_JOB_SCALE_BIAS_PTR] = (uint32_t)rng_next(g);
    } else {
        if (c.norm_shift)
            *cf = (*cf & ~NE16_CONFIG0_RIGHT_SHIFT_MASK) | ((uint32_t)rng_next(g) & NE16_CONFIG0_RIGHT_SHIFT_MASK);
        else r[NE16_JOB_SCALE_SHIFT_PTR] = (uint32_t)rng_next(g);
        if (!c.norm_bias) r[NE16_JOB_SCALE_BIAS_PTR] = (uint32_t)rng_next(g);
    }
    if (c.linear) {
        *cf = (*cf & ~(NE16_CONFIG0_FILTER_MODE_MASK | NE16_CONFIG0_STRIDED_2X2_MASK)) |
              ((uint32_t)rng_next(g) & (NE16_CONFIG0_FILTER_MODE_MASK | NE16_CONFIG0_STRIDED_2X2_MASK));
        r[NE16_JOB_PADDING] = (uint32_t)rng_next(g);
        r[NE16_JOB_FILTER_MASK] = (uint32_t)rng_next(g);
        r[NE16_JOB_SUBTILE_REM1] = (uint32_t)rng_next(g);
        r[NE16_JOB_SUBTILE_REM2] = (uint32_t)rng_next(g);
    }
}

void ne16_make_illegal(rng_t *g, uint32_t r[NE16_NUM_JOB_REGS], unsigned which)
{
    uint32_t *cf = &r[NE16_JOB_CONFIG0];
    switch (which) {
    case 1: *cf |= NE16_CONFIG0_QUANT_BITS_MASK; break;
    case 2: *cf |= NE16_CONFIG0_STREAMOUT_MASK | NE16_CONFIG0_NORM_BITS_MASK; break;
    case 3: *cf = (*cf & ~NE16_CONFIG0_LINEAR_MASK) | NE16_CONFIG0_FILTER_MODE_MASK; break;
    case 4: {
        const unsigned f = rng_below(g, 4);
        if (f == 0) r[NE16_JOB_SUBTILE_NB0] &= 0x0000FFFFu;
        else if (f == 1) r[NE16_JOB_SUBTILE_NB1] &= 0x0000FFFFu;
        else if (f == 2) r[NE16_JOB_SUBTILE_NB1] &= 0xFFFF0000u;
        else {
            *cf &= ~(NE16_CONFIG0_FILTER_MODE_MASK | NE16_CONFIG0_LINEAR_MASK);
            r[NE16_JOB_SUBTILE_NB0] &= 0xFFFF0000u;
        }
        break;
    }
    case 5: {
        const unsigned f = rng_below(g, 4);
        if (f == 0) r[NE16_JOB_SUBTILE_REM0] = (r[NE16_JOB_SUBTILE_REM0] & 0xFFFFu) | rng_range(g, 33, 0xFFFF) << 16;
        else if (f == 1) {
            *cf &= ~(NE16_CONFIG0_FILTER_MODE_MASK | NE16_CONFIG0_LINEAR_MASK);
            r[NE16_JOB_SUBTILE_REM0] = (r[NE16_JOB_SUBTILE_REM0] & 0xFFFF0000u) | rng_range(g, 17, 0xFFFF);
        } else if (f == 2) {
            *cf &= ~NE16_CONFIG0_LINEAR_MASK;
            r[NE16_JOB_SUBTILE_REM1] = rng_range(g, 4, 9) << 16;
        } else {
            *cf &= ~NE16_CONFIG0_LINEAR_MASK;
            r[NE16_JOB_SUBTILE_REM2] = rng_range(g, 6, 0xFFFF);
        }
        break;
    }
    case 6:
        *cf = (*cf & ~NE16_CONFIG0_QUANT_BITS_MASK) | NE16_CONFIG0_STREAMIN_MASK |
              rng_below(g, 2) << NE16_CONFIG0_QUANT_BITS_SHIFT;
        break;
    default:
        *cf = (*cf & ~(NE16_CONFIG0_LINEAR_MASK | NE16_CONFIG0_FILTER_MODE_MASK)) | NE16_CONFIG0_MODE16_MASK |
              1u << NE16_CONFIG0_FILTER_MODE_SHIFT;
        break;
    }
}

int ne16_gen_random(program_t *p, uint64_t seed, unsigned njobs, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.random");
    rng_t *g = &fw.rng;
    uint32_t regs[64][NE16_NUM_JOB_REGS];
    for (unsigned j = 0; fw.jobs < njobs; j++) {
        const uint64_t idx = seed * njobs + j;
        const ne16_layer_mode_t mode = (ne16_layer_mode_t)(idx % 4);
        const unsigned qw = (unsigned)(idx / 4 % 8) + 1 + (idx / 4 % 8 == 0 && !dut_has("qw1")); /* D13 */
        ne16_layer_t l;
        ne16_random_layer(g, &l, mode, qw, rng_chance(g, 10) ? 150000 : 40000);
        if (mode != NE16_LAYER_LINEAR && mode != NE16_LAYER_1X1 && l.pt && rng_chance(g, 5))
            l.in = 0x20 + rng_below(g, 32);
        if (fw_layer_load(&fw, &l, 0x100000u * (1 + j % 8), err, errlen)) return -1;
        const int n = fw_layer_regs(&l, regs, 64, err, errlen);
        if (n < 0) return -1;
        for (int k = 0; k < n && fw.jobs < njobs; k++) {
            const bool illegal = rng_chance(g, 10) && dut_has("job_error");
            const bool perturb = !illegal && rng_chance(g, 20) && dut_has("ignored_fields");
            const char *mn[] = {"3x3", "dw", "1x1", "linear"};
            /* /r32: rectified 32-bit outputs (spec D8, where DUTs may differ: tb/ne16/duts/pulp.deviations);
             * /si: streamin */
            prog_job(p, "rand%u %s/q%u/ki%u/ko%u/%ux%u%s%s%s%s%s%s", fw.jobs, mn[mode], qw, l.ki, l.ko, l.hi, l.wi,
                     l.strided ? "/s2" : "", l.mode16 ? "/u16" : "",
                     l.relu && l.out_bits == 32 && l.streamout ? "/r32" : "", l.streamin ? "/si" : "",
                     illegal ? " ILLEGAL" : "", perturb ? " raw" : "");
            if (illegal) ne16_make_illegal(g, regs[k], (unsigned)(idx % 7) + 1);
            if (perturb) ne16_perturb_ignored(g, regs[k]);
            fw_job(&fw, regs[k], rng_chance(g, 15));
        }
    }
    return 0;
}
