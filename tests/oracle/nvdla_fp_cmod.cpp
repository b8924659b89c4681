// The oracle's cmod side: NVIDIA's HLS floating-point libraries (cmod/hls/vlibs, read from ../shared, compiled out of
// tree by tests/test_nvdla_fp_oracle.py) driven through their ac_channel interfaces, on the sweeps of
// nvdla_fp_sweep.h. Its twin nvdla_fp_ours.c runs the same sweeps on the golden model.
#include "vlibs.h"
#include "nvdla_fp_sweep.h"

template <class IT, class OT, void (*F)(ac_channel<IT> &, ac_channel<IT> &, ac_channel<OT> &)>
uint32_t binary(uint32_t a, uint32_t b)
{
    ac_channel<IT> ca, cb;
    ac_channel<OT> co;
    ca.write(IT(a));
    cb.write(IT(b));
    F(ca, cb, co);
    return (uint32_t)co.read().to_uint64() & 0xFFFFFFFFu;
}

template <class IT, class OT, void (*F)(ac_channel<IT> &, ac_channel<OT> &)> uint32_t unary(uint32_t a, uint32_t)
{
    ac_channel<IT> ca;
    ac_channel<OT> co;
    ca.write(IT(a));
    F(ca, co);
    return (uint32_t)co.read().to_uint64() & 0xFFFFFFFFu;
}

// The results are the formats' bits: a negative ac_int<n, true> is cut back to its n bits.
template <fp_fn_t F, unsigned W> uint32_t bits(uint32_t a, uint32_t b) { return F(a, b) & (uint32_t)((1ull << W) - 1); }

static const fp_fn_t fns[FP_OPS] = {
    bits<binary<vFp16Type, vFp16Type, HLS_fp16_add>, 16>,    bits<binary<vFp16Type, vFp16Type, HLS_fp16_sub>, 16>,
    bits<binary<vFp16Type, vFp16Type, HLS_fp16_mul>, 16>,    bits<binary<vFp16Type, vFp16Type, HLS_fp16_max>, 16>,
    bits<binary<vFp16Type, vFp16Type, HLS_fp16_min>, 16>,    bits<binary<vFp17Type, vFp17Type, HLS_fp17_add>, 17>,
    bits<binary<vFp17Type, vFp17Type, HLS_fp17_sub>, 17>,    bits<binary<vFp17Type, vFp17Type, HLS_fp17_mul>, 17>,
    bits<binary<vFp17Type, vFp17Type, HLS_fp17_max>, 17>,    bits<binary<vFp17Type, vFp17Type, HLS_fp17_min>, 17>,
    bits<binary<vFp32Type, vFp32Type, HLS_fp32_add>, 32>,    bits<binary<vFp32Type, vFp32Type, HLS_fp32_sub>, 32>,
    bits<binary<vFp32Type, vFp32Type, HLS_fp32_mul>, 32>,    bits<unary<vFp16Type, vFp17Type, HLS_fp16_to_fp17>, 17>,
    bits<unary<vFp17Type, vFp16Type, HLS_fp17_to_fp16>, 16>, bits<unary<vFp16Type, vFp32Type, HLS_fp16_to_fp32>, 32>,
    bits<unary<vFp32Type, vFp16Type, HLS_fp32_to_fp16>, 16>, bits<unary<vFp17Type, vFp32Type, HLS_fp17_to_fp32>, 32>,
    bits<unary<vFp32Type, vFp17Type, HLS_fp32_to_fp17>, 17>, bits<unary<vU16Type, vFp17Type, HLS_uint16_to_fp17>, 17>,
};

int main(int argc, char **argv) { return fp_driver_main(argc, argv, fns); }
