/* SDP and PDP of a configuration with 32-byte atoms (nv_full: a surface holds 32 INT8 or 16 INT16 channels, a
 * pixel one atom), at INT8 and INT16, from memory to memory: the arithmetic of the nv_small models (sdp_x_stage,
 * the converter, max/min pooling), NVIDIA's cmod the reference for what differs (hls/sdp/sdp_c.cpp: INT16 output
 * saturates the same 17-bit value to 16 bits; sdp/NV_NVDLA_sdp.cpp: an INT16 input element is sign-extended,
 * unshifted). CDP at INT16 follows cmod's arithmetic (cdp_atom32.c). PDP at FP16 (MAX, MIN, AVERAGE), SDP's X
 * stages and CDP at FP16 follow cmod's (pdp_fp16.c, sdp_fp16.c, cdp_fp16.c; CDP's channels outside the cube +0, as
 * nv_full's RTL reads them, where cmod reads D_DATIN_OFFSET: cdp_fp16.h). SDP's operand DMAs (sdp_opdma32.h) and its
 * EW stage's multiplier and ALU at INT8/INT16 (sdp_ew.h) and FP16 (sdp_ew_fp16.h) follow cmod's layout and
 * arithmetic. What these do not compute (FP16 mixed with another precision in SDP, the EW stage with its LUT, SDP
 * fed by CACC into a Winograd or batched layer feeding PDP, split width on the fly, PDP average pooling with a kernel over 8) is refused with an error naming it. PDP's
 * INT8/INT16 average pooling follows the RTL's widths (pdp_golden.c pdp_avg_nvf_*). */
#ifndef DP_ATOM32_H
#define DP_ATOM32_H
#include "nvdla_dp.h"
#include "pdp_fp16.h"
#include "sdp_fp16.h"

#define NV_ATOM32 32u

/* A cube of `esz`-byte elements in 32-byte atoms: element (s, y, x, lane) at v[((s*h + y)*w + x)*lanes + lane],
 * lanes = 32 / esz per atom, pad lanes of the last surface kept (they are written back as the hardware does). */
typedef struct cube32 {
    uint32_t w, h, c, s, esz, lanes;
    int32_t *v;
} cube32_t;

typedef struct place32 {
    uint64_t space; /* 0 or NVDLA_CV_SPACE: the memory of the RAM-type bit */
    uint32_t base, line, surf;
} place32_t;

/* Allocates (zeroed); false, with an error naming unit and group, beyond NV_CUBE_MAX_BYTES. */
bool cube32_alloc(const nvdla_dp_ctx_t *ctx, const char *unit, int group, cube32_t *c, uint32_t w, uint32_t h,
                  uint32_t ch, uint32_t esz);
static inline int32_t *cube32_atom(const cube32_t *c, uint32_t s, uint32_t y, uint32_t x)
{
    return c->v + (((size_t)s * c->h + y) * c->w + x) * c->lanes;
}
void cube32_read(const nvdla_dp_ctx_t *ctx, cube32_t *c, const place32_t *p);
/* Writes every atom (values already in range) and emits the written box. */
void cube32_write(const nvdla_dp_ctx_t *ctx, const cube32_t *c, const place32_t *p, const char *unit, int group);
/* Addresses and strides multiples of 32, else an error. */
bool dp32_aligned(const nvdla_dp_ctx_t *ctx, const char *what, int group, const place32_t *p);
/* Where SDP (SDP_RDMA's read, the write DMA) puts a w x h cube: a 1x1 cube's surfaces back to back, whatever the
 * surface stride register says (spec nvdla_datapath.md 1.2, "1x1 packing", here with 32-byte atoms). */
void sdp32_place_1x1(place32_t *p, uint32_t w, uint32_t h);
/* Element size of a precision field (0 INT8, 1 INT16), or 0 with an error naming what is not computed. */
uint32_t dp32_esz(const nvdla_dp_ctx_t *ctx, const char *what, int group, unsigned prec);
struct sdp_x_cfg;
/* SDP's X stage at offset off (BS 0x58, BN 0x6c) of SDP's CONSUMER group; false, with an error, when it takes an
 * operand from memory (the convolution's SDP on the fly: conv_atom32.c; sdp32_run reads operand DMAs itself). */
bool sdp32_stage_cfg(const nvdla_pp_t *sdp, const nvdla_dp_ctx_t *ctx, int group, uint32_t off, const char *name,
                     struct sdp_x_cfg *c);
/* An X stage's registers for FP16 (sdp_fp16.h): the operands are the registers' 16 bits, FP16. */
sdp_fp16_stage_t sdp32_fp16_stage(const struct sdp_x_cfg *x);

struct pdp_pool_cfg;
/* PDP's FP16 configuration (pdp_fp16.h) of a pooling configuration (pdp_golden.h), padding values 0. */
pdp_fp16_cfg_t pdp32_fp16_cfg(const struct pdp_pool_cfg *p, bool nan_to_zero);

/* SDP layer of SDP's and SDP_RDMA's CONSUMER groups (the model's windows, nvdla_pp.h). */
void sdp32_run(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group);
struct sdp_lut;
struct sdp_lut_stats;
/* The same with the EW stage's LUT table (sdp_lut.h: S_LUT_ACCESS_* as stored); without it (NULL) a layer with the
 * LUT on is refused. stats (may be NULL): the lookups' outcomes are counted there. */
