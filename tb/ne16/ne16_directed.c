/* Directed NE16 tests: the worked examples of spec ne16.md section 5 run on the RTL (the golden model
 * checks every byte, and each example's printed output bytes are checked too, so a golden-model error
 * cannot hide), the chained Ki split with streamin, and the 3x3 throughput job. */
#include "ne16_directed.h"
#include "dut_info.h"
#include "ne16_fw.h"
#include "ne16_gen.h"
#include <stdlib.h>
#include <string.h>

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

static void check_mem(program_t *p, uint32_t addr, const uint8_t *b, size_t n)
{
    op_t *o = program_add(p, OP_CHECK_MEM);
    o->addr = addr;
    o->bytes = malloc(n);
    if (!o->bytes) abort();
    memcpy(o->bytes, b, n);
    o->nbytes = n;
    o->size = n;
}

static void put8(program_t *p, uint32_t a, uint8_t v) { prog_mem(p, a, &v, 1); }
static void put32(program_t *p, uint32_t a, uint32_t v)
{
    const uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    prog_mem(p, a, b, 4);
}

/* Encode the weights, then run every job of the layer as firmware does. */
static int run_layer(ne16_fw_t *fw, const ne16_layer_t *l, const int16_t *w, char *err, size_t errlen)
{
    const size_t wbytes = ne16_weights_bytes(l);
    uint8_t *wb = calloc(wbytes ? wbytes : 1, 1);
    if (!wb) abort();
    if (ne16_weights_encode(l, w, wb, err, errlen)) {
        free(wb);
        return -1;
    }
    prog_mem(fw->p, l->weights, wb, wbytes);
    free(wb);
    uint32_t regs[16][NE16_NUM_JOB_REGS];
    const int n = ne16_driver_jobs(l, regs, 16, err, errlen);
    if (n < 0) return -1;
    for (int j = 0; j < n; j++) fw_job(fw, regs[j], false);
    return 0;
}

static void clear_out(program_t *p, uint32_t n) { prog_mem_fill(p, OUT_PTR, n, 0); }

int ne16_ex1(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.ex");
    static const int16_t w[16] = {1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 127, -128};
    for (int round = 0; round < 2; round++) {
        ne16_layer_t l = base_layer(NE16_LAYER_1X1);
        l.ki = 16;
        l.ko = 1;
        l.out_bits = 8;
        l.streamout = true;
        l.norm_bias = true;
        l.right_shift = 5;
        l.round = round;
        prog_job(p, "EX1 1x1 int8 %s", round ? "ROUND" : "floor");
        for (unsigned c = 0; c < 16; c++) put8(p, IN_PTR + c, (uint8_t)(10 * (c + 1)));
        put8(p, SC_PTR, 2);
        put32(p, BI_PTR, 116);
        clear_out(p, 4);
        if (run_layer(&fw, &l, w, err, errlen)) return -1;
        const uint8_t exp = round ? 0x99 : 0x98;
        check_mem(p, OUT_PTR, &exp, 1);
    }
    return 0;
}

int ne16_ex2(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.ex");
    static const uint8_t oexp[18] = {0x21, 0x00, 0x39, 0x01, 0x2C, 0x01, 0x4A, 0x02, 0x7B,
                                     0x00, 0x5A, 0x00, 0x42, 0x03, 0x6B, 0x00, 0x4D, 0x00};
    int16_t w[36];
    for (int i = 0; i < 36; i++) w[i] = i < 18;
    w[18 + 4] = 2;
    w[18 + 9] = -1;
    for (int variant = 0; variant < 2; variant++) {
        ne16_layer_t l = base_layer(NE16_LAYER_3X3);
        l.ki = 2;
        l.ko = 2;
        l.hi = l.wi = 3;
        l.pt = l.pb = l.pl = l.pr = 1;
        l.pulp_variant = variant;
        l.out_bits = 8;
        l.streamout = true;
        l.relu = true;
        l.right_shift = 2;
        prog_job(p, "EX2 3x3 pad 1 %s", variant ? "pulp-nnx registers" : "3.7 registers");
        for (unsigned h = 0; h < 3; h++)
            for (unsigned x = 0; x < 3; x++) {
                put8(p, ne16_in_addr(&l, h, x, 0), (uint8_t)(3 * h + x + 1));
                put8(p, ne16_in_addr(&l, h, x, 1), (uint8_t)(10 * (3 * h + x + 1)));
            }
        put8(p, SC_PTR, 1);
        put8(p, SC_PTR + 1, 1);
        clear_out(p, 32);
        if (run_layer(&fw, &l, w, err, errlen)) return -1;
        check_mem(p, OUT_PTR, oexp, 18);
    }
    return 0;
}

