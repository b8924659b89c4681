/* Winograd convolution F(2x2, 3x3) on nv_full at INT8 and INT16 (docs/nvdla_nv_full.md, "Winograd convolution",
 * each rule with its evidence in NVIDIA's RTL and C model). The input transform Bt d B is CSC's PRA cell (cmod
 * hls/csc_libs/csc_cvt.cpp, the C++ that NVIDIA's Catapult flow turned into vmod/nvdla/csc/NV_NVDLA_CSC_pra_cell.v):
 * 17- then 18-bit exact sums, then D_PRA_CFG's right shift rounding half away from zero, saturated to the element
 * width. CMAC multiplies the transformed data by the transformed weights (4x4 per kernel and channel, drawn by
 * software: the hardware never sees the 3x3 kernel), sums four channels and applies the output transform At m A in
 * its adder tree (POA: cmod cmac/NV_NVDLA_cmac.h calculation_int8/int16, RTL NV_NVDLA_CMAC_CORE_mac.v:1479); CACC
 * adds the channel groups. The integer sums are exact (22-bit INT8 and 44-bit INT16 cell results cannot wrap with
 * saturated 8/16-bit transformed data), so the order does not matter. */
#ifndef CONV_WINOGRAD_H
#define CONV_WINOGRAD_H
#include <stdint.h>

/* CSC's PRA of one channel's 4x4 input tile d[y * 4 + x] (values already sign-extended from `bits`, 8 or 16):
 * out = SAT_bits(round_half_away(Bt d B / 2^trunc)), trunc D_PRA_CFG.PRA_TRUNCATE (0..3). */
void conv_wino_pra(const int32_t d[16], unsigned bits, unsigned trunc, int32_t out[16]);
/* The PRA's shift for D_PRA_CFG.PRA_TRUNCATE: nv_full's RTL shifts by 2 for the value 3 (NV_NVDLA_CSC_dl.v:2159
 * pra_truncate_w), where cmod's CSC passes 3 to its PRA (csc/NV_NVDLA_csc.cpp:1954). The model follows the RTL
 * (found by conv_random_wino on the RTL: docs/nvdla_nv_full.md, "Winograd convolution"). */
unsigned conv_wino_pra_shift(unsigned pra_truncate);
/* CMAC's post addition of a 4x4 product sum m[y * 4 + x]: the 2x2 output y[r * 2 + c] = (At m A)[r][c]. */
void conv_wino_poa(const int64_t m[16], int64_t y[4]);

/* A layer's inputs, read through callbacks so that the model and the stimulus generator each supply their own
 * reading of memory: data(c, y, x) is channel c of the EXTENDED input (the padded plane CDMA writes into CBUF:
 * the pad value outside the cube), weight(k, c, pos) the transformed weight of kernel k, channel c, position pos
 * (y * 4 + x) of its 4x4. */
typedef struct conv_wino_src {
    uint32_t C;     /* CSC's channels (D_DATAIN_SIZE_EXT_1 + 1): a multiple of 4 */
    unsigned bits;  /* 8 or 16 */
    unsigned trunc; /* D_PRA_CFG.PRA_TRUNCATE */
    const void *ctx;
    int32_t (*data)(const void *ctx, uint32_t c, uint32_t y, uint32_t x);
    int32_t (*weight)(const void *ctx, uint32_t k, uint32_t c, uint32_t pos);
} conv_wino_src_t;

/* The exact sum CACC holds for kernel k at output (oy, ox) (before CLIP_TRUNCATE): output tile (oy / 2, ox / 2)
 * reads the extended input's 4x4 at (oy & ~1, ox & ~1). */
int64_t conv_wino_output(const conv_wino_src_t *s, uint32_t k, uint32_t oy, uint32_t ox);

/* Byte offset of transformed weight (k, c, pos) in memory (and CBUF) for K kernels of C channels of esz bytes:
 * kernel groups of 32 (INT8) or 16 (INT16); inside a group, blocks of 4 channels; inside a block each kernel's 4x4 x
 * 4 channels, position outer, channel inner (cmod csc/NV_NVDLA_csc.cpp SendWeightToMacSequencerWinoConvCommon: group
 * stride byte_per_kernel x 32/16, block stride 64 x esz x kernels in the group, kernel stride 64 x esz; the CMAC
 * cell reads element pos * 4 + channel, cmac.h calculation_int8/int16). */
uint64_t conv_wino_weight_offset(uint32_t k, uint32_t c, uint32_t pos, uint32_t C, uint32_t K, uint32_t esz);
#endif
