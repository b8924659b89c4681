/* An FP16 fw_net network (nvdla_fw_net.c) has no nv_small twin (nv_small computes no FP16), so a golden-only run on
 * nv_full checks it against the loadable itself: every operation computed here on tensors in (c, y, x) order, from
 * the descriptors as NVIDIA's firmware turns them into registers (kmd/firmware sdp.c, pdp.c, cdp.c, common.c
 * update_lut), with the golden model's FP16 element functions. What it checks is what the twin checks for INT8: the
 * writer's layouts, nv_full's firmware programming, the register-map translation and the 32-byte-atom datapaths'
 * addressing, strides, RAM types, pad lanes and RUBIK's moves; the element arithmetic is cmod's, pinned by the
 * oracle (tests/test_nvdla_fp_oracle.py). */
#include "nvdla_fw_fp16ref.h"
#include "cdp_fp16.h"
#include "nvf_gen.h" /* nvf_fp16_class */
#include "pdp_fp16.h"
#include "scoreboard.h"
#include "sdp_fp16.h"
#include "sim.h"
#include <dla_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ATOM = 32, LANES = 16, ESIZE = 2, HALF = 2 /* loadable.fbs DataType */ };

typedef struct tensor {
    bool have;
    uint32_t w, h, c;
    uint16_t *v; /* (c, y, x) */
} tensor_t;

typedef struct ref {
    drv_t *d;
    const nvdla_loadable_t *l;
    tensor_t *t;        /* by address-list index */
    uint32_t *channels; /* by address-list index: the channels of the cube there, as an op's surface names it */
    size_t n;
} ref_t;

static uint16_t *elem(const tensor_t *t, uint32_t c, uint32_t y, uint32_t x)
{
    return &t->v[((size_t)c * t->h + y) * t->w + x];
}

static void alloc(tensor_t *t, uint32_t w, uint32_t h, uint32_t c)
{
    const size_t n = (size_t)w * h * c;
    free(t->v);
    *t = (tensor_t){.have = true, .w = w, .h = h, .c = c, .v = calloc(n ? n : 1, 2)};
    if (!t->v) abort();
}

/* Address-list index i of task 0: its memory entry and offset. */
static const ld_mem_t *addr_mem(const nvdla_loadable_t *l, int i, uint64_t *offset)
{
    if (!l->ntasks || i < 0 || (size_t)i >= l->tasks[0].naddr) return NULL;
    const ld_addr_t *a = ld_addr_by_id(l, l->tasks[0].addr_ids[i]);
    if (!a) return NULL;
    *offset = a->offset;
    return ld_mem_by_id(l, a->mem_id);
}

/* The first content blob of address index i (the descriptors' lists), or NULL. */
static const ld_blob_t *blob_at(const nvdla_loadable_t *l, int i)
{
    uint64_t off;
    const ld_mem_t *m = addr_mem(l, i, &off);
    return m && m->ncontents ? m->contents[0].blob : NULL;
}

/* Byte `at` of a memory entry as the loadable sets it (0 where no content lies). */
static uint8_t mem_byte(const ld_mem_t *m, uint64_t at)
{
    for (size_t k = 0; k < m->ncontents; k++) {
        const ld_content_t *c = &m->contents[k];
        if (c->blob && at >= c->offset && at - c->offset < c->blob->size) return c->blob->data[at - c->offset];
    }
    return 0;
}

/* The tensor an operation reads: computed before, or the network's input from its memory content. */
static const tensor_t *input(ref_t *r, const struct dla_data_cube *q, int op)
{
    if (q->address >= 0 && (size_t)q->address < r->n && r->t[q->address].have) return &r->t[q->address];
    uint64_t off;
    const ld_mem_t *m = addr_mem(r->l, q->address, &off);
    if (!m || !m->ncontents) {
        sim_error(drv_sim(r->d),
                  "fw_net FP16 reference: op %d reads address index %d, which no earlier op writes and "
                  "no content sets",
                  op, q->address);
        return NULL;
    }
    tensor_t *t = &r->t[q->address];
    alloc(t, q->width, q->height, q->channel);
    for (uint32_t c = 0; c < t->c; c++)
        for (uint32_t y = 0; y < t->h; y++)
            for (uint32_t x = 0; x < t->w; x++) {
                const uint64_t a = off + c / LANES * (uint64_t)q->surf_stride + (uint64_t)y * q->line_stride +
                                   (uint64_t)x * ATOM + c % LANES * ESIZE;
                *elem(t, c, y, x) = (uint16_t)(mem_byte(m, a) | mem_byte(m, a + 1) << 8);
            }
    return t;
}

