/* The RISC-V core's cycle counter (PCER/PCMR/PCCR, custom CSRs of the MAX78000's RV32 core), which the SDK's
 * MXC_Delay polls on the RISC-V (vp_rv_pcount.c). */
#ifndef VP_RV_PCOUNT_H
#define VP_RV_PCOUNT_H
#include "vp.h"
#include "vp_elf.h"

typedef struct vp_rvpc vp_rvpc_t;
/* Hook every access to the counter's CSRs in the RISC-V image e, run by the engine uc. */
vp_rvpc_t *vp_rv_pcount_new(vp_t *v, struct uc_struct *uc, const vp_elf_t *e);
void vp_rv_pcount_free(vp_rvpc_t *c);
#endif
