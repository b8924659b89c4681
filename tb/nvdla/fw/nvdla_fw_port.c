/* The host port of NVIDIA's NVDLA firmware: the 11 functions it needs from its environment
 * (nvdla_sw/kmd/include/nvdla_interface.h), as the Linux port gives them (kmd/port/linux/nvdla_core_callbacks.c)
 * but over the driver-in-the-loop core: register accesses are CSB transactions of the simulation, memory is the
 * memory model, time is simulated time. Linux's semantics are kept: a "processor address" is the address-list
 * index itself, a DMA address is the memory's address plus the address-list entry's offset, and data
 * read/write address the memory from its start (the handle's buffer), ignoring the entry's offset. */
#include "nvdla_fw_host.h"
#ifndef NVDLA_FW_ABSENT
#include <nvdla_interface.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool nvdla_fw_addr(const nvdla_fw_host_t *h, int64_t index, uint64_t *mem_base, uint64_t *offset)
{
    if (index < 0 || (uint64_t)index >= h->task->naddr) return false;
    const ld_addr_t *a = ld_addr_by_id(h->ld, h->task->addr_ids[index]);
    const ld_mem_t *m = ld_mem_by_id(h->ld, a->mem_id);
    *mem_base = h->mem_base[m - h->ld->mems];
    *offset = a->offset;
    return true;
}

uint32_t dla_reg_read(void *driver_context, uint32_t addr)
{
    nvdla_fw_host_t *h = driver_context;
    return drv_reg_read(h->d, addr);
}

void dla_reg_write(void *driver_context, uint32_t addr, uint32_t reg)
{
    nvdla_fw_host_t *h = driver_context;
    drv_reg_write(h->d, addr, reg);
}

int32_t dla_data_read(void *driver_context, void *task_data, uint64_t src, void *dst, uint32_t size, uint64_t offset)
{
    nvdla_fw_host_t *h = driver_context;
    uint64_t base, entry_offset;
    (void)task_data;
    if (!nvdla_fw_addr(h, (int64_t)src, &base, &entry_offset)) {
        dla_error("dla_data_read: address-list index %llu outside the task's %zu entries\n", (unsigned long long)src,
                  h->task->naddr);
        return -1;
    }
    drv_mem_read(h->d, base + offset, dst, size);
    return 0;
}

int32_t dla_data_write(void *driver_context, void *task_data, void *src, uint64_t dst, uint32_t size, uint64_t offset)
{
    nvdla_fw_host_t *h = driver_context;
    uint64_t base, entry_offset;
    (void)task_data;
    if (!nvdla_fw_addr(h, (int64_t)dst, &base, &entry_offset)) {
        dla_error("dla_data_write: address-list index %llu outside the task's %zu entries\n", (unsigned long long)dst,
                  h->task->naddr);
        return -1;
    }
    drv_mem_write(h->d, base + offset, src, size);
    return 0;
}

int32_t dla_get_dma_address(void *driver_context, void *task_data, int16_t index, void *dst_ptr, uint32_t destination)
{
    nvdla_fw_host_t *h = driver_context;
    uint64_t base, offset, *dst = dst_ptr;
    (void)task_data;
    if (!nvdla_fw_addr(h, index, &base, &offset)) {
        /* Linux returns -EINVAL, which most of the firmware's callers ignore (sdp.c programs the address it did
         * not get): said here, with the task and the index, or the run would end in a bare output mismatch. */
        const char *ld = sim_plusarg(sim_get(), "loadable");
        sim_error(sim_get(),
                  "loadable %s: task %u: address-list index %d (a %s address) outside the task's %zu entries",
                  ld && *ld ? ld : "(the generated network)", h->task->id, index,
                  destination == DESTINATION_DMA ? "DMA" : "processor", h->task->naddr);
        return -1;
    }
    if (destination == DESTINATION_PROCESSOR) *dst = (uint64_t)index;
    else if (destination == DESTINATION_DMA) *dst = base + offset;
    else return -1;
    return 0;
}

/* Simulated time at a nominal 1 GHz: the firmware only uses it for its statistics. */
int64_t dla_get_time_us(void) { return (int64_t)(sim_cycle(sim_get()) / 1000); }

void *dla_memset(void *src, int ch, uint64_t len) { return memset(src, ch, len); }

/* The firmware's messages end in '\n' and carry no context: they become the bench's notes and errors. */
static void say(bool error, const char *str, va_list ap)
{
    char msg[400];
    vsnprintf(msg, sizeof msg, str, ap);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = 0;
    if (!n) return;
    if (error) sim_error(sim_get(), "firmware: %s", msg);
    else sim_note(sim_get(), "firmware: %s", msg);
}

void dla_debug(const char *str, ...)
{
    if (!sim_plusarg_flag(sim_get(), "fw_debug")) return;
    va_list ap;
    va_start(ap, str);
    say(false, str, ap);
    va_end(ap);
}

void dla_info(const char *str, ...)
{
    va_list ap;
    va_start(ap, str);
    say(false, str, ap);
    va_end(ap);
}

void dla_warn(const char *str, ...)
{
    va_list ap;
    va_start(ap, str);
    say(false, str, ap);
    va_end(ap);
}

void dla_error(const char *str, ...)
{
    va_list ap;
    va_start(ap, str);
    say(true, str, ap);
    va_end(ap);
}
#endif
