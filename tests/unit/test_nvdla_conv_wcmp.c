/* Compressed convolution weights (golden/nvdla/conv_wcmp.c): a bitmap, packed weights and group sizes worked by hand
 * from cmod's reading (LSB-first bits, one stream over the kernel groups, a WGS word per group), and each
 * inconsistency the model reports instead of computing: group sizes, bitmap size, weight bytes. */
#include "conv_wcmp.h"
#include "unit.h"
#include <string.h>

/* INT8, 3 kernels of 5 elements in groups of 2: k0 {1 0 0 -2 3}, k1 all zero, k2 {0 4 0 0 5} */
static const int8_t dense8[15] = {1, 0, 0, -2, 3, 0, 0, 0, 0, 0, 0, 4, 0, 0, 5};
static uint8_t wmb8[128] = {0x19, 0x48};           /* bits 0, 3, 4 | 11, 14 */
static uint8_t wt8[128] = {1, 0xFE, 3, 4, 5};      /* the ones, in order */
static uint8_t wgs8[8] = {3, 0, 0, 0, 2, 0, 0, 0}; /* group 0 (k0, k1): 3 bytes; group 1 (k2): 2 */

static conv_wcmp_t int8_case(void)
{
    return (conv_wcmp_t){
        .wt = wt8, .wt_bytes = 128, .wmb = wmb8, .wmb_bytes = 128, .wgs = wgs8, .K = 3, .kg = 2, .kelems = 5, .esz = 1};
}

static void test_hand(unit_t *u)
{
    uint8_t out[15];
    char why[200] = "";
    conv_wcmp_t c = int8_case();
    CHECK(conv_wt_expand(&c, out, why, sizeof why), "%s", why);
    CHECK(!memcmp(out, dense8, sizeof out), "INT8 stream expanded wrong");
    /* INT16: {0x1234, 0, -1}: 2-byte elements, little-endian */
    static uint8_t wmb16[128] = {0x05}, wt16[128] = {0x34, 0x12, 0xFF, 0xFF}, wgs16[4] = {4};
    const conv_wcmp_t c16 = {.wt = wt16,
                             .wt_bytes = 128,
                             .wmb = wmb16,
                             .wmb_bytes = 128,
                             .wgs = wgs16,
                             .K = 1,
                             .kg = 16,
                             .kelems = 3,
                             .esz = 2};
    uint8_t out16[6];
    static const uint8_t want16[6] = {0x34, 0x12, 0, 0, 0xFF, 0xFF};
    CHECK(conv_wt_expand(&c16, out16, why, sizeof why), "%s", why);
    CHECK(!memcmp(out16, want16, sizeof want16), "INT16 stream expanded wrong");
    CHECK_EQ(conv_wmb_bytes(3, 5), 128u);
    CHECK_EQ(conv_wmb_bytes(16, 64), 128u); /* 1,024 bits: one unit */
    CHECK_EQ(conv_wmb_bytes(16, 65), 256u);
}

/* A group size, a bitmap with one bit more, a bitmap or weight size other than the hardware's: each reported with
 * what differs, none computed. */
static void test_inconsistent(unit_t *u)
{
    uint8_t out[15];
    char why[200] = "";
    conv_wcmp_t c = int8_case();
    wgs8[0] = 4;
    CHECK(!conv_wt_expand(&c, out, why, sizeof why) && strstr(why, "group 0"), "WGS: %s", why);
    wgs8[0] = 3;
    wmb8[0] ^= 0x02; /* one more element of group 0 stored */
    CHECK(!conv_wt_expand(&c, out, why, sizeof why) && strstr(why, "WGS of kernel group 0"), "bit: %s", why);
    wmb8[0] ^= 0x02;
    c.wmb_bytes = 256;
    CHECK(!conv_wt_expand(&c, out, why, sizeof why) && strstr(why, "WMB_BYTES"), "WMB_BYTES: %s", why);
    c = int8_case();
    c.wt_bytes = 256;
    CHECK(!conv_wt_expand(&c, out, why, sizeof why) && strstr(why, "WEIGHT_BYTES"), "WEIGHT_BYTES: %s", why);
    c = int8_case();
    CHECK(conv_wt_expand(&c, out, why, sizeof why), "restored: %s", why);
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_conv_wcmp"};
    UNIT_RUN(&u, test_hand);
    UNIT_RUN(&u, test_inconsistent);
    return unit_done(&u);
}
