/* Small bit helpers shared by the bus models (portable: no dependence on -mpopcnt). */
#ifndef BITS_H
#define BITS_H
#include <stdint.h>

static inline unsigned popcount8(unsigned x)
{
    x &= 0xFF;
    x = x - ((x >> 1) & 0x55);
    x = (x & 0x33) + ((x >> 2) & 0x33);
    return (x + (x >> 4)) & 0x0F;
}
#endif
