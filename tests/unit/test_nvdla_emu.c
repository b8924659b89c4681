/* Unit tests of NVIDIA's CPU emulator as modelled (tb/nvdla/fw/nvdla_emu.c): half 1.11.0's conversions (ties away
 * from zero, Inf on overflow, NaN payloads), the power and softmax operations on a small loadable built here (values
 * worked by hand), the corruption hook, and every refusal: an unknown op type, a count of operations other than 1, a
 * non-FF16 format, an address-list index outside the task, an element past its memory entry, an SRAM entry. */
#include "nvdla_emu.h"
#include "unit.h"

#include <math.h>

/* ---- the loadable: entries 0 network descriptor, 1 operation, 2 buffer descriptors, 3 source, 4 destination */
enum { NMEM = 5, MEMSZ = 2048 };

typedef struct fixture {
    uint8_t mem[NMEM][MEMSZ]; /* entry i at DBB address 0x1000 * (i + 1) */
    uint64_t base[NMEM];
    ld_mem_t mems[NMEM];
    ld_addr_t addrs[NMEM];
    uint16_t ids[NMEM];
    ld_task_t task;
    nvdla_loadable_t l;
} fixture_t;

static void io_read(void *ctx, uint64_t addr, void *dst, size_t n)
{
    fixture_t *f = ctx;
    memcpy(dst, &f->mem[addr / 0x1000 - 1][addr % 0x1000], n);
}
static void io_write(void *ctx, uint64_t addr, const void *src, size_t n)
{
    fixture_t *f = ctx;
    memcpy(&f->mem[addr / 0x1000 - 1][addr % 0x1000], src, n);
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v), put16(p + 2, (uint16_t)(v >> 16)); }
static void putf(uint8_t *p, float v)
{
    uint32_t b;
    memcpy(&b, &v, 4);
    put32(p, b);
}
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* A buffer descriptor (nvdla/sw 38235bb's layout) at byte off of entry 2. */
static void buf(fixture_t *f, unsigned off, int16_t index, uint16_t format, uint16_t w, uint16_t h, uint16_t c,
                uint32_t line, uint32_t surf)
{
    uint8_t *p = &f->mem[2][off];
    put16(p, (uint16_t)index), put32(p + 2, 0), put16(p + 6, format), put16(p + 8, w), put16(p + 10, h);
    put16(p + 12, c), put32(p + 14, line), put32(p + 18, surf);
}

static void fixture(fixture_t *f, uint8_t op_type)
{
    memset(f, 0, sizeof *f);
    for (uint16_t i = 0; i < NMEM; i++) {
        f->base[i] = 0x1000u * (i + 1u);
        f->mems[i] = (ld_mem_t){.id = i, .flags = 1, .size = MEMSZ};
        f->addrs[i] = (ld_addr_t){.id = i, .mem_id = i, .size = MEMSZ};
        f->ids[i] = i;
    }
    f->task = (ld_task_t){.id = 7, .interface = 2, .instance = -1, .addr_ids = f->ids, .naddr = NMEM};
    f->l = (nvdla_loadable_t){
        .mems = f->mems, .nmems = NMEM, .addrs = f->addrs, .naddrs = NMEM, .tasks = &f->task, .ntasks = 1};
    put16(f->mem[0], 1), put16(f->mem[0] + 2, 2), put16(f->mem[0] + 4, 1); /* ops in 1, buffers in 2, 1 op */
    f->mem[1][0] = op_type;
}

static int run(fixture_t *f, int64_t corrupt, char *err, size_t errlen)
{
    nvdla_emu_io_t io = {f, io_read, io_write};
    char what[300];
    err[0] = 0;
    return nvdla_emu_task(&io, &f->l, &f->task, f->base, corrupt, what, sizeof what, err, errlen);
}

/* ---- tests */

static uint32_t bits(float v)
{
    uint32_t b;
    memcpy(&b, &v, 4);
    return b;
}
static float flt(uint32_t b)
{
    float v;
    memcpy(&v, &b, 4);
    return v;
}

static void test_half_conversions(unit_t *u)
{
    CHECK_EQ(bits(nvdla_emu_h2f(0x3c00)), bits(1.0f));
    CHECK_EQ(bits(nvdla_emu_h2f(0x0001)), bits(ldexpf(1, -24)));    /* the smallest denormal */
    CHECK_EQ(bits(nvdla_emu_h2f(0x03ff)), bits(ldexpf(1023, -24))); /* the largest */
    CHECK_EQ(bits(nvdla_emu_h2f(0x8000)), 0x80000000u);
    CHECK_EQ(bits(nvdla_emu_h2f(0xfc00)), 0xff800000u);
    CHECK_EQ(bits(nvdla_emu_h2f(0x7e01)), 0x7fc02000u); /* a NaN's mantissa shifted up */
    CHECK_EQ(nvdla_emu_f2h(1.0f), 0x3c00);
    CHECK_EQ(nvdla_emu_f2h(1.0f + ldexpf(1, -11)), 0x3c01);    /* a tie: away from zero (IEEE's even: 0x3c00) */
    CHECK_EQ(nvdla_emu_f2h(-(1.0f + ldexpf(1, -11))), 0xbc01); /* and below zero */
    CHECK_EQ(nvdla_emu_f2h(1.0f + ldexpf(3, -12)), 0x3c01);    /* 0.75 ulp: up */
    CHECK_EQ(nvdla_emu_f2h(0.1f), 0x2e66);
    CHECK_EQ(nvdla_emu_f2h(65504.0f), 0x7bff);
    CHECK_EQ(nvdla_emu_f2h(65519.0f), 0x7bff);
    CHECK_EQ(nvdla_emu_f2h(65520.0f), 0x7c00); /* the tie past the largest: Inf */
    CHECK_EQ(nvdla_emu_f2h(-1e10f), 0xfc00);
    CHECK_EQ(nvdla_emu_f2h(ldexpf(1, -25)), 0x0001);     /* [2^-25, 2^-24) to the smallest denormal */
    CHECK_EQ(nvdla_emu_f2h(ldexpf(1.99f, -26)), 0x0000); /* below: zero */
    CHECK_EQ(nvdla_emu_f2h(ldexpf(3, -25)), 0x0002);     /* 1.5 denormal units, a tie: away */
    CHECK_EQ(nvdla_emu_f2h(flt(0x7fc00000u)), 0x7e00);   /* a quiet NaN */
    CHECK_EQ(nvdla_emu_f2h(flt(0x7f800001u)), 0x7c00);   /* a NaN of low mantissa bits only: Inf, as half 1.11 */
    unsigned bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) /* every FP16 value but the NaNs comes back */
        if (((h >> 10) & 0x1f) != 0x1f || !(h & 0x3ff)) bad += nvdla_emu_f2h(nvdla_emu_h2f((uint16_t)h)) != h;
    CHECK(bad == 0, "%u FP16 values do not survive FP16 -> float -> FP16", bad);
}