void sdp32_run_lut(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const struct sdp_lut *lut, const nvdla_dp_ctx_t *ctx,
                   int group, struct sdp_lut_stats *stats);
/* sdp32_run_lut without the write: SDP's output cube (allocated; the caller frees out->v) and where the write DMA
 * would put it; false, with an error naming what, when the layer is not computed (nothing allocated then). */
bool sdp32_compute_lut(const nvdla_pp_t *sdp, const nvdla_pp_t *rdma, const struct sdp_lut *lut,
                       const nvdla_dp_ctx_t *ctx, int group, struct sdp_lut_stats *stats, cube32_t *out,
                       place32_t *dst);
/* PDP layer (PDP_RDMA reading memory) of their CONSUMER groups. */
void pdp32_run(const nvdla_pp_t *pdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group);
/* PDP on the fly (FLYING_MODE on): SDP's layer from memory (sdp32_compute_lut, with its LUT table and stats as
 * sdp32_run_lut's, nothing written by SDP) streamed into PDP's layer of pdp_group, pooled as from memory except that
 * NAN_FLUSH_TO_ZERO is not applied (it acts on PDP_RDMA's stream only), without split (NVIDIA's firmware asserts
 * SPLIT_NUM 0 on the fly, kmd/firmware/pdp.c:355). PDP's cube and precision must be SDP's output's, else an error
 * names the difference. */
void pdp32_fly_run(const nvdla_pp_t *sdp, const nvdla_pp_t *sdp_rdma, const struct sdp_lut *lut,
                   struct sdp_lut_stats *stats, const nvdla_pp_t *pdp, const nvdla_dp_ctx_t *ctx, int sdp_group,
                   int pdp_group);
/* PDP's layer of `group` on the fly from SDP's output cube `in` (a convolution's: conv_atom32.c). */
void pdp32_fly_pool(const nvdla_pp_t *pdp, const nvdla_dp_ctx_t *ctx, int group, const cube32_t *in);
struct cdp_lut;
struct cdp_lut_stats;
/* CDP layer (CDP_RDMA reading memory) of their CONSUMER groups, INT8, INT16 or FP16 (cdp_atom32.c); false, with an error
 * naming what, when the model does not compute it. stats (may be NULL): the lookups' outcomes are added there. */
bool cdp32_run(const nvdla_pp_t *cdp, const nvdla_pp_t *rdma, const struct cdp_lut *lut, const nvdla_dp_ctx_t *ctx,
               int group, struct cdp_lut_stats *stats);
/* RUBIK, nv_full only: its registers in nv_full's layout (arnvdla.h) at this window of the model, whose own map
 * has none (tb/nvdla/nvdla_config.c maps nv_full's 0x10000 here). */
#define NVDLA_RBK_MODEL_BASE 0x11000u
/* RUBIK layer of its CONSUMER group (rubik_atom32.c): contract mode; false, with an error naming what, otherwise. */
bool rubik32_run(const nvdla_pp_t *rbk, const nvdla_dp_ctx_t *ctx, int group);
/* A direct convolution (CDMA..CACC of units[], conv_golden.h) at INT8 or INT16 with its SDP on the fly, writing
 * SDP's output; false, with an error naming what, when the model does not compute the layer (conv_atom32.c). */
/* sdp_rdma: SDP_RDMA's window (the operand DMAs of an FP16 layer, sdp_opdma32.h) */
/* A convolution layer the model does not compute: an error "CONV grp <group>: <what>: not computed for 32-byte atoms
 * yet", false (conv_atom32.c, conv_image32.c). */
bool conv32_refuse(const nvdla_dp_ctx_t *ctx, int group, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* How a convolution's model refuses a layer: conv32_refuse, or the Winograd model's own (conv_wino_atom32.c). */
typedef bool conv32_refuser_t(const nvdla_dp_ctx_t *ctx, int group, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* SDP's output after a convolution of Wo x Ho x K (direct or Winograd, the same registers and checks): its precision
 * (D_DATA_FORMAT.OUT_PRECISION; after an FP16 convolution SDP must process FP16 and write FP16 or INT16), element
 * size, cube (SDP's D_DATA_CUBE_* the convolution's output) and place (D_DST_*). False when refused, through `refuse`
 * for convolution group `group`, or with dp32_esz's error. */
bool conv32_sdp_out(const nvdla_pp_t *sdp, const nvdla_dp_ctx_t *ctx, int group, bool fp16, uint32_t Wo, uint32_t Ho,
                    uint32_t K, conv32_refuser_t *refuse, unsigned *out_prec, uint32_t *out_esz, place32_t *dst);
/* pdp: PDP's window, which SDP's output streams into when its OUTPUT_DST is PDP (one batch; NULL: refused) */
bool conv32_run(const nvdla_pp_t *units, const nvdla_pp_t *sdp, const nvdla_pp_t *sdp_rdma, const nvdla_pp_t *pdp,
                const nvdla_dp_ctx_t *ctx);
/* The same for a Winograd layer (CDMA D_MISC_CFG.CONV_MODE 1) at INT8 or INT16 (conv_wino_atom32.c). */
bool conv32_wino_run(const nvdla_pp_t *units, const nvdla_pp_t *sdp, const nvdla_dp_ctx_t *ctx);
#endif
