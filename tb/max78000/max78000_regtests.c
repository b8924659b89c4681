/* MAX78000 register tests (see max78000_regtests.h). Expected values come from the register table and
 * the spec's access rules (D02, D03, D05), tracked here in a tiny shadow, never from the golden model
 * (which checks the same reads independently through the APB monitor). */
#include "max78000_regtests.h"
#include "max78000_fw.h"
#include "max78000_regs.h"
#include "max78000_tb.h"
#include "rng.h"

#include <string.h>

static uint32_t reg_addr(const max78000_reg_desc_t *d, unsigned q, unsigned i)
{
    uint32_t off = d->offset + d->stride * i;
    return d->block == 0 ? MAX78000_GLOB_BASE + off : d->block == 2 ? MAX78000_FFIFO_BASE + off : m7_quad_addr(q, off);
}

/* Instances of a register: one per quadrant for the quadrant block (1), one for the others. */
static unsigned quads(const max78000_reg_desc_t *d) { return d->block == 1 ? 4u : 1u; }

static uint32_t lanes(uint8_t strb)
{
    uint32_t m = 0;
    for (unsigned b = 0; b < 4; b++)
        if (strb & (1u << b)) m |= 0xFFu << (8 * b);
    return m;
}

int m7_reg_reset(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)seed, (void)err, (void)errlen;
    prog_job(p, "reset values of every register instance (D09, register table)");
    for (size_t k = 0; k < MAX78000_REG_TABLE_N; k++) {
        const max78000_reg_desc_t *d = &max78000_reg_table[k];
        for (unsigned q = 0; q < quads(d); q++)
            for (unsigned i = 0; i < d->count; i++)
                prog_read(p, reg_addr(d, q, i), (d->reset & d->rmask) | d->idle, 0xFFFFFFFFu); /* idle: table */
    }
    return 0;
}

/* Bits a pattern may set without side effects the register test does not mean to cause. */
static uint32_t safe_bits(const max78000_reg_desc_t *d)
{
    if (!strcmp(d->name, "CTRL")) /* no start, no streaming/FIFO modes (M3), no mlator load */
        return ~(MAX78000_CTRL_CNN_EN_MASK | MAX78000_CTRL_STREAM_EN_MASK | MAX78000_CTRL_FIFO_EN_MASK |
                 MAX78000_CTRL_FFIFO_EN_MASK | MAX78000_CTRL_MLAT_LD_MASK | MAX78000_CTRL_ONESHOT_MASK);
    if (!strcmp(d->name, "TEST")) /* run bits zeroize/BIST memories (M2; not in the RTL yet) */
        return 0x3F00u;
    if (!strcmp(d->name, "FIFO_CTRL")) return ~MAX78000_FIFO_CTRL_FIFO_EN_MASK;
    return 0xFFFFFFFFu;
}

int m7_reg_rw(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "max78000.reg_rw");
    for (size_t k = 0; k < MAX78000_REG_TABLE_N; k++) {
        const max78000_reg_desc_t *d = &max78000_reg_table[k];
        if (d->womask || d->wmask == 0) /* write-only FIFO ports, read-only registers: reset test */
            continue;
        prog_job(p, "%s: random patterns and PSTRB through the write mask 0x%08x", d->name, d->wmask);
        for (unsigned q = 0; q < quads(d); q++) {
            unsigned n = d->count < 4 ? d->count : 4; /* a few instances of each layer register */
            for (unsigned s = 0; s < n; s++) {
                unsigned i = d->count <= 4 ? s : rng_below(&r, d->count);
                uint32_t a = reg_addr(d, q, i), v = d->reset, safe = safe_bits(d);
                for (int rep = 0; rep < 3; rep++) {
                    uint32_t pat = (uint32_t)rng_next(&r) & safe;
                    uint8_t strb = rep == 0 ? 0xF : (uint8_t)rng_range(&r, 1, 15);
                    op_t *o = program_add(p, OP_WRITE);
                    o->addr = a;
                    o->data = pat;
                    o->strb = strb;
                    uint32_t m = lanes(strb) & d->wmask; /* D03 */
                    v = (v & ~m) | (pat & m);
                    prog_read(p, a, v & d->rmask, 0xFFFFFFFFu);
                }
                op_t *o = program_add(p, OP_WRITE); /* back to reset: later registers see a clean state */
                o->addr = a;
                o->data = d->reset;
            }
        }
    }
    return 0;
}

/* Every writable register instance gets its own random pattern first; only then is each read back: a write
 * that also lands in another register (address decode aliasing, a write enable not qualified by its
 * address) shows as a wrong value in the victim. Twice, in table order and in reverse, so that every register
 * has every other one written after it once (the last one written would otherwise be no victim of any). */
