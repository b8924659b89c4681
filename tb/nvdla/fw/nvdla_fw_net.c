/* Random networks for NVIDIA's firmware (test fw_net): 3-7 memory-to-memory SDP, PDP and CDP operations (on nv_full
 * also BDMA copies and RUBIK in its three modes) on cubes of one precision, chained and branching, in 40 % of them after a
 * first convolution layer (NVIDIA's CONV_D_L0_0 of the configuration: its CONV and fused SDP descriptors, weights
 * and input, re-pointed), written as a loadable the way NVIDIA's compiler lays one out (network descriptor, operation
 * and surface lists, dependency graph, LUT list, one memory entry per tensor). The configuration (nv_small or
 * nv_full: atom, precisions, units) is a row of net_cfgs; everything else is shared.
 *
 * The dependency graph follows the firmware's scheduler (scheduler.c): an op's consumers[T] is the op of
 * type T that waits for it, and consumers[own type] is also the next op of its own type, which the firmware
 * programs into the other register group as soon as one is free (dla_dequeue_operation). So every op has at
 * most one consumer per type, a consumer of the op's own type must be the next op of that type, and an op
 * whose input another op produces has dependency_count 1 (that op's OP_COMPLETED event). Two same-type ops
 * in a row make the firmware program both register groups at once. */
#include "nvdla_fw_net.h"
#include "nvdla_fp16.h" /* nv_fp32_to_fp16: FP16 LUT entries */
#include "nvf_gen.h"    /* nvf_fp16_value: FP16 operands and inputs as nv_full's random jobs draw them */
#include "rng.h"
#include <dla_interface.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPS = 7, MAX_T = MAX_OPS + 1, ADDR_FIXED = 5 }; /* net, ops, surfaces, graph, LUTs; then tensors */

/* What a network is drawn for. nv_small: INT8, SDP/PDP/CDP (its seeds draw what they drew before nv_full was added).
 * nv_full: INT8, INT16 or FP16, BDMA and RUBIK besides, average pooling at every precision (the golden model
 * computes nv_full's INT8/INT16 average with the RTL's widths, docs/nvdla_nv_full.md). portable: what both compute alike, INT8 SDP, PDP max/min and CDP
 * without the convolution layer, so that one seed draws the same network for either map (its twin: nvdla_fw.c). The
 * atom (8 bytes on nv_small, 32 on nv_full: the firmware's dla_config.atom_size) is the map's, whatever the draw. */
typedef struct net_cfg {
    const char *name;
    uint8_t pool_first; /* pooling modes drawn: pool_first .. POOL_MODE_MIN */
    bool more_units;    /* BDMA and RUBIK, a drawn precision, inputs sized for RUBIK, padded strides */
} net_cfg_t;

static const net_cfg_t net_cfgs[] = {
    {"nv_small", POOL_MODE_AVG, false},
    {"nv_full", POOL_MODE_AVG, true},
    {"portable", POOL_MODE_MAX, false},
};

/* The precisions of a network (every op the same: the golden model computes SDP for 32-byte atoms with equal input
 * and output precisions only, CDP converts none). weight: how often an nv_full network draws it; not_computed: why a
 * network of it is refused (none now: the golden model computes FP16 SDP, PDP and CDP; an FP16 network has no
 * convolution layer, NVIDIA's nv_full one being INT16). nv_small draws nothing: INT8. */
static const struct prec_info {
    const char *name;
    uint8_t prec, esize, data_type; /* data_type: loadable.fbs DataType (HALF 2, INT16 3, INT8 4) */
    unsigned weight;
    const char *not_computed; /* why a network of it is refused, or NULL */
} precs[] = {
    {"int8", PRECISION_INT8, 1, 4, 1, NULL},
    {"int16", PRECISION_INT16, 2, 3, 1, NULL},
    {"fp16", PRECISION_FP16, 2, 2, 1, NULL},
};

typedef struct tensor {
    uint32_t w, h, c;
    int producer;
    bool planar;        /* RUBIK split's output: one plane per channel, which only the merge after it reads */
    uint8_t lpad, spad; /* atoms of padding after each line and after each surface (nv_full's draws) */
} tensor_t;

/* A tensor as a feature cube: atom-wide pixels, atom / element-size channels to a surface, its padding. */
static struct dla_data_cube cube_of(uint32_t atom, uint32_t esize, const tensor_t *t, int16_t address)
{
    uint32_t ls = (t->w + t->lpad) * atom, ss = ls * t->h + t->spad * atom, lanes = atom / esize;
    return (struct dla_data_cube){.type = DLA_MEM_MC,
                                  .address = address,
                                  .size = ss * ((t->c + lanes - 1) / lanes),
                                  .width = (uint16_t)t->w,
                                  .height = (uint16_t)t->h,
                                  .channel = (uint16_t)t->c,
                                  .line_stride = ls,
                                  .surf_stride = ss};
}

/* A converter; wide (INT16) data gets larger truncations, so that not every value saturates. */
static struct dla_cvt_param cvt(rng_t *r, bool wide)
{
    return (struct dla_cvt_param){.scale = (int16_t)rng_range(r, 1, 8),
                                  .truncate = (uint8_t)rng_range(r, 0, wide ? 8 : 4),
                                  .enable = 1,
                                  .offset = (int32_t)rng_range(r, 0, 16) - 8};
}

