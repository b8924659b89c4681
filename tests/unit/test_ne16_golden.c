/* Unit tests of the NE16 golden model and driver: the worked examples of spec ne16.md section 5 (inputs
 * encoded as the spec states, outputs computed by driver + golden model and compared with the printed
 * results), the 6.2 error codes, and random layers against an independent conv2d/linear reference. */
#include <stdlib.h>

#include "../../golden/ne16/ne16_driver.h"
#include "../../golden/ne16/ne16_golden.h"
#include "mem.h"
#include "rng.h"
#include "unit.h"

enum { W_PTR = 0x2000, IN_PTR = 0x1000, OUT_PTR = 0x3000, SC_PTR = 0x4000, SH_PTR = 0x4100, BI_PTR = 0x4200 };

static ne16_layer_t base_layer(ne16_layer_mode_t mode)
{
    ne16_layer_t l = {0};
    l.mode = mode;
    l.hi = l.wi = 1;
    l.qw = 8;
    l.wmin = -128;
    l.out_bits = 32;
    l.norm_bits = 8;
    l.in = IN_PTR;
    l.out = OUT_PTR;
    l.weights = W_PTR;
    l.scale = SC_PTR;
    l.scale_shift = SH_PTR;
    l.scale_bias = BI_PTR;
    return l;
}

/* Encode weights, run every job of the layer through the golden model. Returns the number of jobs. */
static int run_layer(unit_t *u, const ne16_layer_t *l, const int16_t *w, mem_t *m, uint32_t regs[][NE16_NUM_JOB_REGS],
                     size_t max_jobs, ne16_golden_result_t *res)
{
    char err[256] = "";
    size_t wbytes = ne16_weights_bytes(l);
    uint8_t *wbuf = calloc(wbytes ? wbytes : 1, 1);
    int rc = ne16_weights_encode(l, w, wbuf, err, sizeof err);
    CHECK(rc == 0, "encode: %s", err);
    mem_write(m, l->weights, wbuf, wbytes);
    free(wbuf);
    int n = ne16_driver_jobs(l, regs, max_jobs, err, sizeof err);
    CHECK(n > 0, "driver: %s", err);
    for (int j = 0; j < n; j++) {
        int e = ne16_golden_job(regs[j], m, res);
        CHECK(e == 0, "golden job %d rejected with code %d (%s)", j, e, ne16_job_error_name(e));
    }
    return n;
}

static void check_bytes(unit_t *u, const mem_t *m, uint32_t addr, const uint8_t *exp, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t got = mem_read8(m, addr + i);
        CHECK(got == exp[i], "%s: byte %zu at 0x%x: expected 0x%02x got 0x%02x", what, i, (unsigned)(addr + i), exp[i],
              got);
    }
}

/* EX1: 1x1, Ki=16, Ko=1, int8 out, scale 2, bias 116, shift 5, floor and ROUND. */
static void test_ex1(unit_t *u)
{
    for (int round = 0; round < 2; round++) {
        ne16_layer_t l = base_layer(NE16_LAYER_1X1);
        l.ki = 16;
        l.ko = 1;
        l.out_bits = 8;
        l.streamout = true;
        l.norm_bias = true;
        l.right_shift = 5;
        l.round = round;
        static const int16_t w[16] = {1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 127, -128};
        mem_t *m = mem_new();
        for (unsigned c = 0; c < 16; c++) mem_write8(m, ne16_in_addr(&l, 0, 0, c), (uint8_t)(10 * (c + 1)));
        mem_write8(m, SC_PTR, 2);
        mem_write32_strb(m, BI_PTR, 116, 0xF);
        uint32_t regs[1][NE16_NUM_JOB_REGS];
        ne16_golden_result_t res;
        ne16_result_init(&res);
        run_layer(u, &l, w, m, regs, 1, &res);
        static const uint8_t wexp[16] = {0x33, 0x73, 0x1E, 0x5E, 0xEA, 0x55, 0xAA, 0x6A,
                                         0xAA, 0x6A, 0xAA, 0x6A, 0xAA, 0x6A, 0x55, 0x55};
        check_bytes(u, m, W_PTR, wexp, 16, "EX1 weights");
        CHECK_EQ(regs[0][NE16_JOB_CONFIG0], round ? 0x02858857u : 0x02858057u);
        CHECK_EQ(regs[0][NE16_JOB_INFEAT_D0_STRIDE], 0x10);
        CHECK_EQ(regs[0][NE16_JOB_INFEAT_D1_STRIDE], 0x10);
        CHECK_EQ(regs[0][NE16_JOB_OUTFEAT_D0_STRIDE], 0);
        CHECK_EQ(regs[0][NE16_JOB_OUTFEAT_D1_STRIDE], 1);
        CHECK_EQ(regs[0][NE16_JOB_OUTFEAT_D2_STRIDE], 1);
        CHECK_EQ(regs[0][NE16_JOB_WEIGHTS_D0_STRIDE], 0x10);
        CHECK_EQ(regs[0][NE16_JOB_WEIGHTS_D1_STRIDE], 0x10);
        CHECK_EQ(regs[0][NE16_JOB_SUBTILE_REM0], 0x00010010);
        CHECK_EQ(regs[0][NE16_JOB_SUBTILE_REM1], 0x00010001);
        CHECK_EQ(regs[0][NE16_JOB_SUBTILE_REM2], 0x00010001);
        CHECK_EQ(regs[0][NE16_JOB_SUBTILE_NB0], 0x00010001);
        CHECK_EQ(regs[0][NE16_JOB_SUBTILE_NB1], 0x00010001);
        CHECK_EQ(regs[0][NE16_JOB_PADDING], 0);
        CHECK_EQ(regs[0][NE16_JOB_WEIGHT_OFFSET], 0xFFFFFF80u);
        CHECK_EQ(mem_read8(m, OUT_PTR), round ? 0x99 : 0x98);
        CHECK_EQ(res.n, 1);
        CHECK(res.n == 1 && res.elems[0].addr == OUT_PTR && res.elems[0].nbytes == 1, "EX1 write list");
        CHECK_EQ(mem_read8(m, OUT_PTR + 1), 0);
        ne16_result_free(&res);
        mem_free(m);
    }
}

