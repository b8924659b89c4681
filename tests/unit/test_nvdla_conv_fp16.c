/* FP16 convolution arithmetic (golden/nvdla/conv_fp16.c): cases worked by hand from NVIDIA's C model, and random
 * cells and accumulations against exact (double) arithmetic within the bound of cmod's own high-level checkers
 * (cmac.h:818: a cell within 128 units of its exponent; cacc.cpp:1501: an add within one unit). */
#include "conv_fp16.h"
#include "nvdla_fp16.h"
#include "unit.h"
#include <math.h>

static double fp16_val(uint16_t h) /* NVDLA reads exponent 31 as a number (cmac.h: no Inf case) */
{
    const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    const double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return h >> 15 ? -v : v;
}
static double cell_val(uint64_t r)
{
    return (double)((int64_t)(r << 26) >> 26) * ldexp(1, (int)((r >> 38) & 0x3F) - 50);
}
static double acc_val(uint64_t a)
{
    return (double)((int64_t)(a << 24) >> 24) * ldexp(1, (int)((a >> 40) & 0xFF) - 101);
}
static double fp32_val(uint32_t f)
{
    union {
        uint32_t u;
        float f;
    } x = {.u = f};
    return x.f;
}

static uint32_t one(uint16_t d, uint16_t w)
{
    uint16_t dat[CONV_FP16_CELL] = {d}, wt[CONV_FP16_CELL] = {w};
    return conv_fp16_acc_to_fp32(conv_fp16_acc_add(0, conv_fp16_cell(dat, wt)));
}

static void test_hand(unit_t *u)
{
    CHECK_EQ(one(0x3C00, 0x3C00), 0x3f800000); /* 1 x 1: exponent group 3 + 3, 2^26 x 2^(24-50) */
    CHECK_EQ(one(0xBC00, 0x4000), 0xc0000000); /* -1 x 2 */
    CHECK_EQ(one(0x0001, 0x3C00), 0x33800000); /* a denormal is exact: 2^-24 */
    CHECK_EQ(one(0x7C00, 0x3C00), 0x47800000); /* Inf is 2^16, a number */
    CHECK_EQ(one(0x7E01, 0x3C00), 0x7f800201); /* a data NaN: sign and fraction, low bits of the FP32 */
    CHECK_EQ(one(0x3C00, 0xFC02), 0xff800002); /* a weight NaN */
    CHECK_EQ(one(0x8000, 0x3C00), 0);          /* -0 is skipped (CSC's mask): +0 */
    CHECK_EQ(conv_fp16_acc_to_fp32(0), 0);
    uint16_t dat[CONV_FP16_CELL] = {0x3C00, 0x7E05}, wt[CONV_FP16_CELL] = {0x3C00, 0x3C00};
    wt[5] = 0x7D11; /* the weight NaN wins over the data NaN (cmac.h:301) */
    CHECK_EQ(conv_fp16_cell(dat, wt) >> 27, 0x3full << 11 | 0x111);
    /* the sum's order: 2^24 + 1 - 2^24 in FP48 keeps the 1 (40-bit mantissa); one rounding on delivery */
    uint64_t a = conv_fp16_acc_add(0, conv_fp16_cell((uint16_t[64]){0x6C00}, (uint16_t[64]){0x6C00}));
    a = conv_fp16_acc_add(a, conv_fp16_cell((uint16_t[64]){0x3C00}, (uint16_t[64]){0x3C00}));
    a = conv_fp16_acc_add(a, conv_fp16_cell((uint16_t[64]){0xEC00}, (uint16_t[64]){0x6C00}));
    CHECK_EQ(conv_fp16_acc_to_fp32(a), 0x3f800000);
    /* a negative sum 10.11..1 + 0.75 unit rounds to 11.00..0, which the RTL renormalises to 10.00..0 with the
     * exponent less one (NV_NVDLA_CACC_CALC_fp_48b.v:439-440; cmod would keep 11.00..0 at 53) */
    const uint64_t m40 = (1ull << 40) - 1;
    CHECK_EQ(conv_fp16_acc_add(53ull << 40 | ((uint64_t) - ((1ll << 38) + 1) & m40), 3), 52ull << 40 | 1ull << 39);
    CHECK_EQ(conv_fp16_acc_to_fp32(52ull << 40 | 1ull << 39), 0xba800000); /* -2^39 x 2^(52-101) = -2^-10 */
}

static uint16_t draw(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t r = (uint32_t)(*s >> 33);
    if (r % 16 == 0) return (uint16_t)(r >> 8) & 0x8000;                           /* zeros */
    return (uint16_t)(((r >> 4) & 0x83FF) | (uint32_t)(9 + (r >> 16) % 12) << 10); /* 2^-6 .. 2^5 */
}

static void test_random_against_double(unit_t *u)
{
    uint64_t s = 38, worst = 0;
    unsigned bad = 0;
    for (int n = 0; n < 2000; n++) {
        uint64_t acc = 0;
        double exact = 0, bound = 0;
        for (int cell = 0; cell < 1 + n % 9; cell++) {
            uint16_t dat[CONV_FP16_CELL], wt[CONV_FP16_CELL];
            double sum = 0;
            for (unsigned c = 0; c < CONV_FP16_CELL; c++) {
                dat[c] = draw(&s), wt[c] = draw(&s);
                sum += fp16_val(dat[c]) * fp16_val(wt[c]);
            }
            const uint64_t r = conv_fp16_cell(dat, wt);
            const double unit = ldexp(1, (int)((r >> 38) & 0x3F) - 50);
            if (fabs(cell_val(r) - sum) > 128 * unit) bad++;
            const uint64_t next = conv_fp16_acc_add(acc, r);
            const double ulp = ldexp(1, (int)((next >> 40) & 0xFF) - 101);
            if (fabs(acc_val(next) - (acc_val(acc) + cell_val(r))) > ulp) bad++;
            acc = next, exact += sum, bound += 130 * unit + ulp;
        }
        const double got = fp32_val(conv_fp16_acc_to_fp32(acc));
        if (fabs(got - exact) > bound + fabs(exact) * ldexp(1, -23)) {
            if (!bad) fprintf(stderr, "case %d: got %g exact %g bound %g\n", n, got, exact, bound);
            bad++;
        }
        worst++;
    }
    CHECK(bad == 0, "%u of %llu random accumulations outside cmod's checker bounds", bad, (unsigned long long)worst);
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_conv_fp16"};
    UNIT_RUN(&u, test_hand);
    UNIT_RUN(&u, test_random_against_double);
    return unit_done(&u);
}
