/* SDP (+SDP_RDMA) golden model, nv_small INT8 (spec nvdla_datapath.md §2): MRDMA input, BS (X1) and BN
 * (X2) stages with register or DMA operands, output converter, WDMA or the on-the-fly stream to PDP. */
#ifndef SDP_GOLDEN_H
#define SDP_GOLDEN_H
#include "conv_golden.h"
#include "nvdla_dp.h"
#include <stdbool.h>
#include <stdint.h>

/* One X stage (BS or BN) as configured. Register operands are already SX_16. */
typedef struct sdp_x_cfg {
    bool bypass, alu_bypass, mul_bypass, prelu, relu_bypass, alu_src, mul_src;
    unsigned algo, alu_shift, mul_shift;
    int64_t alu_reg, mul_reg;
} sdp_x_cfg_t;

/* One stage's registers decoded; cfg is its CFG register's offset in SDP: BS at 0x58.., BN at 0x6c.. */
sdp_x_cfg_t sdp_x_cfg(const nvdla_pp_t *sdp, uint32_t cfg);
/* §2.4: x is a signed 32-bit value; op_a / op_m are the operands the stage uses (DMA or register). */
int64_t sdp_x_stage(const sdp_x_cfg_t *c, int64_t x, int64_t op_a, int64_t op_m);
/* §2.5: output converter to the int8 byte. */
int8_t sdp_cvt(int64_t t, uint32_t offset, uint32_t scale, uint32_t shift);
/* The same; *sat17 (may be NULL) tells whether the 17-bit stage saturated (D_PERF_OUT_SATURATION, §2.7). */
int8_t sdp_cvt_sat(int64_t t, uint32_t offset, uint32_t scale, uint32_t shift, bool *sat17);
/* The converter to an output of `bits` bits (8: INT8; 16: nv_full's INT16, cmod hls/sdp/sdp_c.cpp: the same
 * 17-bit truncation, then saturation to 16 bits). */
int32_t sdp_cvt_bits(int64_t t, uint32_t offset, uint32_t scale, uint32_t shift, unsigned bits, bool *sat17);

/* Per-layer results (§2.7): D_STATUS.STATUS_UNEQUAL and D_PERF_OUT_SATURATION. */
typedef struct sdp_result {
    bool unequal;
    uint32_t out_saturation;
} sdp_result_t;

/* Input on the fly from CACC (D_FEATURE_MODE_CFG.FLYING_MODE). */
bool sdp_golden_flying(const nvdla_pp_t *sdp);
/* SDP_RDMA with no read stream enabled (flying input, BRDMA and NRDMA disabled): it completes at once. */
bool sdp_golden_rdma_nothing(const nvdla_pp_t *rdma);
/* True when the CONSUMER groups of SDP/SDP_RDMA describe a job the model can run now: memory input
 * (flying_mode 0) with SDP_RDMA enabled. */
bool sdp_golden_runnable(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma);
bool sdp_golden_to_pdp(const nvdla_pp_t *sdp);
/* Runs the job. flying != NULL: the input is the convolution's CACC output (rdma, if not NULL, supplies only
 * the BS/BN operand streams); otherwise SDP_RDMA reads the int8 input cube. to_pdp != NULL: the output stream
 * is returned there (allocated) and nothing is written; otherwise the output cube is written. *res gets the
 * layer's result registers. */
void sdp_golden_run(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group,
                    const nv_acc_cube_t *flying, nv_cube_t *to_pdp, sdp_result_t *res);
#endif
