/* Unit tests of the sparse memory: byte-exact access, strobes, page scaling, zero fills that drop pages,
 * CRC-32 against an independent bitwise reference, diff, clone, and image dump/load with errors. */
#define _POSIX_C_SOURCE 200809L
#include "crc32.h"
#include "mem.h"
#include "rng.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Bit-at-a-time CRC-32, the textbook definition, as an independent reference for the table code. */
static uint32_t ref_crc(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    }
    return ~c;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void test_bytes(unit_t *u)
{
    mem_t *m = mem_new();
    CHECK_EQ(mem_read8(m, 0x1234), 0);
    CHECK_EQ(mem_read64(m, 0xFFFFFFFFFFFFFFF0ull), 0);
    uint8_t src[10000], dst[10000];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 7 + 3);
    mem_write(m, 0x80000FF0, src, sizeof src); /* spans 4 pages */
    mem_read(m, 0x80000FF0, dst, sizeof dst);
    CHECK(memcmp(src, dst, sizeof src) == 0, "multi-page write/read mismatch");
    CHECK_EQ(mem_read8(m, 0x80000FEF), 0);
    CHECK_EQ(mem_read8(m, 0x80000FF0 + sizeof src), 0);
    mem_write8(m, 7, 0xAB);
    CHECK_EQ(mem_read8(m, 7), 0xAB);
    /* little-endian words, also straddling a page boundary */
    mem_write64_strb(m, 0x2FFC, 0x0807060504030201ull, 0xFF);
    CHECK_EQ(mem_read64(m, 0x2FFC), 0x0807060504030201ull);
    CHECK_EQ(mem_read32(m, 0x2FFC), 0x04030201u);
    CHECK_EQ(mem_read8(m, 0x3000), 0x05);
    mem_write64_strb(m, 0x2FFC, 0xFFFFFFFFFFFFFFFFull, 0x81); /* bytes 0 and 7 only */
    CHECK_EQ(mem_read64(m, 0x2FFC), 0xFF070605040302FFull);
    mem_write32_strb(m, 0x5000, 0xDDCCBBAAu, 0x6);
    CHECK_EQ(mem_read32(m, 0x5000), 0x00CCBB00u);
    mem_write32_strb(m, 0x5000, 0x11223344u, 0xF0); /* upper nibble ignored: no bytes */
    CHECK_EQ(mem_read32(m, 0x5000), 0x00CCBB00u);
    /* top of the 64-bit space */
    mem_write64_strb(m, 0xFFFFFFFFFFFFFFF8ull, 0x1122334455667788ull, 0xFF);
    CHECK_EQ(mem_read64(m, 0xFFFFFFFFFFFFFFF8ull), 0x1122334455667788ull);
    mem_free(m);
}

static void test_many_pages(unit_t *u)
{
    mem_t *m = mem_new();
    const unsigned n = 100000;
    double t0 = now_s();
    for (unsigned i = 0; i < n; i++) /* scattered pages, stride 3 pages + offset */
        mem_write32_strb(m, 0x80000000ull + (uint64_t)i * 3 * 4096 + (i & 0xFF) * 4, i ^ 0x5A5A5A5Au, 0xF);
    unsigned bad = 0;
    for (unsigned i = 0; i < n; i++)
        bad += mem_read32(m, 0x80000000ull + (uint64_t)i * 3 * 4096 + (i & 0xFF) * 4) != (i ^ 0x5A5A5A5Au);
    CHECK(bad == 0, "%u of %u scattered words read back wrong", bad, n);
    CHECK_EQ(mem_read32(m, 0x80000000ull + 4096), 0);
    /* drop every second one, the rest must survive (backward-shift deletion keeps probe chains) */
    for (unsigned i = 0; i < n; i += 2) mem_fill(m, 0x80000000ull + (uint64_t)i * 3 * 4096, 4096, 0);
    bad = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t want = (i & 1) ? (i ^ 0x5A5A5A5Au) : 0;
        bad += mem_read32(m, 0x80000000ull + (uint64_t)i * 3 * 4096 + (i & 0xFF) * 4) != want;
    }
    CHECK(bad == 0, "%u words wrong after dropping half the pages", bad);
    double dt = now_s() - t0;
    CHECK(dt < 10.0, "100k-page workload took %.2f s (quadratic?)", dt);
    mem_free(m);
}

