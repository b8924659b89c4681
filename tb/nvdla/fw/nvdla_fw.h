/* NVIDIA's NVDLA firmware (nvdla_sw/kmd/firmware, unmodified) live in the loop: test `fw` with
 * +loadable=<file> runs a loadable's tasks through the firmware on the DUT; test fw_net runs a random network the
 * project writes as a loadable (nvdla_fw_net.c) (docs/drivers.md). */
#ifndef NVDLA_FW_H
#define NVDLA_FW_H
#include "program.h"
#include "sim.h"
#include <stddef.h>

/* Configures the golden model (and the run) as nv_full; returns NULL, or why it cannot (in why). */
typedef const char *(*nvdla_fw_to_full_t)(void *ctx, char *why, size_t n);

/* Attach the firmware driver for +loadable to p (or a skip when the DUT lacks a unit the loadable uses, or
 * the firmware sources were absent at build time). nv_full: the firmware's build for nv_full's register map runs
 * it, on the golden model configured as nv_full by to_full(to_full_ctx) (at once, or in a golden-only fw_net run with a
 * portable network after its nv_small twin has run), else the build for nv_small's. Returns 0, or -1 with a one-line
 * error in err. */
int nvdla_fw_attach(program_t *p, sim_t *sim, const char *test, bool nv_full, bool by_capability,
                    nvdla_fw_to_full_t to_full, void *to_full_ctx, char *err, size_t errlen);
#endif
