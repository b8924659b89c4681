/* The RISC-V core of the virtual platform (vp_riscv.h): a second Unicorn engine (UC_ARCH_RISCV, RV32) over the
 * same memories and bus windows as the Cortex-M4's (vp_map_share), so its CNN loads and stores are the same APB
 * transactions of the bench and its peripheral accesses reach the same models.
 *
 * Start: the SDK's -riscv examples set FCR URVBOOTADDR to the RISC-V image (__FlashStart_) and clear GCR
 * PCLKDIS1.CPU1 (MXC_SYS_ClockEnable(MXC_SYS_PERIPH_CLOCK_CPU1)); the core then starts at the boot address, whose
 * first word is the image's vector table (`jal Reset_Handler`).
 *
 * Turns: the cores take turns where one hands over to the other. The Cortex-M4 runs until it sleeps (WFI) or
 * idles (a branch to itself, `while (1) {}`) after starting the RISC-V core, or ends; the RISC-V core then runs
 * until its main returns or it idles (`while (1);`, fail()); the Cortex-M4 runs again when the RISC-V has
 * interrupted it. A sleeping core's time follows the other's. This is how the SDK's two examples hand over (the
 * Cortex-M4 sleeps or idles while the RISC-V works); cores that exchange data while both run would need turns
 * of a fixed slice of cycles, which Unicorn 2.0.1 did not give reliably: an emulation stopped from a block hook
 * resumed at a stale PC (the start of an earlier translated block) and lost a decrement in MXC_Delay's loop.
 *
 * Interrupts of the RISC-V: the SDK's core_rv32.h programs an interrupt controller at 0xE5070000 (MXC_INTR
 * irq0/1_enable, MXC_EVENT event0/1_enable: an enabled event wakes WFI, an enabled interrupt with mstatus.MIE
 * also enters its handler) and the image's vector table holds one `jal` per IRQ number at boot address + 4 * IRQn.
 * The CNN's (IRQ 57) is the one source: a WFI waits for the CNN's interrupt line, then enters CNN_IRQHandler as
 * the core does (mepc, mcause, mstatus.MPIE/MIE/MPP), and the handler's mret (Unicorn's) returns. The Cortex-M4
 * is woken by the RISC-V through SEMA IRQ0 (EN and CM4_IRQ set): its RISCV_IRQn handler is entered when the NVIC
 * enables it (the SDK's NVIC_SetVector does). */
#include "vp_riscv.h"
#include "vp_map.h"
#include "vp_periph.h"
#include "vp_rv_pcount.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GCR_PCLKDIS1 0x40000048u
#define PCLKDIS1_CPU1 (1u << 31)
#define FCR_URVBOOTADDR 0x40000810u
#define SEMA_IRQ0 0x4003E040u      /* EN (bit 0), CM4_IRQ (bit 16): the RISC-V interrupts the Cortex-M4 */
#define ARM_RISCV_IRQN 63u         /* max78000.h: RISCV_IRQn (vector 0x4F) */
#define ARM_NVIC_ISER0 0xE000E100u /* */
#define RV_CNN_IRQN 57u            /* max78000.h (__riscv): CNN_IRQn */
#define RV_WFI 0x10500073u         /* the wfi instruction */
#define RV_J_SELF 0x0000006Fu      /* jal x0, . (a 4-byte idle loop); c.j . is 0xA001 */
#define RV_CJ_SELF 0xA001u         /* */
#define ARM_B_SELF 0xE7FEu         /* b.n . (the Cortex-M4's idle loop) */
#define INTR_BASE 0xE5070000u      /* core_rv32.h: MXC_INTR, MXC_EVENT (+0x20), MXC_SLEEP (+0x40) */
/* A core that hands over jumps here, the `until` address of its uc_emu_start, where Unicorn stops exactly; a stop
 * requested from a hook (uc_emu_stop) lets the core run on to the end of its translated block (measured: the
 * Cortex-M4 returned from main after the WFI that was to stop it). In the platform's own page (vp_map.c). */
#define PARK 0x0FFFFE00u
#define MSTATUS_MIE (1u << 3)
#define MSTATUS_MPIE (1u << 7)
#define MSTATUS_MPP (3u << 11)

enum state { C_OFF, C_RUN, C_WFI, C_DONE };

/* The interrupt controller's registers (core_rv32.h), a row each. Pending state is the CNN's interrupt line itself,
 * which the handler clears at the CNN: writes to set/clear-pending are kept (the SDK read-modify-writes them) and
 * act on nothing; reads of the pending registers are not modelled (no SDK example reads them). */
