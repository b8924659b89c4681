#include "pdp_golden.h"
#include "nvdla_dp_math.h"
#include <stdlib.h>

enum { RDMA = 0xA000, PDP = 0xB000 };

int64_t pdp_rq(int64_t v, uint32_t r, unsigned P, unsigned N)
{
    int64_t p = nv_sx(v * (int64_t)r, P);
    int64_t q;
    if (p >= 0) q = ((p >> 16) & ((1ll << (N - 1)) - 1)) + ((p >> 15) & 1);
    else q = ((p >> 16) & ((1ll << N) - 1)) + ((p & 0xFFFF) > 0x8000 ? 1 : 0);
    return nv_sx(q, N);
}

/* The average's integer widths (pdp_golden.h). nv_small: spec nvdla_datapath.md 3.3 (its cal2d keeps the pad sum in
 * 15 bits, NV_NVDLA_PDP_CORE_cal2d.v:533/:5093). nv_full (vmod/nvdla/pdp, its unit1d/cal1d/cal2d carry INT8 and INT16
 * in one datapath): INT8 row sums and the 1-D pad in 11 bits (cal1d.v:2762-2769, pad_table_out[10:0]), the column
 * sum in 14 (cal2d.v:3557 sum_8int), the 2-D pad added in 14 bits, its carry dropped (cal2d.v:6302 {mon[1:0],
 * data_8bit[13:0]}, :6333 stores [13:0]), RQ 31/11 and 28/8 (:6571, :7226); INT16 row sums in 22 bits with the
 * 19-bit pad (cal1d.v:2754 {pad[18], pad}), the column sum cut to 22 (cal2d.v:6290 pout_mem_data[21:0]), the 2-D pad
 * in 22 (:6289, :6294), RQ 39/19 (:6366, :6386) and 36/16 (:7021, :7041). */
const pdp_avg_bits_t
    pdp_avg_nv_small = {.row = 11, .pad1d = 11, .col = 14, .sum = 15, .p1 = 31, .n1 = 11, .p2 = 28, .n2 = 8},
    pdp_avg_nvf_int8 = {.row = 11, .pad1d = 11, .col = 14, .sum = 14, .p1 = 31, .n1 = 11, .p2 = 28, .n2 = 8},
    pdp_avg_nvf_int16 = {.row = 22, .pad1d = 19, .col = 22, .sum = 22, .p1 = 39, .n1 = 19, .p2 = 36, .n2 = 16};

int32_t pdp_pool_one(const pdp_pool_cfg_t *c, const pdp_avg_bits_t *b, const int32_t *plane, unsigned wi, unsigned hi,
                     unsigned ox, unsigned oy)
{
    int x0 = (int)(ox * c->sw) - (int)c->pl, y0 = (int)(oy * c->sh) - (int)c->pt;
    int xs = x0 < 0 ? 0 : x0, xe = x0 + (int)c->kw > (int)wi ? (int)wi : x0 + (int)c->kw;
    int ys = y0 < 0 ? 0 : y0, ye = y0 + (int)c->kh > (int)hi ? (int)hi : y0 + (int)c->kh;
    if (c->method == 1 || c->method == 2) {
        int32_t best = 0; /* no real element (illegal padding, not reached): 0 */
        bool any = false;
        for (int y = ys; y < ye; y++)
            for (int x = xs; x < xe; x++) {
                int32_t v = plane[(size_t)y * wi + (size_t)x];
                if (!any || (c->method == 1 ? v > best : v < best)) best = v;
                any = true;
            }
        return best;
    }
    unsigned nw = c->kw - (unsigned)(xe > xs ? xe - xs : 0), nh = c->kh - (unsigned)(ye > ys ? ye - ys : 0);
    /* the 2-D pad multiplies by KERNEL_WIDTH[2:0] + 1 (cal2d.v:6288; nv_small :5074) */
    const int64_t kw3 = ((c->kw - 1) & 7) + 1;
    int64_t acc = 0;
    for (int y = ys; y < ye; y++) { /* cal1d: row sums */
        int64_t r = 0;
        for (int x = xs; x < xe; x++) r += plane[(size_t)y * wi + (size_t)x];
        if (nw > 0) r = nv_sx(r + nv_sx(c->pv[nw], b->pad1d), b->row);
        acc += r;
    }
    acc = nv_sx(acc, b->col); /* cal2d: wrapping column accumulation */
    if (nh > 0) acc = nv_sx(acc + nv_sx(c->pv[nh] * kw3, b->col), b->sum);
    int64_t v1 = pdp_rq(acc, c->recip_w, b->p1, b->n1);
    return (int32_t)pdp_rq(v1, c->recip_h, b->p2, b->n2);
}

