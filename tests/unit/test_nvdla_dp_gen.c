/* The PDP and CDP stimulus generators produce legal jobs: every program, fed to the golden model as the
 * DUT would see it, runs without a configuration error, completes every enabled group (the expected
 * interrupt bits match what the program waits for), and its outputs are not degenerate (several distinct
 * byte values). The generator sources are compiled into this test (the unit build links golden/ only). */
#include "mem.h"
#include "nvdla_golden.h"
#include "unit.h"
#include "../../tb/nvdla/dp_gen_util.c"
#include "../../tb/nvdla/pdp_gen.c"
#undef JOB_TIMEOUT
#define pointers cdp_pointers
#define small cdp_small
#define wide cdp_wide
#define limits cdp_limits
#define limits_t cdp_limits_t
#define RDMA CDP_RDMA_BASE
#include "../../tb/nvdla/cdp_gen.c"

typedef int (*gen_fn)(program_t *, uint64_t, char *, size_t);

/* Replays the program into the golden model; checks each wait_irq against the expected interrupt bits. */
static void replay(unit_t *u, gen_fn gen, const char *name, uint64_t seed, unsigned *distinct)
{
    program_t p;
    program_init(&p, "nvdla", name, seed);
    char err[128] = "";
    CHECK(gen(&p, seed, err, sizeof err) == 0, "%s seed %llu: %s", name, (unsigned long long)seed, err);
    mem_t *m = mem_new();
    nvdla_golden_t *g = nvdla_golden_new(m);
    bool seen[256] = {false};
    for (size_t i = 0; i < p.n; i++) {
        const op_t *o = &p.ops[i];
        if (o->kind == OP_MEM) mem_write(m, o->addr, o->bytes, o->nbytes);
        else if (o->kind == OP_WRITE) nvdla_golden_write(g, (uint32_t)o->addr, o->data);
        else if (o->kind == OP_WAIT_IRQ) {
            uint32_t got = nvdla_golden_intr_expected(g);
            CHECK((got & o->mask) == o->mask, "%s seed %llu: waits for 0x%x, golden completes 0x%x", name,
                  (unsigned long long)seed, o->mask, got);
            nvdla_golden_write(g, 0x100C, o->mask); /* W1C as the bench does */
        } else if (o->kind == OP_CHECK_GOLDEN) {
            size_t nb;
            const nvdla_box_t *b = nvdla_golden_take_boxes(g, &nb);
            CHECK(nb > 0, "%s seed %llu: a job wrote nothing", name, (unsigned long long)seed);
            for (size_t k = 0; k < nb; k++)
                for (uint32_t s = 0; s < b[k].surfs; s++)
                    for (uint32_t l = 0; l < b[k].lines; l++)
                        for (uint32_t x = 0; x < b[k].line_bytes; x++)
                            seen[mem_read8(m, b[k].addr + s * b[k].surf_stride + l * b[k].line_stride + x)] = true;
        }
    }
    CHECK(nvdla_golden_errors(g)[0] == 0, "%s seed %llu: golden reports: %s", name, (unsigned long long)seed,
          nvdla_golden_errors(g));
    for (int v = 0; v < 256; v++) *distinct += seen[v];
    nvdla_golden_free(g);
    mem_free(m);
    program_free(&p);
}

static void test_generators(unit_t *u)
{
    static const struct {
        gen_fn gen;
        const char *name;
    } gens[] = {
        {pdp_random, "pdp_random"}, {pdp_b2b, "pdp_b2b"}, {pdp_onfly, "pdp_onfly"},
        {cdp_random, "cdp_random"}, {cdp_b2b, "cdp_b2b"},
    };
    for (size_t i = 0; i < sizeof gens / sizeof *gens; i++) {
        unsigned distinct = 0;
        for (uint64_t seed = 1; seed <= 40; seed++) replay(u, gens[i].gen, gens[i].name, seed, &distinct);
        CHECK(distinct > 40 * 8, "%s: only %u distinct output byte values summed over 40 seeds", gens[i].name,
              distinct);
    }
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_dp_gen"};
    UNIT_RUN(&u, test_generators);
    return unit_done(&u);
}
