/* The MAX78000's memory map as the virtual platform builds it (vp_map.c): memories, the CNN's APB window
 * (bus transactions of the bench) and the peripheral windows (vp_periph.c). */
#ifndef VP_MAP_H
#define VP_MAP_H
#include "vp.h"

/* Map every region into v->uc and load the ELF's segments; 0, or -1 with err. */
int vp_map_build(vp_t *v, char *err, size_t errlen);
/* The same map in a second core's engine (vp_riscv.c): the same memories, the same bus windows; 0 or -1 with err. */
int vp_map_share(vp_t *v, struct uc_struct *uc, char *err, size_t errlen);
void vp_map_free(vp_t *v); /* the memories' host buffers */
#endif