/* EX2: 3x3, Ki=2, Ko=2, 3x3 input, pad 1, uint8 (ReLU), scale 1, shift 2; both driver conventions,
 * plus the raw-accumulator view of the same job. */
static void ex2_weights(int16_t w[2 * 2 * 9])
{
    for (int i = 0; i < 18; i++) w[i] = 1; /* ko0: all ones on both channels */
    for (int i = 18; i < 36; i++) w[i] = 0;
    w[18 + 0 * 9 + 4] = 2;  /* ko1 ch0 centre */
    w[18 + 1 * 9 + 0] = -1; /* ko1 ch1 top-left */
}

static void test_ex2(unit_t *u)
{
    static const uint8_t oexp[18] = {0x21, 0x00, 0x39, 0x01, 0x2C, 0x01, 0x4A, 0x02, 0x7B,
                                     0x00, 0x5A, 0x00, 0x42, 0x03, 0x6B, 0x00, 0x4D, 0x00};
    static const int32_t acc_exp[2][9] = {{132, 231, 176, 297, 495, 363, 264, 429, 308},
                                          {2, 4, 6, 8, 0, -8, 14, -24, -32}};
    for (int variant = 0; variant < 3; variant++) { /* 0: 3.7, 1: pulp-nnx, 2: raw int32 */
        ne16_layer_t l = base_layer(NE16_LAYER_3X3);
        l.ki = 2;
        l.ko = 2;
        l.hi = l.wi = 3;
        l.pt = l.pb = l.pl = l.pr = 1;
        l.pulp_variant = variant == 1;
        if (variant < 2) {
            l.out_bits = 8;
            l.streamout = true;
            l.relu = true;
            l.right_shift = 2;
        } else {
            l.out_bits = 32;
        }
        int16_t w[36];
        ex2_weights(w);
        mem_t *m = mem_new();
        for (unsigned h = 0; h < 3; h++)
            for (unsigned x = 0; x < 3; x++) {
                mem_write8(m, ne16_in_addr(&l, h, x, 0), (uint8_t)(3 * h + x + 1));
                mem_write8(m, ne16_in_addr(&l, h, x, 1), (uint8_t)(10 * (3 * h + x + 1)));
            }
        mem_write8(m, SC_PTR, 1);
        mem_write8(m, SC_PTR + 1, 1);
        uint32_t regs[1][NE16_NUM_JOB_REGS];
        run_layer(u, &l, w, m, regs, 1, NULL);
        const uint32_t *r = regs[0];
        CHECK_EQ(r[NE16_JOB_INFEAT_PTR], 0xFF8);
        CHECK_EQ(r[NE16_JOB_INFEAT_D0_STRIDE], 2);
        CHECK_EQ(r[NE16_JOB_INFEAT_D1_STRIDE], 6);
        CHECK_EQ(r[NE16_JOB_WEIGHTS_D0_STRIDE], 0x12);
        CHECK_EQ(r[NE16_JOB_WEIGHTS_D1_STRIDE], 0x90);
        CHECK_EQ(r[NE16_JOB_SUBTILE_REM0], 0x00020002);
        CHECK_EQ(r[NE16_JOB_SUBTILE_REM1], 0x00030003);
        CHECK_EQ(r[NE16_JOB_SUBTILE_REM2], variant == 1 ? 0x00040004u : 0x00050005u);
        CHECK_EQ(r[NE16_JOB_PADDING], 0x11110000u);
        CHECK_EQ(r[NE16_JOB_SUBTILE_NB0], 0x00010001);
        CHECK_EQ(r[NE16_JOB_SUBTILE_NB1], 0x00010001);
        if (variant < 2) {
            CHECK_EQ(r[NE16_JOB_CONFIG0], 0x00028017u);
            CHECK_EQ(r[NE16_JOB_OUTFEAT_D1_STRIDE], 2);
            CHECK_EQ(r[NE16_JOB_OUTFEAT_D2_STRIDE], 6);
            check_bytes(u, m, OUT_PTR, oexp, 18, variant ? "EX2 pulp output" : "EX2 output");
            CHECK_EQ(mem_read8(m, OUT_PTR + 18), 0);
        } else {
            for (unsigned p = 0; p < 9; p++)
                for (unsigned k = 0; k < 2; k++)
                    CHECK_EQ(mem_read32(m, ne16_out_addr(&l, p / 3, p % 3, k)), (uint32_t)acc_exp[k][p]);
        }
        /* weights: 288 bytes, ko0 planes 0 and 7 are 03 00 per tap, planes 1-6 zero */
        CHECK_EQ(ne16_weights_bytes(&l), 288);
        for (unsigned q = 0; q < 8; q++)
            for (unsigned t = 0; t < 9; t++) {
                CHECK_EQ(mem_read8(m, W_PTR + q * 18 + 2 * t), (q == 0 || q == 7) ? 3 : 0);
                CHECK_EQ(mem_read8(m, W_PTR + q * 18 + 2 * t + 1), 0);
            }
        mem_free(m);
    }
}

