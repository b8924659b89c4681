/* SDP's BS (X1) and BN (X2) operands from memory with 32-byte atoms (nv_full), at FP16 after a convolution on the
 * fly: the operand DMAs BRDMA and NRDMA in PER_KERNEL mode with two-byte components (NN_L0_0's biases), one operand
 * (or an ALU, MUL pair) per output channel, read as NVIDIA's cmod reads them (sdp/NV_NVDLA_sdp.cpp:345-354: from the
 * base address, one contiguous run of surf_num x 16 elements, the strides unused at PER_KERNEL, :440-450; BOTH
 * interleaves ALU then MUL per element, :1950-1953). PER_ELEMENT and one-byte components are refused, naming them. */
#ifndef SDP_OPDMA32_H
#define SDP_OPDMA32_H
#include "nvdla_dp.h"
#include "sdp_fp16.h"
#include "sdp_golden.h"

/* The stage's operands per channel: alu[k] / mul[k] (FP16 bits) for channels 0..n-1, NULL where the stage takes the
 * register's. */
typedef struct sdp32_opnd {
    uint16_t *alu, *mul;
    uint32_t n;
} sdp32_opnd_t;

/* SDP's X stage at stage_off (BS 0x58, BN 0x6c) with its operand DMA's registers at dma_off of SDP_RDMA (BRDMA 0x28,
 * NRDMA 0x40), for n channels (the output's surfaces times 16 lanes: the pad lanes' operands are read too, as
 * the DMA reads whole atoms). False, with an error naming what, when the stage's memory operands are not computed. */
bool sdp32_stage_opnd(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group,
                      uint32_t stage_off, uint32_t dma_off, const char *name, uint32_t n, sdp_x_cfg_t *c,
                      sdp32_opnd_t *o);
/* The FP16 stage of channel k: the register stage with channel k's memory operands in place. */
sdp_fp16_stage_t sdp32_opnd_stage(sdp_fp16_stage_t st, const sdp32_opnd_t *o, uint32_t k);
void sdp32_opnd_free(sdp32_opnd_t *o);
#endif
