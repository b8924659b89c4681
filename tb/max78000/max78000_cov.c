/* MAX78000 functional coverage table and sampling (see max78000_cov.h). Combinations the hardware cannot
 * form are excluded by each cross's `allowed` rule (with the reason); bins no legal nightly job hits yet are
 * listed with their reason in tb/max78000/max78000_cov_waivers.tsv. */
#include "max78000_cov.h"
#include "max78000_regs.h"

static const char *const L_KERNEL[] = {"1x1", "3x3", "1d"};
static const char *const L_FMT[] = {"hwc", "chw"};
static const char *const L_POOL[] = {"none", "max", "avg"};
static const char *const L_POOLK[] = {"max", "avg"};
static const char *const L_PSIZE[] = {"1x1", "2x2", "other"};
static const char *const L_STRIDE[] = {"1", "2+"};
static const char *const L_OWIDTH[] = {"8bit", "32bit"};
static const char *const L_OFFON[] = {"off", "on"};
static const char *const L_SHIFT[] = {"right", "none", "left"};
static const char *const L_PASSES[] = {"1", "2-16", "17-256"};
static const char *const L_NQ[] = {"1", "2", "3", "4"};
static const char *const L_NPROC[] = {"1-4", "5-16", "17-64"};
static const char *const L_LAYER[] = {"first", "later"};
static const char *const L_QB[] = {"8bit", "4bit", "2bit", "1bit"};
static const char *const L_M3OP[] = {"conv", "eltwise_conv", "eltwise_only", "passthrough", "deconv"};
static const char *const L_EFUNC[] = {"sub", "add", "or", "xor"};
static const char *const L_NOP[] = {"2", "3-16"};
static const char *const L_INSRC[] = {"memory", "fifo", "fast_fifo"};

enum {
    X_KERNEL_FMT,
    X_POOL_KERNEL,
    X_POOL_SHAPE,
    X_OUTPUT,
    X_BIAS_SHIFT,
    X_FLATTEN_PASSES,
    X_QUAD_PROC,
    X_RUN_MODE,
    X_WBITS_KERNEL,
    X_M3_OP_POOL,
    X_EWISE,
    X_INPUT_STREAM,
    X_N
};

/* X = ((flatten_en ? xpmp_cnt : 0) << 4 | inpchexp) + 1 (spec 3.4): without flatten_en X <= 16; flatten_en only
 * extends the pass count, so with a single pass it is no feature. */
static bool flatten_allowed(const unsigned *v) { return !(v[0] == 0 && v[1] == 2) && !(v[0] == 1 && v[1] == 0); }
/* One quadrant holds 16 processors. */
static bool quad_allowed(const unsigned *v) { return !(v[0] == 0 && v[1] == 2); }

#define D FCOV_DIM
static const fcov_cross_t crosses[X_N] = {
    [X_KERNEL_FMT] = {"kernel_x_input_format", 2, {D("kernel", L_KERNEL), D("format", L_FMT)}, NULL},
    [X_POOL_KERNEL] = {"pooling_x_kernel", 2, {D("pool", L_POOL), D("kernel", L_KERNEL)}, NULL},
    [X_POOL_SHAPE] = {"pooling_x_window_x_stride",
                      3,
                      {D("pool", L_POOLK), D("window", L_PSIZE), D("stride", L_STRIDE)},
                      NULL},
    [X_OUTPUT] = {"output_width_x_relu_x_abs", 3, {D("width", L_OWIDTH), D("relu", L_OFFON), D("abs", L_OFFON)}, NULL},
    [X_BIAS_SHIFT] = {"bias_x_output_shift", 2, {D("bias", L_OFFON), D("shift", L_SHIFT)}, NULL},
    [X_FLATTEN_PASSES] = {"flatten_en_x_input_passes",
                          2,
                          {D("flatten_en", L_OFFON), D("passes", L_PASSES)},
                          flatten_allowed},
    [X_QUAD_PROC] = {"quadrants_x_processors", 2, {D("quadrants", L_NQ), D("processors", L_NPROC)}, quad_allowed},
    [X_RUN_MODE] = {"oneshot_x_layer", 2, {D("oneshot", L_OFFON), D("layer", L_LAYER)}, NULL},
    [X_WBITS_KERNEL] = {"weight_bits_x_kernel", 2, {D("weight_bits", L_QB), D("kernel", L_KERNEL)}, NULL},
    /* M3 (issue 21): what a layer does beyond a convolution, with the pooling in front of it */
    [X_M3_OP_POOL] = {"layer_op_x_pooling", 2, {D("op", L_M3OP), D("pool", L_POOL)}, NULL},
    [X_EWISE] = {"eltwise_func_x_operands_x_prepool",
                 3,
                 {D("func", L_EFUNC), D("operands", L_NOP), D("prepool", L_OFFON)},
                 NULL},
    [X_INPUT_STREAM] = {"layer0_input_x_circular_buffer", 2, {D("input", L_INSRC), D("circular", L_OFFON)}, NULL},
};
#undef D