enum ikind { I_STORE, I_ACK, I_UNMODELLED };
static const struct {
    uint32_t off;
    enum ikind kind;
    const char *name;
} intr_regs[] = {
    {0x00, I_STORE, "MXC_INTR->irq0_enable"},       {0x04, I_UNMODELLED, "MXC_INTR->irq0_pending"},
    {0x08, I_ACK, "MXC_INTR->irq0_set_pending"},    {0x0C, I_ACK, "MXC_INTR->irq0_clear_pending"},
    {0x10, I_STORE, "MXC_INTR->irq1_enable"},       {0x14, I_UNMODELLED, "MXC_INTR->irq1_pending"},
    {0x18, I_ACK, "MXC_INTR->irq1_set_pending"},    {0x1C, I_ACK, "MXC_INTR->irq1_clear_pending"},
    {0x20, I_STORE, "MXC_EVENT->event0_enable"},    {0x24, I_UNMODELLED, "MXC_EVENT->event0_pending"},
    {0x28, I_ACK, "MXC_EVENT->event0_set_pending"}, {0x2C, I_ACK, "MXC_EVENT->event0_clear_pending"},
    {0x30, I_STORE, "MXC_EVENT->event1_enable"},    {0x34, I_UNMODELLED, "MXC_EVENT->event1_pending"},
    {0x38, I_ACK, "MXC_EVENT->event1_set_pending"}, {0x3C, I_ACK, "MXC_EVENT->event1_clear_pending"},
    {0x40, I_STORE, "MXC_SLEEP->sleep_ctrl"},       {0x44, I_UNMODELLED, "MXC_SLEEP->sleep_status"},
};
#define NINTR (sizeof intr_regs / sizeof *intr_regs)

struct vp_rv {
    uc_engine *uc;
    vp_elf_t *elf;
    const char *path;
    enum state arm, rv;
    uint32_t arm_pc, rv_pc; /* where each resumes */
    uint32_t arm_wfi;       /* the Cortex-M4's WFI (or idle loop) while it sleeps */
    uint32_t rv_idle;       /* the RISC-V's idle loop, when it idles */
    uint32_t boot;          /* FCR URVBOOTADDR when the core started: its vector table */
    uint64_t t_start, irqs;
    uint32_t intr[NINTR];
    uint32_t status; /* main's return value */
    bool main_ret_hooked;
};

uint32_t vp_rv_pc(vp_t *v)
{
    uint32_t pc = 0;
    uc_reg_read(v->rv->uc, UC_RISCV_REG_PC, &pc);
    return pc;
}

const vp_elf_t *vp_rv_elf(const vp_t *v) { return v->rv->elf; }

void vp_rv_arm_sleep(vp_t *v, uint32_t addr, uint32_t resume)
{
    vp_rv_t *r = v->rv;
    uint32_t park = PARK | 1;
    r->arm = C_WFI;
    r->arm_wfi = addr;
    r->arm_pc = resume | 1; /* a WFI is not executed: the core resumes after it when woken */
    uc_reg_write(v->uc, UC_ARM_REG_PC, &park);
}

/* The Cortex-M4's idle loop once the RISC-V core runs: it waits there for an interrupt, as in WFI. */
static void arm_on_idle(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)uc;
    (void)size;
    vp_t *v = user;
    if (vp_rv_started(v)) vp_rv_arm_sleep(v, (uint32_t)addr, (uint32_t)addr);
}

/* ---- the interrupt controller window ---------------------------------------------------------------------- */
static size_t intr_row(vp_t *v, uint32_t off, unsigned size, bool write)
{
    for (size_t i = 0; i < NINTR; i++)
        if (intr_regs[i].off == off && size == 4) {
            if (intr_regs[i].kind == I_UNMODELLED && !write)
                vp_fail(v, "4-byte read of 0x%08x (%s): the interrupt controller's pending state is not modelled",
                        INTR_BASE + off, intr_regs[i].name);
            return i;
        }
    vp_fail(v, "%u-byte %s of 0x%08x (MXC_INTR+0x%x): no register of the RISC-V interrupt controller there", size,
            write ? "write" : "read", INTR_BASE + off, off);
}

static uint64_t intr_read(uc_engine *uc, uint64_t off, unsigned size, void *user)
{
    (void)uc;
    vp_t *v = user;
    return v->rv->intr[intr_row(v, (uint32_t)off, size, false)];
}