/* EX3: depthwise 3x3, K=2, 4x4 input, no padding, raw int32. */
static void test_ex3(unit_t *u)
{
    ne16_layer_t l = base_layer(NE16_LAYER_DW);
    l.ki = l.ko = 2;
    l.hi = l.wi = 4;
    int16_t w[18];
    for (int t = 0; t < 9; t++) w[t] = (int16_t)(t + 1);
    static const int16_t sob[9] = {-1, 0, 1, -2, 0, 2, -1, 0, 1};
    for (int t = 0; t < 9; t++) w[9 + t] = sob[t];
    mem_t *m = mem_new();
    for (unsigned h = 0; h < 4; h++)
        for (unsigned x = 0; x < 4; x++) {
            mem_write8(m, ne16_in_addr(&l, h, x, 0), (uint8_t)(4 * h + x));
            mem_write8(m, ne16_in_addr(&l, h, x, 1), (uint8_t)(2 * (4 * h + x)));
        }
    uint32_t regs[1][NE16_NUM_JOB_REGS];
    ne16_golden_result_t res;
    ne16_result_init(&res);
    run_layer(u, &l, w, m, regs, 1, &res);
    const uint32_t *r = regs[0];
    CHECK_EQ(r[NE16_JOB_CONFIG0], 0x00C08027u);
    CHECK_EQ(r[NE16_JOB_INFEAT_D0_STRIDE], 2);
    CHECK_EQ(r[NE16_JOB_INFEAT_D1_STRIDE], 8);
    CHECK_EQ(r[NE16_JOB_OUTFEAT_D0_STRIDE], 0x20);
    CHECK_EQ(r[NE16_JOB_OUTFEAT_D1_STRIDE], 8);
    CHECK_EQ(r[NE16_JOB_OUTFEAT_D2_STRIDE], 0x10);
    CHECK_EQ(r[NE16_JOB_WEIGHTS_D0_STRIDE], 0x12);
    CHECK_EQ(r[NE16_JOB_WEIGHTS_D1_STRIDE], 0);
    CHECK_EQ(r[NE16_JOB_SUBTILE_REM0], 0x00020002);
    CHECK_EQ(r[NE16_JOB_SUBTILE_REM1], 0x00020002);
    CHECK_EQ(r[NE16_JOB_SUBTILE_REM2], 0x00040004);
    CHECK_EQ(r[NE16_JOB_SUBTILE_NB0], 0x00010001);
    CHECK_EQ(r[NE16_JOB_SUBTILE_NB1], 0x00010001);
    CHECK_EQ(ne16_weights_bytes(&l), 144);
    static const uint8_t plane0[18] = {3, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 3, 0};
    check_bytes(u, m, W_PTR, plane0, 18, "EX3 plane 0");
    static const uint8_t oexp[32] = {0x2F, 0x01, 0, 0, 0x10, 0, 0, 0, 0x5C, 0x01, 0, 0, 0x10, 0, 0, 0,
                                     0xE3, 0x01, 0, 0, 0x10, 0, 0, 0, 0x10, 0x02, 0, 0, 0x10, 0, 0, 0};
    check_bytes(u, m, OUT_PTR, oexp, 32, "EX3 output");
    CHECK_EQ(res.n, 8);
    const ne16_out_elem_t *e = ne16_result_find(&res, OUT_PTR + 0x1A);
    CHECK(e && e->k == 0 && e->h == 1 && e->w == 1, "EX3 coordinates of 0x301A");
    ne16_result_free(&res);
    mem_free(m);
}

/* EX4: Qw=4 encoding, 1x1, Ko=2, Ki=5, Wmin=-8, raw int32. */
static void test_ex4(unit_t *u)
{
    ne16_layer_t l = base_layer(NE16_LAYER_1X1);
    l.ki = 5;
    l.ko = 2;
    l.qw = 4;
    l.wmin = -8;
    static const int16_t w[10] = {-8, -1, 0, 3, 7, 5, -6, 2, -3, 1};
    mem_t *m = mem_new();
    for (unsigned c = 0; c < 5; c++) mem_write8(m, ne16_in_addr(&l, 0, 0, c), (uint8_t)(c + 1));
    uint32_t regs[1][NE16_NUM_JOB_REGS];
    run_layer(u, &l, w, m, regs, 1, NULL);
    CHECK_EQ(regs[0][NE16_JOB_CONFIG0], 0x00C08043u);
    CHECK_EQ(regs[0][NE16_JOB_WEIGHT_OFFSET], 0xFFFFFFF8u);
    CHECK_EQ(regs[0][NE16_JOB_WEIGHTS_D0_STRIDE], 8);
    CHECK_EQ(regs[0][NE16_JOB_WEIGHTS_D1_STRIDE], 8);
    CHECK_EQ(regs[0][NE16_JOB_SUBTILE_NB0], 0x00010001);
    CHECK_EQ(regs[0][NE16_JOB_SUBTILE_REM0], 0x00020005);
    static const uint8_t wexp[16] = {0x1A, 0, 0x1A, 0, 0x12, 0, 0x1C, 0, 0x19, 0, 0x06, 0, 0x09, 0, 0x15, 0};
    check_bytes(u, m, W_PTR, wexp, 16, "EX4 weights");
    static const uint8_t oexp[8] = {0x25, 0, 0, 0, 0xF8, 0xFF, 0xFF, 0xFF};
    check_bytes(u, m, OUT_PTR, oexp, 8, "EX4 output");
    mem_free(m);
}

/* EX5: normalisation corner cases through ne16_norm_quant with a decoded CONFIG0. */
static uint32_t nq(unsigned qb, bool rect, unsigned shift, bool round, unsigned nb, bool bias_on, bool nshift,
                   int32_t acc, uint32_t scale, int32_t bias, uint8_t shb)
{
    uint32_t regs[NE16_NUM_JOB_REGS] = {0};
    regs[NE16_JOB_SUBTILE_NB0] = regs[NE16_JOB_SUBTILE_NB1] = 0x00010001;
    regs[NE16_JOB_CONFIG0] = 7u | 1u << 4 | 2u << 5 | (uint32_t)round << 11 | nb << 12 | shift << 16 | qb << 21 |
                             (uint32_t)rect << 23 | (uint32_t)nshift << 24 | (uint32_t)bias_on << 25;
    ne16_job_cfg_t c;
    ne16_job_decode(regs, &c);
    return ne16_norm_quant(&c, acc, scale, bias, shb);
}

