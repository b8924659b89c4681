/* The emulated Cortex-M4 of the virtual platform (Unicorn 2, C API) and the firmware run: the test
 * `firmware` (+firmware=<elf>), a driver in the loop (tb/common/driver_loop.h) whose body is the CPU.
 *
 * Unicorn emulates the core, not its NVIC: interrupts are taken here. The CNN's is the one source; the firmware
 * waits for it with WFI (`while (cnn_time == 0) __WFI();`), so every WFI instruction of the ELF has a code hook
 * that waits for the CNN's interrupt line in simulated time (drv_wait_irq: the watchdog applies), then enters
 * the handler the vector table (SCB->VTOR) names, as the hardware does: an 8-word frame on the stack, LR an
 * exception-return value. That value points into a page of the platform's own (vp_map.c), whose hook pops the
 * frame; Unicorn's own M-profile exception return would need the NVIC it lacks. Not modelled: FPU context
 * stacking (the SDK's CNN_ISR uses no FPU register), priorities and nesting, interrupts taken outside WFI. */
#define _POSIX_C_SOURCE 200809L
#include "vp.h"
#include "vp_ai8x.h"
#include "vp_bigmem.h"
#include "vp_camera.h"
#include "vp_elf.h"
#include "vp_inftime.h"
#include "vp_map.h"
#include "vp_periph.h"
#include "vp_riscv.h"
#include "vp_rv_pcount.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#define EXC_RETURN_PAGE 0x0FFFF000u
#define EXC_RETURN_AT 0x0FFFFF00u /* LR = this | 1 in a handler */
#define CNN_IRQN 101u             /* max78000.h: CNN_IRQn, vector 0x75 */
#define NVIC_ISER0 0xE000E100u
#define SCB_VTOR 0xE000ED08u
#define GCR_PCLKDIS1 0x40000048u     /* bit 31: the RISC-V core's clock is off */
#define CPU_PER_CNN 2u               /* the SDK's clocks: core 100 MHz (IPO), CNN 50 MHz (PCLK, CNNCLKDIV 1) */
#define DEFAULT_BUDGET 2000000000ull /* CPU cycles: 20 s at 100 MHz (mnist waits 2 s at start-up) */

uint32_t vp_pc(vp_t *v)
{
    uint32_t pc = 0;
    if (v->on_rv) return vp_rv_pc(v);
    uc_reg_read(v->uc, UC_ARM_REG_PC, &pc);
    return pc;
}

const char *vp_where(vp_t *v, uint32_t pc, char *buf, size_t n)
{
    const vp_sym_t *s = vp_elf_func(v->on_rv ? vp_rv_elf(v) : v->elf, pc);
    if (s) snprintf(buf, n, "%s+0x%x", s->name, pc - s->addr);
    else snprintf(buf, n, "? (no function symbol)");
    return buf;
}

_Noreturn void vp_fail(vp_t *v, const char *fmt, ...)
{
    char msg[400], fn[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint32_t pc = vp_pc(v);
    vp_periph_flush(v->per);
    drv_fail(v->drv, "firmware %s: %s, at PC 0x%08x in %s%s, CPU cycle %llu", v->path, msg, pc,
             vp_where(v, pc, fn, sizeof fn), v->on_rv ? " on the RISC-V core" : "", (unsigned long long)v->cpu_t);
}

void vp_sync_time(vp_t *v)
{
    uint64_t c = drv_cycle(v->drv);
    v->cpu_t += (c - v->cnn_sync) * v->clk_ratio;
    v->cnn_sync = c;
    v->cpu_sync = v->cpu_t;
}

static uint32_t rd32(vp_t *v, uint32_t addr)
{
    uint32_t x = 0;
    if (uc_mem_read(v->uc, addr, &x, 4) != UC_ERR_OK) vp_fail(v, "cannot read 0x%08x", addr);
    return x;
}

/* Instructions are counted per translated block: one cycle per Thumb halfword (or compressed RISC-V instruction), a
 * first-order model. Both cores' engines take this hook and vp_on_unmapped: errors name the running core. */
void vp_on_block(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)uc;
    (void)addr;
    vp_t *v = user;
    v->cpu_t += size / 2;
    if (v->cpu_t > v->budget)
        vp_fail(v, "cycle budget of %llu CPU cycles spent (+fw_budget=): the firmware never finished",
                (unsigned long long)v->budget);
}

