// The oracle's cmod side: NVIDIA's HLS floating-point libraries (cmod/hls/vlibs, read from ../shared, compiled out of
// tree by tests/test_nvdla_fp_oracle.py) driven through their ac_channel interfaces, on the sweeps of
// nvdla_fp_sweep.h. Its twin nvdla_fp_ours.c runs the same sweeps on the golden model.
#include <stdint.h>
#include "vlibs.h"
#include "pdp_hls_wrapper.h"
#include "sdp_hls_wrapper.h"
#include "cdp_hls_wrapper.h"
#include "nvdla_fp_sweep.h"
#include <vector>

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

// nvdla_float.h's templates that no vlibs file instantiates, called directly.
uint32_t fp32_max(uint32_t a, uint32_t b) { return (uint32_t)FpMax<8, 23>(vFp32Type(a), vFp32Type(b)).to_int(); }
uint32_t fp32_min(uint32_t a, uint32_t b) { return (uint32_t)FpMin<8, 23>(vFp32Type(a), vFp32Type(b)).to_int(); }
uint32_t fp32_relu(uint32_t a, uint32_t) { return (uint32_t)FpRelu<8, 23>(vFp32Type(a)).to_int(); }
uint32_t fp16_to_int16(uint32_t a, uint32_t) { return (uint32_t)Fp16ToInt16(ACINTT(16)(a)).to_int() & 0xFFFF; }
uint32_t int17_to_fp16(uint32_t a, uint32_t) { return (uint32_t)Int17ToFp16(ACINTT(17)(a)).to_int() & 0xFFFF; }

// The results are the formats' bits: a negative ac_int<n, true> is cut back to its n bits.
template <fp_fn_t F, unsigned W> uint32_t bits(uint32_t a, uint32_t b) { return F(a, b) & (uint32_t)((1ull << W) - 1); }

static const fp_fn_t fns[FP_OPS] = {
    bits<binary<vFp16Type, vFp16Type, HLS_fp16_add>, 16>,
    bits<binary<vFp16Type, vFp16Type, HLS_fp16_sub>, 16>,
    bits<binary<vFp16Type, vFp16Type, HLS_fp16_mul>, 16>,
    bits<binary<vFp16Type, vFp16Type, HLS_fp16_max>, 16>,
    bits<binary<vFp16Type, vFp16Type, HLS_fp16_min>, 16>,
    bits<binary<vFp17Type, vFp17Type, HLS_fp17_add>, 17>,
    bits<binary<vFp17Type, vFp17Type, HLS_fp17_sub>, 17>,
    bits<binary<vFp17Type, vFp17Type, HLS_fp17_mul>, 17>,
    bits<binary<vFp17Type, vFp17Type, HLS_fp17_max>, 17>,
    bits<binary<vFp17Type, vFp17Type, HLS_fp17_min>, 17>,
    bits<binary<vFp32Type, vFp32Type, HLS_fp32_add>, 32>,
    bits<binary<vFp32Type, vFp32Type, HLS_fp32_sub>, 32>,
    bits<binary<vFp32Type, vFp32Type, HLS_fp32_mul>, 32>,
    fp32_max,
    fp32_min,
    fp32_relu,
    bits<unary<vFp16Type, vFp17Type, HLS_fp16_to_fp17>, 17>,
    bits<unary<vFp17Type, vFp16Type, HLS_fp17_to_fp16>, 16>,
    bits<unary<vFp16Type, vFp32Type, HLS_fp16_to_fp32>, 32>,
    bits<unary<vFp32Type, vFp16Type, HLS_fp32_to_fp16>, 16>,
    bits<unary<vFp17Type, vFp32Type, HLS_fp17_to_fp32>, 32>,
    bits<unary<vFp32Type, vFp17Type, HLS_fp32_to_fp17>, 17>,
    bits<unary<vU16Type, vFp17Type, HLS_uint16_to_fp17>, 17>,
    fp16_to_int16,
    int17_to_fp16,
};

