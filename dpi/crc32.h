/* CRC-32 helpers private to the memory model; crc32_update itself is declared in mem.h. */
#ifndef CRC32_H
#define CRC32_H
#include "mem.h"
#include <stddef.h>
#include <stdint.h>

/* Continue a zlib CRC over n zero bytes without touching memory: equals crc32_update over n zeros. */
uint32_t crc32_zeros(uint32_t crc, uint64_t n);
#endif
