/* RUBIK (nv_full) in the golden model: its three modes, pure data movement, as NVIDIA's cmod (rubik/NV_NVDLA_rbk.cpp:
 * the Rdma, DataPath and Wdma sequences of Contract, Split and Merge) does them, read for their addressing. Its
 * registers are nv_full's layout (arnvdla.h, NVDLA_RBK_*) at the model's window (dp_atom32.h): our own map has no
 * RUBIK. Refused, by name: addresses above 4 GiB, the reserved mode and precision. */
#include "dp_atom32.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* nv_full's RUBIK registers, offsets in the unit's window (arnvdla.h NVDLA_RBK_D_*_0 less 0x10000) */
enum {
    MISC_CFG = 0x0c,
    DAIN_RAM_TYPE = 0x10,
    DATAIN_SIZE_0 = 0x14,
    DATAIN_SIZE_1 = 0x18,
    DAIN_ADDR_HIGH = 0x1c,
    DAIN_ADDR_LOW = 0x20,
    DAIN_LINE_STRIDE = 0x24,
    DAIN_SURF_STRIDE = 0x28,
    DAIN_PLANAR_STRIDE = 0x2c,
    DAOUT_RAM_TYPE = 0x30,
    DATAOUT_SIZE_1 = 0x34,
    DAOUT_ADDR_HIGH = 0x38,
    DAOUT_ADDR_LOW = 0x3c,
    DAOUT_LINE_STRIDE = 0x40,
    CONTRACT_STRIDE_1 = 0x48,
    DAOUT_SURF_STRIDE = 0x4c,
    DAOUT_PLANAR_STRIDE = 0x50,
    DECONV_STRIDE = 0x54,
};

static uint32_t reg(const nvdla_pp_t *u, uint32_t off) { return nvdla_pp_reg(u, u->base + off); }

static void rbk_error(const nvdla_dp_ctx_t *ctx, int group, const char *what)
{
    char msg[200];
    snprintf(msg, sizeof msg, "RUBIK grp %d: %s: not computed by the golden model yet", group, what);
    ctx->error(ctx->user, msg);
}

/* A mode's input and output: RAM type (1 = DBB, else CVSRAM), address, line stride and the surface or planar stride
 * the mode reads (in_surf, out_surf); both must be 32-byte aligned (the first misaligned one is reported). */
static bool rbk_places(const nvdla_pp_t *rbk, const nvdla_dp_ctx_t *ctx, int group, uint32_t in_surf, uint32_t out_surf,
                       place32_t *src, place32_t *dst)
{
    *src = (place32_t){.space = reg(rbk, DAIN_RAM_TYPE) & 1 ? 0 : NVDLA_CV_SPACE,
                       .base = reg(rbk, DAIN_ADDR_LOW),
                       .line = reg(rbk, DAIN_LINE_STRIDE),
                       .surf = reg(rbk, in_surf)};
    *dst = (place32_t){.space = reg(rbk, DAOUT_RAM_TYPE) & 1 ? 0 : NVDLA_CV_SPACE,
                       .base = reg(rbk, DAOUT_ADDR_LOW),
                       .line = reg(rbk, DAOUT_LINE_STRIDE),
                       .surf = reg(rbk, out_surf)};
    return dp32_aligned(ctx, "RUBIK (input)", group, src) && dp32_aligned(ctx, "RUBIK (output)", group, dst);
}

static void emit(const nvdla_dp_ctx_t *ctx, int group, uint64_t space, uint32_t addr, uint32_t line_bytes,
                 uint32_t lines, uint32_t line_stride)
{
    nvdla_box_t box = {.kind = NVDLA_BOX_LINES,
                       .group = group,
                       .space = space,
                       .addr = addr,
                       .line_bytes = line_bytes,
                       .lines = lines,
                       .surfs = 1,
                       .line_stride = line_stride};
    snprintf(box.unit, sizeof box.unit, "RUBIK");
    ctx->emit(ctx->user, &box);
}