// PDP at FP16: cmod's three HLS wrapper functions called as NV_NVDLA_pdp.cpp calls them, in its order: the input
// walked line by line (PoolingStage0SequenceCommon, :425-670), each element sent, for each window it belongs to,
// into that window's row sum (LineOperation, :1426-1520; one line-operation slot per window open in the row,
// :574), a row's sum at its window's last element into the window's total for each output row it belongs to
// (PoolingStage0Calc, :1524-1630), then every total scaled (PoolingStage1Calc, :1641-1730). One lane.
static void pdp(const fp_pdp_job_t *j, uint16_t *out)
{
    const unsigned W = j->w, H = j->h, kw = j->kw, kh = j->kh, sw = j->sw, sh = j->sh, pl = j->pl, pt = j->pt;
    const unsigned wo = fp_pdp_wo(j), ho = fp_pdp_ho(j), slots = (kw + sw - 1) / sw;
    std::vector<uint32_t> lob(slots), lb(wo * ho);
    uint32_t pads[7];
    for (int k = 0; k < 7; k++) pads[k] = j->pad[k];
    for (unsigned h = 0; h < H; h++)
        for (unsigned w = 0; w < W; w++) {
            uint16_t in[1] = {j->v[h * W + w]};
            if (j->nan_to_zero && ((in[0] >> 10) & 0x1f) == 0x1f && (in[0] & 0x3ff)) in[0] = 0;
            for (unsigned kwi = 0; kwi < kw; kwi++) {
                if (!(pl + w >= kwi && pl + w + (kw - kwi) <= pl + j->pr + W && (pl + w - kwi) % sw == 0)) continue;
                const unsigned ox = (pl + w - kwi) / sw, slot = ox % slots;
                bool first = w == 0 || kwi == 0;
                bool left = w + 1 < kw && (kwi + 1 == kw || (w + 1 == W && w < kwi && pl));
                bool right = w + kw - kwi > W && w + 1 == W;
                uint32_t pad_l = 0, pad_r = 0;
                if (left) pad_l = pads[kw - (w + 1) - 1];
                else if (right) pad_r = pads[kw - (kwi + 1) - 1];
                HLS_PDP_PoolingStage0Calc_FP16_W(first, pad_l, pad_r, (uint8_t)j->method, 0, &lob[slot], 0, in);
                if (!(kwi + 1 == kw || (w + kw - kwi > W && w + 1 == W))) continue;
                for (unsigned khi = 0; khi < kh; khi++) {
                    if (!(pt + h >= khi && pt + h + (kh - khi) <= pt + j->pb + H && (pt + h - khi) % sh == 0)) continue;
                    const unsigned oy = (pt + h - khi) / sh;
                    bool hfirst = h == 0 || khi == 0;
                    bool top = h + 1 < kh && (khi + 1 == kh || (h + 1 == H && h < khi));
                    bool bottom = h + kh - khi > H && h + 1 == H;
                    uint32_t pad_t = 0, pad_b = 0;
                    if (top) pad_t = pads[kh - (h + 1) - 1];
                    else if (bottom) pad_b = pads[kh - (khi + 1) - 1];
                    HLS_PDP_PoolingStage0Calc_FP16_H(hfirst, pad_t, pad_b, kw, (uint8_t)j->method, oy * wo + ox, &lb[0],
                                                     0, &lob[slot]);
                }
            }
        }
    for (unsigned k = 0; k < wo * ho; k++)
        HLS_PDP_PoolingStage1Calc_FP16((uint8_t)j->method, j->recip_w, j->recip_h, k, out, k, &lb[0]);
}

