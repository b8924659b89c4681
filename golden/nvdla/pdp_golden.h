/* PDP (+PDP_RDMA) golden model, nv_small INT8 (spec nvdla_datapath.md §3; its pooling arithmetic, with nv_full's
 * widths, also nv_full's INT8 and INT16 in dp_atom32.c): MAX/MIN over the real window
 * elements, AVERAGE with pad values, the 11/14-bit wraps and the two-step reciprocal RQ rounding. Split
 * width gives the unsplit result, so the model computes the whole plane at once. */
#ifndef PDP_GOLDEN_H
#define PDP_GOLDEN_H
#include "nvdla_dp.h"
#include <stdbool.h>
#include <stdint.h>

/* RQ(v, r, P, N) of §3.3: multiply by Q0.16, round, keep N bits (positive overflow wraps). */
int64_t pdp_rq(int64_t v, uint32_t r, unsigned P, unsigned N);

typedef struct pdp_pool_cfg {
    unsigned method; /* 0 AVG, 1 MAX, 2 MIN */
    unsigned kw, kh, sw, sh, pl, pt, pr, pb;
    uint32_t recip_w, recip_h;
    int64_t pv[9]; /* PV[1..7] = SX_19(pad value n); [0], [8] = 0 */
} pdp_pool_cfg_t;

/* The integer widths of AVERAGE pooling, which differ by configuration and precision: row sums (cal1d) and the 1-D
 * pad value's sign bit, the column sum (cal2d), the sum after the 2-D pad, and the two RQ steps' P and N. */
typedef struct pdp_avg_bits {
    unsigned row, pad1d, col, sum, p1, n1, p2, n2;
} pdp_avg_bits_t;
/* nv_small INT8 (spec 3.3); nv_full INT8 and INT16 (its RTL, pdp_golden.c) */
extern const pdp_avg_bits_t pdp_avg_nv_small, pdp_avg_nvf_int8, pdp_avg_nvf_int16;

/* One output element of lane plane `plane` (w x h values, row-major) for MAX, MIN or AVERAGE with widths b. */
int32_t pdp_pool_one(const pdp_pool_cfg_t *c, const pdp_avg_bits_t *b, const int32_t *plane, unsigned wi, unsigned hi,
                     unsigned ox, unsigned oy);

/* The pooling configuration of PDP's CONSUMER group, and its geometry checked against the cube sizes. */
pdp_pool_cfg_t pdp_pool_cfg(const nvdla_pp_t *pdp);
void pdp_check_cfg(const nvdla_dp_ctx_t *ctx, int group, const pdp_pool_cfg_t *c, unsigned wi, unsigned hi, unsigned wo,
                   unsigned ho);
bool pdp_golden_offfly_runnable(const nvdla_pp_t *pdp, const nvdla_pp_t *rdma);
/* PDP is enabled and waits for the SDP stream (flying_mode 0). */
bool pdp_golden_onfly_ready(const nvdla_pp_t *pdp);
/* Runs the job; `onfly` is the SDP output stream, or NULL to read through PDP_RDMA. */
void pdp_golden_run(const nvdla_pp_t *pdp, const nvdla_pp_t *rdma, const nvdla_dp_ctx_t *ctx, int group,
                    const nv_cube_t *onfly);
#endif
