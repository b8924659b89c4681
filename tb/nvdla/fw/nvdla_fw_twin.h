/* What checks a golden-only fw_net run on nv_full: its portable network's outputs against its nv_small twin's
 * (docs/nvdla_nv_full.md, "Random networks through the firmware"). */
#ifndef NVDLA_FW_TWIN_H
#define NVDLA_FW_TWIN_H
#include "driver_loop.h"
#include "nvdla_loadable.h"
#include <stdint.h>

/* Compares every element (c, y, x) of every output tensor of `full` (laid out at full_base[], by memory-list index)
 * with the same tensor of `twin` (at twin_base[]), one-byte elements, each cube read through its own line and surface
 * strides in atoms of 32 bytes (nv_full) and 8 (nv_small). A difference is one error naming the tensor, the first
 * differing element and the count. corrupt >= 0 first flips bit 0 of element `corrupt` of the first output of `full`
 * (the negative test). Returns the number of elements compared. */
uint64_t nvdla_fw_twin_compare(drv_t *d, const nvdla_loadable_t *full, const uint64_t *full_base,
                               const nvdla_loadable_t *twin, const uint64_t *twin_base, int64_t corrupt);
#endif