int ne16_ex3(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.ex");
    ne16_layer_t l = base_layer(NE16_LAYER_DW);
    l.ki = l.ko = 2;
    l.hi = l.wi = 4;
    int16_t w[18];
    static const int16_t sob[9] = {-1, 0, 1, -2, 0, 2, -1, 0, 1};
    for (int t = 0; t < 9; t++) {
        w[t] = (int16_t)(t + 1);
        w[9 + t] = sob[t];
    }
    prog_job(p, "EX3 depthwise raw int32");
    for (unsigned h = 0; h < 4; h++)
        for (unsigned x = 0; x < 4; x++) {
            put8(p, ne16_in_addr(&l, h, x, 0), (uint8_t)(4 * h + x));
            put8(p, ne16_in_addr(&l, h, x, 1), (uint8_t)(2 * (4 * h + x)));
        }
    clear_out(p, 64);
    if (run_layer(&fw, &l, w, err, errlen)) return -1;
    static const uint8_t oexp[32] = {0x2F, 0x01, 0, 0, 0x10, 0, 0, 0, 0x5C, 0x01, 0, 0, 0x10, 0, 0, 0,
                                     0xE3, 0x01, 0, 0, 0x10, 0, 0, 0, 0x10, 0x02, 0, 0, 0x10, 0, 0, 0};
    check_mem(p, OUT_PTR, oexp, 32);
    return 0;
}

int ne16_ex4(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.ex");
    ne16_layer_t l = base_layer(NE16_LAYER_1X1);
    l.ki = 5;
    l.ko = 2;
    l.qw = 4;
    l.wmin = -8;
    static const int16_t w[10] = {-8, -1, 0, 3, 7, 5, -6, 2, -3, 1};
    prog_job(p, "EX4 Qw=4 encoding");
    for (unsigned c = 0; c < 5; c++) put8(p, IN_PTR + c, (uint8_t)(c + 1));
    clear_out(p, 16);
    if (run_layer(&fw, &l, w, err, errlen)) return -1;
    static const uint8_t wexp[16] = {0x1A, 0, 0x1A, 0, 0x12, 0, 0x1C, 0, 0x19, 0, 0x06, 0, 0x09, 0, 0x15, 0};
    check_mem(p, W_PTR, wexp, 16);
    static const uint8_t oexp[8] = {0x25, 0, 0, 0, 0xF8, 0xFF, 0xFF, 0xFF};
    check_mem(p, OUT_PTR, oexp, 8);
    return 0;
}