/* Split: a feature cube (atoms of 32 INT8 or 16 two-byte channels) into planes, channel c at c * DAOUT_PLANAR_STRIDE,
 * line y at y * DAOUT_LINE_STRIDE, element x at x * its size; DATAOUT_CHANNEL + 1 planes (RubikWdmaSequenceSplit).
 * Each line is written from its start to the next 32-byte boundary, at least 32 bytes, the bytes past its W
 * elements zero (cmod's reorder buffer is cleared before each chunk of up to 64 pixels, whose writes are
 * max(32, elements * size) bytes rounded up to atoms). */
static bool split(const nvdla_pp_t *rbk, const nvdla_dp_ctx_t *ctx, int group, uint32_t prec)
{
    const uint32_t w = (reg(rbk, DATAIN_SIZE_0) & 0x1FFF) + 1, h = ((reg(rbk, DATAIN_SIZE_0) >> 16) & 0x1FFF) + 1;
    const uint32_t c = (reg(rbk, DATAOUT_SIZE_1) & 0x1FFF) + 1, esz = prec == 0 ? 1 : 2, lanes = NV_ATOM32 / esz;
    place32_t src, dst;
    const bool placed = rbk_places(rbk, ctx, group, DAIN_SURF_STRIDE, DAOUT_PLANAR_STRIDE, &src, &dst);
    if (!placed) return false;
    const uint32_t row = (w * esz + NV_ATOM32 - 1) / NV_ATOM32 * NV_ATOM32; /* >= 32 */
    uint8_t *line = malloc(row), atom[NV_ATOM32];
    if (!line) abort();
    for (uint32_t ch = 0; ch < c; ch++) {
        const uint32_t plane = dst.base + ch * dst.surf;
        for (uint32_t y = 0; y < h; y++) {
            memset(line, 0, row);
            for (uint32_t x = 0; x < w; x++) {
                mem_read(ctx->mem,
                         src.space | (uint32_t)(src.base + ch / lanes * src.surf + y * src.line + x * NV_ATOM32), atom,
                         NV_ATOM32);
                memcpy(line + x * esz, atom + ch % lanes * esz, esz);
            }
            mem_write(ctx->mem, dst.space | (uint32_t)(plane + y * dst.line), line, row);
        }
        emit(ctx, group, dst.space, plane, row, h, dst.line);
    }
    free(line);
    return true;
}

/* Merge: planes (channel c at c * DAIN_PLANAR_STRIDE, element x of line y at y * DAIN_LINE_STRIDE + x * its size)
 * into a feature cube of DATAIN_CHANNEL + 1 channels, atom (s, y, x) at s * DAOUT_SURF_STRIDE + y * DAOUT_LINE_STRIDE
 * + 32x; the lanes past the last channel zero (RubikWdmaSequenceMerge clears its reorder buffer). */
static bool merge(const nvdla_pp_t *rbk, const nvdla_dp_ctx_t *ctx, int group, uint32_t prec)
{
    const uint32_t w = (reg(rbk, DATAIN_SIZE_0) & 0x1FFF) + 1, h = ((reg(rbk, DATAIN_SIZE_0) >> 16) & 0x1FFF) + 1;
    const uint32_t c = (reg(rbk, DATAIN_SIZE_1) & 0x1FFF) + 1, esz = prec == 0 ? 1 : 2, lanes = NV_ATOM32 / esz;
    place32_t src, dst;
    const bool placed = rbk_places(rbk, ctx, group, DAIN_PLANAR_STRIDE, DAOUT_SURF_STRIDE, &src, &dst);
    if (!placed) return false;
    const uint32_t nsurf = (c + lanes - 1) / lanes;
    uint8_t atom[NV_ATOM32];
    for (uint32_t s = 0; s < nsurf; s++) {
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                memset(atom, 0, sizeof atom);
                for (uint32_t l = 0; l < lanes && s * lanes + l < c; l++)
                    mem_read(ctx->mem,
                             src.space | (uint32_t)(src.base + (s * lanes + l) * src.surf + y * src.line + x * esz),
                             atom + l * esz, esz);
                mem_write(ctx->mem, dst.space | (uint32_t)(dst.base + s * dst.surf + y * dst.line + x * NV_ATOM32),
                          atom, NV_ATOM32);
            }
        emit(ctx, group, dst.space, dst.base + s * dst.surf, NV_ATOM32 * w, h, dst.line);
    }
    return true;
}

