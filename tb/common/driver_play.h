/* The driver-in-the-loop self-test (+via_driver): any program run as a driver would run it, one call per
 * operation through the coroutine (driver_loop.h), with polls done by the driver re-reading the register. The
 * run must give the same result and the same cycles as the program run by the sequencer directly. */
#ifndef DRIVER_PLAY_H
#define DRIVER_PLAY_H
#include "program.h"
#include "sim.h"

/* Moves p's operations into a driver that plays them and attaches it to p. */
void drv_play_attach(program_t *p, sim_t *sim);
#endif
