/* Sparse byte-addressed memory: 4 KiB pages in an open-addressing (linear probing) hash table keyed by
 * page number. Absent pages read as zero; zero fills drop pages so huge ALL_ZERO regions cost nothing. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getline */
#endif
#include "mem.h"
#include "crc32.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { PAGE_BITS = 12, PAGE_SIZE = 1 << PAGE_BITS, MIN_SLOTS_LOG2 = 6 };
#define PAGE_MASK ((uint64_t)PAGE_SIZE - 1)

typedef struct page {
    uint64_t pn; /* page number = address >> PAGE_BITS */
    uint8_t b[PAGE_SIZE];
} page_t;

/* Reached from a const mem_t: a read outside the fence is recorded by the const read functions. */
typedef struct fence {
    mem_region_t *r;
    size_t n;
    const char *who;
    bool hit, reported, write;
    uint64_t addr, len, count; /* the first access outside; accesses outside in all */
    const char *hit_who;
} fence_t;

struct mem {
    page_t **slot; /* NULL = empty; load factor kept <= 1/2 */
    unsigned log2cap;
    size_t count;
    fence_t *fence; /* NULL: no fence (every stimulus but a loadable) */
};

static const uint8_t zero_page[PAGE_SIZE];

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n, sz);
    if (!p) {
        fprintf(stderr, "mem: out of memory allocating %zu bytes\n", n * sz);
        abort();
    }
    return p;
}

/* [addr, addr+n) lies inside one region: true; else the access is recorded. */
static bool fence_check(fence_t *f, uint64_t addr, uint64_t n, bool write)
{
    for (size_t i = 0; i < f->n; i++)
        if (addr >= f->r[i].base && addr - f->r[i].base < f->r[i].size && n <= f->r[i].size - (addr - f->r[i].base))
            return true;
    f->count++;
    if (f->hit) return false;
    f->hit = true;
    f->addr = addr, f->len = n, f->write = write, f->hit_who = f->who;
    return false;
}
/* A read outside is recorded and served; a write outside is recorded and dropped, so that a unit programmed to
 * write far beyond its entries cannot allocate host memory without bound before the run stops. */
#define FENCE_READ(m, addr, n)                                       \
    do {                                                             \
        if ((m)->fence) fence_check((m)->fence, (addr), (n), false); \
    } while (0)
#define FENCE_WRITE(m, addr, n)                                                \
    do {                                                                       \
        if ((m)->fence && !fence_check((m)->fence, (addr), (n), true)) return; \
    } while (0)

void mem_fence_set(mem_t *m, const mem_region_t *regions, size_t n)
{
    if (!m->fence) m->fence = xcalloc(1, sizeof *m->fence);
    fence_t *f = m->fence;
    for (size_t i = 0; i < f->n; i++) free((char *)f->r[i].name);
    free(f->r);
    memset(f, 0, sizeof *f);
    f->r = xcalloc(n ? n : 1, sizeof *f->r);
    for (size_t i = 0; i < n; i++) {
        f->r[i] = regions[i];
        f->r[i].name = strdup(regions[i].name ? regions[i].name : "region");
        if (!f->r[i].name) {
            fprintf(stderr, "mem: out of memory copying a region name\n");
            abort();
        }
    }
    f->n = n;
    f->who = "an access";
}

void mem_fence_actor(const mem_t *m, const char *who)
{
    if (m->fence) m->fence->who = who;
}

bool mem_fence_report(const mem_t *m, char *buf, size_t n)
{
    const fence_t *f = m->fence;
    if (!f || !f->hit || f->reported) return false;
    m->fence->reported = true;
    /* the region just below the address, else the lowest one above it */
    const mem_region_t *below = NULL, *above = NULL;
    for (size_t i = 0; i < f->n; i++) {
        const mem_region_t *r = &f->r[i];
        if (r->base <= f->addr && (!below || r->base > below->base)) below = r;
        if (r->base > f->addr && (!above || r->base < above->base)) above = r;
    }
    char near[200] = "no region declared";
    const mem_region_t *r = below ? below : above;
    if (r)
        snprintf(near, sizeof near, "%s [0x%llx, +0x%llx) %s by 0x%llx bytes", r->name, (unsigned long long)r->base,
                 (unsigned long long)r->size, below ? "ends before it" : "starts after it",
                 below ? (unsigned long long)(f->addr + f->len - (r->base + r->size))
                       : (unsigned long long)(r->base - f->addr));
    snprintf(buf, n, "%s %s %llu byte(s) at 0x%llx, outside every declared region: %s (%llu access(es) outside)",
             f->hit_who, f->write ? "wrote" : "read", (unsigned long long)f->len, (unsigned long long)f->addr, near,
             (unsigned long long)f->count);
    return true;
}

