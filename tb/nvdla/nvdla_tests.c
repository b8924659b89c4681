/* The NVDLA test registry: name → program generator. Each generator is seeded and emits a program of
 * jobs (tb/common/program.h). Register tests derive every expected value from the generated register
 * table (golden/nvdla/nvdla_regmap.c), never from literals. */
#include "nvdla_tb.h"
#include "bdma_gen.h"
#include "cdp_gen.h"
#include "conv_gen.h"
#include "conv_round_gen.h"
#include "dp_perf_gen.h"
#include "nvdla_regtests.h"
#include "nvf_gen.h"
#include "pdp_gen.h"
#include "sdp_gen.h"
#include "test_registry.h"
#include <stdlib.h>
#include <string.h>

/* needs: DUT features (tb/nvdla/duts/<dut>.dut); on a DUT without them the test is skipped */
static const test_entry_t tests[] = {
    {"reg_reset", nvdla_reg_reset, "csb", "every register reads its reset value; holes read 0"},
    {"reg_rw", nvdla_reg_rw, "csb", "random patterns written and read back through the field masks"},
    {"reg_pingpong", nvdla_reg_pingpong, "csb", "ping-pong group selection, write protection and S_STATUS"},
    {"reg_intr", nvdla_reg_intr, "glb", "GLB interrupt SET/STATUS/MASK and dla_intr"},
    {"reg_cdp_lut", nvdla_reg_cdp_lut, "cdp_lut", "CDP LUT access port: writes, reads, auto-increment, saturation"},
    {"bdma_sanity", bdma_sanity, "bdma", "spec §5 example: 2 KiB in 8 lines of 256 bytes, group 0"},
    {"bdma_random", bdma_random, "bdma", "constrained-random BDMA jobs: sizes, strides, repeats, groups, masks"},
    {"bdma_b2b", bdma_b2b, "bdma", "back-to-back groups: group 1 programmed and launched while group 0 runs"},
    {"bdma_queue_full", bdma_queue_full, "bdma", "20 commands in one group: FREE_SLOT counts down to 0"},
    {"bdma_empty_launch", bdma_empty_launch, "bdma", "NEGATIVE: launching an empty group hangs (watchdog)"},
    {"sdp_random", sdp_random, "sdp", "constrained-random SDP jobs: cubes, strides, BS/BN modes, operand DMAs, CVT"},
    {"sdp_b2b", sdp_b2b, "sdp", "SDP jobs back to back: the idle group programmed and enabled while the other runs"},
    {"sdp_hang", sdp_hang, "sdp", "NEGATIVE: SDP enabled without its SDP_RDMA never completes (watchdog)"},
    {"pdp_random", pdp_random, "pdp", "constrained-random PDP jobs: methods, kernels, strides, pads, split, cubes"},
    {"pdp_b2b", pdp_b2b, "pdp", "PDP jobs back to back: the idle group programmed and enabled while the other runs"},
    {"pdp_onfly", pdp_onfly, "sdp pdp", "SDP output streamed on the fly into PDP (PDP flying_mode 0)"},
    {"pdp_hang", pdp_hang, "pdp", "NEGATIVE: PDP enabled for memory input without PDP_RDMA never completes"},
    {"cdp_random", cdp_random, "cdp cdp_lut",
     "constrained-random CDP jobs: LUT contents/modes, LRN sizes, bypasses, CVTs"},
    {"cdp_b2b", cdp_b2b, "cdp cdp_lut",
     "CDP jobs back to back: the idle group programmed and enabled while the other runs"},
    {"cdp_lut_neg", cdp_lut_neg, "cdp cdp_lut", "CDP jobs with both LO-table ends negative (start < end < 0)"},
    {"cdp_hang", cdp_hang, "cdp", "NEGATIVE: CDP enabled without CDP_RDMA never completes (watchdog)"},
    {"conv_random", conv_random, "conv sdp",
     "one constrained-random direct convolution -> SDP on the fly: shapes, kernels, "
     "strides, dilation, pads, pad value, CBUF banks, truncation, SDP bias/ReLU/CVT; some with CDMA's converter on "
     "the feature data; every tenth seed very wide single-channel with kernels taller than the input (conv_wide's "
     "class)"},
    {"conv_seq", conv_seq, "conv sdp pdp",
     "1-3 random convolution layers in one program, some back to back or into PDP "
     "(weights padded and banked within nv_small's two CBUF deviations)"},
    {"conv_b2b", conv_b2b, "conv sdp",
     "convolution layers back to back in both groups: the idle group programmed while the other runs"},
    {"conv_wstream", conv_wstream, "conv sdp pdp",
     "one convolution whose weights exceed their CBUF weight banks, "
     "streamed through the ring a kernel group at a time (one or 2-4 groups in the ring, partial last group, large "
     "kernels, padding) -> SDP (-> PDP) on the fly"},
    {"conv_wide", conv_wide, "conv sdp",
     "NVIDIA's dc_8192x1x1_2x3x1x41 layer rebuilt (8192 x 1 x 1 input, 41 kernels 2 x 3, dilation 22 x 15, "
     "padding rows, CDMA converter on feature data); seed 1 as the trace, others with the converter off or moderate"},
    {"conv_pdp", conv_pdp, "conv sdp pdp", "convolution -> SDP -> PDP, all on the fly, pooled output to memory"},
    {"conv_image", conv_image, "conv conv_image sdp",
     "one convolution with image input (CDMA pixel formats R8 and 8-bit RGBA/YUVA "
     "orders, pixel x offset, CDMA-stored left/right padding, converter with offset or global mean) -> SDP on the fly"},
    {"conv_image_seq", conv_image_seq, "conv conv_image sdp",
     "2-3 convolution layers, image input or direct, one after the "
     "other in alternating groups: the CBUF switching between image lines and feature atoms"},
    {"conv_image_wrap", conv_image_wrap, "conv conv_image sdp",
     "DEVIATION DEMO: a direct layer leaves the CBUF data ring at "
     "entry 495 of 512, then an image layer with the same bank split has an 8-byte read straddling the wrap"},
    {"conv_net", conv_net, "conv sdp pdp",
     "a small network as one program: conv3x3+bias+ReLU+maxpool, conv3x3+bias+ReLU, checked per layer"},
    {"conv_wpad_skew", conv_wpad_skew, "conv sdp",
     "DEVIATION DEMO: a layer with 128-byte weight padding, then one with "
     "the same CBUF banks (nv_small: deviation cbuf-weight-pad-skew)"},
    {"conv_wt_credit_hang", conv_wt_credit_hang, "conv sdp",
     "DEVIATION DEMO: 576 weight entries, then a layer with one "
     "weight bank (nv_small: deviation cdma-wt-credit-leak, a hang)"},
    {"conv_hang", conv_hang, "conv sdp",
     "NEGATIVE: the convolution pipeline enabled without CDMA never completes (watchdog)"},
    {"conv_perf", conv_perf, "conv sdp",
     "fixed-shape convolution jobs for throughput figures (seed picks the shape: 1 = 3x3 "
     "64->64 16x16, 2 = 1x1, 3 = 3x3 8->16 32x32, 4 = 5x5, 5 = 3x3 stride 2; the job name carries the MACs)"},
    {"conv_round", conv_round, "conv sdp",
     "CACC rounding at truncation 17..20 (17 + (seed-1) % 4): conv_perf's 1x1 64->64 "
     "layer with every pixel's sum on a rounding boundary (each sticky bit position, exact halves, neighbours)"},
    {"sdp_perf", sdp_perf, "sdp", "fixed-shape SDP pass-through job for throughput figures (seed picks the shape)"},
    {"pdp_perf", pdp_perf, "pdp", "fixed-shape PDP 3x3 average job for throughput figures (seed picks the shape)"},
    {"cdp_perf", cdp_perf, "cdp", "fixed-shape CDP LRN5 job for throughput figures (seed picks the shape)"},
};

