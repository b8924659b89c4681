/* Register shadow of one NVDLA ping-pong unit for the golden model (spec nvdla.md §4.2): single S_
 * words, two D_ groups, PRODUCER/CONSUMER and op_en[2], with the CSV store masks and reset values.
 * The datapath models read the CONSUMER group through nvdla_pp_reg(). */
#ifndef NVDLA_PP_H
#define NVDLA_PP_H
#include <stdbool.h>
#include <stdint.h>

#define NVDLA_PP_WORDS 1024 /* one 4 KiB unit window */

typedef struct nvdla_pp {
    uint32_t base, op_en_off;      /* absolute base; D_OP_ENABLE offset (start of the D_ group) */
    uint32_t s[NVDLA_PP_WORDS];    /* S_ words (and unused D_ slots) */
    uint32_t d[2][NVDLA_PP_WORDS]; /* D_ words of group 0 / 1 */
    uint32_t mask[NVDLA_PP_WORDS]; /* stored bits per word (0: RO, hole) */
    int producer, consumer;
    bool op_en[2];
} nvdla_pp_t;

void nvdla_pp_init(nvdla_pp_t *u, uint32_t base, uint32_t op_en_off);
/* A CSB write at absolute address addr inside the unit. Returns true if it enabled a group. */
bool nvdla_pp_write(nvdla_pp_t *u, uint32_t addr, uint32_t data);
/* Value the datapath sees at absolute address addr: CONSUMER group for D_, the single copy for S_. */
uint32_t nvdla_pp_reg(const nvdla_pp_t *u, uint32_t addr);
/* Bits [msb:lsb] of that value. */
uint32_t nvdla_pp_bits(const nvdla_pp_t *u, uint32_t addr, unsigned msb, unsigned lsb);
/* Field f of register reg of a unit (nvdla_regs.h's NVDLA_<unit>_<reg>_<f>, which the user includes) as the
 * datapath sees it: FLD(u, SDP, D_DP_BS_CFG_0, BS_BYPASS). */
#define FLD(u, unit, reg, f) REG_GET(nvdla_pp_reg(u, NVDLA_##unit##_##reg), NVDLA_##unit##_##reg##_##f)
bool nvdla_pp_ready(const nvdla_pp_t *u); /* op_en[CONSUMER] */
/* Layer completion: op_en[CONSUMER] <- 0, CONSUMER flips (rule 6). Returns the completed group. */
int nvdla_pp_complete(nvdla_pp_t *u);
#endif
