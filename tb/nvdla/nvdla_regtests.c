#include "nvdla_regtests.h"
#include "dut_info.h"
#include "nvdla_regmap.h"
#include "nvdla_regs.h"
#include "rng.h"
#include <stdlib.h>
#include <string.h>

#define GLB_LIVE_INTR_BITS 0x3F00FFu /* every source but RUBIK (spec nvdla.md §4.3) */
#define GLB_BDMA_INTR_BITS 0xC0u     /* BDMA done 0/1: absent on a DUT without BDMA (nv_small) */
#define ALL_INTR_BITS 0x3F03FFu
#define UNIT_WINDOWS 0x40u /* 4 KiB windows in the 256 KiB CSB space */

static bool has_access(const nvdla_reg_t *r, nvdla_access_t a)
{
    for (unsigned i = 0; i < r->nfields; i++)
        if (r->fields[i].access == a) return true;
    return false;
}

static bool is_pointer(const nvdla_reg_t *r) { return strcmp(r->name, "S_POINTER_0") == 0; }

/* Registers whose value changes by itself or whose writes have side effects are tested elsewhere. */
static bool plain_storage(const nvdla_reg_t *r)
{
    return !has_access(r, NVR_RWT) && !has_access(r, NVR_RWHC) && !has_access(r, NVR_W1C) && !has_access(r, NVR_WO) &&
           !is_pointer(r) && r->addr != NVDLA_CDMA_S_CBUF_FLUSH_STATUS_0;
}

/* A unit the DUT does not implement (BDMA on nv_small) is compiled out: its window is a hole. */
static bool present(const nvdla_reg_t *r) { return strcmp(r->unit, "NVDLA_BDMA") != 0 || dut_has("bdma"); }

/* What a read returns after writing `v` (no hardware activity): stored bits, plus RO/RC bits at reset;
 * 0 in the window of an absent unit (holes read 0 and ignore writes). */
static uint32_t readback(const nvdla_reg_t *r, uint32_t v)
{
    return present(r) ? (v & r->store_mask) | (r->reset & r->ro_mask) : 0;
}

static uint32_t live_intr_bits(void) { return GLB_LIVE_INTR_BITS & (dut_has("bdma") ? ~0u : ~GLB_BDMA_INTR_BITS); }

static uint32_t random_pattern(rng_t *rng)
{
    switch (rng_below(rng, 4)) {
    case 0: return 0xFFFFFFFFu;
    case 1: return 0xAAAAAAAAu ^ (uint32_t)(rng_below(rng, 2) * 0xFFFFFFFFu);
    default: return (uint32_t)rng_next(rng);
    }
}

static bool defined_addr(uint32_t a) { return nvdla_reg_by_addr(a) != NULL; }

int nvdla_reg_reset(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t rng;
    rng_seed_stream(&rng, seed, "reg_reset");
    prog_job(p, "reg_reset");
    /* Every register at reset; CDMA's CBUF flush must finish within 8192 cycles of reset release. */
    for (size_t i = 0; i < nvdla_nregs; i++) {
        const nvdla_reg_t *r = &nvdla_regs[i];
        if (r->addr == NVDLA_CDMA_S_CBUF_FLUSH_STATUS_0) continue;
        prog_read(p, r->addr, present(r) ? r->reset : 0, 0xFFFFFFFFu);
    }
    prog_poll(p, NVDLA_CDMA_S_CBUF_FLUSH_STATUS_0, NVDLA_CDMA_S_CBUF_FLUSH_STATUS_0_FLUSH_DONE_MASK, 0xFFFFFFFFu, 8192);
    /* Holes: undefined offsets inside units and whole undefined windows read 0 and ignore writes. */
    prog_job(p, "reg_reset.holes");
    for (int k = 0; k < 64; k++) {
        uint32_t a;
        do a = 4 * rng_below(&rng, UNIT_WINDOWS * 0x400);
        while (defined_addr(a));
        prog_write(p, a, (uint32_t)rng_next(&rng));
        prog_read(p, a, 0, 0xFFFFFFFFu);
    }
    /* and the defined registers are unchanged by those writes */
    for (size_t i = 0; i < nvdla_nregs; i += 7) {
        const nvdla_reg_t *r = &nvdla_regs[i];
        if (r->addr != NVDLA_CDMA_S_CBUF_FLUSH_STATUS_0) prog_read(p, r->addr, present(r) ? r->reset : 0, 0xFFFFFFFFu);
    }
    return 0;
}