static size_t cap_of(const mem_t *m) { return (size_t)1 << m->log2cap; }

static size_t home_slot(const mem_t *m, uint64_t pn)
{
    return (size_t)((pn * 0x9E3779B97F4A7C15ull) >> (64 - m->log2cap)); /* Fibonacci hashing */
}

static page_t *find(const mem_t *m, uint64_t pn)
{
    size_t mask = cap_of(m) - 1;
    for (size_t i = home_slot(m, pn);; i = (i + 1) & mask) {
        page_t *p = m->slot[i];
        if (!p || p->pn == pn) return p;
    }
}

static void place(mem_t *m, page_t *p)
{
    size_t mask = cap_of(m) - 1;
    size_t i = home_slot(m, p->pn);
    while (m->slot[i]) i = (i + 1) & mask;
    m->slot[i] = p;
}

static void rehash(mem_t *m, unsigned log2cap)
{
    page_t **old = m->slot;
    size_t oldcap = cap_of(m);
    m->log2cap = log2cap;
    m->slot = xcalloc(cap_of(m), sizeof *m->slot);
    for (size_t i = 0; i < oldcap; i++)
        if (old[i]) place(m, old[i]);
    free(old);
}

static page_t *get_page(mem_t *m, uint64_t pn)
{
    page_t *p = find(m, pn);
    if (p) return p;
    if (2 * (m->count + 1) > cap_of(m)) rehash(m, m->log2cap + 1);
    p = xcalloc(1, sizeof *p);
    p->pn = pn;
    place(m, p);
    m->count++;
    return p;
}

/* Backward-shift deletion keeps probe chains intact without tombstones. */
static void drop_page(mem_t *m, uint64_t pn)
{
    size_t mask = cap_of(m) - 1;
    size_t i = home_slot(m, pn);
    while (m->slot[i] && m->slot[i]->pn != pn) i = (i + 1) & mask;
    if (!m->slot[i]) return;
    free(m->slot[i]);
    m->slot[i] = NULL;
    m->count--;
    for (size_t j = (i + 1) & mask; m->slot[j]; j = (j + 1) & mask) {
        size_t k = home_slot(m, m->slot[j]->pn);
        bool stays = (i <= j) ? (i < k && k <= j) : (i < k || k <= j);
        if (stays) continue;
        m->slot[i] = m->slot[j];
        m->slot[j] = NULL;
        i = j;
    }
}

mem_t *mem_new(void)
{
    mem_t *m = xcalloc(1, sizeof *m);
    m->log2cap = MIN_SLOTS_LOG2;
    m->slot = xcalloc(cap_of(m), sizeof *m->slot);
    return m;
}

void mem_free(mem_t *m)
{
    if (!m) return;
    if (m->fence) {
        for (size_t i = 0; i < m->fence->n; i++) free((char *)m->fence->r[i].name);
        free(m->fence->r);
    }
    free(m->fence);
    for (size_t i = 0; i < cap_of(m); i++) free(m->slot[i]);
    free(m->slot);
    free(m);
}

mem_t *mem_clone(const mem_t *m)
{
    mem_t *c = xcalloc(1, sizeof *c);
    c->log2cap = m->log2cap;
    c->count = m->count;
    c->slot = xcalloc(cap_of(c), sizeof *c->slot);
    for (size_t i = 0; i < cap_of(m); i++) {
        if (!m->slot[i]) continue;
        c->slot[i] = xcalloc(1, sizeof(page_t));
        memcpy(c->slot[i], m->slot[i], sizeof(page_t));
    }
    return c;
}

uint8_t mem_host_read8(const mem_t *m, uint64_t addr)
{
    const page_t *p = find(m, addr >> PAGE_BITS);
    return p ? p->b[addr & PAGE_MASK] : 0;
}

