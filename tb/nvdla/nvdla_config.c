#include "nvdla_config.h"
#include "dp_atom32.h"
#include <stdio.h>
#include <string.h>
#ifndef NV_FULL_ABSENT
#include "nv_full_regmap.h"
#endif

const nvdla_config_t nvdla_config_ours = {.name = "ours", .reg_by_addr = nvdla_reg_by_addr, .atom_bytes = 8};

#ifndef NV_FULL_ABSENT
/* nv_full's units whose register layout is the model's (arnvdla.h against rtl/nvdla/regs/nvdla_regs.csv) and
 * which the model computes for nv_full: GLB's interrupt registers, BDMA, the direct convolution (CDMA..CACC), SDP,
 * PDP and CDP (with 32-byte atoms, golden/nvdla/dp_atom32.h); RUBIK, which our map lacks, in nv_full's own layout
 * at a window of the model (contract mode computed, docs/nvdla_nv_full.md). */
static const nvdla_unit_map_t nv_full_units[] = {
    {"NVDLA_GLB", 0x1000, false},    {"NVDLA_BDMA", 0x10000, false},
    {"NVDLA_CDMA", 0x3000, false},   {"NVDLA_CSC", 0x4000, false},
    {"NVDLA_CMAC_A", 0x5000, false}, {"NVDLA_CMAC_B", 0x6000, false},
    {"NVDLA_CACC", 0x7000, false},   {"NVDLA_SDP_RDMA", 0x8000, false},
    {"NVDLA_SDP", 0x9000, false},    {"NVDLA_PDP_RDMA", 0xA000, false},
    {"NVDLA_PDP", 0xB000, false},    {"NVDLA_CDP_RDMA", 0xC000, false},
    {"NVDLA_CDP", 0xD000, false},    {"NVDLA_RBK", NVDLA_RBK_MODEL_BASE, true},
};
static const nvdla_config_t nv_full = {.name = "nv_full",
                                       .reg_by_addr = nv_full_reg_by_addr,
                                       .cvif = true,
                                       .atom_bytes = 32,
                                       .units = nv_full_units,
                                       .nunits = sizeof nv_full_units / sizeof *nv_full_units};
#endif

uint32_t nvdla_config_data(const nvdla_config_t *c, uint32_t addr, uint32_t model, uint32_t data)
{
    const nvdla_reg_t *r = c->reg_by_addr(addr), *m = nvdla_reg_by_addr(model);
    if (r && !m && c->units) return data & r->store_mask; /* an own-layout unit: the configuration's bits */
    return r && m ? data & ~(m->store_mask & ~r->store_mask) : data;
}

bool nvdla_config_to_model(const nvdla_config_t *c, uint32_t addr, uint32_t *model, const char **unit)
{
    const nvdla_reg_t *r = c->reg_by_addr(addr);
    *unit = r ? r->unit : NULL;
    if (!r) return false;
    if (!c->units) {
        *model = addr;
        return true;
    }
    for (size_t i = 0; i < c->nunits; i++)
        if (!strcmp(c->units[i].unit, r->unit)) {
            *model = c->units[i].model_base + (addr & 0xFFFu); /* units are 4 KiB windows in both maps */
            return true;
        }
    return false;
}

void nvdla_config_reset_model(const nvdla_config_t *c, void (*write)(void *user, uint32_t addr, uint32_t data),
                              void *user)
{
#ifdef NV_FULL_ABSENT
    (void)c, (void)write, (void)user;
#else
    if (c != &nv_full) return;
    for (uint32_t grp = 0; grp < 2; grp++) {
        for (size_t u = 0; u < nv_full.nunits; u++) {
            char name[64];
            snprintf(name, sizeof name, "%s.S_POINTER_0", nv_full.units[u].unit);
            const nvdla_reg_t *ptr = nvdla_reg_by_name(name);
            if (!ptr) continue;          /* GLB, BDMA: no groups of registers */
            write(user, ptr->addr, grp); /* PRODUCER = grp */
            for (size_t i = 0; i < nv_full_nregs; i++) {
                const nvdla_reg_t *r = &nv_full_regs[i];
                uint32_t model;
                const char *unit;
                if (!r->dual || strcmp(r->unit, nv_full.units[u].unit) ||
                    !nvdla_config_to_model(c, r->addr, &model, &unit))
                    continue;
                const nvdla_reg_t *m = nvdla_reg_by_addr(model);
                if (m && m->reset != r->reset && strcmp(r->name, "D_OP_ENABLE_0")) write(user, model, r->reset);
            }
            if (grp == 1) write(user, ptr->addr, 0);
        }
    }
#endif
}

const nvdla_config_t *nvdla_config_nv_full(char *why, size_t n)
{
#ifdef NV_FULL_ABSENT
    snprintf(why, n, "nv_full's register map was not generated: %s", NV_FULL_ABSENT);
    return NULL;
#else
    for (size_t i = 0; i < nv_full_nregs; i++) {
        const nvdla_reg_t *r = &nv_full_regs[i];
        uint32_t model;
        const char *unit;
        if (!nvdla_config_to_model(&nv_full, r->addr, &model, &unit)) continue;
        const nvdla_reg_t *m = nvdla_reg_by_addr(model);
        bool own = false; /* a unit our map lacks, kept in nv_full's layout: nothing of ours to match */
        for (size_t u = 0; u < nv_full.nunits; u++)
            own |= nv_full.units[u].own_layout && !strcmp(nv_full.units[u].unit, r->unit);
        if (own) continue;
        /* Where only the name must agree: GLB's interrupt status is W1C in the model's map and RW in arnvdla.h's
         * (cleared by writing 1 in both RTLs); SDP's S_LUT_ACCESS_DATA is a data port into the LUT, which the model
         * keeps outside its stored bits (the table: golden/nvdla/sdp_lut.h) and arnvdla.h lists as RW. Elsewhere nv_full must store no bit the model does not (its addresses and strides keep bits
         * [31:5], ours [31:0]: nvdla_config_data drops the rest). */
        bool name_only = !strcmp(r->name, "S_INTR_STATUS_0") || !strcmp(r->name, "S_LUT_ACCESS_DATA_0");
        if (!m || strcmp(m->unit, r->unit) || strcmp(m->name, r->name) ||
            (!name_only && (r->store_mask & ~m->store_mask))) {
            snprintf(why, n,
                     "nv_full's %s.%s (0x%05x) does not match the model's register at 0x%05x (%s): the unit map of "
                     "tb/nvdla/nvdla_config.c is wrong for this arnvdla.h",
                     r->unit, r->name, r->addr, model, m ? m->name : "none");
            return NULL;
        }
    }
    return &nv_full;
#endif
}
