/* nv_full SDP's Y (EW) LUT at FP16 (golden/nvdla/sdp_lut_fp16.c), on values worked by hand from cmod's
 * hls/sdp/sdp_y_idx.cpp (the FP32 difference x - start, FpFloatToIntFrac's 2^-select scaling, the exponent table's
 * log2), sdp_y_inp.cpp (the FP17 interpolation, the slopes) and hls_wrapper/sdp_hls_wrapper.cpp (the exponent
 * table's underflow bias 2^offset at any offset): sdp_random_lut_fp16's prediction shares the model's arithmetic, so
 * these pin each rule independently of it; tests/test_nvdla_fp_oracle.py compares it with cmod on random tables. */
#include "nv_lut_select.h"
#include "nvdla_fp16.h"
#include "sdp_lut_fp16.h"
#include "unit.h"
#include <string.h>

enum { H_ONE = 0x3C00, H_HALF = 0x3800, H_TWO = 0x4000, H_THREE = 0x4200, H_FOUR = 0x4400 };
enum { ONE = 0x3F800000u, TWO = 0x40000000u, THREE = 0x40400000u, FAR = 0x447A0000u /* 1000.0 */ };

/* LO linear from 0 (LE far above: it underflows), entries 1 and 3 around x = 2.5 */
static void setup(sdp_lut_cfg_t *c, sdp_lut_t *t)
{
    memset(c, 0, sizeof *c), memset(t, 0, sizeof *t);
    c->le_linear = true, c->le_start = FAR, c->le_end = FAR;
    t->lo[2] = H_ONE, t->lo[3] = H_THREE;
}

static void test_linear(unit_t *u)
{
    sdp_lut_cfg_t c;
    sdp_lut_t t;
    sdp_lut_out_t o;
    setup(&c, &t);
    CHECK_EQ(sdp_lut_fp16(&c, &t, 0x40200000 /* 2.5 */, &o), TWO); /* (1 + 3) / 2 */
    CHECK(o.use_lo && o.entry == 2 && o.lo == NV_LUT_HIT && o.le == NV_LUT_UFLOW, "LO entry 2");
    CHECK_EQ(sdp_lut_fp16(&c, &t, TWO, &o), ONE); /* fraction 0: 1 - f is exactly 1 */
    c.lo_index_select = -2;                       /* a negative select: entries 0.25 apart */
    CHECK_EQ(sdp_lut_fp16(&c, &t, 0x3F200000 /* 0.625 */, &o), TWO);
    CHECK_EQ(o.entry, 2);
    c.lo_index_select = 1; /* entries 2 apart: 5.0 is entry 2 and a half */
    CHECK_EQ(sdp_lut_fp16(&c, &t, 0x40A00000, &o), TWO);
    c.lo_index_select = 0, c.lo_start = 0xBF800000; /* start -1: x - start in FP32 */
    CHECK_EQ(sdp_lut_fp16(&c, &t, 0x3FC00000 /* 1.5 */, &o), TWO);
}

/* The exponent table: x - start's unbiased exponent minus the offset is the entry, its mantissa the fraction. */
static void test_exponent(unit_t *u)
{
    sdp_lut_cfg_t c;
    sdp_lut_t t;
    sdp_lut_out_t o;
    setup(&c, &t);
    c.le_linear = false, c.le_start = 0, c.lo_start = FAR;
    t.le[1] = H_ONE, t.le[2] = H_THREE;
    CHECK_EQ(sdp_lut_fp16(&c, &t, THREE, &o), TWO); /* 3 = 2^1 * 1.5: entry 1, half way */
    CHECK(!o.use_lo && o.entry == 1, "LE entry 1");
    c.le_index_offset = -3; /* 3/16 = 2^-3 * 1.5: entry 0 at an offset of -3 */
    t.le[0] = H_ONE, t.le[1] = H_THREE;
    CHECK_EQ(sdp_lut_fp16(&c, &t, 0x3E400000, &o), TWO);
    CHECK_EQ(o.entry, 0);
}

/* Outside the tables: y0 + (x - (start + bias or end)) * scale in FP17; the exponent table's underflow bias is
 * 2^offset at FP16 for any offset (at INT only a positive one). */
static void test_flow(unit_t *u)
{
    sdp_lut_cfg_t c;
    sdp_lut_t t;
    sdp_lut_out_t o;
    setup(&c, &t);
    c.le_linear = false, c.le_start = 0, c.lo_start = FAR, c.slopes.le_uflow_scale = H_TWO, c.slopes.le_uflow_shift = 7;
    t.le[0] = H_FOUR;
    /* 0.5 = 2^-1 is below offset 0: 4 + (0.5 - (0 + 2^0)) * 2 = 3 (no bias would give 5; the shift is unused) */
    CHECK_EQ(sdp_lut_fp16(&c, &t, 0x3F000000, &o), THREE);
    CHECK(o.le == NV_LUT_UFLOW && o.lo == NV_LUT_UFLOW && !o.use_lo, "both under, LE");
    setup(&c, &t);
    c.le_start = 0, c.lo_start = 0, c.lo_end = 0x43800000 /* 256 */, c.oflow_lo = true,
    c.slopes.lo_oflow_scale = H_HALF;
    t.lo[256] = H_ONE;
    CHECK_EQ(sdp_lut_fp16(&c, &t, 0x43960000 /* 300 */, &o), 0x41B80000); /* 1 + 44 / 2 = 23 */
    CHECK(o.use_lo && o.entry == 256 && o.le == NV_LUT_OFLOW && o.lo == NV_LUT_OFLOW, "both over, LO");
    /* a NaN input, -0 - start and a value below both starts underflow both tables */
    setup(&c, &t);
    c.lo_start = 0;
    sdp_lut_fp16(&c, &t, 0x7FC00000, &o);
    CHECK(o.le == NV_LUT_UFLOW && o.lo == NV_LUT_UFLOW, "NaN: both under");
    sdp_lut_fp16(&c, &t, 0x80000000, &o);
    CHECK(o.lo == NV_LUT_UFLOW, "-0 - 0: under");
    sdp_lut_fp16(&c, &t, 0xBF800000, &o);
    CHECK(o.lo == NV_LUT_UFLOW, "-1: under");
}

/* FpFractionToFloat<35, 6, 10>: the interpolation weights from a 35-bit fraction. */
static void test_fraction(unit_t *u)
{
    CHECK_EQ(nv_frac_to_fp17(1ull << 34, 35), 0x7800);                /* 0.5: exponent 30 */
    CHECK_EQ(nv_frac_to_fp17(1, 35), 0);                              /* 2^-35: below FP17's smallest normal */
    CHECK_EQ(nv_frac_to_fp17((1ull << 35) - 1, 35), 0x7C00);          /* rounds up to 1 */
    CHECK_EQ(nv_frac_to_fp17(0x8000, 16), nv_uint16_to_fp17(0x8000)); /* the 16-bit one is its special case */
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_sdp_lut_fp16"};
    UNIT_RUN(&u, test_linear);
    UNIT_RUN(&u, test_exponent);
    UNIT_RUN(&u, test_flow);
    UNIT_RUN(&u, test_fraction);
    return unit_done(&u);
}