static void test_ex5(unit_t *u)
{
    CHECK_EQ(nq(0, 1, 4, 0, 0, 0, 0, 1000, 1, 0, 0), 0x3E);
    CHECK_EQ(nq(0, 1, 4, 1, 0, 0, 0, 1000, 1, 0, 0), 0x3F);
    CHECK_EQ(nq(0, 1, 4, 0, 0, 0, 0, -1000, 1, 0, 0), 0xC1);
    CHECK_EQ(nq(0, 1, 4, 1, 0, 0, 0, -1000, 1, 0, 0), 0xC2);
    CHECK_EQ(nq(0, 1, 0, 0, 0, 0, 0, 1000, 1, 0, 0), 0x7F);
    CHECK_EQ(nq(0, 0, 0, 0, 0, 0, 0, -5, 1, 0, 0), 0);
    CHECK_EQ(nq(0, 0, 0, 0, 0, 0, 0, 300, 1, 0, 0), 255);
    CHECK_EQ(nq(1, 1, 1, 0, 0, 0, 0, -70001, 1, 0, 0), 0x8000);
    CHECK_EQ(nq(1, 0, 0, 0, 0, 0, 0, 70000, 1, 0, 0), 0xFFFF);
    CHECK_EQ(nq(2, 1, 0, 0, 2, 0, 0, 3, 0x80000000u, 0, 0), 2147483647u);
    CHECK_EQ(nq(2, 1, 0, 0, 2, 1, 0, 3, 0x80000000u, 5, 0), 0x80000005u);
    CHECK_EQ(nq(0, 1, 0, 0, 0, 0, 1, 1000, 1, 0, 0x47), 7);
}

/* EX6: streamin, 1x1, Ki=1, Ko=10, raw int32. */
static void test_ex6(unit_t *u)
{
    ne16_layer_t l = base_layer(NE16_LAYER_1X1);
    l.ki = 1;
    l.ko = 10;
    l.streamin = true;
    int16_t w[10];
    for (int k = 0; k < 10; k++) w[k] = (int16_t)(k - 5);
    mem_t *m = mem_new();
    mem_write8(m, IN_PTR, 7);
    for (unsigned k = 0; k < 10; k++)
        mem_write32_strb(m, OUT_PTR + 4 * k, (uint32_t)(int32_t)(1000 * (int)k - 4000), 0xF);
    mem_write32_strb(m, OUT_PTR + 40, 0xDEADBEEF, 0xF);
    uint32_t regs[1][NE16_NUM_JOB_REGS];
    run_layer(u, &l, w, m, regs, 1, NULL);
    CHECK_EQ(regs[0][NE16_JOB_CONFIG0], 0x00C0C047u);
    CHECK_EQ(regs[0][NE16_JOB_OUTFEAT_D0_STRIDE], 0x20);
    CHECK_EQ(regs[0][NE16_JOB_OUTFEAT_D1_STRIDE], 0x28);
    CHECK_EQ(regs[0][NE16_JOB_OUTFEAT_D2_STRIDE], 0x28);
    CHECK_EQ(regs[0][NE16_JOB_SUBTILE_REM0], 0x000A0001);
    static const int32_t exp[10] = {-4035, -3028, -2021, -1014, -7, 1000, 2007, 3014, 4021, 5028};
    for (unsigned k = 0; k < 10; k++) CHECK_EQ(mem_read32(m, OUT_PTR + 4 * k), (uint32_t)exp[k]);
    CHECK_EQ(mem_read32(m, OUT_PTR + 40), 0xDEADBEEF);
    mem_free(m);
}

/* EX7: MODE16, 1x1, Ki=3, Ko=1, raw int32. */
static void test_ex7(unit_t *u)
{
    ne16_layer_t l = base_layer(NE16_LAYER_1X1);
    l.ki = 3;
    l.ko = 1;
    l.mode16 = true;
    static const int16_t w[3] = {3, -2, 1};
    mem_t *m = mem_new();
    static const uint8_t x[6] = {0xE8, 0x03, 0x40, 0x9C, 0xFF, 0xFF};
    mem_write(m, IN_PTR, x, 6);
    CHECK_EQ(ne16_in_addr(&l, 0, 0, 2), IN_PTR + 4);
    uint32_t regs[1][NE16_NUM_JOB_REGS];
    run_layer(u, &l, w, m, regs, 1, NULL);
    CHECK_EQ(regs[0][NE16_JOB_CONFIG0], 0x00C0804Fu);
    CHECK_EQ(regs[0][NE16_JOB_INFEAT_D0_STRIDE], 6);
    CHECK_EQ(regs[0][NE16_JOB_INFEAT_D1_STRIDE], 6);
    CHECK_EQ(regs[0][NE16_JOB_WEIGHTS_D0_STRIDE], 8);
    CHECK_EQ(regs[0][NE16_JOB_WEIGHTS_D1_STRIDE], 8);
    CHECK_EQ(regs[0][NE16_JOB_SUBTILE_NB0], 0x00010001);
    CHECK_EQ(regs[0][NE16_JOB_SUBTILE_REM0], 0x00010006);
    static const uint8_t wexp[8] = {0x05, 0x03, 0x02, 0x02, 0x02, 0x02, 0x02, 0x05};
    check_bytes(u, m, W_PTR, wexp, 8, "EX7 weights");
    CHECK_EQ(mem_read32(m, OUT_PTR), (uint32_t)-11465);
    mem_free(m);
}