/* softmax of 10 zeros: 1/10 each; of (1, 0): e/(e+1), 1/(e+1) */
static void test_softmax(unit_t *u)
{
    fixture_t f;
    char err[400];
    fixture(&f, 1);
    buf(&f, 0, 3, 2, 1, 1, 10, 32, 32), buf(&f, 256, 4, 2, 1, 1, 10, 32, 32);
    CHECK(run(&f, -1, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < 10; i++) CHECK_EQ(get16(&f.mem[4][2 * i]), 0x2e66);
    CHECK_EQ(get16(&f.mem[4][20]), 0); /* only `channel` values */
    fixture(&f, 1);
    buf(&f, 0, 3, 2, 1, 1, 2, 32, 32), buf(&f, 256, 4, 2, 1, 1, 2, 32, 32);
    put16(f.mem[3], 0x3c00);
    CHECK(run(&f, -1, err, sizeof err) == 0, "%s", err);
    CHECK_EQ(get16(&f.mem[4][0]), 0x39d9); /* 0.7310586 */
    CHECK_EQ(get16(&f.mem[4][2]), 0x344e); /* 0.2689414 */
    CHECK(run(&f, 1, err, sizeof err) == 0 && get16(&f.mem[4][2]) == 0x344f, "corrupt element 1: %s", err);
}

/* power: (1 + 2x)^2 over a 2x1x17 cube, 16 channels to the atom, the destination with its own strides */
static void test_power(unit_t *u)
{
    fixture_t f;
    char err[400];
    fixture(&f, 0);
    putf(f.mem[1] + 1, 2.0f), putf(f.mem[1] + 5, 2.0f), putf(f.mem[1] + 9, 1.0f); /* power, scale, shift */
    buf(&f, 0, 3, 2, 2, 1, 17, 64, 128), buf(&f, 256, 4, 2, 2, 1, 17, 64, 256);
    put16(&f.mem[3][0], 0x3c00);        /* c 0, x 0: 1 -> 9 */
    put16(&f.mem[3][32 + 2], 0x3800);   /* c 1, x 1: 0.5 -> 4 */
    put16(&f.mem[3][128 + 32], 0xbc00); /* c 16, x 1: -1 -> 1 */
    CHECK(run(&f, -1, err, sizeof err) == 0, "%s", err);
    CHECK_EQ(get16(&f.mem[4][0]), 0x4880);
    CHECK_EQ(get16(&f.mem[4][32 + 2]), 0x4400);
    CHECK_EQ(get16(&f.mem[4][256 + 32]), 0x3c00);
    CHECK_EQ(get16(&f.mem[4][2]), 0x3c00); /* zeros: 1 */
    CHECK_EQ(get16(&f.mem[4][128]), 0);    /* outside the destination's cube: untouched */
}

static void refused(unit_t *u, fixture_t *f, const char *want, int64_t corrupt)
{
    char err[400];
    CHECK(run(f, corrupt, err, sizeof err) != 0 && strstr(err, want), "want '%s', got '%s'", want, err);
}

static void test_refusals(unit_t *u)
{
    fixture_t f;
    fixture(&f, 5);
    refused(u, &f, "task 7: EMU operation 0: op_type 5: NVIDIA's emulator knows 0 (power) and 1 (softmax)", -1);
    fixture(&f, 1);
    put16(f.mem[0] + 4, 2);
    refused(u, &f, "task 7: EMU operation 0: the network descriptor has 2 operations", -1);
    fixture(&f, 0);
    buf(&f, 0, 3, 0, 1, 1, 1, 32, 32), buf(&f, 256, 4, 2, 1, 1, 1, 32, 32);
    refused(u, &f, "task 7: EMU operation 0 (power): source buffer: format 0", -1);
    fixture(&f, 1);
    buf(&f, 0, 40, 2, 1, 1, 1, 32, 32), buf(&f, 256, 4, 2, 1, 1, 1, 32, 32);
    refused(u, &f, "(softmax): softmax source: address-list index 40 outside the task's 5 entries", -1);
    fixture(&f, 0);
    buf(&f, 0, 3, 2, 1, 2, 1, 4096, 32), buf(&f, 256, 4, 2, 1, 2, 1, 32, 32);
    refused(u, &f, "(power): power source: bytes 4096..4097 from address-list index 3 lie past its memory entry's 2048",
            -1);
    fixture(&f, 1);
    buf(&f, 0, 3, 2, 1, 1, 4, 32, 32), buf(&f, 256, 4, 2, 1, 1, 4, 32, 32);
    refused(u, &f, "+emu_corrupt=4: the output has 4 elements", 4);
    fixture(&f, 1);
    f.mems[4].domain = 1;
    buf(&f, 0, 3, 2, 1, 1, 4, 32, 32), buf(&f, 256, 4, 2, 1, 1, 4, 32, 32);
    refused(u, &f, "address-list index 4 is memory entry 4 in SRAM (domain 1)", -1);
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_emu"};
    UNIT_RUN(&u, test_half_conversions);
    UNIT_RUN(&u, test_softmax);
    UNIT_RUN(&u, test_power);
    UNIT_RUN(&u, test_refusals);
    return unit_done(&u);
}
