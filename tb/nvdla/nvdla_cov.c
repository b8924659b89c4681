/* NVDLA functional coverage table and sampling (see nvdla_cov.h). Every bin below is reachable by a legal
 * nv_small job unless its cross's `allowed` rule says otherwise; holes that the nightly cannot hit are waived
 * with their reason in tb/nvdla/nvdla_cov_waivers.tsv. The nvf_* crosses are nv_full's (32-byte atoms, CVSRAM):
 * sampled from the layers of that configuration only (docs/nvdla_nv_full.md, "Random jobs on nv_full"). */
#include "nvdla_cov.h"
#include "bdma_golden.h"
#include "cdp_golden.h"
#include "conv_golden.h"
#include "conv_image32.h"
#include "dp_atom32.h"
#include "mem.h"
#include "nvdla_pp.h"
#include "nvdla_regs.h"
#include "sdp_lut.h"

static const char *const L_GRP[] = {"g0", "g1"};
static const char *const L_ONEMANY[] = {"one", "many"};
static const char *const L_BWIDTH[] = {"32B", "64-256B", "gt256B"};
static const char *const L_NCMD[] = {"1", "2-19", "20"};
static const char *const L_PACK[] = {"packed", "gapped"};
static const char *const L_XSTAGE[] = {"bypass", "alu", "mul", "alu_mul"};
static const char *const L_STAGE[] = {"bs", "bn"};
static const char *const L_ALGO[] = {"max", "min", "sum"};
static const char *const L_OPND[] = {"alu", "mul"};
static const char *const L_SRC[] = {"reg", "dma"};
static const char *const L_OFFON[] = {"off", "on"};
static const char *const L_SDPDST[] = {"memory", "pdp"};
static const char *const L_SHAPE[] = {"1x1", "cube"};
static const char *const L_OPSIZE[] = {"1B", "2B"};
static const char *const L_OPMODE[] = {"per_channel", "per_element"};
static const char *const L_METHOD[] = {"avg", "max", "min"};
static const char *const L_FLY[] = {"memory", "on_the_fly"};
static const char *const L_K[] = {"1", "2", "3", "4-8"};
static const char *const L_S[] = {"1", "2", "3+"};
static const char *const L_LE[] = {"exponent", "linear"};
static const char *const L_BYP[] = {"used", "bypassed"};
static const char *const L_LRN[] = {"3", "5", "7", "9"};
static const char *const L_PRIO[] = {"le", "lo"};
static const char *const L_SIGN[] = {"neg", "nonneg"};
static const char *const L_KC[] = {"1", "2", "3", "4+"};
static const char *const L_PAD[] = {"none", "some"};
static const char *const L_PADV[] = {"zero", "nonzero"};
static const char *const L_FILL[] = {"partial", "whole"};
static const char *const L_BANKS[] = {"minimal", "spare"};
static const char *const L_TRUNC[] = {"0-8", "9-16", "17+"};
static const char *const L_DIL[] = {"1", "2+"};
static const char *const L_POS[] = {"first", "later"};
static const char *const L_SPLIT[] = {"changed", "same"};
static const char *const L_PIXFMT[] = {"r8", "xbgr", "xrgb", "bgrx", "rgbx", "yuv_semi"}; /* CDMA byte orders */
static const char *const L_XOFF[] = {"zero", "nonzero"};
static const char *const L_YEXT[] = {"1_line", "2_or_4_lines"};
static const char *const L_WRING[] = {"resident", "streamed_1_group", "streamed_2plus_groups"};
/* nv_full (32-byte atoms): what its random jobs, traces and loadables run on the golden model */
static const char *const L_PREC[] = {"int8", "int16", "fp16"};
static const char *const L_NVF_ENGINE[] = {"sdp", "pdp", "cdp", "rubik", "conv"};
/* each engine's modes (nvf_mode_allowed): SDP by its X1 (BS) stage, PDP's pooling, CDP's LE table, RUBIK's mode */
static const char *const L_NVF_MODE[] = {"x1_bypass", "x1_alu", "x1_mul", "x1_alu_mul", "x1_relu_or_pass",
                                         "max",       "min",    "avg",    "le_linear",  "le_exponent",
                                         "contract",  "split",  "merge",  "direct"};
/* conv: its input (CDMA) and its output (SDP's) */
static const char *const L_NVF_MOVER[] = {"bdma", "sdp", "pdp", "cdp", "rubik", "conv"};
/* PDP's input: PDP_RDMA from memory, or SDP on the fly fed from memory (SDP_RDMA) or by the convolution (CACC) */
static const char *const L_NVF_PDP_SRC[] = {"memory", "sdp_from_memory", "sdp_from_conv"};
/* a convolution by what it is (the first that applies: Winograd, batches, image input, compressed weights, else a
 * plain feature convolution) and where its SDP's output goes: memory or PDP on the fly */
static const char *const L_NVF_CONV_KIND[] = {"feature", "image", "compressed", "winograd", "batches"};
static const char *const L_NVF_SDP_DST[] = {"memory", "pdp"};
static const char *const L_RAM[] = {"dram", "cvsram"};
/* the convolution's mode (CDMA D_MISC_CFG.CONV_MODE) and, in Winograd mode, CSC's PRA truncation */
static const char *const L_CONV_MODE[] = {"direct", "winograd"};
static const char *const L_PRA_TRUNC[] = {"0", "1", "2", "3"};
static const char *const L_INT_PREC[] = {"int8", "int16"};
static const char *const L_LUT_TABLE[] = {"le_linear", "le_exponent", "lo_linear"};
static const char *const L_LUT_FLOW[] = {"underflow", "hit", "overflow"};
/* SDP's EW LUT (sdp_lut.h): how a lookup went, in SDP_LUT_OUTCOMES' order; the table that answered last */
static const char *const L_SDP_LUT_OUT[] = {"le_hit",   "lo_hit",   "both_hit_le", "both_hit_lo",  "uflow_le",
                                            "uflow_lo", "oflow_le", "oflow_lo",    "le_u_lo_o_le", "le_u_lo_o_lo"};
static const char *const L_RBK_MODE[] = {"contract", "split", "merge"};
/* an FP16 input element's class (the golden's FP16 arithmetic treats each apart: nvdla_fp16.h) x the unit reading it */
static const char *const L_FP16_CLASS[] = {"normal", "denormal", "zero", "inf", "nan"};
static const char *const L_FP16_ENGINE[] = {"sdp", "pdp", "cdp"};
/* nv_full image input: the pixel format's group (conv_img32_group_names) x precision; CDMA's converter */
static const char *const L_CVT3[] = {"off", "offset", "means"};
/* nv_full image input: CSC's post-extension (kernel rows a MAC cell) x precision */
static const char *const L_POST[] = {"1_row", "2_rows", "4_rows"};
/* SDP's X stages and its Y (EW) stage on nv_full: where each operand a stage uses comes from (its register, or memory
 * through BRDMA/NRDMA/ERDMA per channel or per element), and what an operand DMA carries */