int m7_reg_alias(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "max78000.reg_alias");
    for (int rev = 0; rev < 2; rev++) {
        prog_job(p,
                 "every register written with its own pattern, then all read back (no write reaches another "
                 "register), %s",
                 rev ? "in reverse table order" : "in table order");
        rng_t again = r;
        for (int pass = 0; pass < 2; pass++) {
            again = r; /* the read pass replays the write pass's patterns */
            for (size_t kk = 0; kk < MAX78000_REG_TABLE_N; kk++) {
                const max78000_reg_desc_t *d = &max78000_reg_table[rev ? MAX78000_REG_TABLE_N - 1 - kk : kk];
                if (d->womask || d->wmask == 0) continue;
                for (unsigned q = 0; q < quads(d); q++)
                    for (unsigned i = 0; i < d->count; i++) {
                        uint32_t pat = (uint32_t)rng_next(&again) & safe_bits(d), a = reg_addr(d, q, i);
                        uint32_t v = (d->reset & ~d->wmask) | (pat & d->wmask);
                        if (pass == 0) prog_write(p, a, pat);
                        else prog_read(p, a, v & d->rmask, 0xFFFFFFFFu);
                    }
            }
        }
        r = again; /* the reverse pass draws new patterns */
    }
    return 0;
}

/* Addresses that map to nothing (spec 1.3 "everything else"). */
static const uint32_t invalid_glob[] = {0x50000018, 0x50000FFC,
                                        0x50001004, 0x50080000,
                                        0x500FFFFC, 0x400C0414 /* the fast FIFO's DMA register, unsupported */,
                                        0x400C07FC};
static const uint32_t invalid_quad[] = {0x830,   0x88C,   0x8B0,   0x90C,   0x930,   0x98C,    0x994,    0xA0C,
                                        0xA90,   0xFFC,   0x1004,  0x7FFC,  0x8800,  0xFFFC,   0x13000,  0x4FFFC,
                                        0x50000, 0x7FFFC, 0x83000, 0xBFFFC, 0xC0000, 0x2FFFFC, 0x320000, 0x3FFFFC};

int m7_reg_decode(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "max78000.reg_decode");
    prog_job(p, "unmapped addresses answer PSLVERR, reads return 0, writes have no effect (D05)");
    for (size_t i = 0; i < sizeof invalid_glob / sizeof *invalid_glob; i++) {
        prog_write(p, MAX78000_EXPECT_SLVERR | invalid_glob[i], (uint32_t)rng_next(&r));
        prog_read(p, MAX78000_EXPECT_SLVERR | invalid_glob[i], 0, 0);
    }
    for (unsigned q = 0; q < 4; q++)
        for (size_t i = 0; i < sizeof invalid_quad / sizeof *invalid_quad; i++) {
            prog_write(p, MAX78000_EXPECT_SLVERR | m7_quad_addr(q, invalid_quad[i]), (uint32_t)rng_next(&r));
            prog_read(p, MAX78000_EXPECT_SLVERR | m7_quad_addr(q, invalid_quad[i]), 0, 0);
        }
    prog_read(p, MAX78000_GLOB_BASE + MAX78000_FIFO_CTRL_OFF, MAX78000_FIFO_CTRL_RESET, 0xFFFFFFFF);

    prog_job(p, "memories: data SRAM words and bytes (D02), BRAM bytes, TRAM halfwords, MRAM parts (D29)");
    for (int k = 0; k < 24; k++) {
        unsigned g = rng_below(&r, 16), w = rng_below(&r, 8192);
        uint32_t v = (uint32_t)rng_next(&r), b = (uint32_t)rng_next(&r) & 0xFF;
        unsigned lane = rng_below(&r, 4);
        uint32_t a = m7_dmem_addr(g, w);
        prog_write(p, a, v);
        m7_wr_byte(p, a + lane, (uint8_t)b);
        prog_read(p, a, (v & ~(0xFFu << (8 * lane))) | b << (8 * lane), 0xFFFFFFFF);
        unsigned q = rng_below(&r, 4), e = rng_below(&r, 512);
        prog_write(p, m7_bram_addr(q, e), v);
        prog_read(p, m7_bram_addr(q, e), v & 0xFF, 0xFFFFFFFF); /* zero-extended byte */
        unsigned i = rng_below(&r, 16), t = rng_below(&r, 3072);
        uint32_t ta = m7_quad_addr(q, 0x10000u + i * 0x4000u + 4u * t);
        prog_write(p, ta, v);
        prog_read(p, ta, v & 0xFFFF, 0xFFFFFFFF);
        unsigned pr = rng_below(&r, 64), mw = rng_below(&r, 768);
        uint32_t ma = m7_mram_addr(pr, mw);
        uint32_t hi = (uint32_t)rng_next(&r), lo = (uint32_t)rng_next(&r);
        m7_wr(p, ma + 0, v);
        m7_wr(p, ma + 4, hi);
        m7_wr(p, ma + 8, lo);
        m7_wr(p, ma + 12, 0);
        prog_read(p, ma + 0, v & 0xFF, 0xFFFFFFFF);
        prog_read(p, ma + 4, hi, 0xFFFFFFFF);
        prog_read(p, ma + 8, lo, 0xFFFFFFFF);
    }
    return 0;
}