static void test_fill(unit_t *u)
{
    mem_t *m = mem_new();
    mem_fill(m, 0x1003, 10, 0xEE);
    CHECK_EQ(mem_read8(m, 0x1002), 0);
    CHECK_EQ(mem_read8(m, 0x1003), 0xEE);
    CHECK_EQ(mem_read8(m, 0x100C), 0xEE);
    CHECK_EQ(mem_read8(m, 0x100D), 0);
    /* 600 MiB of zeros over 64 MiB of data, keeping a byte just outside on each side */
    uint64_t base = 0x80000000ull;
    mem_fill(m, base - 1, 1, 0x11);
    mem_fill(m, base + (600ull << 20), 1, 0x22);
    mem_fill(m, base, 64ull << 20, 0x5A);
    double t0 = now_s();
    mem_fill(m, base, 600ull << 20, 0);
    double dt = now_s() - t0;
    CHECK(dt < 1.0, "zero fill of 600 MiB took %.3f s", dt);
    CHECK_EQ(mem_read8(m, base - 1), 0x11);
    CHECK_EQ(mem_read8(m, base), 0);
    CHECK_EQ(mem_read8(m, base + (32ull << 20) + 5), 0);
    CHECK_EQ(mem_read8(m, base + (600ull << 20)), 0x22);
    /* unaligned zero fill with partial pages at both ends */
    mem_fill(m, 0x10000, 3 * 4096, 0x77);
    mem_fill(m, 0x10005, 2 * 4096, 0);
    CHECK_EQ(mem_read8(m, 0x10004), 0x77);
    CHECK_EQ(mem_read8(m, 0x10005), 0);
    CHECK_EQ(mem_read8(m, 0x10004 + 2 * 4096), 0);
    CHECK_EQ(mem_read8(m, 0x10005 + 2 * 4096), 0x77);
    /* a terabyte-sized zero fill walks the table instead of the range */
    mem_fill(m, 0x123456789ull, 1, 0x33);
    t0 = now_s();
    mem_fill(m, 0x20000, 1ull << 40, 0);
    dt = now_s() - t0;
    CHECK(dt < 1.5, "zero fill of 1 TiB took %.3f s", dt);
    CHECK_EQ(mem_read8(m, 0x123456789ull), 0);
    CHECK_EQ(mem_read8(m, 0x10004), 0x77);
    CHECK_EQ(mem_read8(m, base - 1), 0);
    mem_free(m);
}

static void test_crc(unit_t *u)
{
    CHECK_EQ(crc32_update(0, "123456789", 9), 0xCBF43926u);
    static const uint8_t zeros[0x800];
    CHECK_EQ(crc32_update(0, zeros, sizeof zeros), 0xF1E8BA9Eu);
    CHECK_EQ(crc32_zeros(0, 0x800), 0xF1E8BA9Eu);
    mem_t *m = mem_new();
    CHECK_EQ(mem_crc32(m, 0x80000000ull, 0x800), 0xF1E8BA9Eu);
    CHECK_EQ(mem_crc32(m, 0, 0), 0);
    /* streaming: split CRCs and zero runs chain like one CRC */
    CHECK_EQ(crc32_update(crc32_update(0, "1234", 4), "56789", 5), 0xCBF43926u);
    rng_t r;
    rng_seed(&r, 3);
    uint8_t buf[3 * 4096 + 100];
    for (int trial = 0; trial < 20; trial++) {
        size_t nz = rng_below(&r, 5000);
        memset(buf, 0, nz);
        CHECK_EQ(crc32_zeros(0x12345678u, nz), crc32_update(0x12345678u, buf, nz));
    }
    /* a sparse window: data, hole, data, checked against the bitwise reference over a flat copy */
    uint64_t a = 0x90000010ull;
    size_t n = sizeof buf;
    for (size_t i = 0; i < 1000; i++) mem_write8(m, a + i, (uint8_t)rng_next(&r));
    for (size_t i = n - 500; i < n; i++) mem_write8(m, a + i, (uint8_t)rng_next(&r));
    mem_read(m, a, buf, n);
    CHECK_EQ(mem_crc32(m, a, n), ref_crc(buf, n));
    CHECK_EQ(crc32_update(0, buf, n), ref_crc(buf, n));
    CHECK_EQ(mem_crc32(m, a + 1, n - 7), ref_crc(buf + 1, n - 7));
    /* a huge absent window is fast and matches zero-run arithmetic */
    double t0 = now_s();
    uint32_t big = mem_crc32(m, 0x1000000000ull, 1ull << 32);
    CHECK(now_s() - t0 < 2.0, "CRC over 4 GiB of absent pages too slow");
    CHECK_EQ(big, crc32_zeros(0, 1ull << 32));
    mem_free(m);
}

