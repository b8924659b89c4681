/* pulp-nnx's NE16 driver in the loop (tb/ne16/pulpnnx/, docs/pulpnnx.md): test `pulpnnx` with
 * +pulpnnx=<dir holding a conf.json>. The driver (../shared/upstream/pulp_nnx, unmodified) runs in the
 * driver-loop coroutine over the host glue of pulpnnx/nnx_host.c. */
#ifndef NE16_NNX_HOST_H
#define NE16_NNX_HOST_H
#include "driver_loop.h"
#include "ne16_nnx_model.h"
#include "program.h"
#include "sim.h"
#include <stddef.h>
#include <stdint.h>

#define NNX_HOST_APB_BASE 0x0u /* the NE16 APB window (PADDR[7:0] decoded) */

/* One layer: its configuration, data and where the data sit in the TCDM. */
typedef struct nnx_run {
    char dir[256];
    nnx_conf_t conf;
    nnx_data_t data;
    uint32_t a_weight, a_input, a_output, a_scale, a_bias;
} nnx_run_t;

/* pulpnnx/nnx_layer.c: the test application's task_prepare and task_execute (pulp_nnx/test/app/src/
 * nnx_layer.c) for layer r, through the driver's API. Built only when the driver's sources are present. */
void nnx_layer_execute(const nnx_run_t *r);

/* Makes p a live run of pulp-nnx's driver on the layer of +pulpnnx=<dir> with data from seed. 0, or -1
 * with a one-line reason (no +pulpnnx, a bad conf.json, a Neureka layer, driver not built). */
int ne16_nnx_attach(sim_t *sim, program_t *p, uint64_t seed, char *err, size_t errlen);
/* The driver coroutine of the running simulation (the glue's register and event calls go to it: pulp-nnx's
 * BSP has no context argument, the NE16 sits at a fixed address). Kept in the NE16 testbench's context. */
drv_t *nnx_host_drv(void);
void ne16_tb_set_driver(drv_t *d);
#endif