uint8_t mem_read8(const mem_t *m, uint64_t addr)
{
    FENCE_READ(m, addr, 1);
    const page_t *p = find(m, addr >> PAGE_BITS);
    return p ? p->b[addr & PAGE_MASK] : 0;
}

void mem_write8(mem_t *m, uint64_t addr, uint8_t v)
{
    FENCE_WRITE(m, addr, 1);
    get_page(m, addr >> PAGE_BITS)->b[addr & PAGE_MASK] = v;
}

static void read_raw(const mem_t *m, uint64_t addr, void *dst, uint64_t n);

/* Length of the piece of [addr, addr+n) that lies in addr's page. */
static uint64_t chunk_len(uint64_t addr, uint64_t n)
{
    uint64_t room = PAGE_SIZE - (addr & PAGE_MASK);
    return n < room ? n : room;
}

void mem_read(const mem_t *m, uint64_t addr, void *dst, uint64_t n)
{
    FENCE_READ(m, addr, n);
    read_raw(m, addr, dst, n);
}

static void read_raw(const mem_t *m, uint64_t addr, void *dst, uint64_t n)
{
    uint8_t *d = dst;
    while (n) {
        uint64_t len = chunk_len(addr, n);
        const page_t *p = find(m, addr >> PAGE_BITS);
        if (p) memcpy(d, p->b + (addr & PAGE_MASK), len);
        else memset(d, 0, len);
        d += len;
        addr += len;
        n -= len;
    }
}

void mem_write(mem_t *m, uint64_t addr, const void *src, uint64_t n)
{
    FENCE_WRITE(m, addr, n);
    mem_host_write(m, addr, src, n);
}

void mem_host_write(mem_t *m, uint64_t addr, const void *src, uint64_t n)
{
    const uint8_t *s = src;
    while (n) {
        uint64_t len = chunk_len(addr, n);
        memcpy(get_page(m, addr >> PAGE_BITS)->b + (addr & PAGE_MASK), s, len);
        s += len;
        addr += len;
        n -= len;
    }
}

/* Word reads: one page lookup and no memcpy call when the word lies inside a page (the common case). */
uint64_t mem_read64(const mem_t *m, uint64_t addr)
{
    FENCE_READ(m, addr, 8);
    uint8_t tmp[8];
    const uint8_t *b = tmp;
    if ((addr & PAGE_MASK) <= PAGE_SIZE - 8) {
        const page_t *p = find(m, addr >> PAGE_BITS);
        if (!p) return 0;
        b = p->b + (addr & PAGE_MASK);
    } else {
        read_raw(m, addr, tmp, 8);
    }
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | b[i];
    return v;
}