// SDP: cmod's sdp_hls_wrapper configured as NV_NVDLA_sdp.cpp configures it (:650-720; the EW stage bypassed,
// register operands) and called per 16 elements with the input as NV_NVDLA_sdp.cpp makes it.
static void sdp(const fp_sdp_job_t *j, uint16_t *out)
{
    static sdp_hls_wrapper w;
    w.sdp_cfg_proc_precision = (uint8_t)j->proc;
    w.sdp_cfg_out_precision = (uint8_t)j->out;
    w.sdp_cfg_nan_flush = j->nan_to_zero;
    w.sdp_cfg_nan_to_zero = j->nan_to_zero;
    w.sdp_cfg_perf_nan_inf_cnt_en = w.sdp_cfg_perf_out_nan_cnt_en = false;
    w.sdp_cfg_y_bypass = true;
    w.sdp_cfg_mode_eql = false;
    w.sdp_cfg_cvt_offset = (int32_t)j->cvt_offset, w.sdp_cfg_cvt_scale = (int16_t)j->cvt_scale;
    w.sdp_cfg_cvt_shift = (uint8_t)j->cvt_shift;
    const unsigned *a = j->stage[0], *b = j->stage[1];
    w.sdp_cfg_x1_bypass = a[0], w.sdp_cfg_x1_alu_bypass = a[1], w.sdp_cfg_x1_alu_algo = (uint8_t)(a[2] & 3);
    w.sdp_cfg_x1_mul_bypass = a[3], w.sdp_cfg_x1_mul_prelu = a[4], w.sdp_cfg_x1_relu_bypass = a[5];
    w.sdp_cfg_x1_alu_op = (int16_t)a[6], w.sdp_cfg_x1_mul_op = (int16_t)a[7];
    w.sdp_cfg_x1_alu_src = w.sdp_cfg_x1_mul_src = false,
    w.sdp_cfg_x1_alu_shift_value = w.sdp_cfg_x1_mul_shift_value = 0;
    w.sdp_cfg_x2_bypass = b[0], w.sdp_cfg_x2_alu_bypass = b[1], w.sdp_cfg_x2_alu_algo = (uint8_t)(b[2] & 3);
    w.sdp_cfg_x2_mul_bypass = b[3], w.sdp_cfg_x2_mul_prelu = b[4], w.sdp_cfg_x2_relu_bypass = b[5];
    w.sdp_cfg_x2_alu_op = (int16_t)b[6], w.sdp_cfg_x2_mul_op = (int16_t)b[7];
    w.sdp_cfg_x2_alu_src = w.sdp_cfg_x2_mul_src = false,
    w.sdp_cfg_x2_alu_shift_value = w.sdp_cfg_x2_mul_shift_value = 0;
    w.o_cvt_o_flow = w.o_nan_cnt = 0;
    int16_t dma[16] = {0};
    for (unsigned k0 = 0; k0 < j->n; k0 += 16) {
        int32_t in[16];
        for (unsigned i = 0; i < 16; i++) { // NV_NVDLA_sdp.cpp:953 (FP16) or :963 (sign-extended)
            uint16_t v = k0 + i < j->n ? j->v[k0 + i] : 0;
            in[i] = j->proc == 2 ? (int32_t)Fp16ToFp32(ACINTT(16)(v)).to_int() : (int32_t)(int16_t)v;
        }
        w.sdp(in, dma, dma, dma, dma, dma, dma);
        for (unsigned i = 0; i < 16 && k0 + i < j->n; i++) out[k0 + i] = (uint16_t)w.sdp_data_out[i];
    }
}

// CDP at FP16: cmod's HLS_CDP_lookup_fp16 called as NV_NVDLA_cdp.cpp calls it (:1646-1652): four outputs per call
// from twelve channels (the four and four on each side), a channel outside the pixel's channels replaced by the input
// offset (:520-640), a NaN made +0 under NAN_TO_ZERO (:677-682); the registers as it reads them (:1620-1644).
static void cdp(const fp_cdp_job_t *j, uint16_t *out)
{
    const uint32_t *f = j->cfg;
    static int16_t le[65], lo[257];
    for (int k = 0; k < 65; k++) le[k] = (int16_t)j->le[k];
    for (int k = 0; k < 257; k++) lo[k] = (int16_t)j->lo[k];
    uint32_t uf = 0, of = 0, leh = 0, loh = 0, hh = 0;
    for (int k0 = 0; k0 < (int)j->n; k0 += 4) {
        int16_t in[12], o[4];
        for (int i = 0; i < 12; i++) {
            int ch = k0 - 4 + i;
            uint16_t v = ch < 0 || ch >= (int)j->n ? (uint16_t)f[19] : j->v[ch];
            if (f[6] && ((v >> 10) & 0x1f) == 0x1f && (v & 0x3ff)) v = 0;
            in[i] = (int16_t)v;
        }
        HLS_CDP_lookup_fp16(in, le, lo, (uint16_t)f[7], f[0] ? 0 : 1, f[1], f[2], f[3], f[8], (int16_t)(int8_t)f[12],
                            (int8_t)f[13], f[9], f[10], (int8_t)f[14], f[11], (uint16_t)f[19], 0, 0, 0, 0, 0,
                            (int16_t)f[15], (int16_t)f[16], (int16_t)f[17], (int16_t)f[18], f[4], f[5], o, &uf, &of,
                            &leh, &loh, &hh);
        for (int i = 0; i < 4; i++) out[k0 + i] = (uint16_t)o[i];
    }
}

int main(int argc, char **argv) { return fp_driver_main(argc, argv, fns, pdp, sdp, cdp); }
