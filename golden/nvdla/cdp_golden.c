#include "cdp_golden.h"
#include "nv_lut_select.h"
#include "nvdla_dp_math.h"
#include <stdlib.h>

enum { RDMA = 0xC000, CDP = 0xD000 };

void cdp_lut_cfg_write(cdp_lut_t *t, uint32_t data)
{
    t->addr = data & 0x3FF;
    t->table_lo = (data >> 16) & 1;
    t->write_access = (data >> 17) & 1;
}

void cdp_lut_data_write(cdp_lut_t *t, uint32_t data)
{
    if (!t->write_access) return;
    uint32_t last = t->table_lo ? CDP_LO_N - 1 : CDP_LE_N - 1;
    if (t->addr <= last) {
        if (t->table_lo) t->lo[t->addr] = (int16_t)(data & 0xFFFF);
        else t->le[t->addr] = (int16_t)(data & 0xFFFF);
    }
    if (t->addr < last) t->addr++; /* the pointer stops at the last entry */
}

int64_t cdp_icvt(int8_t in, uint32_t offset, uint32_t scale, uint32_t shift)
{
    int64_t d9 = (int64_t)in - nv_sx(offset & 0xFF, 8);
    return nv_rsr(d9 * nv_sx(scale & 0xFFFF, 16), shift & 31, 25, 9);
}

int8_t cdp_ocvt(int64_t m, uint32_t offset, uint32_t scale, uint32_t shift)
{
    int64_t d = m - nv_sx(offset & 0x1FFFFFF, 25);
    return (int8_t)nv_rsr(d * nv_sx(scale & 0xFFFF, 16), shift & 63, 42, 8);
}

/* Linear index of d (> 0) with a 6-bit signed select; lo: the left shift amount is taken mod 32. */
static void linear_index(int64_t d, uint32_t select, bool lo, int64_t *idx, int64_t *frac)
{
    int sel = (int)nv_sx(select & 63, 6);
    if (sel >= 0) {
        *idx = d >> sel;
        *frac = ((d & ((1ll << sel) - 1)) << 16) >> sel;
    } else {
        int sh = lo ? (-sel) % 32 : -sel;
        *idx = d << sh;
        *frac = 0;
    }
}

static nv_lut_state_t le_index(const cdp_lut_cfg_t *c, int64_t x22, int64_t *idx, int64_t *frac)
{
    int64_t s22 = nv_sx(c->le_start22, 22);
    if (x22 <= s22) return NV_LUT_UFLOW; /* equality underflows */
    int64_t d = x22 - s22;
    if (!c->le_linear) {
        int p = 63 - __builtin_clzll((unsigned long long)d);
        *frac = p == 0 ? 0 : ((d - (1ll << p)) << 16) >> p;
        int64_t off = nv_sx(c->le_index_offset & 0xFF, 8);
        if (off >= 0 && p < off) return NV_LUT_UFLOW;
        *idx = p - off;
    } else {
        linear_index(d, c->le_index_select, false, idx, frac);
    }
    return *idx >= CDP_LE_N - 1 ? NV_LUT_OFLOW : NV_LUT_HIT;
}

static nv_lut_state_t lo_index(const cdp_lut_cfg_t *c, int64_t x22, int64_t *idx, int64_t *frac)
{
    int64_t s22 = nv_sx(c->lo_start22, 22);
    if (x22 <= s22) return NV_LUT_UFLOW;
    linear_index(x22 - s22, c->lo_index_select, true, idx, frac);
    return *idx >= CDP_LO_N - 1 ? NV_LUT_OFLOW : NV_LUT_HIT;
}

/* SH(v, s): s > 0 rounding right shift (no saturation), s <= 0 left shift. */
static nv_i128 slope_shift(nv_i128 v, int s)
{
    return s > 0 ? nv_rshift_round(v, (unsigned)s) : v * ((nv_i128)1 << -s);
}

static int64_t interp(nv_i128 pd, nv_i128 in0, nv_i128 in1, nv_i128 scale, int shift)
{
    nv_i128 y = pd + slope_shift((in1 - in0) * scale, shift);
    return y > 32767 ? 32767 : y < -32768 ? -32768 : (int64_t)y;
}

