/* A minimal flatbuffer builder, front to back: a table is its soffset and inline fields, then its vtable
 * (after it: the soffset is negative, which the format allows); the tables, vectors and strings a table
 * refers to follow it, so every uoffset points forward, as the format requires. */
#include "nvdla_loadable_write.h"
#include <stdlib.h>
#include <string.h>

typedef struct fbb {
    uint8_t *b;
    size_t n, cap;
} fbb_t;
typedef struct tbl {
    size_t t;
    unsigned nf;
    uint16_t off[24];
} tbl_t;

static size_t put(fbb_t *f, const void *v, size_t n, size_t align)
{
    size_t pad = (align - f->n % align) % align;
    if (f->n + pad + n > f->cap) {
        f->cap = (f->n + pad + n) * 2 + 256;
        f->b = realloc(f->b, f->cap);
        if (!f->b) abort();
    }
    memset(f->b + f->n, 0, pad);
    f->n += pad;
    size_t at = f->n;
    if (v) memcpy(f->b + at, v, n);
    else memset(f->b + at, 0, n);
    f->n += n;
    return at;
}
static void set32(fbb_t *f, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++) f->b[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}
static void set16(fbb_t *f, size_t at, uint16_t v) { f->b[at] = (uint8_t)v, f->b[at + 1] = (uint8_t)(v >> 8); }
static size_t put_u32(fbb_t *f, uint32_t v)
{
    uint8_t b[4];
    for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
    return put(f, b, 4, 4);
}
static void link(fbb_t *f, size_t slot, size_t target) { set32(f, slot, (uint32_t)(target - slot)); } /* uoffset */

static void tb_begin(fbb_t *f, tbl_t *t, unsigned nf)
{
    memset(t, 0, sizeof *t);
    t->nf = nf;
    put(f, NULL, 0, 8);
    t->t = put_u32(f, 0);
}
static void tb_le(fbb_t *f, tbl_t *t, unsigned i, uint64_t v, size_t sz)
{
    uint8_t b[8];
    for (size_t k = 0; k < sz; k++) b[k] = (uint8_t)(v >> (8 * k));
    t->off[i] = (uint16_t)(put(f, b, sz, sz) - t->t);
}
static void tb_bytes(fbb_t *f, tbl_t *t, unsigned i, const void *v, size_t n)
{
    t->off[i] = (uint16_t)(put(f, v, n, 1) - t->t);
}
static size_t tb_ref(fbb_t *f, tbl_t *t, unsigned i)
{ /* a uoffset field, linked later */
    size_t at = put_u32(f, 0);
    t->off[i] = (uint16_t)(at - t->t);
    return at;
}
static void tb_end(fbb_t *f, tbl_t *t)
{
    uint16_t tsize = (uint16_t)(f->n - t->t);
    size_t v = put(f, NULL, 4 + 2 * t->nf, 2);
    set16(f, v, (uint16_t)(4 + 2 * t->nf));
    set16(f, v + 2, tsize);
    for (unsigned i = 0; i < t->nf; i++) set16(f, v + 4 + 2 * i, t->off[i]);
    set32(f, t->t, (uint32_t)(int32_t)((int64_t)t->t - (int64_t)v));
}
static size_t vec_begin(fbb_t *f, size_t slot, size_t n, size_t elem_align)
{ /* returns the first element's position */
    put(f, NULL, 0, elem_align > 4 ? elem_align : 4);
    if (elem_align > 4 && f->n % elem_align == 0) put(f, NULL, 4, 1); /* length word just before aligned data */
    size_t at = put_u32(f, (uint32_t)n);
    link(f, slot, at);
    return at + 4;
}
static void str(fbb_t *f, size_t slot, const char *s)
{
    size_t n = strlen(s);
    size_t at = put_u32(f, (uint32_t)n);
    link(f, slot, at);
    put(f, s, n, 1);
    put(f, "", 1, 1);
}
static size_t *slots(fbb_t *f, size_t slot, size_t n)
{ /* a vector of tables: n slots to link */
    size_t first = vec_begin(f, slot, n, 4);
    put(f, NULL, 4 * n, 4);
    size_t *s = calloc(n ? n : 1, sizeof *s);
    if (!s) abort();
    for (size_t i = 0; i < n; i++) s[i] = first + 4 * i;
    return s;
}