int m7_reg_wait_states(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rng_t r;
    rng_seed_stream(&r, seed, "max78000.reg_wait_states");
    /* The APB monitor compares every transfer's wait states with rdy_sel of its window (D04). */
    for (unsigned rs = 0; rs < 4; rs++) {
        prog_job(p, "rdy_sel = %u in every window", rs);
        prog_write(p, MAX78000_GLOB_BASE + MAX78000_FIFO_CTRL_OFF, rs);
        prog_write(p, MAX78000_GLOB_BASE + MAX78000_AOD_CTRL_OFF, rs);
        for (unsigned q = 0; q < 4; q++) prog_write(p, m7_quad_addr(q, MAX78000_CTRL_OFF), 0x8u | rs << 1);
        prog_read(p, MAX78000_GLOB_BASE + MAX78000_FIFO_CTRL_OFF, rs, 0xFFFFFFFF);
        prog_read(p, MAX78000_GLOB_BASE + MAX78000_AOD_CTRL_OFF, rs, 0xFFFFFFFF);
        for (unsigned q = 0; q < 4; q++) {
            prog_read(p, m7_quad_addr(q, MAX78000_CTRL_OFF), 0x8u | rs << 1, 0xFFFFFFFF);
            prog_write(p, m7_dmem_addr(4 * q + rng_below(&r, 4), rng_below(&r, 8192)), (uint32_t)rng_next(&r));
            prog_read(p, m7_lreg_addr(q, rng_below(&r, 16), rng_below(&r, 32)), 0, 0);
            prog_read(p, m7_bram_addr(q, rng_below(&r, 512)), 0, 0);
        }
        prog_write(p, MAX78000_EXPECT_SLVERR | 0x50000800u, 0); /* errors complete with 0 wait states */
    }
    return 0;
}

/* A network that runs for a while, then memory accesses while it runs: PSLVERR (D05, marked expected);
 * register accesses still work. */
int m7_reg_busy_slverr(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)seed, (void)err, (void)errlen;
    static const uint32_t ctrl[4] = {0x00100008, 0x00100008, 0x00100008, 0x00100008};
    prog_job(p, "data/weight/bias memory access while a run is in progress answers PSLVERR (D05)");
    m7_init(p, ctrl, 0);
    m7_wr(p, m7_lreg_addr(0, 0, 0), 0x0001000B); /* 10x10, pad 1 */
    m7_wr(p, m7_lreg_addr(0, 1, 0), 0x0001000B);
    m7_wr(p, m7_lreg_addr(0, 6, 0), 0x2800);
    m7_wr(p, m7_lreg_addr(0, 8, 0), 0x2000);
    m7_wr(p, m7_lreg_addr(0, 11, 0), 0x0B20);
    m7_wr(p, m7_lreg_addr(0, 12, 0), 0x78); /* 16 output channels */
    m7_wr(p, m7_lreg_addr(0, 14, 0), 0x000F000F);
    m7_wr(p, m7_lctrl1_addr(0, 0), 0x7800);
    for (unsigned n = 0; n < 100; n++) m7_wr(p, m7_dmem_addr(0, n), 0x01020304u * (n + 1));
    uint32_t final[4];
    m7_start(p, ctrl, 0, final);
    prog_read(p, MAX78000_EXPECT_SLVERR | m7_dmem_addr(0, 3), 0, 0);
    prog_write(p, MAX78000_EXPECT_SLVERR | m7_dmem_addr(5, 7), 0xDEADBEEF);
    prog_write(p, MAX78000_EXPECT_SLVERR | m7_bram_addr(1, 3), 0x55);
    prog_read(p, MAX78000_EXPECT_SLVERR | m7_mram_addr(3, 3), 0, 0);
    prog_read(p, m7_quad_addr(0, MAX78000_LCNT_MAX_OFF), 0, 0xFFFFFFFF); /* registers still answer */
    prog_read(p, m7_lreg_addr(0, 11, 0), 0x0B20, 0xFFFFFFFF);
    m7_isr(p, final, 100000);
    prog_read(p, m7_dmem_addr(5, 7), 0, 0xFFFFFFFF); /* the write had no effect */
    prog_check_golden(p);
    return 0;
}

int m7_neg_unexpected_slverr(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)seed, (void)err, (void)errlen;
    prog_job(p, "NEGATIVE: firmware writes an unmapped address (0x%08x) without expecting PSLVERR", 0x50100830u);
    prog_write(p, m7_quad_addr(0, MAX78000_LCNT_MAX_OFF), 2);
    prog_write(p, m7_quad_addr(0, 0x830), 1);
    prog_read(p, m7_quad_addr(0, MAX78000_LCNT_MAX_OFF), 2, 0xFFFFFFFF);
    return 0;
}
