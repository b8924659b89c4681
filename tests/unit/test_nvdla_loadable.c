/* Unit tests of the NVDLA loadable flatbuffer reader and writer (tb/nvdla/fw/nvdla_loadable*.c): a loadable
 * written from a description reads back field for field (the submit list too: one entry per task); a truncation of it
 * is refused with the file name and an offset, never read past its end; a wrong version is refused. */
#include "nvdla_loadable.h"
#include "nvdla_loadable_write.h"
#include "unit.h"

#include <stdlib.h>

/* mem2_size: the size of memory entry 2 (the output) */
static uint8_t *sample_sized(size_t *len, uint64_t mem2_size)
{
    static const uint8_t a[] = {1, 2, 3, 4, 5}, b[] = {9, 8, 7};
    ld_blob_t blobs[2] = {{.name = "m0_desc", .data = a, .size = sizeof a, .sub_interface = 1},
                          {.name = "m1_data", .data = b, .size = sizeof b}};
    ld_content_t c0[1] = {{&blobs[0], 0}}, c1[1] = {{&blobs[1], 5}};
    ld_mem_t mems[3] = {{.id = 0, .flags = 3, .size = 5, .contents = c0, .ncontents = 1},
                        {.id = 1, .flags = 3 | 4, .size = 4096, .alignment = 4096, .contents = c1, .ncontents = 1},
                        {.id = 2, .flags = 1 | 8, .size = mem2_size}};
    ld_addr_t addrs[3] = {{0, 0, 0, 5}, {1, 1, 0, 4096}, {2, 2, 16, 64}};
    uint16_t ids[3] = {0, 1, 2};
    ld_task_t task = {.id = 0, .interface = 1, .instance = -1, .addr_ids = ids, .naddr = 3};
    ld_tensor_t tens = {.name = "out",
                        .id = 0,
                        .mem_id = 2,
                        .size = 64,
                        .offset = 16,
                        .data_type = 4,
                        .n = 1,
                        .c = 32,
                        .h = 8,
                        .w = 8,
                        .stride = {1, 64, 512}};
    nvdla_loadable_t l = {.version = {0, 7, 0},
                          .blobs = blobs,
                          .nblobs = 2,
                          .mems = mems,
                          .nmems = 3,
                          .addrs = addrs,
                          .naddrs = 3,
                          .tasks = &task,
                          .ntasks = 1,
                          .tensors = &tens,
                          .ntensors = 1};
    return nvdla_loadable_write(&l, len);
}

static uint8_t *sample(size_t *len) { return sample_sized(len, 0x3456789Aull); }

static void test_round_trip(unit_t *u)
{
    size_t len;
    uint8_t *buf = sample(&len);
    nvdla_loadable_t l;
    char err[300] = "";
    CHECK(nvdla_loadable_parse(&l, buf, len, "sample", err, sizeof err) == 0, "parse: %s", err);
    CHECK(l.nblobs == 2 && l.nmems == 3 && l.naddrs == 3 && l.ntasks == 1 && l.ntensors == 1, "counts");
    CHECK(!strcmp(l.blobs[1].name, "m1_data") && l.blobs[1].size == 3 && l.blobs[1].data[2] == 7, "blob 1");
    CHECK(l.blobs[0].sub_interface == 1, "sub_interface");
    CHECK(l.mems[1].flags == 7 && l.mems[1].alignment == 4096 && l.mems[1].ncontents == 1 &&
              l.mems[1].contents[0].blob == &l.blobs[1] && l.mems[1].contents[0].offset == 5,
          "memory 1");
    CHECK(l.mems[2].size == 0x3456789Aull && l.mems[2].ncontents == 0, "a size, no contents");
    CHECK(l.addrs[2].mem_id == 2 && l.addrs[2].offset == 16 && l.addrs[2].size == 64, "address 2");
    CHECK(l.tasks[0].instance == -1 && l.tasks[0].naddr == 3 && l.tasks[0].addr_ids[2] == 2, "task");
    CHECK(!strcmp(l.tensors[0].name, "out") && l.tensors[0].c == 32 && l.tensors[0].stride[2] == 512, "tensor");
    CHECK(ld_mem_by_id(&l, 1) == &l.mems[1] && ld_addr_by_id(&l, 7) == NULL, "lookups");
    CHECK(l.nsubmits == 1 && l.submits[0].ntasks == 1 && l.submits[0].task_ids[0] == 0, "submit list");
    nvdla_loadable_free(&l);
}

/* An entry over the 1 GiB every stimulus loads under (PROG_MAX_REGION) is refused, its 64-bit size named. */
static void test_entry_limit(unit_t *u)
{
    size_t len;
    uint8_t *buf = sample_sized(&len, 0x123456789ull);
    nvdla_loadable_t l;
    char err[300] = "";
    CHECK(nvdla_loadable_parse(&l, buf, len, "sample", err, sizeof err) != 0 &&
              strstr(err, "memory entry 2 (index 2): size 0x123456789 bytes exceeds the limit of 0x40000000 bytes"),
          "a 0x123456789-byte entry refused: %s", err);
    nvdla_loadable_free(&l);
}

static void test_truncated(unit_t *u)
{
    size_t len;
    uint8_t *full = sample(&len);
    unsigned refused = 0;
    for (size_t n = 0; n < len; n += 7) { /* a truncated file must be refused, naming it and an offset */
        uint8_t *cut = malloc(n ? n : 1);
        memcpy(cut, full, n);
        nvdla_loadable_t l;
        char err[300] = "";
        if (nvdla_loadable_parse(&l, cut, n, "cut.fbuf", err, sizeof err) != 0) {
            refused++;
            CHECK(!strncmp(err, "cut.fbuf: offset ", 17), "message '%s'", err);
        } else { /* only a cut the reader cannot tell from a shorter file (past the last field it reads) may pass */
            CHECK(n > len / 2 && l.nblobs == 2 && l.nmems == 3 && l.ntensors == 1 && l.blobs[1].data[2] == 7,
                  "a %zu-byte cut of %zu parsed", n, len);
            nvdla_loadable_free(&l);
        }
    }
    CHECK(refused > (len + 6) / 7 * 9 / 10, "%u of %zu truncations refused", refused, (len + 6) / 7);
    free(full);
}

static void test_version(unit_t *u)
{
    size_t len;
    uint8_t *buf = sample(&len);
    for (size_t i = 0; i + 3 <= len; i++) /* the version struct: the only 0,7,0 triple after the root table */
        if (buf[i] == 0 && buf[i + 1] == 7 && buf[i + 2] == 0) {
            buf[i + 1] = 8;
            break;
        }
    nvdla_loadable_t l;
    char err[300] = "";
    CHECK(nvdla_loadable_parse(&l, buf, len, "v.fbuf", err, sizeof err) != 0 && strstr(err, "0.8.0"), "'%s'", err);
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_loadable"};
    UNIT_RUN(&u, test_round_trip);
    UNIT_RUN(&u, test_truncated);
    UNIT_RUN(&u, test_entry_limit);
    UNIT_RUN(&u, test_version);
    return unit_done(&u);
}