/* sdp.c: BS/BN bypass by enable, the ALU on for ADD or BOTH, the multiplier for MUL or BOTH, PReLU and ReLU by act,
 * register operands (per layer). */
static sdp_fp16_stage_t sdp_stage(const struct dla_sdp_op *o)
{
    return (sdp_fp16_stage_t){.bypass = !o->enable,
                              .alu_bypass = !(o->type == SDP_OP_ADD || o->type == SDP_OP_BOTH),
                              .mul_bypass = !(o->type == SDP_OP_MUL || o->type == SDP_OP_BOTH),
                              .prelu = o->act == ACTIVATION_PRELU,
                              .relu_bypass = o->act != ACTIVATION_RELU,
                              .algo = o->alu_type,
                              .alu_op = (uint16_t)o->alu_operand,
                              .mul_op = (uint16_t)o->mul_operand};
}

static bool run_sdp(ref_t *r, int j, const struct dla_sdp_op_desc *s, const struct dla_sdp_surface_desc *q)
{
    if (s->src_precision != PRECISION_FP16 || s->dst_precision != PRECISION_FP16 || s->y_op.enable ||
        s->x1_op.mode != SDP_OP_PER_LAYER || s->x2_op.mode != SDP_OP_PER_LAYER || q->src_data.type == DLA_MEM_HW) {
        sim_error(drv_sim(r->d),
                  "fw_net FP16 reference: op %d (SDP) is not FP16 memory to memory with register "
                  "operands and no Y stage",
                  j);
        return false;
    }
    const tensor_t *in = input(r, &q->src_data, j);
    if (!in) return false;
    /* NAN_TO_ZERO is not written by the firmware (reset 0); the converter is not used at FP16 */
    const sdp_fp16_cfg_t c = {.x1 = sdp_stage(&s->x1_op), .x2 = sdp_stage(&s->x2_op)};
    tensor_t out = {0};
    alloc(&out, in->w, in->h, in->c);
    for (size_t k = 0; k < (size_t)in->w * in->h * in->c; k++) out.v[k] = sdp_fp16_element(&c, in->v[k]);
    free(r->t[q->dst_data.address].v);
    r->t[q->dst_data.address] = out;
    return true;
}

/* pdp.c: the firmware's FP16 reciprocals (recip_kernel_size, FP17), its padding values (0 at FP16, asserted). */
static bool run_pdp(ref_t *r, int j, const struct dla_pdp_op_desc *s, const struct dla_pdp_surface_desc *q)
{
    static const uint32_t recip[8] = {0x7c00, 0x7800, 0x7555, 0x7400, 0x7266, 0x7155, 0x7092, 0x7000};
    if (s->precision != PRECISION_FP16 || s->split_num != 1 || s->pool_width > 7 || s->pool_height > 7) {
        sim_error(drv_sim(r->d), "fw_net FP16 reference: op %d (PDP) is not FP16, one split, kernel up to 8x8", j);
        return false;
    }
    const tensor_t *in = input(r, &q->src_data, j);
    if (!in) return false;
    pdp_fp16_cfg_t c = {.method = s->pool_mode,
                        .kw = s->pool_width + 1u,
                        .kh = s->pool_height + 1u,
                        .sw = s->stride_x,
                        .sh = s->stride_y,
                        .pl = s->pad_left,
                        .pt = s->pad_top,
                        .recip_w = recip[s->pool_width],
                        .recip_h = recip[s->pool_height]};
    for (int k = 0; k < 7; k++) c.pad[k] = (uint32_t)s->padding_value[k] & 0x1FFFF;
    tensor_t out = {0};
    alloc(&out, q->dst_data.width, q->dst_data.height, in->c);
    for (uint32_t ch = 0; ch < in->c; ch++)
        for (uint32_t y = 0; y < out.h; y++)
            for (uint32_t x = 0; x < out.w; x++)
                *elem(&out, ch, y, x) = pdp_fp16_pool_one(&c, elem(in, ch, 0, 0), in->w, in->h, x, y);
    free(r->t[q->dst_data.address].v);
    r->t[q->dst_data.address] = out;
    return true;
}

