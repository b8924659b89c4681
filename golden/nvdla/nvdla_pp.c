#include "nvdla_pp.h"
#include "nvdla_regmap.h"
#include <string.h>

void nvdla_pp_init(nvdla_pp_t *u, uint32_t base, uint32_t op_en_off)
{
    memset(u, 0, sizeof *u);
    u->base = base;
    u->op_en_off = op_en_off;
    for (size_t i = 0; i < nvdla_nregs; i++) {
        const nvdla_reg_t *r = &nvdla_regs[i];
        if (r->addr < base || r->addr >= base + 4 * NVDLA_PP_WORDS) continue;
        uint32_t w = (r->addr - base) / 4;
        u->s[w] = u->d[0][w] = u->d[1][w] = r->reset;
        u->mask[w] = r->store_mask;
    }
}

static bool is_d(const nvdla_pp_t *u, uint32_t off) { return off >= u->op_en_off; }

bool nvdla_pp_write(nvdla_pp_t *u, uint32_t addr, uint32_t data)
{
    uint32_t off = addr - u->base, w = off / 4;
    if (off >= 4 * NVDLA_PP_WORDS) return false;
    if (off == 4) { /* S_POINTER.PRODUCER */
        u->producer = data & 1;
        return false;
    }
    if (!is_d(u, off)) {
        u->s[w] = (data & u->mask[w]) | (u->s[w] & ~u->mask[w]);
        return false;
    }
    if (u->op_en[u->producer]) return false; /* rule 2: locked group, write dropped */
    if (off == u->op_en_off) {
        u->op_en[u->producer] = data & 1;
        return (data & 1) != 0;
    }
    uint32_t *g = u->d[u->producer];
    g[w] = (data & u->mask[w]) | (g[w] & ~u->mask[w]);
    return false;
}

uint32_t nvdla_pp_reg(const nvdla_pp_t *u, uint32_t addr)
{
    uint32_t off = addr - u->base;
    return is_d(u, off) ? u->d[u->consumer][off / 4] : u->s[off / 4];
}

uint32_t nvdla_pp_bits(const nvdla_pp_t *u, uint32_t addr, unsigned msb, unsigned lsb)
{
    uint32_t v = nvdla_pp_reg(u, addr) >> lsb;
    unsigned n = msb - lsb + 1;
    return n >= 32 ? v : v & ((1u << n) - 1);
}

bool nvdla_pp_ready(const nvdla_pp_t *u) { return u->op_en[u->consumer]; }

int nvdla_pp_complete(nvdla_pp_t *u)
{
    int g = u->consumer;
    u->op_en[g] = false;
    u->consumer ^= 1;
    return g;
}
