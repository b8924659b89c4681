/* The test registry (test_registry.h): lookup, capability skip and listing over an accelerator's tables. */
#include "test_registry.h"
#include "dut_info.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The i-th entry of section s into *e; false past its last. */
static bool section_entry(const test_section_t *s, size_t i, test_entry_t *e)
{
    if (s->nth) return s->nth(i, e);
    if (i >= s->n) return false;
    *e = s->tests[i];
    return true;
}

static int build_entry(const test_registry_t *r, const test_section_t *s, const test_entry_t *e, const char *test,
                       uint64_t seed, bool by_capability, program_t *p, char *err, size_t errlen)
{
    free(p->name);
    p->name = strdup(test);
    char why[256];
    if (by_capability && !dut_provides(e->needs, why, sizeof why)) { /* by capability, said in the report */
        prog_job(p, "%s", test);
        prog_skip(p, "test %s %s", test, why);
        return 0;
    }
    int rc = e->gen ? e->gen(p, seed, err, errlen) : s->gen_named(p, test, seed, err, errlen);
    if (rc) return rc;
    return r->check ? r->check(p, err, errlen) : 0;
}

int test_registry_build(const test_registry_t *r, const char *test, uint64_t seed, bool by_capability, program_t *p,
                        char *err, size_t errlen)
{
    for (size_t s = 0; s < r->nsections; s++) {
        const test_section_t *sec = &r->sections[s];
        test_entry_t e;
        for (size_t i = 0; section_entry(sec, i, &e); i++)
            if ((e.gen || sec->gen_named) && strcmp(e.name, test) == 0)
                return build_entry(r, sec, &e, test, seed, by_capability, p, err, errlen);
    }
    char *known = malloc(r->list_max);
    if (!known) {
        snprintf(err, errlen, "unknown %s test '%s'", r->acc, test);
        return -1;
    }
    test_registry_list(r, known, r->list_max);
    snprintf(err, errlen, "unknown %s test '%s'; known tests:\n%s", r->acc, test, known);
    free(known);
    return -1;
}

void test_registry_list(const test_registry_t *r, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t s = 0; s < r->nsections; s++) {
        const char *note = r->sections[s].note ? r->sections[s].note : "";
        test_entry_t e;
        for (size_t i = 0; used < n && section_entry(&r->sections[s], i, &e); i++)
            used += (size_t)snprintf(buf + used, n - used, "  %-*s %s%s\n", r->width, e.name, e.what, note);
    }
}
