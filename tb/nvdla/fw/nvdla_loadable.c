/* Flatbuffer reading (little-endian): a table starts with an soffset to its vtable; the vtable lists, per
 * field in declaration order, the field's offset in the table (0 = absent, default value). Offsets to tables,
 * vectors and strings are uoffsets relative to where they are stored. Every access is bounds-checked: the
 * first bad offset ends the read with its position. */
#include "nvdla_loadable.h"
#include "program.h" /* PROG_MAX_REGION, PROG_MAX_LOADED: the limits every stimulus format loads under */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fb {
    const uint8_t *b;
    size_t len;
    const char *path;
    char *err;
    size_t errlen;
    bool bad;
} fb_t;

/* The first error only: "path: offset N: what" and the suffix. */
static void fb_verror(fb_t *f, size_t at, const char *suffix, const char *fmt, va_list ap)
{
    if (f->bad) return;
    f->bad = true;
    char msg[200];
    vsnprintf(msg, sizeof msg, fmt, ap);
    snprintf(f->err, f->errlen, "%s: offset %zu: %s%s", f->path, at, msg, suffix);
}

static void fb_fail(fb_t *f, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fb_fail(fb_t *f, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fb_verror(f, at, " (not an NVDLA loadable 0.7 flatbuffer, or truncated)", fmt, ap);
    va_end(ap);
}

/* A well-formed loadable that asks more of the host than any stimulus may: no "not a flatbuffer" suffix. */
static void fb_limit(fb_t *f, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fb_limit(fb_t *f, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fb_verror(f, at, "", fmt, ap);
    va_end(ap);
}

static bool fb_ok(fb_t *f, size_t at, size_t n)
{
    if (!f->bad && at <= f->len && n <= f->len - at) return true;
    fb_fail(f, at, "%zu bytes past the end of the %zu-byte file", n, f->len);
    return false;
}
static uint32_t u32(fb_t *f, size_t at)
{
    if (!fb_ok(f, at, 4)) return 0;
    const uint8_t *p = f->b + at;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t u16(fb_t *f, size_t at)
{
    if (!fb_ok(f, at, 2)) return 0;
    return (uint16_t)(f->b[at] | f->b[at + 1] << 8);
}
static uint64_t u64(fb_t *f, size_t at) { return u32(f, at) | (uint64_t)u32(f, at + 4) << 32; }
static uint8_t u8(fb_t *f, size_t at) { return fb_ok(f, at, 1) ? f->b[at] : 0; }

/* Position of field `i` of the table at t, or 0 when absent. */
static size_t field(fb_t *f, size_t t, unsigned i)
{
    int32_t so = (int32_t)u32(f, t);
    size_t vt = (size_t)((int64_t)t - so);
    if (f->bad || (int64_t)t - so < 0) {
        fb_fail(f, t, "table's vtable offset %d leaves the file", so);
        return 0;
    }
    uint16_t vsize = u16(f, vt);
    if (4 + 2 * i + 2 > vsize) return 0;
    uint16_t o = u16(f, vt + 4 + 2 * i);
    return o ? t + o : 0;
}
static size_t deref(fb_t *f, size_t at) { return at ? at + u32(f, at) : 0; }
static uint64_t f_u64(fb_t *f, size_t t, unsigned i)
{
    size_t p = field(f, t, i);
    return p ? u64(f, p) : 0;
}
static uint32_t f_u32(fb_t *f, size_t t, unsigned i)
{
    size_t p = field(f, t, i);
    return p ? u32(f, p) : 0;
}
static uint16_t f_u16(fb_t *f, size_t t, unsigned i)
{
    size_t p = field(f, t, i);
    return p ? u16(f, p) : 0;
}
static uint8_t f_u8(fb_t *f, size_t t, unsigned i)
{
    size_t p = field(f, t, i);
    return p ? u8(f, p) : 0;
}
/* A vector field: its element count and the position of element 0. */
static size_t f_vec(fb_t *f, size_t t, unsigned i, size_t *start)
{
    size_t v = deref(f, field(f, t, i));
    *start = v + 4;
    if (!v) return 0;
    size_t n = u32(f, v);
    if (n > f->len) fb_fail(f, v, "vector of %zu elements", n);
    return f->bad ? 0 : n;
}
static char *f_str(fb_t *f, size_t t, unsigned i)
{
    size_t s = deref(f, field(f, t, i));
    if (!s) return strdup("");
    size_t n = u32(f, s);
    if (!fb_ok(f, s + 4, n)) return strdup("");
    return strndup((const char *)f->b + s + 4, n);
}

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) abort();
    return p;
}

/* Loadable fields in schema order. */
enum { L_VERSION, L_TASKS, L_MEMS, L_ADDRS, L_EVENTS, L_BLOBS, L_TENSORS, L_RELOCS, L_SUBMITS };

int nvdla_loadable_read(nvdla_loadable_t *l, const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "%s: cannot open the loadable", path);
        return -1;
    }
    fseek(fp, 0, SEEK_END);
    long sz = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *buf = xcalloc((size_t)(sz > 0 ? sz : 1), 1);
    size_t len = fread(buf, 1, (size_t)(sz > 0 ? sz : 0), fp);
    fclose(fp);
    return nvdla_loadable_parse(l, buf, len, path, err, errlen);
}

