/* SDP and PDP of a configuration with 32-byte atoms (nv_full: a surface holds 32 INT8 or 16 INT16 channels, a
 * pixel one atom), at INT8 and INT16, from memory to memory: the arithmetic of the nv_small models (sdp_x_stage,
 * the converter, max/min pooling), NVIDIA's cmod the reference for what differs (hls/sdp/sdp_c.cpp: INT16 output
 * saturates the same 17-bit value to 16 bits; sdp/NV_NVDLA_sdp.cpp: an INT16 input element is sign-extended,
 * unshifted). What these do not compute (FP16, operand DMAs, the EW stage, SDP fed by CACC or feeding PDP, PDP
 * average pooling) is refused with an error naming it. */
#ifndef DP_ATOM32_H
#define DP_ATOM32_H
#include "nvdla_dp.h"

#define NV_ATOM32 32u

/* SDP layer of SDP's and SDP_RDMA's CONSUMER groups (the model's windows, nvdla_pp.h). */
void sdp32_run(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group);
/* PDP layer (PDP_RDMA reading memory) of their CONSUMER groups. */
void pdp32_run(const nvdla_pp_t *pdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group);
#endif
