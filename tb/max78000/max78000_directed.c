/* The spec's worked examples as directed tests. Their expected values are the spec's own numbers
 * (max78000.md 3.3 and 3.9), independent of the golden model, which checks the same runs as well. */
#include "max78000_fw.h"
#include "max78000_gen.h"
#include "max78000_golden.h"
#include "max78000_regs.h"
#include "rng.h"

/* Spec 3.3: mnist processor 0's express stream 33110429 f6ea2cf4 f7760e1b ... gives
 * W[0][0] = 0x33_1104_29F6_EA2C_F4F7 and W[0][1] = 0x76_0E1B_F080_E006_1541; read back through the
 * non-express word layout (D29: +0 = bits 71:64, +4 = 63:32, +8 = 31:0). Then a non-express write. */
int m7_ex_mram_express(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)seed, (void)err, (void)errlen;
    static const uint8_t stream[] = {0x33, 0x11, 0x04, 0x29, 0xf6, 0xea, 0x2c, 0xf4, 0xf7,
                                     0x76, 0x0e, 0x1b, 0xf0, 0x80, 0xe0, 0x06, 0x15, 0x41};
    prog_job(p, "spec 3.3 express loading example (mnist processor 0)");
    m7_wr(p, m7_quad_addr(0, MAX78000_CTRL_OFF), 0x00100008);
    m7_express_load(p, 0, 0, stream, sizeof stream, false);
    prog_read(p, m7_mram_addr(0, 0) + 0, 0x33, 0xFFFFFFFF);
    prog_read(p, m7_mram_addr(0, 0) + 4, 0x110429F6, 0xFFFFFFFF);
    prog_read(p, m7_mram_addr(0, 0) + 8, 0xEA2CF4F7, 0xFFFFFFFF);
    prog_read(p, m7_mram_addr(0, 1) + 0, 0x76, 0xFFFFFFFF);
    prog_read(p, m7_mram_addr(0, 1) + 4, 0x0E1BF080, 0xFFFFFFFF);
    prog_read(p, m7_mram_addr(0, 1) + 8, 0xE0061541, 0xFFFFFFFF);
    prog_read(p, m7_mram_addr(0, 2) + 8, 0, 0xFFFFFFFF); /* the zero padding never commits */
    prog_job(p, "D29 non-express write of processor 37 word 700");
    m7_wr(p, m7_quad_addr(2, MAX78000_CTRL_OFF), 0x00000008);
    uint32_t a = m7_mram_addr(37, 700);
    m7_wr(p, a + 0, 0x5A);
    m7_wr(p, a + 4, 0x12345678);
    m7_wr(p, a + 8, 0x9ABCDEF0);
    m7_wr(p, a + 12, 0); /* commit */
    prog_read(p, a + 0, 0x5A, 0xFFFFFFFF);
    prog_read(p, a + 4, 0x12345678, 0xFFFFFFFF);
    prog_read(p, a + 8, 0x9ABCDEF0, 0xFFFFFFFF);
    prog_read(p, a + 12, 0, 0xFFFFFFFF);
    return 0;
}

/* One 1x1 layer on a 1x1 image: inputs x[0..n) on processors 0..n-1 (memories 0, 1), weights w[], one
 * output channel at memory 2 word 0x10 lane 0, output scale s, optional ReLU. */
static void out_stage_job(program_t *p, const char *name, const int8_t *x, const int8_t *w, int n, int s, bool relu,
                          uint8_t expect)
{
    static const uint32_t ctrl[4] = {0x00100008, 0x00100008, 0x00100008, 0x00100008};
    prog_job(p, "%s", name);
    m7_init(p, ctrl, 0);
    uint16_t en = 0;
    for (int i = 0; i < n; i++) {
        uint8_t k[9] = {0, 0, 0, 0, 0, 0, 0, 0, (uint8_t)w[i]}; /* 1x1 weight 0 lives in slot 0 */
        m7_express_load(p, (unsigned)i, 0, k, sizeof k, false);
        en |= (uint16_t)(1u << i);
    }
    m7_wr(p, m7_lreg_addr(0, 2, 0), 0x100);           /* ONED: 1x1 */
    m7_wr(p, m7_lreg_addr(0, 6, 0), 2u << 13 | 0x10); /* WPTR_BASE: memory 2, word 0x10 */
    m7_wr(p, m7_lreg_addr(0, 8, 0), 0x2000);
    m7_wr(p, m7_lreg_addr(0, 11, 0), 0x820u | (relu ? 0x200u : 0u));
    m7_wr(p, m7_lreg_addr(0, 14, 0), (uint32_t)en << 16 | en);
    m7_wr_nz(p, m7_lreg_addr(0, 15, 0), (s < 0 ? 1u << 17 : 0) | (uint32_t)(s < 0 ? -s : s) << 13);
    uint32_t w0 = 0, w1 = 0;
    for (int i = 0; i < n; i++) {
        if (i < 4) w0 |= (uint32_t)(uint8_t)x[i] << (8 * i);
        else w1 |= (uint32_t)(uint8_t)x[i] << (8 * (i - 4));
    }
    m7_wr(p, m7_dmem_addr(0, 0), w0);
    m7_wr(p, m7_dmem_addr(1, 0), w1);
    uint32_t final[4];
    m7_start(p, ctrl, 0, final);
    m7_isr(p, final, 20000);
    prog_read(p, m7_dmem_addr(2, 0x10), expect, 0xFF);
    prog_check_golden(p);
}