static const char *const L_NVF_XSTAGE[] = {"x1_bs", "x2_bn", "y_ew"};
static const char *const L_NVF_OPSRC[] = {"register", "mem_per_channel", "mem_per_element"};
static const char *const L_NVF_OPUSE[] = {"mul", "alu", "both"};
/* a convolution's weights as CDMA reads them (D_WEIGHT_FORMAT): dense, or bitmap + nonzero elements + group sizes */
static const char *const L_WFMT[] = {"uncompressed", "compressed"};
/* a convolution's batches (D_BATCH_NUMBER + 1): one, a few, many, the most (32) */
static const char *const L_BATCH[] = {"1", "2-7", "8-31", "32"};

enum {
    X_BDMA_SHAPE,
    X_BDMA_LAUNCH,
    X_BDMA_STRIDES,
    X_SDP_STAGES,
    X_SDP_ALGO,
    X_SDP_OPERAND,
    X_SDP_RELU,
    X_SDP_OUTPUT,
    X_SDP_DMA,
    X_SDP_SAT,
    X_PDP_METHOD,
    X_PDP_KERNEL,
    X_PDP_STRIDE,
    X_PDP_PAD,
    X_PDP_SPLIT,
    X_CDP_FUNC,
    X_CDP_LRN,
    X_CDP_PRIO,
    X_CDP_LO_ENDS,
    X_CONV_SDP,
    X_CONV_KERNEL,
    X_CONV_STRIDE,
    X_CONV_DILATION,
    X_CONV_PAD,
    X_CONV_ATOMS,
    X_CONV_FILL,
    X_CONV_BANKS,
    X_CONV_TRUNC,
    X_CONV_SEQUENCE,
    X_IMG_FORMAT,
    X_IMG_CVT,
    X_IMG_OFFSET,
    X_IMG_YEXT,
    X_CONV_WEIGHTS,
    X_CONV_CVT,
    X_CONV_WIDE,
    X_NVF_PREC_ENGINE_MODE,
    X_NVF_SRC_DST,
    X_NVF_LUT_FLOW,
    X_NVF_RUBIK,
    X_NVF_FP16_CLASS,
    X_NVF_IMG_PREC,
    X_NVF_IMG_CVT,
    X_NVF_IMG_POST,
    X_NVF_CONV_CVT,
    X_NVF_SDP_OPSRC,
    X_NVF_SDP_OPDMA,
    X_NVF_CONV_MODE,
    X_NVF_WINO_PRA,
    X_NVF_CONV_WFMT,
    X_NVF_CONV_BATCH,
    X_NVF_SDP_LUT,
    X_NVF_PDP_INPUT,
    X_NVF_PDP_SPLIT,
    X_NVF_CONV_OUT,
    X_N
};

#define D FCOV_DIM
/* SDP output to PDP runs as a stream without a memory layout: the 1x1 packing (§2.6) does not apply. */
static bool sdp_output_allowed(const unsigned *v) { return !(v[0] == 1 && v[1] == 0); }
/* nv_full: the modes of each engine (L_NVF_MODE's ranges). */
static bool nvf_mode_allowed(const unsigned *v)
{
    static const unsigned first[] = {0, 5, 8, 10, 13}, last[] = {4, 7, 9, 12, 13};
    return v[2] >= first[v[1]] && v[2] <= last[v[1]];
}
/* 1-byte operands are illegal at INT16 and FP16 processing (sdp_opdma32.h: the RTL's BRDMA_ig.v). */
static bool nvf_opdma_allowed(const unsigned *v) { return v[1] == 1 || v[2] == 0; }
/* The first convolution layer after reset always changes the bank split (CSC's reset split is all ones). */
static bool conv_sequence_allowed(const unsigned *v) { return !(v[0] == 0 && v[1] == 1); }