static const int frame_regs[] = {UC_ARM_REG_R0,  UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3,
                                 UC_ARM_REG_R12, UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_XPSR};

uint32_t vp_arm_take_irq(vp_t *v, uint32_t irqn, uint32_t ret)
{
    uc_engine *uc = v->uc;
    uint32_t primask = 0;
    uc_reg_read(uc, UC_ARM_REG_PRIMASK, &primask);
    if (primask & 1) { /* WFI wakes, the handler waits for PRIMASK: the firmware continues after the WFI */
        uint32_t next = ret | 1;
        uc_reg_write(uc, UC_ARM_REG_PC, &next);
        return next;
    }
    uint32_t r[8], sp;
    for (int i = 0; i < 8; i++) uc_reg_read(uc, frame_regs[i], &r[i]);
    r[6] = ret; /* the return address: after the WFI */
    uc_reg_read(uc, UC_ARM_REG_SP, &sp);
    uint32_t align = sp & 4; /* the frame is 8-byte aligned; xPSR bit 9 says the stack was realigned */
    sp = (sp - 32) & ~7u;
    r[7] = (r[7] & ~(1u << 9)) | (align ? 1u << 9 : 0) | 1u << 24;
    if (uc_mem_write(uc, sp, r, sizeof r) != UC_ERR_OK) vp_fail(v, "exception entry: stack 0x%08x not writable", sp);
    uint32_t vtor = 0;
    vp_periph_read(v->per, SCB_VTOR, 4, &vtor);
    uint32_t handler = rd32(v, vtor + 4 * (16 + irqn)), lr = EXC_RETURN_AT | 1;
    uc_reg_write(uc, UC_ARM_REG_SP, &sp);
    uc_reg_write(uc, UC_ARM_REG_LR, &lr);
    uc_reg_write(uc, UC_ARM_REG_PC, &handler);
    return handler;
}

static void on_wfi(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)uc;
    (void)size;
    vp_t *v = user;
    if (v->rv && vp_rv_started(v)) { /* the Cortex-M4 sleeps while the RISC-V core runs (vp_riscv.c) */
        vp_rv_arm_sleep(v, (uint32_t)addr, (uint32_t)addr + 2);
        return;
    }
    uint32_t iser = 0, pclkdis1 = 0;
    vp_periph_read(v->per, GCR_PCLKDIS1, 4, &pclkdis1);
    if (!v->rv && !(pclkdis1 & 1u << 31))
        vp_fail(v, "WFI after starting the RISC-V core (GCR PCLKDIS1.CPU1 cleared), but no RISC-V image was given "
                   "(+fw_riscv=<its ELF>; FIRMWARE=<the example folder> builds both and gives both)");
    vp_periph_read(v->per, NVIC_ISER0 + 4 * (CNN_IRQN / 32), 4, &iser);
    if (!(iser >> (CNN_IRQN % 32) & 1))
        vp_fail(v, "WFI with the CNN interrupt (IRQ %u) disabled in the NVIC: nothing can wake the core", CNN_IRQN);
    vp_periph_flush(v->per);
    drv_wait_irq(v->drv, 0, 0);
    vp_sync_time(v);
    v->irqs++;
    vp_arm_take_irq(v, CNN_IRQN, (uint32_t)addr + 2);
}

static void on_exc_return(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)addr;
    (void)size;
    vp_t *v = user;
    uint32_t r[8], sp;
    uc_reg_read(uc, UC_ARM_REG_SP, &sp);
    if (uc_mem_read(uc, sp, r, sizeof r) != UC_ERR_OK) vp_fail(v, "exception return: stack 0x%08x unreadable", sp);
    sp += 32 + (r[7] >> 9 & 1) * 4;
    for (int i = 0; i < 6; i++) uc_reg_write(uc, frame_regs[i], &r[i]);
    uint32_t pc = r[6] | 1;
    uc_reg_write(uc, UC_ARM_REG_SP, &sp);
    uc_reg_write(uc, UC_ARM_REG_PC, &pc);
}

