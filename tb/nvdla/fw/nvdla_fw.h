/* NVIDIA's NVDLA firmware (nvdla_sw/kmd/firmware, unmodified) live in the loop: test `fw` with
 * +loadable=<file> runs a loadable's tasks through the firmware on the DUT; test fw_net runs a random network the
 * project writes as a loadable (nvdla_fw_net.c) (docs/drivers.md). */
#ifndef NVDLA_FW_H
#define NVDLA_FW_H
#include "program.h"
#include "sim.h"
#include <stddef.h>

/* Attach the firmware driver for +loadable to p (or a skip when the DUT lacks a unit the loadable uses, or
 * the firmware sources were absent at build time). nv_full: the firmware's build for nv_full's register map runs
 * it (the caller has configured the golden model as nv_full), else the build for nv_small's. Returns 0, or -1 with a
 * one-line error in err. */
int nvdla_fw_attach(program_t *p, sim_t *sim, const char *test, bool nv_full, bool by_capability, char *err,
                    size_t errlen);
#endif
