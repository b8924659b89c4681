/* NVIDIA's runtime's CPU emulator (EMU1 tasks), written from NVIDIA's public sources at nvdla/sw 38235bb, the commit
 * that regenerated NN_L0_0_fbuf and its golden output (whose EMU descriptors have that commit's layout, not the
 * later one of nvdla/sw's master, which added scale factors and an address offset). Cited below as
 *   E  umd/core/runtime/Emulator.cpp          (the emulator: processTask, executePower, executeSoftmax)
 *   R  umd/core/runtime/Runtime.cpp           (the runtime: fillEMUTaskAddressList, submitInternal)
 *   I  umd/core/common/include/priv/emu/emu1/A/emu_interface.h   (the descriptors' layout)
 *   H  umd/external/include/half.h            (half 1.11.0: the FP16 <-> float conversions)
 * The emulator's task is what the runtime hands it (R:472-530): address-list entry i of the task becomes
 * "memory entry's mapping + address entry's offset" (E:129-140), an SRAM entry none. Entry 0 is the network
 * descriptor; it names the entries holding the operation list and the operation buffer list (E:182-186). */
#include "nvdla_emu.h"
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Byte offsets of I's packed structures at 38235bb: emu_network_desc (I:68-73), the operation container (a union
 * of emu_power_op_desc and emu_softmax_op_desc, packed, aligned to 4: 16 bytes, I:75-98), the buffer container (a
 * union of two emu_buffer_desc, each packed and aligned to 256: 512 bytes, I:100-137). */
static const struct emu_layout {
    unsigned net_op_index, net_buf_index, net_num_ops, net_size;
    unsigned op_size, op_type, op_power, op_scale, op_shift, op_axis;
    unsigned bufs_size, src, dst;
    unsigned b_index, b_size, b_format, b_width, b_height, b_channel, b_line, b_surf, b_end;
} L = {.net_op_index = 0,
       .net_buf_index = 2,
       .net_num_ops = 4,
       .net_size = 6,
       .op_size = 16,
       .op_type = 0,
       .op_power = 1,
       .op_scale = 5,
       .op_shift = 9,
       .op_axis = 1,
       .bufs_size = 512,
       .src = 0,
       .dst = 256,
       .b_index = 0,
       .b_size = 2,
       .b_format = 6,
       .b_width = 8,
       .b_height = 10,
       .b_channel = 12,
       .b_line = 14,
       .b_surf = 18,
       .b_end = 22};

enum { EMU_OP_POWER = 0, EMU_OP_SOFTMAX = 1, EMU_FORMAT_FF16 = 2 }; /* I:39-40; E:211 (NVDLA_FF16_F_FORMAT) */
static const char *const op_name[] = {"power", "softmax"};

typedef struct emu_buf {
    int16_t index; /* address-list index */
    uint16_t format, width, height, channel;
    uint32_t size, line, surf;
} emu_buf_t;

typedef struct emu {
    const nvdla_emu_io_t *io;
    const nvdla_loadable_t *l;
    const ld_task_t *t;
    const uint64_t *base;
    const char *op; /* the operation, for messages */
    char *err;
    size_t errlen;
    bool bad;
} emu_t;

