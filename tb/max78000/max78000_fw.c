/* SDK-style programming helpers (see max78000_fw.h). Addresses follow spec 1.3. */
#include "max78000_fw.h"
#include "max78000_regs.h"

uint32_t m7_quad_addr(unsigned q, uint32_t off) { return MAX78000_QUAD_ADDR(q & 3, off); }
uint32_t m7_lreg_addr(unsigned q, unsigned r, unsigned y) { return m7_quad_addr(q, 0x10u + 0x80u * r + 4u * y); }
uint32_t m7_lctrl1_addr(unsigned q, unsigned y) { return m7_quad_addr(q, 0xA10u + 4u * y); }
uint32_t m7_dmem_addr(unsigned g, unsigned w) { return m7_quad_addr(g >> 2, 0x300000u + (g & 3) * 0x8000u + 4u * w); }
uint32_t m7_mram_addr(unsigned p, unsigned w) { return m7_quad_addr(p >> 4, 0x80000u + (p & 15) * 0x4000u + 16u * w); }
uint32_t m7_bram_addr(unsigned q, unsigned e) { return m7_quad_addr(q, 0x8000u + 4u * e); }

void m7_wr(program_t *p, uint32_t addr, uint32_t v) { prog_write(p, addr, v); }

void m7_wr_byte(program_t *p, uint32_t addr, uint8_t v)
{
    op_t *o = program_add(p, OP_WRITE);
    o->addr = addr;
    o->data = (uint32_t)v << (8 * (addr & 3));
    o->strb = (uint8_t)(1u << (addr & 3));
}

void m7_wr_nz(program_t *p, uint32_t addr, uint32_t v)
{
    if (v) prog_write(p, addr, v);
}

void m7_express_load(program_t *p, unsigned proc, unsigned w0, const uint8_t *bytes, size_t n, bool data_at_w0)
{
    uint32_t block = m7_quad_addr(proc >> 4, 0x80000u + (proc & 15) * 0x4000u);
    m7_wr_byte(p, block + 4u * w0 + 1u, 1); /* set-address (D30 step 1) */
    for (size_t i = 0; i < n; i += 4) {
        uint32_t v = 0;
        for (size_t b = 0; b < 4; b++) v = v << 8 | (i + b < n ? bytes[i + b] : 0u); /* PWDATA[31:24] first */
        prog_write(p, block + (data_at_w0 ? 4u * w0 : 0u) + (uint32_t)i, v);
    }
}

void m7_init(program_t *p, const uint32_t ctrl[4], unsigned lcnt)
{
    m7_wr(p, MAX78000_GLOB_BASE + MAX78000_AOD_CTRL_OFF, 0);
    for (unsigned q = 0; q < 4; q++) {
        m7_wr(p, m7_quad_addr(q, MAX78000_CTRL_OFF), ctrl[q]);
        m7_wr(p, m7_quad_addr(q, MAX78000_SRAM_OFF), 0x40E);
        m7_wr(p, m7_quad_addr(q, MAX78000_LCNT_MAX_OFF), lcnt);
    }
}

void m7_start(program_t *p, const uint32_t ctrl[4], unsigned master, uint32_t final[4])
{
    if (master == 0) /* the SDK's first write: Q0 with bit 11 and cnn_en = 0 */
        m7_wr(p, m7_quad_addr(0, MAX78000_CTRL_OFF), ctrl[0] | 0x800u);
    for (unsigned q = 0; q < 4; q++) {
        if (q == master) continue;
        final[q] = ctrl[q] | 0x800u | (master << 9) | 1u;
        m7_wr(p, m7_quad_addr(q, MAX78000_CTRL_OFF), final[q]);
    }
    final[master] = ctrl[master] | 1u;
    m7_wr(p, m7_quad_addr(master, MAX78000_CTRL_OFF), final[master]);
}

void m7_isr(program_t *p, const uint32_t final[4], uint64_t timeout)
{
    prog_wait_irq(p, 0, timeout);
    for (unsigned q = 0; q < 4; q++) {
        uint32_t v = final[q] | ((final[q] & 1u) ? MAX78000_CTRL_CNN_IRQ_MASK : 0u); /* D44 */
        prog_read(p, m7_quad_addr(q, MAX78000_CTRL_OFF), v, 0xFFFFFFFFu);
        m7_wr(p, m7_quad_addr(q, MAX78000_CTRL_OFF), v & ~0x1001u);
    }
}
