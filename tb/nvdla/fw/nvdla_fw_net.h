/* Random multi-op networks as NVDLA loadables for NVIDIA's firmware (test fw_net, docs/drivers.md; on nv_full
 * docs/nvdla_nv_full.md). */
#ifndef NVDLA_FW_NET_H
#define NVDLA_FW_NET_H
#include "nvdla_loadable_write.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a network is written for and from. */
typedef struct nvdla_fw_net_opts {
    bool nv_full;  /* laid out for nv_full (32-byte atoms) and drawn with its precisions and units, else nv_small's */
    bool portable; /* drawn from what both maps compute alike (INT8 SDP, PDP max/min, CDP; no convolution): the same
                      network, element for element, on either map */
    int precision; /* nv_full: PRECISION_* forced (nvdla_fw_net_prec), or -1: drawn */
    const uint8_t *lut; /* CDP's LUT, a struct dla_lut_param of lutlen bytes; NULL: no CDP */
    size_t lutlen;
    const nvdla_loadable_t *conv; /* NVIDIA's CONV_D_L0_0 of the configuration: a first convolution layer in 40 % of
                                     the seeds whose precision is its own; NULL: none */
} nvdla_fw_net_opts_t;

/* The firmware's precision code of "int8", "int16" or "fp16", -1 for another name; *not_computed gets why the golden
 * model cannot check a network of it, or NULL. */
int nvdla_fw_net_prec(const char *name, const char **not_computed);

/* A seeded network of 3-7 operations written as a loadable into *buf (malloc'ed, *len bytes); `what` gets a one-line
 * description. Returns the number of operations. */
int nvdla_fw_net_build(uint64_t seed, const nvdla_fw_net_opts_t *o, uint8_t **buf, size_t *len, char *what,
                       size_t whatlen);
#endif
