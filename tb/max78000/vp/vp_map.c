/* Memory map of the virtual platform (vp_map.h), as a table. Memories are Unicorn RAM; the CNN's and the
 * peripherals' windows are MMIO whose callbacks turn each access into a bus operation of the bench or a
 * peripheral model's; an address outside every row stops Unicorn (UC_ERR_*_UNMAPPED), reported by vp_cpu.c
 * with the PC and function. */
#include "vp_map.h"
#include "vp_elf.h"
#include "vp_periph.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

enum kind { M_MEM, M_CNN, M_PERIPH };

typedef struct region {
    uint32_t base, size;
    enum kind kind;
    const char *what;
} region_t;

/* MAX78000 data sheet memory map (and the SDK's linker script max78000.ld); 4 KiB granularity (Unicorn's). */
static const region_t regions[] = {
    {0x10000000u, VP_FLASH_SIZE, M_MEM, "flash (512 KiB)"}, /* v->mem_size[0]: +fw_bigmem may enlarge them */
    {0x20000000u, VP_SRAM_SIZE, M_MEM, "SRAM (128 KiB)"},   /* v->mem_size[1] */
    {0x0FFFF000u, 0x1000u, M_MEM, "the virtual platform's page: exception return (vp_cpu.c), parking (vp_riscv.c)"},
    {0x50000000u, 0x1100000u, M_CNN, "CNN (APB: global, quadrants 0-3 and their memories, to 0x510FFFFF)"},
    {0x400C0000u, 0x1000u, M_CNN, "CNN FIFOs (APB)"},
    {0x40000000u, 0xC0000u, M_PERIPH, "APB peripherals"},
    {0xE000E000u, 0x1000u, M_PERIPH, "Cortex-M4 system control space"},
};

/* A region's size in this run: the flash's and SRAM's are the run's (vp_bigmem.c). */
static uint32_t rsize(const vp_t *v, size_t i) { return i < 2 ? v->mem_size[i] : regions[i].size; }

_Static_assert(sizeof regions / sizeof *regions <= sizeof((vp_t *)0)->win / sizeof(vp_win_t) &&
                   sizeof regions / sizeof *regions <= sizeof((vp_t *)0)->mem / sizeof(void *),
               "vp_t.win and vp_t.mem hold a callback context and a memory per region");

_Noreturn static void unmodelled(vp_t *v, uint32_t addr, unsigned size, bool write, uint32_t value)
{
    char reg[160];
    vp_sdk_reg_name(v->sdk, addr, reg, sizeof reg);
    if (write)
        vp_fail(v, "%u-byte write of 0x%x to 0x%08x (%s): no peripheral model covers it", size, value, addr, reg);
    vp_fail(v, "%u-byte read of 0x%08x (%s): no peripheral model covers it", size, addr, reg);
}

/* A repeated read of one address from one PC within a few instructions is a poll (vp_periph.c's timers). */
static void note_access(vp_t *v, uint32_t addr)
{
    uint32_t pc = vp_pc(v);
    v->poll = addr == v->last_addr && pc == v->last_pc && v->cpu_t - v->last_t < 64;
    v->last_addr = addr;
    v->last_pc = pc;
    v->last_t = v->cpu_t;
}

static uint64_t periph_read(uc_engine *uc, uint64_t off, unsigned size, void *user)
{
    const vp_win_t *w = user;
    vp_t *v = w->v;
    uint32_t addr = w->base + (uint32_t)off, value;
    note_access(v, addr);
    if (!vp_periph_read(v->per, addr, size, &value)) unmodelled(v, addr, size, false, 0);
    if (v->exited) uc_emu_stop(uc); /* a model ended the run (vp_camera.c: the firmware's last frame is done) */
    return value;
}

static void periph_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *user)
{
    (void)uc;
    const vp_win_t *w = user;
    vp_t *v = w->v;
    uint32_t addr = w->base + (uint32_t)off;
    note_access(v, addr);
    if (!vp_periph_write(v->per, addr, size, (uint32_t)value)) unmodelled(v, addr, size, true, (uint32_t)value);
}

/* A CNN access is one APB transaction of the bench: a read waits for its data in simulated time. The RTL advances
 * only during CNN accesses, except where the CPU polls a CNN register (the same read from the same PC, note_access):
 * the bench idles first for the CPU cycles the loop took, so the CNN runs while the CPU waits for it (a firmware
 * that polls for the end instead of sleeping, mnist-streaming's cnn_wait, times the CNN's run). */