/* EX5: each table row as a 1x1 job (Ki=1, x * w = the accumulator), output checked against the table. */
int ne16_ex5(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.ex");
    static const struct {
        unsigned x;
        int w;
        bool m16;
        unsigned ob, shift;
        bool round, relu;
        unsigned nb;
        uint32_t scale;
        bool bias_on;
        int32_t bias;
        bool nshift;
        uint8_t shb;
        uint32_t out;
    } rows[] = {
        {250, 4, 0, 8, 4, 0, 0, 8, 1, 0, 0, 0, 0, 0x3E},
        {250, 4, 0, 8, 4, 1, 0, 8, 1, 0, 0, 0, 0, 0x3F},
        {250, -4, 0, 8, 4, 0, 0, 8, 1, 0, 0, 0, 0, 0xC1},
        {250, -4, 0, 8, 4, 1, 0, 8, 1, 0, 0, 0, 0, 0xC2},
        {250, 4, 0, 8, 0, 0, 0, 8, 1, 0, 0, 0, 0, 0x7F},
        {5, -1, 0, 8, 0, 0, 1, 8, 1, 0, 0, 0, 0, 0x00},
        {150, 2, 0, 8, 0, 0, 1, 8, 1, 0, 0, 0, 0, 0xFF},
        {10001, -7, 1, 16, 1, 0, 0, 8, 1, 0, 0, 0, 0, 0x8000},
        {10000, 7, 1, 16, 0, 0, 1, 8, 1, 0, 0, 0, 0, 0xFFFF},
        {3, 1, 0, 32, 0, 0, 0, 32, 0x80000000u, 0, 0, 0, 0, 0x7FFFFFFFu},
        {3, 1, 0, 32, 0, 0, 0, 32, 0x80000000u, 1, 5, 0, 0, 0x80000005u},
        {250, 4, 0, 8, 0, 0, 0, 8, 1, 0, 0, 1, 0x47, 7},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        ne16_layer_t l = base_layer(NE16_LAYER_1X1);
        l.ki = 1;
        l.ko = 1;
        l.mode16 = rows[i].m16;
        l.out_bits = rows[i].ob;
        l.streamout = true;
        l.right_shift = rows[i].shift;
        l.round = rows[i].round;
        l.relu = rows[i].relu;
        l.norm_bits = rows[i].nb;
        l.norm_bias = rows[i].bias_on;
        l.norm_shift = rows[i].nshift;
        prog_job(p, "EX5 row %zu", i);
        const uint8_t xb[2] = {(uint8_t)rows[i].x, (uint8_t)(rows[i].x >> 8)};
        prog_mem(p, IN_PTR, xb, rows[i].m16 ? 2 : 1);
        put32(p, SC_PTR, rows[i].scale);
        put32(p, BI_PTR, (uint32_t)rows[i].bias);
        put8(p, SH_PTR, rows[i].shb);
        clear_out(p, 4);
        const int16_t w[1] = {(int16_t)rows[i].w};
        if (run_layer(&fw, &l, w, err, errlen)) return -1;
        const uint8_t ob[4] = {(uint8_t)rows[i].out, (uint8_t)(rows[i].out >> 8), (uint8_t)(rows[i].out >> 16),
                               (uint8_t)(rows[i].out >> 24)};
        check_mem(p, OUT_PTR, ob, rows[i].ob / 8);
    }
    return 0;
}

int ne16_ex6(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.ex");
    ne16_layer_t l = base_layer(NE16_LAYER_1X1);
    l.ki = 1;
    l.ko = 10;
    l.streamin = true;
    int16_t w[10];
    for (int k = 0; k < 10; k++) w[k] = (int16_t)(k - 5);
    prog_job(p, "EX6 streamin");
    put8(p, IN_PTR, 7);
    for (unsigned k = 0; k < 10; k++) put32(p, OUT_PTR + 4 * k, (uint32_t)(int32_t)(1000 * (int)k - 4000));
    put32(p, OUT_PTR + 40, 0xDEADBEEF);
    if (run_layer(&fw, &l, w, err, errlen)) return -1;
    static const int32_t exp[10] = {-4035, -3028, -2021, -1014, -7, 1000, 2007, 3014, 4021, 5028};
    uint8_t ob[44];
    for (unsigned k = 0; k < 10; k++)
        for (unsigned b = 0; b < 4; b++) ob[4 * k + b] = (uint8_t)((uint32_t)exp[k] >> 8 * b);
    for (unsigned b = 0; b < 4; b++) ob[40 + b] = (uint8_t)(0xDEADBEEFu >> 8 * b);
    check_mem(p, OUT_PTR, ob, 44);
    return 0;
}

int ne16_ex7(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.ex");
    ne16_layer_t l = base_layer(NE16_LAYER_1X1);
    l.ki = 3;
    l.ko = 1;
    l.mode16 = true;
    static const int16_t w[3] = {3, -2, 1};
    static const uint8_t x[6] = {0xE8, 0x03, 0x40, 0x9C, 0xFF, 0xFF};
    prog_job(p, "EX7 MODE16");
    prog_mem(p, IN_PTR, x, 6);
    clear_out(p, 8);
    if (run_layer(&fw, &l, w, err, errlen)) return -1;
    const uint32_t acc = (uint32_t)-11465;
    const uint8_t ob[4] = {(uint8_t)acc, (uint8_t)(acc >> 8), (uint8_t)(acc >> 16), (uint8_t)(acc >> 24)};
    check_mem(p, OUT_PTR, ob, 4);
    return 0;
}

