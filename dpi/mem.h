/* Sparse byte-addressed memory over a 64-bit address space: 4 KiB pages allocated on first write; bytes
 * never written read as 0. Shared by the AXI, TCDM and back-door front ends, and by golden models. */
#ifndef MEM_H
#define MEM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct mem mem_t;

mem_t *mem_new(void);
void mem_free(mem_t *m);
mem_t *mem_clone(const mem_t *m); /* deep copy */
uint8_t mem_read8(const mem_t *m, uint64_t addr);
void mem_write8(mem_t *m, uint64_t addr, uint8_t v);
void mem_read(const mem_t *m, uint64_t addr, void *dst, uint64_t n);
void mem_write(mem_t *m, uint64_t addr, const void *src, uint64_t n);
/* Little-endian word access with byte strobes: byte i of `data` goes to addr+i when strb bit i is set. */
uint64_t mem_read64(const mem_t *m, uint64_t addr);
void mem_write64_strb(mem_t *m, uint64_t addr, uint64_t data, uint8_t strb);
uint32_t mem_read32(const mem_t *m, uint64_t addr);
void mem_write32_strb(mem_t *m, uint64_t addr, uint32_t data, uint8_t strb);
/* Fill [addr, addr+n) with v; v = 0 may drop whole pages (sizes can be hundreds of MiB). */
void mem_fill(mem_t *m, uint64_t addr, uint64_t n, uint8_t v);
/* zlib CRC-32 (poly 0xEDB88320, init/final xor 0xFFFFFFFF) over [addr, addr+n), streaming over absent
 * pages as zeros. crc32 of 0x800 zero bytes = 0xF1E8BA9E. */
uint32_t mem_crc32(const mem_t *m, uint64_t addr, uint64_t n);
/* Continue a CRC over a buffer: crc32_update(0, buf, n) is zlib's crc32(0, buf, n). */
uint32_t crc32_update(uint32_t crc, const void *buf, size_t n);
/* Number of bytes in [addr, addr+n) where a and b differ; *first (if not NULL) gets the lowest such address. */
uint64_t mem_diff(const mem_t *a, const mem_t *b, uint64_t addr, uint64_t n, uint64_t *first);
/* Image dump/load in the text form "@<hex addr>" then lines of up to 32 hex byte pairs (only written pages,
 * zero pages skipped). Load returns 0, or -1 with a message "file:line: what" in err. */
void mem_dump_image(const mem_t *m, FILE *f);

/* A fence: the regions a stimulus declares (an NVDLA loadable's memory entries). Once set, every access through
 * the read/write functions above (what the DUT's bus models and the golden models use) outside all regions is
 * recorded: the first one with its actor, and a count; a write outside is dropped (it would allocate). Fills, CRCs, diffs and the host's accesses (mem_host_*:
 * back-door loads, the drivers, the scoreboard) are not fenced. Regions and names are copied. */
typedef struct mem_region {
    uint64_t base, size;
    const char *name; /* "memory entry 3" */
} mem_region_t;
void mem_fence_set(mem_t *m, const mem_region_t *regions, size_t n);
/* Who makes the accesses from now on ("the DUT", "golden sdp"): a string that outlives the fence. */
void mem_fence_actor(const mem_t *m, const char *who);
/* The first access outside the fence not yet reported, as one sentence in buf; false when there is none. */
bool mem_fence_report(const mem_t *m, char *buf, size_t n);
uint8_t mem_host_read8(const mem_t *m, uint64_t addr);
void mem_host_write(mem_t *m, uint64_t addr, const void *src, uint64_t n);
int mem_load_image(mem_t *m, const char *path, char *err, size_t errlen);
#endif
