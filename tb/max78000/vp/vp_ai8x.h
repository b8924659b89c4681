/* ai8xize programs run as firmware (flow/fw_ai8x.py builds them; docs/max78000_fw.md): the refusal of those the
 * generator wrote defectively, the firmware path's use of the reader's ai8x_defects[] (tb/max78000/ai8x_import.c). */
#ifndef VP_AI8X_H
#define VP_AI8X_H
#include "ai8x_import.h"
#include "vp_elf.h"

/* The entry of ai8x_defects[] whose program this ELF is, or NULL. */
const ai8x_defect_t *vp_ai8x_defect(const vp_elf_t *e);
#endif