static const fcov_cross_t crosses[X_N] = {
    [X_BDMA_SHAPE] = {"bdma_lines_x_surfaces_x_line_bytes",
                      3,
                      {D("lines", L_ONEMANY), D("surfs", L_ONEMANY), D("line", L_BWIDTH)},
                      NULL},
    [X_BDMA_LAUNCH] = {"bdma_group_x_commands", 2, {D("group", L_GRP), D("cmds", L_NCMD)}, NULL},
    [X_BDMA_STRIDES] = {"bdma_src_x_dst_lines", 2, {D("src", L_PACK), D("dst", L_PACK)}, NULL},
    [X_SDP_STAGES] = {"sdp_bs_x_bn", 2, {D("bs", L_XSTAGE), D("bn", L_XSTAGE)}, NULL},
    [X_SDP_ALGO] = {"sdp_stage_x_alu_algo", 2, {D("stage", L_STAGE), D("algo", L_ALGO)}, NULL},
    [X_SDP_OPERAND] = {"sdp_stage_x_operand_x_source",
                       3,
                       {D("stage", L_STAGE), D("op", L_OPND), D("src", L_SRC)},
                       NULL},
    [X_SDP_RELU] = {"sdp_stage_x_relu_x_prelu",
                    3,
                    {D("stage", L_STAGE), D("relu", L_OFFON), D("prelu", L_OFFON)},
                    NULL},
    [X_SDP_OUTPUT] = {"sdp_output_x_shape", 2, {D("dst", L_SDPDST), D("shape", L_SHAPE)}, sdp_output_allowed},
    [X_SDP_DMA] = {"sdp_stage_x_dma_size_x_mode",
                   3,
                   {D("stage", L_STAGE), D("size", L_OPSIZE), D("mode", L_OPMODE)},
                   NULL},
    [X_SDP_SAT] = {"sdp_group_x_cvt_saturation", 2, {D("group", L_GRP), D("saturated", L_OFFON)}, NULL},
    [X_PDP_METHOD] = {"pdp_method_x_input", 2, {D("method", L_METHOD), D("input", L_FLY)}, NULL},
    [X_PDP_KERNEL] = {"pdp_kernel_w_x_h", 2, {D("kw", L_K), D("kh", L_K)}, NULL},
    [X_PDP_STRIDE] = {"pdp_stride_w_x_h", 2, {D("sw", L_S), D("sh", L_S)}, NULL},
    [X_PDP_PAD] = {"pdp_method_x_padding", 2, {D("method", L_METHOD), D("pad", L_OFFON)}, NULL},
    [X_PDP_SPLIT] = {"pdp_input_x_split", 2, {D("input", L_FLY), D("split", L_OFFON)}, NULL},
    [X_CDP_FUNC] = {"cdp_le_function_x_sqsum_x_mul", 3, {D("le", L_LE), D("sqsum", L_BYP), D("mul", L_BYP)}, NULL},
    [X_CDP_LRN] = {"cdp_group_x_normalz_len", 2, {D("group", L_GRP), D("len", L_LRN)}, NULL},
    [X_CDP_PRIO] = {"cdp_uflow_x_oflow_x_hybrid_priority",
                    3,
                    {D("uflow", L_PRIO), D("oflow", L_PRIO), D("hybrid", L_PRIO)},
                    NULL},
    [X_CDP_LO_ENDS] = {"cdp_lo_start_x_lo_end", 2, {D("start", L_SIGN), D("end", L_SIGN)}, NULL},
    [X_CONV_SDP] = {"conv_sdp_output", 1, {D("dst", L_SDPDST)}, NULL},
    [X_CONV_KERNEL] = {"conv_kernel_w_x_h", 2, {D("kw", L_KC), D("kh", L_KC)}, NULL},
    [X_CONV_STRIDE] = {"conv_stride_x_x_y", 2, {D("sx", L_S), D("sy", L_S)}, NULL},
    [X_CONV_DILATION] = {"conv_dilation_x_x_y", 2, {D("dx", L_DIL), D("dy", L_DIL)}, NULL},
    [X_CONV_PAD] = {"conv_padding_x_pad_value", 2, {D("pad", L_PAD), D("value", L_PADV)}, NULL},
    [X_CONV_ATOMS] = {"conv_channel_atoms_x_kernel_groups", 2, {D("atoms", L_ONEMANY), D("groups", L_ONEMANY)}, NULL},
    [X_CONV_FILL] = {"conv_channels_x_kernels_fill", 2, {D("channels", L_FILL), D("kernels", L_FILL)}, NULL},
    [X_CONV_BANKS] = {"conv_data_x_weight_banks", 2, {D("data", L_BANKS), D("weight", L_BANKS)}, NULL},
    [X_CONV_TRUNC] = {"conv_cacc_truncate", 1, {D("truncate", L_TRUNC)}, NULL},
    [X_CONV_SEQUENCE] = {"conv_position_x_bank_split",
                         2,
                         {D("layer", L_POS), D("split", L_SPLIT)},
                         conv_sequence_allowed},
    [X_IMG_FORMAT] = {"conv_image_pixel_format", 1, {D("format", L_PIXFMT)}, NULL},
    [X_IMG_CVT] = {"conv_image_cvt_x_mean", 2, {D("cvt", L_OFFON), D("mean", L_OFFON)}, NULL},
    [X_IMG_OFFSET] = {"conv_image_x_offset_x_side_pad", 2, {D("x_offset", L_XOFF), D("pad", L_PAD)}, NULL},
    [X_IMG_YEXT] = {"conv_image_post_y_extension", 1, {D("atom", L_YEXT)}, NULL},
    [X_CONV_WEIGHTS] = {"conv_weights_in_cbuf", 1, {D("weights", L_WRING)}, NULL},
    [X_CONV_CVT] = {"conv_feature_cdma_cvt", 1, {D("cvt", L_OFFON)}, NULL},
    [X_CONV_WIDE] = {"conv_wide_1ch_kernel_taller", 1, {D("class", L_OFFON)}, NULL},
    [X_NVF_PREC_ENGINE_MODE] = {"nvf_precision_x_engine_x_mode",
                                3,
                                {D("prec", L_PREC), D("engine", L_NVF_ENGINE), D("mode", L_NVF_MODE)},
                                nvf_mode_allowed},
    [X_NVF_SRC_DST] = {"nvf_engine_x_source_x_destination",
                       3,
                       {D("engine", L_NVF_MOVER), D("src", L_RAM), D("dst", L_RAM)},
                       NULL},
    [X_NVF_LUT_FLOW] = {"nvf_cdp_lut_table_x_outcome", 2, {D("table", L_LUT_TABLE), D("outcome", L_LUT_FLOW)}, NULL},
    [X_NVF_RUBIK] = {"nvf_rubik_mode_x_precision", 2, {D("mode", L_RBK_MODE), D("prec", L_PREC)}, NULL},
    [X_NVF_FP16_CLASS] = {"nvf_fp16_input_class_x_engine",
                          2,
                          {D("class", L_FP16_CLASS), D("engine", L_FP16_ENGINE)},
                          NULL},
    [X_NVF_IMG_PREC] = {"nvf_conv_image_format_x_precision",
                        2,
                        {{"format", IMG32_NGROUPS, conv_img32_group_names}, D("prec", L_PREC)},
                        NULL},
    [X_NVF_IMG_CVT] = {"nvf_conv_image_format_x_cvt",
                       2,
                       {{"format", IMG32_NGROUPS, conv_img32_group_names}, D("cvt", L_CVT3)},
                       NULL},
    [X_NVF_IMG_POST] = {"nvf_conv_image_post_ext_x_precision", 2, {D("rows", L_POST), D("prec", L_PREC)}, NULL},
    [X_NVF_CONV_CVT] = {"nvf_conv_feature_cvt_x_precision", 2, {D("cvt", L_OFFON), D("prec", L_PREC)}, NULL},
    [X_NVF_SDP_OPSRC] = {"nvf_sdp_stage_x_operand_source_x_precision",
                         3,
                         {D("stage", L_NVF_XSTAGE), D("src", L_NVF_OPSRC), D("prec", L_PREC)},
                         NULL},
    [X_NVF_SDP_OPDMA] = {"nvf_sdp_operand_dma_use_x_size_x_precision",
                         3,
                         {D("use", L_NVF_OPUSE), D("size", L_OPSIZE), D("prec", L_PREC)},
                         nvf_opdma_allowed},
    [X_NVF_CONV_MODE] = {"nvf_conv_mode_x_precision", 2, {D("mode", L_CONV_MODE), D("prec", L_PREC)}, NULL},
    [X_NVF_WINO_PRA] = {"nvf_winograd_pra_truncate_x_precision",
                        2,
                        {D("truncate", L_PRA_TRUNC), D("prec", L_INT_PREC)},
                        NULL},
    [X_NVF_CONV_WFMT] = {"nvf_conv_weight_format_x_precision", 2, {D("format", L_WFMT), D("prec", L_PREC)}, NULL},
    [X_NVF_CONV_BATCH] = {"nvf_conv_batches_x_precision", 2, {D("batches", L_BATCH), D("prec", L_PREC)}, NULL},
    [X_NVF_SDP_LUT] = {"nvf_sdp_lut_x_outcome",
                       3,
                       {D("le", L_LE), D("outcome", L_SDP_LUT_OUT), D("prec", L_PREC)},
                       NULL},
    [X_NVF_PDP_INPUT] = {"nvf_pdp_input_x_precision_x_method",
                         3,
                         {D("input", L_NVF_PDP_SRC), D("prec", L_PREC), D("method", L_METHOD)},
                         NULL},
    /* split width from memory (on the fly it is refused: NVIDIA's firmware forbids it) */
    [X_NVF_PDP_SPLIT] = {"nvf_pdp_split_x_precision", 2, {D("split", L_OFFON), D("prec", L_PREC)}, NULL},
    /* PDP on the fly after each kind of convolution (Winograd and batches into PDP waived: cmod asserts) */
    [X_NVF_CONV_OUT] = {"nvf_conv_kind_x_sdp_output_x_precision",
                        3,
                        {D("kind", L_NVF_CONV_KIND), D("output", L_NVF_SDP_DST), D("prec", L_PREC)},
                        NULL},
};
#undef D

