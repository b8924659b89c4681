/* Which ai8xize program an ELF is: its main.c prints "*** CNN Inference Test <name> ***" (the generator writes the
 * program's name, the folder's, into that banner), so the string is in the ELF's loadable bytes. The ELF is all a
 * firmware run has (it may be built anywhere, the folder renamed): the banner, not a path, names the program. */
#include "vp_ai8x.h"
#include <stdio.h>
#include <string.h>

static bool holds(const vp_elf_t *e, const char *s, size_t n)
{
    for (size_t i = 0; i < e->nsegs; i++) {
        const vp_seg_t *g = &e->segs[i];
        for (uint32_t at = 0; g->filesz >= n && at <= g->filesz - n; at++) {
            const void *hit = memchr(g->data + at, s[0], g->filesz - n + 1 - at);
            if (!hit) break;
            at = (uint32_t)((const uint8_t *)hit - g->data);
            if (!memcmp(hit, s, n)) return true;
        }
    }
    return false;
}

const ai8x_defect_t *vp_ai8x_defect(const vp_elf_t *e)
{
    char banner[256];
    for (const ai8x_defect_t *d = ai8x_defects; d->name; d++) {
        int n = snprintf(banner, sizeof banner, "CNN Inference Test %s ***", d->name);
        if (n > 0 && (size_t)n < sizeof banner && holds(e, banner, (size_t)n)) return d;
    }
    return NULL;
}
