/* NE16 firmware-side program helpers and layer loading (see ne16_fw.h). */
#include "ne16_fw.h"
#include "ne16_job.h"
#include <stdlib.h>
#include <string.h>

void fw_init(ne16_fw_t *fw, program_t *p, uint64_t seed, const char *stream)
{
    memset(fw, 0, sizeof *fw);
    fw->p = p;
    rng_seed_stream(&fw->rng, seed, stream);
}

void fw_w(ne16_fw_t *fw, uint32_t off, uint32_t v) { prog_write(fw->p, NE16_APB_BASE + off, v); }
void fw_r(ne16_fw_t *fw, uint32_t off, uint32_t expect, uint32_t mask)
{
    prog_read(fw->p, NE16_APB_BASE + off, expect, mask);
}

unsigned fw_acquire(ne16_fw_t *fw)
{
    fw_r(fw, NE16_REG_ACQUIRE, fw->next_id, 0xFFFFFFFFu);
    return fw->next_id++ & 1u;
}

void fw_regs(ne16_fw_t *fw, unsigned ctx, const uint32_t regs[NE16_NUM_JOB_REGS], bool changed_only)
{
    for (unsigned i = 0; i < NE16_NUM_JOB_REGS; i++) {
        if (changed_only && fw->ctx[ctx][i] == regs[i]) continue;
        fw_w(fw, NE16_JOB_REG_BASE + 4 * i, regs[i]);
        fw->ctx[ctx][i] = regs[i];
    }
}

void fw_commit(ne16_fw_t *fw, uint32_t value) { fw_w(fw, NE16_REG_TRIGGER, value); }

uint64_t fw_iterations(const uint32_t regs[NE16_NUM_JOB_REGS])
{
    ne16_job_cfg_t c;
    ne16_job_decode(regs, &c);
    return (uint64_t)c.nb_ko * c.nb_ho * c.nb_wo * (c.dw ? 1 : c.nb_ki);
}

int fw_code(const uint32_t regs[NE16_NUM_JOB_REGS])
{
    ne16_job_cfg_t c;
    return ne16_job_decode(regs, &c);
}

void fw_wait(ne16_fw_t *fw, unsigned n, uint64_t iterations)
{
    /* 6.3 bound without stalls, times 6 for the heaviest grant-stall rate, plus slack */
    prog_wait_irq(fw->p, n, 20000 + 6 * (1000 * n + 2000 * iterations));
}

void fw_check_error(ne16_fw_t *fw, uint8_t id, int code)
{
    if (code) fw->job_error = NE16_JOB_ERROR_STICKY_MASK | (uint32_t)id << 8 | (uint32_t)code;
    fw_r(fw, NE16_REG_JOB_ERROR, fw->job_error, 0xFFFFFFFFu);
}

uint8_t fw_job(ne16_fw_t *fw, const uint32_t regs[NE16_NUM_JOB_REGS], bool changed_only)
{
    const uint8_t id = fw->next_id;
    const unsigned ctx = fw_acquire(fw);
    fw_regs(fw, ctx, regs, changed_only);
    fw_commit(fw, 0);
    const int code = fw_code(regs);
    fw_wait(fw, 1, code ? 0 : fw_iterations(regs));
    fw_check_error(fw, id, code);
    prog_check_golden(fw->p);
    fw->jobs++;
    return id;
}

void fw_soft_clear(ne16_fw_t *fw, uint32_t v)
{
    fw_w(fw, NE16_REG_SOFT_CLEAR, v);
    fw->next_id = 0;
    fw->job_error = 0;
    if (v == 0) memset(fw->ctx, 0, sizeof fw->ctx);
}

/* ---- layer loading ------------------------------------------------------------------------------- */
static void put_bytes(program_t *p, uint32_t addr, const uint8_t *b, size_t n)
{
    /* split at 2^32 so a buffer that wraps lands where the 32-bit engine reads it */
    const uint64_t room = 0x100000000ull - addr;
    if (n > room) {
        prog_mem(p, addr, b, (size_t)room);
        prog_mem(p, 0, b + room, n - (size_t)room);
    } else {
        prog_mem(p, addr, b, n);
    }
}

static void garbage(ne16_fw_t *fw, uint32_t addr, size_t n)
{
    uint8_t *b = malloc(n ? n : 1);
    if (!b) abort();
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)rng_next(&fw->rng);
    put_bytes(fw->p, addr, b, n);
    free(b);
}

int fw_layer_regs(const ne16_layer_t *l, uint32_t (*regs)[NE16_NUM_JOB_REGS], size_t max, char *err, size_t errlen)
{
    return ne16_driver_jobs(l, regs, max, err, errlen);
}