int nvdla_loadable_parse(nvdla_loadable_t *l, uint8_t *buf, size_t len, const char *name, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    l->buf = buf;
    l->len = len;
    const char *path = name;
    fb_t f = {.b = l->buf, .len = l->len, .path = path, .err = err, .errlen = errlen};
    size_t root = u32(&f, 0); /* the root table's uoffset, from position 0 */
    size_t vp = field(&f, root, L_VERSION);
    if (!f.bad && !vp) fb_fail(&f, root, "the required field 'version' is missing");
    for (int i = 0; i < 3 && vp; i++) l->version[i] = u8(&f, vp + (size_t)i);
    if (!f.bad && (l->version[0] != 0 || l->version[1] != 7))
        fb_fail(&f, vp, "loadable version %u.%u.%u, this reader knows 0.7.x", l->version[0], l->version[1],
                l->version[2]);

    size_t v, n = f_vec(&f, root, L_BLOBS, &v);
    l->blobs = xcalloc(n, sizeof *l->blobs);
    for (size_t i = 0; i < n && !f.bad; i++, l->nblobs++) {
        size_t t = deref(&f, v + 4 * i), d;
        ld_blob_t *b = &l->blobs[i];
        b->name = f_str(&f, t, 0);
        b->interface = f_u32(&f, t, 2);
        b->sub_interface = f_u32(&f, t, 3);
        b->size = f_vec(&f, t, 5, &d);
        if (fb_ok(&f, d, b->size)) b->data = f.b + d;
    }
    n = f_vec(&f, root, L_MEMS, &v);
    l->mems = xcalloc(n, sizeof *l->mems);
    uint64_t total = 0; /* bytes of every entry: the driver fills each whole (tb/nvdla/fw/nvdla_fw.c) */
    for (size_t i = 0; i < n && !f.bad; i++, l->nmems++) {
        size_t t = deref(&f, v + 4 * i), cv, ov;
        ld_mem_t *m = &l->mems[i];
        m->id = f_u16(&f, t, 0);
        m->domain = f_u8(&f, t, 1);
        m->flags = f_u16(&f, t, 2);
        m->size = f_u64(&f, t, 3);
        if (m->size > PROG_MAX_REGION)
            fb_limit(&f, t,
                     "memory entry %u (index %zu): size 0x%llx bytes exceeds the limit of 0x%llx bytes per entry",
                     m->id, i, (unsigned long long)m->size, PROG_MAX_REGION);
        total += m->size;
        if (total > PROG_MAX_LOADED)
            fb_limit(&f, t,
                     "memory entry %u (index %zu, 0x%llx bytes): the entries total more than the limit of 0x%llx bytes",
                     m->id, i, (unsigned long long)m->size, PROG_MAX_LOADED);
        m->alignment = f_u32(&f, t, 4);
        m->bind_id = f_u16(&f, t, 7);
        m->tensor_desc_id = f_u16(&f, t, 8);
        size_t nc = f_vec(&f, t, 5, &cv), no = f_vec(&f, t, 6, &ov);
        if (nc != no) fb_fail(&f, t, "memory entry %u has %zu contents but %zu offsets", m->id, nc, no);
        m->contents = xcalloc(nc, sizeof *m->contents);
        for (size_t k = 0; k < nc && !f.bad; k++) {
            size_t s = deref(&f, cv + 4 * k);
            size_t slen = u32(&f, s);
            if (!fb_ok(&f, s + 4, slen)) break;
            if (slen == 0) continue; /* NVIDIA's compiler writes "" for a region with nothing to set */
            const ld_blob_t *blob = NULL;
            for (size_t b = 0; b < l->nblobs && !blob; b++)
                if (strlen(l->blobs[b].name) == slen && memcmp(l->blobs[b].name, f.b + s + 4, slen) == 0)
                    blob = &l->blobs[b];
            if (!blob)
                fb_fail(&f, s, "memory entry %u names content '%.*s', which no blob has", m->id, (int)slen,
                        f.b + s + 4);
            m->contents[k] = (ld_content_t){blob, u64(&f, ov + 8 * k)};
            m->ncontents++;
            /* offset > size first: offset + blob size can wrap around (0xffffffffffffff00 + 256 = 0) */
            if (blob && (m->contents[k].offset > m->size || blob->size > m->size - m->contents[k].offset))
                fb_fail(&f, ov + 8 * k,
                        "memory entry %u: content '%s' at offset %llu (0x%llx; %zu bytes) overflows its %llu bytes",
                        m->id, blob->name, (unsigned long long)m->contents[k].offset,
                        (unsigned long long)m->contents[k].offset, blob->size, (unsigned long long)m->size);
        }
    }
    n = f_vec(&f, root, L_ADDRS, &v);
    l->addrs = xcalloc(n, sizeof *l->addrs);
    for (size_t i = 0; i < n && !f.bad; i++, l->naddrs++) {
        size_t t = deref(&f, v + 4 * i);
        l->addrs[i] = (ld_addr_t){f_u16(&f, t, 0), f_u16(&f, t, 1), f_u64(&f, t, 2), f_u64(&f, t, 3)};
        const ld_mem_t *m = f.bad ? NULL : ld_mem_by_id(l, l->addrs[i].mem_id);
        if (!f.bad && !m)
            fb_fail(&f, t, "address entry %u refers to memory id %u, which the memory list lacks", l->addrs[i].id,
                    l->addrs[i].mem_id);
        else if (m && l->addrs[i].offset > m->size) /* a DMA address past its memory entry */
            fb_fail(&f, t, "address entry %u: offset %llu (0x%llx) lies past memory entry %u's %llu bytes",
                    l->addrs[i].id, (unsigned long long)l->addrs[i].offset, (unsigned long long)l->addrs[i].offset,
                    m->id, (unsigned long long)m->size);
        /* ... and its extent inside it (size > the rest, not offset + size: that wraps around 2^64). Every loadable
         * of NVIDIA's regression keeps it; a size of 2^64-1 used to pass unread (the fuzz lane). */
        else if (m && l->addrs[i].size > m->size - l->addrs[i].offset)
            fb_fail(&f, t, "address entry %u: %llu (0x%llx) bytes at offset %llu overflow memory entry %u's %llu bytes",
                    l->addrs[i].id, (unsigned long long)l->addrs[i].size, (unsigned long long)l->addrs[i].size,
                    (unsigned long long)l->addrs[i].offset, m->id, (unsigned long long)m->size);
    }
    n = f_vec(&f, root, L_TASKS, &v);
    l->tasks = xcalloc(n, sizeof *l->tasks);
    for (size_t i = 0; i < n && !f.bad; i++, l->ntasks++) {
        size_t t = deref(&f, v + 4 * i), av;
        ld_task_t *k = &l->tasks[i];
        k->id = f_u16(&f, t, 0);
        k->interface = f_u32(&f, t, 1);
        k->instance = (int16_t)f_u16(&f, t, 2);
        size_t na = f_vec(&f, t, 3, &av);
        k->addr_ids = xcalloc(na, sizeof *k->addr_ids);
        for (size_t a = 0; a < na && !f.bad; a++, k->naddr++) {
            k->addr_ids[a] = u16(&f, av + 2 * a);
            if (!f.bad && !ld_addr_by_id(l, k->addr_ids[a]))
                fb_fail(&f, av + 2 * a, "task %u's address list names address id %u, which the address list lacks",
                        k->id, k->addr_ids[a]);
        }
    }
    n = f_vec(&f, root, L_TENSORS, &v);
    l->tensors = xcalloc(n, sizeof *l->tensors);
    for (size_t i = 0; i < n && !f.bad; i++, l->ntensors++) {
        size_t t = deref(&f, v + 4 * i);
        ld_tensor_t *d = &l->tensors[i];
        d->name = f_str(&f, t, 0);
        d->id = f_u16(&f, t, 1);
        d->mem_id = f_u16(&f, t, 2);
        d->size = f_u64(&f, t, 3);
        d->offset = f_u64(&f, t, 4);
        d->data_format = f_u8(&f, t, 5);
        d->data_type = f_u8(&f, t, 6);
        d->data_category = f_u8(&f, t, 7);
        d->pixel_format = f_u8(&f, t, 8);
        d->n = (int32_t)f_u32(&f, t, 10);
        d->c = (int32_t)f_u32(&f, t, 11);
        d->h = (int32_t)f_u32(&f, t, 12);
        d->w = (int32_t)f_u32(&f, t, 13);
        for (unsigned s = 0; s < 8; s++) d->stride[s] = f_u32(&f, t, 14 + s);
    }
    n = f_vec(&f, root, L_SUBMITS, &v);
    l->submits = xcalloc(n, sizeof *l->submits);
    for (size_t i = 0; i < n && !f.bad; i++, l->nsubmits++) {
        size_t t = deref(&f, v + 4 * i), tv;
        ld_submit_t *s = &l->submits[i];
        s->id = f_u16(&f, t, 0);
        size_t nt = f_vec(&f, t, 1, &tv);
        s->task_ids = xcalloc(nt, sizeof *s->task_ids);
        for (size_t k = 0; k < nt && !f.bad; k++, s->ntasks++) {
            s->task_ids[k] = u16(&f, tv + 2 * k);
            if (!f.bad && s->task_ids[k] >= l->ntasks)
                fb_fail(&f, tv + 2 * k, "submit entry %u names task %u; the task list has %zu", s->id, s->task_ids[k],
                        l->ntasks);
        }
    }
    if (!f.bad && l->ntasks == 0) fb_fail(&f, root, "the loadable has no task");
    if (f.bad) {
        nvdla_loadable_free(l);
        return -1;
    }
    return 0;
}

void nvdla_loadable_free(nvdla_loadable_t *l)
{
    for (size_t i = 0; i < l->nblobs; i++) free(l->blobs[i].name);
    for (size_t i = 0; i < l->nmems; i++) free(l->mems[i].contents);
    for (size_t i = 0; i < l->ntasks; i++) free(l->tasks[i].addr_ids);
    for (size_t i = 0; i < l->ntensors; i++) free(l->tensors[i].name);
    for (size_t i = 0; i < l->nsubmits; i++) free(l->submits[i].task_ids);
    free(l->submits);
    free(l->blobs);
    free(l->mems);
    free(l->addrs);
    free(l->tasks);
    free(l->tensors);
    free(l->buf);
    memset(l, 0, sizeof *l);
}

const ld_mem_t *ld_mem_by_id(const nvdla_loadable_t *l, uint16_t id)
{
    for (size_t i = 0; i < l->nmems; i++)
        if (l->mems[i].id == id) return &l->mems[i];
    return NULL;
}

const ld_addr_t *ld_addr_by_id(const nvdla_loadable_t *l, uint16_t id)
{
    for (size_t i = 0; i < l->naddrs; i++)
        if (l->addrs[i].id == id) return &l->addrs[i];
    return NULL;
}
