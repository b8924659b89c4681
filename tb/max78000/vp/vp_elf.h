/* A firmware ELF (32-bit little-endian ARM, or RISC-V for the second core): its loadable segments at their load addresses and its function
 * symbols, to name the function around a PC. */
#ifndef VP_ELF_H
#define VP_ELF_H
#include <stddef.h>
#include <stdint.h>

typedef struct vp_seg {
    uint32_t paddr, vaddr, filesz, memsz; /* load address (the flash image), run-time address, sizes */
    unsigned phdr;                        /* its program header's index (readelf -l's numbering), for messages */
    const uint8_t *data;
} vp_seg_t;

typedef struct vp_sym {
    uint32_t addr, size;
    const char *name;
} vp_sym_t;

typedef struct vp_elf {
    uint8_t *buf;
    size_t len;
    uint32_t entry;
    vp_seg_t *segs;
    size_t nsegs;
    vp_sym_t *syms; /* functions, sorted by address */
    size_t nsyms;
} vp_elf_t;

#define VP_EM_ARM 40u    /* e_machine */
#define VP_EM_RISCV 243u /* */

/* NULL on error, with err naming the file and what is wrong. vp_elf_read: an ARM ELF. */
vp_elf_t *vp_elf_read(const char *path, char *err, size_t errlen);
vp_elf_t *vp_elf_read_machine(const char *path, unsigned machine, char *err, size_t errlen);
void vp_elf_free(vp_elf_t *e);
const vp_sym_t *vp_elf_func(const vp_elf_t *e, uint32_t pc); /* the function containing pc, or NULL */
const vp_sym_t *vp_elf_sym(const vp_elf_t *e, const char *name);
#endif
