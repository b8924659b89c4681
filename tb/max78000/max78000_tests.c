/* The MAX78000 test registry: name → program generator. Every generator is seeded and emits SDK-style
 * programs (max78000_fw.h); results are checked by the golden model fed from the APB monitor. */
#include "max78000_tb.h"
#include "max78000_gen.h"
#include "max78000_regtests.h"
#include "max78000_fifo_tests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*gen_fn)(program_t *p, uint64_t seed, char *err, size_t errlen);

static const struct {
    const char *name;
    gen_fn      gen;
    const char *what;
} tests[] = {
    {"net_random", m7_net_random, "one random legal network of 1-4 layers, SDK-style program"},
    {"net_random_multi", m7_net_random_multi, "three random networks back to back (re-start after the ISR)"},
    {"net_small", m7_net_small, "one random 1-2 layer network with small planes (smoke)"},
    {"net_wide", m7_net_wide, "one random 1-2 layer network with planes up to 20x20"},
    {"net_oneshot", m7_net_oneshot, "one random 2-3 layer network in oneshot mode, one start per layer"},
    {"net_oned", m7_net_oned, "one random 1-3 layer network of 1-D (T x 1) convolutions on one-column planes"},
    {"net_many_ch", m7_net_many_ch, "one random 1-2 layer network whose first layer has up to 64 input channels (all four quadrants)"},
    {"net_stop", m7_net_stop, "a run stopped by clearing the master's cnn_en (spec 4 Stop), then oneshot from layer 0"},
    {"net_m3", m7_net_m3, "one random 1-3 layer network with M3 layers: element-wise, pass-through, ConvTranspose2d, FIFO input"},
    {"net_stream_mem", m7_net_stream_mem, "one random 1-3 layer streaming network whose layer 0 reads its input from memory (no FIFO)"},
    {"net_fifo_ahead", m7_net_fifo_ahead, "one random 1-2 layer FIFO-streaming network whose host fills the FIFO far ahead of a slow, tall layer 0"},
    {"net_masked", m7_net_masked, "one random 1-3 layer network whose masked-off processors hold random kernels at its MRAM words"},
    {"net_spread", m7_net_spread, "one random 1-3 layer network in which every writing quadrant stores its totals"},
    {"ex_mram_express", m7_ex_mram_express, "spec 3.3 example: mnist express stream gives W[0][0], W[0][1]"},
    {"mlator", m7_mlator, "spec 3.12: MLAT reads return a lane of four strided words from layer 0's WPTR_BASE"},
    {"ex_out_stage", m7_ex_out_stage, "spec 3.9 examples: 6784 (s=-1) = 27, -4096 ReLU = 0, -52477 (s=-2) = -102"},
    {"reg_reset", m7_reg_reset, "every register reads its reset value (generated register table)"},
    {"reg_rw", m7_reg_rw, "random patterns with random PSTRB read back through the write masks"},
    {"reg_alias", m7_reg_alias, "every register written with its own pattern, then all read back (write aliasing)"},
    {"reg_decode", m7_reg_decode, "PSLVERR on unmapped addresses (D05), memories read back, holes"},
    {"reg_wait_states", m7_reg_wait_states, "rdy_sel 0..3 per window gives that many wait states (D04)"},
    {"reg_busy_slverr", m7_reg_busy_slverr, "memory access during a run answers PSLVERR, registers work (D05)"},
    {"fifo_regs", m7_fifo_regs, "FIFO_WRk pushes, FIFO_STAT levels/flags/thresholds, dropped writes (D10)"},
    {"fifo_irq", m7_fifo_irq, "each FIFO interrupt source with its enable raises irq (D06, D10)"},
    {"neg_unexpected_slverr", m7_neg_unexpected_slverr, "NEGATIVE: unmapped access not marked expected"},
};

int max78000_build_test(const char *test, uint64_t seed, program_t *p, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++)
        if (strcmp(tests[i].name, test) == 0) {
            free(p->name);
            p->name = strdup(test);
            return tests[i].gen(p, seed, err, errlen);
        }
    char known[2048];
    max78000_list_tests(known, sizeof known);
    snprintf(err, errlen, "unknown MAX78000 test '%s'; known tests:\n%s", test, known);
    return -1;
}

void max78000_list_tests(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof tests / sizeof *tests && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "  %-22s %s\n", tests[i].name, tests[i].what);
}
