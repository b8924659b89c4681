/* One test registry for every accelerator: each fills a table of tests (name, seeded program generator, DUT
 * features it needs, one line of description) and this code looks a test up by name, skips it by capability,
 * and writes the `+test=?` listing that the unknown-test error carries (tests/ and the flow tools parse it). */
#ifndef TEST_REGISTRY_H
#define TEST_REGISTRY_H
#include "program.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int (*test_gen_fn)(program_t *p, uint64_t seed, char *err, size_t errlen);
/* A generator shared by a family of tests, told which one (NE16's throughput jobs). */
typedef int (*test_gen_named_fn)(program_t *p, const char *name, uint64_t seed, char *err, size_t errlen);

typedef struct test_entry {
    const char *name;
    test_gen_fn gen;   /* NULL: the section's gen_named, else listed only (run outside the registry) */
    const char *needs; /* DUT features (tb/<acc>/duts/<dut>.dut) the test is about; NULL: none */
    const char *what;  /* its line in the listing */
} test_entry_t;

/* A run of the listing: a static table, or entries produced one by one (nth fills *e for i, false past the
 * last) from a table kept elsewhere; gen_named builds its entries without a gen; `note` is appended to each
 * `what`. */
typedef struct test_section {
    const test_entry_t *tests;
    size_t n;
    bool (*nth)(size_t i, test_entry_t *e);
    test_gen_named_fn gen_named;
    const char *note;
} test_section_t;

typedef struct test_registry {
    const char *acc;                /* as the error names it: "unknown <acc> test" */
    int width;                      /* the name column of the listing */
    size_t list_max;                /* the listing is cut at this many bytes in the unknown-test error */
    const test_section_t *sections; /* in listing order */
    size_t nsections;
    /* Run on every generated program (not on a skipped one): nonzero with err set rejects it. */
    int (*check)(const program_t *p, char *err, size_t errlen);
} test_registry_t;

/* Builds test `test` into p (p->name set to it). by_capability: a test whose `needs` the DUT lacks becomes
 * one skipped job saying why. Unknown (or listed-only) name: -1, err = the error with the listing. */
int test_registry_build(const test_registry_t *r, const char *test, uint64_t seed, bool by_capability, program_t *p,
                        char *err, size_t errlen);
/* The listing, one "  <name> <what>" line per test, cut at n bytes. */
void test_registry_list(const test_registry_t *r, char *buf, size_t n);
#endif
