#include "driver_play.h"
#include "driver_loop.h"
#include <stdlib.h>
#include <string.h>

static int play(drv_t *d, void *arg)
{
    const program_t *p = arg;
    for (size_t i = 0; i < p->n; i++) {
        const op_t *op = &p->ops[i];
        if (op->kind == OP_POLL) { /* the driver polls: plain reads until the value is there */
            while (((drv_reg_read(d, op->addr) ^ op->data) & op->mask) != 0) {}
        } else if (op->kind == OP_READ) {
            drv_reg_expect(d, op->addr, op->data, op->mask);
        } else {
            drv_op(d, op);
        }
    }
    return 0;
}

static void free_program(void *arg)
{
    program_free(arg);
    free(arg);
}

void drv_play_attach(program_t *p, sim_t *sim)
{
    program_t *copy = malloc(sizeof *copy);
    if (!copy) abort();
    *copy = *p; /* the operations and strings move to the player */
    program_init(p, copy->acc, copy->name, copy->seed);
    drv_attach(p, sim, play, copy, free_program, 0);
}
