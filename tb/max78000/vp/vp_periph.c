/* SoC peripheral models of the virtual platform (vp_periph.h). The SDK's start-up (SystemInit,
 * SystemCoreClockUpdate), its board file (Board_Init: console UART, LEDs, push buttons), its HAL (MXC_SYS_Clock_Select,
 * MXC_Delay, MXC_TMR_SW_Start/Stop, MXC_ICC_Enable) and cnn.c's cnn_enable touch these; every register is
 * plain storage unless a row of reg_rules says otherwise, because what the firmware reads back there is what
 * it wrote (configuration) or a flag the table sets. */
#define _GNU_SOURCE /* memmem */
#include "vp_periph.h"
#include "vp_inftime.h"
#include "vp_camera.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum rule { R_ONES, R_TMR_CTRL1, R_UART_FIFO, R_UART_STATUS, R_TMR_CNT, R_SYST_CTRL, R_SYST_VAL, R_W1C, R_SET, R_CLR };

typedef struct block {
    uint32_t base, size;
    const char *name; /* the SDK's instance name (max78000.h MXC_BASE_<name>) */
} block_t;

/* The modelled blocks. Addresses from the SDK's max78000.h and the Cortex-M4 system control space. */
static const block_t blocks[] = {
    {0x40000000u, 0x400, "GCR"},    /* clocks, resets, dividers */
    {0x40000400u, 0x400, "SIR"},    /* system initialisation (read by SystemInit for trims) */
    {0x40000800u, 0x400, "FCR"},    /* function control: clock trims */
    {0x40004400u, 0x400, "SIMO"},   /* regulator settings (Board_Init) */
    {0x40005800u, 0x400, "GCFR"},   /* CNN power domains (cnn_enable) */
    {0x40006800u, 0x400, "PWRSEQ"}, /* power sequencer / LP control */
    {0x40006C00u, 0x400, "MCR"},    /* misc control */
    {0x40008000u, 0x1000, "GPIO0"}, /* LEDs, push buttons, UART pins */
    {0x40009000u, 0x1000, "GPIO1"}, /* */
    {0x40080400u, 0x200, "GPIO2"},  /* */
    {0x40080000u, 0x400, "LPGCR"},  /* low-power domain clocks and resets */
    {0x40010000u, 0x1000, "TMR0"},  /* the inference timer (CNN_INFERENCE_TIMER) */
    {0x4002A000u, 0x800, "ICC0"},   /* instruction cache */
    {0x4002A800u, 0x800, "ICC1"},   /* */
    {0x40029000u, 0x1000, "FLC0"},  /* flash controller (wait states) */
    {0x40042000u, 0x1000, "UART0"}, /* the console */
    {0x4003E000u, 0x1000, "SEMA"},  /* semaphores; IRQ0/IRQ1: the cores' interrupts to each other (vp_riscv.c) */
    {0xE000E000u, 0x10, "SCS"},     /* interrupt controller type, aux control */
    {0xE000E010u, 0x10, "SysTick"}, /* */
    {0xE000E100u, 0x400, "NVIC"},   /* enables, pending, priorities */
    {0xE000ED00u, 0x90, "SCB"},     /* VTOR, SCR (SLEEPDEEP), CPACR (FPU) */
    {0xE000EF00u, 0x100, "SCB_FP"}, /* FPCCR */
};

/* Registers that are not plain storage. */
typedef struct reg_rule {
    uint32_t addr;
    enum rule rule;
    uint32_t bits; /* R_ONES: read as 1; R_W1C/R_SET/R_CLR: the register the write acts on */
    const char *why;
} reg_rule_t;