int nvdla_reg_rw(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t rng;
    rng_seed_stream(&rng, seed, "reg_rw");
    uint32_t *val = calloc(nvdla_nregs, sizeof *val);
    if (!val) abort();
    for (int pass = 0; pass < 2; pass++) {
        prog_job(p, "reg_rw.pass%d", pass);
        /* Write all, then read all: catches aliasing between registers, not just per-register masks. */
        for (size_t i = 0; i < nvdla_nregs; i++) {
            const nvdla_reg_t *r = &nvdla_regs[i];
            if (!plain_storage(r)) continue;
            val[i] = random_pattern(&rng);
            prog_write(p, r->addr, val[i]);
        }
        for (size_t i = 0; i < nvdla_nregs; i++) {
            const nvdla_reg_t *r = &nvdla_regs[i];
            if (plain_storage(r)) prog_read(p, r->addr, readback(r, val[i]), 0xFFFFFFFFu);
        }
    }
    free(val);
    return 0;
}

/* reg_pingpong enables the units with these patterns, so they must be legal programming: base addresses and
 * strides are multiples of 8 (spec nvdla_datapath.md 1.3; nv_small's PDP/CDP pass unaligned write addresses
 * to AXI otherwise), and SDP_RDMA gets work (memory input), else it completes at once (see below). */
static uint32_t legal_pattern(const nvdla_reg_t *r, uint32_t v)
{
    if (strstr(r->name, "ADDR") || strstr(r->name, "STRIDE")) v &= ~7u;
    if (r->addr == NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0) v &= ~1u;
    return v;
}

static const nvdla_reg_t *unit_reg(const char *unit, const char *name)
{
    char full[96];
    snprintf(full, sizeof full, "%s.%s", unit, name);
    return nvdla_reg_by_name(full);
}

static void sdp_rdma_nothing_to_do(program_t *p);

int nvdla_reg_pingpong(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    rng_t rng;
    rng_seed_stream(&rng, seed, "reg_pingpong");
    sdp_rdma_nothing_to_do(p);
    uint32_t *a = calloc(nvdla_nregs, sizeof *a), *b = calloc(nvdla_nregs, sizeof *b);
    if (!a || !b) abort();
    for (size_t u = 0; u < nvdla_npp_units; u++) {
        const nvdla_pp_unit_t *pu = &nvdla_pp_units[u];
        const nvdla_reg_t *ptr = unit_reg(pu->unit, "S_POINTER_0"), *st = unit_reg(pu->unit, "S_STATUS_0");
        const nvdla_reg_t *en = nvdla_reg_by_addr(pu->base + pu->op_enable_off);
        if (!ptr || !st || !en) {
            snprintf(err, errlen, "register table: %s lacks S_POINTER/S_STATUS/D_OP_ENABLE", pu->unit);
            free(a), free(b);
            return -1;
        }
        prog_job(p, "reg_pingpong.%s", pu->unit + 6);
        /* Group 0 gets pattern a, group 1 pattern b; each reads back its own. */
        size_t first = 0, last = 0;
        for (size_t i = 0; i < nvdla_nregs; i++) {
            const nvdla_reg_t *r = &nvdla_regs[i];
            if ((r->addr & ~0xFFFu) != pu->base || !r->dual || r == en || !plain_storage(r)) continue;
            if (!last) first = i;
            last = i + 1;
        }
        for (int g = 0; g < 2; g++) {
            prog_write(p, ptr->addr, (uint32_t)g);
            for (size_t i = first; i < last; i++) {
                const nvdla_reg_t *r = &nvdla_regs[i];
                if ((r->addr & ~0xFFFu) != pu->base || !r->dual || r == en || !plain_storage(r)) continue;
                uint32_t v = legal_pattern(r, random_pattern(&rng));
                (g ? b : a)[i] = v;
                prog_write(p, r->addr, v);
            }
        }
        for (int g = 1; g >= 0; g--) {
            prog_write(p, ptr->addr, (uint32_t)g);
            prog_read(p, ptr->addr, (uint32_t)g, 0xFFFFFFFFu); /* PRODUCER = g, CONSUMER = 0 */
            for (size_t i = first; i < last; i++) {
                const nvdla_reg_t *r = &nvdla_regs[i];
                if ((r->addr & ~0xFFFu) != pu->base || !r->dual || r == en || !plain_storage(r)) continue;
                prog_read(p, r->addr, readback(r, (g ? b : a)[i]), 0xFFFFFFFFu);
            }
        }
        /* Enable group 0 (the consumer): RUNNING; its registers are now write-protected, even OP_ENABLE. */
        const nvdla_reg_t *probe = first < last ? &nvdla_regs[first] : NULL;
        prog_write(p, en->addr, 1);
        prog_read(p, en->addr, 1, 0xFFFFFFFFu);
        prog_read(p, st->addr, 0x00000001u, 0xFFFFFFFFu);
        if (probe && probe->dual) {
            prog_write(p, probe->addr, ~a[first]);
            prog_read(p, probe->addr, readback(probe, a[first]), 0xFFFFFFFFu);
        }
        prog_write(p, en->addr, 0); /* cannot cancel an enabled group */
        prog_read(p, en->addr, 1, 0xFFFFFFFFu);
        /* Enable group 1 too: PENDING behind group 0 (spec §4.2 rule 7 example). */
        prog_write(p, ptr->addr, 1);
        prog_read(p, en->addr, 0, 0xFFFFFFFFu);
        prog_write(p, en->addr, 1);
        prog_read(p, st->addr, 0x00020001u, 0xFFFFFFFFu);
        prog_read(p, ptr->addr, 0x00000001u, 0xFFFFFFFFu);
    }
    free(a), free(b);
    return 0;
}

