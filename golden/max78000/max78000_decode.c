/* MAX78000 APB address decode (spec 1.3, D01, D07). */
#include "max78000_decode.h"
#include "max78000_regs.h"

const uint32_t max78000_lreg_wmask[16] = {
    MAX78000_RCNT_WMASK,      MAX78000_CCNT_WMASK,       MAX78000_ONED_WMASK,      MAX78000_PRCNT_WMASK,
    MAX78000_PCCNT_WMASK,     MAX78000_STRIDE_WMASK,     MAX78000_WPTR_BASE_WMASK, MAX78000_WPTR_TOFF_WMASK,
    MAX78000_WPTR_MOFF_WMASK, MAX78000_WPTR_CHOFF_WMASK, MAX78000_RPTR_BASE_WMASK, MAX78000_LCTRL0_WMASK,
    MAX78000_MCNT_WMASK,      MAX78000_TPTR_WMASK,       MAX78000_EN_WMASK,        MAX78000_POST_WMASK,
};

static max78000_dec_t mk(max78000_dec_kind_t k, unsigned q, unsigned idx, unsigned idx2, unsigned proc)
{
    max78000_dec_t d = {k, q, idx, idx2, proc};
    return d;
}

static max78000_dec_t decode_global(uint32_t o)
{
    if (o < 0x4) return mk(DEC_FIFO_CTRL, 0, 0, 0, 0);
    if (o < 0x8) return mk(DEC_FIFO_STAT, 0, 0, 0, 0);
    if (o < 0x18) return mk(DEC_FIFO_WR, 0, (o - 0x8) >> 2, 0, 0);
    if (o >= 0x1000 && o < 0x1004) return mk(DEC_AOD_CTRL, 0, 0, 0, 0);
    return mk(DEC_INVALID, 0, 0, 0, 0);
}

static max78000_dec_t decode_quad(unsigned q, uint32_t o)
{
    if (o < 0x10) {
        static const max78000_dec_kind_t k[4] = {DEC_CTRL, DEC_SRAM, DEC_LCNT_MAX, DEC_TEST};
        return mk(k[o >> 2], q, 0, 0, 0);
    }
    if (o < 0x810) return mk(DEC_LREG, q, ((o - 0x10) >> 2) & 31, (o - 0x10) >> 7, 0);
    /* Streams: z counts from each register's base (the spec's "(o>>2)&7" would start at 4). */
    if (o >= 0x810 && o < 0x830) return mk(DEC_STRM0, q, (o - 0x810) >> 2, 0, 0);
    if (o >= 0x890 && o < 0x8B0) return mk(DEC_STRM1, q, (o - 0x890) >> 2, 0, 0);
    if (o >= 0x910 && o < 0x930) return mk(DEC_FBUF, q, (o - 0x910) >> 2, 0, 0);
    if (o >= 0x990 && o < 0x994) return mk(DEC_IFRM, q, 0, 0, 0);
    if (o >= 0xA10 && o < 0xA90) return mk(DEC_LCTRL1, q, (o - 0xA10) >> 2, 0, 0);
    if (o >= 0x1000 && o < 0x1004) return mk(DEC_MLAT, q, 0, 0, 0);
    if (o >= 0x8000 && o < 0x8800) return mk(DEC_BRAM, q, (o - 0x8000) >> 2, 0, 0);
    if (o >= 0x10000 && o < 0x50000) {
        uint32_t t = o & 0x3FFF;
        if (t < 0x3000) return mk(DEC_TRAM, q, t >> 2, 0, (o - 0x10000) >> 14);
    } else if (o >= 0x80000 && o < 0xC0000) {
        uint32_t t = o & 0x3FFF;
        if (t < 0x3000) return mk(DEC_MRAM, q, t >> 4, (t >> 2) & 3, (o - 0x80000) >> 14);
    } else if (o >= 0x300000 && o < 0x320000) {
        uint32_t s = o - 0x300000;
        return mk(DEC_DSRAM, q, (s >> 2) & 0x1FFF, 4 * q + (s >> 15), 0);
    }
    return mk(DEC_INVALID, q, 0, 0, 0);
}

max78000_dec_t max78000_decode(uint32_t addr)
{
    if (addr >= MAX78000_FFIFO_BASE && addr < MAX78000_FFIFO_BASE + 0x14u) {
        static const max78000_dec_kind_t k[5] = {DEC_FF_CR, DEC_FF_SR, DEC_FF_IE, DEC_FF_IS, DEC_FF_DR};
        return mk(k[(addr - MAX78000_FFIFO_BASE) >> 2], 0, 0, 0, 0);
    }
    if (addr >= MAX78000_GLOB_BASE && addr < MAX78000_QUAD_BASE) return decode_global(addr - MAX78000_GLOB_BASE);
    if (addr >= MAX78000_QUAD_BASE && addr - MAX78000_QUAD_BASE < MAX78000_QUAD_COUNT * MAX78000_QUAD_STRIDE) {
        uint32_t o = addr - MAX78000_QUAD_BASE;
        return decode_quad(o / MAX78000_QUAD_STRIDE, o % MAX78000_QUAD_STRIDE);
    }
    return mk(DEC_INVALID, 0, 0, 0, 0);
}

const char *max78000_dec_name(max78000_dec_kind_t k)
{
    static const char *const n[] = {
        "invalid",        "FIFO_CTRL", "FIFO_STAT", "FIFO_WR", "AOD_CTRL", "CTRL",   "SRAM", "LCNT_MAX", "TEST",
        "layer register", "STRM0",     "STRM1",     "FBUF",    "IFRM",     "LCTRL1", "MLAT", "BRAM",     "TRAM",
        "MRAM",           "data SRAM", "FF_CR",     "FF_SR",   "FF_IE",    "FF_IS",  "FF_DR"};
    return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "?";
}