/* EX8: linear, Ki=32, Ko=2, Qw=2 (Wmin=-2), int8, scale 1, shift 2. */
static void test_ex8(unit_t *u)
{
    ne16_layer_t l = base_layer(NE16_LAYER_LINEAR);
    l.ki = 32;
    l.ko = 2;
    l.qw = 2;
    l.wmin = -2;
    l.out_bits = 8;
    l.streamout = true;
    l.right_shift = 2;
    int16_t w[64];
    for (int e = 0; e < 32; e++) {
        w[e] = (int16_t)(e % 4 - 2);
        w[32 + e] = e < 16 ? -1 : 1;
    }
    mem_t *m = mem_new();
    for (unsigned e = 0; e < 32; e++) mem_write8(m, IN_PTR + e, (uint8_t)(e + 1));
    mem_write8(m, SC_PTR, 1);
    mem_write8(m, SC_PTR + 1, 1);
    uint32_t regs[1][NE16_NUM_JOB_REGS];
    run_layer(u, &l, w, m, regs, 1, NULL);
    CHECK_EQ(regs[0][NE16_JOB_CONFIG0], 0x008280F1u);
    CHECK_EQ(regs[0][NE16_JOB_INFEAT_D0_STRIDE], 0x10);
    CHECK_EQ(regs[0][NE16_JOB_WEIGHTS_D0_STRIDE], 4);
    CHECK_EQ(regs[0][NE16_JOB_WEIGHTS_D1_STRIDE], 8);
    CHECK_EQ(regs[0][NE16_JOB_WEIGHTS_D2_STRIDE], 0x100);
    CHECK_EQ(regs[0][NE16_JOB_SUBTILE_NB0], 0x00010001);
    CHECK_EQ(regs[0][NE16_JOB_SUBTILE_REM0], 0x00020002);
    CHECK_EQ(regs[0][NE16_JOB_SUBTILE_NB1], 0x00010001);
    CHECK_EQ(regs[0][NE16_JOB_SUBTILE_REM1], 0x00010001);
    static const uint8_t wexp[16] = {0xAA, 0xAA, 0xAA, 0xAA, 0xCC, 0xCC, 0xCC, 0xCC,
                                     0xFF, 0xFF, 0xFF, 0xFF, 0,    0,    0xFF, 0xFF};
    check_bytes(u, m, W_PTR, wexp, 16, "EX8 weights");
    static const uint8_t oexp[2] = {0xC8, 0x40};
    check_bytes(u, m, OUT_PTR, oexp, 2, "EX8 output");
    mem_free(m);
}

/* EX9: stride 2x2, 3x3, Ki=1, Ko=2, 4x4 input, pad top/left 1, uint8, scale 1, shift 0. */
static void test_ex9(unit_t *u)
{
    ne16_layer_t l = base_layer(NE16_LAYER_3X3);
    l.ki = 1;
    l.ko = 2;
    l.hi = l.wi = 4;
    l.pt = l.pl = 1;
    l.strided = true;
    l.out_bits = 8;
    l.streamout = true;
    l.relu = true;
    int16_t w[18];
    for (int t = 0; t < 9; t++) {
        w[t] = 1;
        w[9 + t] = t == 4;
    }
    mem_t *m = mem_new();
    for (unsigned h = 0; h < 4; h++)
        for (unsigned x = 0; x < 4; x++) mem_write8(m, ne16_in_addr(&l, h, x, 0), (uint8_t)(4 * h + x + 1));
    mem_write8(m, SC_PTR, 1);
    mem_write8(m, SC_PTR + 1, 1);
    CHECK_EQ(ne16_driver_num_jobs(&l), 1);
    uint32_t regs[4][NE16_NUM_JOB_REGS];
    run_layer(u, &l, w, m, regs, 4, NULL);
    const uint32_t *r = regs[0];
    CHECK_EQ(r[NE16_JOB_INFEAT_PTR], 0xFFB);
    CHECK_EQ(r[NE16_JOB_OUTFEAT_PTR], 0x3000);
    CHECK_EQ(r[NE16_JOB_OUTFEAT_D1_STRIDE], 1);
    CHECK_EQ(r[NE16_JOB_OUTFEAT_D2_STRIDE], 2);
    CHECK_EQ(r[NE16_JOB_SUBTILE_NB1], 0x00010001);
    CHECK_EQ(r[NE16_JOB_SUBTILE_REM1], 0x00030003);
    CHECK_EQ(r[NE16_JOB_SUBTILE_REM2], 0x00050005);
    CHECK_EQ(r[NE16_JOB_PADDING], 0x10010000u);
    CHECK_EQ(r[NE16_JOB_CONFIG0], 0x00008117u);
    static const uint8_t oexp[8] = {0x0E, 0x01, 0x1E, 0x03, 0x39, 0x09, 0x63, 0x0B};
    check_bytes(u, m, OUT_PTR, oexp, 8, "EX9 output");
    CHECK_EQ(mem_read8(m, OUT_PTR + 8), 0);
    mem_free(m);
}

