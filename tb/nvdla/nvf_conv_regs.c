/* The registers of an nv_full convolution layer as the generators program them (nvf_gen.h, nvf_conv_regs_put), from
 * the layer each generator has drawn: CDMA, CSC, CMAC_A/B and CACC as NVIDIA's firmware programs a direct, image or
 * Winograd layer (kmd/firmware/conv.c; each generator's header says what it draws), then SDP_RDMA's streams off and
 * SDP's cube and destination. Written in one order, the generators' own since their first commits: their registers are
 * shuffled by position before they are written (dp_emit_shuffled), so the order is part of what a seed means. */
#ifndef NV_FULL_ABSENT
#include "nv_full_regs.h"
#include "nvf_gen.h"

static void cdma_put(dp_wlist_t *l, const nvf_conv_layer_t *g, const nvf_conv_regs_t *c)
{
    const uint32_t misc = (uint32_t)c->wino | c->in_prec << 8 | c->prec << 12;
    const bool image = c->cdma_format & 1, fp16 = c->prec == NVF_FP16;
    dp_put(l, NVDLA_CDMA_D_MISC_CFG_0, misc), dp_put(l, NVDLA_CDMA_D_DATAIN_FORMAT_0, c->cdma_format);
    dp_put(l, NVDLA_CDMA_D_DATAIN_SIZE_0_0, (g->W - 1) | (g->H - 1) << 16);
    dp_put(l, NVDLA_CDMA_D_DATAIN_SIZE_1_0, c->C - 1);
    dp_put(l, NVDLA_CDMA_D_DATAIN_SIZE_EXT_0_0, (c->We - 1) | (c->He - 1) << 16);
    dp_put(l, NVDLA_CDMA_D_PIXEL_OFFSET_0, c->xoff), dp_put(l, NVDLA_CDMA_D_DAIN_RAM_TYPE_0, nvf_ram(c->src));
    dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_HIGH_0_0, 0), dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_LOW_0_0, c->src.addr);
    dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_HIGH_1_0, 0), dp_put(l, NVDLA_CDMA_D_DAIN_ADDR_LOW_1_0, c->uv_addr);
    dp_put(l, NVDLA_CDMA_D_LINE_STRIDE_0, c->line), dp_put(l, NVDLA_CDMA_D_SURF_STRIDE_0, c->surf);
    if (image) dp_put(l, NVDLA_CDMA_D_LINE_UV_STRIDE_0, c->uv_line);
    /* DAIN_MAP as NVIDIA's firmware sets it (kmd/firmware/conv.c): line packed iff the line stride is 32 x W, surface
     * packed iff the surface stride is the packed surface's size, 32 x W x H (not line stride x H: for a 1x1 input with
     * a line-stride gap the RTL, seeing SURF_PACKED, reads the surfaces back to back, NV_NVDLA_CDMA_dc.v:2946
     * is_packed_1x1; issue 38, conv_random seed 25) */
    dp_put(l, NVDLA_CDMA_D_DAIN_MAP_0,
           (uint32_t)(c->line == 32 * g->W) | (uint32_t)(c->surf == 32 * g->W * g->H) << 16);
    dp_put(l, NVDLA_CDMA_D_BATCH_NUMBER_0, c->N - 1), dp_put(l, NVDLA_CDMA_D_BATCH_STRIDE_0, c->in_bstride);
    dp_put(l, NVDLA_CDMA_D_ENTRY_PER_SLICE_0, c->eps - 1), dp_put(l, NVDLA_CDMA_D_FETCH_GRAIN_0, 0);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_FORMAT_0, c->cmp);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_SIZE_0_0, c->kernel_bytes - 1);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_SIZE_1_0, g->K - 1), dp_put(l, NVDLA_CDMA_D_WEIGHT_RAM_TYPE_0, nvf_ram(c->wts));
    dp_put(l, NVDLA_CDMA_D_WEIGHT_ADDR_HIGH_0, 0), dp_put(l, NVDLA_CDMA_D_WEIGHT_ADDR_LOW_0, c->wts.addr);
    dp_put(l, NVDLA_CDMA_D_WEIGHT_BYTES_0, c->wbytes);
    dp_put(l, NVDLA_CDMA_D_WGS_ADDR_HIGH_0, 0), dp_put(l, NVDLA_CDMA_D_WGS_ADDR_LOW_0, c->cmp ? c->wgs_addr : 0);
    dp_put(l, NVDLA_CDMA_D_WMB_BYTES_0, c->wmb_bytes), dp_put(l, NVDLA_CDMA_D_MEAN_FORMAT_0, c->mean_format);
    if (c->cmp) dp_put(l, NVDLA_CDMA_D_WMB_ADDR_HIGH_0, 0), dp_put(l, NVDLA_CDMA_D_WMB_ADDR_LOW_0, c->wmb_addr);
    if (image) {
        dp_put(l, NVDLA_CDMA_D_MEAN_GLOBAL_0_0, c->mean_global[0]);
        dp_put(l, NVDLA_CDMA_D_MEAN_GLOBAL_1_0, c->mean_global[1]);
    }
    dp_put(l, NVDLA_CDMA_D_CVT_CFG_0, c->cvt_cfg);
    if (!c->wino)
        dp_put(l, NVDLA_CDMA_D_CVT_OFFSET_0, c->cvt_offset), dp_put(l, NVDLA_CDMA_D_CVT_SCALE_0, c->cvt_scale);
    dp_put(l, NVDLA_CDMA_D_CONV_STRIDE_0, (g->sx - 1) | (g->sy - 1) << 16);
    if (fp16 && c->wino)
        dp_put(l, NVDLA_CDMA_D_NAN_FLUSH_TO_ZERO_0, (uint32_t)g->nan_flush); /* Winograd's place for it */
    dp_put(l, NVDLA_CDMA_D_ZERO_PADDING_0, g->pl | g->pr << 8 | g->pt << 16 | g->pb << 24);
    dp_put(l, NVDLA_CDMA_D_ZERO_PADDING_VALUE_0, (uint32_t)g->pad & 0xFFFF);
    dp_put(l, NVDLA_CDMA_D_BANK_0, c->bank);
    if (fp16 && !c->wino) dp_put(l, NVDLA_CDMA_D_NAN_FLUSH_TO_ZERO_0, (uint32_t)g->nan_flush);
}

