#include "nvdla_config.h"
#include <stdio.h>
#include <string.h>
#ifndef NV_FULL_ABSENT
#include "nv_full_regmap.h"
#endif

const nvdla_config_t nvdla_config_ours = {.name = "ours", .reg_by_addr = nvdla_reg_by_addr};

#ifndef NV_FULL_ABSENT
/* nv_full's units whose register layout is the model's (arnvdla.h against rtl/nvdla/regs/nvdla_regs.csv): GLB's
 * interrupt registers and BDMA. The other engines differ in width (atomics, 32-byte atoms, INT16/FP16 fields)
 * and are not computed for nv_full yet (docs/nvdla_nv_full.md). */
static const nvdla_unit_map_t nv_full_units[] = {
    {"NVDLA_GLB", 0x1000},
    {"NVDLA_BDMA", 0x10000},
};
static const nvdla_config_t nv_full = {.name = "nv_full",
                                       .reg_by_addr = nv_full_reg_by_addr,
                                       .cvif = true,
                                       .units = nv_full_units,
                                       .nunits = sizeof nv_full_units / sizeof *nv_full_units};
#endif

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
        /* GLB's interrupt status is W1C in the model's map and RW in arnvdla.h's (its RW bits are cleared by
         * writing 1 in both RTLs): only the name must agree there. */
        bool glb_status = !strcmp(r->name, "S_INTR_STATUS_0");
        if (!m || strcmp(m->unit, r->unit) || strcmp(m->name, r->name) ||
            (!glb_status && m->store_mask != r->store_mask)) {
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