/* 6.2: each illegal configuration, first failing code wins, no memory effect. */
static void test_errors(unit_t *u)
{
    uint32_t ok[NE16_NUM_JOB_REGS] = {0};
    ok[NE16_JOB_SUBTILE_NB0] = ok[NE16_JOB_SUBTILE_NB1] = 0x00010001;
    ok[NE16_JOB_CONFIG0] = 0x00C08047; /* 1x1, raw 32-bit */
    ok[NE16_JOB_OUTFEAT_PTR] = OUT_PTR;
    struct {
        uint32_t cfg_set, cfg_clr;
        int reg;
        uint32_t val;
        int code;
    } cases[] = {
        {3u << 21, 0, -1, 0, 1},
        {1u << 4 | 3u << 12, 0, -1, 0, 2},
        {3u << 5, 0, -1, 0, 3},
        {0, 0, NE16_JOB_SUBTILE_NB0, 0x00000001, 4},
        {0, 0, NE16_JOB_SUBTILE_NB1, 0x00010000, 4},
        {0, 0, NE16_JOB_SUBTILE_NB0, 0x00010000, 4},
        {0, 0, NE16_JOB_SUBTILE_REM0, 0x00210000, 5},
        {0, 0, NE16_JOB_SUBTILE_REM0, 0x00000011, 5},
        {0, 0, NE16_JOB_SUBTILE_REM1, 0x00040000, 5},
        {0, 0, NE16_JOB_SUBTILE_REM2, 0x00000004, 5}, /* 1x1: F = 3 */
        {1u << 14, 3u << 21, -1, 0, 6},
        {1u << 3 | 1u << 5, 3u << 5, -1, 0, 7},
        {3u << 21 | 3u << 5, 0, -1, 0, 1},                            /* priority: 1 before 3 */
        {1u << 14 | 1u << 3 | 1u << 5, 3u << 21 | 3u << 5, -1, 0, 6}, /* 6 before 7 */
        {1u << 7 | 3u << 5, 0, NE16_JOB_SUBTILE_REM0, 0x00000010, 0}, /* linear: FM ignored, 16 words ok */
        {1u << 7 | 1u << 3, 0, NE16_JOB_SUBTILE_REM0, 0x00000020, 0}, /* linear MODE16: 32 words ok */
        {1u << 7, 0, NE16_JOB_SUBTILE_REM0, 0x00000011, 5},
        {1u << 5, 3u << 5, NE16_JOB_SUBTILE_NB0, 0x00010000, 0},  /* DW: NB_KI ignored */
        {1u << 5, 3u << 5, NE16_JOB_SUBTILE_REM0, 0x00110000, 5}, /* DW: KO_SUB = 16 */
        {1u << 5, 3u << 5, NE16_JOB_SUBTILE_REM0, 0x0010FFFF, 0}, /* DW: REM_KI ignored */
        {0, 1u << 4, -1, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t r[NE16_NUM_JOB_REGS];
        memcpy(r, ok, sizeof r);
        r[NE16_JOB_CONFIG0] = (r[NE16_JOB_CONFIG0] & ~cases[i].cfg_clr) | cases[i].cfg_set;
        if (cases[i].reg >= 0) r[cases[i].reg] = cases[i].val;
        mem_t *m = mem_new();
        ne16_golden_result_t res;
        ne16_result_init(&res);
        int e = ne16_golden_job(r, m, &res);
        CHECK(e == cases[i].code, "case %zu: code %d expected %d", i, e, cases[i].code);
        CHECK(res.error == e, "case %zu: result error", i);
        if (cases[i].code)
            CHECK(res.n == 0 && mem_crc32(m, OUT_PTR, 64) == mem_crc32(m, 0x9000, 64), "case %zu: wrote", i);
        ne16_result_free(&res);
        mem_free(m);
    }
}

/* ---------------- random layers vs an independent reference ---------------- */

/* pulp-nnx style norm/quant written independently of ne16_norm_quant (int64 + explicit floor division). */
static uint32_t ref_nq(const ne16_layer_t *l, int32_t acc, uint32_t scale, int32_t bias, uint8_t shb)
{
    const unsigned bits = l->out_bits;
    const uint64_t keep = bits == 32 ? 0xFFFFFFFFull : (1ull << bits) - 1;
    if (!l->streamout) return (uint32_t)((uint64_t)(uint32_t)acc & keep);
    int64_t v = (int64_t)acc * (int64_t)(uint64_t)scale;
    if (l->norm_bias) v = (int64_t)(int32_t)(uint32_t)((uint32_t)v + (uint32_t)bias);
    unsigned sh = l->norm_shift ? (shb & 63u) : l->right_shift;
    /* floor((v + rnd) / 2^sh) = floor(v / 2^sh) + carry of (v mod 2^sh + rnd) */
    int64_t q = sh == 63 ? (v < 0 ? -1 : 0) : v >> sh;
    uint64_t rem = (uint64_t)v - ((uint64_t)q << sh);
    uint64_t rnd = (l->round && sh) ? 1ull << (sh - 1) : 0;
    q += (int64_t)((rem + rnd) >> sh);
    int64_t lo = l->relu ? 0 : -(1ll << (bits - 1)), hi = l->relu ? (int64_t)keep : (1ll << (bits - 1)) - 1;
    if (q < lo) q = lo;
    if (q > hi) q = hi;
    return (uint32_t)((uint64_t)q & keep);
}

static uint32_t rd_le(const mem_t *m, uint32_t a, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint32_t)mem_read8(m, a + i) << (8 * i);
    return v;
}