/* An FP16 register operand as nv_full's random jobs draw one: mostly 1/8 .. 8 of either sign, some corners. */
static int32_t fp16_operand(rng_t *r)
{
    static const nvf_fp16_mix_t m = {10, -3, 3};
    return nvf_fp16_value(r, &m);
}

static struct dla_sdp_op sdp_stage(rng_t *r, bool on, uint8_t prec)
{
    struct dla_sdp_op o = {
        .enable = on, .alu_type = SDP_ALU_OP_SUM, .type = SDP_OP_NONE, .mode = SDP_OP_PER_LAYER, .precision = prec};
    if (!on) return o;
    o.type = (uint8_t)rng_range(r, SDP_OP_NONE, SDP_OP_BOTH);
    o.alu_type = (uint8_t)rng_range(r, SDP_ALU_OP_MAX, SDP_ALU_OP_SUM);
    if (prec == PRECISION_FP16) { /* the operands' 16 bits are FP16 values; PReLU too (the multiplier on negatives) */
        const unsigned act = rng_below(r, 4);
        o.act = act < 2 ? ACTIVATION_RELU : act == 2 ? ACTIVATION_PRELU : ACTIVATION_NONE;
        o.alu_operand = fp16_operand(r), o.mul_operand = fp16_operand(r);
        o.shift_value = (uint8_t)rng_range(r, 0, 4), o.truncate = (uint8_t)rng_range(r, 0, 10); /* unused at FP16 */
        return o;
    }
    o.act = rng_chance(r, 50) ? ACTIVATION_RELU : ACTIVATION_NONE;
    o.alu_operand = (int32_t)rng_range(r, 0, 255) - 128;
    o.mul_operand = (int32_t)rng_range(r, 0, 64) - 32;
    o.shift_value = (uint8_t)rng_range(r, 0, 4);
    o.truncate = (uint8_t)rng_range(r, 0, prec == PRECISION_INT8 ? 6 : 10);
    return o;
}

/* PDP geometry with exact tiling: (w + pl + pr - k) % s == 0. */
static void pdp_dims(rng_t *r, uint32_t in, uint8_t *k, uint8_t *s, uint8_t *pa, uint8_t *pb, uint32_t *out)
{
    uint32_t kk = rng_range(r, 1, in < 3 ? in : 3), ss = rng_range(r, 1, kk < 2 ? kk : 2);
    uint32_t a = rng_chance(r, 50) ? 0 : rng_range(r, 0, kk - 1), b = rng_chance(r, 50) ? 0 : rng_range(r, 0, kk - 1);
    while ((in + a + b - kk) % ss) b = b ? b - 1 : b + 1;
    *k = (uint8_t)kk, *s = (uint8_t)ss, *pa = (uint8_t)a, *pb = (uint8_t)b;
    *out = (in + a + b - kk) / ss + 1;
}

typedef struct builder {
    nvdla_loadable_t l;
    uint8_t *owned[64];
    size_t nowned;
} builder_t;

static ld_blob_t *add_blob(builder_t *b, const char *name, const void *data, size_t n)
{
    ld_blob_t *x = &b->l.blobs[b->l.nblobs++];
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy) abort();
    memcpy(copy, data, n);
    b->owned[b->nowned++] = copy;
    *x = (ld_blob_t){.name = strdup(name), .data = copy, .size = n};
    return x;
}

static void add_mem(builder_t *b, uint64_t size, uint16_t flags, const ld_blob_t *content)
{
    uint16_t id = (uint16_t)b->l.nmems;
    ld_mem_t *m = &b->l.mems[b->l.nmems++];
    *m = (ld_mem_t){.id = id, .flags = flags, .size = size, .alignment = 4096};
    if (content) {
        m->contents = calloc(1, sizeof *m->contents);
        if (!m->contents) abort();
        m->contents[0] = (ld_content_t){content, 0};
        m->ncontents = 1;
    }
    b->l.addrs[b->l.naddrs] = (ld_addr_t){(uint16_t)b->l.naddrs, id, 0, size};
    b->l.naddrs++;
}

/* The blob of a template loadable that address-list index `index` of its task names (offset 0 of its memory). */
static const ld_blob_t *tmpl_blob(const nvdla_loadable_t *l, int16_t index)
{
    if (index < 0 || (size_t)index >= l->tasks[0].naddr) return NULL;
    const ld_addr_t *a = ld_addr_by_id(l, l->tasks[0].addr_ids[index]);
    const ld_mem_t *m = a ? ld_mem_by_id(l, a->mem_id) : NULL;
    return m && m->ncontents ? m->contents[0].blob : NULL;
}

/* NVIDIA's CONV_D_L0_0 as the network's first layer: its CONV and fused SDP descriptors, weights and input. */
typedef struct conv_block {
    struct dla_common_op_desc dep[2];
    union dla_operation_container ops[2];
    union dla_surface_container surf[2];
    const ld_blob_t *weights, *input;
} conv_block_t;

