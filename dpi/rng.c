/* xoshiro256** (Blackman/Vigna) seeded through splitmix64; streams are separated by hashing their name
 * into the seed, so each consumer's sequence depends only on (seed, stream name). */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void rng_seed(rng_t *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
    /* splitmix64 is a bijection of distinct counters, so an all-zero state cannot occur in practice;
     * guard anyway because xoshiro would then output zeros forever. */
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0) r->s[0] = 1;
}

static uint64_t fnv1a64(const char *s)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (; s && *s; s++) {
        h ^= (uint8_t)*s;
        h *= 0x100000001B3ull;
    }
    return h;
}

void rng_seed_stream(rng_t *r, uint64_t seed, const char *stream)
{
    /* Mix the hash through splitmix once so nearby seeds and similar names do not correlate. */
    uint64_t h = fnv1a64(stream);
    uint64_t mixed = splitmix64(&h);
    rng_seed(r, seed ^ mixed);
}

uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Lemire's multiply-and-reject: unbiased, usually one 64-bit multiply and no division. */
uint32_t rng_below(rng_t *r, uint32_t n)
{
    if (n == 0) return 0;
    uint64_t m = (rng_next(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n; /* 2^32 mod n */
        while (low < threshold) {
            m = (rng_next(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

uint32_t rng_range(rng_t *r, uint32_t lo, uint32_t hi)
{
    if (hi < lo) {
        uint32_t t = lo;
        lo = hi;
        hi = t;
    }
    uint32_t span = hi - lo + 1u;
    if (span == 0) /* the whole 32-bit range */
        return (uint32_t)(rng_next(r) >> 32);
    return lo + rng_below(r, span);
}

bool rng_chance(rng_t *r, unsigned percent)
{
    /* 0 and 100 do not consume the stream: a disabled stall costs nothing per cycle. Otherwise compare a
     * 32-bit draw with percent/100 of 2^32: one draw, no loop; the bias is below 2^-32 per call. */
    if (percent == 0) return false;
    if (percent >= 100) return true;
    uint32_t threshold = (uint32_t)(((uint64_t)percent << 32) / 100);
    return (uint32_t)(rng_next(r) >> 32) < threshold;
}
