// FP16 convolution arithmetic: NVIDIA's C model against the golden model (golden/nvdla/conv_fp16.c), in one process.
// Built by tests/test_nvdla_conv_fp16_oracle.py with SystemC (libsystemc-dev: cmod's cells use sc_int): cmod's
// NvdlaMacCell (cmod/cmac/NV_NVDLA_cmac.h) and CACC's cacc_fp16_add / cacc_fp48_to_fp32 (cmod/cacc/NV_NVDLA_cacc.cpp)
// are cut from ../shared at build time into cmod_conv_fp16.inc (nothing of cmod is in the repository), the masks
// made as CSC makes them (csc/NV_NVDLA_csc.cpp:911, :1458: +-0 skipped). Usage: nvdla_conv_fp16_cmod CELLS CHAINS SEED.
// CELLS cells are also run in Winograd mode (cmod's winograd_op_: the POA on the per-position sums, one exponent and
// one NaN for the four results) against conv_wino_fp16.c's cell.
// Prints one line per difference (at most 10) and a summary "cells N differ D; chains N differ D deviation V; wino N
// differ D", where
// a deviation is a chain in which the RTL's renormalised negative rounding carry (conv_fp16.c, NV_NVDLA_CACC_CALC_fp_48b.v
// :439-440) happened: cmod's accumulator then has the same value in another form, and the chain is not compared.
#include <systemc.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
using namespace std;
#define cslDebug(x)
#define FAIL(x) (printf("cmod FAIL at %s:%d\n", __FILE__, __LINE__), abort())
#include "cmod_conv_fp16.inc"
extern "C" {
#include "conv_fp16.h"
#include "conv_wino_fp16.h"
}

static uint64_t rs;
static uint32_t rnd()
{
    rs = rs * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rs >> 33);
}
// A job's value mix: most moderate, some zeros, denormals, tiny, large, Inf, NaN, any bits.
static uint16_t value(unsigned mix)
{
    const uint16_t sign = (uint16_t)(rnd() & 0x8000), mant = (uint16_t)(rnd() & 0x3FF);
    const unsigned k = rnd() % 1000;
    if (k < 60) return sign;                                                           // +-0
    if (k < 60 + mix * 3) return (uint16_t)(sign | (mant ? mant : 1));                 // denormal
    if (k < 62 + mix * 3 && mix) return (uint16_t)(sign | 0x7C00);                     // Inf
    if (k < 63 + mix * 3 && mix) return (uint16_t)(sign | 0x7C00 | (mant ? mant : 1)); // NaN
    if (k < 70 + mix * 3) return (uint16_t)rnd();                                      // any bits
    const unsigned lo = mix == 2 ? 1 : mix == 3 ? 20 : 9, n = mix == 2 ? 8 : mix == 3 ? 11 : 13;
    return (uint16_t)(sign | (lo + rnd() % n) << 10 | mant);
}

static void masks(const uint16_t *v, uint64_t m[2])
{
    m[0] = m[1] = 0;
    for (int idx = 63; idx >= 0; idx--) {
        const uint64_t bit = (v[idx] != 0 && v[idx] != 0x8000) ? 3 : 0;
        if (idx < 32) m[1] = m[1] << 2 | bit;
        else m[0] = m[0] << 2 | bit;
    }
}

static uint64_t cmod_cell(const uint16_t *dat, const uint16_t *wt, bool wino = false, uint64_t out4[4] = 0)
{
    sc_int<8> d[128], w[128];
    sc_int<22> res[8];
    uint64_t dm[2], wm[2];
    for (int c = 0; c < 64; c++) {
        d[2 * c] = (int8_t)(dat[c] & 0xFF), d[2 * c + 1] = (int8_t)(dat[c] >> 8);
        w[2 * c] = (int8_t)(wt[c] & 0xFF), w[2 * c + 1] = (int8_t)(wt[c] >> 8);
    }
    masks(dat, dm), masks(wt, wm);
    NvdlaMacCell cell;
    cell.mac_cell_enable_ = true, cell.winograd_op_ = wino;
    cell.calculation_fp16(wm, dm, d, w, res);
    if (out4)
        for (int i = 0; i < 4; i++)
            out4[i] =
                ((uint64_t)(res[2 * i + 1].to_int() & 0x3FFFFF) << 22) | (uint64_t)(res[2 * i].to_int() & 0x3FFFFF);
    return ((uint64_t)(res[1].to_int() & 0x3FFFFF) << 22) | (uint64_t)(res[0].to_int() & 0x3FFFFF);
}

