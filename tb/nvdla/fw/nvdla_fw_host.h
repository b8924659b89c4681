/* The host side of the firmware port: what the 11 hooks (nvdla_fw_port.c) reach through the firmware's
 * driver_context. One per run. */
#ifndef NVDLA_FW_HOST_H
#define NVDLA_FW_HOST_H
#include "driver_loop.h"
#include "nvdla_loadable.h"
#include <stdint.h>

typedef struct nvdla_fw_host {
    drv_t *d;
    const nvdla_loadable_t *ld;
    const ld_task_t *task; /* the task running */
    uint64_t *mem_base;    /* DBB address of each memory list entry (by index in ld->mems) */
    bool debug;            /* +fw_debug: the firmware's dla_debug lines */
} nvdla_fw_host_t;

/* The DBB address of the memory entry that address-list index `index` of the running task names, and that
 * entry's offset; false if the index is outside the task's list. */
bool nvdla_fw_addr(const nvdla_fw_host_t *h, int64_t index, uint64_t *mem_base, uint64_t *offset);
#endif