/* Listed only: nvdla_build (nvdla_tb.c) runs them with the firmware in the loop. */
static const test_entry_t fw_tests[] = {
    {"fw", NULL, NULL, "NVIDIA's firmware (nvdla_sw, unmodified) runs +loadable=<file> live (docs/drivers.md)"},
    {"fw_net", NULL, NULL, "NVIDIA's firmware runs a random 3-7 op SDP/PDP/CDP network written as a loadable"},
};

/* nv_full's forms (nvf_gen.h): the same names, programmed at nv_full's register map with its 32-byte atoms and
 * CVSRAM; picked when the stimulus' map is nv_full's (nvdla_build_test). */
static const test_entry_t nv_full_tests[] = {
    {"bdma_random", nvf_bdma_random, "nv_full_map",
     "nv_full: 1-2 BDMA groups of 1-4 copies, each DBB or CVSRAM to DBB or CVSRAM, checked against the copy too"},
    {"sdp_random", nvf_sdp_random, "nv_full_map",
     "nv_full: SDP memory to memory, INT8/INT16/FP16 (FP16 to INT16, INT16 to FP16), BS (X1) and BN (X2) "
     "ALU/MUL/ReLU/PReLU, converter, NaN to zero, DBB/CVSRAM"},
    {"pdp_random", nvf_pdp_random, "nv_full_map",
     "nv_full: PDP max/min/average pooling INT8/INT16/FP16 (reciprocals, padding values), kernels, strides, padding, "
     "NaN flush, DBB/CVSRAM"},
    {"pdp_random_avg", nvf_pdp_random_avg, "nv_full_map",
     "nv_full: pdp_random with every job INT8/INT16 average pooling (reciprocals, padding values: the RTL's wraps)"},
    {"cdp_random", nvf_cdp_random, "nv_full_map",
     "nv_full: CDP INT8/INT16/FP16, LE linear or exponent and LO tables aimed to under- and overflow, DBB/CVSRAM"},
    {"sdp_random_fp16", nvf_sdp_random_fp16, "nv_full_map",
     "nv_full: sdp_random with every job FP16 (FP16 to FP16 or INT16, INT16 to FP16), inputs with FP16's corners"},
    {"sdp_random_mem", nvf_sdp_random_mem, "nv_full_map",
     "nv_full: SDP with BS (X1) and BN (X2) operands from memory (BRDMA, NRDMA): per channel or per element, ALU, "
     "MUL or both, 1 or 2 bytes, INT8/INT16/FP16, DBB/CVSRAM"},
    {"sdp_random_ew", nvf_sdp_random_ew, "nv_full_map",
     "nv_full: sdp_random_mem with the EW (Y) stage: multiplier (PReLU) and ALU max/min/sum, register or ERDMA "
     "operands through their converters, INT8/INT16, LUT bypassed"},
    {"sdp_random_ew_fp16", nvf_sdp_random_ew_fp16, "nv_full_map",
     "nv_full: sdp_random_ew with every job FP16: EW's multiplier and ALU on FP32, FP32 register operands, FP16 ERDMA "
     "operands (NaN to zero), X1/X2 at FP16 before it, FP16 or INT16 output"},
    {"sdp_random_lut", nvf_sdp_random_lut, "nv_full_map",
     "nv_full: sdp_random_ew with the EW LUT on: LE linear/exponent and LO tables around the values reaching them, "
     "hits, under/overflows, both tables, every priority, the slopes, INT8/INT16, ALU/MUL on or off"},
    {"sdp_random_lut_fp16", nvf_sdp_random_lut_fp16, "nv_full_map",
     "nv_full: sdp_random_lut with every job FP16: FP32 starts/ends around the FP32 values reaching the tables, "
     "signed selects, FP16 entries and slopes with corners, FP16 or INT16 output"},
    {"pdp_random_fp16", nvf_pdp_random_fp16, "nv_full_map",
     "nv_full: pdp_random with every job FP16 (max, min, average with padding values), inputs with FP16's corners"},
    {"cdp_random_fp16", nvf_cdp_random_fp16, "nv_full_map",
     "nv_full: cdp_random with every job FP16 (FP16 tables, FP32 bounds, FP16 slopes), inputs with FP16's corners"},
    {"conv_random", nvf_conv_random, "nv_full_map",
     "nv_full: one or two direct convolutions INT8/INT16 -> SDP on the fly: shapes, kernels, strides, pads, pad value, "
     "truncation, banks, DBB/CVSRAM input, weights and output"},
    {"conv_random_fp16", nvf_conv_random_fp16, "nv_full_map",
     "nv_full: conv_random with every job FP16: FP16 data, weights (zeros, denormals, rare NaN/Inf) and pad value, "
     "SDP at FP16 (or INT16 out) on CACC's FP32"},
    {"conv_random_img", nvf_conv_random_img, "nv_full_map",
     "nv_full: one or two convolutions of an image: every pixel format (8/16-bit, packed 10-bit, semi-planar, FP16), "
     "x offset, line/UV strides, pad value, CDMA's converter and means, the kernel pre-extended, SDP on the fly"},
    {"conv_random_img_fp16", nvf_conv_random_img_fp16, "nv_full_map",
     "nv_full: conv_random_img processed at FP16: 8/16-bit pixels converted to FP16 by CDMA's converter (offset or "
     "means, scale, truncation), FP16 pixels through it or not, FP16 weights, SDP at FP16"},
    {"conv_random_img_ext", nvf_conv_random_img_ext, "nv_full_map",
     "nv_full: conv_random_img with CSC's post-extension (2 or 4 kernel rows a MAC cell, the weights in its layout) "
     "and semi-planar x offsets past the UV plane's first atom"},
    {"conv_img_wrongfmt", nvf_conv_img_wrongfmt, "nv_full_map",
     "NEGATIVE, nv_full: a conv_random_img job of A8R8G8B8 data programmed as A8B8G8R8: fails naming an output "
     "element"},
    {"conv_img_fp16_wrongscale", nvf_conv_img_fp16_wrongscale, "nv_full_map",
     "NEGATIVE, nv_full: a conv_random_img_fp16 job of 8/16-bit pixels whose CVT_SCALE register is one more than the "
     "data's conversion: fails naming an output element"},
    {"conv_random_wino", nvf_conv_random_wino, "nv_full_map",
     "nv_full: one or two Winograd F(2x2,3x3) convolutions INT8/INT16 -> SDP on the fly: drawn transformed weights, "
     "padding to the extended plane, PRA truncation (saturating), CACC truncation, DBB/CVSRAM"},
    {"conv_random_wino_fp16", nvf_conv_random_wino_fp16, "nv_full_map",
     "nv_full: conv_random_wino at FP16: the PRA in FP17, CMAC's FP16 cell before its POA, CACC's FP48, CDMA's NaN "
     "flush, SDP at FP16 to FP16/INT16"},
    {"conv_wino_fp16_corrupt", nvf_conv_wino_fp16_corrupt, "nv_full_map",
     "NEGATIVE, nv_full: a conv_random_wino_fp16 layer with one transformed weight wrong in memory: fails naming an "
     "output element"},
    {"conv_random_cmp", nvf_conv_random_cmp, "nv_full_map",
     "nv_full: conv_random with compressed weights (bitmap, group sizes; sparse kernels, explicit zeros) at "
     "INT8/INT16/FP16"},
    {"conv_random_batch", nvf_conv_random_batch, "nv_full_map",
     "nv_full: conv_random with 2-32 batches (input and output batch strides, every batch resident in CBUF) at "
     "INT8/INT16/FP16"},
    {"conv_random_fc", nvf_conv_random_fc, "nv_full_map",
     "nv_full: batched fully-connected layers (the kernel the whole input, 1x1 outputs, 2-32 batches) at "
     "INT8/INT16/FP16"},
    {"conv_random_cmp_batch", nvf_conv_random_cmp_batch, "nv_full_map",
     "nv_full: compressed weights and 2-32 batches in one job (the bitmap in bank 15, every batch resident) at "
     "INT8/INT16/FP16"},
    {"rubik_random", nvf_rubik_random, "nv_full_map",
     "nv_full: RUBIK contract/split/merge, INT8/INT16/FP16 (data movement), DBB/CVSRAM"},
    {"bdma_corrupt", nvf_bdma_corrupt, "nv_full_map",
     "NEGATIVE, nv_full: a bdma_random job whose expected copy has one byte flipped: fails naming the line and byte"},
    {"conv_cmp_corrupt", nvf_conv_cmp_corrupt, "nv_full_map",
     "NEGATIVE, nv_full: a conv_random_cmp job whose compressed weights hold one weight wrong (the first whose flip "
     "shows; SDP the identity): fails naming an output element"},
    {"conv_batch_corrupt", nvf_conv_batch_corrupt, "nv_full_map",
     "NEGATIVE, nv_full: a conv_random_batch job whose SDP batch stride is 64 bytes off the expectation's: fails "
     "naming batch 1"},
    {"sdp_corrupt", nvf_sdp_corrupt, "nv_full_map",
     "NEGATIVE, nv_full: sdp_random with its first expected element flipped: fails naming channel, h and w"},
    {"sdp_lut_corrupt", nvf_sdp_lut_corrupt, "nv_full_map",
     "NEGATIVE, nv_full: sdp_random_lut with one LUT entry written wrong (bit 15; the job's name names it): fails "
     "naming the output element"},
    {"sdp_lut_fp16_corrupt", nvf_sdp_lut_fp16_corrupt, "nv_full_map",
     "NEGATIVE, nv_full: sdp_random_lut_fp16 with one LUT entry written wrong (bit 15; the job's name names it): "
     "fails naming the output element"},
    {"pdp_random_fly", nvf_pdp_random_fly, "nv_full_map",
     "nv_full: SDP from memory (BS/BN, converter) streamed into PDP on the fly (max/min/average, kernels, strides, "
     "padding values) at INT8/INT16/FP16, DBB/CVSRAM"},
    {"pdp_random_split", nvf_pdp_random_split, "nv_full_map",
     "nv_full: pdp_random with every job split in width (2-4 passes, PARTIAL_WIDTH_IN/OUT first/mid/last) at "
     "INT8/INT16/FP16"},
    {"conv_random_pdp", nvf_conv_random_pdp, "nv_full_map",
     "nv_full: conv_random (INT8/INT16/FP16) with SDP's output streamed into PDP on the fly (max/min/average, kernels, "
     "strides, padding values over the convolution's output)"},
    {"conv_random_cmp_pdp", nvf_conv_random_cmp_pdp, "nv_full_map",
     "nv_full: conv_random_cmp (compressed weights, INT8/INT16/FP16) with SDP's output streamed into PDP on the fly"},
    {"conv_random_img_pdp", nvf_conv_random_img_pdp, "nv_full_map",
     "nv_full: conv_random_img (every pixel format) with SDP's output streamed into PDP on the fly"},
    {"sdp_random_lut_pdp", nvf_sdp_random_lut_pdp, "nv_full_map",
     "nv_full: sdp_random_lut (the EW stage's LUT at INT8/INT16) with SDP's output streamed into PDP on the fly"},
    {"pdp_fly_corrupt", nvf_pdp_fly_corrupt, "nv_full_map",
     "NEGATIVE, nv_full: pdp_random_fly with its first expected pooled element flipped: fails naming surface, h and w"},
};

