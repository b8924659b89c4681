/* nvdla_reg_by_name (a binary search of the generated name index) and nvdla_reg_by_addr against a scan of the
 * table: every register is found under its own name and address, near misses are not. */
#include "nvdla_regmap.h"
#include "unit.h"
#include <stdio.h>
#include <string.h>

static void test_every_register_by_name(unit_t *u)
{
    char full[96];
    for (size_t i = 0; i < nvdla_nregs; i++) {
        const nvdla_reg_t *r = &nvdla_regs[i];
        snprintf(full, sizeof full, "%s.%s", r->unit, r->name);
        CHECK(nvdla_reg_by_name(full) == r, "%s: found %p, expected row %zu", full, (void *)nvdla_reg_by_name(full), i);
        CHECK(nvdla_reg_by_addr(r->addr) == r, "0x%05x (%s): not found by address", r->addr, full);
    }
}

static void test_near_misses(unit_t *u)
{
    char buf[96];
    const nvdla_reg_t *r = &nvdla_regs[nvdla_nregs / 2];
    CHECK(!nvdla_reg_by_name(NULL), "NULL name");
    CHECK(!nvdla_reg_by_name(r->name), "no unit: '%s'", r->name);
    snprintf(buf, sizeof buf, "%s.%sX", r->unit, r->name);
    CHECK(!nvdla_reg_by_name(buf), "longer register name '%s'", buf);
    snprintf(buf, sizeof buf, "%.*s.%s", (int)strlen(r->unit) - 1, r->unit, r->name);
    CHECK(!nvdla_reg_by_name(buf), "shorter unit '%s'", buf);
    snprintf(buf, sizeof buf, "%sX.%s", r->unit, r->name);
    CHECK(!nvdla_reg_by_name(buf), "longer unit '%s'", buf);
    snprintf(buf, sizeof buf, "%s.", r->unit);
    CHECK(!nvdla_reg_by_name(buf), "empty register name '%s'", buf);
    CHECK(!nvdla_reg_by_name("NVDLA_SDP.NO_SUCH_REGISTER_0"), "unknown register");
    CHECK(!nvdla_reg_by_name("A.B"), "before every unit");
    CHECK(!nvdla_reg_by_name("ZZZ.B"), "after every unit");
}

int main(void)
{
    unit_t u = {.name = "nvdla_regmap"};
    UNIT_RUN(&u, test_every_register_by_name);
    UNIT_RUN(&u, test_near_misses);
    return unit_done(&u);
}