/* SDP_RDMA with no read stream enabled (flying input, BRDMA and NRDMA disabled) completes as soon as it is
 * enabled, on its own: CONSUMER flips and the group reads IDLE again (spec nvdla.md 4.2 completion table,
 * "all enabled read streams finished"; NVIDIA's NV_NVDLA_SDP_rdma.v: dp2reg_done). Both groups in turn, so
 * that the unit ends where it started (pointer 0, both idle). */
static void sdp_rdma_nothing_to_do(program_t *p)
{
    prog_job(p, "reg_pingpong.SDP_RDMA_nothing");
    for (uint32_t g = 0; g < 2; g++) {
        prog_write(p, NVDLA_SDP_RDMA_S_POINTER_0, g);
        prog_write(p, NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_0, 1); /* FLYING_MODE: input from CACC */
        prog_write(p, NVDLA_SDP_RDMA_D_BRDMA_CFG_0, 1);        /* BRDMA_DISABLE */
        prog_write(p, NVDLA_SDP_RDMA_D_NRDMA_CFG_0, 1);        /* NRDMA_DISABLE */
        prog_write(p, NVDLA_SDP_RDMA_D_OP_ENABLE_0, 1);
        prog_poll(p, NVDLA_SDP_RDMA_S_STATUS_0, 0, 0xFFFFFFFFu, 100); /* within a few cycles, not with SDP */
        prog_read(p, NVDLA_SDP_RDMA_D_OP_ENABLE_0, 0, 0xFFFFFFFFu);
        prog_read(p, NVDLA_SDP_RDMA_S_POINTER_0, g | ((1u - g) << 16), 0xFFFFFFFFu); /* CONSUMER = !g */
    }
    prog_write(p, NVDLA_SDP_RDMA_S_POINTER_0, 0);
}

