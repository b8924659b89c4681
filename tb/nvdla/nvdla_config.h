/* The NVDLA configurations a stimulus can program: the register map it is written against (ours, which is
 * nv_small's plus BDMA, or NVIDIA's nv_full generated from arnvdla.h), and how its registers land on the golden
 * model, whose units keep our map's addresses. A unit whose register layout the model shares is translated to
 * the model's window (checked register by register when the configuration is selected); any other unit is not
 * modelled for that configuration, and starting it (D_OP_ENABLE) is refused with the reason. */
#ifndef NVDLA_CONFIG_H
#define NVDLA_CONFIG_H
#include "nvdla_regmap.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct nvdla_unit_map {
    const char *unit;    /* "NVDLA_BDMA" */
    uint32_t model_base; /* its window in the model's (our) map */
    bool own_layout;     /* a unit our map lacks (RUBIK): the model keeps the configuration's layout, not checked
                            against ours, each write cut to the configuration's stored bits */
} nvdla_unit_map_t;

typedef struct nvdla_config {
    const char *name; /* "ours", "nv_full" */
    const nvdla_reg_t *(*reg_by_addr)(uint32_t byte_addr);
    bool cvif;                     /* a second memory interface (CVSRAM, NVDLA_CV_SPACE) */
    unsigned atom_bytes;           /* the DBB atom: 8 (ours, nv_small), 32 (nv_full) */
    const nvdla_unit_map_t *units; /* NULL: the model's own map, every address as it is */
    size_t nunits;
} nvdla_config_t;

extern const nvdla_config_t nvdla_config_ours;
/* nv_full's configuration, after checking that every register of each translated unit has the model's name and
 * stored bits at its translated address; NULL with the reason in why (map not generated: ../shared absent, or a
 * layout that differs). */
const nvdla_config_t *nvdla_config_nv_full(char *why, size_t n);
/* The data the model gets for a write of `data` to addr (model's register `model`): without the bits the model
 * stores but this configuration does not (nv_full keeps addresses from bit 5, ours from bit 0). */
uint32_t nvdla_config_data(const nvdla_config_t *c, uint32_t addr, uint32_t model, uint32_t data);
/* Brings the model's registers of the translated units to this configuration's reset values where they differ
 * from the model's own (nv_full resets SDP's stages to "not bypassed", ours to bypassed), in both groups, through
 * write(user, model address, data); S_POINTER is left at group 0. */
void nvdla_config_reset_model(const nvdla_config_t *c, void (*write)(void *user, uint32_t addr, uint32_t data),
                              void *user);
/* The model's address of CSB byte address addr: true, with *model; false when the address is in no register of
 * the map or in a unit not modelled for this configuration (*unit = its unit, or NULL for a hole). */
bool nvdla_config_to_model(const nvdla_config_t *c, uint32_t addr, uint32_t *model, const char **unit);
#endif