/* The listing shows the nv_full forms after the others: the same entries, listed only (built through nv_full's
 * registry below). */
static bool nv_full_listed(size_t i, test_entry_t *e)
{
    if (i >= sizeof nv_full_tests / sizeof *nv_full_tests) return false;
    *e = nv_full_tests[i];
    e->gen = NULL;
    return true;
}

static const test_section_t sections[] = {
    {tests, sizeof tests / sizeof *tests, NULL, NULL, NULL},
    {fw_tests, sizeof fw_tests / sizeof *fw_tests, NULL, NULL, NULL},
    {NULL, 0, nv_full_listed, NULL, " [nv_full's map: DUT=nv_full, with or without GOLDEN_ONLY=1]"},
};
static const test_section_t nv_full_sections[] = {
    {nv_full_tests, sizeof nv_full_tests / sizeof *nv_full_tests, NULL, NULL, NULL},
};

static const test_registry_t registry = {"NVDLA", 18, 16384, sections, sizeof sections / sizeof *sections, NULL};
static const test_registry_t nv_full_registry = {"NVDLA nv_full", 18, 16384, nv_full_sections, 1, NULL};

bool nvdla_test_for_nv_full(const char *test)
{
    for (size_t i = 0; i < sizeof nv_full_tests / sizeof *nv_full_tests; i++)
        if (!strcmp(nv_full_tests[i].name, test)) return true;
    return false;
}

static bool in_main_table(const char *test)
{
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++)
        if (!strcmp(tests[i].name, test)) return true;
    return false;
}

/* by_capability: skip a test the DUT lacks the features for (false for golden-only runs). */
int nvdla_build_test(const char *test, uint64_t seed, bool by_capability, bool nv_full_map, program_t *p, char *err,
                     size_t errlen)
{
    if (nv_full_map && nvdla_test_for_nv_full(test))
        return test_registry_build(&nv_full_registry, test, seed, by_capability, p, err, errlen);
    if (!nv_full_map && nvdla_test_for_nv_full(test) && !in_main_table(test)) {
        free(p->name);
        p->name = strdup(test);
        prog_job(p, "%s", test);
        prog_skip(p,
                  "test %s is written for nv_full's register map: run it with DUT=nv_full (GOLDEN_ONLY=1 for the "
                  "golden model alone)",
                  test);
        return 0;
    }
    return test_registry_build(&registry, test, seed, by_capability, p, err, errlen);
}