static void test_diff_clone(unit_t *u)
{
    mem_t *a = mem_new();
    mem_fill(a, 0x4000, 0x3000, 0x11);
    mem_t *b = mem_clone(a);
    uint64_t first = 0;
    CHECK_EQ(mem_diff(a, b, 0, 0x10000, &first), 0);
    mem_write8(b, 0x5001, 0x12);
    mem_write8(b, 0x6FFF, 0x00);
    mem_write8(b, 0x9000, 0x01); /* b has a page a lacks */
    mem_write8(a, 0x4000, 0x11); /* same value: no difference */
    CHECK_EQ(mem_diff(a, b, 0, 0x10000, &first), 3);
    CHECK_EQ(first, 0x5001);
    CHECK_EQ(mem_diff(a, b, 0x5002, 0x10, NULL), 0);
    CHECK_EQ(mem_read8(a, 0x5001), 0x11); /* the clone is deep */
    mem_free(a);
    mem_free(b);
}

static void test_image(unit_t *u)
{
    mem_t *m = mem_new();
    rng_t r;
    rng_seed(&r, 11);
    for (int i = 0; i < 300; i++)
        mem_write8(m, 0x80000000ull + rng_below(&r, 20000), (uint8_t)(1 + rng_below(&r, 255)));
    mem_write8(m, 0x1FFFFFFFFull, 0x42);
    mem_fill(m, 0x70000000, 4096, 1);
    mem_fill(m, 0x70000000, 4096, 0); /* dropped */
    mem_write8(m, 0x60000000, 0);     /* a page that exists but holds only zeros: skipped */
    char path[] = "/tmp/test_mem_imgXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp failed");
    FILE *f = fdopen(fd, "w");
    mem_dump_image(m, f);
    fclose(f);
    mem_t *l = mem_new();
    char err[256] = "";
    CHECK(mem_load_image(l, path, err, sizeof err) == 0, "load failed: %s", err);
    CHECK_EQ(mem_diff(m, l, 0x7FFFF000ull, 0x10000, NULL), 0);
    CHECK_EQ(mem_read8(l, 0x1FFFFFFFFull), 0x42);
    CHECK_EQ(mem_crc32(m, 0x80000000ull, 0x10000), mem_crc32(l, 0x80000000ull, 0x10000));
    f = fopen(path, "r");
    char line[256];
    bool zero_page_dumped = false;
    while (fgets(line, sizeof line, f))
        zero_page_dumped |= strncmp(line, "@60000000", 9) == 0 || strncmp(line, "@70000000", 9) == 0;
    fclose(f);
    CHECK(!zero_page_dumped, "all-zero pages must not be dumped");
    unlink(path);
    mem_free(l);
    mem_free(m);
}

/* Write text to a temp file, load it, return the status and the error text. */
static int load_text(const char *text, char *err, size_t errlen, mem_t *m, char *path_out)
{
    char path[] = "/tmp/test_mem_badXXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    int rc = mem_load_image(m, path, err, errlen);
    strcpy(path_out, path);
    unlink(path);
    return rc;
}

