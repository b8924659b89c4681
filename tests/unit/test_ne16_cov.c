/* Unit tests of the NE16 full product cross (tb/ne16/ne16_cov.c) and the cross_sweep generator
 * (tb/ne16/ne16_sweep.c): the allowed bins are exactly the combinations the golden model's 6.2 check
 * accepts, the enumeration round-trips, and the nightly's cross_sweep seeds hit every bin (replayed through
 * the control-plane reference model, as the testbench samples them). Testbench sources are compiled in. */
#include "../../tb/common/fcov.c"
#include "../../tb/ne16/ne16_cov.c"
#include "../../tb/ne16/ne16_fw.c"
#include "../../tb/ne16/ne16_gen.c"
#include "../../tb/ne16/ne16_model.c"
#include "../../tb/ne16/ne16_sweep.c"
#include "unit.h"
#include <stdlib.h>

/* The generators ask the DUT description (tb/common/dut_info.c) for features; this unit test covers them as
 * for our RTL, which implements every feature. */
bool dut_has(const char *feature)
{
    (void)feature;
    return true;
}

enum { NMODE = 4, NQW = 8, NIN = 2, NB = 3, NSEEDS_NIGHTLY = 63 };

/* A minimal job context with the given numeric configuration (subtile counts 1, remainders 0 = full). */
static void make_regs(uint32_t r[NE16_NUM_JOB_REGS], unsigned mode, unsigned qw, unsigned in, unsigned norm,
                      unsigned quant, unsigned bias, unsigned shift, unsigned round, unsigned streamout)
{
    memset(r, 0, NE16_NUM_JOB_REGS * sizeof *r);
    r[NE16_JOB_SUBTILE_NB0] = r[NE16_JOB_SUBTILE_NB1] = 0x00010001u;
    const uint32_t fm = mode == 3 ? 1u : mode; /* linear: FILTER_MODE ignored, give it a non-3x3 value */
    r[NE16_JOB_CONFIG0] = (qw - 1) | in << 3 | streamout << 4 | fm << 5 | (uint32_t)(mode == 3) << 7 | round << 11 |
                          norm << 12 | quant << 21 | shift << 24 | bias << 25;
}

/* Every combination of the eight dimensions, legal or not according to ne16_job_decode (golden, 6.2). */
static void test_allowed_equals_legal(unit_t *u)
{
    unsigned legal = 0, idx_ok = 0, excluded_ok = 0;
    char *seen = calloc(ne16_cov_full_count() + 1, 1);
    for (unsigned mode = 0; mode < NMODE; mode++)
        for (unsigned qw = 1; qw <= NQW; qw++)
            for (unsigned in = 0; in < NIN; in++)
                for (unsigned nb = 0; nb < NB; nb++)
                    for (unsigned qb = 0; qb < NB; qb++)
                        for (unsigned f = 0; f < 8; f++) {
                            uint32_t r[NE16_NUM_JOB_REGS];
                            make_regs(r, mode, qw, in, nb, qb, f & 1, f >> 1 & 1, f >> 2 & 1, 1);
                            const int code = fw_code(r);
                            const int idx = ne16_cov_full_index(r, code);
                            if (code == 0) {
                                legal++;
                                if (idx >= 0 && idx < (int)ne16_cov_full_count() && !seen[idx]) {
                                    seen[idx] = 1;
                                    idx_ok++;
                                }
                            } else {
                                excluded_ok += idx < 0 && code == NE16_ERR_MODE16_DW;
                            }
                        }
    free(seen);
    CHECK_EQ(ne16_cov_full_count(), 4032);
    CHECK_EQ(legal, ne16_cov_full_count());
    CHECK_EQ(idx_ok, legal);             /* every legal combination has its own bin */
    CHECK_EQ(excluded_ok, 4608 - legal); /* the only exclusion is D20 (code 7) */
    uint32_t r[NE16_NUM_JOB_REGS];
    make_regs(r, 0, 8, 0, 0, 0, 0, 0, 0, 0);
    CHECK(ne16_cov_full_index(r, 0) < 0, "a STREAMOUT=0 job is no sample of the full cross");
    make_regs(r, 0, 8, 0, 0, 0, 0, 0, 0, 1);
    CHECK(ne16_cov_full_index(r, 0) >= 0, "the same job with STREAMOUT=1 is");
    CHECK(ne16_cov_full_index(r, NE16_ERR_STREAMIN) < 0, "a rejected job is no sample");
}

