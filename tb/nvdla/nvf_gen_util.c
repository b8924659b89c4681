/* Helpers of the nv_full random generators (nvf_gen.h): the precision table and its draw, DBB/CVSRAM places,
 * 32-byte-atom cubes, completion through nv_full's GLB. */
#include "nvf_gen.h"
#include "nvdla_golden.h" /* NVDLA_CV_SPACE */
#include <stdio.h>
#include <stdlib.h>
#ifndef NV_FULL_ABSENT
#include "nv_full_regs.h"
#endif

#define CONV_FP16                                                                                                  \
    "conv_random keeps INT8/INT16 so that its seeds keep their meaning; FP16 convolutions are conv_random_fp16's " \
    "(its own seed stream, FP16 values drawn for a convolution: nvf_conv_gen.c)"
const nvf_prec_info_t nvf_prec[NVF_NPREC] = {
    [NVF_INT8] = {"int8", 1, {NULL, NULL}},
    [NVF_INT16] = {"int16", 2, {NULL, NULL}},
    /* FP16: SDP (BS/BN stages, converter), PDP (max, min, average up to 8x8) and CDP (the whole path) as cmod computes
     * them (golden/nvdla/sdp_fp16.c, pdp_fp16.c, cdp_fp16.c); the convolution too (conv_fp16.c), drawn by its own test */
    [NVF_FP16] = {"fp16", 2, {NULL, CONV_FP16}},
};

nvf_prec_t nvf_draw_prec(rng_t *r, nvf_draw_t who)
{
    for (;;) { /* INT8 and INT16 always computed: terminates */
        nvf_prec_t p = (nvf_prec_t)rng_below(r, NVF_NPREC);
        if (!nvf_prec[p].why_not[who]) return p;
    }
}

nvf_fp16_mix_t nvf_fp16_draw_mix(rng_t *r)
{
    const unsigned kind = rng_below(r, 100);
    if (kind < 55) return (nvf_fp16_mix_t){0, -4, 4};                    /* moderate: arithmetic, rounding */
    if (kind < 80) return (nvf_fp16_mix_t){rng_range(r, 10, 30), -4, 4}; /* corners among them */
    if (kind < 90) return (nvf_fp16_mix_t){rng_range(r, 0, 10), 10, 15}; /* large: sums and products overflow */
    return (nvf_fp16_mix_t){rng_range(r, 0, 10), -14, -10};              /* tiny: products flush to zero */
}

uint16_t nvf_fp16_value(rng_t *r, const nvf_fp16_mix_t *m)
{
    const uint16_t sign = rng_chance(r, 50) ? 0x8000 : 0, mant = (uint16_t)(rng_next(r) & 0x3FF);
    if (rng_chance(r, m->special_pct)) switch (rng_below(r, 7)) {
        case 0: return sign;                                  /* +-0 */
        case 1: return sign | (mant ? mant : 1);              /* denormal */
        case 2: return sign | 0x7C00;                         /* +-Inf */
        case 3: return sign | 0x7C00 | (mant ? mant : 0x200); /* NaN, any payload */
        case 4: return sign | 0x7BFF;                         /* +-65504 */
        case 5: return sign | 0x0400;                         /* the smallest normal */
        default: return (uint16_t)rng_next(r);                /* any bits */
        }
    const int e = (int)rng_range(r, (uint32_t)(m->emin + 15), (uint32_t)(m->emax + 15)); /* biased, 1..30 */
    return sign | (uint16_t)(e << 10) | mant;
}

uint8_t *nvf_fill_fp16_keep(program_t *p, rng_t *r, nvf_place_t at, uint32_t size, const nvf_fp16_mix_t *m)
{
    uint8_t *b = malloc(size);
    if (!b) abort();
    for (uint32_t i = 0; i + 1 < size; i += 2) {
        const uint16_t v = nvf_fp16_value(r, m);
        b[i] = (uint8_t)v, b[i + 1] = (uint8_t)(v >> 8);
    }
    if (size & 1) b[size - 1] = 0;
    prog_mem(p, nvf_addr(at), b, size);
    return b;
}

unsigned nvf_fp16_class(uint16_t v)
{
    const unsigned e = (v >> 10) & 0x1F, m = v & 0x3FF;
    return e == 0x1F ? (m ? 4 : 3) : e ? 0 : m ? 1 : 2;
}

