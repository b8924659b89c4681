/* nv_full SDP's EW (Y) stage at INT (golden/nvdla/sdp_ew.c) and its operand DMAs' layout (sdp_opdma32.c), on values
 * worked by hand from cmod's hls/sdp/sdp_y_core.cpp and sdp_y_cvt.cpp: the random tests' prediction shares this
 * arithmetic with the model, so these pin it independently of both. */
#include "mem.h"
#include "sdp_ew.h"
#include "sdp_opdma32.h"
#include "unit.h"

static void test_ew_cvt(unit_t *u)
{
    sdp_ew_opnd_t o = {.cvt_bypass = true, .offset = 3, .scale = 4, .truncate = 1};
    CHECK_EQ(sdp_ew_cvt(&o, -5), (uint64_t)-5); /* bypassed: the 16-bit operand as it is */
    o.cvt_bypass = false;
    CHECK_EQ(sdp_ew_cvt(&o, 10), 14); /* (10 - 3) * 4 >> 1 */
    sdp_ew_opnd_t r = {.offset = 0, .scale = 3, .truncate = 1};
    CHECK_EQ(sdp_ew_cvt(&r, -1), (uint64_t)-2); /* -1.5: ties away from zero */
    sdp_ew_opnd_t s = {.offset = INT32_MIN, .scale = 32767, .truncate = 0};
    CHECK_EQ(sdp_ew_cvt(&s, 32767), INT32_MAX); /* 49 bits saturated to 32 */
}

static void test_ew_order(unit_t *u)
{
    sdp_ew_cfg_t c = {.algo = 2, .truncate = 1};
    CHECK_EQ(sdp_ew_int(&c, 10, 5, 3), 20); /* multiplier first: 10 * 3 >> 1 = 15, then + 5 (ALU first: 23) */
    c.prelu = true;
    CHECK_EQ(sdp_ew_int(&c, 7, 5, 3), 12);            /* PReLU passes a value of sign 0: 7 + 5 */
    CHECK_EQ(sdp_ew_int(&c, -8, 5, 3), (uint64_t)-7); /* -24 >> 1 = -12, + 5 */
    sdp_ew_cfg_t m = {.algo = 0, .truncate = 62};
    CHECK_EQ(sdp_ew_int(&m, INT32_MAX, INT32_MIN, INT32_MAX), 1); /* (2^31-1)^2 / 2^62 rounds to 1; max(1, -2^31) */
    m.truncate = 1023;
    CHECK_EQ(sdp_ew_int(&m, INT32_MAX, -9, INT32_MAX), 0); /* shifted out entirely; max(0, -9) */
    sdp_ew_cfg_t a = {.algo = 2, .mul_bypass = true};
    CHECK_EQ(sdp_ew_int(&a, INT32_MAX, 1, 0), INT32_MAX); /* the sum in 33 bits, saturated */
    a.algo = 1;
    CHECK_EQ(sdp_ew_int(&a, -5, -7, 0), (uint64_t)-7);
    sdp_ew_cfg_t t = {.alu_bypass = true, .truncate = 0};
    CHECK_EQ(sdp_ew_int(&t, 1 << 20, 0, 1 << 20), INT32_MAX); /* 2^40 saturated to 32 bits */
    t.bypass = true;
    CHECK_EQ(sdp_ew_int(&t, -3, 100, 100), (uint64_t)-3);
}

/* BOTH at 2 bytes, INT16 processing (16 channels a group, 4 bytes a channel): channel 17's operands per element at
 * (s 1, y 1, x 2) and, for a 1x1 cube, straight from the base. */
static void test_opdma_layout(unit_t *u)
{
    mem_t *m = mem_new();
    const sdp_opdma32_t d = {.on = true,
                             .alu = true,
                             .mul = true,
                             .two_byte = true,
                             .per_elem = true,
                             .use = 2,
                             .bpe = 4,
                             .lanes = 16,
                             .at = {.base = 0x1000, .line = 0x200, .surf = 0x800}};
    const uint64_t a = 0x1000 + 0x800 + 0x200 + 2 * 64 + 1 * 4, b = 0x1000 + 64 + 4;
    const uint8_t v[4] = {0xfe, 0xff, 0x34, 0x12}, w[4] = {0x05, 0x00, 0x00, 0x80};
    mem_write(m, a, v, 4), mem_write(m, b, w, 4);
    int64_t alu = 0, mul = 0;
    sdp_opdma32_fetch(&d, m, 1, 1, 2, 1, false, &alu, &mul);
    CHECK_EQ(alu, (uint64_t)-2); /* ALU first, then MUL */
    CHECK_EQ(mul, 0x1234);
    sdp_opdma32_fetch(&d, m, 1, 1, 2, 1, true, &alu, &mul);
    CHECK_EQ(alu, 5); /* 1x1: group 1 at base + 64 */
    CHECK_EQ(mul, (uint64_t)-32768);
    mem_free(m);
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_sdp_ew"};
    UNIT_RUN(&u, test_ew_cvt);
    UNIT_RUN(&u, test_ew_order);
    UNIT_RUN(&u, test_opdma_layout);
    return unit_done(&u);
}