/* cdp.c and common.c update_lut: LE_INDEX_OFFSET from exp_offset (exponent table) or LE_INDEX_SELECT from frac_bits
 * (linear), LO_INDEX_SELECT from its frac_bits, the starts and ends' low words, FP16 slopes, the priorities;
 * NORMALZ_LEN from local_size, no NaN flush; a channel outside the cube +0, as nv_full's RTL reads it whatever
 * DATIN_OFFSET (in_cvt.offset) holds (CDP_FP16_OUTSIDE, golden/nvdla/cdp_fp16.h; cmod reads the offset there). */
static bool run_cdp(ref_t *r, int j, const struct dla_cdp_op_desc *s, const struct dla_cdp_surface_desc *q,
                    const ld_blob_t *luts, unsigned nluts)
{
    if (s->in_precision != PRECISION_FP16 || s->out_precision != PRECISION_FP16 || s->lut_index < 0 ||
        (unsigned)s->lut_index >= nluts || !luts ||
        luts->size < ((size_t)s->lut_index + 1) * sizeof(struct dla_lut_param) || s->local_size < 3 ||
        s->local_size > 9) {
        sim_error(drv_sim(r->d),
                  "fw_net FP16 reference: op %d (CDP) is not FP16 with a LUT of the list and 3-9 "
                  "channels",
                  j);
        return false;
    }
    const tensor_t *in = input(r, &q->src_data, j);
    if (!in) return false;
    struct dla_lut_param p;
    memcpy(&p, luts->data + (size_t)s->lut_index * sizeof p, sizeof p);
    const bool exp = p.method == LUT_METHOD_EXPONENTIAL;
    const cdp_fp16_cfg_t c = {.le_exponent = exp,
                              .uflow_lo = p.underflow_priority == LUT_PRI_LINEAR_ONLY,
                              .oflow_lo = p.overflow_priority == LUT_PRI_LINEAR_ONLY,
                              .hybrid_lo = p.hybrid_priority == LUT_PRI_LINEAR_ONLY,
                              .sqsum_bypass = s->bypass_sqsum,
                              .mul_bypass = s->bypass_out_mul,
                              .normalz_len = (s->local_size - 1u) / 2 - 1,
                              .le_start = (uint32_t)p.linear_exp_start,
                              .le_end = (uint32_t)p.linear_exp_end,
                              .lo_start = (uint32_t)p.linear_only_start,
                              .lo_end = (uint32_t)p.linear_only_end,
                              .le_index_offset = exp ? p.linear_exp_offset.exp_offset : 0,
                              .le_index_select = exp ? 0 : p.linear_exp_offset.frac_bits,
                              .lo_index_select = p.linear_only_offset.frac_bits,
                              .le_uflow = p.linear_exp_underflow_slope.data_f,
                              .le_oflow = p.linear_exp_overflow_slope.data_f,
                              .lo_uflow = p.linear_only_underflow_slope.data_f,
                              .lo_oflow = p.linear_only_overflow_slope.data_f,
                              .datin_offset = (uint16_t)s->in_cvt.offset};
    cdp_lut_t t;
    memcpy(t.le, p.linear_exp_table, sizeof t.le);
    memcpy(t.lo, p.linear_only_table, sizeof t.lo);
    tensor_t out = {0};
    alloc(&out, in->w, in->h, in->c);
    for (uint32_t y = 0; y < in->h; y++)
        for (uint32_t x = 0; x < in->w; x++)
            for (uint32_t ch = 0; ch < in->c; ch++) {
                uint16_t win[9];
                for (int k = -4; k <= 4; k++) {
                    const int64_t cc = (int64_t)ch + k;
                    win[4 + k] = cc < 0 || cc >= in->c ? CDP_FP16_OUTSIDE : *elem(in, (uint32_t)cc, y, x);
                }
                *elem(&out, ch, y, x) = cdp_fp16_element(&c, &t, win);
            }
    free(r->t[q->dst_data.address].v);
    r->t[q->dst_data.address] = out;
    return true;
}

/* A BDMA transfer of a whole cube (as the writer draws them): the tensor itself at its destination. A transfer says
 * no channel count: the cube's at either end (another op's surface or an output tensor) gives it. */