int fw_layer_load(ne16_fw_t *fw, ne16_layer_t *l, uint32_t base, char *err, size_t errlen)
{
    rng_t *g = &fw->rng;
    if (!l->in) l->in = base + 0x10000 + rng_below(g, 64);
    const bool out_given = l->out != 0; /* chained jobs share an output (streamin) */
    if (!out_given) l->out = base + 0x40000 + rng_below(g, 64);
    l->weights = base + 0x80000 + rng_below(g, 64);
    l->scale = base + 0xE0000 + rng_below(g, 16);
    l->scale_shift = base + 0xE1000 + rng_below(g, 16);
    l->scale_bias = base + 0xE2000 + rng_below(g, 16);
    if (ne16_layer_check(l, err, errlen)) return -1;
    const unsigned eb = ne16_layer_eb(l), sb = l->norm_bits / 8;
    const size_t in_bytes = ne16_in_bytes(l), out_bytes = ne16_out_bytes(l);
    const size_t row = (size_t)l->wi * l->ki * eb;
    /* garbage where the window may read beyond the tensor (padding rows/columns, 36-byte windows) */
    const size_t margin = 3 * row + 3 * (size_t)l->ki * eb + 64;
    garbage(fw, (uint32_t)(l->in - margin), margin);
    garbage(fw, (uint32_t)(l->in + in_bytes), margin);
    uint8_t *x = malloc(in_bytes ? in_bytes : 1);
    if (!x) abort();
    const unsigned hot = rng_below(g, 4) == 0 ? 60 : 10; /* sometimes many max values: accumulator corners */
    for (size_t i = 0; i < in_bytes; i++) x[i] = rng_chance(g, hot) ? 0xFF : (uint8_t)rng_next(g);
    put_bytes(fw->p, l->in, x, in_bytes);
    free(x);
    /* outputs: garbage prefill (streamin: it is the preload) */
    if (!out_given) garbage(fw, l->out - 64, out_bytes + 128);
    /* weights */
    const int wmin = ne16_layer_wmin(l);
    const unsigned kk = (l->mode == NE16_LAYER_3X3 || l->mode == NE16_LAYER_DW) ? 9 : 1;
    const size_t nw = (size_t)l->ko * (l->mode == NE16_LAYER_DW ? 1 : l->ki) * kk;
    int16_t *w = malloc(nw * sizeof *w);
    if (!w) abort();
    const unsigned span = 1u << l->qw, wmode = rng_below(g, 5);
    for (size_t i = 0; i < nw; i++) {
        unsigned u = rng_below(g, span);
        if (wmode == 0) u = span - 1;                    /* all max: large accumulators */
        else if (wmode == 1 && rng_chance(g, 50)) u = 0; /* many minimum weights */
        w[i] = (int16_t)(wmin + (int)u);
    }
    const size_t wbytes = ne16_weights_bytes(l);
    uint8_t *wb = malloc(wbytes ? wbytes : 1);
    if (!wb) abort();
    if (ne16_weights_encode(l, w, wb, err, errlen)) {
        free(w);
        free(wb);
        return -1;
    }
    garbage(fw, l->weights - 64, 64);
    put_bytes(fw->p, l->weights, wb, wbytes);
    garbage(fw, l->weights + (uint32_t)wbytes, 64);
    free(w);
    free(wb);
    /* normalisation parameters: random, or corner values (0, 1, max scale; +-2^31 bias) */
    const size_t np = (size_t)l->ko + 64;
    uint8_t *sc = malloc(np * 4), *sh = malloc(np), *bi = malloc(np * 4);
    if (!sc || !sh || !bi) abort();
    const unsigned smode = rng_below(g, 6);
    for (size_t k = 0; k < np; k++) {
        uint32_t s = (uint32_t)rng_next(g);
        if (smode == 0) s = 0;
        else if (smode == 1) s = 1;
        else if (smode == 2) s = 0xFFFFFFFFu;
        else if (smode == 3) s &= sb == 4 ? 0xFFu : 0x3u; /* small scales keep values in range */
        for (unsigned b = 0; b < 4; b++) sc[4 * k + b] = (uint8_t)(s >> 8 * b);
        const uint32_t bv = rng_chance(g, 10) ? (rng_chance(g, 50) ? 0x80000000u : 0x7FFFFFFFu) : (uint32_t)rng_next(g);
        for (unsigned b = 0; b < 4; b++) bi[4 * k + b] = (uint8_t)(bv >> 8 * b);
        sh[k] = (uint8_t)(rng_chance(g, 70) ? rng_below(g, 24) | (rng_below(g, 4) << 6) : rng_next(g));
    }
    (void)sb;
    put_bytes(fw->p, l->scale, sc, np * 4);
    put_bytes(fw->p, l->scale_shift, sh, np);
    put_bytes(fw->p, l->scale_bias, bi, np * 4);
    free(sc);
    free(sh);
    free(bi);
    return 0;
}
