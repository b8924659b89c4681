/* nv_full SDP's EW (Y) stage at FP16 (golden/nvdla/sdp_ew_fp16.c) and an element through X1, X2, Y and the converter
 * (sdp_fp16.c), on values worked from cmod's hls/sdp/sdp_y_cvt.cpp and sdp_y_core.cpp; every FP32 result is what
 * cmod's own templates give (the oracle's `nvdla_fp_cmod eval`, tests/test_nvdla_fp_oracle.py). The random tests'
 * prediction shares this arithmetic with the model, so these pin it independently of both: the order (multiplier
 * first), round to nearest even (each tie below fails under truncation or half-up), PReLU, the operand converter's
 * NaN flush and widening, a register operand taken as FP32 and never flushed. */
#include "nvdla_fp16.h"
#include "sdp_ew.h"
#include "sdp_ew_fp16.h"
#include "sdp_fp16.h"
#include "unit.h"

enum { MAX = 0, MIN = 1, SUM = 2 };
enum { ONE = 0x3F800000u, ONE_HALF = 0x3FC00000u, TWO = 0x40000000u, THREE = 0x40400000u, QUARTER = 0x3E800000u };
enum { FP32_MAXF = 0x7F7FFFFFu, NEG_ZERO = 0x80000000u };

static void test_order(unit_t *u)
{
    const sdp_ew_fp16_t e = {.on = true, .algo = SUM, .alu_op = ONE, .mul_op = TWO};
    CHECK_EQ(sdp_ew_fp16(&e, ONE_HALF), 0x40800000); /* 1.5 * 2 + 1 = 4 (the ALU first: 5, 0x40a00000) */
    const sdp_ew_fp16_t off = {.on = false, .algo = SUM, .alu_op = ONE, .mul_op = TWO};
    CHECK_EQ(sdp_ew_fp16(&off, ONE_HALF), ONE_HALF);
}

/* FpMul rounds to nearest, ties to even: (1 + 2^-23) * 1.5 and (1 + 3 * 2^-23) * 1.5 are both halfway. */
static void test_rounding(unit_t *u)
{
    const sdp_ew_fp16_t e = {.on = true, .alu_bypass = true, .mul_op = ONE_HALF};
    CHECK_EQ(sdp_ew_fp16(&e, 0x3F800001), 0x3FC00002); /* up to even (truncation: ...01) */
    CHECK_EQ(sdp_ew_fp16(&e, 0x3F800003), 0x3FC00004); /* down to even (half up: ...05) */
    const sdp_ew_fp16_t a = {.on = true, .mul_bypass = true, .algo = SUM, .alu_op = 0x33800001};
    CHECK_EQ(sdp_ew_fp16(&a, ONE), 0x3F800001); /* 1 + 2^-24 (1 + 2^-23): just past the tie, up */
    const sdp_ew_fp16_t s = {.on = true, .mul_bypass = true, .algo = SUM, .alu_op = 0xB3800000};
    CHECK_EQ(sdp_ew_fp16(&s, ONE), 0x3F7FFFFF); /* 1 - 2^-24, exact */
}

static void test_prelu_and_corners(unit_t *u)
{
    const sdp_ew_fp16_t p = {.on = true, .alu_bypass = true, .prelu = true, .mul_op = QUARTER};
    CHECK_EQ(sdp_ew_fp16(&p, TWO), TWO);               /* sign 0 passes */
    CHECK_EQ(sdp_ew_fp16(&p, 0xC0000000), 0xBF000000); /* -2 * 0.25 */
    const sdp_ew_fp16_t z = {.on = true, .alu_bypass = true, .prelu = true, .mul_op = THREE};
    CHECK_EQ(sdp_ew_fp16(&z, NEG_ZERO), NEG_ZERO); /* -0 has sign 1: multiplied, -0 * 3 = -0 */
    const sdp_ew_fp16_t big = {.on = true, .algo = SUM, .alu_op = FP32_MAXF, .mul_op = TWO};
    CHECK_EQ(sdp_ew_fp16(&big, FP32_MAXF), FP32_MAXF); /* overflow saturates, product and sum */
    const sdp_ew_fp16_t mx = {.on = true, .mul_bypass = true, .algo = MAX, .alu_op = 0};
    CHECK_EQ(sdp_ew_fp16(&mx, NEG_ZERO), 0); /* -0 < +0 */
    const sdp_ew_fp16_t mn = {.on = true, .mul_bypass = true, .algo = MIN, .alu_op = 0x7FC00000};
    CHECK_EQ(sdp_ew_fp16(&mn, ONE), 0x7FC00000); /* a NaN operand returned as it is */
}

/* Y_cvt at FP16: NaN +0 (sign cleared) under NAN_TO_ZERO, else kept with its mantissa unshifted; Inf the largest
 * finite value; a denormal exact. A register operand is FP32 and is not flushed. */
static void test_operands(unit_t *u)
{
    CHECK_EQ(sdp_ew_fp16_cvt(0x7E01, true), 0);
    CHECK_EQ(sdp_ew_fp16_cvt(0xFE01, true), 0);
    CHECK_EQ(sdp_ew_fp16_cvt(0x7E01, false), 0x7F800201);
    CHECK_EQ(sdp_ew_fp16_cvt(0x7C00, true), FP32_MAXF);
    CHECK_EQ(sdp_ew_fp16_cvt(0xFC00, false), 0xFF7FFFFF);
    CHECK_EQ(sdp_ew_fp16_cvt(0x0001, false), 0x33800000); /* 2^-24 */
    CHECK_EQ(sdp_ew_fp16_cvt(0xFFFF3C00, false), ONE);    /* the low 16 bits (ERDMA's sign-extended fetch) */
    const sdp_ew_cfg_t c = {.alu_bypass = true, .mul = {.reg = (int32_t)0xFFC00001}};
    const sdp_ew_fp16_t e = sdp_ew_fp16_stage(&c);
    CHECK_EQ(e.on, 1);
    CHECK_EQ(sdp_ew_fp16(&e, ONE), 0xFFC00001); /* NaN register operand through FpMul, unflushed */
    const sdp_ew_cfg_t b = {.bypass = true};
    CHECK_EQ(sdp_ew_fp16_stage(&b).on, 0);
}

/* A whole element: FP16 1.0 through X1 (x 1.5, FP16 operand), Y (x 3.0 + 0.5, FP32 operands), then FP16: 5.0. */
static void test_element(unit_t *u)
{
    sdp_fp16_cfg_t c = {
        .x1 = {.alu_bypass = true, .relu_bypass = true, .mul_op = 0x3E00},
        .x2 = {.bypass = true},
        .y = {.on = true, .algo = SUM, .alu_op = 0x3F000000, .mul_op = THREE},
    };
    CHECK_EQ(sdp_fp16_element(&c, 0x3C00), 0x4500);
    c.y.on = false;
    CHECK_EQ(sdp_fp16_element(&c, 0x3C00), 0x3E00); /* Y bypassed: 1.5 */
    c.y = (sdp_ew_fp16_t){.on = true, .mul_bypass = true, .algo = SUM, .alu_op = 0x477FF000};
    c.out_int16 = false;
    CHECK_EQ(sdp_fp16_element(&c, 0x3C00), 0x7BFF); /* 65520 + 1.5 past FP16's largest: 65504 */
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_sdp_ew_fp16"};
    UNIT_RUN(&u, test_order);
    UNIT_RUN(&u, test_rounding);
    UNIT_RUN(&u, test_prelu_and_corners);
    UNIT_RUN(&u, test_operands);
    UNIT_RUN(&u, test_element);
    return unit_done(&u);
}
