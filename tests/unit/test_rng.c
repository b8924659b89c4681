/* Unit tests of the seeded generator: known answers, reproducibility, stream independence, bounds and
 * the absence of modulo bias. */
#include "rng.h"
#include "unit.h"

static void test_known_answers(unit_t *u)
{
    /* xoshiro256** reference outputs for state {1,2,3,4}. */
    rng_t r = {{1, 2, 3, 4}};
    CHECK_EQ(rng_next(&r), 11520u);
    CHECK_EQ(rng_next(&r), 0u);
    CHECK_EQ(rng_next(&r), 1509978240u);
    CHECK_EQ(rng_next(&r), 1215971899390074240ull);
    /* splitmix64(0) first output is the well-known 0xE220A8397B1DCDAF. */
    rng_seed(&r, 0);
    CHECK_EQ(r.s[0], 0xE220A8397B1DCDAFull);
}

static void test_reproducible(unit_t *u)
{
    rng_t a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    int same = 0, differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_next(&a), y = rng_next(&b), z = rng_next(&c);
        same += x == y;
        differ += x != z;
    }
    CHECK(same == 1000, "same seed diverged (%d of 1000 equal)", same);
    CHECK(differ > 990, "different seeds too similar (%d of 1000 differ)", differ);
}

static void test_streams(unit_t *u)
{
    rng_t a, b, c, d;
    rng_seed_stream(&a, 7, "dbb.ar");
    rng_seed_stream(&b, 7, "dbb.ar");
    rng_seed_stream(&c, 7, "dbb.aw");
    rng_seed_stream(&d, 8, "dbb.ar");
    uint64_t x = rng_next(&a);
    CHECK_EQ(x, rng_next(&b));
    CHECK(x != rng_next(&c), "streams with different names coincide");
    CHECK(x != rng_next(&d), "streams with different seeds coincide");
}

static void test_bounds(unit_t *u)
{
    rng_t r;
    rng_seed(&r, 1);
    CHECK_EQ(rng_below(&r, 0), 0u);
    CHECK_EQ(rng_below(&r, 1), 0u);
    bool lo_seen = false, hi_seen = false, out = false;
    for (int i = 0; i < 10000; i++) {
        uint32_t v = rng_range(&r, 5, 9);
        out |= v < 5 || v > 9;
        lo_seen |= v == 5;
        hi_seen |= v == 9;
    }
    CHECK(!out, "rng_range(5, 9) left its range");
    CHECK(lo_seen && hi_seen, "rng_range(5, 9) never hit an end point (inclusive bounds)");
    CHECK_EQ(rng_range(&r, 3, 3), 3u);
    uint32_t v = rng_range(&r, 0, UINT32_MAX); /* full range must not divide by zero */
    (void)v;
    unsigned hits[100] = {0};
    for (int i = 0; i < 100000; i++) hits[rng_below(&r, 100)]++;
    unsigned mn = hits[0], mx = hits[0];
    for (int i = 1; i < 100; i++) {
        mn = hits[i] < mn ? hits[i] : mn;
        mx = hits[i] > mx ? hits[i] : mx;
    }
    CHECK(mn > 800 && mx < 1200, "rng_below(100) not uniform: bucket range [%u, %u]", mn, mx);
}

static void test_unbiased(unit_t *u)
{
    /* n = 3 * 2^30: a modulo reduction puts half of all draws below 2^30, an unbiased one a third. */
    rng_t r;
    rng_seed(&r, 99);
    const uint32_t n = 0xC0000000u;
    int low = 0, total = 60000;
    for (int i = 0; i < total; i++) low += rng_below(&r, n) < 0x40000000u;
    double frac = (double)low / total;
    CHECK(frac > 0.32 && frac < 0.347, "rng_below biased: P(v < n/3) = %.4f, want 1/3", frac);
}

static void test_chance(unit_t *u)
{
    rng_t r;
    rng_seed(&r, 5);
    int never = 0, always = 0, some = 0;
    for (int i = 0; i < 20000; i++) {
        never += rng_chance(&r, 0);
        always += rng_chance(&r, 100);
        some += rng_chance(&r, 30);
    }
    CHECK_EQ(never, 0);
    CHECK_EQ(always, 20000);
    CHECK(some > 5700 && some < 6300, "rng_chance(30) fired %d of 20000 times", some);
}

int main(void)
{
    unit_t u = {.name = "rng"};
    UNIT_RUN(&u, test_known_answers);
    UNIT_RUN(&u, test_reproducible);
    UNIT_RUN(&u, test_streams);
    UNIT_RUN(&u, test_bounds);
    UNIT_RUN(&u, test_unbiased);
    UNIT_RUN(&u, test_chance);
    return unit_done(&u);
}