static void random_layer(rng_t *g, ne16_layer_t *l)
{
    *l = base_layer((ne16_layer_mode_t)rng_below(g, 4));
    l->qw = rng_range(g, 1, 8);
    l->symmetric = rng_chance(g, 30);
    l->wmin = (int)rng_range(g, 0, 511) - 256;
    l->mode16 = l->mode != NE16_LAYER_DW && rng_chance(g, 25);
    l->out_bits = 8u << rng_below(g, 3);
    l->norm_bits = 8u << rng_below(g, 3);
    l->streamout = rng_chance(g, 75);
    l->streamin = l->out_bits == 32 && rng_chance(g, 30);
    l->relu = rng_chance(g, 50);
    l->round = rng_chance(g, 50);
    l->norm_shift = rng_chance(g, 30);
    l->norm_bias = rng_chance(g, 50);
    l->right_shift = rng_below(g, 32);
    l->rem_full_as_zero = rng_chance(g, 30);
    l->pad_value = (uint16_t)rng_next(g);
    l->in = 0x10000 + rng_below(g, 64);
    l->out = 0x40000 + rng_below(g, 64);
    l->weights = 0x80000 + rng_below(g, 64);
    l->scale = 0xA0000 + rng_below(g, 16);
    l->scale_shift = 0xA1000 + rng_below(g, 16);
    l->scale_bias = 0xA2000 + rng_below(g, 16);
    if (l->mode == NE16_LAYER_LINEAR) {
        l->ki = (l->mode16 ? 8 : 16) * rng_range(g, 1, 40);
        l->ko = rng_range(g, 1, 70);
        return;
    }
    l->ki = rng_chance(g, 20) ? rng_range(g, 30, 70) : rng_range(g, 1, 20);
    l->ko = l->mode == NE16_LAYER_DW ? l->ki : (rng_chance(g, 20) ? rng_range(g, 30, 70) : rng_range(g, 1, 12));
    l->hi = rng_range(g, 1, 9);
    l->wi = rng_range(g, 1, 9);
    if (l->mode != NE16_LAYER_1X1) {
        l->pt = rng_below(g, 3);
        l->pb = rng_below(g, 3);
        l->pl = rng_below(g, 3);
        l->pr = rng_below(g, 3);
        if (rng_chance(g, 30)) {
            l->mask_top = (uint8_t)rng_below(g, 4);
            l->mask_bottom = (uint8_t)rng_below(g, 4);
            l->mask_left = (uint8_t)rng_below(g, 4);
            l->mask_right = (uint8_t)rng_below(g, 4);
        }
        while (l->hi + l->pt + l->pb < 3) l->hi++;
        while (l->wi + l->pl + l->pr < 3) l->wi++;
    }
    l->strided = rng_chance(g, 25);
    if (l->strided && (l->ko * ne16_layer_ob(l)) % 2) l->ko += 1;
    if (l->strided && l->mode == NE16_LAYER_DW) l->ki = l->ko;
    if (rng_chance(g, 30)) l->pad_value = 0;
    /* the pulp-nnx convention is only equivalent with VALUE = 0, and programs OUTFEAT_D0 = 32 (8/32-bit only) */
    l->pulp_variant = !l->strided && l->pad_value == 0 && l->out_bits != 16 && rng_chance(g, 50);
    /* 3.7 cannot express pb = 2 when REM_HO = 1 (the layer check rejects it): use 1 then */
    if (!l->strided && l->pb == 2 && ne16_layer_ho(l) % 3 == 1) l->pb = 1;
    if (!l->strided && l->pr == 2 && ne16_layer_wo(l) % 3 == 1) l->pr = 1;
    if (l->hi + l->pt + l->pb < 3) l->hi += 3;
    if (l->wi + l->pl + l->pr < 3) l->wi += 3;
}

