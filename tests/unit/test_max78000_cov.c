/* Unit tests of the MAX78000 functional-coverage table (tb/max78000/max78000_cov.c): the allowed rules and
 * the bin count the gate relies on. Testbench sources are compiled in. */
#include "../../tb/common/fcov.c"
#include "../../tb/max78000/max78000_cov.c"
#include "unit.h"

static void test_max78000_rules(unit_t *u)
{
    fcov_t *c = max78000_cov_new();
    CHECK(!fcov_hit4(c, X_QUAD_PROC, 0, 2, 0, 0), "one quadrant cannot hold 17+ processors");
    CHECK(fcov_hit4(c, X_QUAD_PROC, 1, 2, 0, 0), "two quadrants can");
    CHECK(!fcov_hit4(c, X_FLATTEN_PASSES, 1, 0, 0, 0), "flatten_en with one pass is no feature");
    CHECK(!fcov_hit4(c, X_FLATTEN_PASSES, 0, 2, 0, 0), "more than 16 passes need flatten_en");
    CHECK(fcov_hit4(c, X_FLATTEN_PASSES, 1, 2, 0, 0), "flatten_en with 17-256 passes");
    CHECK_EQ(fcov_bins(c), 6 + 9 + 12 + 8 + 6 + 4 + 11 + 4 + 12 /* + weight bits x kernel */
                               + 15 + 16 + 6); /* M3: op x pool, eltwise, input source (3) x circular */
    fcov_free(c);
}

int main(void)
{
    unit_t u = {.name = "test_max78000_cov"};
    UNIT_RUN(&u, test_max78000_rules);
    return unit_done(&u);
}
