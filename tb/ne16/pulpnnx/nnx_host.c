/* Host glue of pulp-nnx's NE16 driver: what util/hwpe.c and ne16/bsp/ne16_pulp_bsp.c give it on a PULP
 * cluster, over the driver-in-the-loop calls (tb/common/driver_loop.h). Register accesses go through the
 * bench's APB master; the event wait is the NE16 testbench's event counter (each done pulse consumed once,
 * like the cluster event unit). The cluster-control writes (clock gate, HCI priority, max stall) have no
 * counterpart on the bench: no-ops. The functions keep hwpe.c's names and semantics line for line. */
#include "hwpe.h"
#include "ne16_nnx_host.h"
#include "ne16_pulp_bsp.h"

#define HWPE_TRIGGER 0
#define HWPE_ACQUIRE 1
#define HWPE_STATUS 3
#define HWPE_RUNNING_JOB 4
#define HWPE_SOFT_CLEAR 5
#define HWPE_TASK_REG_OFFSET 8
/* hwpe_soft_clear's `for (volatile int i = 0; i < 10; i++);`: ten iterations of a load, add, store and
 * branch on the cluster core, at least 40 cycles, before the driver's next access. */
#define SOFT_CLEAR_WAIT_CYCLES 40

void hwpe_reg_write(hwpe_dev_t *dev, int reg, uint32_t value)
{
    (void)dev;
    drv_reg_write(nnx_host_drv(), NNX_HOST_APB_BASE + 4u * (unsigned)reg, value);
}

uint32_t hwpe_reg_read(hwpe_dev_t *dev, int reg)
{
    (void)dev;
    return drv_reg_read(nnx_host_drv(), NNX_HOST_APB_BASE + 4u * (unsigned)reg);
}

void hwpe_task_reg_write(hwpe_dev_t *dev, int reg, uint32_t value)
{
    hwpe_reg_write(dev, HWPE_TASK_REG_OFFSET + reg, value);
}
uint32_t hwpe_task_reg_read(hwpe_dev_t *dev, int reg) { return hwpe_reg_read(dev, HWPE_TASK_REG_OFFSET + reg); }

void hwpe_soft_clear(hwpe_dev_t *dev)
{
    hwpe_reg_write(dev, HWPE_SOFT_CLEAR, 0);
    drv_idle(nnx_host_drv(), SOFT_CLEAR_WAIT_CYCLES);
}

uint32_t hwpe_task_queue_status(hwpe_dev_t *dev) { return hwpe_reg_read(dev, HWPE_STATUS); }

int hwpe_task_queue_acquire_task(hwpe_dev_t *dev, uint8_t *id)
{
    const uint32_t v = hwpe_reg_read(dev, HWPE_ACQUIRE);
    if (v >= 256) return 1;
    *id = (uint8_t)v;
    return 0;
}

void hwpe_task_queue_write_task(hwpe_dev_t *dev, uint32_t *data, int len)
{
    for (int i = 0; i < len; i++) hwpe_task_reg_write(dev, i, data[i]);
}

void hwpe_task_queue_release_and_run(hwpe_dev_t *dev) { hwpe_reg_write(dev, HWPE_TRIGGER, 0); }
void hwpe_task_queue_release(hwpe_dev_t *dev) { hwpe_reg_write(dev, HWPE_TRIGGER, 1); }
uint8_t hwpe_last_task_id(hwpe_dev_t *dev) { return (uint8_t)hwpe_reg_read(dev, HWPE_RUNNING_JOB); }

/* ---- ne16_pulp_bsp.h ---------------------------------------------------------------------------- */
void ne16_pulp_cg_enable(void) {}
void ne16_pulp_cg_disable(void) {}
void ne16_pulp_hci_setpriority_ne16(void) {}
void ne16_pulp_hci_setpriority_core(void) {}
void ne16_pulp_hci_reset_max_stall(void) {}
void ne16_pulp_hci_set_max_stall(uint32_t max_stall) { (void)max_stall; }
void ne16_pulp_open(ne16_pulp_conf_t *conf) { (void)conf; }
void ne16_pulp_close(void) {}
void ne16_pulp_event_wait_and_clear(void) { drv_wait_irq(nnx_host_drv(), 1, 0); }

static const ne16_dev_t ne16_host_dev = {.hwpe_dev = {.base_addr = 0}}; /* the glue addresses NNX_HOST_APB_BASE */
const ne16_dev_t *ne16_pulp_get_dev(void) { return &ne16_host_dev; }
