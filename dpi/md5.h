/* MD5 (RFC 1321), to compare outputs with vendors' golden files whose digests are published as md5. */
#ifndef MD5_H
#define MD5_H
#include <stddef.h>
#include <stdint.h>

typedef struct md5 {
    uint32_t h[4];
    uint64_t len;
    uint8_t buf[64];
} md5_t;
void md5_init(md5_t *m);
void md5_update(md5_t *m, const void *data, size_t n);
void md5_hex(md5_t *m, char out[33]); /* finishes m; 32 lowercase hex digits */
#endif
