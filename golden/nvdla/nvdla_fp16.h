/* NVDLA's floating point as NVIDIA's C model computes it (cmod hls/include/nvdla_float.h, the templates behind the
 * HLS libraries hls/vlibs/fp*.cpp that every FP16 datapath of the C model calls): FP16 (1.5.10), the datapath's
 * internal FP17 (1.6.10) and FP32 (1.8.23), each a value's bits in the low bits of a uint32_t.
 *
 * It is not IEEE 754, and these reproduce it bit for bit (docs/nvdla_nv_full.md, "FP16", has the evidence):
 * - add and mul read a denormal as a normal number of exponent 0 (an implied 1), and flush any result below the
 *   smallest normal to zero, keeping its sign; add aligns the smaller operand with no sticky bit;
 * - a result that overflows, and an Inf operand or an Inf converted, saturate to the largest finite value (the
 *   C model's SetToInf), except that an Inf operand whose sum does not round up passes through unchanged;
 * - a NaN operand is returned as it is (the first operand's before the second's), never made quiet;
 * - rounding is to nearest, ties to even; conversions to FP16 keep denormals, conversions to FP17 flush them;
 *   a NaN converted keeps the low bits of its mantissa (so FP32 -> FP16 can make an Inf of a NaN).
 * Every function is pure; the tests compare them with the C model itself (tests/test_nvdla_fp_oracle.py). */
#ifndef NVDLA_FP16_H
#define NVDLA_FP16_H
#include <stdint.h>

uint32_t nv_fp16_add(uint32_t a, uint32_t b);
uint32_t nv_fp16_sub(uint32_t a, uint32_t b);
uint32_t nv_fp16_mul(uint32_t a, uint32_t b);
uint32_t nv_fp16_max(uint32_t a, uint32_t b);
uint32_t nv_fp16_min(uint32_t a, uint32_t b);
uint32_t nv_fp17_add(uint32_t a, uint32_t b);
uint32_t nv_fp17_sub(uint32_t a, uint32_t b);
uint32_t nv_fp17_mul(uint32_t a, uint32_t b);
uint32_t nv_fp17_max(uint32_t a, uint32_t b);
uint32_t nv_fp17_min(uint32_t a, uint32_t b);
uint32_t nv_fp32_add(uint32_t a, uint32_t b);
uint32_t nv_fp32_sub(uint32_t a, uint32_t b);
uint32_t nv_fp32_mul(uint32_t a, uint32_t b);
uint32_t nv_fp32_max(uint32_t a, uint32_t b);
uint32_t nv_fp32_min(uint32_t a, uint32_t b);
/* FpRelu (SDP's ReLU at FP16 works on FP32): a NaN or a positive value (+0 included) passes, the rest is +0. */
uint32_t nv_fp32_relu(uint32_t a);

uint32_t nv_fp16_to_fp17(uint32_t a);
uint32_t nv_fp17_to_fp16(uint32_t a);
uint32_t nv_fp16_to_fp32(uint32_t a);
uint32_t nv_fp32_to_fp16(uint32_t a);
uint32_t nv_fp17_to_fp32(uint32_t a);
uint32_t nv_fp32_to_fp17(uint32_t a);
/* FP16 to a 16-bit integer, rounded half away from zero, saturated; a NaN gives -32768 (cmod's Fp16ToInt16). */
uint32_t nv_fp16_to_int16(uint32_t a);
/* A 17-bit two's complement integer (the low 17 bits of a) to FP16, rounded to nearest even, saturated at 65504
 * (cmod's Int17ToFp16). */
uint32_t nv_int17_to_fp16(uint32_t a);
/* A 16-bit fraction (value / 2^16) as FP17 (cmod's FpFractionToFloat, HLS_uint16_to_fp17). */
uint32_t nv_uint16_to_fp17(uint32_t a);
/* A width-bit fraction (value / 2^width, width <= 62) as FP17 (FpFractionToFloat<width, 6, 10>; SDP's Y LUT
 * interpolates with 35-bit ones). */
uint32_t nv_frac_to_fp17(uint64_t a, unsigned width);
#endif