static bool conv_block(const nvdla_loadable_t *l, conv_block_t *cb)
{
    if (!l || !l->ntasks) return false;
    const ld_blob_t *dep = NULL, *ops = NULL, *surf = NULL;
    for (size_t i = 0; i < l->nblobs; i++) {
        if (strstr(l->blobs[i].name, "DEPGraph")) dep = &l->blobs[i];
        if (strstr(l->blobs[i].name, "OpList")) ops = &l->blobs[i];
        if (strstr(l->blobs[i].name, "SurfList")) surf = &l->blobs[i];
    }
    if (!dep || !ops || !surf || dep->size != sizeof cb->dep || ops->size != sizeof cb->ops ||
        surf->size != sizeof cb->surf)
        return false;
    memcpy(cb->dep, dep->data, sizeof cb->dep);
    memcpy(cb->ops, ops->data, sizeof cb->ops);
    memcpy(cb->surf, surf->data, sizeof cb->surf);
    if (cb->dep[0].op_type != DLA_OP_CONV || cb->dep[1].op_type != DLA_OP_SDP) return false;
    cb->weights = tmpl_blob(l, cb->surf[0].conv_surface.weight_data.address);
    cb->input = tmpl_blob(l, cb->surf[0].conv_surface.src_data.address);
    return cb->weights && cb->input;
}

/* The network as drawn, before it is written as a loadable: its tensors (t[0] the network input or the convolution
 * layer's output; t[k] for k >= 1 the output of op first + k - 1) and its operations, whose dependency graph follows
 * the firmware's scheduler (the top of this file). */
typedef struct net {
    rng_t r;
    const net_cfg_t *cfg;
    const struct prec_info *p; /* the network's precision */
    uint32_t atom, lanes;      /* the map's atom; channels to a surface: the atom over the element size */
    const uint8_t *lut;        /* NULL: no CDP */
    size_t lutlen;
    struct dla_lut_param fp16_lut; /* an FP16 network's LUT (lut points here): FP16 entries and slopes, FP32 bounds */
    bool with_conv;                /* ops 0 and 1 are NVIDIA's CONV_D_L0_0 (cb) */
    conv_block_t cb;
    int nops, nt, first; /* first: the first random op (2 after the convolution layer) */
    tensor_t t[MAX_T];
    struct dla_common_op_desc dep[MAX_OPS];
    union dla_operation_container ops[MAX_OPS];
    union dla_surface_container surf[MAX_OPS];
    int in_of[MAX_OPS], last_of_type[DLA_OP_NUM];
} net_t;

static const struct prec_info *prec_by_code(uint8_t prec)
{
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++)
        if (precs[i].prec == prec) return &precs[i];
    return NULL;
}

/* nv_full's precision: forced (o->precision), else drawn by weight. */
static const struct prec_info *draw_prec(rng_t *r, const nvdla_fw_net_opts_t *o)
{
    if (o->precision >= 0) return prec_by_code((uint8_t)o->precision);
    unsigned total = 0;
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) total += precs[i].weight;
    uint32_t pick = rng_below(r, total);
    for (size_t i = 0;; i++)
        if (pick < precs[i].weight) return &precs[i];
        else pick -= precs[i].weight;
}

/* nv_full's and the portable draws: in 30 % of the tensors a line and surface stride longer than the cube (nv_small's
 * seeds keep the compact layout they always had). In atoms, so that a portable network's twin has the same. */
static void draw_pads(net_t *n, tensor_t *t)
{
    if (n->cfg == &net_cfgs[0] || t->planar || !rng_chance(&n->r, 30)) return;
    t->lpad = (uint8_t)rng_range(&n->r, 0, 2), t->spad = (uint8_t)rng_range(&n->r, 0, 3);
    /* A 1x1 tensor stays packed (the draws kept): SDP reads and writes a 1x1 cube's surfaces back to back whatever its
     * strides say (spec nvdla_datapath.md 1.2; issue 38), and NVIDIA's firmware refuses a 1x1 convolution output
     * whose line stride is not one atom (conv.c). */
    if (t->w == 1 && t->h == 1) t->lpad = t->spad = 0;
}

/* float's bits, as the LUT's FP32 start and end registers hold them (their HIGH words 0). */
static uint64_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* An FP16 network's CDP table (update_lut at FP16, cmod's HLS_CDP_lookup_lut): LE linear or exponent and LO, FP16
 * entries (a falling ramp, as an LRN table falls, or a noisy one), FP32 starts and ends, FP16 slopes. Aimed at the
 * square sums of the network's values (2^-12 .. 2^16: inputs of 2^-6 .. 2^5 in up to 9 channels), or the values
 * themselves when the square sum is bypassed: lookups underflow, hit and overflow. */