nvf_place_t nvf_place(rng_t *r, int k, unsigned slot, unsigned cv_pct)
{
    /* DBB as NVIDIA's trace player maps it (0x8xxxxxxx), 4 MiB slots; CVSRAM at 0x5xxxxxxx, 1 MiB slots (its
     * window in the harness is 256 MiB; the jobs' cubes are tens of KiB) */
    const bool cv = rng_chance(r, cv_pct);
    return cv ? (nvf_place_t){true, 0x50000000u + (uint32_t)k * 0x00400000u + slot * 0x00100000u}
              : (nvf_place_t){false, 0x80000000u + (uint32_t)k * 0x01000000u + slot * 0x00400000u};
}

uint64_t nvf_addr(nvf_place_t at) { return at.cv ? NVDLA_CV_SPACE | at.addr : at.addr; }

uint8_t *nvf_fill_keep(program_t *p, rng_t *r, nvf_place_t at, uint32_t size)
{
    uint8_t *b = malloc(size);
    if (!b) abort();
    for (uint32_t i = 0; i < size; i++) b[i] = (uint8_t)rng_next(r);
    prog_mem(p, nvf_addr(at), b, size);
    return b;
}

void nvf_fill(program_t *p, rng_t *r, nvf_place_t at, uint32_t size) { free(nvf_fill_keep(p, r, at, size)); }

nvf_cube_t nvf_cube(rng_t *r, uint32_t w, uint32_t h, uint32_t c, uint32_t esz)
{
    nvf_cube_t q = {.w = w, .h = h, .c = c, .esz = esz, .s = (c * esz + 31) / 32};
    dp_strides_atom(r, w, h, 32, &q.line, &q.surf);
    q.surf_reg = q.surf;
    return q;
}

void nvf_cube_sdp(nvf_cube_t *q)
{
    if (q->w == 1 && q->h == 1) q->surf = 32;
}

uint32_t nvf_cube_bytes(const nvf_cube_t *q) { return dp_footprint_atom(q->w, q->h, q->s, q->line, q->surf, 32); }

int32_t nvf_elem(const uint8_t *b, const nvf_cube_t *q, uint32_t ch, uint32_t y, uint32_t x)
{
    const uint32_t lanes = 32 / q->esz;
    const uint8_t *e = b + ch / lanes * q->surf + y * q->line + x * 32 + ch % lanes * q->esz;
    return q->esz == 1 ? (int8_t)e[0] : (int16_t)(e[0] | e[1] << 8);
}

void nvf_expect_cube(program_t *p, const char *what, nvf_place_t at, const nvf_cube_t *q, nvf_elem_fn elem,
                     const void *ctx, bool corrupt)
{
    const uint32_t lanes = 32 / q->esz;
    uint8_t atom[32];
    for (uint32_t s = 0; s < q->s; s++) {
        const uint32_t first = s * lanes, n = q->c - first < lanes ? q->c - first : lanes;
        for (uint32_t y = 0; y < q->h; y++)
            for (uint32_t x = 0; x < q->w; x++) {
                for (uint32_t l = 0; l < n; l++) {
                    const int32_t v = elem(ctx, first + l, y, x);
                    atom[l * q->esz] = (uint8_t)v;
                    if (q->esz == 2) atom[l * 2 + 1] = (uint8_t)(v >> 8);
                }
                if (corrupt && !s && !y && !x) atom[0] ^= 0x10;
                char where[96];
                snprintf(where, sizeof where, "%s surf %u h %u w %u (channels %u-%u, %u byte(s) each)", what, s, y, x,
                         first, first + n - 1, q->esz);
                prog_check_mem(p, nvf_addr(at) + s * q->surf + y * q->line + x * 32, atom, n * q->esz, where);
            }
    }
}

