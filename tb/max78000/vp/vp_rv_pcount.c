/* The RISC-V core's cycle counter (vp_rv_pcount.h). The SDK's MXC_Delay on the RISC-V (mxc_delay.c, __riscv)
 * counts the core's cycles with three custom CSRs of its core (core_rv32.h: PCER 0x7A0, PCMR 0x7A1, PCCR 0x780):
 * clear PCCR, enable cycle counting (PCER bit 0) and the counter (PCMR bit 0), poll PCCR until it reaches
 * MXC_SYS_RiscVClockRate() / 1e6 * us. Unicorn's RV32 knows none of them (an illegal instruction; 0x7A0/0x7A1 are
 * the debug trigger CSRs of the standard), so each csrrw/csrrs of these CSRs in the image has a code hook that
 * performs it and steps over it. PCCR counts the RISC-V's clock, ISO at 60 MHz (MXC_SYS_RiscVClockRate's
 * ISO_FREQ outside low-power mode), from the platform's time (CPU cycles at 100 MHz): a delay takes the simulated
 * time it asks for. Any other access to these CSRs (csrrc, immediate forms, csrrs with a source) is an error. */
#include "vp_rv_pcount.h"
#include <stdio.h>
#include <stdlib.h>
#include <unicorn/unicorn.h>

#define CSR_PCCR 0x780u
#define CSR_PCER 0x7A0u
#define CSR_PCMR 0x7A1u
#define RV_HZ 60u   /* ISO_FREQ (system_max78000.h) */
#define CPU_HZ 100u /* the platform's time base: CPU cycles at 100 MHz (vp.h) */

struct vp_rvpc {
    vp_t *v;
    uint32_t pcer, pcmr;
    uint64_t cnt_at, t_at; /* PCCR was cnt_at at cpu_t t_at */
};

static uint64_t pccr(const vp_rvpc_t *c)
{
    bool on = (c->pcmr & 1) && (c->pcer & 1);
    return c->cnt_at + (on ? (c->v->cpu_t - c->t_at) * RV_HZ / CPU_HZ : 0);
}

static void on_csr(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)size;
    vp_rvpc_t *c = user;
    uint32_t insn = 0, src = 0, pc = (uint32_t)addr + 4;
    uc_mem_read(uc, addr, &insn, 4);
    uint32_t csr = insn >> 20, rs1 = insn >> 15 & 31, f3 = insn >> 12 & 7, rd = insn >> 7 & 31;
    if (!(f3 == 1 || (f3 == 2 && rs1 == 0)))
        vp_fail(c->v, "instruction 0x%08x on CSR 0x%03x: only csrw and csrr of the cycle counter are modelled", insn,
                csr);
    uint64_t now = pccr(c);
    uint32_t old = csr == CSR_PCCR ? (uint32_t)now : csr == CSR_PCER ? c->pcer : c->pcmr;
    if (f3 == 1) { /* csrrw: the counter keeps its count across a change of PCER/PCMR */
        uc_reg_read(uc, UC_RISCV_REG_X0 + (int)rs1, &src);
        c->cnt_at = csr == CSR_PCCR ? src : now;
        c->t_at = c->v->cpu_t;
        if (csr == CSR_PCER) c->pcer = src;
        if (csr == CSR_PCMR) c->pcmr = src;
    }
    if (rd) uc_reg_write(uc, UC_RISCV_REG_X0 + (int)rd, &old);
    uc_reg_write(uc, UC_RISCV_REG_PC, &pc);
}

vp_rvpc_t *vp_rv_pcount_new(vp_t *v, struct uc_struct *uc, const vp_elf_t *e)
{
    vp_rvpc_t *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->v = v;
    for (size_t i = 0; i < e->nsegs; i++) {
        const vp_seg_t *s = &e->segs[i];
        for (uint32_t o = 0; o + 4 <= s->filesz; o += 2) {
            const uint8_t *p = s->data + o;
            uint32_t w = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24, csr = w >> 20;
            if ((w & 0x7Fu) != 0x73u || !(w >> 12 & 3) || (csr != CSR_PCCR && csr != CSR_PCER && csr != CSR_PCMR))
                continue;
            uc_hook h; /* a match in data is never executed, so its hook never fires */
            uint64_t a = s->paddr + o;
            uc_hook_add(uc, &h, UC_HOOK_CODE, (void *)on_csr, c, a, a);
        }
    }
    return c;
}

void vp_rv_pcount_free(vp_rvpc_t *c) { free(c); }