static void test_enumeration(unit_t *u)
{
    const unsigned n = ne16_cov_full_count();
    unsigned ok = 0;
    for (unsigned i = 0; i < n; i++) {
        ne16_fullbin_t b;
        if (ne16_cov_full_bin(i, &b)) break;
        uint32_t r[NE16_NUM_JOB_REGS];
        const unsigned bits = b.norm_bits == 8 ? 0 : b.norm_bits == 16 ? 1 : 2;
        const unsigned qbits = b.quant_bits == 8 ? 0 : b.quant_bits == 16 ? 1 : 2;
        make_regs(r, b.mode, b.qw, b.mode16, bits, qbits, b.norm_bias, b.norm_shift, b.round, 1);
        ok += ne16_cov_full_index(r, fw_code(r)) == (int)i && !(b.mode == 1 && b.mode16);
    }
    CHECK_EQ(ok, n);
    ne16_fullbin_t b;
    CHECK(ne16_cov_full_bin(n, &b) != 0, "bin %u is out of range", n);
}

static void test_report(unit_t *u)
{
    fcov_t *c = ne16_cov_new();
    uint32_t r[NE16_NUM_JOB_REGS];
    make_regs(r, 2, 3, 1, 1, 2, 1, 0, 1, 1); /* 1x1 q3 u16 norm16 quant32 bias round */
    ne16_cov_job(c, r, 0);
    const int idx = ne16_cov_full_index(r, 0);
    CHECK(idx >= 0 && ne16_cov_full_hits(c, (unsigned)idx) == 1, "bin %d hit once", idx);
    FILE *f = tmpfile();
    fcov_write(c, f, "t", 1);
    rewind(f);
    char line[512];
    unsigned full = 0, hit = 0, dw16 = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, NE16_COV_FULL_NAME " ", strlen(NE16_COV_FULL_NAME) + 1)) continue;
        full++;
        if (strstr(line, "mode=dw,") && strstr(line, ",in=u16,")) dw16++;
        if (strstr(line, " mode=1x1,qw=q3,in=u16,norm=16,quant=32,bias=on,shift=off,round=on 1\n")) hit++;
    }
    fclose(f);
    CHECK_EQ(full, 4032);
    CHECK_EQ(dw16, 0);
    CHECK_EQ(hit, 1);
    fcov_free(c);
}

/* Replay a program's bus operations through the control-plane model; count each job's full-cross bin. */
static void replay(const program_t *p, unsigned *hits, unsigned nbins, unsigned *jobs, unsigned *strays)
{
    ne16_model_t m;
    ne16_model_reset(&m);
    for (size_t i = 0; i < p->n; i++) {
        const op_t *o = &p->ops[i];
        ne16_pred_t pr;
        if (o->kind == OP_WRITE || o->kind == OP_READ)
            ne16_model_access(&m, o->kind == OP_WRITE, (uint32_t)o->addr, o->data, 0xF, &pr);
        if (o->kind != OP_WAIT_IRQ) continue;
        for (uint32_t e = 0; e < (o->mask ? o->mask : 1); e++) {
            ne16_mjob_t *t = ne16_model_next_triggered(&m);
            const char *why = NULL;
            ne16_mjob_t done;
            if (!t || !ne16_model_start(&m, &why) || ne16_model_done(&m, &done)) {
                (*strays)++;
                return;
            }
            const int idx = ne16_cov_full_index(done.regs, fw_code(done.regs));
            if (idx >= 0 && (unsigned)idx < nbins) hits[idx]++;
            else (*strays)++;
            (*jobs)++;
        }
    }
}

static void test_sweep_covers_all(unit_t *u)
{
    const unsigned n = ne16_cov_full_count();
    unsigned *hits = calloc(n, sizeof *hits), jobs = 0, strays = 0, fails = 0;
    /* the nightly's seeds 1..63 (regress.py's default base seed is 1) */
    for (uint64_t base = 1; base <= 1; base++) {
        memset(hits, 0, n * sizeof *hits);
        for (uint64_t s = base; s < base + NSEEDS_NIGHTLY; s++) {
            program_t p;
            program_init(&p, "ne16", "cross_sweep", s);
            char err[512] = "";
            if (ne16_gen_cross_sweep(&p, s, NE16_SWEEP_BINS_PER_SEED, err, sizeof err)) {
                fails++;
                fprintf(stderr, "seed %llu: %s\n", (unsigned long long)s, err);
            }
            replay(&p, hits, n, &jobs, &strays);
            program_free(&p);
        }
        unsigned holes = 0;
        for (unsigned i = 0; i < n; i++) holes += hits[i] == 0;
        CHECK(holes == 0, "base seed %llu: %u of %u bins not hit", (unsigned long long)base, holes, n);
    }
    CHECK_EQ(fails, 0);
    CHECK_EQ(strays, 0);
    CHECK(jobs >= n, "%u jobs", jobs);
    CHECK(NSEEDS_NIGHTLY * NE16_SWEEP_BINS_PER_SEED >= 4032, "63 seeds x K cover the cross");
    free(hits);
}

int main(void)
{
    unit_t u = {.name = "test_ne16_cov"};
    UNIT_RUN(&u, test_allowed_equals_legal);
    UNIT_RUN(&u, test_enumeration);
    UNIT_RUN(&u, test_report);
    UNIT_RUN(&u, test_sweep_covers_all);
    return unit_done(&u);
}