static double acc_value(uint64_t a)
{
    return (double)((int64_t)(a << 24) >> 24) * ldexp(1, (int)((a >> 40) & 0xFF) - 101);
}

int sc_main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s CELLS CHAINS SEED\n", argv[0]);
        return 2;
    }
    const long cells = atol(argv[1]), chains = atol(argv[2]);
    rs = strtoull(argv[3], 0, 0);
    long cdiff = 0, adiff = 0, dev = 0, shown = 0;
    uint16_t dat[64], wt[64];
    for (long n = 0; n < cells; n++) {
        const unsigned mix = rnd() % 4;
        for (int c = 0; c < 64; c++) dat[c] = value(mix), wt[c] = value(rnd() % 4 == 0 ? mix : 0);
        const uint64_t a = cmod_cell(dat, wt), b = conv_fp16_cell(dat, wt);
        if (a != b && ++cdiff && shown++ < 10)
            printf("cell %ld (mix %u): cmod %011llx golden %011llx\n", n, mix, (unsigned long long)a,
                   (unsigned long long)b);
    }
    long wdiff = 0;
    for (long n = 0; n < cells; n++) { // Winograd mode: element pos * 4 + channel, the four results of the 2x2 tile
        const unsigned mix = rnd() % 4;
        for (int c = 0; c < 64; c++) dat[c] = value(mix), wt[c] = value(rnd() % 4 == 0 ? mix : 0);
        uint64_t a[4], b[4];
        cmod_cell(dat, wt, true, a);
        conv_wino_fp16_cell(dat, wt, b);
        for (int i = 0; i < 4; i++)
            if (a[i] != b[i]) {
                if (shown++ < 10)
                    printf("wino cell %ld (mix %u) result %d: cmod %011llx golden %011llx\n", n, mix, i,
                           (unsigned long long)a[i], (unsigned long long)b[i]);
                wdiff++;
                break;
            }
    }
    for (long n = 0; n < chains; n++) {
        sc_uint<FP16_ALEN> acc = 0;
        uint64_t ours = 0;
        bool deviated = false;
        const int len = 1 + (int)(rnd() % 12);
        for (int i = 0; i < len; i++) {
            const unsigned mix = rnd() % 4;
            for (int c = 0; c < 64; c++) dat[c] = value(mix), wt[c] = value(0);
            const uint64_t cell = conv_fp16_cell(dat, wt);
            cacc_fp16_add(&acc, sc_uint<44>(cell));
            ours = conv_fp16_acc_add(ours, cell);
            const uint64_t theirs = acc.to_uint64();
            if (theirs != ours && !deviated) {
                // the RTL's form of a negative rounding carry: same value, 10.00..0 one exponent lower
                if ((ours & ((1ull << 40) - 1)) == 1ull << 39 && acc_value(ours) == acc_value(theirs)) deviated = true;
                else break;
            }
        }
        if (deviated) {
            dev++;
            continue;
        }
        sc_int<32> f;
        cacc_fp48_to_fp32(&f, acc);
        const uint32_t a = (uint32_t)f.to_int(), b = conv_fp16_acc_to_fp32(ours);
        if ((acc.to_uint64() != ours || a != b) && ++adiff && shown++ < 10)
            printf("chain %ld: cmod acc %012llx fp32 %08x, golden acc %012llx fp32 %08x\n", n,
                   (unsigned long long)acc.to_uint64(), a, (unsigned long long)ours, b);
    }
    printf("cells %ld differ %ld; chains %ld differ %ld deviation %ld; wino %ld differ %ld\n", cells, cdiff, chains,
           adiff, dev, cells, wdiff);
    return cdiff || adiff || wdiff ? 1 : 0;
}