static void intr_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *user)
{
    (void)uc;
    vp_t *v = user;
    v->rv->intr[intr_row(v, (uint32_t)off, size, true)] = (uint32_t)value;
}

/* ---- hooks of the RISC-V engine ---------------------------------------------------------------------------- */
static void rv_on_wfi(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)size;
    vp_t *v = user;
    vp_rv_t *r = v->rv;
    uint32_t bit = 1u << (RV_CNN_IRQN - 32), irq = r->intr[4] & bit, event = r->intr[12] & bit; /* irq1/event1 */
    if (!irq && !event)
        vp_fail(v,
                "WFI with the CNN interrupt (RISC-V IRQ %u) enabled neither in MXC_INTR->irq1_enable nor in "
                "MXC_EVENT->event1_enable: nothing can wake the core",
                RV_CNN_IRQN);
    vp_periph_flush(v->per);
    drv_wait_irq(v->drv, 0, 0);
    vp_sync_time(v);
    r->irqs++;
    uint32_t ms = 0, next = (uint32_t)addr + 4;
    uc_reg_read(uc, UC_RISCV_REG_MSTATUS, &ms);
    if (irq && (ms & MSTATUS_MIE)) { /* enter the handler; its mret returns after the WFI */
        uint32_t cause = 0x80000000u | RV_CNN_IRQN;
        ms = (ms & ~(MSTATUS_MIE | MSTATUS_MPIE)) | MSTATUS_MPIE | MSTATUS_MPP;
        uc_reg_write(uc, UC_RISCV_REG_MEPC, &next);
        uc_reg_write(uc, UC_RISCV_REG_MCAUSE, &cause);
        uc_reg_write(uc, UC_RISCV_REG_MSTATUS, &ms);
        next = r->boot + 4 * RV_CNN_IRQN;
    }
    uc_reg_write(uc, UC_RISCV_REG_PC, &next);
}

static void rv_on_idle(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)size;
    vp_t *v = user;
    uint32_t park = PARK;
    v->rv->rv = C_WFI;
    v->rv->rv_idle = (uint32_t)addr;
    vp_periph_flush(v->per);
    uc_reg_write(uc, UC_RISCV_REG_PC, &park);
}

static void rv_on_exit(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)addr;
    (void)size;
    vp_t *v = user;
    uint32_t park = PARK;
    uc_reg_read(uc, UC_RISCV_REG_A0, &v->rv->status);
    v->rv->rv = C_DONE;
    vp_periph_flush(v->per);
    if (v->rv->status) vp_fail(v, "the RISC-V core's main returned %u", v->rv->status);
    uc_reg_write(uc, UC_RISCV_REG_PC, &park);
}

static void rv_on_main(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)addr;
    (void)size;
    vp_t *v = user;
    uint32_t ra = 0;
    uc_hook h;
    uc_reg_read(uc, UC_RISCV_REG_RA, &ra);
    if (!v->rv->main_ret_hooked) uc_hook_add(uc, &h, UC_HOOK_CODE, (void *)rv_on_exit, v, ra, ra);
    v->rv->main_ret_hooked = true;
}

/* ---- loading -------------------------------------------------------------------------------------------------- */
/* The RISC-V image's segments into the shared memories. Its first segment starts with the ELF's own headers
 * (the linker maps them below __FlashStart_, where the Cortex-M4's image ends): the Cortex-M4's bytes win there,
 * as in the SDK's combined image (objcopy -O ihex keeps sections only). Any other overlap is an error. */
static int load(vp_t *v, vp_rv_t *r, char *err, size_t errlen)
{
    for (size_t i = 0; i < r->elf->nsegs; i++) {
        const vp_seg_t *s = &r->elf->segs[i];
        uint32_t lo = s->paddr, hi = s->paddr + s->filesz;
        for (size_t j = 0; j < v->elf->nsegs; j++) {
            const vp_seg_t *a = &v->elf->segs[j];
            uint32_t alo = a->paddr, ahi = a->paddr + a->filesz;
            if (!a->filesz || ahi <= lo || alo >= hi) continue;
            if (alo <= lo && i == 0) lo = ahi;
            else {
                snprintf(err, errlen, "%s: segment %zu (0x%08x-0x%08x) overlaps the Cortex-M4 image %s (0x%08x-0x%08x)",
                         r->path, i, lo, hi, v->path, alo, ahi);
                return -1;
            }
        }
        if (lo >= hi) continue;
        if (uc_mem_write(r->uc, lo, s->data + (lo - s->paddr), hi - lo) != UC_ERR_OK) {
            snprintf(err, errlen, "%s: segment %zu (%u bytes at 0x%08x) lies outside the MAX78000's memories", r->path,
                     i, s->filesz, s->paddr);
            return -1;
        }
    }
    return 0;
}