/* Spec 3.9: "mnist layer 0, s=-1: 6784 gives 27 and -4096 gives -16 (ReLU makes it 0). Layer 1, s=-2:
 * -52477 gives -102." Totals built from inputs and weights: 64*106 = 6784, 64*(-64) = -4096,
 * 127*(-127)*3 + 127*(-32) + 1*(-26) = -52477. */
int m7_ex_out_stage(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)seed, (void)err, (void)errlen;
    static const int8_t xa[] = {64}, wa[] = {106}, wb[] = {-64};
    static const int8_t xc[] = {127, 127, 127, 127, 1}, wc[] = {-127, -127, -127, -32, -26};
    out_stage_job(p, "spec 3.9: 6784, s=-1, ReLU -> 27", xa, wa, 1, -1, true, 27);
    out_stage_job(p, "spec 3.9: -4096, s=-1 -> -16", xa, wb, 1, -1, false, (uint8_t)-16);
    out_stage_job(p, "spec 3.9: -4096, s=-1, ReLU -> 0", xa, wb, 1, -1, true, 0);
    out_stage_job(p, "spec 3.9: -52477, s=-2 -> -102", xc, wc, 5, -2, false, (uint8_t)-102);
    return 0;
}

/* Spec 3.12, the mlator: a CTRL write taking mlat_ld 0 -> 1 with cnn_en = 0 loads the pointer from layer 0's
 * WPTR_BASE; each MLAT read returns byte lane mlatch_sel of the words ptr, ptr+d, ptr+2d, ptr+3d (d = layer 0's
 * wptr_inc + 1), the first in bits 7:0, and advances the pointer by 4d, except the first read after a load.
 * Random data, pointer, stride and lane per quadrant; the expected words are computed here from the data written,
 * and the golden model checks every read as well. */
int m7_mlator(program_t *p, uint64_t seed, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    enum { READS = 6 };
    rng_t r;
    rng_seed_stream(&r, seed, "max78000.mlator");
    for (unsigned q = 0; q < 4; q++) {
        unsigned g = 4 * q + rng_below(&r, 4), lane = rng_below(&r, 4), inc = rng_below(&r, 16), d = inc + 1;
        unsigned span = 4 * d * READS, base = rng_below(&r, 8192 - span);
        prog_job(p, "mlator quadrant %u: memory %u word 0x%04x, stride %u, lane %u", q, g, base, d, lane);
        uint32_t ctrl = 0x00100008;
        m7_wr(p, m7_quad_addr(q, MAX78000_CTRL_OFF), ctrl);
        uint32_t data[4 * 16 * READS];
        for (unsigned i = 0; i < span; i++) {
            data[i] = (uint32_t)rng_next(&r);
            if (i % d == 0) /* only the words the mlator reads */
                m7_wr(p, m7_dmem_addr(g, base + i), data[i]);
        }
        m7_wr(p, m7_lreg_addr(q, MAX78000_LR_WPTR_BASE, 0), g << 13 | base);
        m7_wr(p, m7_lctrl1_addr(q, 0), inc << MAX78000_LCTRL1_WPTR_INC_SHIFT);
        m7_wr(p, m7_quad_addr(q, MAX78000_CTRL_OFF),
              ctrl | lane << MAX78000_CTRL_MLATCH_SEL_SHIFT | MAX78000_CTRL_MLAT_LD_MASK);
        for (unsigned n = 0; n < READS; n++) {
            unsigned first = n == 0 ? 0 : 4 * (n - 1) * d; /* the first read after the load does not advance */
            uint32_t v = 0;
            for (unsigned i = 0; i < 4; i++) v |= ((data[first + i * d] >> (8 * lane)) & 0xFFu) << (8 * i);
            prog_read(p, m7_quad_addr(q, MAX78000_MLAT_OFF), v, 0xFFFFFFFF);
        }
        m7_wr(p, m7_quad_addr(q, MAX78000_CTRL_OFF), ctrl);
    }
    return 0;
}
