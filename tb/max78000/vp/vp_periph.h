/* Minimal models of the MAX78000 SoC peripherals the SDK's start-up, board and HAL code touch (vp_periph.c):
 * a table of blocks, each a range of plain registers (reset 0) with the exceptions a table of registers gives
 * (bits that read 1, a UART FIFO that prints, counters that follow CPU time). An address in no modelled
 * block is an error of the run, never a silent 0. */
#ifndef VP_PERIPH_H
#define VP_PERIPH_H
#include "vp.h"
#include <stdbool.h>
#include <stdint.h>

vp_periph_t *vp_periph_new(vp_t *v, const char *without); /* without: a block's name left unmodelled (tests) */
void vp_periph_free(vp_periph_t *p);
/* false: no model covers addr (the caller reports it). */
bool vp_periph_read(vp_periph_t *p, uint32_t addr, unsigned size, uint32_t *value);
bool vp_periph_write(vp_periph_t *p, uint32_t addr, unsigned size, uint32_t value);
/* The SDK's name of the register at addr ("MXC_UART0->ctrl" style: "UART0 CTRL"), from the SDK's device
 * headers under sdk, or the reason there is none. */
void vp_sdk_reg_name(const char *sdk, uint32_t addr, char *buf, size_t n);
/* The firmware's UART0 output not yet ended by a newline (flushed at the end of the run). */
void vp_periph_flush(vp_periph_t *p);
#endif