fcov_t *nvdla_cov_new(void) { return fcov_new("nvdla", crosses, X_N); }

static void bdma(fcov_t *c, const nvdla_layer_t *l)
{
    fcov_hit4(c, X_BDMA_LAUNCH, (unsigned)l->group, l->ncmds == 1 ? 0 : l->ncmds < BDMA_QUEUE_DEPTH ? 1 : 2, 0, 0);
    for (int i = 0; i < l->ncmds; i++) {
        const bdma_cmd_t *k = &l->cmds[i];
        fcov_hit4(c, X_BDMA_SHAPE, k->lines > 1, k->surfs > 1,
                  k->line_bytes == 32    ? 0
                  : k->line_bytes <= 256 ? 1
                                         : 2,
                  0);
        if (k->lines > 1)
            fcov_hit4(c, X_BDMA_STRIDES, k->src_line != k->line_bytes, k->dst_line != k->line_bytes, 0, 0);
    }
}

/* stage: 0 BS (D_DP_BS_*), 1 BN (D_DP_BN_*); rdma NULL: flying input with SDP_RDMA idle (no operand DMA) */
static void sdp_stage(fcov_t *c, const nvdla_pp_t *u, const nvdla_pp_t *rdma, unsigned stage)
{
    bool byp, alu_byp, mul_byp, relu_byp, prelu, alu_dma, mul_dma, dma_on;
    unsigned algo, size, mode;
    if (stage == 0) {
        byp = FLD(u, SDP, D_DP_BS_CFG_0, BS_BYPASS), alu_byp = FLD(u, SDP, D_DP_BS_CFG_0, BS_ALU_BYPASS);
        mul_byp = FLD(u, SDP, D_DP_BS_CFG_0, BS_MUL_BYPASS), relu_byp = FLD(u, SDP, D_DP_BS_CFG_0, BS_RELU_BYPASS);
        prelu = FLD(u, SDP, D_DP_BS_CFG_0, BS_MUL_PRELU), algo = FLD(u, SDP, D_DP_BS_CFG_0, BS_ALU_ALGO);
        alu_dma = FLD(u, SDP, D_DP_BS_ALU_CFG_0, BS_ALU_SRC), mul_dma = FLD(u, SDP, D_DP_BS_MUL_CFG_0, BS_MUL_SRC);
        dma_on = rdma && !FLD(rdma, SDP_RDMA, D_BRDMA_CFG_0, BRDMA_DISABLE);
        size = dma_on ? FLD(rdma, SDP_RDMA, D_BRDMA_CFG_0, BRDMA_DATA_SIZE) : 0;
        mode = dma_on ? FLD(rdma, SDP_RDMA, D_BRDMA_CFG_0, BRDMA_DATA_MODE) : 0;
    } else {
        byp = FLD(u, SDP, D_DP_BN_CFG_0, BN_BYPASS), alu_byp = FLD(u, SDP, D_DP_BN_CFG_0, BN_ALU_BYPASS);
        mul_byp = FLD(u, SDP, D_DP_BN_CFG_0, BN_MUL_BYPASS), relu_byp = FLD(u, SDP, D_DP_BN_CFG_0, BN_RELU_BYPASS);
        prelu = FLD(u, SDP, D_DP_BN_CFG_0, BN_MUL_PRELU), algo = FLD(u, SDP, D_DP_BN_CFG_0, BN_ALU_ALGO);
        alu_dma = FLD(u, SDP, D_DP_BN_ALU_CFG_0, BN_ALU_SRC), mul_dma = FLD(u, SDP, D_DP_BN_MUL_CFG_0, BN_MUL_SRC);
        dma_on = rdma && !FLD(rdma, SDP_RDMA, D_NRDMA_CFG_0, NRDMA_DISABLE);
        size = dma_on ? FLD(rdma, SDP_RDMA, D_NRDMA_CFG_0, NRDMA_DATA_SIZE) : 0;
        mode = dma_on ? FLD(rdma, SDP_RDMA, D_NRDMA_CFG_0, NRDMA_DATA_MODE) : 0;
    }
    if (byp) return;
    const bool alu = !alu_byp, mul = !mul_byp;
    if (alu) fcov_hit4(c, X_SDP_ALGO, stage, algo, 0, 0); /* algo 3 (EQL) is no X-stage operation: not counted */
    if (alu) fcov_hit4(c, X_SDP_OPERAND, stage, 0, alu_dma && dma_on, 0);
    if (mul) fcov_hit4(c, X_SDP_OPERAND, stage, 1, mul_dma && dma_on, 0);
    fcov_hit4(c, X_SDP_RELU, stage, !relu_byp, mul && prelu, 0);
    if (dma_on && ((alu && alu_dma) || (mul && mul_dma))) fcov_hit4(c, X_SDP_DMA, stage, size, mode, 0);
}

static unsigned xstage(const nvdla_pp_t *u, unsigned stage)
{
    uint32_t v = nvdla_pp_reg(u, stage ? NVDLA_SDP_D_DP_BN_CFG_0 : NVDLA_SDP_D_DP_BS_CFG_0);
    if (v & 1) return 0;
    return (!((v >> 1) & 1) ? 1u : 0u) + (!((v >> 4) & 1) ? 2u : 0u); /* alu, mul, both; neither = bypass */
}

