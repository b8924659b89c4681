/* Random networks for NVIDIA's firmware (test fw_net): 3-7 memory-to-memory SDP, PDP and CDP operations on
 * int8 cubes, chained and branching, in 40 % of them after a first convolution layer (NVIDIA's CONV_D_L0_0: its
 * CONV and fused SDP descriptors, weights and input, re-pointed), written as a loadable the way NVIDIA's compiler
 * lays one out
 * (network descriptor, operation and surface lists, dependency graph, LUT list, one memory entry per tensor).
 *
 * The dependency graph follows the firmware's scheduler (scheduler.c): an op's consumers[T] is the op of
 * type T that waits for it, and consumers[own type] is also the next op of its own type, which the firmware
 * programs into the other register group as soon as one is free (dla_dequeue_operation). So every op has at
 * most one consumer per type, a consumer of the op's own type must be the next op of that type, and an op
 * whose input another op produces has dependency_count 1 (that op's OP_COMPLETED event). Two same-type ops
 * in a row make the firmware program both register groups at once. */
#include "nvdla_fw_net.h"
#include "rng.h"
#include <dla_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPS = 7, MAX_T = MAX_OPS + 1, ADDR_FIXED = 5 }; /* net, ops, surfaces, graph, LUTs; then tensors */

typedef struct tensor {
    uint32_t w, h, c;
    int producer;
} tensor_t;

static struct dla_data_cube cube_of(const tensor_t *t, int16_t address)
{
    uint32_t ls = t->w * 8, ss = ls * t->h;
    return (struct dla_data_cube){.type = DLA_MEM_MC,
                                  .address = address,
                                  .size = ss * ((t->c + 7) / 8),
                                  .width = (uint16_t)t->w,
                                  .height = (uint16_t)t->h,
                                  .channel = (uint16_t)t->c,
                                  .line_stride = ls,
                                  .surf_stride = ss};
}

static struct dla_cvt_param cvt(rng_t *r)
{
    return (struct dla_cvt_param){.scale = (int16_t)rng_range(r, 1, 8),
                                  .truncate = (uint8_t)rng_range(r, 0, 4),
                                  .enable = 1,
                                  .offset = (int32_t)rng_range(r, 0, 16) - 8};
}

static struct dla_sdp_op sdp_stage(rng_t *r, bool on)
{
    struct dla_sdp_op o = {.enable = on,
                           .alu_type = SDP_ALU_OP_SUM,
                           .type = SDP_OP_NONE,
                           .mode = SDP_OP_PER_LAYER,
                           .precision = PRECISION_INT8};
    if (!on) return o;
    o.type = (uint8_t)rng_range(r, SDP_OP_NONE, SDP_OP_BOTH);
    o.alu_type = (uint8_t)rng_range(r, SDP_ALU_OP_MAX, SDP_ALU_OP_SUM);
    o.act = rng_chance(r, 50) ? ACTIVATION_RELU : ACTIVATION_NONE;
    o.alu_operand = (int32_t)rng_range(r, 0, 255) - 128;
    o.mul_operand = (int32_t)rng_range(r, 0, 64) - 32;
    o.shift_value = (uint8_t)rng_range(r, 0, 4);
    o.truncate = (uint8_t)rng_range(r, 0, 6);
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
    const uint8_t *lut; /* NULL: no CDP */
    size_t lutlen;
    bool with_conv; /* ops 0 and 1 are NVIDIA's CONV_D_L0_0 (cb) */
    conv_block_t cb;
    int nops, nt, first; /* first: the first random op (2 after the convolution layer) */
    tensor_t t[MAX_T];
    struct dla_common_op_desc dep[MAX_OPS];
    union dla_operation_container ops[MAX_OPS];
    union dla_surface_container surf[MAX_OPS];
    int in_of[MAX_OPS], last_of_type[DLA_OP_NUM];
} net_t;

/* Draws the network's size and input, and takes the convolution layer when this seed has one; the description's
 * start goes into what. Returns its length. */
