/* NVDLA functional coverage: crosses over the configuration space of each unit the golden model runs (BDMA,
 * SDP, PDP, CDP; spec nvdla.md §5, nvdla_datapath.md §2-4), sampled from the registers the model executes
 * (nvdla_golden_set_layer_hook), so any stimulus counts: random, directed, traces. Convolution adds its own
 * crosses to the table in nvdla_cov.c when it lands. Report and gate: python3 -m flow.fcov_report nvdla. */
#ifndef NVDLA_COV_H
#define NVDLA_COV_H
#include "fcov.h"
#include "nvdla_golden.h"

fcov_t *nvdla_cov_new(void);
/* An nvdla_layer_hook_t: user is the fcov_t of nvdla_cov_new. */
void nvdla_cov_layer(void *user, const nvdla_layer_t *layer);
#endif
