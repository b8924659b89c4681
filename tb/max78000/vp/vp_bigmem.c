/* +fw_bigmem (vp_bigmem.h): parsed against the MAX78000's own sizes, so that the variant can only enlarge. */
#include "vp_bigmem.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT (64u << 20) /* a sanity bound: nothing else of the map lies within 64 MiB above the flash or the SRAM */

static const struct {
    const char *name;
    uint32_t real; /* the MAX78000's (the SDK's max78000.ld) */
} mems[2] = {{"flash", VP_FLASH_SIZE}, {"sram", VP_SRAM_SIZE}};

int vp_bigmem_setup(vp_t *v, char *err, size_t errlen)
{
    v->mem_size[0] = VP_FLASH_SIZE;
    v->mem_size[1] = VP_SRAM_SIZE;
    const char *arg = sim_plusarg(v->sim, "fw_bigmem");
    if (!arg) return 0;
    uint64_t size[2] = {0}, over[2] = {0};
    const char *p = arg;
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(mems[i].name);
        char *end;
        if (strncmp(p, mems[i].name, n) || p[n] != ':') goto bad;
        size[i] = strtoull(p + n + 1, &end, 0);
        if (*end != ':') goto bad;
        over[i] = strtoull(end + 1, &end, 0);
        if (*end != (i ? '\0' : ',')) goto bad;
        p = end + 1;
        if (size[i] < mems[i].real || size[i] > LIMIT || size[i] % 4096 || size[i] - mems[i].real < over[i]) {
            snprintf(err, errlen,
                     "+fw_bigmem=%s: the %s window must be a multiple of 4 KiB from the MAX78000's %u bytes to %u, "
                     "holding its overflow of %" PRIu64 " bytes; saw %" PRIu64,
                     arg, mems[i].name, mems[i].real, LIMIT, over[i], size[i]);
            return -1;
        }
        v->mem_size[i] = (uint32_t)size[i];
        v->mem_over[i] = (uint32_t)over[i];
    }
    return 0;
bad:
    snprintf(err, errlen,
             "+fw_bigmem=%s: expected flash:<bytes>:<overflow>,sram:<bytes>:<overflow> (flow/fw_ai8x.py writes it)",
             arg);
    return -1;
}

void vp_bigmem_note(vp_t *v)
{
    if (!sim_plusarg(v->sim, "fw_bigmem")) return;
    /* printed, not a note: +quiet (the runner's) silences notes, and this must be in every log */
    printf("firmware: THIS PROGRAM DOES NOT FIT A REAL MAX78000: it overflows the chip's flash (%u KiB) by %u bytes "
           "and its SRAM (%u KiB) by %u bytes; it runs on an enlarged virtual chip (+fw_bigmem: flash %u KiB, SRAM "
           "%u KiB at the MAX78000's addresses), not on the MAX78000's memory map\n",
           VP_FLASH_SIZE >> 10, v->mem_over[0], VP_SRAM_SIZE >> 10, v->mem_over[1], v->mem_size[0] >> 10,
           v->mem_size[1] >> 10);
    fflush(stdout);
}