static bool run_bdma(ref_t *r, int j, const struct dla_bdma_surface_desc *q)
{
    for (uint32_t k = 0; k < q->num_transfers && k < NUM_MAX_BDMA_OPS; k++) {
        const struct dla_bdma_transfer_desc *x = &q->transfers[k];
        const bool ends = x->source_address >= 0 && (size_t)x->source_address < r->n && x->destination_address >= 0 &&
                          (size_t)x->destination_address < r->n;
        const tensor_t *in = NULL;
        if (ends && r->t[x->source_address].have) in = &r->t[x->source_address];
        else if (ends) {
            const uint32_t c =
                r->channels[x->source_address] ? r->channels[x->source_address] : r->channels[x->destination_address];
            const struct dla_data_cube cube = {.address = x->source_address,
                                               .width = (uint16_t)(x->line_size / ATOM),
                                               .height = (uint16_t)x->line_repeat,
                                               .channel = (uint16_t)c,
                                               .line_stride = x->source_line,
                                               .surf_stride = x->source_surface};
            in = c ? input(r, &cube, j) : NULL;
        }
        if (!in || x->line_size != in->w * ATOM || x->line_repeat != in->h ||
            x->surface_repeat != (in->c + LANES - 1) / LANES || x->destination_address < 0 ||
            (size_t)x->destination_address >= r->n) {
            sim_error(drv_sim(r->d),
                      "fw_net FP16 reference: op %d (BDMA) transfer %u is not a copy of a whole cube an "
                      "earlier op wrote",
                      j, k);
            return false;
        }
        tensor_t out = {0};
        alloc(&out, in->w, in->h, in->c);
        memcpy(out.v, in->v, (size_t)in->w * in->h * in->c * 2);
        free(r->t[x->destination_address].v);
        r->t[x->destination_address] = out;
    }
    return true;
}

/* RUBIK (cmod rbk/NV_NVDLA_rbk.cpp): contract, output channel c of pixel (x sx + kx, y sy + ky) from input channel
 * ((ky sx + kx) S + c / 16) 16 + c % 16, S the output's surfaces; split and merge keep every element (c, y, x), only
 * the layout (planes) changes. */
static bool run_rubik(ref_t *r, int j, const struct dla_rubik_op_desc *s, const struct dla_rubik_surface_desc *q)
{
    const tensor_t *in = input(r, &q->src_data, j);
    if (!in) return false;
    tensor_t out = {0};
    if (s->mode == RUBIK_MODE_CONTRACT) {
        const uint32_t sx = s->stride_x, sy = s->stride_y, S = (q->dst_data.channel + LANES - 1u) / LANES;
        alloc(&out, in->w * sx, in->h * sy, q->dst_data.channel);
        for (uint32_t c = 0; c < out.c; c++)
            for (uint32_t y = 0; y < out.h; y++)
                for (uint32_t x = 0; x < out.w; x++) {
                    const uint32_t ky = y % sy, kx = x % sx, ci = ((ky * sx + kx) * S + c / LANES) * LANES + c % LANES;
                    if (ci >= in->c) {
                        sim_error(drv_sim(r->d), "fw_net FP16 reference: op %d (RUBIK contract) reads channel %u of %u",
                                  j, ci, in->c);
                        free(out.v);
                        return false;
                    }
                    *elem(&out, c, y, x) = *elem(in, ci, y / sy, x / sx);
                }
    } else {
        alloc(&out, in->w, in->h, in->c);
        memcpy(out.v, in->v, (size_t)in->w * in->h * in->c * 2);
    }
    free(r->t[q->dst_data.address].v);
    r->t[q->dst_data.address] = out;
    return true;
}

bool nvdla_fw_fp16ref_applies(const nvdla_loadable_t *l)
{
    if (!l->ntensors || l->ntasks != 1) return false;
    for (size_t i = 0; i < l->ntensors; i++)
        if (l->tensors[i].data_type != HALF) return false;
    return true;
}

/* Address-list index of an output tensor (its memory entry and offset), or -1. */
static int tensor_index(const nvdla_loadable_t *l, const ld_tensor_t *t)
{
    for (size_t i = 0; i < l->tasks[0].naddr; i++) {
        const ld_addr_t *a = ld_addr_by_id(l, l->tasks[0].addr_ids[i]);
        if (a && a->mem_id == t->mem_id && a->offset == t->offset) return (int)i;
    }
    return -1;
}

