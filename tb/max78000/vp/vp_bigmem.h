/* The "larger memories" variant of the virtual platform (+fw_bigmem=, docs/max78000_fw.md): an ai8xize program
 * too large for the MAX78000 (its RTL-simulation known-answer data overflows the SDK's linker script) is linked by
 * flow/fw_ai8x.py with a linker script derived from the SDK's whose FLASH and SRAM are enlarged just enough, and
 * runs on a virtual chip whose flash and SRAM windows are as large. Not the MAX78000's memory map: the log says so,
 * with the bytes by which the program overflows the real chip. */
#ifndef VP_BIGMEM_H
#define VP_BIGMEM_H
#include "vp.h"
#include <stddef.h>

/* +fw_bigmem=flash:<bytes>:<overflow>,sram:<bytes>:<overflow> (the builder's run.args): the flash and SRAM window
 * sizes into v, and the log's note. Without it, the MAX78000's sizes. 0, or -1 with err naming the plusarg. */
int vp_bigmem_setup(vp_t *v, char *err, size_t errlen);
/* With +fw_bigmem, the log's note that the program does not fit a real MAX78000 (the run's first line). */
void vp_bigmem_note(vp_t *v);
#endif
