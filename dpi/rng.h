/* Seeded pseudo-random generator (xoshiro256**, seeded through splitmix64). Every stall pattern and every
 * random job derives from one of these, so a seed reproduces a run exactly. */
#ifndef RNG_H
#define RNG_H
#include <stdbool.h>
#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng_t;

void rng_seed(rng_t *r, uint64_t seed);
/* An independent stream for a named purpose ("dbb.ar"), so adding a consumer does not shift the others. */
void rng_seed_stream(rng_t *r, uint64_t seed, const char *stream);
uint64_t rng_next(rng_t *r);
uint32_t rng_below(rng_t *r, uint32_t n);               /* uniform in [0, n); n = 0 gives 0 */
uint32_t rng_range(rng_t *r, uint32_t lo, uint32_t hi); /* uniform in [lo, hi], inclusive */
bool rng_chance(rng_t *r, unsigned percent);            /* true with probability percent/100 */
#endif