uint32_t mem_read32(const mem_t *m, uint64_t addr)
{
    FENCE_READ(m, addr, 4);
    uint8_t tmp[4];
    const uint8_t *b = tmp;
    if ((addr & PAGE_MASK) <= PAGE_SIZE - 4) {
        const page_t *p = find(m, addr >> PAGE_BITS);
        if (!p) return 0;
        b = p->b + (addr & PAGE_MASK);
    } else {
        read_raw(m, addr, tmp, 4);
    }
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void write_strb(mem_t *m, uint64_t addr, uint64_t data, unsigned strb, unsigned nbytes)
{
    if (!strb) return; /* nothing enabled: do not even allocate the page */
    FENCE_WRITE(m, addr, nbytes);
    if ((addr & PAGE_MASK) + nbytes <= PAGE_SIZE) {
        uint8_t *d = get_page(m, addr >> PAGE_BITS)->b + (addr & PAGE_MASK);
        if (strb == (1u << nbytes) - 1) { /* all lanes: no per-byte test */
            for (unsigned i = 0; i < nbytes; i++, data >>= 8) d[i] = (uint8_t)data;
            return;
        }
        for (unsigned i = 0; i < nbytes; i++, strb >>= 1, data >>= 8)
            if (strb & 1) d[i] = (uint8_t)data;
        return;
    }
    for (unsigned i = 0; i < nbytes; i++)
        if (strb >> i & 1) get_page(m, (addr + i) >> PAGE_BITS)->b[(addr + i) & PAGE_MASK] = (uint8_t)(data >> (8 * i));
}

void mem_write64_strb(mem_t *m, uint64_t addr, uint64_t data, uint8_t strb) { write_strb(m, addr, data, strb, 8); }

void mem_write32_strb(mem_t *m, uint64_t addr, uint32_t data, uint8_t strb)
{
    write_strb(m, addr, data, strb & 0xFu, 4);
}

/* Zero fill of whole pages [first, last]: either look every page up, or, when the range is much larger
 * than what is stored, walk the table once and rebuild it without the victims. */
static void drop_range(mem_t *m, uint64_t first, uint64_t last)
{
    uint64_t span = last - first; /* pages - 1 */
    if (span < 2 * (uint64_t)m->count + 64) {
        for (uint64_t pn = first;; pn++) {
            drop_page(m, pn);
            if (pn == last) break;
        }
        return;
    }
    page_t **old = m->slot;
    size_t cap = cap_of(m);
    m->slot = xcalloc(cap, sizeof *m->slot);
    for (size_t i = 0; i < cap; i++) {
        page_t *p = old[i];
        if (!p) continue;
        if (p->pn >= first && p->pn <= last) {
            free(p);
            m->count--;
        } else {
            place(m, p);
        }
    }
    free(old);
}

void mem_fill(mem_t *m, uint64_t addr, uint64_t n, uint8_t v)
{
    if (addr && n > (uint64_t)0 - addr) n = (uint64_t)0 - addr; /* clamp at the top of the address space */
    if (v == 0) {
        /* Partial head page, whole middle pages (dropped), partial tail page. */
        while (n && ((addr & PAGE_MASK) || n < PAGE_SIZE)) {
            uint64_t len = chunk_len(addr, n);
            page_t *p = find(m, addr >> PAGE_BITS);
            if (p) memset(p->b + (addr & PAGE_MASK), 0, len);
            addr += len;
            n -= len;
        }
        if (n >= PAGE_SIZE) {
            uint64_t pages = n >> PAGE_BITS;
            drop_range(m, addr >> PAGE_BITS, (addr >> PAGE_BITS) + pages - 1);
            addr += pages << PAGE_BITS;
            n -= pages << PAGE_BITS;
        }
        if (n) {
            page_t *p = find(m, addr >> PAGE_BITS);
            if (p) memset(p->b, 0, n);
        }
        return;
    }
    while (n) {
        uint64_t len = chunk_len(addr, n);
        memset(get_page(m, addr >> PAGE_BITS)->b + (addr & PAGE_MASK), v, len);
        addr += len;
        n -= len;
    }
}

uint32_t mem_crc32(const mem_t *m, uint64_t addr, uint64_t n)
{
    uint32_t crc = 0;
    uint64_t zeros = 0; /* pending run of absent bytes */
    while (n) {
        uint64_t len = chunk_len(addr, n);
        const page_t *p = find(m, addr >> PAGE_BITS);
        if (p) {
            if (zeros) {
                crc = crc32_zeros(crc, zeros);
                zeros = 0;
            }
            crc = crc32_update(crc, p->b + (addr & PAGE_MASK), (size_t)len);
        } else {
            zeros += len;
        }
        addr += len;
        n -= len;
    }
    return zeros ? crc32_zeros(crc, zeros) : crc;
}

uint64_t mem_diff(const mem_t *a, const mem_t *b, uint64_t addr, uint64_t n, uint64_t *first)
{
    uint64_t count = 0;
    bool found = false;
    while (n) {
        uint64_t len = chunk_len(addr, n);
        const page_t *pa = find(a, addr >> PAGE_BITS);
        const page_t *pb = find(b, addr >> PAGE_BITS);
        if (pa || pb) {
            const uint8_t *x = (pa ? pa->b : zero_page) + (addr & PAGE_MASK);
            const uint8_t *y = (pb ? pb->b : zero_page) + (addr & PAGE_MASK);
            if (memcmp(x, y, (size_t)len) != 0) {
                for (uint64_t i = 0; i < len; i++) {
                    if (x[i] == y[i]) continue;
                    if (!found && first) *first = addr + i;
                    found = true;
                    count++;
                }
            }
        }
        addr += len;
        n -= len;
    }
    return count;
}

static int cmp_page_ptr(const void *x, const void *y)
{
    uint64_t a = (*(page_t *const *)x)->pn, b = (*(page_t *const *)y)->pn;
    return a < b ? -1 : a > b;
}

void mem_dump_image(const mem_t *m, FILE *f)
{
    if (m->count == 0) return;
    page_t **pages = xcalloc(m->count, sizeof *pages);
    size_t n = 0;
    for (size_t i = 0; i < cap_of(m); i++)
        if (m->slot[i]) pages[n++] = m->slot[i];
    qsort(pages, n, sizeof *pages, cmp_page_ptr);
    bool have_next = false;
    uint64_t next_pn = 0; /* page that continues the current "@" run */
    for (size_t k = 0; k < n; k++) {
        const page_t *p = pages[k];
        if (memcmp(p->b, zero_page, PAGE_SIZE) == 0) continue;
        if (!have_next || p->pn != next_pn) fprintf(f, "@%" PRIx64 "\n", p->pn << PAGE_BITS);
        for (int line = 0; line < PAGE_SIZE; line += 32) {
            char buf[32 * 3 + 1];
            for (int i = 0; i < 32; i++) snprintf(buf + 3 * i, 4, "%02x%c", p->b[line + i], i == 31 ? '\n' : ' ');
            fputs(buf, f);
        }
        have_next = true;
        next_pn = p->pn + 1;
    }
    free(pages);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Image text: "@<hex address>" sets the address; other tokens are even-length hex strings whose byte
 * pairs are stored in order at increasing addresses; "//" and "#" start comments. */
int mem_load_image(mem_t *m, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s:0: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t linecap = 0;
    uint8_t *buf = NULL; /* bytes decoded from the current line */
    int lineno = 0, rc = 0;
    bool have_addr = false;
    uint64_t addr = 0;
    ssize_t got;
    while ((got = getline(&line, &linecap, f)) >= 0) {
        lineno++;
        uint8_t *nb = realloc(buf, (size_t)got / 2 + 1);
        if (!nb) {
            snprintf(err, errlen, "%s:%d: out of memory", path, lineno);
            rc = -1;
            break;
        }
        buf = nb;
        size_t nbuf = 0;
        uint64_t run_addr = addr;
        char *s = line;
        for (char *c = s; *c; c++)
            if (*c == '#' || (c[0] == '/' && c[1] == '/')) {
                *c = '\0';
                break;
            }
        while (*s && rc == 0) {
            while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
            if (!*s) break;
            char *tok = s;
            while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') s++;
            size_t len = (size_t)(s - tok);
            if (*tok == '@') {
                if (len < 2 || len > 17) {
                    snprintf(err, errlen, "%s:%d: bad address token '%.*s' (want @ and 1-16 hex digits)", path, lineno,
                             (int)len, tok);
                    rc = -1;
                    break;
                }
                uint64_t a = 0;
                for (size_t i = 1; i < len; i++) {
                    int h = hexval((unsigned char)tok[i]);
                    if (h < 0) {
                        snprintf(err, errlen, "%s:%d: bad hex digit '%c' in address '%.*s'", path, lineno, tok[i],
                                 (int)len, tok);
                        rc = -1;
                        break;
                    }
                    a = a << 4 | (uint64_t)h;
                }
                if (rc) break;
                mem_write(m, run_addr, buf, nbuf);
                nbuf = 0;
                addr = run_addr = a;
                have_addr = true;
                continue;
            }
            if (!have_addr) {
                snprintf(err, errlen, "%s:%d: data '%.*s' before the first @address", path, lineno, (int)len, tok);
                rc = -1;
                break;
            }
            if (len % 2) {
                snprintf(err, errlen, "%s:%d: odd number of hex digits in '%.*s'", path, lineno, (int)len, tok);
                rc = -1;
                break;
            }
            for (size_t i = 0; i < len; i += 2) {
                int hi = hexval((unsigned char)tok[i]), lo = hexval((unsigned char)tok[i + 1]);
                if (hi < 0 || lo < 0) {
                    snprintf(err, errlen, "%s:%d: bad hex digit '%c' in '%.*s'", path, lineno,
                             hi < 0 ? tok[i] : tok[i + 1], (int)len, tok);
                    rc = -1;
                    break;
                }
                buf[nbuf++] = (uint8_t)(hi << 4 | lo);
            }
            addr = run_addr + nbuf;
        }
        if (rc) break;
        mem_write(m, run_addr, buf, nbuf);
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s:%d: read error: %s", path, lineno, strerror(errno));
        rc = -1;
    }
    free(buf);
    free(line);
    fclose(f);
    return rc;
}
