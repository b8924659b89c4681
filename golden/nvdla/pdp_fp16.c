/* PDP's FP16 pooling (pdp_fp16.h). cmod walks the input (PoolingStage0SequenceCommon): each element, for each window
 * it belongs to, goes into that window's row sum (LineOperation, the W step), and a finished row sum into the
 * window's total (PoolingStage0Calc, the H step); a total is then scaled (PoolingStage1Calc). Here each output is
 * computed from its window in the same order: its rows top to bottom, each row left to right, with cmod's
 * conditions for where a padding value enters (NV_NVDLA_pdp.cpp:1445-1447 for W, :1557-1559 for H). The oracle
 * (tests/test_nvdla_fp_oracle.py) runs cmod's own wrappers in cmod's input order against this. */
#include "pdp_fp16.h"
#include "nvdla_fp16.h"
#include <stddef.h>

enum { AVERAGE = 0, MAX = 1 };

uint32_t pdp_fp16_kernel_width(unsigned kw)
{
    /* 1.0 .. 8.0 in FP17 (bias 31): RTL cal2d.v:8772-8780 maps KERNEL_WIDTH[2:0] to these; cmod's kernel_width_map
     * (pdp_hls_wrapper.cpp:126) has the first seven at index kw (index 0 is 0.0) and reads past its end for 8. */
    static const uint32_t fp17[9] = {0, 0x7c00, 0x8000, 0x8200, 0x8400, 0x8500, 0x8600, 0x8700, 0x8800};
    return kw <= 8 ? fp17[kw] : 0;
}

static uint32_t cmp16(unsigned method, uint32_t a, uint32_t b)
{
    return method == MAX ? nv_fp16_max(a, b) : nv_fp16_min(a, b);
}

uint16_t pdp_fp16_pool_one(const pdp_fp16_cfg_t *c, const uint16_t *plane, unsigned wi, unsigned hi, unsigned ox,
                           unsigned oy)
{
    const int x0 = (int)(ox * c->sw) - (int)c->pl, y0 = (int)(oy * c->sh) - (int)c->pt;
    const unsigned xs = x0 < 0 ? 0 : (unsigned)x0, ys = y0 < 0 ? 0 : (unsigned)y0;
    const unsigned xe = x0 + (int)c->kw > (int)wi ? wi : (unsigned)(x0 + (int)c->kw),
                   ye = y0 + (int)c->kh > (int)hi ? hi : (unsigned)(y0 + (int)c->kh);
    const uint32_t kw17 = pdp_fp16_kernel_width(c->kw);
    uint32_t total = 0; /* the line buffer: FP17 for AVERAGE, FP16 for MAX and MIN */
    for (unsigned h = ys; h < ye; h++) {
        const unsigned khi = (unsigned)((int)h - y0);
        uint32_t row = 0; /* the line operation buffer */
        for (unsigned w = xs; w < xe; w++) {
            const unsigned kwi = (unsigned)((int)w - x0);
            uint32_t x = plane[(size_t)h * wi + w];
            if (c->nan_to_zero && (x & 0x7c00) == 0x7c00 && (x & 0x3ff)) x = 0; /* NV_NVDLA_pdp.cpp:549 */
            if (c->method != AVERAGE) {
                row = w == xs ? x : cmp16(c->method, row, x); /* the row so far first (wrapper :97-104) */
                continue;
            }
            /* :1446-1447: a left padding value enters at the window's last element when the window starts in the
             * padding (or at the input's last element when it covers the whole input: then the value of all the
             * padding elements, and no right one); a right one at the input's last element */
            bool left = w + 1 < c->kw && (kwi + 1 == c->kw || (w + 1 == wi && w < kwi && c->pl)),
                 right = w + c->kw - kwi > wi && w + 1 == wi;
            uint32_t pad_l = left ? c->pad[c->kw - (w + 1) - 1] : 0,
                     pad_r = !left && right ? c->pad[c->kw - (kwi + 1) - 1] : 0;
            uint32_t b = nv_fp16_to_fp17(x), o = w == xs ? b : nv_fp17_add(row, b); /* wrapper :80-120 */
            row = nv_fp17_add(nv_fp17_add(o, pad_l), pad_r);
        }
        if (c->method != AVERAGE) {
            total = h == ys ? row : cmp16(c->method, row, total); /* the new row first (wrapper :214-221) */
            continue;
        }
        /* :1558-1559, as for W; each value times the kernel width in FP17 (wrapper :163-165) */
        bool top = h + 1 < c->kh && (khi + 1 == c->kh || (h + 1 == hi && h < khi)),
             bottom = h + c->kh - khi > hi && h + 1 == hi;
        uint32_t pad_t = nv_fp17_mul(top ? c->pad[c->kh - (h + 1) - 1] : 0, kw17),
                 pad_b = nv_fp17_mul(!top && bottom ? c->pad[c->kh - (khi + 1) - 1] : 0, kw17);
        uint32_t o = h == ys ? row : nv_fp17_add(row, total); /* wrapper :197-240 */
        total = nv_fp17_add(nv_fp17_add(o, pad_t), pad_b);
    }
    if (c->method != AVERAGE) return (uint16_t)total;
    /* PoolingStage1Calc (wrapper :275-299): times 1/kernel width, times 1/kernel height, to FP16 */
    return (uint16_t)nv_fp17_to_fp16(nv_fp17_mul(nv_fp17_mul(total, c->recip_w), c->recip_h));
}