/* The firmware's WFI instructions (0xBF30) in its executable segments. */
static int hook_wfis(vp_t *v)
{
    int n = 0;
    for (size_t i = 0; i < v->elf->nsegs; i++) {
        const vp_seg_t *s = &v->elf->segs[i];
        for (uint32_t o = 0; o + 2 <= s->filesz; o += 2) {
            if (s->data[o] != 0x30 || s->data[o + 1] != 0xBF) continue;
            uc_hook h;
            uint64_t a = s->paddr + o;
            uc_hook_add(v->uc, &h, UC_HOOK_CODE, (void *)on_wfi, v, a, a);
            n++;
        }
    }
    return n;
}

bool vp_on_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *user)
{
    (void)uc;
    vp_t *v = user;
    const char *what = type == UC_MEM_FETCH_UNMAPPED   ? "instruction fetch"
                       : type == UC_MEM_WRITE_UNMAPPED ? "write"
                                                       : "read";
    if (type == UC_MEM_WRITE_UNMAPPED)
        vp_fail(v, "%d-byte %s of 0x%llx to 0x%08llx: nothing of the MAX78000's memory map is there", size, what,
                (unsigned long long)value, (unsigned long long)addr);
    vp_fail(v, "%d-byte %s of 0x%08llx: nothing of the MAX78000's memory map is there", size, what,
            (unsigned long long)addr);
}

/* The end of the run: main returns (to the start-up code's spin loop: the hook at its return address, set when
 * main is entered) or the C library's _exit is called; r0 is the status. */
static void on_exit_hook(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)addr;
    (void)size;
    vp_t *v = user;
    uc_reg_read(uc, UC_ARM_REG_R0, &v->exit_status);
    v->exited = true;
    uc_emu_stop(uc);
}

static void on_main(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)addr;
    (void)size;
    vp_t *v = user;
    uint32_t lr = 0;
    uc_hook h;
    uc_reg_read(uc, UC_ARM_REG_LR, &lr);
    if (!v->main_ret_hooked) uc_hook_add(uc, &h, UC_HOOK_CODE, (void *)on_exit_hook, v, lr & ~1u, lr & ~1u);
    v->main_ret_hooked = true;
}

static int vp_main(drv_t *d, void *arg)
{
    vp_t *v = arg;
    v->drv = d;
    v->cnn_sync = drv_cycle(d);
    vp_bigmem_note(v);
    uint32_t vt = v->elf->segs[0].paddr, sp = rd32(v, vt), pc = rd32(v, vt + 4); /* the reset vector */
    uc_reg_write(v->uc, UC_ARM_REG_SP, &sp);
    uc_err e = v->rv ? vp_rv_run(v, pc) : uc_emu_start(v->uc, pc, 0xFFFFFFFFu, 0, 0);
    vp_sync_time(v);
    vp_periph_flush(v->per);
    if (!v->exited) vp_fail(v, "the emulator stopped: %s", uc_strerror(e));
    sim_note(v->sim,
             "firmware %s: exit(%u) after %llu CPU cycles (%.3f ms at 100 MHz); CNN: %llu APB writes, %llu reads, "
             "%llu interrupts; the firmware printed %s",
             v->path, v->exit_status, (unsigned long long)v->cpu_t, v->cpu_t / 1e5, (unsigned long long)v->cnn_writes,
             (unsigned long long)v->cnn_reads, (unsigned long long)v->irqs,
             v->fw_pass ? "*** PASS *** (its own known-answer check)" : "no *** PASS *** line");
    /* The firmware's known-answer check (check_output() against the values ai8xize computed) is a further check,
     * counted as one; the bench's own is the golden model against the RTL's memory (none in golden-only runs). */
    if (v->fw_pass) sim_count_check(v->sim);
    drv_check_golden(d);
    vp_inftime_check(v);
    if (v->exit_status) drv_fail(d, "firmware %s: main returned %u", v->path, v->exit_status);
    return 0;
}

