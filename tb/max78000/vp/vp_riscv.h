/* The MAX78000's second core, its RISC-V (RV32IMC), in the virtual platform (vp_riscv.c): the image the SDK's
 * -riscv examples build (Makefile.RISCV), which the Cortex-M4 starts. Both cores are emulated; they take turns
 * where one hands over to the other (a core sleeps, idles or ends). */
#ifndef VP_RISCV_H
#define VP_RISCV_H
#include "vp.h"
#include "vp_elf.h"
#include <unicorn/unicorn.h>

/* Read the RISC-V ELF at path, load it into the shared memories and map the platform into a RISC-V engine; the
 * core stays off until the Cortex-M4 clears GCR PCLKDIS1.CPU1. NULL with err on error. */
vp_rv_t *vp_rv_new(vp_t *v, const char *path, char *err, size_t errlen);
void vp_rv_free(vp_rv_t *r);
/* Run both cores until the Cortex-M4's firmware ends (v->exited), from the Cortex-M4 at arm_pc. */
uc_err vp_rv_run(vp_t *v, uint32_t arm_pc);
/* Has the Cortex-M4 started the RISC-V core (GCR PCLKDIS1.CPU1 cleared)? Starts it at FCR URVBOOTADDR then. */
bool vp_rv_started(vp_t *v);
/* The Cortex-M4 executes WFI (or an idle loop) at addr once the RISC-V core is started: it sleeps until an
 * interrupt wakes it, and resumes at resume. */
void vp_rv_arm_sleep(vp_t *v, uint32_t addr, uint32_t resume);
uint32_t vp_rv_pc(vp_t *v);
const vp_elf_t *vp_rv_elf(const vp_t *v);
/* Unicorn hooks both cores' engines take (vp_cpu.c; user data: the vp_t): the cycle count and its budget per
 * translated block, and an access outside the memory map (an error naming the running core). */
void vp_on_block(uc_engine *uc, uint64_t addr, uint32_t size, void *user);
bool vp_on_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *user);
#endif