static const reg_rule_t reg_rules[] = {
    {0x40000008u, R_ONES, 0x3E002000u, "GCR CLKCTRL: every oscillator and SYSCLK ready (SYSCLK_RDY, *_RDY)"},
    {0x4002A100u, R_ONES, 1u << 16, "ICC0 CTRL.RDY: the cache is ready at once (MXC_ICC_Enable polls it)"},
    {0x4002A900u, R_ONES, 1u << 16, "ICC1 CTRL.RDY"},
    {0x40042000u, R_ONES, 1u << 19, "UART0 CTRL.BCLKRDY: the baud clock is ready"},
    {0x40042004u, R_UART_STATUS, 0, "UART0 STATUS: TX and RX FIFOs empty, never busy"},
    {0x40042020u, R_UART_FIFO, 0, "UART0 FIFO: a written byte goes to the log"},
    {0x40010000u, R_TMR_CNT, 0, "TMR0 CNT: counts PCLK (core clock / 2) / 2^CLKDIV_A while CTRL0.EN_A (bit 15) is set"},
    {0x4001000Cu, R_ONES, 1u << 8 | 1u << 24, "TMR0 INTFL.WRDONE_A/B: register writes are done at once"},
    {0x40010018u, R_TMR_CTRL1, 0, "TMR0 CTRL1: CLKRDY_A/B follow CTRL0.CLKEN_A/B, CLKEN_A/B follow CTRL0.EN_A/B"},
    {0xE000E010u, R_SYST_CTRL, 0, "SysTick CTRL: COUNTFLAG set by a wrap since the last read"},
    {0xE000E018u, R_SYST_VAL, 0, "SysTick VAL: counts CPU cycles down from LOAD"},
    {0x40008008u, R_CLR, 0x40008000u, "GPIO0 EN0_CLR"},
    {0x40008004u, R_SET, 0x40008000u, "GPIO0 EN0_SET"},
    {0x40008010u, R_SET, 0x4000800Cu, "GPIO0 OUTEN_SET"},
    {0x40008014u, R_CLR, 0x4000800Cu, "GPIO0 OUTEN_CLR"},
    {0x4000801Cu, R_SET, 0x40008018u, "GPIO0 OUT_SET"},
    {0x40008020u, R_CLR, 0x40008018u, "GPIO0 OUT_CLR"},
    {0x40009008u, R_CLR, 0x40009000u, "GPIO1 EN0_CLR"},
    {0x40009004u, R_SET, 0x40009000u, "GPIO1 EN0_SET"},
    {0x40009010u, R_SET, 0x4000900Cu, "GPIO1 OUTEN_SET"},
    {0x40009014u, R_CLR, 0x4000900Cu, "GPIO1 OUTEN_CLR"},
    {0x4000901Cu, R_SET, 0x40009018u, "GPIO1 OUT_SET"},
    {0x40009020u, R_CLR, 0x40009018u, "GPIO1 OUT_CLR"},
};

/* Registers whose reset value is not 0 and matters to a program. */
static const struct {
    uint32_t addr, value;
    const char *why;
} reset_values[] = {
    {0x40000048u, 1u << 31, "GCR PCLKDIS1.CPU1: the RISC-V core's clock is off until the Cortex-M4 enables it"},
};

typedef struct word {
    uint32_t addr, value;
} word_t;

struct vp_periph {
    vp_t *v;
    const char *without;
    word_t *w; /* the registers written so far (sorted insertion is not needed: a few dozen) */
    size_t nw, cap;
    uint64_t tmr_base;  /* cpu_t at which TMR0 CNT was last written or started */
    uint32_t tmr_cnt;   /* CNT when stopped / at tmr_base */
    uint64_t syst_base; /* cpu_t at which SysTick VAL was last written / enabled */
    uint64_t syst_wraps_seen;
    char line[256];
    size_t nline;
};

static const block_t *block_of(const vp_periph_t *p, uint32_t a)
{
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        if (a - blocks[i].base < blocks[i].size)
            return p->without && !strcmp(p->without, blocks[i].name) ? NULL : &blocks[i];
    return NULL;
}

static const reg_rule_t *rule_of(uint32_t a)
{
    for (size_t i = 0; i < sizeof reg_rules / sizeof *reg_rules; i++)
        if (reg_rules[i].addr == a) return &reg_rules[i];
    return NULL;
}

static uint32_t *slot(vp_periph_t *p, uint32_t a)
{
    for (size_t i = 0; i < p->nw; i++)
        if (p->w[i].addr == a) return &p->w[i].value;
    if (p->nw == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->w = realloc(p->w, p->cap * sizeof *p->w);
        if (!p->w) abort();
    }
    p->w[p->nw] = (word_t){a, 0};
    return &p->w[p->nw++].value;
}

vp_periph_t *vp_periph_new(vp_t *v, const char *without)
{
    vp_periph_t *p = calloc(1, sizeof *p);
    if (!p) abort();
    p->v = v;
    p->without = without;
    for (size_t i = 0; i < sizeof reset_values / sizeof *reset_values; i++)
        *slot(p, reset_values[i].addr) = reset_values[i].value;
    return p;
}

void vp_periph_flush(vp_periph_t *p)
{
    if (!p->nline) return;
    printf("firmware UART0: %.*s\n", (int)p->nline, p->line);
    fflush(stdout);
    size_t n = p->nline;
    p->nline = 0;
    if (p->v->cam) vp_cam_line(p->v->cam, p->line, n);
    if (n >= 12 && memmem(p->line, n, "*** PASS ***", 12)) p->v->fw_pass = true;
    vp_inftime_line(p->v, p->line, n);
    if (n >= 12 && memmem(p->line, n, "*** FAIL ***", 12)) vp_fail(p->v, "the firmware printed *** FAIL ***");
}