static uint64_t cnn_read(uc_engine *uc, uint64_t off, unsigned size, void *user)
{
    (void)uc;
    const vp_win_t *w = user;
    vp_t *v = w->v;
    uint32_t addr = w->base + (uint32_t)off;
    note_access(v, addr);
    if (v->poll && v->cpu_t > v->cpu_sync) { /* a poll: the CNN runs while the CPU waits for it */
        drv_idle(v->drv, (v->cpu_t - v->cpu_sync + v->clk_ratio - 1) / v->clk_ratio);
        v->cpu_t = v->cpu_sync; /* the bench's idle cycles are the loop's time */
        vp_sync_time(v);
    }
    uint32_t word = drv_reg_read(v->drv, addr & ~3u);
    v->cnn_reads++;
    vp_sync_time(v);
    return size == 4 ? word : (word >> 8 * (addr & 3)) & (size == 2 ? 0xFFFFu : 0xFFu);
}

/* Writes are non-posted: the core's store to the APB bridge completes when the transfer does, so CPU time
 * (SysTick, TMR0: the inference time the firmware prints) includes the bus's; with posted writes the firmware
 * ran ahead of thousands of queued writes and started its timer before the CNN's start reached the CNN. */
static void cnn_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t value, void *user)
{
    (void)uc;
    const vp_win_t *w = user;
    vp_t *v = w->v;
    uint32_t addr = w->base + (uint32_t)off;
    v->cnn_writes++;
    if (size == 4) drv_reg_write_np(v->drv, addr, (uint32_t)value);
    else { /* a byte or halfword store: its lanes of PSTRB (the express-load set-address byte, D02) */
        op_t o = {.kind = OP_WRITE,
                  .addr = addr, /* unaligned, as m7_wr_byte: the bench takes the lane from it */
                  .data = (uint32_t)value << 8 * (addr & 3),
                  .strb = (uint8_t)((size == 2 ? 3u : 1u) << (addr & 3)),
                  .nposted = true};
        drv_op(v->drv, &o);
    }
    vp_sync_time(v);
}

/* Every region into uc: memories on the host buffers of v->mem (so that a second core sees the same bytes), the
 * windows with v->win's callback contexts (their callbacks act for whichever core is running, vp_t.on_rv). */
static int map_regions(vp_t *v, uc_engine *uc, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof regions / sizeof *regions; i++) {
        const region_t *r = &regions[i];
        vp_win_t *w = &v->win[i];
        uc_err e = r->kind == M_MEM   ? uc_mem_map_ptr(uc, r->base, rsize(v, i), UC_PROT_ALL, v->mem[i])
                   : r->kind == M_CNN ? uc_mmio_map(uc, r->base, r->size, cnn_read, w, cnn_write, w)
                                      : uc_mmio_map(uc, r->base, r->size, periph_read, w, periph_write, w);
        if (e != UC_ERR_OK) {
            snprintf(err, errlen, "virtual platform: cannot map %s at 0x%08x: %s", r->what, r->base, uc_strerror(e));
            return -1;
        }
    }
    return 0;
}

int vp_map_share(vp_t *v, struct uc_struct *uc, char *err, size_t errlen) { return map_regions(v, uc, err, errlen); }

void vp_map_free(vp_t *v)
{
    for (size_t i = 0; i < sizeof v->mem / sizeof *v->mem; i++) free(v->mem[i]);
}

int vp_map_build(vp_t *v, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof regions / sizeof *regions; i++) {
        v->win[i] = (vp_win_t){v, regions[i].base};
        if (regions[i].kind == M_MEM && !(v->mem[i] = calloc(1, rsize(v, i)))) abort();
    }
    if (map_regions(v, v->uc, err, errlen)) return -1;
    for (size_t i = 0; i < v->elf->nsegs; i++) {
        const vp_seg_t *s = &v->elf->segs[i];
        /* Its run-time image (p_vaddr, p_memsz) lies in one memory: the startup code copies and zero-fills there. */
        bool in_mem = !s->memsz;
        for (size_t k = 0; k < sizeof regions / sizeof *regions && !in_mem; k++)
            in_mem = regions[k].kind == M_MEM && s->vaddr >= regions[k].base &&
                     (uint64_t)s->vaddr + s->memsz <= (uint64_t)regions[k].base + rsize(v, k);
        if (!in_mem) {
            snprintf(
                err, errlen,
                "%s: segment %u: its run-time image (p_vaddr 0x%08x, p_memsz %u bytes) lies outside the MAX78000's "
                "memories",
                v->path, s->phdr, s->vaddr, s->memsz);
            return -1;
        }
        if (!s->filesz) continue;
        if (uc_mem_write(v->uc, s->paddr, s->data, s->filesz) != UC_ERR_OK) {
            snprintf(err, errlen, "%s: segment %u (%u bytes at 0x%08x) lies outside the MAX78000's memories", v->path,
                     s->phdr, s->filesz, s->paddr);
            return -1;
        }
    }
    return 0;
}
