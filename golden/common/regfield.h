/* Register fields, the one convention of every generated register header (flow/gen_regs.py): a field F of
 * register R is <R>_<F>_SHIFT (its lowest bit) and <R>_<F>_MASK (its bits in place). */
#ifndef REGFIELD_H
#define REGFIELD_H
#include <stdint.h>

/* The value of field F in register value v (F names the field without _SHIFT/_MASK). */
#define REG_GET(v, F) ((uint32_t)(((uint32_t)(v)&F##_MASK) >> F##_SHIFT))
/* Register value v with field F replaced by x (x's bits outside the field are dropped). */
#define REG_SET(v, F, x) ((uint32_t)(((uint32_t)(v) & ~F##_MASK) | (((uint32_t)(x) << F##_SHIFT) & F##_MASK)))
#endif