void vp_periph_free(vp_periph_t *p)
{
    if (!p) return;
    vp_periph_flush(p);
    free(p->w);
    free(p);
}

static void uart_putc(vp_periph_t *p, uint8_t c)
{
    if (c == '\r') return;
    if (c == '\n' || p->nline == sizeof p->line) vp_periph_flush(p);
    if (c != '\n') p->line[p->nline++] = (char)(isprint(c) ? c : '.');
}

/* SysTick: VAL counts down from LOAD at the core clock (CLKSOURCE 1) while ENABLE; wraps = elapsed / (LOAD+1).
 * A poll (the same read from the same PC, vp_t.poll) moves CPU time on instead of emulating every iteration:
 * to the next wrap for CTRL (COUNTFLAG), by 1/64 of the period for VAL. The delay the firmware sees is the
 * one it asked for, within that step. */
static uint64_t syst_period(vp_periph_t *p) { return (uint64_t)(*slot(p, 0xE000E014u) & 0xFFFFFFu) + 1; }

static uint32_t systick(vp_periph_t *p, uint32_t a)
{
    vp_t *v = p->v;
    uint32_t ctrl = *slot(p, 0xE000E010u);
    if (!(ctrl & 1)) return a == 0xE000E018u ? *slot(p, a) : ctrl;
    uint64_t per = syst_period(p), el = v->cpu_t - p->syst_base;
    if (a == 0xE000E010u) {
        if (v->poll && el / per == p->syst_wraps_seen) {
            v->cpu_t = p->syst_base + (p->syst_wraps_seen + 1) * per;
            el = v->cpu_t - p->syst_base;
        }
        bool flag = el / per != p->syst_wraps_seen;
        p->syst_wraps_seen = el / per;
        return (ctrl & ~(1u << 16)) | (flag ? 1u << 16 : 0);
    }
    if (v->poll) {
        v->cpu_t += per / 64 ? per / 64 : 1;
        el = v->cpu_t - p->syst_base;
    }
    return (uint32_t)(per - 1 - el % per);
}

bool vp_periph_read(vp_periph_t *p, uint32_t addr, unsigned size, uint32_t *value)
{
    uint32_t a = addr & ~3u;
    vp_cam_t *cam = p->v->cam; /* the camera path's devices (vp_camera.c) */
    if (cam && vp_cam_owns(cam, a)) {
        *value = vp_cam_read(cam, addr, size);
        return true;
    }
    if (!block_of(p, a)) return false;
    const reg_rule_t *r = rule_of(a);
    uint32_t v = *slot(p, a);
    if (r) switch (r->rule) {
        case R_ONES: v |= r->bits; break;
        case R_UART_STATUS: v = 1u << 4 | 1u << 6; break;
        case R_TMR_CTRL1: {
            uint32_t c0 = *slot(p, a - 8);
            v = (v & ~(0xCu | 0xCu << 16)) | (c0 >> 14 & 1) << 3 | (c0 >> 15 & 1) << 2 | (c0 >> 30 & 1) << 19 |
                (c0 >> 31 & 1) << 18;
            break;
        }
        case R_UART_FIFO: v = 0; break;
        case R_TMR_CNT: { /* the timer's clock is PCLK (core / 2), divided by 2^CTRL0.CLKDIV_A */
            uint32_t c0 = *slot(p, 0x40010010u);
            uint64_t div = 2ull << (c0 >> 4 & 0xF);
            v = c0 & 1u << 15 ? p->tmr_cnt + (uint32_t)((p->v->cpu_t - p->tmr_base) / div) : p->tmr_cnt;
            break;
        }
        case R_SYST_CTRL:
        case R_SYST_VAL: v = systick(p, a); break;
        default: break;
        }
    if (cam) v = vp_cam_pins(cam, a, v); /* GPIO inputs: the SCCB bus, the push buttons */
    *value = size == 4 ? v : (v >> 8 * (addr & 3)) & (size == 2 ? 0xFFFFu : 0xFFu);
    return true;
}

