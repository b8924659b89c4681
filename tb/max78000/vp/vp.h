/* MAX78000 virtual platform (docs/max78000_fw.md): the firmware Maxim's SDK builds runs on an emulated
 * Cortex-M4 (Unicorn), its CNN accesses are APB transactions of the bench (driver in the loop,
 * tb/common/driver_loop.h), the SoC peripherals the SDK touches have minimal models (vp_periph.c). One
 * vp_t per simulation; nothing here is global.
 *
 * Time: the CPU's cycles (cpu_t, at the core clock) are counted per executed instruction; a CNN access or a
 * wait for the CNN's interrupt also adds the bench cycles it took, times the clock ratio. The RTL advances only
 * during CNN accesses and interrupt waits (the CNN is idle between them in the SDK's programs), and while the CPU
 * polls a CNN register (vp_map.c: the bench first idles for the loop's cycles). */
#ifndef VP_H
#define VP_H
#include "driver_loop.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct vp_elf vp_elf_t;
typedef struct vp_periph vp_periph_t;
typedef struct vp_rv vp_rv_t;
typedef struct vp_cam vp_cam_t;
typedef struct vp_rvpc vp_rvpc_t;

/* The MAX78000's flash and SRAM (data sheet; the SDK's max78000.ld), at 0x10000000 and 0x20000000 */
#define VP_FLASH_SIZE 0x80000u
#define VP_SRAM_SIZE 0x20000u

typedef struct vp vp_t;
typedef struct vp_win { /* an MMIO window's callback context */
    vp_t *v;
    uint32_t base;
} vp_win_t;

struct vp {
    drv_t *drv;
    sim_t *sim;
    struct uc_struct *uc;
    vp_elf_t *elf;
    vp_periph_t *per;
    const char *path;   /* the ELF */
    const char *sdk;    /* SDK root: register names in errors (may be NULL) */
    uint64_t cpu_t;     /* CPU cycles since reset */
    uint64_t budget;    /* CPU cycles the firmware may take */
    uint64_t cnn_sync;  /* drv_cycle when cpu_t last took the bench's cycles */
    uint64_t cpu_sync;  /* cpu_t then */
    unsigned clk_ratio; /* CPU cycles per bench (CNN clock) cycle */
    uint32_t last_pc;   /* of the last MMIO access: poll detection */
    uint64_t last_addr, last_t;
    bool poll; /* this access repeats the last one from the same PC within a few instructions */
    char failed[512];
    uint64_t cnn_reads, cnn_writes, irqs;
    uint32_t exit_status;
    bool exited, fw_pass, main_ret_hooked;
    long long printed_us;     /* the inference time the firmware printed (vp_inftime.c), or -1 */
    const char *printed_what; /* "inference" or "loading and inference" */
    vp_win_t win[8];          /* vp_map.c's regions */
    void *mem[8];             /* vp_map.c's memories (host buffers, shared by both cores) */
    uint32_t mem_size[2];     /* flash, SRAM: the MAX78000's, or larger with +fw_bigmem (vp_bigmem.c) */
    uint32_t mem_over[2];     /* +fw_bigmem: the bytes by which the program overflows the real ones */
    vp_rv_t *rv;              /* the RISC-V core (vp_riscv.c, +fw_riscv=), or NULL */
    bool on_rv;               /* the RISC-V core is the one executing: PCs, symbols and errors are its */
    vp_cam_t *cam;            /* the camera path's devices (vp_camera.c) */
    vp_rvpc_t *rvpc;          /* the RISC-V's cycle counter CSRs (vp_rv_pcount.c), with the RISC-V core */
};

/* The function around pc from the ELF's symbols ("fn+0x12"), or "?". */
const char *vp_where(vp_t *v, uint32_t pc, char *buf, size_t n);
/* Stop the run: an error naming the firmware's PC and function (does not return). */
_Noreturn void vp_fail(vp_t *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint32_t vp_pc(vp_t *v);
/* Enter the Cortex-M4's handler of external interrupt irqn (the vector table SCB->VTOR names) as the hardware
 * does, returning to ret; with PRIMASK set, only wake: continue at ret. Returns the PC to resume at. */
uint32_t vp_arm_take_irq(vp_t *v, uint32_t irqn, uint32_t ret);
/* Bring cpu_t up to date with the bench cycles spent since the last call. */
void vp_sync_time(vp_t *v);

/* The test `firmware`: +firmware=<elf> (test registry entry). */
int vp_firmware_test(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
