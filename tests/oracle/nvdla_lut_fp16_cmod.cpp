// SDP's Y LUT at FP16: NVIDIA's C model against the golden model (golden/nvdla/sdp_lut_fp16.c), in one process. Built
// by tests/test_nvdla_fp_oracle.py as nvdla_ew_fp16_cmod.cpp is (nothing of cmod is in the repository). cmod's
// NV_NVDLA_SDP_CORE_Y_top runs with its multiplier and ALU bypassed and its LUT on: Y_idx's index, fraction and flow
// come out on chn_lut_out; then what sdp_hls_wrapper::sdp_y does with them (sdp_hls_wrapper.cpp:336-392: the
// entries read, the slope's scale, offset and the exponent table's bias 2^offset) is done here, and
// NV_NVDLA_SDP_CORE_Y_inp computes the FP32 result, which is compared before the output converter. Random tables and
// registers, the inputs aimed at both tables' ranges, their edges, under and over them, and at the special values.
// Usage: nvdla_lut_fp16_cmod JOBS SEED. Prints one line per differing value (at most 10) and a summary
// "jobs N values V differ D", after the count of each table's hits, underflows and overflows.
#include <stdint.h>
#include "sdp.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
extern "C" {
#include "sdp_lut_fp16.h"
}

static uint64_t rs;
static uint32_t rnd()
{
    rs = rs * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rs >> 33);
}
static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
// An FP16 entry or scale: moderate, sometimes a corner (0, denormal, Inf, NaN, the largest, any bits).
static uint16_t fp16(unsigned mix)
{
    const uint32_t sign = rnd() & 0x8000u, mant = rnd() & 0x3FF;
    if (rnd() % 100 < mix) switch (rnd() % 6) {
        case 0: return (uint16_t)sign;
        case 1: return (uint16_t)(sign | (mant ? mant : 1));
        case 2: return (uint16_t)(sign | 0x7C00);
        case 3: return (uint16_t)(sign | 0x7C00 | (mant ? mant : 0x200));
        case 4: return (uint16_t)(sign | 0x7BFF);
        default: return (uint16_t)(rnd() & 0xFFFF);
        }
    return (uint16_t)(sign | (8 + rnd() % 15) << 10 | mant);
}
// A lookup's input: inside a table of the given start and step (2^select a linear entry), at its edges, below or
// past it, or a corner.
static uint32_t input(float start, float span, unsigned mix)
{
    const unsigned k = rnd() % 100;
    if (k < mix) switch (rnd() % 8) {
        case 0: return rnd() & 0x80000000u;                                  // +-0
        case 1: return (rnd() & 0x80000000u) | 0x7F800000u;                  // +-Inf
        case 2: return (rnd() & 0x80000000u) | 0x7FC00000u | (rnd() & 0xFF); // NaN
        case 3: return (rnd() & 0x80000000u) | (rnd() & 0x7FFFFF);           // denormal
        case 4: return bits(start);                                          // the start
        case 5: return (rnd() & 0x80000000u) | 0x7F7FFFFFu;                  // the largest
        default: return rnd();                                               // any bits
        }
    const float u = (float)(rnd() % 100000) / 100000.0f;
    if (k < 70) return bits(start + span * u);                 // inside
    if (k < 80) return bits(start - span * u * 0.5f);          // below
    if (k < 90) return bits(start + span * (1.0f + u));        // past
    return bits(start + span * (float)(rnd() % 257) / 256.0f); // an entry's edge
}