static void test_random_layers(unit_t *u)
{
    rng_t g;
    rng_seed_stream(&g, 2024, "ne16.golden.random");
    unsigned bad_layers = 0;
    for (int iter = 0; iter < 500; iter++) {
        ne16_layer_t l;
        random_layer(&g, &l);
        char err[256];
        if (ne16_layer_check(&l, err, sizeof err)) {
            CHECK(0, "iter %d: generator made a bad layer: %s", iter, err);
            continue;
        }
        const int wmin = ne16_layer_wmin(&l);
        const unsigned eb = ne16_layer_eb(&l), ob = ne16_layer_ob(&l), sb = l.norm_bits / 8;
        const unsigned kk = (l.mode == NE16_LAYER_3X3 || l.mode == NE16_LAYER_DW) ? 3 : 1;
        const unsigned stride = l.strided ? 2 : 1;
        const unsigned nin = l.mode == NE16_LAYER_DW ? 1 : l.ki;
        const size_t nw = (size_t)l.ko * nin * kk * kk;
        int16_t *w = malloc(nw * sizeof *w);
        for (size_t i = 0; i < nw; i++) w[i] = (int16_t)(wmin + (int)rng_below(&g, 1u << l.qw));
        mem_t *m = mem_new();
        /* garbage everywhere the job may read but must not use (M6), then the tensors */
        for (uint32_t a = 0x0F000; a < 0x14000; a++) mem_write8(m, a, (uint8_t)rng_next(&g));
        for (uint32_t a = 0x40000; a < 0x40000 + ne16_out_bytes(&l) + 128; a++) mem_write8(m, a, (uint8_t)rng_next(&g));
        for (uint32_t a = 0xA0000; a < 0xA3200; a++) mem_write8(m, a, (uint8_t)rng_next(&g));
        for (size_t i = 0; i < ne16_in_bytes(&l); i++)
            mem_write8(m, l.in + i, (uint8_t)(rng_chance(&g, 10) ? 0xFF : rng_next(&g)));
        if (rng_chance(&g, 20)) { /* scale corner values */
            uint32_t v = rng_chance(&g, 50) ? 0 : (sb == 4 ? 0xFFFFFFFFu : (1u << (8 * sb)) - 1);
            for (unsigned k = 0; k < l.ko; k++)
                for (unsigned b = 0; b < sb; b++) mem_write8(m, l.scale + k * sb + b, (uint8_t)(v >> (8 * b)));
        }
        mem_t *before = mem_clone(m);
        uint32_t(*regs)[NE16_NUM_JOB_REGS] = malloc(64 * sizeof *regs);
        ne16_golden_result_t res;
        ne16_result_init(&res);
        size_t wbytes = ne16_weights_bytes(&l);
        uint8_t *wbuf = malloc(wbytes);
        CHECK(ne16_weights_encode(&l, w, wbuf, err, sizeof err) == 0, "encode: %s", err);
        mem_write(m, l.weights, wbuf, wbytes);
        mem_write(before, l.weights, wbuf, wbytes);
        free(wbuf);
        int nj = ne16_driver_jobs(&l, regs, 64, err, sizeof err);
        CHECK(nj > 0, "iter %d driver: %s", iter, err);
        for (int j = 0; j < nj; j++) {
            int e = ne16_golden_job(regs[j], m, &res);
            CHECK(e == 0, "iter %d job %d rejected: %s", iter, j, ne16_job_error_name(e));
        }
        /* reference */
        const unsigned ho = ne16_layer_ho(&l), wo = ne16_layer_wo(&l);
        unsigned mism = 0;
        CHECK(res.n == (size_t)ho * wo * l.ko, "iter %d: %zu elements written, expected %u", iter, res.n,
              ho * wo * l.ko);
        for (unsigned h = 0; h < ho; h++)
            for (unsigned x = 0; x < wo; x++)
                for (unsigned k = 0; k < l.ko; k++) {
                    uint32_t acc = l.streamin ? rd_le(before, ne16_out_addr(&l, h, x, k), 4) : 0;
                    for (unsigned c = 0; c < nin; c++)
                        for (unsigned fy = 0; fy < kk; fy++)
                            for (unsigned fx = 0; fx < kk; fx++) {
                                if (kk == 3 && ((int)fy < l.mask_top || (int)fy >= 3 - l.mask_bottom ||
                                                (int)fx < l.mask_left || (int)fx >= 3 - l.mask_right))
                                    continue;
                                const unsigned ch = l.mode == NE16_LAYER_DW ? k : c;
                                const int iy = (int)(stride * h + fy) - (int)l.pt,
                                          ix = (int)(stride * x + fx) - (int)l.pl;
                                uint32_t xv;
                                if (iy < 0 || ix < 0 || iy >= (int)l.hi || ix >= (int)l.wi)
                                    xv = l.mode16 ? l.pad_value : (l.pad_value & 0xFFu);
                                else xv = rd_le(before, ne16_in_addr(&l, (unsigned)iy, (unsigned)ix, ch), eb);
                                acc += xv * (uint32_t)(int32_t)w[((size_t)k * nin + c) * kk * kk + fy * kk + fx];
                            }
                    uint32_t scale = rd_le(before, l.scale + k * sb, sb);
                    int32_t bias = (int32_t)rd_le(before, l.scale_bias + 4 * k, 4);
                    uint8_t shb = mem_read8(before, l.scale_shift + k);
                    uint32_t exp = ref_nq(&l, (int32_t)acc, scale, bias, shb);
                    uint32_t a = ne16_out_addr(&l, h, x, k);
                    uint32_t got = rd_le(m, a, ob);
                    if (got != exp && getenv("NE16_DBG")) {
                        fprintf(stderr, "  dbg iter %d k=%u acc=0x%x scale=%u bias=%d shb=%u in=%x w=%x\n", iter, k,
                                acc, scale, bias, shb, l.in, l.weights);
                        for (int q_ = 0; q_ < 24; q_++) fprintf(stderr, " %08x", regs[0][q_]);
                        fprintf(stderr, "\n");
                    }
                    if (got != exp && mism++ < 3)
                        CHECK(0, "iter %d mode %d k=%u h=%u w=%u: expected 0x%x got 0x%x", iter, (int)l.mode, k, h, x,
                              exp, got);
                    const ne16_out_elem_t *el = ne16_result_find(&res, a);
                    /* strided layers run one job per 2x2 block: coordinates are job-local there */
                    if (!(el && el->k == k && (l.strided || (el->h == h && el->w == x))) && mism++ < 3)
                        CHECK(0, "iter %d: coordinates of 0x%x wrong", iter, a);
                }
        /* nothing outside the output tensor changed */
        uint64_t first = 0;
        uint64_t d1 = mem_diff(before, m, 0, l.out, &first);
        uint64_t d2 = mem_diff(before, m, l.out + ne16_out_bytes(&l), 0x100000, &first);
        CHECK(d1 == 0 && d2 == 0, "iter %d: %llu bytes changed outside the output (first 0x%llx)", iter,
              (unsigned long long)(d1 + d2), (unsigned long long)first);
        CHECK(mism == 0,
              "iter %d: %u mismatches (mode %d ki %u ko %u hi %u wi %u pad %u%u%u%u v%x strided %d pulp %d m16 %d "
              "qw %u sym %d wmin %d so %d si %d ob %u sb %u relu %d rnd %d nsh %d bias %d sh %u z %d mask %u%u%u%u)",
              iter, mism, (int)l.mode, l.ki, l.ko, l.hi, l.wi, l.pt, l.pb, l.pl, l.pr, l.pad_value, l.strided,
              l.pulp_variant, l.mode16, l.qw, l.symmetric, l.wmin, l.streamout, l.streamin, ob, sb, l.relu, l.round,
              l.norm_shift, l.norm_bias, l.right_shift, l.rem_full_as_zero, l.mask_top, l.mask_bottom, l.mask_left,
              l.mask_right);
        bad_layers += mism != 0;
        ne16_result_free(&res);
        free(regs);
        free(w);
        mem_free(before);
        mem_free(m);
    }
    CHECK(bad_layers == 0, "%u random layers mismatched", bad_layers);
}

int main(void)
{
    unit_t u = {.name = "test_ne16_golden"};
    UNIT_RUN(&u, test_ex1);
    UNIT_RUN(&u, test_ex2);
    UNIT_RUN(&u, test_ex3);
    UNIT_RUN(&u, test_ex4);
    UNIT_RUN(&u, test_ex5);
    UNIT_RUN(&u, test_ex6);
    UNIT_RUN(&u, test_ex7);
    UNIT_RUN(&u, test_ex8);
    UNIT_RUN(&u, test_ex9);
    UNIT_RUN(&u, test_errors);
    UNIT_RUN(&u, test_random_layers);
    return unit_done(&u);
}
