/* ELF32 reader of the firmware (vp_elf.h): program headers for loading, .symtab for names. Every offset is
 * bounds-checked; a malformed file is one error naming the file and the offset. */
#include "vp_elf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static int sym_cmp(const void *a, const void *b)
{
    const vp_sym_t *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

#define FAIL(...)                           \
    do {                                    \
        snprintf(err, errlen, __VA_ARGS__); \
        vp_elf_free(e);                     \
        return NULL;                        \
    } while (0)
#define IN(off, n) ((uint64_t)(off) + (uint64_t)(n) <= e->len)

vp_elf_t *vp_elf_read(const char *path, char *err, size_t errlen)
{
    return vp_elf_read_machine(path, VP_EM_ARM, err, errlen);
}

vp_elf_t *vp_elf_read_machine(const char *path, unsigned machine, char *err, size_t errlen)
{
    vp_elf_t *e = calloc(1, sizeof *e);
    if (!e) abort();
    FILE *f = fopen(path, "rb");
    if (!f) FAIL("%s: cannot open the firmware ELF", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    e->buf = malloc(len > 0 ? (size_t)len : 1);
    if (!e->buf) abort();
    e->len = len > 0 && fread(e->buf, 1, (size_t)len, f) == (size_t)len ? (size_t)len : 0;
    fclose(f);
    const uint8_t *b = e->buf;
    if (e->len < 52 || memcmp(b, "\177ELF", 4)) FAIL("%s:0: not an ELF file", path);
    if (b[4] != 1 || b[5] != 1 || rd16(b + 18) != machine)
        FAIL("%s:0: not a 32-bit little-endian %s ELF (class %u, data %u, machine %u)", path,
             machine == VP_EM_ARM ? "ARM" : "RISC-V", b[4], b[5], rd16(b + 18));
    e->entry = rd32(b + 24);
    uint32_t phoff = rd32(b + 28), shoff = rd32(b + 32);
    unsigned phentsize = rd16(b + 42), phnum = rd16(b + 44), shentsize = rd16(b + 46), shnum = rd16(b + 48);
    if (!IN(phoff, (uint64_t)phentsize * phnum) || phentsize < 32)
        FAIL("%s:%u: program headers past the end of the file", path, phoff);
    e->segs = calloc(phnum ? phnum : 1, sizeof *e->segs);
    if (!e->segs) abort();
    for (unsigned i = 0; i < phnum; i++) {
        const uint8_t *ph = b + phoff + i * phentsize;
        if (rd32(ph) != 1 /* PT_LOAD */) continue;
        uint32_t off = rd32(ph + 4), filesz = rd32(ph + 16), memsz = rd32(ph + 20);
        if (!IN(off, filesz)) FAIL("%s:%u: segment %u's %u bytes lie past the end of the file", path, off, i, filesz);
        /* The ELF rule p_filesz <= p_memsz (the rest is zero-filled); the map checks where p_memsz reaches. */
        if (memsz < filesz)
            FAIL("%s:%u: segment %u: p_memsz %u is smaller than its p_filesz %u", path,
                 (unsigned)(phoff + i * phentsize + 20), i, memsz, filesz);
        e->segs[e->nsegs++] = (vp_seg_t){rd32(ph + 12), rd32(ph + 8), filesz, memsz, i, b + off};
    }
    if (!IN(shoff, (uint64_t)shentsize * shnum) || (shnum && shentsize < 40))
        FAIL("%s:%u: section headers past the end of the file", path, shoff);
    for (unsigned i = 0; i < shnum; i++) {
        const uint8_t *sh = b + shoff + i * shentsize;
        if (rd32(sh + 4) != 2 /* SHT_SYMTAB */) continue;
        uint32_t off = rd32(sh + 16), size = rd32(sh + 20), link = rd32(sh + 24);
        if (link >= shnum || !IN(off, size)) FAIL("%s:%u: malformed .symtab", path, off);
        const uint8_t *ls = b + shoff + link * shentsize;
        uint32_t stroff = rd32(ls + 16), strsz = rd32(ls + 20);
        if (!IN(stroff, strsz) || !strsz || b[stroff + strsz - 1]) FAIL("%s:%u: malformed .strtab", path, stroff);
        e->syms = calloc(size / 16 + 1, sizeof *e->syms);
        if (!e->syms) abort();
        for (uint32_t s = 0; s + 16 <= size; s += 16) {
            const uint8_t *st = b + off + s;
            uint32_t name = rd32(st);
            if ((st[12] & 0xF) != 2 /* STT_FUNC */ || name >= strsz) continue;
            e->syms[e->nsyms++] = (vp_sym_t){rd32(st + 4) & ~1u, rd32(st + 8), (const char *)b + stroff + name};
        }
        qsort(e->syms, e->nsyms, sizeof *e->syms, sym_cmp);
    }
    if (!e->nsegs) FAIL("%s:%u: no loadable segment", path, phoff);
    return e;
}

void vp_elf_free(vp_elf_t *e)
{
    if (!e) return;
    free(e->segs);
    free(e->syms);
    free(e->buf);
    free(e);
}

const vp_sym_t *vp_elf_func(const vp_elf_t *e, uint32_t pc)
{
    size_t lo = 0, hi = e->nsyms;
    while (lo < hi) { /* the last symbol at or below pc */
        size_t mid = (lo + hi) / 2;
        if (e->syms[mid].addr <= pc) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return NULL;
    const vp_sym_t *s = &e->syms[lo - 1];
    return pc < s->addr + (s->size ? s->size : 1u) ? s : NULL;
}

const vp_sym_t *vp_elf_sym(const vp_elf_t *e, const char *name)
{
    for (size_t i = 0; i < e->nsyms; i++)
        if (!strcmp(e->syms[i].name, name)) return &e->syms[i];
    return NULL;
}