static void fail(emu_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(emu_t *e, const char *fmt, ...)
{
    if (e->bad) return;
    e->bad = true;
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(e->err, e->errlen, "task %u: EMU operation 0%s%s%s: %s", e->t->id, e->op ? " (" : "", e->op ? e->op : "",
             e->op ? ")" : "", msg);
}

/* Address-list index i of the task: its DBB address and the bytes its memory entry holds from there. */
static bool resolve(emu_t *e, int64_t i, const char *what, uint64_t *addr, uint64_t *avail)
{
    if (i < 0 || (uint64_t)i >= e->t->naddr) {
        fail(e, "%s: address-list index %lld outside the task's %zu entries", what, (long long)i, e->t->naddr);
        return false;
    }
    const ld_addr_t *a = ld_addr_by_id(e->l, e->t->addr_ids[i]);
    const ld_mem_t *m = ld_mem_by_id(e->l, a->mem_id);
    if (m->domain != 0) { /* R:511-514: an SRAM entry reaches the emulator as address 0 */
        fail(e,
             "%s: address-list index %lld is memory entry %u in SRAM (domain %u), which NVIDIA's runtime gives the "
             "emulator no address for",
             what, (long long)i, m->id, m->domain);
        return false;
    }
    *addr = e->base[m - e->l->mems] + a->offset;
    *avail = m->size - a->offset;
    return true;
}

/* n bytes at byte `off` of address-list index i, bounds-checked against its memory entry */
static bool mem_access(emu_t *e, int64_t i, uint64_t off, void *buf, size_t n, bool write, const char *what)
{
    uint64_t addr, avail;
    if (e->bad || !resolve(e, i, what, &addr, &avail)) return false;
    if (off > avail || n > avail - off) {
        fail(e, "%s: bytes %llu..%llu from address-list index %lld lie past its memory entry's %llu bytes", what,
             (unsigned long long)off, (unsigned long long)(off + n - 1), (long long)i, (unsigned long long)avail);
        return false;
    }
    if (write) e->io->write(e->io->ctx, addr + off, buf, n);
    else e->io->read(e->io->ctx, addr + off, buf, n);
    return true;
}

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static float lef32(const uint8_t *p)
{
    uint32_t b = le32(p);
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* H:606-680 half2float_impl: exact (denormals normalised, Inf kept, a NaN's mantissa shifted up by 13 bits) */
float nvdla_emu_h2f(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000) << 16, ex = (h >> 10) & 0x1f, m = h & 0x3ff, b;
    if (ex == 0x1f) b = s | 0x7f800000u | m << 13;
    else if (ex) b = s | (ex + 112) << 23 | m << 13;
    else if (!m) b = s;
    else {
        uint32_t k = 0; /* m * 2^-24 = 1.f * 2^(-14-k) */
        while (!(m & 0x400)) m <<= 1, k++;
        b = s | (113 - k) << 23 | (m & 0x3ff) << 13;
    }
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* H:419-492 float2half_impl with H:204 HALF_ROUND_STYLE 1 (round to nearest) and H:213 HALF_ROUND_TIES_TO_EVEN 0:
 * ties away from zero. The tables' rule, by the float's exponent field e: below 103 zero (but e == 102, [2^-25,
 * 2^-24), rounds up to the smallest denormal), 103..112 an FP16 denormal, 113..142 normal, above that Inf; e == 255
 * keeps the top 10 mantissa bits (a NaN whose are 0 becomes an Inf). The rounding bit is the first one dropped; a
 * carry out of the mantissa moves the exponent (65520 and up round to Inf). */
uint16_t nvdla_emu_f2h(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    uint32_t e = (b >> 23) & 0xff, m = b & 0x7fffff, base, shift;
    if (e < 103) base = 0, shift = 24;
    else if (e < 113) base = 0x400u >> (113 - e), shift = 126 - e;
    else if (e < 143) base = (e - 112) << 10, shift = 13;
    else base = 0x7c00, shift = e == 255 ? 13 : 24;
    uint32_t h = (b >> 16 & 0x8000) | (base + (m >> shift));
    h += (((m >> (shift - 1)) | (e == 102)) & 1) & ((h & 0x7c00) != 0x7c00);
    return (uint16_t)h;
}

static void read_buf(emu_t *e, int64_t index, uint64_t off, emu_buf_t *b, const char *which)
{
    uint8_t d[32];
    if (!mem_access(e, index, off, d, L.b_end, false, which)) return;
    b->index = (int16_t)le16(d + L.b_index);
    b->size = le32(d + L.b_size);
    b->format = le16(d + L.b_format);
    b->width = le16(d + L.b_width);
    b->height = le16(d + L.b_height);
    b->channel = le16(d + L.b_channel);
    b->line = le32(d + L.b_line);
    b->surf = le32(d + L.b_surf);
    if (b->format != EMU_FORMAT_FF16)
        fail(e,
             "%s buffer: format %u; NVIDIA's emulator computes format %u (FF16) only (E:211-224 refuses any other "
             "for power; its softmax reads every format as FP16)",
             which, b->format, EMU_FORMAT_FF16);
}

static uint16_t rd16(emu_t *e, const emu_buf_t *b, uint64_t off, const char *which)
{
    uint8_t d[2] = {0, 0};
    mem_access(e, b->index, off, d, 2, false, which);
    return le16(d);
}

static void wr16(emu_t *e, const emu_buf_t *b, uint64_t off, uint16_t v, const char *which)
{
    uint8_t d[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    mem_access(e, b->index, off, d, 2, true, which);
}

/* E:209-224 getAddrOffset: FF16 cubes in 32-byte atoms of 16 channels */
static uint64_t ff16_offset(const emu_buf_t *b, uint32_t w, uint32_t h, uint32_t c)
{
    return (uint64_t)(c / 16) * b->surf + (uint64_t)h * b->line + (uint64_t)w * 32 + (uint64_t)(c % 16) * 2;
}

static int64_t check_corrupt(emu_t *e, int64_t corrupt, uint64_t n)
{
    if (corrupt >= 0 && (uint64_t)corrupt >= n)
        fail(e, "+emu_corrupt=%lld: the output has %llu elements", (long long)corrupt, (unsigned long long)n);
    return corrupt;
}

/* E:226-278 executePower: every element of the source cube (channel, then line, then pixel), as float, to
 * powf(shift + scale * x, power), converted back to FP16 at the same place of the destination cube (its strides;
 * its dimensions unread). */
static void power(emu_t *e, const uint8_t *op, const emu_buf_t *src, const emu_buf_t *dst, int64_t corrupt)
{
    const float pw = lef32(op + L.op_power), scale = lef32(op + L.op_scale), shift = lef32(op + L.op_shift);
    corrupt = check_corrupt(e, corrupt, (uint64_t)src->channel * src->height * src->width);
    int64_t k = 0;
    for (uint32_t c = 0; c < src->channel; c++)
        for (uint32_t h = 0; h < src->height; h++)
            for (uint32_t w = 0; w < src->width && !e->bad; w++, k++) {
                const float x = nvdla_emu_h2f(rd16(e, src, ff16_offset(src, w, h, c), "power source"));
                const float y = powf(shift + scale * x, pw);
                wr16(e, dst, ff16_offset(dst, w, h, c), (uint16_t)(nvdla_emu_f2h(y) ^ (k == corrupt)),
                     "power destination");
            }
}

/* E:280-320 executeSoftmax: over the first `channel` FP16 values from the source's start, read as consecutive
 * halves (strides, width, height and the axis unread): the maximum as float, then a float sum of expf(x - max) in
 * channel order, then each expf(x - max) / sum to FP16. The last loop reads element i after writing element i - 1,
 * as E's pointers do, so an overlapping destination behaves as there. */
static void softmax(emu_t *e, const emu_buf_t *src, const emu_buf_t *dst, int64_t corrupt)
{
    const uint32_t n = src->channel;
    corrupt = check_corrupt(e, corrupt, n);
    float maxval = -INFINITY;
    for (uint32_t i = 0; i < n && !e->bad; i++) {
        const float x = nvdla_emu_h2f(rd16(e, src, 2ull * i, "softmax source"));
        if (x > maxval) maxval = x;
    }
    float sumexp = 0.0f;
    for (uint32_t i = 0; i < n && !e->bad; i++)
        sumexp += expf(nvdla_emu_h2f(rd16(e, src, 2ull * i, "softmax source")) - maxval);
    for (uint32_t i = 0; i < n && !e->bad; i++) {
        const float y = expf(nvdla_emu_h2f(rd16(e, src, 2ull * i, "softmax source")) - maxval) / sumexp;
        wr16(e, dst, 2ull * i, (uint16_t)(nvdla_emu_f2h(y) ^ (i == corrupt)), "softmax destination");
    }
}

static void buf_text(char *s, size_t n, const emu_buf_t *b)
{
    snprintf(s, n, "%ux%ux%u FF16 at address-list index %d", b->width, b->height, b->channel, b->index);
}

int nvdla_emu_task(const nvdla_emu_io_t *io, const nvdla_loadable_t *l, const ld_task_t *t, const uint64_t *mem_base,
                   int64_t corrupt, char *what, size_t whatlen, char *err, size_t errlen)
{
    emu_t e = {.io = io, .l = l, .t = t, .base = mem_base, .err = err, .errlen = errlen};
    uint8_t net[8], op[16];
    if (!mem_access(&e, 0, 0, net, L.net_size, false, "network descriptor")) return -1;
    const int16_t op_index = (int16_t)le16(net + L.net_op_index), buf_index = (int16_t)le16(net + L.net_buf_index);
    const uint16_t nops = le16(net + L.net_num_ops);
    /* E:175-204 runs operation 0 whatever num_operations says; nvdla/sw's later emulator runs them all: with any
     * other count the two disagree, so it is refused rather than guessed */
    if (nops != 1) {
        fail(&e,
             "the network descriptor has %u operations; NVIDIA's emulator of this interface runs operation 0 only "
             "(E:182-203), its later one every operation: only 1 is modelled",
             nops);
        return -1;
    }
    if (!mem_access(&e, op_index, 0, op, L.op_size, false, "operation list")) return -1;
    const uint8_t type = op[L.op_type];
    if (type > EMU_OP_SOFTMAX) { /* E:201-203 prints "Unknown op type" and does nothing */
        fail(&e, "op_type %u: NVIDIA's emulator knows 0 (power) and 1 (softmax) (I:39-40, E:188-203)", type);
        return -1;
    }
    e.op = op_name[type];
    emu_buf_t src = {0}, dst = {0};
    read_buf(&e, buf_index, L.src, &src, "source");
    read_buf(&e, buf_index, L.dst, &dst, "destination");
    if (e.bad) return -1;
    char s[96], d[96];
    buf_text(s, sizeof s, &src);
    buf_text(d, sizeof d, &dst);
    if (type == EMU_OP_POWER) {
        power(&e, op, &src, &dst, corrupt);
        snprintf(what, whatlen, "EMU task %u: power (power %g, scale %g, shift %g) of %s into %s", t->id,
                 (double)lef32(op + L.op_power), (double)lef32(op + L.op_scale), (double)lef32(op + L.op_shift), s, d);
    } else {
        softmax(&e, &src, &dst, corrupt);
        snprintf(what, whatlen, "EMU task %u: softmax (axis %u) of the first %u values of %s into %s", t->id,
                 op[L.op_axis], src.channel, s, d);
    }
    return e.bad ? -1 : 0;
}
