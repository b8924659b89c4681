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

enum { MAX_OPS = 7, MAX_T = MAX_OPS + 1, ADDR_FIXED = 5 };   /* net, ops, surfaces, graph, LUTs; then tensors */

typedef struct tensor { uint32_t w, h, c; int producer; } tensor_t;

static struct dla_data_cube cube_of(const tensor_t *t, int16_t address) {
    uint32_t ls = t->w * 8, ss = ls * t->h;
    return (struct dla_data_cube){.type = DLA_MEM_MC, .address = address, .size = ss * ((t->c + 7) / 8),
                                  .width = (uint16_t)t->w, .height = (uint16_t)t->h, .channel = (uint16_t)t->c,
                                  .line_stride = ls, .surf_stride = ss};
}

static struct dla_cvt_param cvt(rng_t *r) {
    return (struct dla_cvt_param){.scale = (int16_t)rng_range(r, 1, 8), .truncate = (uint8_t)rng_range(r, 0, 4),
                                  .enable = 1, .offset = (int32_t)rng_range(r, 0, 16) - 8};
}

static struct dla_sdp_op sdp_stage(rng_t *r, bool on) {
    struct dla_sdp_op o = {.enable = on, .alu_type = SDP_ALU_OP_SUM, .type = SDP_OP_NONE, .mode = SDP_OP_PER_LAYER,
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
static void pdp_dims(rng_t *r, uint32_t in, uint8_t *k, uint8_t *s, uint8_t *pa, uint8_t *pb, uint32_t *out) {
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

static ld_blob_t *add_blob(builder_t *b, const char *name, const void *data, size_t n) {
    ld_blob_t *x = &b->l.blobs[b->l.nblobs++];
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy) abort();
    memcpy(copy, data, n);
    b->owned[b->nowned++] = copy;
    *x = (ld_blob_t){.name = strdup(name), .data = copy, .size = n};
    return x;
}

static void add_mem(builder_t *b, uint64_t size, uint16_t flags, const ld_blob_t *content) {
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
static const ld_blob_t *tmpl_blob(const nvdla_loadable_t *l, int16_t index) {
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

static bool conv_block(const nvdla_loadable_t *l, conv_block_t *cb) {
    if (!l || !l->ntasks) return false;
    const ld_blob_t *dep = NULL, *ops = NULL, *surf = NULL;
    for (size_t i = 0; i < l->nblobs; i++) {
        if (strstr(l->blobs[i].name, "DEPGraph")) dep = &l->blobs[i];
        if (strstr(l->blobs[i].name, "OpList")) ops = &l->blobs[i];
        if (strstr(l->blobs[i].name, "SurfList")) surf = &l->blobs[i];
    }
    if (!dep || !ops || !surf || dep->size != sizeof cb->dep || ops->size != sizeof cb->ops || surf->size != sizeof cb->surf)
        return false;
    memcpy(cb->dep, dep->data, sizeof cb->dep);
    memcpy(cb->ops, ops->data, sizeof cb->ops);
    memcpy(cb->surf, surf->data, sizeof cb->surf);
    if (cb->dep[0].op_type != DLA_OP_CONV || cb->dep[1].op_type != DLA_OP_SDP) return false;
    cb->weights = tmpl_blob(l, cb->surf[0].conv_surface.weight_data.address);
    cb->input = tmpl_blob(l, cb->surf[0].conv_surface.src_data.address);
    return cb->weights && cb->input;
}

int nvdla_fw_net_build(uint64_t seed, const uint8_t *lut, size_t lutlen, const nvdla_loadable_t *conv, uint8_t **buf,
                       size_t *len, char *what, size_t whatlen) {
    rng_t r;
    rng_seed_stream(&r, seed, "fw_net");
    if (lut && lutlen != sizeof(struct dla_lut_param)) lut = NULL;
    conv_block_t cb;
    bool with_conv = conv_block(conv, &cb) && rng_chance(&r, 40);
    int nops = (int)rng_range(&r, 3, MAX_OPS), nt = 1;
    tensor_t t[MAX_T] = {{.w = rng_range(&r, 2, 12), .h = rng_range(&r, 2, 12), .c = rng_range(&r, 1, 40), .producer = -1}};
    struct dla_common_op_desc dep[MAX_OPS];
    union dla_operation_container ops[MAX_OPS];
    union dla_surface_container surf[MAX_OPS];
    int in_of[MAX_OPS], last_of_type[DLA_OP_NUM];
    memset(dep, 0, sizeof dep), memset(ops, 0, sizeof ops), memset(surf, 0, sizeof surf);
    for (int u = 0; u < DLA_OP_NUM; u++) last_of_type[u] = -1;
    int first = 0;
    size_t used;
    if (with_conv) {   /* ops 0 and 1: CONV and its fused SDP; the SDP's output is tensor 0 */
        memcpy(dep, cb.dep, sizeof cb.dep), memcpy(ops, cb.ops, sizeof cb.ops), memcpy(surf, cb.surf, sizeof cb.surf);
        const struct dla_data_cube *o = &cb.surf[1].sdp_surface.dst_data;
        t[0] = (tensor_t){.w = o->width, .h = o->height, .c = o->channel, .producer = 1};
        in_of[0] = in_of[1] = -1;
        last_of_type[DLA_OP_CONV] = 0, last_of_type[DLA_OP_SDP] = 1;
        first = 2;
        if (nops < 4) nops = 4;
        const struct dla_data_cube *ci = &cb.surf[0].conv_surface.src_data;
        used = (size_t)snprintf(what, whatlen, "0:CONV(NVIDIA CONV_D_L0_0, %ux%ux%u) 1:SDP(fused)->%ux%ux%u:", ci->width,
                                ci->height, ci->channel, t[0].w, t[0].h, t[0].c);
    } else {
        used = (size_t)snprintf(what, whatlen, "in %ux%ux%u:", t[0].w, t[0].h, t[0].c);
    }
    for (int j = first; j < nops; j++) {
        uint8_t type;
        int in = -1;
        for (int tries = 0; in < 0; tries++) {   /* an op type and an input the firmware's graph can express */
            type = (uint8_t)(j > 0 && rng_chance(&r, 30) ? dep[j - 1].op_type   /* same type again: both groups */
                                                         : rng_range(&r, DLA_OP_SDP, lut ? DLA_OP_CDP : DLA_OP_PDP));
            int cand = tries > 20 ? 0 : rng_chance(&r, 65) ? nt - 1 : (int)rng_below(&r, (uint32_t)nt);
            int p = t[cand].producer;
            if (p < 0) in = cand;                                                     /* the network input */
            else if (dep[p].consumers[type].index == -1 && (dep[p].op_type != type || last_of_type[type] == p)) in = cand;
            if (tries > 20 && in < 0) type = DLA_OP_SDP, in = 0;   /* reading the network input is always possible */
        }
        in_of[j] = in;
        struct dla_common_op_desc *d = &dep[j];
        d->index = (int16_t)j, d->op_type = type, d->roi_index = 0;
        for (int u = 0; u < DLA_OP_NUM; u++) d->consumers[u] = (struct dla_consumer){.index = -1};
        d->fused_parent = (struct dla_consumer){.index = -1};
        int p = t[in].producer;
        if (p >= 0) {
            dep[p].consumers[type] = (struct dla_consumer){.index = (int16_t)j, .event = DLA_EVENT_OP_COMPLETED};
            d->dependency_count = 1;
        }
        if (last_of_type[type] >= 0 && dep[last_of_type[type]].consumers[type].index == -1)   /* the chain of its type */
            dep[last_of_type[type]].consumers[type] = (struct dla_consumer){.index = (int16_t)j, .event = 0};
        last_of_type[type] = j;
        tensor_t o = t[in];
        o.producer = j;
        const char *name = "?";
        if (type == DLA_OP_SDP) {
            struct dla_sdp_op_desc *s = &ops[j].sdp_op;
            s->src_precision = s->dst_precision = PRECISION_INT8;
            s->lut_index = -1;
            s->out_cvt = cvt(&r);
            s->batch_num = 1;
            s->x1_op = sdp_stage(&r, rng_chance(&r, 85));
            s->x2_op = sdp_stage(&r, rng_chance(&r, 40));
            s->y_op = sdp_stage(&r, false);
            name = "SDP";
        } else if (type == DLA_OP_PDP) {
            struct dla_pdp_op_desc *s = &ops[j].pdp_op;
            uint8_t kw, kh;
            pdp_dims(&r, t[in].w, &kw, &s->stride_x, &s->pad_left, &s->pad_right, &o.w);
            pdp_dims(&r, t[in].h, &kh, &s->stride_y, &s->pad_top, &s->pad_bottom, &o.h);
            s->pool_width = (uint8_t)(kw - 1), s->pool_height = (uint8_t)(kh - 1);
            s->pool_mode = (uint8_t)rng_range(&r, POOL_MODE_AVG, POOL_MODE_MIN);
            s->split_num = 1;
            s->partial_in_width_first = s->partial_in_width_mid = s->partial_in_width_last = (uint16_t)t[in].w;
            s->partial_width_first = s->partial_width_mid = s->partial_width_last = (uint16_t)o.w;
            s->precision = PRECISION_INT8;
            name = "PDP";
        } else {
            struct dla_cdp_op_desc *s = &ops[j].cdp_op;
            s->in_precision = s->out_precision = PRECISION_INT8;
            s->lut_index = 0;
            s->in_cvt = cvt(&r);
            s->out_cvt = cvt(&r);
            s->local_size = (uint8_t)(3 + 2 * rng_range(&r, 0, 3));
            s->bypass_sqsum = rng_chance(&r, 25);
            s->bypass_out_mul = rng_chance(&r, 25);
            name = "CDP";
        }
        t[nt++] = o;
        used += (size_t)snprintf(what + used, used < whatlen ? whatlen - used : 0, " %d:%s(t%d)->%ux%ux%u", j, name, in,
                                 o.w, o.h, o.c);
    }
    /* the loadable */
    builder_t b = {0};
    b.l.version[1] = 7;
    b.l.blobs = calloc(16, sizeof *b.l.blobs);
    b.l.mems = calloc(16, sizeof *b.l.mems);
    b.l.addrs = calloc(16, sizeof *b.l.addrs);
    b.l.tasks = calloc(1, sizeof *b.l.tasks);
    b.l.tensors = calloc(MAX_T, sizeof *b.l.tensors);
    if (!b.l.blobs || !b.l.mems || !b.l.addrs || !b.l.tasks || !b.l.tensors) abort();
    const int16_t conv_w = (int16_t)(ADDR_FIXED + nt), conv_in = (int16_t)(ADDR_FIXED + nt + 1);
    if (with_conv) {   /* the template's surfaces, re-pointed at this loadable's address list */
        struct dla_conv_surface_desc *cs = &surf[0].conv_surface;
        cs->weight_data.address = conv_w;
        cs->src_data.address = conv_in;
        cs->wmb_data.address = cs->wgs_data.address = -1;
        surf[1].sdp_surface.dst_data = cube_of(&t[0], ADDR_FIXED);
    }
    for (int j = first; j < nops; j++) {   /* surfaces, now that every tensor has its address-list index */
        struct dla_data_cube src = cube_of(&t[in_of[j]], (int16_t)(ADDR_FIXED + in_of[j]));
        int out = j - first + 1;   /* tensor 0 is the network input or the convolution layer's output */
        struct dla_data_cube dst = cube_of(&t[out], (int16_t)(ADDR_FIXED + out));
        struct dla_data_cube none = {.type = DLA_MEM_HW, .address = -1};
        if (dep[j].op_type == DLA_OP_SDP)
            surf[j].sdp_surface = (struct dla_sdp_surface_desc){src, none, none, none, dst};
        else if (dep[j].op_type == DLA_OP_PDP)
            surf[j].pdp_surface = (struct dla_pdp_surface_desc){src, dst};
        else
            surf[j].cdp_surface = (struct dla_cdp_surface_desc){src, dst};
    }
    struct dla_network_desc net = {.operation_desc_index = 1, .surface_desc_index = 2, .dependency_graph_index = 3,
                                   .lut_data_index = lut ? 4 : -1, .roi_array_index = -1, .surface_index = -1,
                                   .stat_list_index = -1, .reserved1 = -1, .num_rois = 1, .num_operations = (uint16_t)nops,
                                   .num_luts = lut ? 1 : 0, .num_addresses = (uint16_t)(ADDR_FIXED + nt), .input_layer = 0};
    for (int u = 0; u < DLA_OP_NUM; u++) net.op_head[u] = -1;
    for (int j = nops - 1; j >= 0; j--) net.op_head[dep[j].op_type] = (int16_t)j;
    static const uint8_t zero_lut[4] = {0};
    add_mem(&b, sizeof net, 3, add_blob(&b, "m0_NetworkDesc", &net, sizeof net));
    add_mem(&b, sizeof ops[0] * (size_t)nops, 3, add_blob(&b, "m1_OpList", ops, sizeof ops[0] * (size_t)nops));
    add_mem(&b, sizeof surf[0] * (size_t)nops, 3, add_blob(&b, "m2_SurfList", surf, sizeof surf[0] * (size_t)nops));
    add_mem(&b, sizeof dep[0] * (size_t)nops, 3, add_blob(&b, "m3_DEPGraph", dep, sizeof dep[0] * (size_t)nops));
    if (lut) add_mem(&b, lutlen, 3, add_blob(&b, "m4_LUTList", lut, lutlen));
    else add_mem(&b, sizeof zero_lut, 3, add_blob(&b, "m4_NoLUT", zero_lut, sizeof zero_lut));   /* keeps indices fixed */
    for (int k = 0; k < nt; k++) {
        struct dla_data_cube c = cube_of(&t[k], 0);
        bool consumed = false;
        for (int j = first; j < nops; j++) consumed |= in_of[j] == k;
        const ld_blob_t *content = NULL;
        if (k == 0 && !with_conv) {   /* the network input: random int8 */
            uint8_t *data = malloc(c.size);
            if (!data) abort();
            for (uint32_t i = 0; i < c.size; i++) data[i] = (uint8_t)rng_next(&r);
            content = add_blob(&b, "m5_Input", data, c.size);
            free(data);
        }
        add_mem(&b, c.size, (uint16_t)(content ? 3 | 4 : consumed ? 1 : 1 | 8), content);
        if (!consumed) {
            ld_tensor_t *d = &b.l.tensors[b.l.ntensors++];
            char nm[32];
            snprintf(nm, sizeof nm, "out_t%d", k);
            *d = (ld_tensor_t){.name = strdup(nm), .id = (uint16_t)(b.l.ntensors - 1), .mem_id = (uint16_t)(b.l.nmems - 1),
                               .size = c.size, .data_format = 1, .data_type = 4, .data_category = 2, .pixel_format = 36,
                               .n = 1, .c = (int32_t)t[k].c, .h = (int32_t)t[k].h, .w = (int32_t)t[k].w,
                               .stride = {1, c.line_stride, c.surf_stride}};
        }
    }
    if (with_conv) {   /* after the tensors: address-list indices conv_w and conv_in */
        add_mem(&b, cb.weights->size, 3, add_blob(&b, "m6_CONVWgt", cb.weights->data, cb.weights->size));
        add_mem(&b, cb.input->size, 3 | 4, add_blob(&b, "m7_CONVSrc", cb.input->data, cb.input->size));
    }
    ld_task_t *task = &b.l.tasks[b.l.ntasks++];
    task->interface = 1;
    task->addr_ids = calloc(b.l.naddrs, sizeof *task->addr_ids);
    if (!task->addr_ids) abort();
    for (size_t i = 0; i < b.l.naddrs; i++) task->addr_ids[i] = (uint16_t)i;
    task->naddr = b.l.naddrs;
    *buf = nvdla_loadable_write(&b.l, len);
    for (size_t i = 0; i < b.nowned; i++) free(b.owned[i]);
    nvdla_loadable_free(&b.l);   /* names, contents, lists; the blob data is ours */
    return nops;
}
