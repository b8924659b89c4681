/* nvdla_box_locate / nvdla_box_coord: the one place that maps an address to its position in a written
 * region (used for mismatch coordinates and for stray-write detection). */
#include "nvdla_golden.h"
#include "unit.h"
#include <string.h>

static void test_lines_and_gaps(unit_t *u)
{
    /* BDMA-style box: 2 surfaces x 3 lines x 64 bytes, line stride 96, surface stride 512 */
    nvdla_box_t b = {.unit = "BDMA",
                     .kind = NVDLA_BOX_LINES,
                     .group = 1,
                     .cmd = 2,
                     .addr = 0x1000,
                     .line_bytes = 64,
                     .lines = 3,
                     .surfs = 2,
                     .line_stride = 96,
                     .surf_stride = 512};
    uint32_t s = 0, l = 0, o = 0;
    CHECK(nvdla_box_locate(&b, 0x1000, &s, &l, &o) && s == 0 && l == 0 && o == 0, "first byte");
    CHECK(nvdla_box_locate(&b, 0x1000 + 512 + 2 * 96 + 63, &s, &l, &o) && s == 1 && l == 2 && o == 63, "last byte");
    CHECK(!nvdla_box_locate(&b, 0x1000 + 64, NULL, NULL, NULL), "line gap byte is outside");
    CHECK(!nvdla_box_locate(&b, 0x1000 + 3 * 96, NULL, NULL, NULL), "after the last line of surface 0");
    CHECK(!nvdla_box_locate(&b, 0x1000 + 1024, NULL, NULL, NULL), "after the last surface");
    CHECK(!nvdla_box_locate(&b, 0x0FFF, NULL, NULL, NULL), "before the box");
    char buf[96];
    nvdla_box_coord(&b, 0x1000 + 512 + 96 + 17, buf, sizeof buf);
    CHECK(!strcmp(buf, "BDMA grp 1 cmd 2 surf 1 line 1 byte 17"), "coord '%s'", buf);
    nvdla_box_coord(&b, 0x1000 + 64, buf, sizeof buf);
    CHECK(strstr(buf, "outside box") != NULL, "coord of a gap '%s'", buf);
}

static void test_wrap(unit_t *u)
{
    /* a box that crosses 2^32: addresses wrap like the hardware's */
    nvdla_box_t b = {.unit = "BDMA", .addr = 0xFFFFFFC0u, .line_bytes = 128, .lines = 1, .surfs = 1};
    uint32_t o = 0;
    CHECK(nvdla_box_locate(&b, 0x00000010u, NULL, NULL, &o) && o == 0x50, "wrapped byte offset %u", o);
}

static void test_cube_and_packed(unit_t *u)
{
    nvdla_box_t c = {.unit = "SDP",
                     .kind = NVDLA_BOX_CUBE,
                     .addr = 0x8000,
                     .line_bytes = 8 * 5,
                     .lines = 4,
                     .surfs = 3,
                     .line_stride = 64,
                     .surf_stride = 0x400};
    char buf[96];
    /* channel 13 = surface 1 lane 5, h 2, w 3 */
    nvdla_box_coord(&c, 0x8000 + 0x400 + 2 * 64 + 3 * 8 + 5, buf, sizeof buf);
    CHECK(!strcmp(buf, "SDP grp 0 c 13 h 2 w 3"), "cube coord '%s'", buf);
    nvdla_box_t p = {
        .unit = "SDP", .kind = NVDLA_BOX_PACKED, .addr = 0x9000, .line_bytes = 8 * 4, .lines = 1, .surfs = 1};
    nvdla_box_coord(&p, 0x9000 + 29, buf, sizeof buf);
    CHECK(!strcmp(buf, "SDP grp 0 c 29 h 0 w 0"), "packed coord '%s'", buf);
    CHECK(!nvdla_box_locate(&p, 0x9000 + 32, NULL, NULL, NULL), "packed box ends at 8*S bytes");
}

int main(void)
{
    unit_t u = {.name = "nvdla_box"};
    UNIT_RUN(&u, test_lines_and_gaps);
    UNIT_RUN(&u, test_wrap);
    UNIT_RUN(&u, test_cube_and_packed);
    return unit_done(&u);
}
