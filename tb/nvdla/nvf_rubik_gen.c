/* RUBIK jobs on nv_full (nvf_gen.h): contract (deconvolution output reordering), split (a cube into planes) and
 * merge (planes into a cube), at any precision (RUBIK moves elements without arithmetic: FP16 too), input and output
 * each in DBB or CVSRAM. Registers as NVIDIA's firmware programs them (nvdla_sw kmd/firmware rubik.c,
 * processor_rubik_program): contract's CONTRACT_STRIDE_0 = output surfaces x input surface stride and
 * CONTRACT_STRIDE_1 = y stride x output line stride; the input of a contract has sx * sy * (output channels)
 * channels, whole atoms of output channels (NVIDIA's RBK_L0_0: 640 = 10 x 4 x 16 at INT16). */
#ifndef NV_FULL_ABSENT
#include "nv_full_regs.h"
#include "nvf_gen.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOB_TIMEOUT 600000u
#define INTR_RUBIK(g) (0x100u << (g)) /* GLB RUBIK_DONE_STATUS0/1 */

/* A job as drawn: what the generator needs to predict its output. */
typedef struct rbk_job {
    unsigned mode, esz, lanes;
    nvf_place_t dst;
    uint32_t w, h, c, sx, sy, S;                                  /* c: output channels (contract), planes */
    uint32_t in_line, in_surf, out_line, out_surf, super, planar; /* surf: surface or planar stride as the mode reads */
    uint8_t *in;                                                  /* the input's bytes, from the input's address */
} rbk_job_t;

/* want[0..n) at the output's offset off, which is `unit` a (`sub` b) of the mode's output. */
static void check(program_t *p, const rbk_job_t *j, uint32_t off, const uint8_t *want, uint32_t n, const char *unit,
                  uint32_t a, uint32_t b)
{
    char where[96];
    snprintf(where, sizeof where, "RUBIK %s output %s %u line %u",
             j->mode == 0   ? "contract"
             : j->mode == 1 ? "split"
                            : "merge",
             unit, a, b);
    prog_check_mem(p, nvf_addr(j->dst) + off, want, n, where);
}

/* The output as the generator predicts it from the modes' definitions (docs/nvdla_nv_full.md, RUBIK), line by line. */
static void expect(program_t *p, const rbk_job_t *j)
{
    uint8_t line[64 * 32 * 10];
    if (j->mode == 0) /* contract: output surface s, line ky of super line y, pixel x*sx + kx <- input surface
                         (ky*sx + kx)*S + s, line y, pixel x */
        for (uint32_t s = 0; s < j->S; s++)
            for (uint32_t y = 0; y < j->h; y++)
                for (uint32_t ky = 0; ky < j->sy; ky++) {
                    for (uint32_t x = 0; x < j->w; x++)
                        for (uint32_t kx = 0; kx < j->sx; kx++)
                            memcpy(line + (x * j->sx + kx) * 32,
                                   j->in + ((ky * j->sx + kx) * j->S + s) * j->in_surf + y * j->in_line + x * 32, 32);
                    check(p, j, s * j->out_surf + y * j->super + ky * j->out_line, line, j->w * j->sx * 32, "surf", s,
                          y * j->sy + ky);
                }
    else if (j->mode == 1) { /* split: plane ch, line y = channel ch's elements, zero to the line's 32-byte boundary */
        const uint32_t row = (j->w * j->esz + 31) / 32 * 32;
        for (uint32_t ch = 0; ch < j->c; ch++)
            for (uint32_t y = 0; y < j->h; y++) {
                memset(line, 0, row);
                for (uint32_t x = 0; x < j->w; x++)
                    memcpy(line + x * j->esz,
                           j->in + ch / j->lanes * j->in_surf + y * j->in_line + x * 32 + ch % j->lanes * j->esz,
                           j->esz);
                check(p, j, ch * j->planar + y * j->out_line, line, row, "plane", ch, y);
            }
    } else /* merge: atom (s, y, x) lane l <- plane s*lanes + l, line y, element x; lanes past the last channel 0 */
        for (uint32_t s = 0; s < (j->c + j->lanes - 1) / j->lanes; s++)
            for (uint32_t y = 0; y < j->h; y++) {
                memset(line, 0, j->w * 32);
                for (uint32_t x = 0; x < j->w; x++)
                    for (uint32_t l = 0; l < j->lanes && s * j->lanes + l < j->c; l++)
                        memcpy(line + x * 32 + l * j->esz,
                               j->in + (s * j->lanes + l) * j->planar + y * j->in_line + x * j->esz, j->esz);
                check(p, j, s * j->out_surf + y * j->out_line, line, j->w * 32, "surf", s, y);
            }
}

