/* SDP's Y (EW) stage LUT on nv_full at INT8/INT16 processing: the table store behind S_LUT_ACCESS_CFG/DATA as the
 * RTL keeps it (NV_NVDLA_SDP_reg.v, NV_NVDLA_SDP_CORE_Y_lut.v) and the lookup as NVIDIA's C model computes it (cmod
 * hls/sdp/sdp_y_idx.cpp: the index, fraction, underflow and overflow of each table and the choice between them, the
 * rule CDP shares, nv_lut_select.h; hls_wrapper/sdp_hls_wrapper.cpp: the entries and the out-of-range operands;
 * hls/sdp/sdp_y_inp.cpp: the interpolation, or the slope outside the tables). FP16: sdp_lut_fp16.h. */
#ifndef SDP_LUT_H
#define SDP_LUT_H
#include "nv_lut_select.h"
#include "nv_lut_slopes.h"
#include "nvdla_pp.h"
#include <stdbool.h>
#include <stdint.h>

#define SDP_LUT_LE_N 65
#define SDP_LUT_LO_N 257

/* The two tables and the access pointer. The RTL's pointer is 10 bits: set by a CFG write, advanced by every DATA
 * write or read (past the table's end too, wrapping at 1024); a DATA write stores only when CFG's ACCESS_TYPE is
 * write and the pointer is inside the selected table (cmod's pointer instead stops at the last entry). */
typedef struct sdp_lut {
    int16_t le[SDP_LUT_LE_N], lo[SDP_LUT_LO_N];
    uint32_t addr;
    bool table_lo, write;
} sdp_lut_t;

void sdp_lut_cfg_write(sdp_lut_t *t, uint32_t data);  /* S_LUT_ACCESS_CFG */
void sdp_lut_data_write(sdp_lut_t *t, uint32_t data); /* S_LUT_ACCESS_DATA written */
void sdp_lut_data_read(sdp_lut_t *t);                 /* S_LUT_ACCESS_DATA read: the pointer advances */

/* S_LUT_CFG .. S_LUT_LO_SLOPE_SHIFT (single registers, both groups share them). */
typedef struct sdp_lut_cfg {
    bool le_linear, uflow_lo, oflow_lo, hybrid_lo;
    int le_index_offset, le_index_select, lo_index_select; /* 8-bit signed */
    int64_t le_start, le_end, lo_start, lo_end;            /* 32-bit signed */
    nv_lut_slopes_t slopes; /* S_LUT_{LE,LO}_SLOPE_{SCALE,SHIFT}: the same fields as CDP's */
} sdp_lut_cfg_t;

sdp_lut_cfg_t sdp_lut_cfg_read(const nvdla_pp_t *sdp);

/* How one lookup went, for coverage: each table's state (nv_lut_state_t) and the table that answered. */
typedef struct sdp_lut_out {
    unsigned le, lo;
    bool use_lo;
    unsigned entry; /* the entry y0 of the table that answered (0 under, the last over); a hit reads entry + 1 too */
} sdp_lut_out_t;

/* NULL when the model computes the configuration, else what it does not compute (where cmod's C is undefined). */
const char *sdp_lut_refusal(const sdp_lut_cfg_t *c);
/* The LUT on x (the Y core's 32-bit output); its 32-bit result. out (may be NULL): how it went. */
int64_t sdp_lut_int(const sdp_lut_cfg_t *c, const sdp_lut_t *t, int64_t x, sdp_lut_out_t *out);

/* The outcomes of a layer's lookups, for functional coverage: [LE linear][outcome] (SDP_LUT_OUTCOMES). */
enum {
    SDP_LUT_LE_ONLY,  /* LE hit, LO missed */
    SDP_LUT_LO_ONLY,  /* LO hit, LE missed */
    SDP_LUT_BOTH_LE,  /* both hit, the hybrid priority took LE */
    SDP_LUT_BOTH_LO,  /* ... LO */
    SDP_LUT_UFLOW_LE, /* both under, the underflow priority took LE */
    SDP_LUT_UFLOW_LO, /* ... LO */
    SDP_LUT_OFLOW_LE, /* both over, the overflow priority took LE */
    SDP_LUT_OFLOW_LO, /* ... LO */
    SDP_LUT_MIXED_LE, /* one under, the other over, the hybrid priority took LE */
    SDP_LUT_MIXED_LO, /* ... LO */
    SDP_LUT_OUTCOMES
};
typedef struct sdp_lut_stats {
    unsigned prec; /* D_DATA_FORMAT.PROC_PRECISION: 0 INT8, 1 INT16, 2 FP16 */
    bool le_linear;
    uint64_t n[SDP_LUT_OUTCOMES];
} sdp_lut_stats_t;
/* inline: the FP16 path (sdp_fp16.c) counts outcomes without the register reader of sdp_lut.c */
static inline unsigned sdp_lut_outcome(const sdp_lut_out_t *o)
{
    if (o->le == NV_LUT_HIT && o->lo != NV_LUT_HIT) return SDP_LUT_LE_ONLY;
    if (o->lo == NV_LUT_HIT && o->le != NV_LUT_HIT) return SDP_LUT_LO_ONLY;
    const unsigned base = o->le == NV_LUT_HIT                       ? SDP_LUT_BOTH_LE
                          : o->le == o->lo && o->le == NV_LUT_UFLOW ? SDP_LUT_UFLOW_LE
                          : o->le == o->lo                          ? SDP_LUT_OFLOW_LE
                                                                    : SDP_LUT_MIXED_LE;
    return base + o->use_lo;
}
#endif
