/* Random multi-op networks as NVDLA loadables for NVIDIA's firmware (test fw_net, docs/drivers.md). */
#ifndef NVDLA_FW_NET_H
#define NVDLA_FW_NET_H
#include "nvdla_loadable_write.h"
#include <stddef.h>
#include <stdint.h>

/* A seeded network of 3-7 SDP/PDP/CDP operations (CDP only when `lut`, a struct dla_lut_param of lutlen bytes,
 * is given; a first convolution layer in 40 % of the seeds when `conv`, NVIDIA's CONV_D_L0_0 loadable, is given),
 * written as a loadable into *buf (malloc'ed, *len bytes); `what` gets a one-line description. Returns the number
 * of operations. */
int nvdla_fw_net_build(uint64_t seed, const uint8_t *lut, size_t lutlen, const nvdla_loadable_t *conv, uint8_t **buf,
                       size_t *len, char *what, size_t whatlen);
#endif
