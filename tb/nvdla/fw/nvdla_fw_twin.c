/* A portable fw_net network (nvdla_fw_net.c) is the same network, element for element, on nv_small's map (8-byte
 * atoms) and on nv_full's (32-byte atoms). A golden-only run on nv_full has no DUT to compare the golden model with,
 * so it runs the network twice in one simulation: through nv_small's firmware build on the model configured as
 * nv_small, then through nv_full's on the model configured as nv_full, and compares the outputs here. The element
 * arithmetic of the two configurations is shared code (sdp_x_stage, the converters, CDP's INT8 path), so what this
 * checks is the rest: the writer's layouts, nv_full's firmware programming, the register-map translation and the
 * 32-byte-atom datapaths' addressing and their pad lanes against the 8-byte ones that the nightly checks against
 * two RTLs. */
#include "nvdla_fw_twin.h"
#include "scoreboard.h"
#include "sim.h"
#include <stdio.h>

/* Memory-list index of entry `id`. */
static size_t mem_index(const nvdla_loadable_t *l, uint16_t id)
{
    const ld_mem_t *m = ld_mem_by_id(l, id);
    return m ? (size_t)(m - l->mems) : l->nmems;
}

/* The address of element (c, y, x) of tensor t laid out at base in atoms of `atom` bytes, one lane a channel. */
static uint64_t elem_addr(const ld_tensor_t *t, uint64_t base, uint32_t atom, uint32_t c, uint32_t y, uint32_t x)
{
    return base + (uint64_t)(c / atom) * t->stride[2] + (uint64_t)y * t->stride[1] + (uint64_t)x * atom + c % atom;
}

uint64_t nvdla_fw_twin_compare(drv_t *d, const nvdla_loadable_t *full, const uint64_t *full_base,
                               const nvdla_loadable_t *twin, const uint64_t *twin_base, int64_t corrupt)
{
    enum { FULL_ATOM = 32, TWIN_ATOM = 8 }; /* nv_full's and nv_small's (the firmware's dla_config.atom_size) */
    sim_t *sim = drv_sim(d);
    if (full->ntensors != twin->ntensors) {
        sim_error(sim, "fw_net twin: %zu output tensors on nv_full, %zu on nv_small (the writer drew two networks)",
                  full->ntensors, twin->ntensors);
        return 0;
    }
    uint64_t compared = 0;
    for (size_t i = 0; i < full->ntensors; i++) {
        const ld_tensor_t *a = &full->tensors[i], *b = &twin->tensors[i];
        size_t ma = mem_index(full, a->mem_id), mb = mem_index(twin, b->mem_id);
        if (a->c != b->c || a->h != b->h || a->w != b->w || a->w <= 0 || ma >= full->nmems || mb >= twin->nmems) {
            sim_error(sim, "fw_net twin: output tensor %s is %dx%dx%d on nv_full, %dx%dx%d on nv_small", a->name, a->w,
                      a->h, a->c, b->w, b->h, b->c);
            continue;
        }
        if (i == 0 && corrupt >= 0 && corrupt < (int64_t)a->c * a->h * a->w) {
            uint32_t e = (uint32_t)corrupt, c = e / (uint32_t)(a->w * a->h), y = e / (uint32_t)a->w % (uint32_t)a->h,
                     x = e % (uint32_t)a->w;
            uint8_t v;
            drv_mem_read(d, elem_addr(a, full_base[ma], FULL_ATOM, c, y, x), &v, 1);
            v ^= 1;
            drv_mem_write(d, elem_addr(a, full_base[ma], FULL_ATOM, c, y, x), &v, 1);
            printf("fw_net twin: +fw_corrupt=%lld flipped bit 0 of %s's element c %u y %u x %u on nv_full\n",
                   (long long)corrupt, a->name, c, y, x);
        }
        uint64_t ndiff = 0;
        char first[160] = "";
        for (uint32_t c = 0; c < (uint32_t)a->c; c++)
            for (uint32_t y = 0; y < (uint32_t)a->h; y++)
                for (uint32_t x = 0; x < (uint32_t)a->w; x++) {
                    uint8_t va, vb;
                    drv_mem_read(d, elem_addr(a, full_base[ma], FULL_ATOM, c, y, x), &va, 1);
                    drv_mem_read(d, elem_addr(b, twin_base[mb], TWIN_ATOM, c, y, x), &vb, 1);
                    if (va != vb && !ndiff++)
                        snprintf(first, sizeof first, "c %u y %u x %u: nv_full 0x%02x, nv_small 0x%02x", c, y, x, va,
                                 vb);
                }
        uint64_t n = (uint64_t)a->c * (uint64_t)a->h * (uint64_t)a->w;
        compared += n;
        if (ndiff)
            sim_error(sim,
                      "MISMATCH fw_net output tensor %s (%dx%dx%d) on nv_full against its nv_small twin: %llu of %llu "
                      "elements differ, first in element %s",
                      a->name, a->w, a->h, a->c, (unsigned long long)ndiff, (unsigned long long)n, first);
        else
            printf("fw_net twin: output tensor %s (%dx%dx%d): %llu elements equal on nv_full and nv_small\n", a->name,
                   a->w, a->h, a->c, (unsigned long long)n);
    }
    sb_add_compared(sim_scoreboard(sim), compared);
    return compared;
}
