/* NE16 cross_sweep generator (see ne16_sweep.h). */
#include "ne16_sweep.h"
#include "ne16_cov.h"
#include "ne16_fw.h"
#include "ne16_gen.h"
#include "ne16_job.h"
#include <stdio.h>

enum { MAX_LAYER_JOBS = 64 };

int ne16_gen_cross_sweep(program_t *p, uint64_t seed, unsigned k, char *err, size_t errlen)
{
    const unsigned nbins = ne16_cov_full_count();
    if (k == 0 || nbins == 0) {
        snprintf(err, errlen, "cross_sweep: nothing to sweep (%u bins per seed, %u allowed bins)", k, nbins);
        return -1;
    }
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.cross_sweep");
    rng_t *g = &fw.rng;
    static const char *const mn[] = {"3x3", "dw", "1x1", "linear"};
    uint32_t regs[MAX_LAYER_JOBS][NE16_NUM_JOB_REGS];
    for (unsigned i = 0; i < k; i++) {
        const unsigned bin = (unsigned)((seed % nbins * k + i) % nbins);
        ne16_fullbin_t b;
        if (ne16_cov_full_bin(bin, &b)) {
            snprintf(err, errlen, "cross_sweep: bin %u out of range (%u bins)", bin, nbins);
            return -1;
        }
        ne16_layer_t l;
        ne16_random_layer_bin(g, &l, &b, NE16_SWEEP_MAX_CYCLES);
        if (fw_layer_load(&fw, &l, 0x100000u * (1 + i % 8), err, errlen)) return -1;
        const int n = fw_layer_regs(&l, regs, MAX_LAYER_JOBS, err, errlen);
        if (n < 0) return -1;
        for (int j = 0; j < n; j++) {
            if (rng_chance(g, 10)) ne16_perturb_ignored(g, regs[j]);   /* 2.2: must not change the bin */
            const int got = ne16_cov_full_index(regs[j], fw_code(regs[j]));
            if (got != (int)bin) {
                snprintf(err, errlen, "cross_sweep: seed %llu: the layer built for full-cross bin %u (%s q%u %s norm%u "
                         "quant%u bias%d shift%d round%d) lands in bin %d (JOB_ERROR code %d)",
                         (unsigned long long)seed, bin, mn[b.mode], b.qw, b.mode16 ? "u16" : "u8", b.norm_bits,
                         b.quant_bits, b.norm_bias, b.norm_shift, b.round, got, fw_code(regs[j]));
                return -1;
            }
            prog_job(p, "sweep%u bin%u %s/q%u/%s/n%u/o%u/b%ds%dr%d ki%u/ko%u/%ux%u%s", fw.jobs, bin, mn[b.mode], b.qw,
                     b.mode16 ? "u16" : "u8", b.norm_bits, b.quant_bits, b.norm_bias, b.norm_shift, b.round, l.ki,
                     l.ko, l.hi, l.wi, l.strided ? "/s2" : "");
            fw_job(&fw, regs[j], rng_chance(g, 15));
        }
    }
    return 0;
}
