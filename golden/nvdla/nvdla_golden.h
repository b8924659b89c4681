/* Register-level golden model of the NVDLA units: BDMA, the convolution pipeline (CDMA..CACC, conv_golden.h),
 * SDP(+RDMA), PDP(+RDMA), CDP(+RDMA).
 * Input: the CSB writes a bus monitor saw, in order, and the memory they act on (the model's own shadow
 * of the DUT's memory). Output: the memory after each unit's work, the written regions with their
 * coordinates, and the interrupt bits the work raises. Pure C11, no simulator headers. */
#ifndef NVDLA_GOLDEN_H
#define NVDLA_GOLDEN_H
#include "mem.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a box's bytes map to coordinates: BDMA lines, a feature cube (surface = 8 channels, line = h,
 * 8 bytes per w), or a 1x1 cube whose surfaces are packed contiguously (byte offset = channel). */
typedef enum { NVDLA_BOX_LINES = 0, NVDLA_BOX_CUBE, NVDLA_BOX_PACKED } nvdla_box_kind_t;

/* The second memory of a configuration with a CVIF (nv_full's CVSRAM): its bytes live in the same sparse memory
 * as DBB's, at NVDLA_CV_SPACE + the 32-bit address a unit puts on the CVIF port (DBB's at the address itself), so
 * a stimulus, the fence and the scoreboard address both memories with one 64-bit address. */
#define NVDLA_CV_SPACE (1ull << 32)

/* One written region: `surfs` surfaces of `lines` lines of `line_bytes` bytes (strided box). */
typedef struct nvdla_box {
    char unit[8];   /* "BDMA", "SDP", "PDP", "CDP", "RUBIK" */
    uint64_t space; /* 0 (DBB) or NVDLA_CV_SPACE: the memory the box is in; addr wraps inside it */
    nvdla_box_kind_t kind;
    int group; /* launch group / ping-pong group */
    int cmd;   /* BDMA: command index within the group */
    uint32_t addr;
    uint32_t line_bytes, lines, surfs;
    uint32_t line_stride, surf_stride;
} nvdla_box_t;

typedef struct nvdla_golden nvdla_golden_t;

/* What the model runs, as it sees it (for functional coverage): one BDMA launch, one convolution, or one SDP/PDP/CDP layer with
 * the registers of its ping-pong units (nvdla_pp.h; CONSUMER group = the layer's). */
typedef enum {
    NVDLA_LAYER_BDMA,
    NVDLA_LAYER_SDP,
    NVDLA_LAYER_PDP,
    NVDLA_LAYER_CDP,
    NVDLA_LAYER_CONV,
    NVDLA_LAYER_RUBIK,   /* nv_full: core = RUBIK's registers in nv_full's layout (dp_atom32.h) */
    NVDLA_LAYER_CDP_LUT, /* nv_full: after a CDP layer ran, lut = its lookups' outcomes (core, rdma as for CDP) */
    NVDLA_LAYER_SDP_LUT  /* nv_full: after an SDP layer with its EW LUT ran, sdp_lut = its lookups' outcomes */
} nvdla_layer_unit_t;
struct nvdla_pp;
struct bdma_cmd;
struct conv_layer;
struct nv_acc_cube;
struct cdp_lut_stats;
struct sdp_lut_stats;
typedef struct nvdla_layer {
    nvdla_layer_unit_t unit;
    int group;
    const struct nvdla_pp *core, *rdma; /* SDP/PDP/CDP; rdma is NULL for PDP fed on the fly */
    const struct bdma_cmd *cmds;        /* BDMA: the launched commands */
    int ncmds;
    bool onfly;                          /* SDP output to PDP / PDP input from SDP */
    bool flying;                         /* SDP input from the convolution pipeline (CACC) */
    const struct conv_layer *conv;       /* CONV: the layer as decoded (core = CSC); with atom32: NULL, core = CDMA and
                                        rdma = the SDP it feeds, sampled before the model computes it */
    unsigned conv_index;                 /* CONV: convolution layers before this one since reset */
    bool bank_change;                    /* CONV: CBUF bank split differs from the previous layer's (or first) */
    uint32_t sdp_saturated;              /* SDP: D_PERF_OUT_SATURATION of the layer */
    bool atom32;                         /* the configuration has 32-byte atoms (nv_full): set by the model */
    const struct cdp_lut_stats *lut;     /* CDP_LUT */
    const struct sdp_lut_stats *sdp_lut; /* SDP_LUT */
    const struct mem *mem;               /* the model's memory as the layer starts (set by the model): its input */
} nvdla_layer_t;
typedef void (*nvdla_layer_hook_t)(void *user, const nvdla_layer_t *layer);
/* Called before each launch/layer runs in the model. */
void nvdla_golden_set_layer_hook(nvdla_golden_t *g, nvdla_layer_hook_t hook, void *user);