/* Strides with 0-3 atoms of gap. */
static uint32_t gap(rng_t *r) { return 32 * (rng_chance(r, 50) ? 0 : rng_range(r, 1, 3)); }

static void rubik_job(program_t *p, rng_t *r, uint64_t seed, int k, int g, rbk_job_t *j)
{
    const unsigned mode = rng_below(r, 3);
    const nvf_prec_t prec = (nvf_prec_t)rng_below(r, NVF_NPREC); /* data movement: every precision computed */
    const uint32_t esz = nvf_prec[prec].esz, lanes = 32 / esz;
    const nvf_place_t src = nvf_place(r, k, 0, 40), dst = nvf_place(r, k, 1, 40);
    const uint32_t w = rng_range(r, 1, rng_chance(r, 20) ? 32 : 8), h = rng_range(r, 1, 6);
    dp_wlist_t l = {.n = 0};
    uint32_t in_bytes, out_bytes, cin, cout;
    char what[40];
    if (mode == 0) { /* contract: input surface (ky*sx + kx)*S + s -> output surface s, pixel x*sx + kx, line ky */
        const uint32_t sx = rng_chance(r, 80) ? rng_range(r, 1, 4) : rng_range(r, 1, 10),
                       sy = rng_chance(r, 80) ? rng_range(r, 1, 4) : rng_range(r, 1, 10), S = rng_range(r, 1, 2);
        cout = S * lanes, cin = sx * sy * cout;
        j->sx = sx, j->sy = sy, j->S = S;
        const uint32_t in_line = w * 32 + gap(r), in_surf = h * in_line + gap(r);
        const uint32_t out_line = w * sx * 32 + gap(r), super = sy * out_line, out_surf = h * super + gap(r);
        in_bytes = (sx * sy * S - 1) * in_surf + (h - 1) * in_line + w * 32;
        out_bytes = (S - 1) * out_surf + (h - 1) * super + (sy - 1) * out_line + w * sx * 32;
        dp_put(&l, NVDLA_RBK_D_DAIN_LINE_STRIDE_0, in_line), dp_put(&l, NVDLA_RBK_D_DAIN_SURF_STRIDE_0, in_surf);
        dp_put(&l, NVDLA_RBK_D_DAOUT_LINE_STRIDE_0, out_line), dp_put(&l, NVDLA_RBK_D_DAOUT_SURF_STRIDE_0, out_surf);
        dp_put(&l, NVDLA_RBK_D_CONTRACT_STRIDE_0_0, S * in_surf), dp_put(&l, NVDLA_RBK_D_CONTRACT_STRIDE_1_0, super);
        j->in_line = in_line, j->in_surf = in_surf, j->out_line = out_line, j->out_surf = out_surf, j->super = super;
        dp_put(&l, NVDLA_RBK_D_DECONV_STRIDE_0, (sx - 1) | (sy - 1) << 16);
        snprintf(what, sizeof what, "contract.%ux%u", sx, sy);
    } else if (mode == 1) { /* split: channel c of the cube -> plane c, each line to its next 32-byte boundary */
        cin = cout = rng_range(r, 1, 3 * lanes);
        const uint32_t ns = (cin + lanes - 1) / lanes, in_line = w * 32 + gap(r), in_surf = h * in_line + gap(r);
        const uint32_t out_line = (w * esz + 31) / 32 * 32 + gap(r), planar = h * out_line + gap(r);
        in_bytes = (ns - 1) * in_surf + (h - 1) * in_line + w * 32;
        out_bytes = (cout - 1) * planar + (h - 1) * out_line + (w * esz + 31) / 32 * 32;
        dp_put(&l, NVDLA_RBK_D_DAIN_LINE_STRIDE_0, in_line), dp_put(&l, NVDLA_RBK_D_DAIN_SURF_STRIDE_0, in_surf);
        dp_put(&l, NVDLA_RBK_D_DAOUT_LINE_STRIDE_0, out_line), dp_put(&l, NVDLA_RBK_D_DAOUT_PLANAR_STRIDE_0, planar);
        j->in_line = in_line, j->in_surf = in_surf, j->out_line = out_line, j->planar = planar;
        snprintf(what, sizeof what, "split.c%u", cout);
    } else { /* merge: plane c -> channel c of the cube, lanes past the last channel zero */
        cin = cout = rng_range(r, 1, 3 * lanes);
        const uint32_t ns = (cout + lanes - 1) / lanes;
        const uint32_t in_line = (w * esz + 31) / 32 * 32 + gap(r), planar = h * in_line + gap(r);
        const uint32_t out_line = w * 32 + gap(r), out_surf = h * out_line + gap(r);
        in_bytes = (cin - 1) * planar + (h - 1) * in_line + w * esz;
        out_bytes = (ns - 1) * out_surf + (h - 1) * out_line + w * 32;
        dp_put(&l, NVDLA_RBK_D_DAIN_LINE_STRIDE_0, in_line), dp_put(&l, NVDLA_RBK_D_DAIN_PLANAR_STRIDE_0, planar);
        dp_put(&l, NVDLA_RBK_D_DAOUT_LINE_STRIDE_0, out_line), dp_put(&l, NVDLA_RBK_D_DAOUT_SURF_STRIDE_0, out_surf);
        j->in_line = in_line, j->planar = planar, j->out_line = out_line, j->out_surf = out_surf;
        snprintf(what, sizeof what, "merge.c%u", cin);
    }
    prog_job(p, "rubik_random.s%llu.j%d.%s.%s2%s.%s", (unsigned long long)seed, k, nvf_prec[prec].name,
             src.cv ? "cv" : "dbb", dst.cv ? "cv" : "dbb", what);
    j->mode = mode, j->esz = esz, j->lanes = lanes, j->dst = dst, j->w = w, j->h = h, j->c = cout;
    j->in = nvf_fill_keep(p, r, src, in_bytes);
    nvf_fill(p, r, dst, out_bytes); /* bytes the unit must not touch keep their values */
    dp_put(&l, NVDLA_RBK_D_MISC_CFG_0, mode | (uint32_t)prec << 8);
    dp_put(&l, NVDLA_RBK_D_DAIN_RAM_TYPE_0, nvf_ram(src)), dp_put(&l, NVDLA_RBK_D_DAOUT_RAM_TYPE_0, nvf_ram(dst));
    dp_put(&l, NVDLA_RBK_D_DATAIN_SIZE_0_0, (w - 1) | (h - 1) << 16);
    dp_put(&l, NVDLA_RBK_D_DATAIN_SIZE_1_0, cin - 1), dp_put(&l, NVDLA_RBK_D_DATAOUT_SIZE_1_0, cout - 1);
    dp_put(&l, NVDLA_RBK_D_DAIN_ADDR_LOW_0, src.addr), dp_put(&l, NVDLA_RBK_D_DAIN_ADDR_HIGH_0, 0);
    dp_put(&l, NVDLA_RBK_D_DAOUT_ADDR_LOW_0, dst.addr), dp_put(&l, NVDLA_RBK_D_DAOUT_ADDR_HIGH_0, 0);
    prog_write(p, NVDLA_RBK_S_POINTER_0, (uint32_t)g);
    dp_emit_shuffled(p, r, &l);
    prog_write(p, NVDLA_RBK_D_OP_ENABLE_0, 1);
}

/* 1-3 jobs, alternating groups, each waited for and checked. */
int nvf_rubik_random(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "nvf_rubik_random");
    int jobs = (int)rng_range(&r, 1, 3), g = 0;
    for (int k = 0; k < jobs; k++, g ^= 1) {
        rbk_job_t j = {.mode = 0};
        rubik_job(p, &r, seed, k, g, &j);
        nvf_wait_done(p, INTR_RUBIK(g), JOB_TIMEOUT);
        prog_check_golden(p);
        expect(p, &j);
        free(j.in);
    }
    return 0;
}
#endif