static void draw_fp16_lut(rng_t *r, struct dla_lut_param *t)
{
    memset(t, 0, sizeof *t);
    const float top = (float)rng_range(r, 1, 8) / 4, step = (float)rng_range(r, 1, 16) / 1024;
    const bool noisy = rng_chance(r, 40);
    for (int i = 0; i < 65; i++)
        t->linear_exp_table[i] = (int16_t)nv_fp32_to_fp16((uint32_t)f32_bits(top - step * 4 * (float)i));
    for (int i = 0; i < 257; i++) {
        const float noise = noisy ? ((float)rng_range(r, 0, 64) - 32) / 1024 : 0;
        t->linear_only_table[i] = (int16_t)nv_fp32_to_fp16((uint32_t)f32_bits(top - step * (float)i + noise));
    }
    t->method = rng_chance(r, 50) ? LUT_METHOD_LINEAR : LUT_METHOD_EXPONENTIAL;
    const int mag = (int)rng_range(r, 8, 16); /* the table's span: up to 2^mag */
    const float start = rng_chance(r, 70) ? 0 : rng_chance(r, 50) ? -ldexpf(1, mag) : ldexpf(1, mag - 4);
    if (t->method == LUT_METHOD_LINEAR) { /* 64 entries over 2^mag: index (x - start) >> (mag - 6) */
        t->linear_exp_offset.frac_bits = (int8_t)(mag - 6 - (int)rng_range(r, 0, 3));
        t->linear_exp_start = f32_bits(start);
        t->linear_exp_end = f32_bits(start + ldexpf(64, t->linear_exp_offset.frac_bits));
    } else { /* index: the exponent of x - start less the offset: 2^-12 and up */
        t->linear_exp_offset.exp_offset = (int8_t)(-12 - (int)rng_range(r, 0, 8));
        t->linear_exp_start = f32_bits(start);
        t->linear_exp_end = f32_bits(start + ldexpf(1, t->linear_exp_offset.exp_offset + 64));
    }
    t->linear_only_offset.frac_bits = (int8_t)(mag - 8 - (int)rng_range(r, 0, 3));
    t->linear_only_start = f32_bits(start);
    t->linear_only_end = f32_bits(start + ldexpf(256, t->linear_only_offset.frac_bits));
    static const nvf_fp16_mix_t slopes = {0, -10, -2};
    t->linear_exp_underflow_slope.data_f = rng_chance(r, 30) ? 0 : nvf_fp16_value(r, &slopes);
    t->linear_exp_overflow_slope.data_f = rng_chance(r, 30) ? 0 : nvf_fp16_value(r, &slopes);
    t->linear_only_underflow_slope.data_f = rng_chance(r, 30) ? 0 : nvf_fp16_value(r, &slopes);
    t->linear_only_overflow_slope.data_f = rng_chance(r, 30) ? 0 : nvf_fp16_value(r, &slopes);
    t->hybrid_priority = (uint8_t)rng_below(r, 2), t->underflow_priority = (uint8_t)rng_below(r, 2);
    t->overflow_priority = (uint8_t)rng_below(r, 2);
}

/* Draws the network's size, precision and input, and takes the convolution layer when this seed has one (the
 * template's precision must be the network's); the description's start goes into what. Returns its length. */
static size_t net_start(net_t *n, uint64_t seed, const nvdla_fw_net_opts_t *o, char *what, size_t whatlen)
{
    rng_seed_stream(&n->r, seed, "fw_net");
    n->cfg = &net_cfgs[o->portable ? 2 : o->nv_full];
    n->atom = o->nv_full ? 32 : 8;
    n->p = &precs[0];
    n->lut = o->lut && o->lutlen == sizeof(struct dla_lut_param) ? o->lut : NULL;
    n->lutlen = o->lutlen;
    n->with_conv = conv_block(o->conv, &n->cb) && rng_chance(&n->r, 40) && !o->portable;
    n->nops = (int)rng_range(&n->r, 3, MAX_OPS), n->nt = 1;
    n->t[0] = (tensor_t){
        .w = rng_range(&n->r, 2, 12), .h = rng_range(&n->r, 2, 12), .c = rng_range(&n->r, 1, 40), .producer = -1};
    if (n->cfg->more_units) {
        n->p = draw_prec(&n->r, o);
        if (n->with_conv && n->cb.ops[1].sdp_op.dst_precision != n->p->prec) n->with_conv = false;
        if (n->p->prec == PRECISION_FP16 && n->lut) { /* NVIDIA's LRN table is INT: an FP16 one of its own */
            draw_fp16_lut(&n->r, &n->fp16_lut);
            n->lut = (const uint8_t *)&n->fp16_lut, n->lutlen = sizeof n->fp16_lut;
        }
    }
    n->lanes = n->atom / n->p->esize;
    if (n->cfg->more_units && rng_chance(&n->r, 25)) /* whole surfaces, two or three: RUBIK can contract them */
        n->t[0].c = n->lanes * rng_range(&n->r, 2, 3);
    for (int u = 0; u < DLA_OP_NUM; u++) n->last_of_type[u] = -1;
    n->first = 0;
    draw_pads(n, &n->t[0]);
    if (!n->with_conv)
        return (size_t)snprintf(what, whatlen, "%s %s in %ux%ux%u:", n->cfg->name, n->p->name, n->t[0].w, n->t[0].h,
                                n->t[0].c);
    /* ops 0 and 1: CONV and its fused SDP; the SDP's output is tensor 0 */
    memcpy(n->dep, n->cb.dep, sizeof n->cb.dep), memcpy(n->ops, n->cb.ops, sizeof n->cb.ops);
    memcpy(n->surf, n->cb.surf, sizeof n->cb.surf);
    const struct dla_data_cube *out = &n->cb.surf[1].sdp_surface.dst_data;
    n->t[0] = (tensor_t){.w = out->width,
                         .h = out->height,
                         .c = out->channel,
                         .producer = 1,
                         .lpad = n->t[0].lpad,
                         .spad = n->t[0].spad};
    n->in_of[0] = n->in_of[1] = -1;
    n->last_of_type[DLA_OP_CONV] = 0, n->last_of_type[DLA_OP_SDP] = 1;
    n->first = 2;
    if (n->nops < 4) n->nops = 4;
    const struct dla_data_cube *ci = &n->cb.surf[0].conv_surface.src_data;
    return (size_t)snprintf(what, whatlen,
                            "%s %s 0:CONV(NVIDIA CONV_D_L0_0, %ux%ux%u) 1:SDP(fused)->%ux%ux%u:", n->cfg->name,
                            n->p->name, ci->width, ci->height, ci->channel, n->t[0].w, n->t[0].h, n->t[0].c);
}