int64_t cdp_lut_lookup(const cdp_lut_cfg_t *c, const cdp_lut_t *t, int64_t x)
{
    int64_t x22 = nv_sx(x, 22), le_i = 0, le_f = 0, lo_i = 0, lo_f = 0;
    nv_lut_state_t le = le_index(c, x22, &le_i, &le_f), lo = lo_index(c, x22, &lo_i, &lo_f);
    if (c->stats)
        c->stats->le[le == NV_LUT_UFLOW ? 0
                     : le == NV_LUT_HIT ? 1
                                        : 2]++,
            c->stats->lo[lo == NV_LUT_UFLOW ? 0
                         : lo == NV_LUT_HIT ? 1
                                            : 2]++;
    const bool use_lo = nv_lut_use_lo(le, lo, c->uflow_lo, c->oflow_lo, c->hybrid_lo); /* §4.5 */
    if (!use_lo) {
        if (le == NV_LUT_HIT) return interp(t->le[le_i], t->le[le_i], t->le[le_i + 1], le_f, 16);
        if (le == NV_LUT_UFLOW) {
            int64_t le_min = c->le_start;
            if (!c->le_linear) { /* 39-bit wrapping add of 2^offset */
                unsigned k = c->le_index_offset & 0x7F;
                int64_t add = (c->le_index_offset & 0x80) || k >= 39 ? 0 : (1ll << k);
                le_min = nv_sx(c->le_start + add, 39);
            }
            return interp(t->le[0], le_min, x, c->slopes.le_uflow_scale, c->slopes.le_uflow_shift);
        }
        return interp(t->le[CDP_LE_N - 1], c->le_end, x, c->slopes.le_oflow_scale, c->slopes.le_oflow_shift);
    }
    if (lo == NV_LUT_HIT) return interp(t->lo[lo_i], t->lo[lo_i], t->lo[lo_i + 1], lo_f, 16);
    if (lo == NV_LUT_UFLOW) return interp(t->lo[0], c->lo_start, x, c->slopes.lo_uflow_scale, c->slopes.lo_uflow_shift);
    return interp(t->lo[CDP_LO_N - 1], c->lo_end, x, c->slopes.lo_oflow_scale, c->slopes.lo_oflow_shift);
}

static int64_t sx38(const nvdla_pp_t *u, uint32_t low)
{
    return nv_sx(((int64_t)(nvdla_pp_reg(u, CDP + low + 4) & 63) << 32) | nvdla_pp_reg(u, CDP + low), 38);
}

cdp_lut_cfg_t cdp_lut_cfg_read(const nvdla_pp_t *cdp)
{
    uint32_t cfg = nvdla_pp_reg(cdp, CDP + 0x10), info = nvdla_pp_reg(cdp, CDP + 0x14);
    uint32_t les = nvdla_pp_reg(cdp, CDP + 0x38), lesh = nvdla_pp_reg(cdp, CDP + 0x3c);
    uint32_t los = nvdla_pp_reg(cdp, CDP + 0x40), losh = nvdla_pp_reg(cdp, CDP + 0x44);
    cdp_lut_cfg_t c = {
        .le_linear = cfg & 1,
        .uflow_lo = (cfg >> 4) & 1,
        .oflow_lo = (cfg >> 5) & 1,
        .hybrid_lo = (cfg >> 6) & 1,
        .le_index_offset = info & 0xFF,
        .le_index_select = (info >> 8) & 0xFF,
        .lo_index_select = (info >> 16) & 0xFF,
        .le_start = sx38(cdp, 0x18),
        .le_end = sx38(cdp, 0x20),
        .lo_start = sx38(cdp, 0x28),
        .lo_end = sx38(cdp, 0x30),
        .le_start22 = nvdla_pp_reg(cdp, CDP + 0x18) & 0x3FFFFF,
        .lo_start22 = nvdla_pp_reg(cdp, CDP + 0x28) & 0x3FFFFF,
        .slopes = nv_lut_slopes_decode(les, lesh, los, losh),
    };
    return c;
}

