/* What checks an FP16 fw_net network on nv_full (docs/nvdla_nv_full.md, "Random networks through the firmware"): its
 * outputs against the loadable itself, interpreted element by element. */
#ifndef NVDLA_FW_FP16REF_H
#define NVDLA_FW_FP16REF_H
#include "driver_loop.h"
#include "nvdla_loadable.h"
#include <stdbool.h>
#include <stdint.h>

/* Whether the loadable's outputs are FP16 (loadable.fbs DataType HALF) and it is one this reference interprets. */
bool nvdla_fw_fp16ref_applies(const nvdla_loadable_t *l);
/* Computes every operation of the loadable's network (task 0: SDP's X stages, PDP, CDP with its LUT list, BDMA
 * copies of whole cubes, RUBIK contract, split and merge) on the tensors in (c, y, x) order from the descriptors as
 * NVIDIA's firmware programs them, with the golden model's FP16 element functions (sdp_fp16_element,
 * pdp_fp16_pool_one, cdp_fp16_element), and compares every element of every output tensor with what the run left in
 * memory (laid out at base[], by memory-list index; 32-byte atoms of 16 two-byte lanes). A difference is one error
 * naming the tensor, the count and the first differing element. corrupt >= 0 first flips bit 0 of element `corrupt`
 * of the first output (the negative test). Returns the number of elements compared. */
uint64_t nvdla_fw_fp16ref_compare(drv_t *d, const nvdla_loadable_t *l, const uint64_t *base, int64_t corrupt);
#endif