static void sdp(fcov_t *c, const nvdla_layer_t *l)
{
    const nvdla_pp_t *u = l->core;
    fcov_hit4(c, X_SDP_STAGES, xstage(u, 0), xstage(u, 1), 0, 0);
    sdp_stage(c, u, l->rdma, 0);
    sdp_stage(c, u, l->rdma, 1);
    const bool one = FLD(u, SDP, D_DATA_CUBE_WIDTH_0, WIDTH) == 0 && FLD(u, SDP, D_DATA_CUBE_HEIGHT_0, HEIGHT) == 0;
    fcov_hit4(c, X_SDP_OUTPUT, l->onfly, !one, 0, 0); /* no equal mode in nv_small (sdp_golden.c) */
    fcov_hit4(c, X_SDP_SAT, (unsigned)l->group, l->sdp_saturated != 0, 0, 0);
    if (l->flying) fcov_hit4(c, X_CONV_SDP, l->onfly, 0, 0, 0); /* SDP fed by CACC: to memory or PDP */
}

static unsigned kbin(unsigned k) { return k < 3 ? k : 3; } /* field value k-1: 0,1,2 -> 1,2,3; else 4-8 */
static unsigned sbin(unsigned s) { return s < 2 ? s : 2; }

static void pdp(fcov_t *c, const nvdla_layer_t *l)
{
    const nvdla_pp_t *u = l->core;
    const unsigned method = FLD(u, PDP, D_OPERATION_MODE_CFG_0, POOLING_METHOD);
    if (method <= 2) {
        fcov_hit4(c, X_PDP_METHOD, method, l->onfly, 0, 0);
        const bool pad =
            FLD(u, PDP, D_POOLING_PADDING_CFG_0, PAD_LEFT) || FLD(u, PDP, D_POOLING_PADDING_CFG_0, PAD_TOP) ||
            FLD(u, PDP, D_POOLING_PADDING_CFG_0, PAD_RIGHT) || FLD(u, PDP, D_POOLING_PADDING_CFG_0, PAD_BOTTOM);
        fcov_hit4(c, X_PDP_PAD, method, pad, 0, 0);
    }
    fcov_hit4(c, X_PDP_KERNEL, kbin(FLD(u, PDP, D_POOLING_KERNEL_CFG_0, KERNEL_WIDTH)),
              kbin(FLD(u, PDP, D_POOLING_KERNEL_CFG_0, KERNEL_HEIGHT)), 0, 0);
    fcov_hit4(c, X_PDP_STRIDE, sbin(FLD(u, PDP, D_POOLING_KERNEL_CFG_0, KERNEL_STRIDE_WIDTH)),
              sbin(FLD(u, PDP, D_POOLING_KERNEL_CFG_0, KERNEL_STRIDE_HEIGHT)), 0, 0);
    fcov_hit4(c, X_PDP_SPLIT, l->onfly, FLD(u, PDP, D_OPERATION_MODE_CFG_0, SPLIT_NUM) != 0, 0, 0);
}

static bool neg38(const nvdla_pp_t *u, uint32_t high_addr) { return (nvdla_pp_reg(u, high_addr) >> 5) & 1; }

static void cdp(fcov_t *c, const nvdla_layer_t *l)
{
    const nvdla_pp_t *u = l->core;
    fcov_hit4(c, X_CDP_FUNC, FLD(u, CDP, S_LUT_CFG_0, LUT_LE_FUNCTION), FLD(u, CDP, D_FUNC_BYPASS_0, SQSUM_BYPASS),
              FLD(u, CDP, D_FUNC_BYPASS_0, MUL_BYPASS), 0);
    const unsigned len = FLD(u, CDP, D_LRN_CFG_0, NORMALZ_LEN);
    if (len <= 3) fcov_hit4(c, X_CDP_LRN, (unsigned)l->group, len, 0, 0);
    fcov_hit4(c, X_CDP_PRIO, FLD(u, CDP, S_LUT_CFG_0, LUT_UFLOW_PRIORITY), FLD(u, CDP, S_LUT_CFG_0, LUT_OFLOW_PRIORITY),
              FLD(u, CDP, S_LUT_CFG_0, LUT_HYBRID_PRIORITY), 0);
    fcov_hit4(c, X_CDP_LO_ENDS, !neg38(u, NVDLA_CDP_S_LUT_LO_START_HIGH_0), !neg38(u, NVDLA_CDP_S_LUT_LO_END_HIGH_0), 0,
              0);
}

static unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }

/* An image-input convolution (CDMA.D_DATAIN_FORMAT = pixel): format family by CDMA's byte order or semi-planar
 * YUV, converter and mean, pixel x offset and CDMA-stored left/right padding, kernel rows an atom (CSC's
 * post-extension). The direct-convolution crosses below keep to feature input (their bank and channel bins
 * assume the feature layout). */
static void conv_image(fcov_t *c, const conv_layer_t *L)
{
    unsigned fam;
    switch (L->pixel_format) {
    case 0x00: fam = 0; break;
    case 0x0c:
    case 0x10: fam = 1; break;
    case 0x0d:
    case 0x11:
    case 0x1a: fam = 2; break;
    case 0x0e:
    case 0x12:
    case 0x1b: fam = 3; break;
    case 0x0f:
    case 0x13: fam = 4; break;
    default: fam = 5; break; /* 0x1c, 0x1d: the model computes no other */
    }
    fcov_hit4(c, X_IMG_FORMAT, fam, 0, 0, 0);
    fcov_hit4(c, X_IMG_CVT, L->cvt, L->mean, 0, 0);
    fcov_hit4(c, X_IMG_OFFSET, L->x_offset != 0, (L->pad_l | L->pad_r) != 0, 0, 0);
    fcov_hit4(c, X_IMG_YEXT, L->y_ext > 1, 0, 0, 0);
}

