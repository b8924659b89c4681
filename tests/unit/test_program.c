/* Unit tests of the program IR (tb/common/program.c): op defaults, growth, every builder's fields,
 * ownership of copied bytes and formatted text, file-name interning. */
#include "program.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static void test_init_free(unit_t *u)
{
    program_t p;
    program_init(&p, "max78000", "mnist", 42);
    CHECK(!strcmp(p.acc, "max78000"), "acc '%s'", p.acc);
    CHECK(p.name && !strcmp(p.name, "mnist"), "name");
    CHECK_EQ(p.seed, 42);
    CHECK_EQ(p.n, 0);
    program_free(&p);
    CHECK(p.ops == NULL && p.name == NULL && p.n == 0, "free clears the struct");

    program_init(&p, "an-accelerator-name-too-long", NULL, 0);
    CHECK(strlen(p.acc) == sizeof p.acc - 1, "acc truncated to fit (%zu)", strlen(p.acc));
    CHECK(p.name == NULL, "NULL name stays NULL");
    program_free(&p);
}

static void test_add_defaults_and_growth(unit_t *u)
{
    program_t p;
    program_init(&p, "nvdla", NULL, 0);
    op_t *o = program_add(&p, OP_READ);
    CHECK_EQ(o->kind, OP_READ);
    CHECK_EQ(o->strb, 0xF);
    CHECK_EQ(o->mask, 0xFFFFFFFFu);
    CHECK(o->addr == 0 && o->data == 0 && o->size == 0 && o->timeout == 0 && !o->nposted, "zeroed");
    CHECK(o->bytes == NULL && o->text == NULL && o->file == NULL && o->line == 0, "zeroed pointers");

    const unsigned N = 10000;
    for (unsigned i = 1; i < N; i++) prog_write(&p, 4 * i, i * 3u);
    CHECK_EQ(p.n, N);
    CHECK(p.cap >= p.n, "cap %zu >= n %zu", p.cap, p.n);
    unsigned bad = 0;
    for (unsigned i = 1; i < N; i++)
        bad += p.ops[i].kind != OP_WRITE || p.ops[i].addr != 4 * i || p.ops[i].data != i * 3u;
    CHECK_EQ(bad, 0);
    program_free(&p);
}

static void test_builders(unit_t *u)
{
    program_t p;
    program_init(&p, "nvdla", "t", 1);
    prog_job(&p, "job %d of %s", 3, "bdma");
    prog_write(&p, 0x10004, 0x80000000u);
    prog_write_np(&p, 0x10008, 7);
    prog_read(&p, 0x1000, 0x303031, 0xFF00FF00u);
    prog_poll(&p, 0x300c, 1, 0x1, 5000);
    prog_wait_irq(&p, 0x40, 2000000);
    prog_idle(&p, 123);
    uint8_t img[5] = {1, 2, 3, 4, 5};
    prog_mem(&p, 0x80000000u, img, sizeof img);
    img[0] = 99; /* the program must have its own copy */
    prog_mem_fill(&p, 0x90000000u, 0x17238C0u, 0xA5);
    prog_check_crc(&p, 0x90000040u, 8, 0xcb0ea2dbu);
    prog_check_golden(&p);
    char reason[32] = "needs BDMA";
    prog_skip(&p, "%s unit", reason);
    reason[0] = 'X';

    CHECK_EQ(p.n, 12);
    const op_t *o = p.ops;
    CHECK(o[0].kind == OP_JOB && o[0].text && !strcmp(o[0].text, "job 3 of bdma"), "job text '%s'", o[0].text);
    CHECK(o[1].kind == OP_WRITE && o[1].addr == 0x10004 && o[1].data == 0x80000000u && !o[1].nposted &&
              o[1].strb == 0xF,
          "write");
    CHECK(o[2].kind == OP_WRITE && o[2].addr == 0x10008 && o[2].data == 7 && o[2].nposted, "write np");
    CHECK(o[3].kind == OP_READ && o[3].data == 0x303031 && o[3].mask == 0xFF00FF00u, "read");
    CHECK(o[4].kind == OP_POLL && o[4].addr == 0x300c && o[4].data == 1 && o[4].mask == 1 && o[4].timeout == 5000,
          "poll");
    CHECK(o[5].kind == OP_WAIT_IRQ && o[5].mask == 0x40 && o[5].timeout == 2000000, "wait_irq");
    CHECK(o[6].kind == OP_IDLE && o[6].size == 123, "idle");
    CHECK(o[7].kind == OP_MEM && o[7].addr == 0x80000000u && o[7].nbytes == 5 && o[7].bytes != img, "mem");
    CHECK(o[7].bytes && o[7].bytes[0] == 1 && o[7].bytes[4] == 5, "mem bytes copied before the caller changed them");
    CHECK(o[8].kind == OP_MEM_FILL && o[8].addr == 0x90000000u && o[8].size == 0x17238C0u && o[8].data == 0xA5, "fill");
    CHECK(o[9].kind == OP_CHECK_CRC && o[9].addr == 0x90000040u && o[9].size == 8 && o[9].data == 0xcb0ea2dbu, "crc");
    CHECK(o[10].kind == OP_CHECK_GOLDEN, "golden");
    CHECK(o[11].kind == OP_SKIP && !strcmp(o[11].text, "needs BDMA unit"), "skip text '%s'", o[11].text);

    /* zero-length image: allowed, owns a (possibly empty) buffer */
    prog_mem(&p, 0, img, 0);
    CHECK(p.ops[p.n - 1].nbytes == 0, "empty mem");
    program_free(&p);
}