static void vp_free(void *arg)
{
    vp_t *v = arg;
    if (!v) return;
    vp_rv_free(v->rv);
    vp_rv_pcount_free(v->rvpc);
    if (v->uc) uc_close(v->uc);
    vp_map_free(v);
    vp_periph_free(v->per); /* its last UART0 line goes to the camera model's checks too */
    vp_cam_free(v->cam);
    vp_elf_free(v->elf);
    free(v);
}

int vp_firmware_test(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)seed;
    sim_t *sim = sim_get();
    const char *path = sim_plusarg(sim, "firmware");
    if (!path || !*path) {
        snprintf(err, errlen, "test firmware needs +firmware=<ELF> (make run ACC=max78000 FIRMWARE=<example folder>)");
        return -1;
    }
    vp_t *v = calloc(1, sizeof *v);
    if (!v) abort();
    v->sim = sim;
    v->path = path;
    v->sdk = sim_plusarg(sim, "fw_sdk");
    v->budget = sim_plusarg_u64(sim, "fw_budget", DEFAULT_BUDGET);
    v->clk_ratio = CPU_PER_CNN;
    v->printed_us = -1;
    if (!(v->elf = vp_elf_read(path, err, errlen))) {
        free(v);
        return -1;
    }
    const ai8x_defect_t *bad = vp_ai8x_defect(v->elf);
    if (bad) { /* as the reader refuses the folder (tb/max78000/ai8x_import.c) */
        prog_skip(p,
                  "unusable stimulus: %s (ai8xize program %s): known answer not reachable by the hardware as "
                  "specified: %s",
                  path, bad->name, bad->why);
        vp_free(v);
        return 0;
    }
    v->per = vp_periph_new(v, sim_plusarg(sim, "fw_unmodel"));
    v->cam = vp_cam_new(v, sim_plusarg(sim, "fw_unmodel"));
    uc_err e = uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, &v->uc);
    if (e == UC_ERR_OK) e = uc_ctl_set_cpu_model(v->uc, UC_CPU_ARM_CORTEX_M4);
    if (e != UC_ERR_OK) {
        snprintf(err, errlen, "virtual platform: Unicorn cannot emulate a Cortex-M4: %s", uc_strerror(e));
        vp_free(v);
        return -1;
    }
    if (vp_bigmem_setup(v, err, errlen) || vp_map_build(v, err, errlen)) {
        vp_free(v);
        return -1;
    }
    const char *rv = sim_plusarg(sim, "fw_riscv"); /* the RISC-V core's image, which the Cortex-M4 starts */
    if (rv && *rv && !(v->rv = vp_rv_new(v, rv, err, errlen))) {
        vp_free(v);
        return -1;
    }
    uc_hook h;
    uc_hook_add(v->uc, &h, UC_HOOK_BLOCK, (void *)vp_on_block, v, 1, 0);
    uc_hook_add(v->uc, &h, UC_HOOK_MEM_UNMAPPED, (void *)vp_on_unmapped, v, 1, 0);
    uc_hook_add(v->uc, &h, UC_HOOK_CODE, (void *)on_exc_return, v, EXC_RETURN_AT, EXC_RETURN_AT);
    const vp_sym_t *ex = vp_elf_sym(v->elf, "_exit"), *mn = vp_elf_sym(v->elf, "main");
    if (!mn) {
        snprintf(err, errlen, "%s: no function symbol main: the end of the firmware cannot be seen", path);
        vp_free(v);
        return -1;
    }
    uc_hook_add(v->uc, &h, UC_HOOK_CODE, (void *)on_main, v, mn->addr, mn->addr);
    if (ex) uc_hook_add(v->uc, &h, UC_HOOK_CODE, (void *)on_exit_hook, v, ex->addr, ex->addr);
    if (!hook_wfis(v)) sim_note(sim, "firmware %s: no WFI instruction: the CNN's interrupt is never taken", path);
    drv_attach(p, sim, vp_main, v, vp_free, 8u << 20);
    return 0;
}