/* RUBIK contracts whole surfaces (cmod's contract sequences: input surface (ky * sx + kx) * S + s): a tensor of
 * k * lanes channels becomes one surface of lanes channels, k = sx * sy. */
static bool contractible(const net_t *n, const tensor_t *t) { return t->c % n->lanes == 0; }

/* Op j's type, drawn: nv_small's draw is the one its seeds always had. */
static uint8_t draw_type(net_t *n, int j)
{
    if (j > 0 && rng_chance(&n->r, 30)) return n->dep[j - 1].op_type; /* same type again: both groups */
    if (!n->cfg->more_units) return (uint8_t)rng_range(&n->r, DLA_OP_SDP, n->lut ? DLA_OP_CDP : DLA_OP_PDP);
    /* the datapath units twice as often as the data movers; CDP last (no LUT: none) */
    static const uint8_t types[] = {DLA_OP_SDP,  DLA_OP_SDP,   DLA_OP_PDP, DLA_OP_PDP,
                                    DLA_OP_BDMA, DLA_OP_RUBIK, DLA_OP_CDP, DLA_OP_CDP};
    return types[rng_below(&n->r, n->lut ? 8 : 6)];
}

/* Op j's type and input tensor: drawn until the firmware's graph can express them (an op has at most one consumer
 * per type; one of its own type must be the next op of that type) and the unit can take the input. Returns the input
 * tensor. */
static int pick_op(net_t *n, int j, uint8_t *type)
{
    int in = -1;
    for (int tries = 0; in < 0; tries++) {
        *type = draw_type(n, j);
        int cand = tries > 20 ? 0 : rng_chance(&n->r, 65) ? n->nt - 1 : (int)rng_below(&n->r, (uint32_t)n->nt);
        int p = n->t[cand].producer;
        if (n->t[cand].planar) in = -1;
        else if (*type == DLA_OP_RUBIK && !contractible(n, &n->t[cand]) && j + 1 >= n->nops) in = -1; /* no split */
        else if (p < 0) in = cand; /* the network input */
        else if (n->dep[p].consumers[*type].index == -1 && (n->dep[p].op_type != *type || n->last_of_type[*type] == p))
            in = cand;
        if (tries > 20 && in < 0) *type = DLA_OP_SDP, in = 0; /* reading the network input is always possible */
    }
    return in;
}

/* Op j in the dependency graph: the consumer of its input's producer, and the next of its type. */
static void link_op(net_t *n, int j, uint8_t type, int in)
{
    n->in_of[j] = in;
    struct dla_common_op_desc *d = &n->dep[j];
    d->index = (int16_t)j, d->op_type = type, d->roi_index = 0;
    for (int u = 0; u < DLA_OP_NUM; u++) d->consumers[u] = (struct dla_consumer){.index = -1};
    d->fused_parent = (struct dla_consumer){.index = -1};
    int p = n->t[in].producer;
    if (p >= 0) {
        n->dep[p].consumers[type] = (struct dla_consumer){.index = (int16_t)j, .event = DLA_EVENT_OP_COMPLETED};
        d->dependency_count = 1;
    }
    int last = n->last_of_type[type];
    if (last >= 0 && n->dep[last].consumers[type].index == -1) /* the chain of its type */
        n->dep[last].consumers[type] = (struct dla_consumer){.index = (int16_t)j, .event = 0};
    n->last_of_type[type] = j;
}

/* RUBIK: a split's planes are merged back into a cube by the op after it (draw_ops); a cube is split when it cannot be
 * contracted or at even odds when another op follows, else contracted: k surfaces with strides sx * sy = k, sx a
 * divisor of k keeping the output at most 16 pixels wide where it can, as the networks' other widths are. */
static const char *draw_rubik(net_t *n, int j, int in, tensor_t *o)
{
    struct dla_rubik_op_desc *s = &n->ops[j].rubik_op;
    *s = (struct dla_rubik_op_desc){.mode = RUBIK_MODE_MERGE, .precision = n->p->prec, .stride_x = 1, .stride_y = 1};
    if (n->t[in].planar) {
        o->planar = false;
        return "RUBIK-merge";
    }
    if (!contractible(n, &n->t[in]) || (j + 1 < n->nops && rng_chance(&n->r, 50))) {
        s->mode = RUBIK_MODE_SPLIT;
        o->planar = true;
        return "RUBIK-split";
    }
    uint32_t k = n->t[in].c / n->lanes, sx = 1;
    for (uint32_t d = 2; d <= k; d++)
        if (k % d == 0 && n->t[in].w * d <= 16 && rng_chance(&n->r, 50)) sx = d;
    *s = (struct dla_rubik_op_desc){
        .mode = RUBIK_MODE_CONTRACT, .precision = n->p->prec, .stride_x = (uint8_t)sx, .stride_y = (uint8_t)(k / sx)};
    o->w = n->t[in].w * sx, o->h = n->t[in].h * (k / sx), o->c = n->lanes;
    return "RUBIK";
}

/* Op j's operation descriptor, drawn; *o, its output tensor (input's shape), gets PDP's and RUBIK's output size.
 * Returns the op's name. */