int ne16_ex8(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.ex");
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
    prog_job(p, "EX8 linear");
    for (unsigned e = 0; e < 32; e++) put8(p, IN_PTR + e, (uint8_t)(e + 1));
    put8(p, SC_PTR, 1);
    put8(p, SC_PTR + 1, 1);
    clear_out(p, 4);
    if (run_layer(&fw, &l, w, err, errlen)) return -1;
    static const uint8_t wexp[16] = {0xAA, 0xAA, 0xAA, 0xAA, 0xCC, 0xCC, 0xCC, 0xCC,
                                     0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0xFF, 0xFF};
    check_mem(p, W_PTR, wexp, 16);
    static const uint8_t oexp[2] = {0xC8, 0x40};
    check_mem(p, OUT_PTR, oexp, 2);
    return 0;
}

int ne16_ex9(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.ex");
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
    prog_job(p, "EX9 stride 2x2");
    for (unsigned h = 0; h < 4; h++)
        for (unsigned x = 0; x < 4; x++) put8(p, ne16_in_addr(&l, h, x, 0), (uint8_t)(4 * h + x + 1));
    put8(p, SC_PTR, 1);
    put8(p, SC_PTR + 1, 1);
    clear_out(p, 16);
    if (run_layer(&fw, &l, w, err, errlen)) return -1;
    static const uint8_t oexp[8] = {0x0E, 0x01, 0x1E, 0x03, 0x39, 0x09, 0x63, 0x0B};
    check_mem(p, OUT_PTR, oexp, 8);
    return 0;
}

/* 6.1: a Ki split over two jobs: A stores raw int32 partial sums, B streams them in and normalises. */
int ne16_streamin_chain(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.chain");
    uint32_t regs[64][NE16_NUM_JOB_REGS];
    for (int rep = 0; rep < 3; rep++) {
        ne16_layer_t a;
        ne16_random_layer(&fw.rng, &a, (ne16_layer_mode_t)(rep % 2 ? NE16_LAYER_1X1 : NE16_LAYER_3X3),
                          rng_range(&fw.rng, 1, 8), 30000);
        a.strided = false;
        a.pulp_variant = false;
        if (a.pb == 2 && ne16_layer_ho(&a) % 3 == 1) a.pb = 1;
        if (a.pr == 2 && ne16_layer_wo(&a) % 3 == 1) a.pr = 1;
        a.out_bits = 32;
        a.streamout = false;
        a.streamin = false;
        ne16_layer_t b = a;
        b.ki = rng_range(&fw.rng, 1, 40);
        b.streamin = true;
        b.streamout = true;
        a.out = 0;
        if (fw_layer_load(&fw, &a, 0x100000, err, errlen)) return -1;
        b.out = a.out;
        b.in = 0;
        if (fw_layer_load(&fw, &b, 0x200000, err, errlen)) return -1;
        const ne16_layer_t *ls[2] = {&a, &b};
        for (int k = 0; k < 2; k++) {
            if (fw_layer_regs(ls[k], regs, 64, err, errlen) != 1) return -1;
            prog_job(p, "chain%d %s ki%u ko%u", rep, k ? "B streamin+normquant" : "A raw-partial-sums", ls[k]->ki,
                     ls[k]->ko);
            fw_job(&fw, regs[0], false);
        }
    }
    return 0;
}

/* Throughput jobs, run with +perf +stall=0 for MACs/cycle (flow/bench/ne16.py, make diff against PULP's
 * NE16): one layer each, 8-bit in/out, no padding, stride 1. The job name carries the shape and the MAC
 * count so that the bench can recompute both. Each layer at Qw = 2, 4, 6, 8: the engine is bit-serial over the
 * weight bits (docs/ne16_engine.md), so its throughput depends on Qw. */