#ifndef NV_FULL_ABSENT
void nvf_wait_done(program_t *p, uint32_t bits, uint64_t timeout)
{
    prog_wait_irq(p, 0, timeout);
    prog_poll(p, NVDLA_GLB_S_INTR_STATUS_0, bits, bits, timeout);
    prog_write(p, NVDLA_GLB_S_INTR_STATUS_0, bits);
}
#else
void nvf_wait_done(program_t *p, uint32_t bits, uint64_t timeout) { (void)p, (void)bits, (void)timeout; }
NVF_ABSENT(nvf_bdma_random)
NVF_ABSENT(nvf_sdp_random)
NVF_ABSENT(nvf_pdp_random)
NVF_ABSENT(nvf_cdp_random)
NVF_ABSENT(nvf_sdp_random_fp16)
NVF_ABSENT(nvf_pdp_random_fp16)
NVF_ABSENT(nvf_cdp_random_fp16)
NVF_ABSENT(nvf_rubik_random)
NVF_ABSENT(nvf_conv_random)
NVF_ABSENT(nvf_conv_random_fp16)
NVF_ABSENT(nvf_conv_random_wino)
NVF_ABSENT(nvf_conv_random_wino_fp16)
NVF_ABSENT(nvf_conv_wino_fp16_corrupt)
NVF_ABSENT(nvf_conv_random_cmp)
NVF_ABSENT(nvf_conv_random_batch)
NVF_ABSENT(nvf_conv_random_fc)
NVF_ABSENT(nvf_conv_random_cmp_batch)
NVF_ABSENT(nvf_conv_cmp_corrupt)
NVF_ABSENT(nvf_conv_batch_corrupt)
NVF_ABSENT(nvf_bdma_corrupt)
NVF_ABSENT(nvf_sdp_corrupt)
#endif

void nvf_pointers(program_t *p, uint32_t core, uint32_t rdma, int g)
{
    prog_write(p, core, (uint32_t)g);
    if (rdma) prog_write(p, rdma, (uint32_t)g);
}

void nvf_enable(program_t *p, rng_t *r, uint32_t core, uint32_t rdma)
{
    const bool core_first = rng_chance(r, 50);
    if (core_first) prog_write(p, core, 1);
    if (rdma) prog_write(p, rdma, 1);
    if (!core_first) prog_write(p, core, 1);
}

#ifndef NV_FULL_ABSENT /* the register names come from arnvdla.h; only the nv_full generators call these */
void nvf_conv_launch(program_t *p, rng_t *r, dp_wlist_t *l, int k, int g, int rdma_group)
{
    nvf_conv_launch_to(p, r, l, k, g, rdma_group, false);
}

void nvf_conv_launch_to(program_t *p, rng_t *r, dp_wlist_t *l, int k, int g, int rdma_group, bool pdp)
{
    if (k == 0) prog_poll(p, NVDLA_CDMA_S_CBUF_FLUSH_STATUS_0, 1, 1, 20000); /* as NVIDIA's firmware waits for it */
    static const uint32_t units[] = {NVDLA_SDP_S_POINTER_0,    NVDLA_CACC_S_POINTER_0, NVDLA_CMAC_A_S_POINTER_0,
                                     NVDLA_CMAC_B_S_POINTER_0, NVDLA_CSC_S_POINTER_0,  NVDLA_CDMA_S_POINTER_0};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) prog_write(p, units[i], (uint32_t)g);
    if (rdma_group >= 0) prog_write(p, NVDLA_SDP_RDMA_S_POINTER_0, (uint32_t)rdma_group);
    if (pdp) prog_write(p, NVDLA_PDP_S_POINTER_0, (uint32_t)g);
    dp_emit_shuffled(p, r, l);
    if (pdp) prog_write(p, NVDLA_PDP_D_OP_ENABLE_0, 1); /* first: it waits for SDP's stream */
    if (rdma_group >= 0)
        prog_write(p, NVDLA_SDP_RDMA_D_OP_ENABLE_0, 1); /* before SDP, as NVIDIA's firmware (sdp.c:220) */
    static const uint32_t enables[] = {NVDLA_SDP_D_OP_ENABLE_0,    NVDLA_CACC_D_OP_ENABLE_0, NVDLA_CMAC_A_D_OP_ENABLE_0,
                                       NVDLA_CMAC_B_D_OP_ENABLE_0, NVDLA_CSC_D_OP_ENABLE_0,  NVDLA_CDMA_D_OP_ENABLE_0};
    for (size_t i = 0; i < sizeof enables / sizeof *enables; i++) prog_write(p, enables[i], 1);
    /* SDP done, CDMA data and weights done, CACC done (GLB status), of group g */
    nvf_wait_done(p, (0x1u | 0x10000u | 0x40000u | 0x100000u | (pdp ? 0x10u : 0u)) << g, NVF_CONV_TIMEOUT);
    prog_check_golden(p);
}
#endif