static const char *draw_op(net_t *n, int j, uint8_t type, int in, tensor_t *o)
{
    rng_t *r = &n->r;
    const uint8_t prec = n->p->prec;
    const bool wide = n->p->esize > 1;
    if (type == DLA_OP_SDP) {
        struct dla_sdp_op_desc *s = &n->ops[j].sdp_op;
        s->src_precision = s->dst_precision = prec;
        s->lut_index = -1;
        s->out_cvt = cvt(r, wide);
        s->batch_num = 1;
        s->x1_op = sdp_stage(r, rng_chance(r, 85), prec);
        s->x2_op = sdp_stage(r, rng_chance(r, 40), prec);
        s->y_op = sdp_stage(r, false, prec);
        return "SDP";
    }
    if (type == DLA_OP_PDP) {
        struct dla_pdp_op_desc *s = &n->ops[j].pdp_op;
        uint8_t kw, kh;
        pdp_dims(r, n->t[in].w, &kw, &s->stride_x, &s->pad_left, &s->pad_right, &o->w);
        pdp_dims(r, n->t[in].h, &kh, &s->stride_y, &s->pad_top, &s->pad_bottom, &o->h);
        s->pool_width = (uint8_t)(kw - 1), s->pool_height = (uint8_t)(kh - 1);
        /* average: nv_small's twin computes it at INT8 only (portable networks draw none), nv_full's model at every
         * precision */
        s->pool_mode =
            (uint8_t)rng_range(r, prec == PRECISION_FP16 ? POOL_MODE_AVG : n->cfg->pool_first, POOL_MODE_MIN);
        s->split_num = 1;
        s->partial_in_width_first = s->partial_in_width_mid = s->partial_in_width_last = (uint16_t)n->t[in].w;
        s->partial_width_first = s->partial_width_mid = s->partial_width_last = (uint16_t)o->w;
        s->precision = prec;
        static const char *const pool_name[] = {
            [POOL_MODE_AVG] = "PDP-avg", [POOL_MODE_MAX] = "PDP-max", [POOL_MODE_MIN] = "PDP-min"};
        return pool_name[s->pool_mode];
    }
    if (type == DLA_OP_BDMA) { /* a copy of the tensor; its transfer is written with the addresses (point_surfaces) */
        n->ops[j].bdma_op.num_transfers = 1;
        return "BDMA";
    }
    if (type == DLA_OP_RUBIK) return draw_rubik(n, j, in, o);
    struct dla_cdp_op_desc *s = &n->ops[j].cdp_op;
    s->in_precision = s->out_precision = prec;
    s->lut_index = 0;
    s->in_cvt = cvt(r, wide);
    s->out_cvt = cvt(r, wide);
    if (prec == PRECISION_FP16) { /* the converters are not used at FP16; DATIN_OFFSET is what cmod reads the
                                   * channels past the cube as (NV_NVDLA_cdp.cpp:520-640), the RTL +0 whatever it
                                   * holds (CDP_FP16_OUTSIDE, golden/nvdla/cdp_fp16.h) */
        static const nvf_fp16_mix_t m = {0, -6, 2};
        s->in_cvt.offset = rng_chance(r, 50) ? 0 : nvf_fp16_value(r, &m);
    }
    s->local_size = (uint8_t)(3 + 2 * rng_range(r, 0, 3));
    s->bypass_sqsum = rng_chance(r, 25);
    s->bypass_out_mul = rng_chance(r, 25);
    return "CDP";
}

/* The random ops after the first ones, each described in what from `used` on. */
static void draw_ops(net_t *n, char *what, size_t whatlen, size_t used)
{
    for (int j = n->first; j < n->nops; j++) {
        uint8_t type = DLA_OP_RUBIK;
        int in = n->t[n->nt - 1].planar ? n->nt - 1 : pick_op(n, j, &type); /* a split's planes: merged next */
        link_op(n, j, type, in);
        tensor_t o = n->t[in];
        o.producer = j, o.lpad = o.spad = 0;
        const char *name = draw_op(n, j, type, in, &o);
        draw_pads(n, &o);
        n->t[n->nt++] = o;
        used += (size_t)snprintf(what + used, used < whatlen ? whatlen - used : 0, " %d:%s(t%d)->%ux%ux%u", j, name, in,
                                 o.w, o.h, o.c);
    }
}

/* Tensor k at its address-list index. Planes (RUBIK split's output, merge's input): a plane per channel, each line
 * from its start to the next 32-byte boundary (the golden model's split writes that far, as cmod's does). */
static struct dla_data_cube net_cube(const net_t *n, int k)
{
    const tensor_t *t = &n->t[k];
    if (!t->planar) return cube_of(n->atom, n->p->esize, t, (int16_t)(ADDR_FIXED + k));
    uint32_t row = (t->w * n->p->esize + 31) / 32 * 32, plane = row * t->h;
    return (struct dla_data_cube){.type = DLA_MEM_MC,
                                  .address = (int16_t)(ADDR_FIXED + k),
                                  .size = plane * t->c,
                                  .width = (uint16_t)t->w,
                                  .height = (uint16_t)t->h,
                                  .channel = (uint16_t)t->c,
                                  .line_stride = row,
                                  .plane_stride = plane};
}

/* The surface descriptors, now that every tensor has its address-list index: ADDR_FIXED + k for tensor k, then the
 * convolution layer's weights and input. */