static const ne16_perf_job_t perf_jobs[] = {
    {"perf_3x3", NE16_LAYER_3X3, 32, 32, 8, 8, "3x3 Ki=32 Ko=32 8x8 input, Qw=8 (the array's reference job)"},
    {"perf_3x3_k64_q2", NE16_LAYER_3X3, 64, 64, 11, 2, "3x3 Ki=Ko=64, 11x11 input (9x9 output), Qw=2"},
    {"perf_3x3_k64_q4", NE16_LAYER_3X3, 64, 64, 11, 4, "3x3 Ki=Ko=64, 11x11 input (9x9 output), Qw=4"},
    {"perf_3x3_k64_q6", NE16_LAYER_3X3, 64, 64, 11, 6, "3x3 Ki=Ko=64, 11x11 input (9x9 output), Qw=6"},
    {"perf_3x3_k64", NE16_LAYER_3X3, 64, 64, 11, 8, "3x3 Ki=Ko=64, 11x11 input (9x9 output), Qw=8"},
    {"perf_1x1_k64_q2", NE16_LAYER_1X1, 64, 64, 9, 2, "1x1 Ki=Ko=64, 9x9, Qw=2"},
    {"perf_1x1_k64_q4", NE16_LAYER_1X1, 64, 64, 9, 4, "1x1 Ki=Ko=64, 9x9, Qw=4"},
    {"perf_1x1_k64_q6", NE16_LAYER_1X1, 64, 64, 9, 6, "1x1 Ki=Ko=64, 9x9, Qw=6"},
    {"perf_1x1_k64", NE16_LAYER_1X1, 64, 64, 9, 8, "1x1 Ki=Ko=64, 9x9, Qw=8"},
    {"perf_dw_k64_q2", NE16_LAYER_DW, 64, 64, 11, 2, "depthwise 3x3 K=64, 11x11 input (9x9 output), Qw=2"},
    {"perf_dw_k64_q4", NE16_LAYER_DW, 64, 64, 11, 4, "depthwise 3x3 K=64, 11x11 input (9x9 output), Qw=4"},
    {"perf_dw_k64_q6", NE16_LAYER_DW, 64, 64, 11, 6, "depthwise 3x3 K=64, 11x11 input (9x9 output), Qw=6"},
    {"perf_dw_k64", NE16_LAYER_DW, 64, 64, 11, 8, "depthwise 3x3 K=64, 11x11 input (9x9 output), Qw=8"},
    {"perf_linear_q2", NE16_LAYER_LINEAR, 512, 64, 1, 2, "linear Ki=512 Ko=64, Qw=2"},
    {"perf_linear_q4", NE16_LAYER_LINEAR, 512, 64, 1, 4, "linear Ki=512 Ko=64, Qw=4"},
    {"perf_linear_q6", NE16_LAYER_LINEAR, 512, 64, 1, 6, "linear Ki=512 Ko=64, Qw=6"},
    {"perf_linear", NE16_LAYER_LINEAR, 512, 64, 1, 8, "linear Ki=512 Ko=64, Qw=8"},
};

const ne16_perf_job_t *ne16_perf_job(size_t i)
{
    return i < sizeof perf_jobs / sizeof *perf_jobs ? &perf_jobs[i] : NULL;
}

static const char *const MODE_NAME[] = {"3x3", "dw", "1x1", "linear"};

int ne16_perf(program_t *p, const char *name, uint64_t seed, char *err, size_t errlen)
{
    const ne16_perf_job_t *j = NULL;
    for (size_t i = 0; ne16_perf_job(i); i++)
        if (strcmp(ne16_perf_job(i)->name, name) == 0) j = ne16_perf_job(i);
    if (!j) {
        snprintf(err, errlen, "no perf job '%s'", name);
        return -1;
    }
    ne16_fw_t fw;
    fw_init(&fw, p, seed, "ne16.perf");
    ne16_layer_t l = {0};
    l.mode = j->mode;
    l.ki = j->ki;
    l.ko = j->ko;
    l.hi = l.wi = j->hw;
    l.qw = j->qw;
    l.symmetric = dut_has("wsym");
    if (!l.symmetric) l.wmin = -(1 << (j->qw - 1)); /* the same weights as WEIGHT_OFFS=0 (D9), as a layer-wise offset */
    l.out_bits = 8;
    l.norm_bits = 8;
    l.streamout = true;
    l.relu = true;
    l.right_shift = 8;
    if (fw_layer_load(&fw, &l, 0x100000, err, errlen)) return -1;
    uint32_t regs[1][NE16_NUM_JOB_REGS];
    if (fw_layer_regs(&l, regs, 1, err, errlen) != 1) return -1;
    const unsigned taps = (j->mode == NE16_LAYER_3X3 || j->mode == NE16_LAYER_DW) ? 9 : 1;
    const unsigned ki = j->mode == NE16_LAYER_DW ? 1 : j->ki;
    prog_job(p, "perf %s ki%u/ko%u/%ux%u/q%u (%u MACs)", MODE_NAME[j->mode], j->ki, j->ko, j->hw, j->hw, j->qw,
             ne16_layer_ho(&l) * ne16_layer_wo(&l) * ki * j->ko * taps);
    fw_job(&fw, regs[0], false);
    return 0;
}
