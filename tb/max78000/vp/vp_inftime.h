/* The inference time the firmware prints against the bench's cycles (+fw_time_tol=, docs/max78000_fw.md): the
 * SDK's CNN programs time the CNN with TMR0 from cnn_start to the CNN's interrupt and print "... inference time:
 * <n> us"; on our RTL that is the engine's run at the CNN clock, so a printed time that disagrees means the
 * platform's time (clocks, timers, SystemCoreClock, the cores' shared memory) is wrong. */
#ifndef VP_INFTIME_H
#define VP_INFTIME_H
#include "vp.h"
#include <stddef.h>

/* A line the firmware printed on UART0: remembers the inference time it states, if it states one. */
void vp_inftime_line(vp_t *v, const char *line, size_t n);
/* At the end of the run, with +fw_time_tol=<percent>: the printed time within that tolerance of the RTL's engine
 * cycles at the CNN clock, else the run fails saying by how much. Without it: nothing. */
void vp_inftime_check(vp_t *v);
#endif