static size_t net_start(net_t *n, uint64_t seed, const uint8_t *lut, size_t lutlen, const nvdla_loadable_t *conv,
                        char *what, size_t whatlen)
{
    rng_seed_stream(&n->r, seed, "fw_net");
    n->lut = lut && lutlen == sizeof(struct dla_lut_param) ? lut : NULL;
    n->lutlen = lutlen;
    n->with_conv = conv_block(conv, &n->cb) && rng_chance(&n->r, 40);
    n->nops = (int)rng_range(&n->r, 3, MAX_OPS), n->nt = 1;
    n->t[0] = (tensor_t){
        .w = rng_range(&n->r, 2, 12), .h = rng_range(&n->r, 2, 12), .c = rng_range(&n->r, 1, 40), .producer = -1};
    for (int u = 0; u < DLA_OP_NUM; u++) n->last_of_type[u] = -1;
    n->first = 0;
    if (!n->with_conv) return (size_t)snprintf(what, whatlen, "in %ux%ux%u:", n->t[0].w, n->t[0].h, n->t[0].c);
    /* ops 0 and 1: CONV and its fused SDP; the SDP's output is tensor 0 */
    memcpy(n->dep, n->cb.dep, sizeof n->cb.dep), memcpy(n->ops, n->cb.ops, sizeof n->cb.ops);
    memcpy(n->surf, n->cb.surf, sizeof n->cb.surf);
    const struct dla_data_cube *o = &n->cb.surf[1].sdp_surface.dst_data;
    n->t[0] = (tensor_t){.w = o->width, .h = o->height, .c = o->channel, .producer = 1};
    n->in_of[0] = n->in_of[1] = -1;
    n->last_of_type[DLA_OP_CONV] = 0, n->last_of_type[DLA_OP_SDP] = 1;
    n->first = 2;
    if (n->nops < 4) n->nops = 4;
    const struct dla_data_cube *ci = &n->cb.surf[0].conv_surface.src_data;
    return (size_t)snprintf(what, whatlen, "0:CONV(NVIDIA CONV_D_L0_0, %ux%ux%u) 1:SDP(fused)->%ux%ux%u:", ci->width,
                            ci->height, ci->channel, n->t[0].w, n->t[0].h, n->t[0].c);
}

/* Op j's type and input tensor: drawn until the firmware's graph can express them (an op has at most one consumer
 * per type; one of its own type must be the next op of that type). Returns the input tensor. */
