/* FP16 convolutions whose SDP takes its BS operands from memory (nvf_gen.h: nvf_conv_opnd_draw): SDP_RDMA's BRDMA in
 * PER_KERNEL mode with two-byte FP16 operands, one (ALU or MUL) or two (BOTH: ALU then MUL) per output channel, the
 * registers as NVIDIA's firmware writes them for a flying SDP (kmd/firmware/sdp.c:351-430: D_FEATURE_MODE_CFG with
 * FLYING_MODE on, the cube, D_BRDMA_CFG, the BS base and strides). NN_L0_0's biases are this mode (ALU); drawn here
 * for ALU, MUL and BOTH so that the golden model's reading (golden/nvdla/sdp_opdma32.c) meets the RTL on all three.
 * Its own seed stream: a job's other draws are those it had before. */
#ifndef NV_FULL_ABSENT
#include "nv_full_regs.h"
#include "nvf_gen.h"
#include "sdp_golden.h"
#include "sdp_opdma32.h"
#include <stdio.h>
#include <stdlib.h>

/* The value of register a in l, set anew (the generator's list holds each register once: written twice, the
 * shuffled order would decide which value lands). */
static void put_once(dp_wlist_t *l, uint32_t a, uint32_t v)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->w[i].a == a) {
            l->w[i].v = v;
            return;
        }
    dp_put(l, a, v);
}

bool nvf_conv_opnd_draw(program_t *p, uint64_t seed, int k, dp_wlist_t *l, const sdp_x_cfg_t *bs, uint32_t Wo,
                        uint32_t Ho, uint32_t K, uint32_t batches, unsigned out_prec, sdp32_opnd_t *o)
{
    *o = (sdp32_opnd_t){0};
    const bool alu = !bs->bypass && !bs->alu_bypass, mul = !bs->bypass && !bs->mul_bypass;
    rng_t r;
    char stream[40];
    snprintf(stream, sizeof stream, "nvf_conv_opnd.j%d", k);
    rng_seed_stream(&r, seed, stream);
    if (!(alu || mul) || !rng_chance(&r, 40)) return false;
    const unsigned use = alu && mul ? 2 : alu ? 1 : 0; /* D_BRDMA_CFG.BRDMA_DATA_USE: MUL 0, ALU 1, BOTH 2 */
    const uint32_t n = (K + 15) / 16 * 16, bpe = use == 2 ? 4 : 2;
    const nvf_place_t at = nvf_place(&r, k, 3, 30);
    const nvf_fp16_mix_t mix = {rng_chance(&r, 30) ? 2 : 0, -3, 3};
    uint8_t *b = malloc((size_t)n * bpe);
    if (!b) abort();
    o->n = n;
    if (alu) o->alu = malloc(n * sizeof *o->alu);
    if (mul) o->mul = malloc(n * sizeof *o->mul);
    if ((alu && !o->alu) || (mul && !o->mul)) abort();
    for (uint32_t c = 0; c < n; c++) { /* the pad lanes' operands too: the DMA reads whole atoms */
        uint8_t *e = b + (size_t)c * bpe;
        if (alu) o->alu[c] = nvf_fp16_value(&r, &mix), e[0] = (uint8_t)o->alu[c], e[1] = (uint8_t)(o->alu[c] >> 8);
        if (mul) {
            o->mul[c] = nvf_fp16_value(&r, &mix);
            uint8_t *m = use == 2 ? e + 2 : e;
            m[0] = (uint8_t)o->mul[c], m[1] = (uint8_t)(o->mul[c] >> 8);
        }
    }
    prog_mem(p, nvf_addr(at), b, (size_t)n * bpe);
    free(b);
    put_once(l, NVDLA_SDP_D_DP_BS_ALU_CFG_0, (uint32_t)bs->alu_shift << 8 | (uint32_t)alu);
    put_once(l, NVDLA_SDP_D_DP_BS_MUL_CFG_0, (uint32_t)bs->mul_shift << 8 | (uint32_t)mul);
    /* flying, FP16, the batches (NVIDIA's firmware sets them here too, sdp.c:370: without them the operand DMA feeds one
     * batch and SDP waits for the next) */
    put_once(l, NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0, 1u | 2u << 2 | 2u << 4 | out_prec << 6 | (batches - 1) << 8);
    put_once(l, NVDLA_SDP_RDMA_D_DATA_CUBE_WIDTH_0, Wo - 1), put_once(l, NVDLA_SDP_RDMA_D_DATA_CUBE_HEIGHT_0, Ho - 1);
    put_once(l, NVDLA_SDP_RDMA_D_DATA_CUBE_CHANNEL_0, K - 1);
    put_once(l, NVDLA_SDP_RDMA_D_BRDMA_CFG_0, use << 1 | 1u << 3 | nvf_ram(at) << 5); /* on, two-byte, PER_KERNEL */
    put_once(l, NVDLA_SDP_RDMA_D_BS_BASE_ADDR_LOW_0, at.addr), put_once(l, NVDLA_SDP_RDMA_D_BS_BASE_ADDR_HIGH_0, 0);
    /* unused at PER_KERNEL; cmod asserts a 1x1 cube's surface stride is one group of operands (NV_NVDLA_sdp.cpp:385) */
    put_once(l, NVDLA_SDP_RDMA_D_BS_LINE_STRIDE_0, 16 * bpe),
        put_once(l, NVDLA_SDP_RDMA_D_BS_SURFACE_STRIDE_0, 16 * bpe);
    return true;
}
#endif