bool cdp_golden_runnable(const nvdla_pp_t *cdp, const nvdla_pp_t *rdma)
{
    return nvdla_pp_ready(cdp) && nvdla_pp_ready(rdma);
}

void cdp_golden_run(const nvdla_pp_t *cdp, const nvdla_pp_t *rdma, const cdp_lut_t *lut, const nvdla_dp_ctx_t *ctx,
                    int group)
{
    uint32_t w = nvdla_pp_bits(rdma, RDMA + 0x0c, 12, 0) + 1, h = nvdla_pp_bits(rdma, RDMA + 0x10, 12, 0) + 1,
             ch = nvdla_pp_bits(rdma, RDMA + 0x14, 12, 0) + 1;
    if (nv_cube_too_big(ctx, "CDP", group, w, h, ch)) return;
    nv_place_t src = {.base = nvdla_pp_reg(rdma, RDMA + 0x18),
                      .line_stride = nvdla_pp_reg(rdma, RDMA + 0x20),
                      .surf_stride = nvdla_pp_reg(rdma, RDMA + 0x24)};
    nv_place_t dst = {.base = nvdla_pp_reg(cdp, CDP + 0x50),
                      .line_stride = nvdla_pp_reg(cdp, CDP + 0x58),
                      .surf_stride = nvdla_pp_reg(cdp, CDP + 0x5c)};
    if ((src.base | src.line_stride | src.surf_stride | dst.base | dst.line_stride | dst.surf_stride) & 7)
        nv_dp_error(ctx, "CDP grp %d: address or stride not a multiple of 8 (illegal)", group);
    if (!nvdla_pp_bits(rdma, RDMA + 0x28, 0, 0) || !nvdla_pp_bits(cdp, CDP + 0x60, 0, 0))
        nv_dp_error(ctx, "CDP grp %d: ram type 0 on an active DMA: nv_small never completes", group);
    uint32_t byp = nvdla_pp_reg(cdp, CDP + 0x4c);
    bool sq_byp = byp & 1, mul_byp = (byp >> 1) & 1;
    int r = (int)nvdla_pp_bits(cdp, CDP + 0x70, 1, 0) + 1;
    uint32_t ioff = nvdla_pp_reg(cdp, CDP + 0x74), isc = nvdla_pp_reg(cdp, CDP + 0x78),
             ish = nvdla_pp_reg(cdp, CDP + 0x7c);
    uint32_t ooff = nvdla_pp_reg(cdp, CDP + 0x80), osc = nvdla_pp_reg(cdp, CDP + 0x84),
             osh = nvdla_pp_reg(cdp, CDP + 0x88);
    cdp_lut_cfg_t lc = cdp_lut_cfg_read(cdp);
    nv_cube_t in, out;
    nv_cube_alloc(&in, w, h, ch);
    nv_cube_alloc(&out, w, h, ch);
    nv_cube_read(ctx, &in, &src);
    int n = (int)(8 * in.s);
    int64_t *v = malloc(sizeof *v * (size_t)n);
    if (!v) abort();
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            for (int k = 0; k < n; k++) /* pad lanes: converted input forced to 0 */
                v[k] = (uint32_t)k < ch ? cdp_icvt(nv_atom(&in, (uint32_t)k / 8, y, x)[k % 8], ioff, isc, ish) : 0;
            for (int k = 0; k < n; k++) {
                int64_t X = v[k];
                if (!sq_byp) {
                    X = 0;
                    for (int j = k - r; j <= k + r; j++)
                        if (j >= 0 && j < n) X += v[j] * v[j];
                }
                int64_t yv = cdp_lut_lookup(&lc, lut, X);
                int64_t m = mul_byp ? yv : yv * v[k];
                nv_atom(&out, (uint32_t)k / 8, y, x)[k % 8] = cdp_ocvt(m, ooff, osc, osh);
            }
        }
    free(v);
    nv_cube_write(ctx, &out, &dst, "CDP", group);
    nv_cube_free(&in);
    nv_cube_free(&out);
}