/* Runs the network's operations in their order (the writer's: each after the ops it reads). */
static bool run_net(ref_t *r)
{
    const ld_blob_t *nb = blob_at(r->l, 0);
    struct dla_network_desc net;
    if (!nb || nb->size < sizeof net) {
        sim_error(drv_sim(r->d), "fw_net FP16 reference: address index 0 holds no network descriptor");
        return false;
    }
    memcpy(&net, nb->data, sizeof net);
    const ld_blob_t *ops = blob_at(r->l, net.operation_desc_index), *surfs = blob_at(r->l, net.surface_desc_index),
                    *deps = blob_at(r->l, net.dependency_graph_index),
                    *luts = net.num_luts ? blob_at(r->l, net.lut_data_index) : NULL;
    const size_t n = net.num_operations;
    if (!ops || !surfs || !deps || ops->size < n * sizeof(union dla_operation_container) ||
        surfs->size < n * sizeof(union dla_surface_container) || deps->size < n * sizeof(struct dla_common_op_desc)) {
        sim_error(drv_sim(r->d), "fw_net FP16 reference: the operation, surface or dependency list is short");
        return false;
    }
    for (size_t j = 0; j < n; j++) { /* the channels of each cube an op's surface names (BDMA's transfers do not) */
        struct dla_common_op_desc dep;
        union dla_surface_container sf;
        memcpy(&dep, deps->data + j * sizeof dep, sizeof dep);
        memcpy(&sf, surfs->data + j * sizeof sf, sizeof sf);
        const struct dla_data_cube *cubes[2] = {NULL, NULL};
        if (dep.op_type == DLA_OP_SDP) cubes[0] = &sf.sdp_surface.src_data, cubes[1] = &sf.sdp_surface.dst_data;
        if (dep.op_type == DLA_OP_PDP) cubes[0] = &sf.pdp_surface.src_data, cubes[1] = &sf.pdp_surface.dst_data;
        if (dep.op_type == DLA_OP_CDP) cubes[0] = &sf.cdp_surface.src_data, cubes[1] = &sf.cdp_surface.dst_data;
        if (dep.op_type == DLA_OP_RUBIK) cubes[0] = &sf.rubik_surface.src_data, cubes[1] = &sf.rubik_surface.dst_data;
        for (int k = 0; k < 2; k++)
            if (cubes[k] && cubes[k]->address >= 0 && (size_t)cubes[k]->address < r->n)
                r->channels[cubes[k]->address] = cubes[k]->channel;
    }
    for (size_t i = 0; i < r->l->ntensors; i++) {
        const int k = tensor_index(r->l, &r->l->tensors[i]);
        if (k >= 0) r->channels[k] = (uint32_t)r->l->tensors[i].c;
    }
    for (size_t pass = 0; pass < n; pass++) /* through chains of copies: a copy has its source's channels */
        for (size_t j = 0; j < n; j++) {
            struct dla_common_op_desc dep;
            union dla_surface_container sf;
            memcpy(&dep, deps->data + j * sizeof dep, sizeof dep);
            memcpy(&sf, surfs->data + j * sizeof sf, sizeof sf);
            for (uint32_t k = 0;
                 dep.op_type == DLA_OP_BDMA && k < sf.bdma_surface.num_transfers && k < NUM_MAX_BDMA_OPS; k++) {
                const int a = sf.bdma_surface.transfers[k].source_address,
                          b = sf.bdma_surface.transfers[k].destination_address;
                if (a < 0 || b < 0 || (size_t)a >= r->n || (size_t)b >= r->n) continue;
                if (!r->channels[a]) r->channels[a] = r->channels[b];
                if (!r->channels[b]) r->channels[b] = r->channels[a];
            }
        }
    for (size_t j = 0; j < n; j++) {
        struct dla_common_op_desc dep;
        union dla_operation_container op;
        union dla_surface_container sf;
        memcpy(&dep, deps->data + j * sizeof dep, sizeof dep);
        memcpy(&op, ops->data + j * sizeof op, sizeof op);
        memcpy(&sf, surfs->data + j * sizeof sf, sizeof sf);
        const int k = (int)j;
        bool ok;
        switch (dep.op_type) {
        case DLA_OP_SDP: ok = run_sdp(r, k, &op.sdp_op, &sf.sdp_surface); break;
        case DLA_OP_PDP: ok = run_pdp(r, k, &op.pdp_op, &sf.pdp_surface); break;
        case DLA_OP_CDP: ok = run_cdp(r, k, &op.cdp_op, &sf.cdp_surface, luts, net.num_luts); break;
        case DLA_OP_BDMA: ok = run_bdma(r, k, &sf.bdma_surface); break;
        case DLA_OP_RUBIK: ok = run_rubik(r, k, &op.rubik_op, &sf.rubik_surface); break;
        default:
            sim_error(drv_sim(r->d),
                      "fw_net FP16 reference: op %d has type %u (the convolution is not computed at "
                      "FP16)",
                      k, dep.op_type);
            ok = false;
        }
        if (!ok) return false;
    }
    return true;
}

