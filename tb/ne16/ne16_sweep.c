/* NE16 cross_sweep generator (see ne16_sweep.h). */
#include "ne16_sweep.h"
#include "ne16_cov.h"
#include "ne16_fw.h"
#include "ne16_gen.h"
#include "ne16_job.h"
#include <stdio.h>

enum { MAX_LAYER_JOBS = 64 };

static const char *const mn[] = {"3x3", "dw", "1x1", "linear"};

/* One small legal layer for allowed full-cross bin `bin`; each job is checked to land in its bin. With
 * illegal_code 1..7 the layer's first job is made illegal with that 6.2 condition instead and the rest dropped;
 * returns 1, emitting no job, when that job reports an earlier code. */
static int sweep_bin(ne16_fw_t *fw, unsigned bin, unsigned slot, int illegal_code, char *err, size_t errlen)
{
    rng_t *g = &fw->rng;
    uint32_t regs[MAX_LAYER_JOBS][NE16_NUM_JOB_REGS];
    ne16_fullbin_t b;
    if (ne16_cov_full_bin(bin, &b)) {
        snprintf(err, errlen, "cross_sweep: bin %u out of range (%u bins)", bin, ne16_cov_full_count());
        return -1;
    }
    ne16_layer_t l;
    ne16_random_layer_bin(g, &l, &b, NE16_SWEEP_MAX_CYCLES);
    if (fw_layer_load(fw, &l, 0x100000u * (1 + slot % 8), err, errlen)) return -1;
    const int n = fw_layer_regs(&l, regs, MAX_LAYER_JOBS, err, errlen);
    if (n < 0) return -1;
    for (int j = 0; j < n; j++) {
        if (illegal_code) {
            ne16_make_illegal(g, regs[j], (unsigned)illegal_code);
            if (fw_code(regs[j]) != illegal_code) return 1; /* an earlier 6.2 code wins: caller picks another */
        } else {
            if (rng_chance(g, 10)) ne16_perturb_ignored(g, regs[j]); /* 2.2: must not change the bin */
            const int got = ne16_cov_full_index(regs[j], fw_code(regs[j]));
            if (got != (int)bin) {
                snprintf(err, errlen,
                         "cross_sweep: the layer built for full-cross bin %u (%s q%u %s norm%u "
                         "quant%u bias%d shift%d round%d) lands in bin %d (JOB_ERROR code %d)",
                         bin, mn[b.mode], b.qw, b.mode16 ? "u16" : "u8", b.norm_bits, b.quant_bits, b.norm_bias,
                         b.norm_shift, b.round, got, fw_code(regs[j]));
                return -1;
            }
        }
        prog_job(fw->p, "sweep%u bin%u %s/q%u/%s/n%u/o%u/b%ds%dr%d ki%u/ko%u/%ux%u%s%s", fw->jobs, bin, mn[b.mode],
                 b.qw, b.mode16 ? "u16" : "u8", b.norm_bits, b.quant_bits, b.norm_bias, b.norm_shift, b.round, l.ki,
                 l.ko, l.hi, l.wi, l.strided ? "/s2" : "", illegal_code ? " ILLEGAL" : "");
        fw_job(fw, regs[j], rng_chance(g, 15));
        if (illegal_code) break;
    }
    return 0;
}

int ne16_gen_cross_sweep(program_t *p, uint64_t seed, unsigned k, char *err, size_t errlen)
{
    const unsigned nbins = ne16_cov_full_count();
    if (k == 0 || nbins == 0) {
        snprintf(err, errlen, "cross_sweep: nothing to sweep (%u bins per seed, %u allowed bins)", k, nbins);
        return -1;
    }
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.cross_sweep");
    for (unsigned i = 0; i < k; i++)
        if (sweep_bin(&fw, (unsigned)((seed % nbins * k + i) % nbins), i, 0, err, errlen)) return -1;
    return 0;
}

int ne16_gen_smoke_gaps(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.smoke_gaps");
    unsigned linear16[8 * 72], n = 0, slot = 0; /* linear u16 bins: 8 Qw x 72 numeric configurations */
    for (unsigned i = 0; i < ne16_cov_full_count(); i++) {
        ne16_fullbin_t b;
        if (ne16_cov_full_bin(i, &b) == 0 && b.mode == NE16_LAYER_LINEAR && b.mode16 && n < 8 * 72) linear16[n++] = i;
    }
    if (n == 0) {
        snprintf(err, errlen, "smoke_gaps: the full cross has no linear MODE16 bin");
        return -1;
    }
    for (unsigned qw = 0; qw < 8; qw++) /* one linear MODE16 job per Qw, numeric configuration random */
        if (sweep_bin(&fw, linear16[(qw * 72 + rng_below(&fw.rng, 72)) % n], slot++, 0, err, errlen)) return -1;
    /* every 6.2 illegal-job code, on a random legal 3x3 layer (the first 8 x 2 x 72 bins; a linear layer may hit an
     * earlier code first, 6.2 reports the lowest) */
    for (int code = 1; code <= 7; code++) {
        int rc = 1;
        for (unsigned tries = 0; rc == 1 && tries < 32; tries++)
            rc = sweep_bin(&fw, rng_below(&fw.rng, 8 * 2 * 72), slot++, code, err, errlen);
        if (rc < 0) return -1;
        if (rc) {
            snprintf(err, errlen, "smoke_gaps: no layer of 32 tried reports illegal-job code %d", code);
            return -1;
        }
    }
    return 0;
}