static bool periph_store(vp_periph_t *p, uint32_t addr, unsigned size, uint32_t value)
{
    uint32_t a = addr & ~3u;
    if (!block_of(p, a)) return false;
    uint32_t *s = slot(p, a), sh = 8 * (addr & 3);
    uint32_t m = size == 4 ? ~0u : (size == 2 ? 0xFFFFu : 0xFFu) << sh, nv = (*s & ~m) | (value << sh & m);
    const reg_rule_t *r = rule_of(a);
    if (r) switch (r->rule) {
        case R_UART_FIFO: uart_putc(p, (uint8_t)(value & 0xFF)); return true;
        case R_SET: *slot(p, r->bits) |= nv; return true;
        case R_CLR: *slot(p, r->bits) &= ~nv; return true;
        case R_TMR_CNT:
            p->tmr_cnt = nv;
            p->tmr_base = p->v->cpu_t;
            break;
        case R_SYST_VAL: p->syst_base = p->v->cpu_t, p->syst_wraps_seen = 0; break;
        case R_SYST_CTRL:
            if ((nv & 1) && !(*s & 1)) p->syst_base = p->v->cpu_t, p->syst_wraps_seen = 0;
            break;
        default: break;
        }
    if (a == 0x40010010u && ((nv ^ *s) & 1u << 15)) { /* TMR0 CTRL0.EN: CNT runs from here or stops */
        uint32_t cnt;
        vp_periph_read(p, 0x40010000u, 4, &cnt);
        p->tmr_cnt = cnt;
        p->tmr_base = p->v->cpu_t;
    }
    *s = nv;
    return true;
}

bool vp_periph_write(vp_periph_t *p, uint32_t addr, unsigned size, uint32_t value)
{
    vp_cam_t *cam = p->v->cam;
    if (cam && vp_cam_owns(cam, addr & ~3u)) {
        vp_cam_write(cam, addr, size, value);
        return true;
    }
    if (!periph_store(p, addr, size, value)) return false;
    if (cam && (addr & ~0xFFFu) == 0x40008000u) /* GPIO0: the SCCB master's lines (vp_camera.c) */
        vp_cam_gpio0(cam, *slot(p, 0x40008018u), *slot(p, 0x4000800Cu));
    return true;
}

/* ---- register names from the SDK's headers (only for error messages) ---------------------------------- */
static bool hexdef(const char *line, const char *prefix, char *name, size_t n, uint32_t *val)
{
    size_t pl = strlen(prefix);
    if (strncmp(line, prefix, pl)) return false;
    const char *q = line + pl;
    size_t k = 0;
    while ((isalnum((unsigned char)*q) || *q == '_') && k + 1 < n) name[k++] = *q++;
    name[k] = 0;
    const char *h = strstr(q, "0x");
    if (!k || !h) return false;
    *val = (uint32_t)strtoul(h, NULL, 16);
    return true;
}

void vp_sdk_reg_name(const char *sdk, uint32_t addr, char *buf, size_t n)
{
    snprintf(buf, n, "no SDK register name: %s", sdk ? "not in the SDK's headers" : "SDK path not given");
    if (!sdk) return;
    char path[1024], line[512], inst[48] = "", nm[48];
    const char *dev = "Libraries/CMSIS/Device/Maxim/MAX78000/Include";
    snprintf(path, sizeof path, "%s/%s/max78000.h", sdk, dev);
    FILE *f = fopen(path, "r");
    if (!f) return;
    uint32_t best = 0, val;
    while (fgets(line, sizeof line, f)) /* the instance with the highest base at or below addr */
        if (hexdef(line, "#define MXC_BASE_", nm, sizeof nm, &val) && val <= addr && val >= best && addr - val < 0x1000)
            best = val, snprintf(inst, sizeof inst, "%s", nm);
    fclose(f);
    if (!inst[0]) return;
    char type[48];
    size_t k = 0;
    for (; inst[k] && !isdigit((unsigned char)inst[k]) && k + 1 < sizeof type; k++)
        type[k] = (char)tolower((unsigned char)inst[k]);
    type[k] = 0;
    snprintf(buf, n, "%s+0x%x (no register at that offset in %s_regs.h)", inst, addr - best, type);
    snprintf(path, sizeof path, "%s/%s/%s_regs.h", sdk, dev, type);
    char prefix[64];
    snprintf(prefix, sizeof prefix, " #define MXC_R_%.*s_", (int)k, inst); /* the type: UART for UART0 */
    if (!(f = fopen(path, "r"))) return;
    while (fgets(line, sizeof line, f))
        if ((hexdef(line, prefix, nm, sizeof nm, &val) || hexdef(line, prefix + 1, nm, sizeof nm, &val)) &&
            val == addr - best) {
            snprintf(buf, n, "MXC_%s->%s", inst, nm);
            for (char *c = strchr(buf, '>') + 1; *c; c++) *c = (char)tolower((unsigned char)*c);
            break;
        }
    fclose(f);
}