/* Code hooks on an image's instructions: every halfword offset of its loadable segments that holds insn (of
 * 2 or 4 bytes). A match in data is never executed, so its hook never fires. */
static void hook_insns(uc_engine *uc, const vp_elf_t *e, uint32_t insn, unsigned bytes, void *cb, vp_t *v)
{
    for (size_t i = 0; i < e->nsegs; i++) {
        const vp_seg_t *s = &e->segs[i];
        for (uint32_t o = 0; o + bytes <= s->filesz; o += 2) {
            const uint8_t *p = s->data + o;
            uint32_t w = p[0] | p[1] << 8 | (bytes == 4 ? p[2] << 16 | (uint32_t)p[3] << 24 : 0);
            if (w != insn) continue;
            uc_hook h;
            uint64_t a = s->paddr + o;
            uc_hook_add(uc, &h, UC_HOOK_CODE, cb, v, a, a);
        }
    }
}

vp_rv_t *vp_rv_new(vp_t *v, const char *path, char *err, size_t errlen)
{
    vp_rv_t *r = calloc(1, sizeof *r);
    if (!r) abort();
    r->path = path;
    v->rv = r;
    if (!(r->elf = vp_elf_read_machine(path, VP_EM_RISCV, err, errlen))) goto fail;
    uc_err e = uc_open(UC_ARCH_RISCV, UC_MODE_RISCV32, &r->uc);
    if (e != UC_ERR_OK) {
        snprintf(err, errlen, "virtual platform: Unicorn cannot emulate a 32-bit RISC-V: %s", uc_strerror(e));
        goto fail;
    }
    if (vp_map_share(v, r->uc, err, errlen) || load(v, r, err, errlen)) goto fail;
    if ((e = uc_mmio_map(r->uc, INTR_BASE, 0x1000, intr_read, v, intr_write, v)) != UC_ERR_OK) {
        snprintf(err, errlen, "virtual platform: cannot map the RISC-V interrupt controller: %s", uc_strerror(e));
        goto fail;
    }
    const vp_sym_t *mn = vp_elf_sym(r->elf, "main");
    if (!mn) {
        snprintf(err, errlen, "%s: no function symbol main: the end of the RISC-V program cannot be seen", path);
        goto fail;
    }
    uc_hook h;
    uc_hook_add(r->uc, &h, UC_HOOK_BLOCK, (void *)vp_on_block, v, 1, 0);
    uc_hook_add(r->uc, &h, UC_HOOK_MEM_UNMAPPED, (void *)vp_on_unmapped, v, 1, 0);
    uc_hook_add(r->uc, &h, UC_HOOK_CODE, (void *)rv_on_main, v, mn->addr, mn->addr);
    hook_insns(r->uc, r->elf, RV_WFI, 4, (void *)rv_on_wfi, v);
    hook_insns(r->uc, r->elf, RV_J_SELF, 4, (void *)rv_on_idle, v);
    hook_insns(r->uc, r->elf, RV_CJ_SELF, 2, (void *)rv_on_idle, v);
    hook_insns(v->uc, v->elf, ARM_B_SELF, 2, (void *)arm_on_idle, v);
    v->rvpc = vp_rv_pcount_new(v, r->uc, r->elf); /* MXC_Delay's cycle counter */
    return r;
fail:
    v->rv = NULL;
    vp_rv_free(r);
    return NULL;
}

void vp_rv_free(vp_rv_t *r)
{
    if (!r) return;
    if (r->uc) uc_close(r->uc);
    vp_elf_free(r->elf);
    free(r);
}

/* ---- the two cores' turns ------------------------------------------------------------------------------------- */
static uint32_t periph(vp_t *v, uint32_t addr)
{
    uint32_t x = 0;
    vp_periph_read(v->per, addr, 4, &x);
    return x;
}

static bool in_image(const vp_rv_t *r, uint32_t a)
{
    for (size_t i = 0; i < r->elf->nsegs; i++)
        if (a - r->elf->segs[i].paddr < r->elf->segs[i].filesz) return true;
    return false;
}