int nvdla_reg_intr(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t rng;
    rng_seed_stream(&rng, seed, "reg_intr");
    prog_job(p, "reg_intr.set_all");
    prog_read(p, NVDLA_GLB_S_INTR_STATUS_0, 0, 0xFFFFFFFFu);
    prog_write(p, NVDLA_GLB_S_INTR_MASK_0, ALL_INTR_BITS);
    prog_write(p, NVDLA_GLB_S_INTR_SET_0, 0xFFFFFFFFu);
    prog_read(p, NVDLA_GLB_S_INTR_STATUS_0, live_intr_bits(), 0xFFFFFFFFu); /* RUBIK bits never set */
    prog_read(p, NVDLA_GLB_S_INTR_SET_0, 0, 0xFFFFFFFFu);                   /* write-only */
    prog_write(p, NVDLA_GLB_S_INTR_STATUS_0, 0);                            /* writing 0: no effect */
    prog_read(p, NVDLA_GLB_S_INTR_STATUS_0, live_intr_bits(), 0xFFFFFFFFu);
    /* Unmask: the line rises and the interrupt service sees and clears every bit. */
    prog_write(p, NVDLA_GLB_S_INTR_MASK_0, 0);
    prog_wait_irq(p, live_intr_bits(), 1000);
    prog_read(p, NVDLA_GLB_S_INTR_STATUS_0, 0, 0xFFFFFFFFu);

    prog_job(p, "reg_intr.bits");
    uint32_t bits[22];
    unsigned n = 0;
    for (unsigned b = 0; b < 22; b++)
        if (live_intr_bits() & (1u << b)) bits[n++] = b;
    for (unsigned i = n - 1; i > 0; i--) {
        unsigned j = rng_below(&rng, i + 1);
        uint32_t t = bits[i];
        bits[i] = bits[j];
        bits[j] = t;
    }
    for (unsigned i = 0; i < n; i++) {
        uint32_t m = 1u << bits[i];
        bool masked = rng_chance(&rng, 50);
        prog_write(p, NVDLA_GLB_S_INTR_MASK_0, masked ? m : 0);
        prog_write(p, NVDLA_GLB_S_INTR_SET_0, m);
        prog_read(p, NVDLA_GLB_S_INTR_STATUS_0, m, 0xFFFFFFFFu); /* a masked source still sets status */
        if (masked) prog_write(p, NVDLA_GLB_S_INTR_STATUS_0, m);
        else prog_wait_irq(p, m, 1000);
        prog_read(p, NVDLA_GLB_S_INTR_STATUS_0, 0, 0xFFFFFFFFu);
    }
    prog_write(p, NVDLA_GLB_S_INTR_SET_0, 0x300u); /* RUBIK: no effect */
    prog_read(p, NVDLA_GLB_S_INTR_STATUS_0, 0, 0xFFFFFFFFu);
    prog_write(p, NVDLA_GLB_S_INTR_MASK_0, 0);
    return 0;
}

/* CDP LUT port (spec §4.4): LE has 65 entries, LO 257; the address auto-increments and saturates. */
int nvdla_reg_cdp_lut(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t rng;
    rng_seed_stream(&rng, seed, "reg_cdp_lut");
    const uint32_t cfg = NVDLA_CDP_S_LUT_ACCESS_CFG_0, data = NVDLA_CDP_S_LUT_ACCESS_DATA_0;
    const uint32_t table_bit = NVDLA_CDP_S_LUT_ACCESS_CFG_0_LUT_TABLE_ID_MASK;
    const uint32_t write_bit = NVDLA_CDP_S_LUT_ACCESS_CFG_0_LUT_ACCESS_TYPE_MASK;
    static const unsigned entries[2] = {65, 257};
    uint16_t tab[2][257];
    for (int t = 0; t < 2; t++) {
        prog_job(p, "reg_cdp_lut.%s", t ? "LO" : "LE");
        unsigned n = entries[t];
        for (unsigned i = 0; i < n; i++) tab[t][i] = (uint16_t)rng_next(&rng);
        prog_write_np(p, cfg, (t ? table_bit : 0) | write_bit);
        for (unsigned i = 0; i < n; i++) prog_write(p, data, tab[t][i]);
        /* two more writes saturate at the last entry: it keeps the last value written */
        uint16_t extra = (uint16_t)rng_next(&rng);
        prog_write(p, data, (uint16_t)rng_next(&rng));
        prog_write(p, data, extra);
        tab[t][n - 1] = extra;
        prog_read(p, cfg, (t ? table_bit : 0) | write_bit | (n - 1), 0xFFFFFFFFu); /* live address */
        /* read back from a random start address (non-posted CFG write: spec §4.4 rule for tests) */
        unsigned start = rng_below(&rng, n);
        prog_write_np(p, cfg, (t ? table_bit : 0) | start);
        for (unsigned i = start; i < n; i++) prog_read(p, data, tab[t][i], 0xFFFFFFFFu);
        prog_read(p, cfg, (t ? table_bit : 0) | (n - 1), 0xFFFFFFFFu);
    }
    return 0;
}
