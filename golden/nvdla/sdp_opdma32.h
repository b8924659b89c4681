/* SDP's operand DMAs with nv_full's 32-byte atoms: BRDMA (X1, BS), NRDMA (X2, BN) and ERDMA (Y, EW) read a stage's
 * ALU and/or multiplier operands from memory, per channel (one value a channel, PER_KERNEL) or per element (a value
 * for every element of the cube, PER_ELEMENT), 1 or 2 bytes each, one operand or both (ALU then MUL, interleaved
 * channel by channel). Layout as NVIDIA's C model reads it (cmod sdp/NV_NVDLA_sdp.cpp SdpRdmaCore and
 * ExtractRdmaResponsePayload) and the RTL requests it (vmod sdp/NV_NVDLA_SDP_BRDMA_ig.v, the NRDMA/ERDMA twins):
 * a group of `lanes` channels (32 at INT8 processing, 16 at INT16 and FP16), bpe bytes a channel (1 or 2, twice
 * for BOTH); per channel the groups back to back from the base address; per element group s, line y, pixel x at
 * base + s * surface stride + y * line stride + x * lanes * bpe, except a 1x1 cube, which the RTL reads straight
 * like per-channel operands (BRDMA_ig.v:799, cfg_mode_1x1_pack). */
#ifndef SDP_OPDMA32_H
#define SDP_OPDMA32_H
#include "dp_atom32.h"
#include "sdp_fp16.h"
#include "sdp_golden.h"
#include <stdbool.h>
#include <stdint.h>

typedef enum { SDP_OPDMA_B = 0, SDP_OPDMA_N = 1, SDP_OPDMA_E = 2 } sdp_opdma_which_t;

typedef struct sdp_opdma32 {
    const char *name; /* "BRDMA", "NRDMA", "ERDMA" */
    bool on, alu, mul, two_byte, per_elem;
    unsigned use;   /* DATA_USE: 0 MUL, 1 ALU, 2 BOTH, 3 reserved */
    unsigned bpe;   /* bytes a channel: 1 or 2, twice for BOTH */
    unsigned lanes; /* channels a group: the processing precision's */
    place32_t at;
} sdp_opdma32_t;

/* The DMA's registers in SDP_RDMA's CONSUMER group (model offsets 0x28/0x40/0x58 and the three after each). */
sdp_opdma32_t sdp_opdma32(const nvdla_pp_t *rdma, sdp_opdma_which_t which, unsigned lanes);
/* True when the DMA supplies exactly what the stage reads from memory (want_alu, want_mul), legally for the
 * processing precision (2-byte operands at INT16 and FP16: BRDMA_ig.v's size_of_straight marks 1 byte "illegal",
 * cmod asserts it for NRDMA and ERDMA), at 32-byte-aligned addresses; else false with an error naming the stage. */
bool sdp_opdma32_check(const nvdla_dp_ctx_t *ctx, int group, const char *stage, bool want_alu, bool want_mul,
                       const sdp_opdma32_t *d, bool proc_int8);
/* The operands of channel lane `lane` of group s at (y, x): *alu and/or *mul (what the DMA carries) set to the
 * sign-extended 1- or 2-byte value (at FP16 the FP16 bits, sign-extended; the stage reads their low 16). */
void sdp_opdma32_fetch(const sdp_opdma32_t *d, const mem_t *m, uint32_t s, uint32_t y, uint32_t x, uint32_t lane,
                       bool one_by_one, int64_t *alu, int64_t *mul);
/* EW at FP16 (sdp_ew_fp16.h): the operands ERDMA carries for this element, FP16 bits through Y_cvt (a NaN +0 under
 * c->nan_to_zero, widened to FP32), put in place of c->y's register operands. */
void sdp32_ew_fp16_fetch(const sdp_opdma32_t *d, const mem_t *m, uint32_t s, uint32_t y, uint32_t x, uint32_t lane,
                         bool one_by_one, sdp_fp16_cfg_t *c);
/* The stage's memory operands: (want_alu, want_mul) of an X stage as configured (sdp_golden.h). */
void sdp_x_wants(const sdp_x_cfg_t *c, bool *want_alu, bool *want_mul);

/* An FP16 convolution's SDP on the fly (conv_atom32.c; NN_L0_0's biases): BS's or BN's operands from BRDMA or NRDMA
 * per channel (PER_KERNEL, two-byte FP16 bits), gathered once for the layer's n channels (the output's surfaces
 * times 16 lanes: the pad lanes' operands are read too, as the DMA reads whole atoms). alu[k] / mul[k], NULL where
 * the stage takes the register's. */
typedef struct sdp32_opnd {
    uint16_t *alu, *mul;
    uint32_t n;
} sdp32_opnd_t;
/* The stage at stage_off (BS 0x58, BN 0x6c) and its DMA (SDP_OPDMA_B or _N). False, with an error naming what, when
 * the DMA does not carry what the stage reads, or reads per element (not computed on the fly). */
bool sdp32_stage_opnd(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group,
                      uint32_t stage_off, sdp_opdma_which_t which, const char *name, uint32_t n, sdp_x_cfg_t *c,
                      sdp32_opnd_t *o);
/* The FP16 stage of channel k: the register stage with channel k's memory operands in place. */
sdp_fp16_stage_t sdp32_opnd_stage(sdp_fp16_stage_t st, const sdp32_opnd_t *o, uint32_t k);
void sdp32_opnd_free(sdp32_opnd_t *o);
#endif
