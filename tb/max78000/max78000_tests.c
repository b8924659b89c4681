/* The MAX78000 test registry: name → program generator. Every generator is seeded and emits SDK-style
 * programs (max78000_fw.h); results are checked by the golden model fed from the APB monitor. */
#include "max78000_tb.h"
#include "max78000_gen.h"
#include "max78000_regtests.h"
#include "max78000_fifo_tests.h"
#include "test_registry.h"
#include "vp.h"

static const test_entry_t tests[] = {
    {"net_random", m7_net_random, NULL, "one random legal network of 1-4 layers, SDK-style program"},
    {"net_random_multi", m7_net_random_multi, NULL, "three random networks back to back (re-start after the ISR)"},
    {"net_small", m7_net_small, NULL, "one random 1-2 layer network with small planes (smoke)"},
    {"net_wide", m7_net_wide, NULL, "one random 1-2 layer network with planes up to 20x20"},
    {"net_oneshot", m7_net_oneshot, NULL, "one random 2-3 layer network in oneshot mode, one start per layer"},
    {"net_oned", m7_net_oned, NULL, "one random 1-3 layer network of 1-D (T x 1) convolutions on one-column planes"},
    {"net_many_ch", m7_net_many_ch, NULL,
     "one random 1-2 layer network whose first layer has up to 64 input channels (all four quadrants)"},
    {"net_stop", m7_net_stop, NULL,
     "a run stopped by clearing the master's cnn_en (spec 4 Stop), then oneshot from layer 0"},
    {"net_m3", m7_net_m3, NULL,
     "one random 1-3 layer network with M3 layers: element-wise, pass-through, ConvTranspose2d, FIFO input"},
    {"net_stream_mem", m7_net_stream_mem, NULL,
     "one random 1-3 layer streaming network whose layer 0 reads its input from memory (no FIFO)"},
    {"net_fifo_ahead", m7_net_fifo_ahead, NULL,
     "one random 1-2 layer FIFO-streaming network whose host fills the FIFO far ahead of a slow, tall layer 0"},
    {"net_masked", m7_net_masked, NULL,
     "one random 1-3 layer network whose masked-off processors hold random kernels at its MRAM words"},
    {"net_spread", m7_net_spread, NULL,
     "one random 1-3 layer network in which every writing quadrant stores its totals"},
    {"ex_mram_express", m7_ex_mram_express, NULL, "spec 3.3 example: mnist express stream gives W[0][0], W[0][1]"},
    {"mlator", m7_mlator, NULL, "spec 3.12: MLAT reads return a lane of four strided words from layer 0's WPTR_BASE"},
    {"ex_out_stage", m7_ex_out_stage, NULL,
     "spec 3.9 examples: 6784 (s=-1) = 27, -4096 ReLU = 0, -52477 (s=-2) = -102"},
    {"reg_reset", m7_reg_reset, NULL, "every register reads its reset value (generated register table)"},
    {"reg_rw", m7_reg_rw, NULL, "random patterns with random PSTRB read back through the write masks"},
    {"reg_alias", m7_reg_alias, NULL,
     "every register written with its own pattern, then all read back (write aliasing)"},
    {"reg_decode", m7_reg_decode, NULL, "PSLVERR on unmapped addresses (D05), memories read back, holes"},
    {"reg_wait_states", m7_reg_wait_states, NULL, "rdy_sel 0..3 per window gives that many wait states (D04)"},
    {"reg_busy_slverr", m7_reg_busy_slverr, NULL, "memory access during a run answers PSLVERR, registers work (D05)"},
    {"fifo_regs", m7_fifo_regs, NULL, "FIFO_WRk pushes, FIFO_STAT levels/flags/thresholds, dropped writes (D10)"},
    {"fifo_irq", m7_fifo_irq, NULL, "each FIFO interrupt source with its enable raises irq (D06, D10)"},
    {"firmware", vp_firmware_test, NULL,
     "+firmware=<ELF>: the SDK's firmware on the emulated Cortex-M4 (tb/max78000/vp/, make run FIRMWARE=<folder>)"},
    {"neg_unexpected_slverr", m7_neg_unexpected_slverr, NULL, "NEGATIVE: unmapped access not marked expected"},
};

static const test_section_t sections[] = {{tests, sizeof tests / sizeof *tests, NULL, NULL, NULL}};

static const test_registry_t registry = {"MAX78000", 22, 16384, sections, 1, NULL};

int max78000_build_test(const char *test, uint64_t seed, program_t *p, char *err, size_t errlen)
{
    return test_registry_build(&registry, test, seed, false, p, err, errlen);
}