fcov_t *max78000_cov_new(void) { return fcov_new("max78000", crosses, X_N); }

static unsigned popcount16(uint16_t v)
{
    unsigned n = 0;
    for (; v; v &= (uint16_t)(v - 1)) n++;
    return n;
}

void max78000_cov_layer(fcov_t *c, const max78000_t *m, unsigned y, const max78000_lp_t lp[4])
{
    unsigned nq = 0, nproc = 0, first = 4;
    bool oneshot = false;
    for (unsigned q = 0; q < 4; q++) {
        oneshot |= (m->q[q].ctrl & MAX78000_CTRL_ONESHOT_MASK) && (m->q[q].ctrl & MAX78000_CTRL_CNN_EN_MASK);
        if (!lp[q].valid || !lp[q].pro_en) continue;
        nq++;
        nproc += popcount16(lp[q].pro_en);
        if (first == 4) first = q;
    }
    fcov_hit4(c, X_RUN_MODE, oneshot, y > 0, 0, 0);
    if (first == 4) return; /* no quadrant reads input: a pass-through or empty layer */
    const max78000_lp_t *l = &lp[first];
    const unsigned kernel = l->kh == 3 && l->kw == 3 ? 1 : l->kh == 1 && l->kw == 1 ? 0 : 2;
    fcov_hit4(c, X_KERNEL_FMT, kernel, l->chw, 0, 0);
    fcov_hit4(c, X_POOL_KERNEL, !l->pool ? 0 : l->maxpool ? 1 : 2, kernel, 0, 0);
    if (l->pool)
        fcov_hit4(c, X_POOL_SHAPE, !l->maxpool,
                  l->ph == 1 && l->pw == 1   ? 0
                  : l->ph == 2 && l->pw == 2 ? 1
                                             : 2,
                  l->st > 1, 0);
    fcov_hit4(c, X_OUTPUT, l->bigdwrt, l->relu, l->out_abs, 0);
    fcov_hit4(c, X_BIAS_SHIFT, l->bias_en, l->s < 0 ? 0 : l->s == 0 ? 1 : 2, 0, 0);
    const bool flatten = (m->q[first].lreg[MAX78000_LR_POST][y] & MAX78000_POST_FLATTEN_EN_MASK) != 0;
    fcov_hit4(c, X_FLATTEN_PASSES, flatten, l->X == 1 ? 0 : l->X <= 16 ? 1 : 2, 0, 0);
    fcov_hit4(c, X_WBITS_KERNEL, l->qb == 8 ? 0 : l->qb == 4 ? 1 : l->qb == 2 ? 2 : 3, kernel, 0, 0);
    fcov_hit4(c, X_QUAD_PROC, nq - 1, nproc <= 4 ? 0 : nproc <= 16 ? 1 : 2, 0, 0);
    const unsigned op = l->deconv ? 4 : l->passthru ? (l->ewise ? 2 : 3) : l->ewise ? 1 : 0;
    fcov_hit4(c, X_M3_OP_POOL, op, !l->pool ? 0 : l->maxpool ? 1 : 2, 0, 0);
    if (l->ewise) fcov_hit4(c, X_EWISE, l->ewise_func, l->Nop > 2, l->prepool, 0);
    if (y == 0) {
        bool fifo = false;
        for (unsigned q = 0; q < 4; q++)
            fifo |= (m->q[q].ctrl & MAX78000_CTRL_FIFO_EN_MASK) && (m->q[q].ctrl & MAX78000_CTRL_CNN_EN_MASK);
        const bool fast = fifo && (m->q[0].ctrl & MAX78000_CTRL_FFIFO_EN_MASK);
        fcov_hit4(c, X_INPUT_STREAM, fast ? 2 : fifo, l->roll != 0, 0, 0);
    }
}
