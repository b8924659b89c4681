/* NVIDIA's runtime's CPU emulator: the EMU1 tasks of a loadable (NN_L0_0's input copy and softmax), run on the host
 * as NVIDIA's UMD runs them, reading and writing the simulated memory. The interface and the arithmetic are those of
 * nvdla/sw at 38235bb (2018-04-25, the commit that regenerated NN_L0_0 and its golden output); the rules, each with
 * NVIDIA's file:line, are in nvdla_emu.c and docs/nvdla_nv_full.md ("NVIDIA's CPU emulator (EMU1 tasks)"). */
#ifndef NVDLA_EMU_H
#define NVDLA_EMU_H
#include "nvdla_loadable.h"
#include <stddef.h>
#include <stdint.h>

/* The memory the emulator works on: DBB addresses, as the memory list is laid out. */
typedef struct nvdla_emu_io {
    void *ctx;
    void (*read)(void *ctx, uint64_t addr, void *dst, size_t n);
    void (*write)(void *ctx, uint64_t addr, const void *src, size_t n);
} nvdla_emu_io_t;

/* Runs EMU1 task t of loadable l, whose memory entry i lies at mem_base[i]. corrupt >= 0: bit 0 of that element of
 * the output is flipped after the operation (a negative test: NVIDIA's golden must catch it). what: one line saying
 * what ran. Returns 0, or -1 with "task N: EMU operation 0 (op): what is wrong" in err. */
int nvdla_emu_task(const nvdla_emu_io_t *io, const nvdla_loadable_t *l, const ld_task_t *t, const uint64_t *mem_base,
                   int64_t corrupt, char *what, size_t whatlen, char *err, size_t errlen);

/* half 1.11.0's conversions as NVIDIA's emulator is built with them (exposed for the unit tests) */
float nvdla_emu_h2f(uint16_t h);
uint16_t nvdla_emu_f2h(float f);
#endif