int main(int argc, char **argv)
{
    const unsigned jobs = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
    rs = argc > 2 ? strtoull(argv[2], NULL, 10) : 38;
    unsigned long values = 0, differ = 0, shown = 0, outcome[2][3] = {{0}};
    for (unsigned j = 0; j < jobs; j++) {
        const unsigned mix = rnd() % 3 ? 3 : 25;
        sdp_lut_t t;
        memset(&t, 0, sizeof t);
        for (int i = 0; i < SDP_LUT_LE_N; i++) t.le[i] = (int16_t)fp16(mix);
        for (int i = 0; i < SDP_LUT_LO_N; i++) t.lo[i] = (int16_t)fp16(mix);
        sdp_lut_cfg_t c;
        memset(&c, 0, sizeof c);
        c.le_linear = rnd() % 2, c.uflow_lo = rnd() % 2, c.oflow_lo = rnd() % 2, c.hybrid_lo = rnd() % 2;
        // selects and offsets mostly small (the tables then span values near 1), sometimes any signed byte
        c.le_index_select = rnd() % 8 ? (int)(rnd() % 13) - 8 : (int8_t)rnd();
        c.lo_index_select = rnd() % 8 ? (int)(rnd() % 13) - 10 : (int8_t)rnd();
        c.le_index_offset = rnd() % 8 ? (int)(rnd() % 20) - 12 : (int8_t)rnd();
        const float le_start = (float)((int)(rnd() % 2001) - 1000) / 100.0f,
                    lo_start = (float)((int)(rnd() % 2001) - 1000) / 100.0f;
        const float le_span = c.le_linear ? ldexpf(64.0f, c.le_index_select) : ldexpf(1.0f, c.le_index_offset + 64),
                    lo_span = ldexpf(256.0f, c.lo_index_select);
        c.le_start = (int32_t)bits(le_start), c.lo_start = (int32_t)bits(lo_start);
        c.le_end = (int32_t)(rnd() % 4 ? bits(le_start + le_span) : rnd());
        c.lo_end = (int32_t)(rnd() % 4 ? bits(lo_start + lo_span) : rnd());
        c.slopes.le_uflow_scale = (int16_t)fp16(mix), c.slopes.le_oflow_scale = (int16_t)fp16(mix);
        c.slopes.lo_uflow_scale = (int16_t)fp16(mix), c.slopes.lo_oflow_scale = (int16_t)fp16(mix);
        c.slopes.le_uflow_shift = (int)(rnd() % 32) - 16,
        c.slopes.le_oflow_shift = (int)(rnd() % 32) - 16; // unused at FP16
        c.slopes.lo_uflow_shift = (int)(rnd() % 32) - 16, c.slopes.lo_oflow_shift = (int)(rnd() % 32) - 16;
        for (unsigned it = 0; it < 16; it++) { // 64 lookups, four a call
            yDataInStruct in;
            uint32_t x[SPEED_Y];
            for (int i = 0; i < SPEED_Y; i++) {
                const bool lo = rnd() % 2;
                x[i] = input(lo ? lo_start : le_start, lo ? lo_span : le_span, mix);
                in.data[i] = (int32_t)x[i];
            }
            ac_channel<yDataInStruct> c_in;
            ac_channel<eDataInStruct> c_alu, c_mul;
            ac_channel<yLutOutStruct> c_lut;
            ac_channel<yDataOutStruct> c_out;
            c_in.write(in);
            NV_NVDLA_SDP_CORE_Y_top(c_in, 1, 0, 1, 0, 0, 0, 2, c_alu, 0, 0, 1, 0, 0, 0, c_mul, 0, 0, 1, 0, 0, 0,
                                    (int32_t)c.le_start, (int32_t)c.lo_start, c.le_index_offset, c.le_index_select,
                                    c.lo_index_select, c.le_linear, c.uflow_lo, c.oflow_lo, c.hybrid_lo, 0, c_lut,
                                    c_out);
            const yLutOutStruct lo = c_lut.read();
            yInpInStruct inp;
            for (int i = 0; i < SPEED_Y; i++) { // sdp_hls_wrapper.cpp:338-372
                const bool sel_lo = lo.ram_sel[i] == 1, oflow = lo.oflow[i], uflow = lo.uflow[i];
                const int16_t *tab = sel_lo ? t.lo : t.le;
                const unsigned addr = lo.ram_addr[i].to_uint();
                inp.x[i] = lo.x[i], inp.fraction[i] = lo.fraction[i];
                inp.y0[i] = tab[addr];
                inp.y1[i] = !oflow && !uflow ? tab[addr + 1] : 0;
                inp.flow[i] = oflow || uflow;
                inp.bias[i] = 0;
                if ((oflow || uflow) && !sel_lo && !c.le_linear && !oflow)
                    inp.bias[i] = bits((float)pow(2.0, c.le_index_offset));
                inp.scale[i] = (int16_t)(sel_lo ? (oflow ? c.slopes.lo_oflow_scale : c.slopes.lo_uflow_scale)
                                                : (oflow ? c.slopes.le_oflow_scale : c.slopes.le_uflow_scale));
                inp.shift[i] = sel_lo ? (oflow ? c.slopes.lo_oflow_shift : c.slopes.lo_uflow_shift)
                                      : (oflow ? c.slopes.le_oflow_shift : c.slopes.le_uflow_shift);
                inp.offset[i] = (int32_t)(sel_lo ? (oflow ? c.lo_end : c.lo_start) : (oflow ? c.le_end : c.le_start));
            }
            ac_channel<yInpInStruct> c_inp;
            ac_channel<yInpOutStruct> c_inp_out;
            c_inp.write(inp);
            NV_NVDLA_SDP_CORE_Y_inp(c_inp, 2, c_inp_out);
            const yInpOutStruct out = c_inp_out.read();
            for (int i = 0; i < SPEED_Y; i++) {
                sdp_lut_out_t o;
                const uint32_t want = (uint32_t)out.data[i].to_int(), got = sdp_lut_fp16(&c, &t, x[i], &o);
                const bool same_path =
                    (unsigned)lo.ram_addr[i].to_uint() == o.entry && (lo.ram_sel[i] == 1) == o.use_lo;
                values++, outcome[o.use_lo][o.use_lo ? o.lo : o.le]++;
                if (want == got && same_path && (uint32_t)lo.x[i].to_int() == x[i]) continue;
                differ++;
                if (shown++ < 10)
                    printf("job %u: x %08x (le %s sel %d off %d start %08x end %08x, lo sel %d start %08x end %08x; "
                           "prio u%d o%d h%d): cmod %08x table %s entry %u flow u%d o%d frac %09llx, golden %08x "
                           "table %s entry %u states le %u lo %u\n",
                           j, x[i], c.le_linear ? "linear" : "exponent", c.le_index_select, c.le_index_offset,
                           (uint32_t)c.le_start, (uint32_t)c.le_end, c.lo_index_select, (uint32_t)c.lo_start,
                           (uint32_t)c.lo_end, c.uflow_lo, c.oflow_lo, c.hybrid_lo, want,
                           lo.ram_sel[i] == 1 ? "lo" : "le", lo.ram_addr[i].to_uint(), lo.uflow[i].to_int(),
                           lo.oflow[i].to_int(), (unsigned long long)lo.fraction[i].to_uint64(), got,
                           o.use_lo ? "lo" : "le", o.entry, o.le, o.lo);
            }
        }
    }
    printf("le hit %lu uflow %lu oflow %lu, lo hit %lu uflow %lu oflow %lu\njobs %u values %lu differ %lu\n",
           outcome[0][0], outcome[0][1], outcome[0][2], outcome[1][0], outcome[1][1], outcome[1][2], jobs, values,
           differ);
    return 0;
}