/* A convolution as the model decoded it. */
static void conv(fcov_t *c, const nvdla_layer_t *l)
{
    const conv_layer_t *L = l->conv;
    /* the weights all in their banks, or streamed with one / several whole kernel groups in the ring */
    fcov_hit4(c, X_CONV_WEIGHTS, L->ring_groups == CONV_WEIGHTS_RESIDENT ? 0 : L->ring_groups == 1 ? 1 : 2, 0, 0, 0);
    if (L->image) {
        conv_image(c, L);
        return;
    }
    const unsigned kw = L->k_w - 1, kh = L->k_h - 1;
    /* CDMA's converter on feature data; the shape class of NVIDIA's dc_8192x1x1_2x3x1x41 (issue 38): at least 2048
     * wide, at most 8 channels (one atom), kernels taller than the input */
    fcov_hit4(c, X_CONV_CVT, L->cvt, 0, 0, 0);
    fcov_hit4(c, X_CONV_WIDE, L->in_w >= 2048 && L->in_c <= 8 && L->k_h > L->in_h, 0, 0, 0);
    fcov_hit4(c, X_CONV_KERNEL, kw < 3 ? kw : 3, kh < 3 ? kh : 3, 0, 0);
    fcov_hit4(c, X_CONV_STRIDE, sbin(L->stride_x - 1), sbin(L->stride_y - 1), 0, 0);
    if (L->k_w > 1 && L->k_h > 1) fcov_hit4(c, X_CONV_DILATION, L->dil_x > 1, L->dil_y > 1, 0, 0);
    fcov_hit4(c, X_CONV_PAD, (L->pad_l | L->pad_r | L->pad_t | L->pad_b) != 0, L->pad_value != 0, 0, 0);
    fcov_hit4(c, X_CONV_ATOMS, L->in_c > 8, L->kernels > 8, 0, 0);
    fcov_hit4(c, X_CONV_FILL, L->in_c % 8 == 0, L->kernels % 8 == 0, 0, 0);
    /* minimal: the fewest banks that hold the whole input cube (512 entries of one 8-channel atom) and all
     * weights (4 KiB) */
    const unsigned dmin = ceil_div(L->in_w * ceil_div(L->in_c, 8) * L->in_h, 512),
                   wmin = ceil_div(L->k_w * L->k_h * L->in_c * L->kernels, 4096);
    if (L->ring_groups == CONV_WEIGHTS_RESIDENT) /* streamed weights have fewer banks than wmin by design */
        fcov_hit4(c, X_CONV_BANKS, L->data_banks > dmin, L->weight_banks > wmin, 0, 0);
    fcov_hit4(c, X_CONV_TRUNC, L->truncate <= 8 ? 0 : L->truncate <= 16 ? 1 : 2, 0, 0, 0);
    fcov_hit4(c, X_CONV_SEQUENCE, l->conv_index > 0, !l->bank_change, 0, 0);
}

/* ---- nv_full (32-byte atoms) ---------------------------------------------------------------------------------- */
static unsigned prec_bin(unsigned field) { return field < 3 ? field : 2; } /* 3 is reserved: the model refuses it */
static unsigned ram_bin(uint32_t reg) { return (reg & 1) ? 0 : 1; }        /* RAM type 1 = DBB (MCIF), 0 = CVSRAM */

/* SDP's X1 (BS) stage as L_NVF_MODE's first five modes. */
static unsigned x1_mode(const nvdla_pp_t *u)
{
    const unsigned x = xstage(u, 0);
    if (x) return x; /* alu 1, mul 2, alu_mul 3 */
    return FLD(u, SDP, D_DP_BS_CFG_0, BS_BYPASS) ? 0 : 4;
}

/* The classes of an FP16 input cube's real elements (32-byte atoms of 16 lanes; RAM type 1 DBB, 0 CVSRAM), read from
 * the model's memory as the layer starts: each class present is one hit of the unit's row. */
static void fp16_input(fcov_t *c, const nvdla_layer_t *l, unsigned engine, uint32_t base, uint32_t line, uint32_t surf,
                       uint32_t ram, uint32_t w, uint32_t h, uint32_t ch)
{
    if (!l->mem) return;
    const uint64_t space = (ram & 1) ? 0 : NVDLA_CV_SPACE;
    bool seen[5] = {false};
    for (uint32_t k = 0; k < ch; k++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                const uint64_t a = space | (uint32_t)(base + k / 16 * surf + y * line + x * 32 + k % 16 * 2);
                const uint16_t v = (uint16_t)(mem_read8(l->mem, a) | mem_read8(l->mem, a + 1) << 8);
                const unsigned e = (v >> 10) & 0x1F, m = v & 0x3FF;
                seen[e == 0x1F ? (m ? 4 : 3) : e ? 0 : m ? 1 : 2] = true;
            }
    for (unsigned k = 0; k < 5; k++)
        if (seen[k]) fcov_hit4(c, X_NVF_FP16_CLASS, k, engine, 0, 0);
}

/* SDP's stage (0 BS, 1 BN, 2 EW) on nv_full: each operand it uses by its source; its DMA by what it carries. The
 * processing precision is SDP_RDMA's (the operand DMAs' groups follow it). The stages' CFG registers share their low
 * bits (BYPASS 0, ALU_BYPASS 1, MUL_BYPASS 4), their ALU_CFG and MUL_CFG their SRC bit 0. */
static void nvf_sdp_operands(fcov_t *c, const nvdla_pp_t *u, const nvdla_pp_t *r, unsigned stage)
{
    static const uint32_t regs[3][4] = {{NVDLA_SDP_D_DP_BS_CFG_0, NVDLA_SDP_D_DP_BS_ALU_CFG_0,
                                         NVDLA_SDP_D_DP_BS_MUL_CFG_0, NVDLA_SDP_RDMA_D_BRDMA_CFG_0},
                                        {NVDLA_SDP_D_DP_BN_CFG_0, NVDLA_SDP_D_DP_BN_ALU_CFG_0,
                                         NVDLA_SDP_D_DP_BN_MUL_CFG_0, NVDLA_SDP_RDMA_D_NRDMA_CFG_0},
                                        {NVDLA_SDP_D_DP_EW_CFG_0, NVDLA_SDP_D_DP_EW_ALU_CFG_0,
                                         NVDLA_SDP_D_DP_EW_MUL_CFG_0, NVDLA_SDP_RDMA_D_ERDMA_CFG_0}};
    const uint32_t cfg = nvdla_pp_reg(u, regs[stage][0]), alu = nvdla_pp_reg(u, regs[stage][1]),
                   mul = nvdla_pp_reg(u, regs[stage][2]), dma = nvdla_pp_reg(r, regs[stage][3]);
    const unsigned prec = prec_bin(nvdla_pp_bits(r, NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0, 5, 4));
    if (cfg & 1) return; /* stage bypassed */
    const bool dma_on = !(dma & 1), used[2] = {!((cfg >> 1) & 1), !((cfg >> 4) & 1)}, mem[2] = {alu & 1, mul & 1};
    const unsigned dma_src = (dma >> 4) & 1 ? 2 : 1; /* DATA_MODE: PER_KERNEL 0, PER_ELEMENT 1 */
    for (int k = 0; k < 2; k++)
        if (used[k]) fcov_hit4(c, X_NVF_SDP_OPSRC, stage, mem[k] && dma_on ? dma_src : 0, prec, 0);
    const unsigned use = (dma >> 1) & 3;
    if (dma_on && use < 3 && ((used[0] && mem[0]) || (used[1] && mem[1])))
        fcov_hit4(c, X_NVF_SDP_OPDMA, use, (dma >> 3) & 1, prec, 0);
}

