/* SDK-style programming of the MAX78000 CNN into a program (what an ai8x-synthesis cnn.c does: register
 * writes that skip zero values, express kernel loading, BRAM bias bytes, input words, the master/slave
 * start sequence, the interrupt handler and the output unload). Used by generators and directed tests. */
#ifndef MAX78000_FW_H
#define MAX78000_FW_H
#include "program.h"
#include <stdbool.h>
#include <stdint.h>

uint32_t m7_quad_addr(unsigned q, uint32_t off);           /* QB(q) + off */
uint32_t m7_lreg_addr(unsigned q, unsigned r, unsigned y); /* per-layer register r of layer y */
uint32_t m7_lctrl1_addr(unsigned q, unsigned y);
uint32_t m7_dmem_addr(unsigned g, unsigned w); /* data memory g word w */
uint32_t m7_mram_addr(unsigned p, unsigned w); /* global processor p, 72-bit word w */
uint32_t m7_bram_addr(unsigned q, unsigned e);

void m7_wr(program_t *p, uint32_t addr, uint32_t v);
void m7_wr_byte(program_t *p, uint32_t addr, uint8_t v); /* byte lane addr[1:0] (D02) */
/* Generated code never writes zero-valued layer registers: the reset value 0 must do (spec 2.3). */
void m7_wr_nz(program_t *p, uint32_t addr, uint32_t v);

/* Express-load `n` bytes into processor p starting at word w0 (D30): one set-address byte write, then
 * big-endian packed words, the last one zero-padded. `data_at_w0` picks the MSDK address style. */
void m7_express_load(program_t *p, unsigned proc, unsigned w0, const uint8_t *bytes, size_t n, bool data_at_w0);

/* cnn_init: AOD_CTRL = 0, per quadrant CTRL = ctrl[q], SRAM = 0x40E, LCNT_MAX = lcnt. */
void m7_init(program_t *p, const uint32_t ctrl[4], unsigned lcnt);
/* cnn_start with master quadrant m (D42): the slaves first (cnn_en=1, ext_sync = 0b100|m), then the master's
 * own CTRL with bit 11 set and cnn_en=0 is not needed when m != 0; the SDK sequence for m = 0. Returns the
 * CTRL values the quadrants hold after the start in final[]. */
void m7_start(program_t *p, const uint32_t ctrl[4], unsigned master, uint32_t final[4]);
/* CNN_ISR: wait_irq, then per quadrant read CTRL (expect cnn_irq set where cnn_en=1, D44) and write it
 * back with bits 12 and 0 cleared. */
void m7_isr(program_t *p, const uint32_t final[4], uint64_t timeout);
#endif