static int pick_op(net_t *n, int j, uint8_t *type)
{
    int in = -1;
    for (int tries = 0; in < 0; tries++) {
        *type =
            (uint8_t)(j > 0 && rng_chance(&n->r, 30) ? n->dep[j - 1].op_type /* same type again: both groups */
                                                     : rng_range(&n->r, DLA_OP_SDP, n->lut ? DLA_OP_CDP : DLA_OP_PDP));
        int cand = tries > 20 ? 0 : rng_chance(&n->r, 65) ? n->nt - 1 : (int)rng_below(&n->r, (uint32_t)n->nt);
        int p = n->t[cand].producer;
        if (p < 0) in = cand; /* the network input */
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

/* Op j's operation descriptor, drawn; *o, its output tensor (input's shape), gets PDP's output size. Returns the
 * op's name. */
static const char *draw_op(net_t *n, int j, uint8_t type, int in, tensor_t *o)
{
    rng_t *r = &n->r;
    if (type == DLA_OP_SDP) {
        struct dla_sdp_op_desc *s = &n->ops[j].sdp_op;
        s->src_precision = s->dst_precision = PRECISION_INT8;
        s->lut_index = -1;
        s->out_cvt = cvt(r);
        s->batch_num = 1;
        s->x1_op = sdp_stage(r, rng_chance(r, 85));
        s->x2_op = sdp_stage(r, rng_chance(r, 40));
        s->y_op = sdp_stage(r, false);
        return "SDP";
    }
    if (type == DLA_OP_PDP) {
        struct dla_pdp_op_desc *s = &n->ops[j].pdp_op;
        uint8_t kw, kh;
        pdp_dims(r, n->t[in].w, &kw, &s->stride_x, &s->pad_left, &s->pad_right, &o->w);
        pdp_dims(r, n->t[in].h, &kh, &s->stride_y, &s->pad_top, &s->pad_bottom, &o->h);
        s->pool_width = (uint8_t)(kw - 1), s->pool_height = (uint8_t)(kh - 1);
        s->pool_mode = (uint8_t)rng_range(r, POOL_MODE_AVG, POOL_MODE_MIN);
        s->split_num = 1;
        s->partial_in_width_first = s->partial_in_width_mid = s->partial_in_width_last = (uint16_t)n->t[in].w;
        s->partial_width_first = s->partial_width_mid = s->partial_width_last = (uint16_t)o->w;
        s->precision = PRECISION_INT8;
        return "PDP";
    }
    struct dla_cdp_op_desc *s = &n->ops[j].cdp_op;
    s->in_precision = s->out_precision = PRECISION_INT8;
    s->lut_index = 0;
    s->in_cvt = cvt(r);
    s->out_cvt = cvt(r);
    s->local_size = (uint8_t)(3 + 2 * rng_range(r, 0, 3));
    s->bypass_sqsum = rng_chance(r, 25);
    s->bypass_out_mul = rng_chance(r, 25);
    return "CDP";
}

/* The random ops after the first ones, each described in what from `used` on. */
static void draw_ops(net_t *n, char *what, size_t whatlen, size_t used)
{
    for (int j = n->first; j < n->nops; j++) {
        uint8_t type;
        int in = pick_op(n, j, &type);
        link_op(n, j, type, in);
        tensor_t o = n->t[in];
        o.producer = j;
        const char *name = draw_op(n, j, type, in, &o);
        n->t[n->nt++] = o;
        used += (size_t)snprintf(what + used, used < whatlen ? whatlen - used : 0, " %d:%s(t%d)->%ux%ux%u", j, name, in,
                                 o.w, o.h, o.c);
    }
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
        n->surf[1].sdp_surface.dst_data = cube_of(&n->t[0], ADDR_FIXED);
    }
    for (int j = n->first; j < n->nops; j++) {
        struct dla_data_cube src = cube_of(&n->t[n->in_of[j]], (int16_t)(ADDR_FIXED + n->in_of[j]));
        int out = j - n->first + 1; /* tensor 0 is the network input or the convolution layer's output */
        struct dla_data_cube dst = cube_of(&n->t[out], (int16_t)(ADDR_FIXED + out));
        struct dla_data_cube none = {.type = DLA_MEM_HW, .address = -1};
        if (n->dep[j].op_type == DLA_OP_SDP)
            n->surf[j].sdp_surface = (struct dla_sdp_surface_desc){src, none, none, none, dst};
        else if (n->dep[j].op_type == DLA_OP_PDP) n->surf[j].pdp_surface = (struct dla_pdp_surface_desc){src, dst};
        else n->surf[j].cdp_surface = (struct dla_cdp_surface_desc){src, dst};
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
        struct dla_data_cube c = cube_of(&n->t[k], 0);
        bool consumed = false;
        for (int j = n->first; j < nops; j++) consumed |= n->in_of[j] == k;
        const ld_blob_t *content = NULL;
        if (k == 0 && !n->with_conv) { /* the network input: random int8 */
            uint8_t *data = malloc(c.size);
            if (!data) abort();
            for (uint32_t i = 0; i < c.size; i++) data[i] = (uint8_t)rng_next(&n->r);
            content = add_blob(&b, "m5_Input", data, c.size);
            free(data);
        }
        add_mem(&b, c.size, (uint16_t)(content ? 3 | 4 : consumed ? 1 : 1 | 8), content);
        if (!consumed) {
            ld_tensor_t *d = &b.l.tensors[b.l.ntensors++];
            char nm[32];
            snprintf(nm, sizeof nm, "out_t%d", k);
            *d = (ld_tensor_t){.name = strdup(nm),
                               .id = (uint16_t)(b.l.ntensors - 1),
                               .mem_id = (uint16_t)(b.l.nmems - 1),
                               .size = c.size,
                               .data_format = 1,
                               .data_type = 4,
                               .data_category = 2,
                               .pixel_format = 36,
                               .n = 1,
                               .c = (int32_t)n->t[k].c,
                               .h = (int32_t)n->t[k].h,
                               .w = (int32_t)n->t[k].w,
                               .stride = {1, c.line_stride, c.surf_stride}};
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

int nvdla_fw_net_build(uint64_t seed, const uint8_t *lut, size_t lutlen, const nvdla_loadable_t *conv, uint8_t **buf,
                       size_t *len, char *what, size_t whatlen)
{
    net_t n;
    memset(&n, 0, sizeof n); /* descriptors not drawn stay zero */
    size_t used = net_start(&n, seed, lut, lutlen, conv, what, whatlen);
    draw_ops(&n, what, whatlen, used);
    point_surfaces(&n);
    write_loadable(&n, buf, len);
    return n.nops;
}