uint8_t *nvdla_loadable_write(const nvdla_loadable_t *l, size_t *len)
{
    fbb_t f = {0};
    size_t root = put_u32(&f, 0);
    tbl_t t;
    tb_begin(&f, &t, 9);
    link(&f, root, t.t);
    tb_bytes(&f, &t, 0, l->version, 3);
    size_t s_tasks = tb_ref(&f, &t, 1), s_mems = tb_ref(&f, &t, 2), s_addrs = tb_ref(&f, &t, 3),
           s_blobs = tb_ref(&f, &t, 5), s_tensors = tb_ref(&f, &t, 6), s_submit = tb_ref(&f, &t, 8);
    tb_end(&f, &t);

    size_t *s = slots(&f, s_tasks, l->ntasks);
    for (size_t i = 0; i < l->ntasks; i++) {
        const ld_task_t *k = &l->tasks[i];
        tb_begin(&f, &t, 6);
        link(&f, s[i], t.t);
        tb_le(&f, &t, 0, k->id, 2);
        tb_le(&f, &t, 1, k->interface, 4);
        tb_le(&f, &t, 2, (uint16_t)k->instance, 2);
        size_t a = tb_ref(&f, &t, 3);
        tb_end(&f, &t);
        size_t e = vec_begin(&f, a, k->naddr, 4);
        (void)e;
        for (size_t j = 0; j < k->naddr; j++) {
            uint8_t b[2] = {(uint8_t)k->addr_ids[j], (uint8_t)(k->addr_ids[j] >> 8)};
            put(&f, b, 2, 2);
        }
    }
    free(s);
    s = slots(&f, s_mems, l->nmems);
    for (size_t i = 0; i < l->nmems; i++) {
        const ld_mem_t *m = &l->mems[i];
        tb_begin(&f, &t, 9);
        link(&f, s[i], t.t);
        tb_le(&f, &t, 3, m->size, 8);
        tb_le(&f, &t, 0, m->id, 2);
        tb_le(&f, &t, 1, m->domain, 1);
        tb_le(&f, &t, 2, m->flags, 2);
        tb_le(&f, &t, 4, m->alignment, 4);
        tb_le(&f, &t, 7, m->bind_id, 2);
        tb_le(&f, &t, 8, m->tensor_desc_id, 2);
        size_t sc = tb_ref(&f, &t, 5), so = tb_ref(&f, &t, 6);
        tb_end(&f, &t);
        size_t *cs = slots(&f, sc, m->ncontents);
        for (size_t k = 0; k < m->ncontents; k++) str(&f, cs[k], m->contents[k].blob ? m->contents[k].blob->name : "");
        free(cs);
        vec_begin(&f, so, m->ncontents, 8);
        for (size_t k = 0; k < m->ncontents; k++) {
            uint8_t b[8];
            for (int x = 0; x < 8; x++) b[x] = (uint8_t)(m->contents[k].offset >> (8 * x));
            put(&f, b, 8, 1);
        }
    }
    free(s);
    s = slots(&f, s_addrs, l->naddrs);
    for (size_t i = 0; i < l->naddrs; i++) {
        tb_begin(&f, &t, 4);
        link(&f, s[i], t.t);
        tb_le(&f, &t, 2, l->addrs[i].offset, 8);
        tb_le(&f, &t, 3, l->addrs[i].size, 8);
        tb_le(&f, &t, 0, l->addrs[i].id, 2);
        tb_le(&f, &t, 1, l->addrs[i].mem_id, 2);
        tb_end(&f, &t);
    }
    free(s);
    s = slots(&f, s_blobs, l->nblobs);
    for (size_t i = 0; i < l->nblobs; i++) {
        const ld_blob_t *b = &l->blobs[i];
        tb_begin(&f, &t, 6);
        link(&f, s[i], t.t);
        tb_le(&f, &t, 1, b->size, 8);
        tb_le(&f, &t, 2, b->interface, 4);
        tb_le(&f, &t, 3, b->sub_interface, 4);
        size_t sn = tb_ref(&f, &t, 0), sd = tb_ref(&f, &t, 5);
        tb_end(&f, &t);
        str(&f, sn, b->name);
        vec_begin(&f, sd, b->size, 4);
        put(&f, b->data, b->size, 1);
    }
    free(s);
    s = slots(&f, s_tensors, l->ntensors);
    for (size_t i = 0; i < l->ntensors; i++) {
        const ld_tensor_t *d = &l->tensors[i];
        tb_begin(&f, &t, 22);
        link(&f, s[i], t.t);
        tb_le(&f, &t, 3, d->size, 8);
        tb_le(&f, &t, 4, d->offset, 8);
        tb_le(&f, &t, 1, d->id, 2);
        tb_le(&f, &t, 2, d->mem_id, 2);
        tb_le(&f, &t, 5, d->data_format, 1);
        tb_le(&f, &t, 6, d->data_type, 1);
        tb_le(&f, &t, 7, d->data_category, 1);
        tb_le(&f, &t, 8, d->pixel_format, 1);
        tb_le(&f, &t, 10, (uint32_t)d->n, 4);
        tb_le(&f, &t, 11, (uint32_t)d->c, 4);
        tb_le(&f, &t, 12, (uint32_t)d->h, 4);
        tb_le(&f, &t, 13, (uint32_t)d->w, 4);
        for (unsigned k = 0; k < 8; k++) tb_le(&f, &t, 14 + k, d->stride[k], 4);
        size_t sn = tb_ref(&f, &t, 0);
        tb_end(&f, &t);
        str(&f, sn, d->name);
    }
    free(s);
    s = slots(&f, s_submit, l->ntasks); /* one submit entry per task, in order */
    for (size_t i = 0; i < l->ntasks; i++) {
        tb_begin(&f, &t, 2);
        link(&f, s[i], t.t);
        tb_le(&f, &t, 0, (uint16_t)i, 2);
        size_t st = tb_ref(&f, &t, 1);
        tb_end(&f, &t);
        vec_begin(&f, st, 1, 4);
        uint8_t b[2] = {(uint8_t)l->tasks[i].id, (uint8_t)(l->tasks[i].id >> 8)};
        put(&f, b, 2, 2);
    }
    free(s);
    *len = f.n;
    return f.b;
}