bool pdp_golden_offfly_runnable(const nvdla_pp_t *pdp, const nvdla_pp_t *rdma)
{
    return nvdla_pp_ready(pdp) && nvdla_pp_bits(pdp, PDP + 0x24, 4, 4) && nvdla_pp_ready(rdma);
}

bool pdp_golden_onfly_ready(const nvdla_pp_t *pdp)
{
    return nvdla_pp_ready(pdp) && !nvdla_pp_bits(pdp, PDP + 0x24, 4, 4);
}

void pdp_check_cfg(const nvdla_dp_ctx_t *ctx, int group, const pdp_pool_cfg_t *c, unsigned wi, unsigned hi, unsigned wo,
                   unsigned ho)
{
    if (c->method > 2) nv_dp_error(ctx, "PDP grp %d: pooling_method %u is reserved", group, c->method);
    if (c->pl >= c->kw || c->pr >= c->kw || c->pt >= c->kh || c->pb >= c->kh)
        nv_dp_error(ctx, "PDP grp %d: pads (l%u t%u r%u b%u) must be < kernel (%ux%u)", group, c->pl, c->pt, c->pr,
                    c->pb, c->kw, c->kh);
    int ew = (int)(wi + c->pl + c->pr) - (int)c->kw, eh = (int)(hi + c->pt + c->pb) - (int)c->kh;
    if (ew < 0 || eh < 0 || ew % (int)c->sw || eh % (int)c->sh)
        nv_dp_error(ctx,
                    "PDP grp %d: tiling not exact: (Wi+pl+pr-kw)=%d %% sw=%u, (Hi+pt+pb-kh)=%d %% sh=%u "
                    "(spec §3.2)",
                    group, ew, c->sw, eh, c->sh);
    else if ((unsigned)ew / c->sw + 1 != wo || (unsigned)eh / c->sh + 1 != ho)
        nv_dp_error(ctx, "PDP grp %d: output cube %ux%u differs from the geometry %ux%u", group, wo, ho, ew / c->sw + 1,
                    eh / c->sh + 1);
}

pdp_pool_cfg_t pdp_pool_cfg(const nvdla_pp_t *pdp)
{
    uint32_t mode = nvdla_pp_reg(pdp, PDP + 0x24), k = nvdla_pp_reg(pdp, PDP + 0x34),
             pad = nvdla_pp_reg(pdp, PDP + 0x40);
    pdp_pool_cfg_t c = {
        .method = mode & 3,
        .kw = (k & 15) + 1,
        .kh = ((k >> 8) & 15) + 1,
        .sw = ((k >> 16) & 15) + 1,
        .sh = ((k >> 20) & 15) + 1,
        .pl = pad & 7,
        .pt = (pad >> 4) & 7,
        .pr = (pad >> 8) & 7,
        .pb = (pad >> 12) & 7,
        .recip_w = nvdla_pp_bits(pdp, PDP + 0x38, 16, 0),
        .recip_h = nvdla_pp_bits(pdp, PDP + 0x3c, 16, 0),
    };
    for (unsigned n = 1; n <= 7; n++) c.pv[n] = nv_sx(nvdla_pp_reg(pdp, PDP + 0x40 + 4 * n), 19);
    return c;
}