static void point_surfaces(net_t *n)
{
    if (n->with_conv) { /* the template's surfaces, re-pointed at this loadable's address list */
        struct dla_conv_surface_desc *cs = &n->surf[0].conv_surface;
        cs->weight_data.address = (int16_t)(ADDR_FIXED + n->nt);
        cs->src_data.address = (int16_t)(ADDR_FIXED + n->nt + 1);
        cs->wmb_data.address = cs->wgs_data.address = -1;
        n->surf[1].sdp_surface.dst_data = net_cube(n, 0);
    }
    for (int j = n->first; j < n->nops; j++) {
        struct dla_data_cube src = net_cube(n, n->in_of[j]);
        struct dla_data_cube dst = net_cube(n, j - n->first + 1); /* tensor 0: the input or the convolution's output */
        struct dla_data_cube none = {.type = DLA_MEM_HW, .address = -1};
        if (n->dep[j].op_type == DLA_OP_SDP)
            n->surf[j].sdp_surface = (struct dla_sdp_surface_desc){src, none, none, none, dst};
        else if (n->dep[j].op_type == DLA_OP_PDP) n->surf[j].pdp_surface = (struct dla_pdp_surface_desc){src, dst};
        else if (n->dep[j].op_type == DLA_OP_CDP) n->surf[j].cdp_surface = (struct dla_cdp_surface_desc){src, dst};
        else if (n->dep[j].op_type == DLA_OP_RUBIK)
            n->surf[j].rubik_surface = (struct dla_rubik_surface_desc){src, dst};
        else { /* BDMA: the whole cube, a line of w atoms per line, a surface per surface */
            struct dla_bdma_surface_desc *b = &n->surf[j].bdma_surface;
            b->source_type = b->destination_type = DLA_MEM_MC;
            b->num_transfers = 1;
            b->transfers[0] = (struct dla_bdma_transfer_desc){.source_address = src.address,
                                                              .destination_address = dst.address,
                                                              .line_size = src.width * n->atom,
                                                              .line_repeat = src.height,
                                                              .source_line = src.line_stride,
                                                              .destination_line = dst.line_stride,
                                                              .surface_repeat = src.size / src.surf_stride,
                                                              .source_surface = src.surf_stride,
                                                              .destination_surface = dst.surf_stride};
        }
    }
}

/* The network input's elements: any byte for INT8 and INT16 (INT16 mostly small, so that the arithmetic is not all
 * saturation); FP16 as nv_full's random jobs draw theirs: moderate (2^-6 .. 2^5) in most networks, with corners (+-0,
 * denormals, +-Inf, NaN, +-65504) in a share, huge values (sums and products saturate) or tiny ones in others. A
 * portable network draws its elements in (c, y, x) order, the same whatever the atom, its pad lanes 0. */
static void input_data(net_t *n, uint8_t *data, uint32_t size)
{
    if (n->p->prec == PRECISION_FP16) {
        const unsigned kind = rng_below(&n->r, 100);
        const nvf_fp16_mix_t m = kind < 60   ? (nvf_fp16_mix_t){0, -6, 5}
                                 : kind < 85 ? (nvf_fp16_mix_t){rng_range(&n->r, 5, 20), -6, 5}
                                 : kind < 95 ? (nvf_fp16_mix_t){rng_range(&n->r, 0, 5), 10, 15}
                                             : (nvf_fp16_mix_t){rng_range(&n->r, 0, 5), -14, -8};
        for (uint32_t i = 0; i + 1 < size; i += 2) {
            const uint16_t v = nvf_fp16_value(&n->r, &m);
            data[i] = (uint8_t)v, data[i + 1] = (uint8_t)(v >> 8);
        }
        return;
    }
    if (n->cfg == &net_cfgs[2]) {
        const tensor_t *t = &n->t[0];
        const struct dla_data_cube q = cube_of(n->atom, 1, t, 0);
        memset(data, 0, size);
        for (uint32_t c = 0; c < t->c; c++)
            for (uint32_t y = 0; y < t->h; y++)
                for (uint32_t x = 0; x < t->w; x++)
                    data[c / n->lanes * q.surf_stride + y * q.line_stride + x * n->atom + c % n->lanes] =
                        (uint8_t)rng_next(&n->r);
        return;
    }
    for (uint32_t i = 0; i < size; i += n->p->esize) {
        if (n->p->esize == 1) {
            data[i] = (uint8_t)rng_next(&n->r);
            continue;
        }
        uint16_t v = (uint16_t)rng_next(&n->r);
        if (rng_chance(&n->r, 75)) v = (uint16_t)((int16_t)(v & 0x7ff) - 1024);
        data[i] = (uint8_t)v, data[i + 1] = (uint8_t)(v >> 8);
    }
}

/* The network written as a loadable the way NVIDIA's compiler lays one out: the network descriptor, op, surface and
 * dependency lists and the LUT list (ADDR_FIXED memories), one memory per tensor (the input random, drawn now; the
 * unconsumed ones the loadable's output tensors), then the convolution layer's weights and input. */