static void test_image_errors(unit_t *u)
{
    mem_t *m = mem_new();
    char err[256], path[64], want[96];
    CHECK(load_text("# comment\n@100 // note\n0a0B 0c\n@200\n\nff\n", err, sizeof err, m, path) == 0,
          "valid image rejected: %s", err);
    CHECK_EQ(mem_read32(m, 0x100), 0x0C0B0A);
    CHECK_EQ(mem_read8(m, 0x200), 0xFF);
    CHECK(load_text("@10\n00 11\n22 3g\n", err, sizeof err, m, path) == -1, "bad hex accepted");
    snprintf(want, sizeof want, "%s:3:", path);
    CHECK(strstr(err, want) && strstr(err, "hex digit"), "message: %s", err);
    CHECK(load_text("@10\n123\n", err, sizeof err, m, path) == -1, "odd digits accepted");
    snprintf(want, sizeof want, "%s:2:", path);
    CHECK(strstr(err, want) && strstr(err, "odd"), "message: %s", err);
    CHECK(load_text("00 11\n", err, sizeof err, m, path) == -1, "data without address accepted");
    CHECK(strstr(err, ":1:") && strstr(err, "before the first @address"), "message: %s", err);
    CHECK(load_text("@xyz\n", err, sizeof err, m, path) == -1, "bad address accepted");
    CHECK(strstr(err, ":1:") && strstr(err, "address"), "message: %s", err);
    CHECK(mem_load_image(m, "/nonexistent/img.hex", err, sizeof err) == -1, "missing file accepted");
    CHECK(strstr(err, "/nonexistent/img.hex") != NULL, "message: %s", err);
    mem_free(m);
}

/* The fence: accesses through the read/write functions outside the regions are recorded (first one, actor, count)
 * and reported once; the host's accesses, fills and diffs are not fenced. */
static void test_fence(unit_t *u)
{
    mem_t *m = mem_new();
    const mem_region_t r[2] = {{0x1000, 0x100, "entry 0"}, {0x3000, 0, "entry 1"}};
    mem_fence_set(m, r, 2);
    char msg[300] = "";
    mem_write(m, 0x1000, "abcd", 4);
    mem_write64_strb(m, 0x10F8, 0x1122334455667788ull, 0xFF);
    (void)mem_read64(m, 0x1010);
    mem_fill(m, 0x2000, 0x100, 7);
    mem_host_write(m, 0x5000, "x", 1);
    CHECK(mem_host_read8(m, 0x5000) == 'x' && !mem_fence_report(m, msg, sizeof msg), "inside, or the host: no report");
    mem_fence_actor(m, "unit A");
    mem_write32_strb(m, 0x10FC, 0xAABBCCDD, 0xF);
    CHECK(!mem_fence_report(m, msg, sizeof msg), "the region's last word is inside");
    mem_write32_strb(m, 0x10FE, 0xAABBCCDD, 0xF); /* two bytes past the end */
    (void)mem_read8(m, 0x2FFF);
    CHECK(mem_fence_report(m, msg, sizeof msg) &&
              !strcmp(msg, "unit A wrote 4 byte(s) at 0x10fe, outside every declared region: entry 0 [0x1000, +0x100) "
                           "ends before it by 0x2 bytes (2 access(es) outside)"),
          "report: %s", msg);
    CHECK(!mem_fence_report(m, msg, sizeof msg), "reported once");
    CHECK(mem_host_read8(m, 0x10FF) == 0xAA && mem_host_read8(m, 0x1100) == 0, "the write outside was dropped");
    mem_fence_set(m, r, 2);      /* a new fence: a fresh record */
    (void)mem_read32(m, 0x3000); /* a 0-byte region holds nothing */
    CHECK(mem_fence_report(m, msg, sizeof msg) && strstr(msg, "read 4 byte(s) at 0x3000") &&
              strstr(msg, "entry 1 [0x3000, +0x0) ends before it by 0x4 bytes"),
          "0-byte region: %s", msg);
    mem_free(m);
}

int main(void)
{
    unit_t u = {.name = "mem"};
    UNIT_RUN(&u, test_bytes);
    UNIT_RUN(&u, test_many_pages);
    UNIT_RUN(&u, test_fill);
    UNIT_RUN(&u, test_crc);
    UNIT_RUN(&u, test_diff_clone);
    UNIT_RUN(&u, test_image);
    UNIT_RUN(&u, test_image_errors);
    UNIT_RUN(&u, test_fence);
    return unit_done(&u);
}