/* CSC: the plane it reads (Winograd's extended one, no padding or stride of its own) and the kernel as it reads it
 * (an image's pre-extended, Winograd's 4x4 transformed) */
static void csc_put(dp_wlist_t *l, const nvf_conv_layer_t *g, const nvf_conv_regs_t *c)
{
    dp_put(l, NVDLA_CSC_D_MISC_CFG_0, (uint32_t)c->wino | c->in_prec << 8 | c->prec << 12);
    dp_put(l, NVDLA_CSC_D_DATAIN_FORMAT_0, c->cdma_format & 1);
    dp_put(l, NVDLA_CSC_D_DATAIN_SIZE_EXT_0_0, (c->We - 1) | (c->He - 1) << 16);
    dp_put(l, NVDLA_CSC_D_DATAIN_SIZE_EXT_1_0, c->csc_c - 1);
    dp_put(l, NVDLA_CSC_D_BATCH_NUMBER_0, c->N - 1), dp_put(l, NVDLA_CSC_D_POST_Y_EXTENSION_0, c->yext);
    dp_put(l, NVDLA_CSC_D_ENTRY_PER_SLICE_0, c->eps - 1), dp_put(l, NVDLA_CSC_D_WEIGHT_FORMAT_0, c->cmp);
    dp_put(l, NVDLA_CSC_D_WEIGHT_SIZE_EXT_0_0, (c->S - 1) | (c->R - 1) << 16);
    dp_put(l, NVDLA_CSC_D_WEIGHT_SIZE_EXT_1_0, (c->wt_c - 1) | (g->K - 1) << 16);
    dp_put(l, NVDLA_CSC_D_WEIGHT_BYTES_0, c->wbytes), dp_put(l, NVDLA_CSC_D_WMB_BYTES_0, c->wmb_bytes);
    dp_put(l, NVDLA_CSC_D_DATAOUT_SIZE_0_0, (g->Wo - 1) | (g->Ho - 1) << 16);
    dp_put(l, NVDLA_CSC_D_DATAOUT_SIZE_1_0, g->K - 1);
    dp_put(l, NVDLA_CSC_D_ATOMICS_0, g->Wo * g->Ho - 1), dp_put(l, NVDLA_CSC_D_RELEASE_0, c->He - 1);
    dp_put(l, NVDLA_CSC_D_CONV_STRIDE_EXT_0, (g->sx - 1) | (g->sy - 1) << 16);
    dp_put(l, NVDLA_CSC_D_DILATION_EXT_0, 0);
    dp_put(l, NVDLA_CSC_D_ZERO_PADDING_0, c->wino ? 0 : g->pl | g->pt << 16);
    dp_put(l, NVDLA_CSC_D_ZERO_PADDING_VALUE_0, (uint32_t)g->pad & 0xFFFF);
    dp_put(l, NVDLA_CSC_D_BANK_0, c->bank), dp_put(l, NVDLA_CSC_D_PRA_CFG_0, c->pra);
}

