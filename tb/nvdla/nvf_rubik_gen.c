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

/* Strides with 0-3 atoms of gap. */
static uint32_t gap(rng_t *r) { return 32 * (rng_chance(r, 50) ? 0 : rng_range(r, 1, 3)); }

static void rubik_job(program_t *p, rng_t *r, uint64_t seed, int k, int g)
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
        const uint32_t in_line = w * 32 + gap(r), in_surf = h * in_line + gap(r);
        const uint32_t out_line = w * sx * 32 + gap(r), super = sy * out_line, out_surf = h * super + gap(r);
        in_bytes = (sx * sy * S - 1) * in_surf + (h - 1) * in_line + w * 32;
        out_bytes = (S - 1) * out_surf + (h - 1) * super + (sy - 1) * out_line + w * sx * 32;
        dp_put(&l, NVDLA_RBK_D_DAIN_LINE_STRIDE_0, in_line), dp_put(&l, NVDLA_RBK_D_DAIN_SURF_STRIDE_0, in_surf);
        dp_put(&l, NVDLA_RBK_D_DAOUT_LINE_STRIDE_0, out_line), dp_put(&l, NVDLA_RBK_D_DAOUT_SURF_STRIDE_0, out_surf);
        dp_put(&l, NVDLA_RBK_D_CONTRACT_STRIDE_0_0, S * in_surf), dp_put(&l, NVDLA_RBK_D_CONTRACT_STRIDE_1_0, super);
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
        snprintf(what, sizeof what, "merge.c%u", cin);
    }
    prog_job(p, "rubik_random.s%llu.j%d.%s.%s2%s.%s", (unsigned long long)seed, k, nvf_prec[prec].name,
             src.cv ? "cv" : "dbb", dst.cv ? "cv" : "dbb", what);
    nvf_fill(p, r, src, in_bytes);
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
        rubik_job(p, &r, seed, k, g);
        nvf_wait_done(p, INTR_RUBIK(g), JOB_TIMEOUT);
        prog_check_golden(p);
    }
    return 0;
}
#endif