uint64_t nvdla_fw_fp16ref_compare(drv_t *d, const nvdla_loadable_t *l, const uint64_t *base, int64_t corrupt)
{
    sim_t *sim = drv_sim(d);
    ref_t r = {.d = d, .l = l, .n = l->tasks[0].naddr};
    r.t = calloc(r.n ? r.n : 1, sizeof *r.t);
    r.channels = calloc(r.n ? r.n : 1, sizeof *r.channels);
    if (!r.t || !r.channels) abort();
    uint64_t compared = 0;
    if (run_net(&r))
        for (size_t i = 0; i < l->ntensors; i++) {
            const ld_tensor_t *a = &l->tensors[i];
            const int k = tensor_index(l, a);
            const ld_mem_t *m = ld_mem_by_id(l, a->mem_id);
            const tensor_t *t = k >= 0 && r.t[k].have ? &r.t[k] : NULL;
            if (!t || !m || t->c != (uint32_t)a->c || t->h != (uint32_t)a->h || t->w != (uint32_t)a->w) {
                sim_error(sim, "fw_net FP16 reference: output tensor %s (%dx%dx%d) is not one the network computes",
                          a->name, a->w, a->h, a->c);
                continue;
            }
            const uint64_t at = base[m - l->mems] + a->offset;
            if (i == 0 && corrupt >= 0 && corrupt < (int64_t)t->c * t->h * t->w) {
                const uint32_t e = (uint32_t)corrupt, c = e / (t->w * t->h), y = e / t->w % t->h, x = e % t->w;
                const uint64_t ea =
                    at + c / LANES * a->stride[2] + (uint64_t)y * a->stride[1] + (uint64_t)x * ATOM + c % LANES * ESIZE;
                uint8_t v;
                drv_mem_read(d, ea, &v, 1);
                v ^= 1;
                drv_mem_write(d, ea, &v, 1);
                printf("fw_net FP16 reference: +fw_corrupt=%lld flipped bit 0 of %s's element c %u y %u x %u\n",
                       (long long)corrupt, a->name, c, y, x);
            }
            uint64_t ndiff = 0, cls[5] = {0};
            char first[160] = "";
            for (uint32_t c = 0; c < t->c; c++)
                for (uint32_t y = 0; y < t->h; y++)
                    for (uint32_t x = 0; x < t->w; x++) {
                        uint8_t b[2];
                        drv_mem_read(d,
                                     at + c / LANES * a->stride[2] + (uint64_t)y * a->stride[1] + (uint64_t)x * ATOM +
                                         c % LANES * ESIZE,
                                     b, 2);
                        const uint16_t got = (uint16_t)(b[0] | b[1] << 8), want = *elem(t, c, y, x);
                        cls[nvf_fp16_class(want)]++;
                        if (got != want && !ndiff++)
                            snprintf(first, sizeof first, "c %u y %u x %u: memory 0x%04x, reference 0x%04x", c, y, x,
                                     got, want);
                    }
            const uint64_t n = (uint64_t)t->c * t->h * t->w;
            compared += n;
            if (ndiff)
                sim_error(sim,
                          "MISMATCH fw_net FP16 output tensor %s (%dx%dx%d) against the loadable's FP16 reference: "
                          "%llu of %llu elements differ, first in element %s",
                          a->name, a->w, a->h, a->c, (unsigned long long)ndiff, (unsigned long long)n, first);
            else
                printf("fw_net FP16 reference: output tensor %s (%dx%dx%d): %llu elements equal (%llu normal, %llu "
                       "denormal, %llu zero, %llu Inf, %llu NaN)\n",
                       a->name, a->w, a->h, a->c, (unsigned long long)n, (unsigned long long)cls[0],
                       (unsigned long long)cls[1], (unsigned long long)cls[2], (unsigned long long)cls[3],
                       (unsigned long long)cls[4]);
        }
    for (size_t i = 0; i < r.n; i++) free(r.t[i].v);
    free(r.t);
    free(r.channels);
    sb_add_compared(sim_scoreboard(sim), compared);
    return compared;
}