/* CMAC, CACC, and SDP's side of the stream: SDP_RDMA's streams all off (not enabled), SDP's cube and destination */
static void cacc_sdp_put(dp_wlist_t *l, const nvf_conv_layer_t *g, const nvf_conv_regs_t *c)
{
    const uint32_t misc = (uint32_t)c->wino | c->prec << 12;
    const nvf_cube_t *o = &g->out;
    dp_put(l, NVDLA_CMAC_A_D_MISC_CFG_0, misc), dp_put(l, NVDLA_CMAC_B_D_MISC_CFG_0, misc);
    dp_put(l, NVDLA_CACC_D_MISC_CFG_0, misc);
    dp_put(l, NVDLA_CACC_D_DATAOUT_SIZE_0_0, (g->Wo - 1) | (g->Ho - 1) << 16);
    dp_put(l, NVDLA_CACC_D_DATAOUT_SIZE_1_0, g->K - 1), dp_put(l, NVDLA_CACC_D_DATAOUT_ADDR_0, c->dst.addr);
    dp_put(l, NVDLA_CACC_D_BATCH_NUMBER_0, c->N - 1);
    /* a 1x1 output as NVIDIA's firmware programs it (conv.c: it asserts the line stride is one atom and sets both
     * packed bits, which CACC's delivery reads, NV_NVDLA_CACC_delivery_ctrl.v:1082 is_1x1_packed) */
    const bool one = g->Wo == 1 && g->Ho == 1;
    dp_put(l, NVDLA_CACC_D_LINE_STRIDE_0, one ? 32 : o->line);
    dp_put(l, NVDLA_CACC_D_SURF_STRIDE_0, o->surf_reg);
    dp_put(l, NVDLA_CACC_D_DATAOUT_MAP_0,
           one ? 0x10001u : (uint32_t)(o->line == 32 * g->Wo) | (uint32_t)(o->surf_reg == o->line * g->Ho) << 16);
    dp_put(l, NVDLA_CACC_D_CLIP_CFG_0, g->trunc);
    dp_put(l, NVDLA_SDP_RDMA_D_BRDMA_CFG_0, 1), dp_put(l, NVDLA_SDP_RDMA_D_NRDMA_CFG_0, 1);
    dp_put(l, NVDLA_SDP_RDMA_D_ERDMA_CFG_0, 1);
    dp_put(l, NVDLA_SDP_D_DATA_CUBE_WIDTH_0, g->Wo - 1), dp_put(l, NVDLA_SDP_D_DATA_CUBE_HEIGHT_0, g->Ho - 1);
    dp_put(l, NVDLA_SDP_D_DATA_CUBE_CHANNEL_0, g->K - 1);
    dp_put(l, NVDLA_SDP_D_DST_BASE_ADDR_LOW_0, c->dst.addr), dp_put(l, NVDLA_SDP_D_DST_BASE_ADDR_HIGH_0, 0);
    dp_put(l, NVDLA_SDP_D_DST_LINE_STRIDE_0, o->line), dp_put(l, NVDLA_SDP_D_DST_SURFACE_STRIDE_0, o->surf_reg);
    dp_put(l, NVDLA_SDP_D_DST_DMA_CFG_0, nvf_ram(c->dst)), dp_put(l, NVDLA_SDP_D_DST_BATCH_STRIDE_0, c->out_bstride);
}

void nvf_conv_regs_put(dp_wlist_t *l, const nvf_conv_layer_t *g, const nvf_conv_regs_t *c)
{
    cdma_put(l, g, c);
    csc_put(l, g, c);
    cacc_sdp_put(l, g, c);
}
#endif
