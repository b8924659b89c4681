/* Unit tests of the virtual platform's ELF reader (tb/max78000/vp/vp_elf.c): a small ELF written here reads back
 * its loadable segments and function symbols, the function around a PC is found (and none past a symbol's end),
 * every truncation of the file is refused with the file's name, never read past its end, a p_memsz below its
 * p_filesz is refused, and each core's reader takes its own machine only (the RISC-V core's image, vp_riscv.c). */
#include "unit.h"
#include "vp_elf.h"

#include <stdlib.h>

static void w32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i);
}
static void w16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* ELF header, one PT_LOAD of 8 bytes at 0x10000000, section headers: null, .symtab (3 symbols), .strtab. */
static size_t sample(uint8_t *b)
{
    memset(b, 0, 512);
    memcpy(b, "\177ELF", 4);
    b[4] = 1, b[5] = 1, b[6] = 1;
    w16(b + 16, 2), w16(b + 18, 40), w32(b + 24, 0x10000001u), w32(b + 28, 52);
    w16(b + 42, 32), w16(b + 44, 1), w16(b + 46, 40), w16(b + 48, 3);
    uint8_t *ph = b + 52; /* 52..84 */
    w32(ph, 1), w32(ph + 4, 84), w32(ph + 8, 0x10000000u), w32(ph + 12, 0x10000000u), w32(ph + 16, 8), w32(ph + 20, 8);
    memcpy(b + 84, "\x30\xbf\x00\xbf\x70\x47\x00\x00", 8); /* 84..92: code */
    static const char str[] = "\0main\0helper\0data";      /* 92..110 */
    memcpy(b + 92, str, sizeof str);
    uint8_t *st = b + 112; /* 112..176: 4 symbols of 16 bytes (the first null) */
    w32(st + 16, 1), w32(st + 20, 0x10000001u), w32(st + 24, 4), st[28] = 0x12;  /* main: FUNC */
    w32(st + 32, 6), w32(st + 36, 0x10000005u), w32(st + 40, 2), st[44] = 0x12;  /* helper: FUNC */
    w32(st + 48, 13), w32(st + 52, 0x20000000u), w32(st + 56, 4), st[60] = 0x11; /* data: OBJECT */
    uint8_t *sh = b + 176;                                                       /* 176..296: 3 section headers */
    w32(b + 32, 176);
    w32(sh + 40 + 4, 2), w32(sh + 40 + 16, 112), w32(sh + 40 + 20, 64), w32(sh + 40 + 24, 2);
    w32(sh + 80 + 4, 3), w32(sh + 80 + 16, 92), w32(sh + 80 + 20, sizeof str);
    return 296;
}

static const char *put(const uint8_t *b, size_t n)
{
    static char path[] = "build/unit/vp_elf_sample.elf";
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    fwrite(b, 1, n, f);
    fclose(f);
    return path;
}

static void test_read(unit_t *u)
{
    uint8_t b[512];
    size_t n = sample(b);
    char err[256] = "";
    vp_elf_t *e = vp_elf_read(put(b, n), err, sizeof err);
    CHECK(e != NULL, "read: %s", err);
    if (!e) return;
    CHECK_EQ(e->nsegs, 1);
    CHECK_EQ(e->segs[0].paddr, 0x10000000u);
    CHECK(e->segs[0].data[0] == 0x30 && e->segs[0].data[1] == 0xbf, "segment data is the file's");
    CHECK_EQ(e->nsyms, 2); /* functions only */
    const vp_sym_t *s = vp_elf_func(e, 0x10000002u);
    CHECK(s && !strcmp(s->name, "main"), "0x10000002 is in main");
    s = vp_elf_func(e, 0x10000005u);
    CHECK(s && !strcmp(s->name, "helper"), "0x10000005 is in helper (0x10000004, 2 bytes)");
    CHECK(vp_elf_func(e, 0x10000006u) == NULL, "past helper's end: no function");
    CHECK(vp_elf_func(e, 0x0FFFFFFFu) == NULL, "below every symbol: no function");
    CHECK(vp_elf_sym(e, "helper") && vp_elf_sym(e, "helper")->addr == 0x10000004u, "helper by name, Thumb bit off");
    vp_elf_free(e);
}

static void test_truncated(unit_t *u)
{
    uint8_t b[512];
    size_t n = sample(b);
    unsigned refused = 0;
    for (size_t k = 0; k < n; k++) {
        char err[256] = "";
        vp_elf_t *e = vp_elf_read(put(b, k), err, sizeof err);
        if (!e && strstr(err, "vp_elf_sample.elf")) refused++;
        vp_elf_free(e);
    }
    CHECK(refused == n, "every truncation (%zu) refused naming the file: %u", n, refused);
    char err[256] = "";
    CHECK(vp_elf_read("build/unit/no_such.elf", err, sizeof err) == NULL && strstr(err, "no_such.elf"),
          "a missing file is named: %s", err);
    memcpy(b, "\177ELG", 4);
    CHECK(vp_elf_read(put(b, n), err, sizeof err) == NULL && strstr(err, ":0: not an ELF"), "bad magic: %s", err);
}

static void test_machine(unit_t *u)
{
    uint8_t b[512];
    size_t n = sample(b);
    char err[256] = "";
    vp_elf_t *e = vp_elf_read_machine(put(b, n), VP_EM_RISCV, err, sizeof err);
    CHECK(e == NULL && strstr(err, "not a 32-bit little-endian RISC-V ELF") && strstr(err, "machine 40"),
          "an ARM ELF given as the RISC-V image: %s", err);
    vp_elf_free(e);
    w16(b + 18, VP_EM_RISCV);
    e = vp_elf_read_machine(put(b, n), VP_EM_RISCV, err, sizeof err);
    CHECK(e && e->nsegs == 1 && vp_elf_sym(e, "main"), "a RISC-V ELF reads: %s", e ? "" : err);
    vp_elf_free(e);
    CHECK(vp_elf_read(put(b, n), err, sizeof err) == NULL && strstr(err, "ARM ELF") && strstr(err, "machine 243"),
          "a RISC-V ELF given as the Cortex-M4's: %s", err);
}

/* p_memsz below p_filesz breaks the ELF rule (the rest of p_memsz is zero-fill): refused with the field's offset. */
static void test_memsz(unit_t *u)
{
    uint8_t b[512];
    size_t n = sample(b);
    w32(b + 52 + 20, 4); /* the PT_LOAD's p_memsz: 4 < its p_filesz 8 */
    char err[256] = "";
    CHECK(vp_elf_read(put(b, n), err, sizeof err) == NULL &&
              strstr(err, "vp_elf_sample.elf:72: segment 0: p_memsz 4 is smaller than its p_filesz 8"),
          "p_memsz < p_filesz: %s", err);
    w32(b + 52 + 20, 0x1000); /* larger is the zero-filled rest: read (the map checks where it reaches) */
    vp_elf_t *e = vp_elf_read(put(b, n), err, sizeof err);
    CHECK(e && e->segs[0].memsz == 0x1000 && e->segs[0].vaddr == 0x10000000u && e->segs[0].phdr == 0,
          "p_memsz 0x1000: read with its run-time address and header index: %s", e ? "" : err);
    vp_elf_free(e);
}

int main(void)
{
    unit_t u0 = {.name = "vp_elf"}, *u = &u0;
    UNIT_RUN(u, test_read);
    UNIT_RUN(u, test_truncated);
    UNIT_RUN(u, test_machine);
    UNIT_RUN(u, test_memsz);
    return unit_done(u);
}
