// SDP's EW (Y) stage at FP16: NVIDIA's C model against the golden model (golden/nvdla/sdp_ew_fp16.c), in one process.
// Built by tests/test_nvdla_fp_oracle.py from the objects it compiles out of ../shared (cmod's hls/sdp blocks and
// vlibs: nothing of cmod is in the repository) and the golden model's C. cmod's NV_NVDLA_SDP_CORE_Y_top (sdp_y.cpp:
// Y_cvt on ERDMA's operands, Y_mul, Y_alu; LUT bypassed) is called directly, four elements a call as
// sdp_hls_wrapper::sdp_y calls it, because the wrapper reads the stage's output only under HLS_TRACE
// (sdp_hls_wrapper.cpp:296). The stage's FP32 output is compared, before the output converter, so every bit of the
// multiplier's and the ALU's rounding shows. Usage: nvdla_ew_fp16_cmod JOBS SEED. Prints one line per differing job
// (at most 10) and a summary "jobs N values V differ D".
#include <stdint.h>
#include "sdp.h"
#include <cstdio>
#include <cstdlib>
extern "C" {
#include "sdp_ew_fp16.h"
}

static uint64_t rs;
static uint32_t rnd()
{
    rs = rs * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rs >> 33);
}
// An FP32 value (the stage's input, a register operand): moderate with every mantissa bit, large, tiny, corners.
static uint32_t fp32(unsigned mix)
{
    const uint32_t sign = rnd() & 0x80000000u, mant = rnd() & 0x7FFFFF;
    const unsigned k = rnd() % 100;
    if (k < mix) switch (rnd() % 7) {
        case 0: return sign;                                          // +-0
        case 1: return sign | (mant ? mant : 1);                      // denormal
        case 2: return sign | 0x7F800000u;                            // +-Inf
        case 3: return sign | 0x7F800000u | (mant ? mant : 0x400000); // NaN
        case 4: return sign | 0x7F7FFFFFu;                            // the largest
        case 5: return sign | 0x00800000u | (rnd() % 4);              // near the smallest normal
        default: return rnd();                                        // any bits
        }
    if (k < 80) return sign | (120 + rnd() % 15) << 23 | mant; // moderate
    if (k < 90) return sign | (220 + rnd() % 34) << 23 | mant; // large: products overflow
    return sign | (1 + rnd() % 30) << 23 | mant;               // tiny: products flush
}
// An FP16 value (an ERDMA operand).
static uint32_t fp16(unsigned mix)
{
    const uint32_t sign = rnd() & 0x8000u, mant = rnd() & 0x3FF;
    if (rnd() % 100 < mix) switch (rnd() % 6) {
        case 0: return sign;
        case 1: return sign | (mant ? mant : 1);
        case 2: return sign | 0x7C00;
        case 3: return sign | 0x7C00 | (mant ? mant : 0x200);
        case 4: return sign | 0x7BFF;
        default: return rnd() & 0xFFFF;
        }
    return sign | (10 + rnd() % 11) << 10 | mant;
}

int main(int argc, char **argv)
{
    const unsigned jobs = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
    rs = argc > 2 ? strtoull(argv[2], NULL, 10) : 38;
    unsigned long values = 0, differ = 0, shown = 0;
    for (unsigned j = 0; j < jobs; j++) {
        const unsigned mix = rnd() % 3 ? 5 : 30, algo = rnd() % 3; // MAX, MIN, SUM (EQL writes no output)
        const bool alu_bypass = rnd() % 4 == 0, mul_bypass = !alu_bypass && rnd() % 4 == 0, prelu = rnd() % 4 == 0;
        const bool nan_to_zero = rnd() % 2, alu_src = rnd() % 2, mul_src = rnd() % 2;
        const uint32_t alu_reg = fp32(mix), mul_reg = fp32(mix), junk = rnd(); // junk: the converter's, unused
        for (unsigned it = 0; it < 16; it++) {                                 // 64 elements, four a call
            yDataInStruct in;
            eDataInStruct alu_in, mul_in;
            uint32_t x[SPEED_Y], a[SPEED_Y], m[SPEED_Y];
            for (int i = 0; i < SPEED_Y; i++) {
                x[i] = fp32(mix), a[i] = fp16(mix), m[i] = fp16(mix);
                in.data[i] = (int32_t)x[i], alu_in.data[i] = (int16_t)a[i], mul_in.data[i] = (int16_t)m[i];
            }
            ac_channel<yDataInStruct> c_in;
            ac_channel<eDataInStruct> c_alu, c_mul;
            ac_channel<yLutOutStruct> c_lut;
            ac_channel<yDataOutStruct> c_out;
            c_in.write(in);
            if (alu_src && !alu_bypass) c_alu.write(alu_in);
            if (mul_src && !mul_bypass) c_mul.write(mul_in);
            NV_NVDLA_SDP_CORE_Y_top(c_in, alu_bypass, algo, mul_bypass, yTruncateType(junk & 0x3FF), prelu, nan_to_zero,
                                    2, c_alu, eDataOutType((int32_t)alu_reg), alu_src, junk & 1,
                                    eAluOpType((int32_t)junk), eMulOpType((int16_t)junk), eTruncateType(junk & 63),
                                    c_mul, eDataOutType((int32_t)mul_reg), mul_src, (junk >> 1) & 1,
                                    eAluOpType((int32_t)~junk), eMulOpType((int16_t)(junk >> 8)),
                                    eTruncateType((junk >> 3) & 63), 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, c_lut, c_out);
            const yDataOutStruct out = c_out.read();
            for (int i = 0; i < SPEED_Y; i++) {
                sdp_ew_fp16_t e; // gnu++98: no designated initialisers
                e.on = true, e.alu_bypass = alu_bypass, e.mul_bypass = mul_bypass, e.prelu = prelu, e.algo = algo;
                e.alu_op = alu_src ? sdp_ew_fp16_cvt(a[i], nan_to_zero) : alu_reg;
                e.mul_op = mul_src ? sdp_ew_fp16_cvt(m[i], nan_to_zero) : mul_reg;
                const uint32_t want = (uint32_t)out.data[i].to_int(), got = sdp_ew_fp16(&e, x[i]);
                values++;
                if (want == got) continue;
                differ++;
                if (shown++ < 10)
                    printf("job %u: x %08x alu %s %08x mul %s %08x (algo %u, bypass alu %d mul %d, prelu %d, nan0 %d): "
                           "cmod %08x golden %08x\n",
                           j, x[i], alu_src ? "mem" : "reg", alu_src ? a[i] : alu_reg, mul_src ? "mem" : "reg",
                           mul_src ? m[i] : mul_reg, algo, alu_bypass, mul_bypass, prelu, nan_to_zero, want, got);
            }
        }
    }
    printf("jobs %u values %lu differ %lu\n", jobs, values, differ);
    return 0;
}