static void test_intern(unit_t *u)
{
    program_t p;
    program_init(&p, "nvdla", NULL, 0);
    char path[64] = "vectors/nvdla/a.trace";
    const char *a = program_intern_file(&p, path);
    path[15] = 'X'; /* interning copies */
    const char *b = program_intern_file(&p, "vectors/nvdla/b.trace");
    const char *a2 = program_intern_file(&p, "vectors/nvdla/a.trace");
    CHECK(a && !strcmp(a, "vectors/nvdla/a.trace"), "copy '%s'", a);
    CHECK(a == a2, "same name, same pointer");
    CHECK(a != b, "different names differ");
    CHECK_EQ(p.nfiles, 2);
    for (int i = 0; i < 100; i++) { /* pointers stay valid while the table grows */
        char n[32];
        snprintf(n, sizeof n, "f%d", i);
        program_intern_file(&p, n);
    }
    CHECK(!strcmp(a, "vectors/nvdla/a.trace") && !strcmp(b, "vectors/nvdla/b.trace"), "stable pointers");
    CHECK(program_intern_file(&p, NULL) == NULL, "NULL path");
    program_free(&p);
}

/* The per-load limit the sequencer applies to every load as it runs it, a driver's included (SIZE_MAX: no file). */
static void test_check_region(unit_t *u)
{
    char err[300] = "";
    uint64_t loaded = 0;
    op_t fill = {.kind = OP_MEM_FILL, .addr = 0x80000000, .size = 0x10000000000ull, .data = 0x5A};
    CHECK(program_check_region(&fill, SIZE_MAX, &loaded, err, sizeof err) != 0 &&
              !strcmp(err, "a driver's operation: fill of 0x10000000000 bytes exceeds the limit of 0x40000000 bytes "
                           "per operation"),
          "a driver's 1 TiB fill: %s", err);
    op_t half = {.kind = OP_MEM_FILL, .addr = 0x80000000, .size = 0x30000000, .data = 1};
    CHECK(program_check_region(&half, SIZE_MAX, &loaded, err, sizeof err) == 0, "0.75 GiB: %s", err);
    half.data = 0; /* zeros load nothing */
    CHECK(program_check_region(&half, SIZE_MAX, &loaded, err, sizeof err) == 0, "zero fill: %s", err);
    half.data = 2;
    CHECK(program_check_region(&half, SIZE_MAX, &loaded, err, sizeof err) != 0 &&
              strstr(err, "the program loads more than 0x40000000 bytes"),
          "1.5 GiB in all: %s", err);
}

int main(void)
{
    unit_t u = {.name = "test_program"};
    UNIT_RUN(&u, test_init_free);
    UNIT_RUN(&u, test_add_defaults_and_growth);
    UNIT_RUN(&u, test_builders);
    UNIT_RUN(&u, test_check_region);
    UNIT_RUN(&u, test_intern);
    return unit_done(&u);
}