/* A cube's width, height and channels from its three registers (13-bit fields, value - 1). */
#define CUBE(u, R, W, H, C)                                                                 \
    nvdla_pp_bits(u, R##_D_##W##_0, 12, 0) + 1, nvdla_pp_bits(u, R##_D_##H##_0, 12, 0) + 1, \
        nvdla_pp_bits(u, R##_D_##C##_0, 12, 0) + 1

static void nvf_layer(fcov_t *c, const nvdla_layer_t *l)
{
    const nvdla_pp_t *u = l->core, *r = l->rdma;
    switch (l->unit) {
    case NVDLA_LAYER_BDMA:
        for (int i = 0; i < l->ncmds; i++)
            fcov_hit4(c, X_NVF_SRC_DST, 0, l->cmds[i].src_space != 0, l->cmds[i].dst_space != 0, 0);
        break;
    case NVDLA_LAYER_SDP:
        if (!r) break; /* fed by the convolution: no memory input */
        fcov_hit4(c, X_NVF_PREC_ENGINE_MODE, prec_bin(nvdla_pp_bits(r, NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0, 3, 2)), 0,
                  x1_mode(u), 0);
        if (!l->onfly) /* on the fly to PDP SDP writes nothing: its destination RAM type is unused */
            fcov_hit4(c, X_NVF_SRC_DST, 1, ram_bin(nvdla_pp_reg(r, NVDLA_SDP_RDMA_D_SRC_DMA_CFG_0)),
                      ram_bin(nvdla_pp_reg(u, NVDLA_SDP_D_DST_DMA_CFG_0)), 0);
        for (unsigned k = 0; k < 3; k++) nvf_sdp_operands(c, u, r, k); /* BS, BN, EW */
        if (nvdla_pp_bits(r, NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0, 3, 2) == 2)
            fp16_input(c, l, 0, nvdla_pp_reg(r, NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW_0),
                       nvdla_pp_reg(r, NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE_0),
                       nvdla_pp_reg(r, NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE_0),
                       nvdla_pp_reg(r, NVDLA_SDP_RDMA_D_SRC_DMA_CFG_0),
                       CUBE(r, NVDLA_SDP_RDMA, DATA_CUBE_WIDTH, DATA_CUBE_HEIGHT, DATA_CUBE_CHANNEL));
        break;
    case NVDLA_LAYER_PDP: {
        const unsigned method = FLD(u, PDP, D_OPERATION_MODE_CFG_0, POOLING_METHOD);
        if (method <= 2) { /* avg 0, max 1, min 2 -> modes 7, 5, 6 */
            fcov_hit4(c, X_NVF_PREC_ENGINE_MODE, prec_bin(nvdla_pp_bits(u, NVDLA_PDP_D_DATA_FORMAT_0, 1, 0)), 1,
                      method == 0 ? 7 : 4 + method, 0);
            fcov_hit4(c, X_NVF_PDP_INPUT,
                      r           ? 0
                      : l->flying ? 2
                                  : 1,
                      prec_bin(nvdla_pp_bits(u, NVDLA_PDP_D_DATA_FORMAT_0, 1, 0)), method, 0);
            if (r)
                fcov_hit4(c, X_NVF_PDP_SPLIT, FLD(u, PDP, D_OPERATION_MODE_CFG_0, SPLIT_NUM) != 0,
                          prec_bin(nvdla_pp_bits(u, NVDLA_PDP_D_DATA_FORMAT_0, 1, 0)), 0, 0);
        }
        if (r)
            fcov_hit4(c, X_NVF_SRC_DST, 2, ram_bin(nvdla_pp_reg(r, NVDLA_PDP_RDMA_D_SRC_RAM_CFG_0)),
                      ram_bin(nvdla_pp_reg(u, NVDLA_PDP_D_DST_RAM_CFG_0)), 0);
        if (r && nvdla_pp_bits(u, NVDLA_PDP_D_DATA_FORMAT_0, 1, 0) == 2)
            fp16_input(c, l, 1, nvdla_pp_reg(r, NVDLA_PDP_RDMA_D_SRC_BASE_ADDR_LOW_0),
                       nvdla_pp_reg(r, NVDLA_PDP_RDMA_D_SRC_LINE_STRIDE_0),
                       nvdla_pp_reg(r, NVDLA_PDP_RDMA_D_SRC_SURFACE_STRIDE_0),
                       nvdla_pp_reg(r, NVDLA_PDP_RDMA_D_SRC_RAM_CFG_0),
                       CUBE(r, NVDLA_PDP_RDMA, DATA_CUBE_IN_WIDTH, DATA_CUBE_IN_HEIGHT, DATA_CUBE_IN_CHANNEL));
        break;
    }
    case NVDLA_LAYER_CDP:
        fcov_hit4(c, X_NVF_PREC_ENGINE_MODE, prec_bin(nvdla_pp_bits(u, NVDLA_CDP_D_DATA_FORMAT_0, 1, 0)), 2,
                  FLD(u, CDP, S_LUT_CFG_0, LUT_LE_FUNCTION) ? 8 : 9, 0);
        fcov_hit4(c, X_NVF_SRC_DST, 3, ram_bin(nvdla_pp_reg(r, NVDLA_CDP_RDMA_D_SRC_DMA_CFG_0)),
                  ram_bin(nvdla_pp_reg(u, NVDLA_CDP_D_DST_DMA_CFG_0)), 0);
        if (nvdla_pp_bits(u, NVDLA_CDP_D_DATA_FORMAT_0, 1, 0) == 2)
            fp16_input(c, l, 2, nvdla_pp_reg(r, NVDLA_CDP_RDMA_D_SRC_BASE_ADDR_LOW_0),
                       nvdla_pp_reg(r, NVDLA_CDP_RDMA_D_SRC_LINE_STRIDE_0),
                       nvdla_pp_reg(r, NVDLA_CDP_RDMA_D_SRC_SURFACE_STRIDE_0),
                       nvdla_pp_reg(r, NVDLA_CDP_RDMA_D_SRC_DMA_CFG_0),
                       CUBE(r, NVDLA_CDP_RDMA, DATA_CUBE_WIDTH, DATA_CUBE_HEIGHT, DATA_CUBE_CHANNEL));
        break;
    case NVDLA_LAYER_CDP_LUT: { /* the lookups as they went: LE linear or exponent, LO */
        const unsigned le = FLD(u, CDP, S_LUT_CFG_0, LUT_LE_FUNCTION) ? 0 : 1;
        for (unsigned k = 0; k < 3; k++) {
            if (l->lut->le[k]) fcov_hit4(c, X_NVF_LUT_FLOW, le, k, 0, 0);
            if (l->lut->lo[k]) fcov_hit4(c, X_NVF_LUT_FLOW, 2, k, 0, 0);
        }
        break;
    }
    case NVDLA_LAYER_SDP_LUT: /* the EW LUT's lookups as they went (pad lanes too: the RTL computes them) */
        for (unsigned k = 0; k < SDP_LUT_OUTCOMES; k++)
            if (l->sdp_lut->n[k]) fcov_hit4(c, X_NVF_SDP_LUT, l->sdp_lut->le_linear, k, l->sdp_lut->prec, 0);
        break;
    case NVDLA_LAYER_RUBIK: { /* nv_full's layout (rubik_atom32.c): MISC_CFG 0x0c, DAIN/DAOUT_RAM_TYPE 0x10/0x30 */
        const uint32_t misc = nvdla_pp_reg(u, u->base + 0x0c), mode = misc & 3, prec = (misc >> 8) & 3;
        if (mode == 3 || prec == 3) break; /* reserved: refused by the model */
        fcov_hit4(c, X_NVF_PREC_ENGINE_MODE, prec, 3, 10 + mode, 0);
        fcov_hit4(c, X_NVF_RUBIK, mode, prec, 0, 0);
        fcov_hit4(c, X_NVF_SRC_DST, 4, ram_bin(nvdla_pp_reg(u, u->base + 0x10)),
                  ram_bin(nvdla_pp_reg(u, u->base + 0x30)), 0);
        break;
    }
    case NVDLA_LAYER_CONV: /* core = CDMA, rdma = the SDP it feeds (nvdla_golden.h) */
    { /* the mode bins of nvf_precision_x_engine_x_mode are direct convolution's; Winograd has its own crosses. core
       * is &conv[CONV_CDMA] of the model's array of convolution units (nvdla_golden.c), so CSC is core + 1. */
        const unsigned prec = prec_bin(FLD(u, CDMA, D_MISC_CFG_0, PROC_PRECISION)),
                       wino = FLD(u, CDMA, D_MISC_CFG_0, CONV_MODE);
        if (!wino) fcov_hit4(c, X_NVF_PREC_ENGINE_MODE, prec, 4, 13, 0);
        fcov_hit4(c, X_NVF_CONV_MODE, wino, prec, 0, 0);
        const unsigned kind = wino                                             ? 3
                              : FLD(u, CDMA, D_BATCH_NUMBER_0, BATCHES)        ? 4
                              : FLD(u, CDMA, D_DATAIN_FORMAT_0, DATAIN_FORMAT) ? 1
                              : FLD(u, CDMA, D_WEIGHT_FORMAT_0, WEIGHT_FORMAT) ? 2
                                                                               : 0;
        fcov_hit4(c, X_NVF_CONV_OUT, kind, nvdla_pp_bits(r, NVDLA_SDP_D_FEATURE_MODE_CFG_0, 1, 1), prec, 0);
        if (wino && prec < 2)
            fcov_hit4(c, X_NVF_WINO_PRA, FLD(u + (CONV_CSC - CONV_CDMA), CSC, D_PRA_CFG_0, PRA_TRUNCATE), prec, 0, 0);
    }
        fcov_hit4(c, X_NVF_SRC_DST, 5, ram_bin(nvdla_pp_reg(u, NVDLA_CDMA_D_DAIN_RAM_TYPE_0)),
                  ram_bin(nvdla_pp_reg(r, NVDLA_SDP_D_DST_DMA_CFG_0)), 0);
        if (!FLD(u, CDMA, D_DATAIN_FORMAT_0, DATAIN_FORMAT)) /* feature input: CDMA's converter */
            fcov_hit4(c, X_NVF_CONV_CVT, FLD(u, CDMA, D_CVT_CFG_0, CVT_EN),
                      prec_bin(FLD(u, CDMA, D_MISC_CFG_0, PROC_PRECISION)), 0, 0);
        if (FLD(u, CDMA, D_DATAIN_FORMAT_0, DATAIN_FORMAT)) { /* image input (conv_image32.h) */
            const conv_img32_fmt_t *f = conv_img32_format(FLD(u, CDMA, D_DATAIN_FORMAT_0, PIXEL_FORMAT));
            if (!f) break;
            fcov_hit4(c, X_NVF_IMG_PREC, f->group, prec_bin(FLD(u, CDMA, D_MISC_CFG_0, PROC_PRECISION)), 0, 0);
            fcov_hit4(c, X_NVF_IMG_CVT, f->group,
                      !FLD(u, CDMA, D_CVT_CFG_0, CVT_EN)           ? 0
                      : FLD(u, CDMA, D_MEAN_FORMAT_0, MEAN_FORMAT) ? 2
                                                                   : 1,
                      0, 0);
            const uint32_t yext = FLD(u + (CONV_CSC - CONV_CDMA), CSC, D_POST_Y_EXTENSION_0, Y_EXTENSION);
            if (yext < 3)
                fcov_hit4(c, X_NVF_IMG_POST, yext, prec_bin(FLD(u, CDMA, D_MISC_CFG_0, PROC_PRECISION)), 0, 0);
        }
        fcov_hit4(c, X_NVF_CONV_WFMT, FLD(u, CDMA, D_WEIGHT_FORMAT_0, WEIGHT_FORMAT),
                  prec_bin(FLD(u, CDMA, D_MISC_CFG_0, PROC_PRECISION)), 0, 0);
        {
            const unsigned n = FLD(u, CDMA, D_BATCH_NUMBER_0, BATCHES) + 1;
            fcov_hit4(c, X_NVF_CONV_BATCH,
                      n == 1   ? 0
                      : n < 8  ? 1
                      : n < 32 ? 2
                               : 3,
                      prec_bin(FLD(u, CDMA, D_MISC_CFG_0, PROC_PRECISION)), 0, 0);
        }
        break;
    }
}

void nvdla_cov_layer(void *user, const nvdla_layer_t *l)
{
    fcov_t *c = user;
    if (l->atom32) { /* nv_full's configuration: its own crosses (nv_small's bins assume 8-byte atoms) */
        nvf_layer(c, l);
        return;
    }
    switch (l->unit) {
    case NVDLA_LAYER_BDMA: bdma(c, l); break;
    case NVDLA_LAYER_SDP: sdp(c, l); break;
    case NVDLA_LAYER_PDP: pdp(c, l); break;
    case NVDLA_LAYER_CDP: cdp(c, l); break;
    case NVDLA_LAYER_CONV: conv(c, l); break;
    case NVDLA_LAYER_RUBIK:
    case NVDLA_LAYER_CDP_LUT:
    case NVDLA_LAYER_SDP_LUT: break; /* nv_full only */
    }
}