/* Has the Cortex-M4 started the RISC-V core (asked when it sleeps or idles)? */
bool vp_rv_started(vp_t *v)
{
    vp_rv_t *r = v->rv;
    if (r->rv != C_OFF) return true;
    if (periph(v, GCR_PCLKDIS1) & PCLKDIS1_CPU1) return false;
    r->boot = periph(v, FCR_URVBOOTADDR);
    if (!in_image(r, r->boot))
        vp_fail(v,
                "the RISC-V core was started (GCR PCLKDIS1.CPU1 cleared) at boot address 0x%08x "
                "(MXC_FCR->urvbootaddr), outside its image %s",
                r->boot, r->path);
    r->rv = C_RUN;
    r->rv_pc = r->boot;
    r->t_start = v->cpu_t;
    sim_note(v->sim, "firmware: the Cortex-M4 started the RISC-V core at 0x%08x, CPU cycle %llu", r->boot,
             (unsigned long long)r->t_start);
    return true;
}

/* After a turn of the RISC-V: has it interrupted the sleeping Cortex-M4 (SEMA IRQ0)? */
static void poll_wake(vp_t *v, vp_rv_t *r)
{
    uint32_t sema = periph(v, SEMA_IRQ0), iser = periph(v, ARM_NVIC_ISER0 + 4 * (ARM_RISCV_IRQN / 32));
    if (r->arm != C_WFI || !(sema & 1) || !(sema & 1u << 16) || !(iser >> (ARM_RISCV_IRQN % 32) & 1)) return;
    r->arm = C_RUN;
    v->on_rv = false;
    r->arm_pc = vp_arm_take_irq(v, ARM_RISCV_IRQN, r->arm_pc & ~1u);
}

/* One turn of a core, from v->cpu_t (the time it takes over) until it hands over. */
static uc_err turn(vp_t *v, vp_rv_t *r, bool rv)
{
    v->on_rv = rv;
    uc_err e = uc_emu_start(rv ? r->uc : v->uc, rv ? r->rv_pc : r->arm_pc | 1, PARK, 0, 0);
    if (e != UC_ERR_OK) return e; /* reported by vp_main with this core's PC */
    if (rv && r->rv == C_RUN) r->rv_pc = vp_rv_pc(v);
    if (!rv && r->arm == C_RUN) uc_reg_read(v->uc, UC_ARM_REG_PC, &r->arm_pc);
    v->on_rv = false;
    return UC_ERR_OK;
}

uc_err vp_rv_run(vp_t *v, uint32_t arm_pc)
{
    vp_rv_t *r = v->rv;
    r->arm = C_RUN;
    r->arm_pc = arm_pc;
    uc_err e = UC_ERR_OK;
    while (!v->exited && e == UC_ERR_OK) {
        if (r->arm == C_WFI) poll_wake(v, r);
        if (r->arm == C_RUN) e = turn(v, r, false);
        else if (r->rv == C_RUN) e = turn(v, r, true);
        else {
            /* the error's PC (both cores are parked): the RISC-V's idle loop, or the sleeping Cortex-M4's */
            uint32_t arm_at = r->arm_wfi | 1;
            v->on_rv = r->rv == C_WFI;
            uc_reg_write(r->uc, UC_RISCV_REG_PC, &r->rv_idle);
            uc_reg_write(v->uc, UC_ARM_REG_PC, &arm_at);
            vp_fail(v,
                    "both cores stopped: the Cortex-M4 sleeps at 0x%08x with nothing to wake it (RISCV_IRQn %u: "
                    "MXC_SEMA->irq0 0x%08x, NVIC enable %u), the RISC-V core %s",
                    r->arm_wfi, ARM_RISCV_IRQN, periph(v, SEMA_IRQ0),
                    periph(v, ARM_NVIC_ISER0 + 4 * (ARM_RISCV_IRQN / 32)) >> (ARM_RISCV_IRQN % 32) & 1,
                    r->rv == C_DONE ? "returned from main" : "idles in a loop to itself");
        }
    }
    if (r->rv != C_OFF)
        sim_note(v->sim, "firmware: the RISC-V core ran from CPU cycle %llu (%s), %llu CNN interrupts taken; image %s",
                 (unsigned long long)r->t_start, r->rv == C_DONE ? "its main returned 0" : "it did not end",
                 (unsigned long long)r->irqs, r->path);
    return e;
}