nvdla_golden_t *nvdla_golden_new(mem_t *mem);
/* The configuration's differences the modelled engines follow (default: nv_small's). cvif: the RAM-type bits of
 * BDMA, SDP and PDP select DBB or CVSRAM (NVDLA_CV_SPACE). atom_bytes 32 (nv_full; else 8): SDP and PDP run with
 * 32-byte atoms at INT8/INT16 (dp_atom32.h). The caller maps the configuration's register addresses onto the
 * model's own (tb/nvdla/nvdla_config.c) and refuses the engines the model does not compute for it. */
typedef struct nvdla_golden_cfg {
    bool cvif;
    unsigned atom_bytes;
} nvdla_golden_cfg_t;
void nvdla_golden_configure(nvdla_golden_t *g, const nvdla_golden_cfg_t *cfg);
void nvdla_golden_free(nvdla_golden_t *g);
/* A CSB write (byte address, data) as accepted by the DUT. */
void nvdla_golden_write(nvdla_golden_t *g, uint32_t addr, uint32_t data);
/* Regions written since the last call; the array stays valid until the next golden call. */
const nvdla_box_t *nvdla_golden_take_boxes(nvdla_golden_t *g, size_t *n);
/* CACC's output (what SDP receives) of each convolution layer computed since the last call, oldest first;
 * valid until the next call. */
typedef struct nvdla_conv_out {
    int group;
    struct nv_acc_cube *acc;
} nvdla_conv_out_t;
const nvdla_conv_out_t *nvdla_golden_take_conv(nvdla_golden_t *g, size_t *n);
/* Every output box the model holds now (those of the last check and newer), without taking them. */
const nvdla_box_t *nvdla_golden_boxes(const nvdla_golden_t *g, size_t *n);
/* GLB interrupt bits the model expects to be set (or set-able) now: launched groups and SET writes not
 * yet cleared through S_INTR_STATUS. */
uint32_t nvdla_golden_intr_expected(const nvdla_golden_t *g);
/* SDP layers fed on the fly by the convolution pipeline that the model does not compute (a refused
 * configuration, reported as an error): their output is checked only by the stimulus' own CRC. */
unsigned nvdla_golden_unmodelled(const nvdla_golden_t *g);
/* Programming errors the model detected (empty launch, queue overflow), one per line; "" if none. */
const char *nvdla_golden_errors(const nvdla_golden_t *g);
/* A per-group RO result register (SDP D_STATUS*, D_PERF_LUT_*, D_PERF_OUT_SATURATION; PDP D_*_NUM; CDP D_*_NUM,
 * D_OUT_SATURATION, D_PERF_LUT_*) read now, at CSB acceptance: true and *expect = the PRODUCER group's value
 * when that group's last layer is known complete in the DUT (or never ran); false for any other address or
 * while the DUT may still be running it. */
bool nvdla_golden_result(const nvdla_golden_t *g, uint32_t addr, uint32_t *expect);
/* The DUT's GLB S_INTR_STATUS done bits seen set (bit 0/1 SDP, 2/3 CDP, 4/5 PDP group 0/1): one completion
 * of each settles that group's result registers. */
void nvdla_golden_done_seen(nvdla_golden_t *g, uint32_t status);
/* Where `addr` lies in a box: surface, line and byte offset in the line (outputs may be NULL). False if the
 * box does not hold it. Addresses wrap modulo 2^32 like the hardware's. */
bool nvdla_box_locate(const nvdla_box_t *b, uint32_t addr, uint32_t *surf, uint32_t *line, uint32_t *off);
/* Coordinates of `addr` inside a box: "BDMA grp 0 cmd 2 surf 1 line 3 byte 17", "SDP grp 1 c 13 h 2 w 5". */
void nvdla_box_coord(const nvdla_box_t *b, uint32_t addr, char *buf, size_t n);
#endif