void pdp_golden_run(const nvdla_pp_t *pdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group,
                    const nv_cube_t *onfly)
{
    pdp_pool_cfg_t c = pdp_pool_cfg(pdp);
    uint32_t wi = nvdla_pp_bits(pdp, PDP + 0x0c, 12, 0) + 1, hi = nvdla_pp_bits(pdp, PDP + 0x10, 12, 0) + 1,
             ci = nvdla_pp_bits(pdp, PDP + 0x14, 12, 0) + 1;
    uint32_t wo = nvdla_pp_bits(pdp, PDP + 0x18, 12, 0) + 1, ho = nvdla_pp_bits(pdp, PDP + 0x1c, 12, 0) + 1;
    if (nv_cube_too_big(ctx, "PDP", group, wi, hi, ci) || nv_cube_too_big(ctx, "PDP", group, wo, ho, ci)) return;
    pdp_check_cfg(ctx, group, &c, wi, hi, wo, ho);
    nv_cube_t in;
    if (onfly) {
        if (onfly->w != wi || onfly->h != hi || onfly->c != ci)
            nv_dp_error(ctx, "PDP grp %d: on-fly input cube %ux%ux%u differs from SDP's %ux%ux%u", group, wi, hi, ci,
                        onfly->w, onfly->h, onfly->c);
        in = *onfly;
        wi = in.w, hi = in.h, ci = in.c;
    } else {
        /* PDP_RDMA.D_FLYING_MODE (RDMA + 0x18) is not checked: the spec (nvdla_datapath.md 3.4) pairs it with
         * PDP's, but nv_small's RDMA only stores it (NV_NVDLA_PDP_RDMA_REG_dual.v:289-290, read back at :147);
         * NV_NVDLA_PDP_rdma.v:92/:211 wires it out of the register file to nothing. Whether PDP reads memory is
         * PDP.D_OPERATION_MODE_CFG.FLYING_MODE (NV_NVDLA_PDP_reg.v:986 -> NV_NVDLA_pdp.v:256/:311 -> core
         * cal1d.v:387-388, nan.v:118, preproc.v:100) and the RDMA fetches when enabled (RDMA_ig.v:180). NVIDIA's
         * firmware never writes it (docs/drivers.md). */
        uint32_t rw = nvdla_pp_bits(rdma, RDMA + 0x0c, 12, 0) + 1, rh = nvdla_pp_bits(rdma, RDMA + 0x10, 12, 0) + 1,
                 rc = nvdla_pp_bits(rdma, RDMA + 0x14, 12, 0) + 1;
        if (rw != wi || rh != hi || rc != ci)
            nv_dp_error(ctx, "PDP grp %d: PDP_RDMA cube %ux%ux%u differs from PDP's %ux%ux%u", group, rw, rh, rc, wi,
                        hi, ci);
        nv_place_t src = {.base = nvdla_pp_reg(rdma, RDMA + 0x1c),
                          .line_stride = nvdla_pp_reg(rdma, RDMA + 0x24),
                          .surf_stride = nvdla_pp_reg(rdma, RDMA + 0x28)};
        if ((src.base | src.line_stride | src.surf_stride) & 7)
            nv_dp_error(ctx, "PDP grp %d: PDP_RDMA source address/stride not a multiple of 8 (illegal)", group);
        if (!nvdla_pp_bits(rdma, RDMA + 0x2c, 0, 0))
            nv_dp_error(ctx, "PDP grp %d: PDP_RDMA ram type 0: nv_small never completes", group);
        nv_cube_alloc(&in, wi, hi, ci);
        nv_cube_read(ctx, &in, &src);
    }
    if (nvdla_pp_bits(pdp, PDP + 0x20, 12, 0) + 1 != ci)
        nv_dp_error(ctx, "PDP grp %d: OUT_CHANNEL differs from IN_CHANNEL", group);
    nv_cube_t out;
    nv_cube_alloc(&out, wo, ho, ci);
    int32_t *plane = malloc((size_t)wi * hi * sizeof *plane);
    if (!plane) abort();
    for (uint32_t s = 0; s < in.s; s++)
        for (unsigned l = 0; l < 8; l++) {
            for (uint32_t y = 0; y < hi; y++)
                for (uint32_t x = 0; x < wi; x++) plane[(size_t)y * wi + x] = nv_atom(&in, s, y, x)[l];
            for (uint32_t oy = 0; oy < ho; oy++)
                for (uint32_t ox = 0; ox < wo; ox++)
                    nv_atom(&out, s, oy, ox)[l] = (int8_t)pdp_pool_one(&c, &pdp_avg_nv_small, plane, wi, hi, ox, oy);
        }
    free(plane);
    nv_place_t dst = {.base = nvdla_pp_reg(pdp, PDP + 0x70),
                      .line_stride = nvdla_pp_reg(pdp, PDP + 0x78),
                      .surf_stride = nvdla_pp_reg(pdp, PDP + 0x7c)};
    if ((dst.base | dst.line_stride | dst.surf_stride) & 7)
        nv_dp_error(ctx, "PDP grp %d: destination address/stride not a multiple of 8 (illegal)", group);
    if (!nvdla_pp_bits(pdp, PDP + 0x80, 0, 0)) nv_dp_error(ctx, "PDP grp %d: D_DST_RAM_CFG 0: never completes", group);
    nv_cube_write(ctx, &out, &dst, "PDP", group);
    nv_cube_free(&out);
    if (!onfly) nv_cube_free(&in);
}