static void write_loadable(net_t *n, uint8_t **buf, size_t *len)
{
    builder_t b = {0};
    b.l.version[1] = 7;
    b.l.blobs = calloc(16, sizeof *b.l.blobs);
    b.l.mems = calloc(16, sizeof *b.l.mems);
    b.l.addrs = calloc(16, sizeof *b.l.addrs);
    b.l.tasks = calloc(1, sizeof *b.l.tasks);
    b.l.tensors = calloc(MAX_T, sizeof *b.l.tensors);
    if (!b.l.blobs || !b.l.mems || !b.l.addrs || !b.l.tasks || !b.l.tensors) abort();
    const int nops = n->nops;
    struct dla_network_desc net = {.operation_desc_index = 1,
                                   .surface_desc_index = 2,
                                   .dependency_graph_index = 3,
                                   .lut_data_index = n->lut ? 4 : -1,
                                   .roi_array_index = -1,
                                   .surface_index = -1,
                                   .stat_list_index = -1,
                                   .reserved1 = -1,
                                   .num_rois = 1,
                                   .num_operations = (uint16_t)nops,
                                   .num_luts = n->lut ? 1 : 0,
                                   .num_addresses = (uint16_t)(ADDR_FIXED + n->nt),
                                   .input_layer = 0};
    for (int u = 0; u < DLA_OP_NUM; u++) net.op_head[u] = -1;
    for (int j = nops - 1; j >= 0; j--) net.op_head[n->dep[j].op_type] = (int16_t)j;
    static const uint8_t zero_lut[4] = {0};
    add_mem(&b, sizeof net, 3, add_blob(&b, "m0_NetworkDesc", &net, sizeof net));
    add_mem(&b, sizeof n->ops[0] * (size_t)nops, 3, add_blob(&b, "m1_OpList", n->ops, sizeof n->ops[0] * (size_t)nops));
    add_mem(&b, sizeof n->surf[0] * (size_t)nops, 3,
            add_blob(&b, "m2_SurfList", n->surf, sizeof n->surf[0] * (size_t)nops));
    add_mem(&b, sizeof n->dep[0] * (size_t)nops, 3,
            add_blob(&b, "m3_DEPGraph", n->dep, sizeof n->dep[0] * (size_t)nops));
    if (n->lut) add_mem(&b, n->lutlen, 3, add_blob(&b, "m4_LUTList", n->lut, n->lutlen));
    else add_mem(&b, sizeof zero_lut, 3, add_blob(&b, "m4_NoLUT", zero_lut, sizeof zero_lut)); /* keeps indices fixed */
    for (int k = 0; k < n->nt; k++) {
        struct dla_data_cube c = net_cube(n, k);
        bool consumed = false;
        for (int j = n->first; j < nops; j++) consumed |= n->in_of[j] == k;
        const ld_blob_t *content = NULL;
        if (k == 0 && !n->with_conv) { /* the network input, random */
            uint8_t *data = malloc(c.size);
            if (!data) abort();
            input_data(n, data, c.size);
            content = add_blob(&b, "m5_Input", data, c.size);
            free(data);
        }
        /* nv_full's DBB beat is 64 bytes: a read of a cube's last atom carries the 32 bytes after it when the cube
         * ends halfway through a beat, and the memory entry (the run's fence: nvdla_fw.c) must hold them */
        uint64_t msize = n->atom == 32 ? (c.size + 63) / 64 * 64 : c.size;
        add_mem(&b, msize, (uint16_t)(content ? 3 | 4 : consumed ? 1 : 1 | 8), content);
        if (!consumed) {
            ld_tensor_t *d = &b.l.tensors[b.l.ntensors++];
            char nm[32];
            snprintf(nm, sizeof nm, "out_t%d", k);
            *d = (ld_tensor_t){.name = strdup(nm),
                               .id = (uint16_t)(b.l.ntensors - 1),
                               .mem_id = (uint16_t)(b.l.nmems - 1),
                               .size = c.size,
                               .data_format = 1,
                               .data_type = n->p->data_type,
                               .data_category = 2,
                               .pixel_format = 36,
                               .n = 1,
                               .c = (int32_t)n->t[k].c,
                               .h = (int32_t)n->t[k].h,
                               .w = (int32_t)n->t[k].w,
                               .stride = {n->p->esize, c.line_stride, c.surf_stride}};
        }
    }
    if (n->with_conv) { /* after the tensors: the address-list indices point_surfaces gave them */
        const ld_blob_t *w = n->cb.weights, *in = n->cb.input;
        add_mem(&b, w->size, 3, add_blob(&b, "m6_CONVWgt", w->data, w->size));
        add_mem(&b, in->size, 3 | 4, add_blob(&b, "m7_CONVSrc", in->data, in->size));
    }
    ld_task_t *task = &b.l.tasks[b.l.ntasks++];
    task->interface = 1;
    task->addr_ids = calloc(b.l.naddrs, sizeof *task->addr_ids);
    if (!task->addr_ids) abort();
    for (size_t i = 0; i < b.l.naddrs; i++) task->addr_ids[i] = (uint16_t)i;
    task->naddr = b.l.naddrs;
    *buf = nvdla_loadable_write(&b.l, len);
    for (size_t i = 0; i < b.nowned; i++) free(b.owned[i]);
    nvdla_loadable_free(&b.l); /* names, contents, lists; the blob data is ours */
}

int nvdla_fw_net_prec(const char *name, const char **not_computed)
{
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++)
        if (strcmp(precs[i].name, name) == 0) {
            if (not_computed) *not_computed = precs[i].not_computed;
            return precs[i].prec;
        }
    return -1;
}

int nvdla_fw_net_build(uint64_t seed, const nvdla_fw_net_opts_t *o, uint8_t **buf, size_t *len, char *what,
                       size_t whatlen)
{
    net_t n;
    memset(&n, 0, sizeof n); /* descriptors not drawn stay zero */
    size_t used = net_start(&n, seed, o, what, whatlen);
    draw_ops(&n, what, whatlen, used);
    point_surfaces(&n);
    write_loadable(&n, buf, len);
    return n.nops;
}