bool rubik32_run(const nvdla_pp_t *rbk, const nvdla_dp_ctx_t *ctx, int group)
{
    const uint32_t mode = reg(rbk, MISC_CFG) & 3, prec = (reg(rbk, MISC_CFG) >> 8) & 3;
    if (mode == 3) {
        rbk_error(ctx, group, "mode 3 (reserved)");
        return false;
    }
    if (prec == 3) {
        rbk_error(ctx, group, "precision 3 (reserved)");
        return false;
    }
    if (reg(rbk, DAIN_ADDR_HIGH) || reg(rbk, DAOUT_ADDR_HIGH)) {
        rbk_error(ctx, group, "an address above 4 GiB (D_DAIN_ADDR_HIGH / D_DAOUT_ADDR_HIGH)");
        return false;
    }
    if (mode == 1) return split(rbk, ctx, group, prec);
    if (mode == 2) return merge(rbk, ctx, group, prec);
    /* Contract: input atom (surface (ky*sx + kx)*S + s, line y, pixel x) is output atom (surface s, pixel
     * x*sx + kx) of line ky of super line y, S = the output's surfaces (16 channels to the atom at INT16 and FP16,
     * 32 at INT8). Read addresses: cmod RubikRdmaSequenceContract; write addresses: RubikWdmaSequenceContract
     * (super line stride CONTRACT_STRIDE_1, line stride DAOUT_LINE_STRIDE). */
    const uint32_t w = (reg(rbk, DATAIN_SIZE_0) & 0x1FFF) + 1, h = ((reg(rbk, DATAIN_SIZE_0) >> 16) & 0x1FFF) + 1;
    const uint32_t sx = (reg(rbk, DECONV_STRIDE) & 31) + 1, sy = ((reg(rbk, DECONV_STRIDE) >> 16) & 31) + 1;
    const uint32_t cout = (reg(rbk, DATAOUT_SIZE_1) & 0x1FFF) + 1, lanes = prec == 0 ? 32 : 16;
    const uint32_t nsurf = (cout + lanes - 1) / lanes;
    place32_t src, dst;
    const bool placed = rbk_places(rbk, ctx, group, DAIN_SURF_STRIDE, DAOUT_SURF_STRIDE, &src, &dst);
    const uint32_t super = reg(rbk, CONTRACT_STRIDE_1);
    if (!placed || (super & (NV_ATOM32 - 1))) {
        if (super & (NV_ATOM32 - 1)) rbk_error(ctx, group, "a contract stride not a multiple of 32");
        return false;
    }
    uint8_t atom[NV_ATOM32];
    for (uint32_t s = 0; s < nsurf; s++)
        for (uint32_t y = 0; y < h; y++) {
            const uint32_t first = dst.base + s * dst.surf + y * super; /* line ky = 0 of the super line */
            for (uint32_t ky = 0; ky < sy; ky++)
                for (uint32_t x = 0; x < w; x++)
                    for (uint32_t kx = 0; kx < sx; kx++) {
                        uint32_t in = src.base + ((ky * sx + kx) * nsurf + s) * src.surf + y * src.line + x * NV_ATOM32;
                        uint32_t out = first + ky * dst.line + (x * sx + kx) * NV_ATOM32; /* modulo 2^32 */
                        mem_read(ctx->mem, src.space | in, atom, NV_ATOM32);
                        mem_write(ctx->mem, dst.space | out, atom, NV_ATOM32);
                    }
            emit(ctx, group, dst.space, first, NV_ATOM32 * w * sx, sy, dst.line);
        }
    return true;
}
