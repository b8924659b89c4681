/* NE16 golden model: a literal implementation of spec ne16.md section 4 (job loop 4.1, input window 4.2,
 * MAC with weight offset and filter mask 4.3, normalisation 4.4, streamin 4.5, store 4.6). */
#include "ne16_golden.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Engine addresses are 32-bit and wrap (conventions). */
static uint8_t rd8(const mem_t *m, uint32_t a) { return mem_read8(m, a); }
static uint32_t rdle(const mem_t *m, uint32_t a, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint32_t)rd8(m, a + i) << (8 * i);
    return v;
}

void ne16_result_init(ne16_golden_result_t *r) { memset(r, 0, sizeof *r); }
void ne16_result_free(ne16_golden_result_t *r)
{
    free(r->elems);
    ne16_result_init(r);
}

const ne16_out_elem_t *ne16_result_find(const ne16_golden_result_t *r, uint32_t addr)
{
    for (size_t i = 0; i < r->n; i++)
        if ((uint32_t)(addr - r->elems[i].addr) < r->elems[i].nbytes) return &r->elems[i];
    return NULL;
}

static void record(ne16_golden_result_t *r, uint32_t addr, unsigned nbytes, unsigned k, unsigned h, unsigned w)
{
    if (!r || r->oom) return;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        ne16_out_elem_t *e = realloc(r->elems, cap * sizeof *e);
        if (!e) {
            r->oom = 1;
            return;
        }
        r->elems = e;
        r->cap = cap;
    }
    r->elems[r->n++] = (ne16_out_elem_t){addr, (uint8_t)nbytes, (uint16_t)k, (uint16_t)h, (uint16_t)w};
}

uint32_t ne16_norm_quant(const ne16_job_cfg_t *c, int32_t acc, uint32_t scale, int32_t bias, uint8_t shift_byte)
{
    const unsigned bits = 8 * c->ob;
    const uint32_t keep = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
    if (!c->streamout) return (uint32_t)acc & keep;
    __extension__ typedef __int128 i128;
    const int64_t p = (int64_t)acc * (int64_t)scale; /* exact: |p| < 2^63 */
    i128 v = c->norm_bias ? (i128)(int32_t)((uint32_t)(int32_t)(uint32_t)p + (uint32_t)bias) : (i128)p;
    const unsigned sh = c->norm_shift ? (shift_byte & 63u) : c->right_shift;
    if (c->round && sh > 0) v += (i128)1 << (sh - 1);
    /* floor division by 2^sh: arithmetic shift of a wide signed value */
    i128 y = v >> sh;
    i128 lo, hi;
    if (c->quant_rect) {
        lo = -((i128)1 << (bits - 1));
        hi = ((i128)1 << (bits - 1)) - 1;
    } else {
        lo = 0;
        hi = ((i128)1 << bits) - 1;
    }
    if (y < lo) y = lo;
    if (y > hi) y = hi;
    return (uint32_t)(uint64_t)y & keep;
}

/* Byte address of output word for channel ko (local) of pixel address P (3.3). */
static uint32_t out_addr(const ne16_job_cfg_t *c, uint32_t P, unsigned ko)
{
    if (c->ob == 1) return P + ko;
    const unsigned per_word = 8;
    return P + (ko / per_word) * c->out_d0 + (ko % per_word) * c->ob;
}

/* Unsigned weight u of (ko, tap/element, channel) in subtile (kom, kim): bit planes of 3.4. */
static unsigned weight_u(const ne16_job_cfg_t *c, const mem_t *m, unsigned kom, unsigned kim, unsigned ko, unsigned tap,
                         unsigned ch)
{
    unsigned u = 0;
    for (unsigned q = 0; q < c->qw; q++) {
        uint32_t a;
        unsigned bit;
        if (c->linear) {
            a = c->weights + kom * c->w_d2 + kim * 32u + ko * c->w_d1 + q * c->w_d0 + ch / 8;
            bit = ch % 8;
        } else if (c->dw) {
            const uint32_t s_ko = c->qw * 18u;
            a = c->weights + kom * s_ko + ko * c->w_d1 + q * c->w_d0 + 2 * tap + ko / 8;
            bit = ko % 8;
        } else {
            const uint32_t s_ki = c->is1x1 ? c->qw * c->wb : c->qw * 9u * c->wb;
            const uint32_t s_ko = 32u * c->nb_ki * s_ki;
            const uint32_t base = c->weights + kom * s_ko + kim * s_ki + ko * c->w_d1;
            const uint32_t plane = c->is1x1 ? base + q * c->wb : base + q * c->w_d0 + tap * c->wb;
            a = plane + (c->mode16 ? 0 : ch / 8);
            bit = c->mode16 ? ch : ch % 8;
        }
        u |= ((rd8(m, a) >> bit) & 1u) << q;
    }
    return u;
}

static bool tap_masked(const ne16_job_cfg_t *c, int fy, int fx)
{
    return fy < (int)c->mask_top || fy >= 3 - (int)c->mask_bottom || fx < (int)c->mask_left ||
           fx >= 3 - (int)c->mask_right;
}

typedef struct subtile {
    unsigned kom, im, jm, n_ko, h_out, w_out, h_in, w_in;
    uint32_t acc[32][9]; /* wrapping 32-bit accumulators (only wrap32 is observable) */
} subtile_t;

/* 4.2: the F x F x 16 byte window of Ki subtile kim, padding applied. */
static void load_window(const ne16_job_cfg_t *c, const mem_t *m, const subtile_t *s, unsigned kim,
                        uint8_t win[5][5][16])
{
    const uint32_t B = c->infeat + 3 * s->im * c->in_d1 + 3 * s->jm * c->in_d0 + 16 * kim;
    for (int r = 0; r < (int)c->f; r++)
        for (int col = 0; col < (int)c->f; col++)
            for (unsigned b = 0; b < 16; b++) {
                uint8_t v;
                if (r >= (int)s->h_in || col >= (int)s->w_in) {
                    v = 0;
                } else if ((s->im == 0 && r < (int)c->pad_top) ||
                           (s->im == c->nb_ho - 1 && r >= 5 - (int)c->pad_bottom) ||
                           (s->jm == 0 && col < (int)c->pad_left) ||
                           (s->jm == c->nb_wo - 1 && col >= 5 - (int)c->pad_right)) {
                    v = (c->mode16 && (b & 1)) ? (uint8_t)(c->pad_value >> 8) : (uint8_t)c->pad_value;
                } else {
                    v = rd8(m, B + (uint32_t)r * c->in_d1 + (uint32_t)col * c->in_d0 + b);
                }
                win[r][col][b] = v;
            }
}

/* Element value of channel ch of a window pixel (lanes = valid bytes). */
static uint32_t chan_value(const ne16_job_cfg_t *c, const uint8_t lane[16], unsigned ch, unsigned lanes)
{
    if (!c->mode16) return ch < lanes ? lane[ch] : 0;
    uint32_t lo = 2 * ch < lanes ? lane[2 * ch] : 0;
    uint32_t hi = 2 * ch + 1 < lanes ? lane[2 * ch + 1] : 0;
    return lo + 256 * hi;
}

static void mac_conv(const ne16_job_cfg_t *c, const mem_t *m, subtile_t *s, unsigned kim, unsigned lanes)
{
    uint8_t win[5][5][16];
    load_window(c, m, s, kim, win);
    const unsigned nch = c->mode16 ? 8 : 16;
    const unsigned ntap = c->is1x1 ? 1 : 9;
    for (unsigned ko = 0; ko < s->n_ko; ko++) {
        int w[9][16];
        for (unsigned t = 0; t < ntap; t++)
            for (unsigned ch = 0; ch < nch; ch++) {
                bool used = c->dw ? ch == ko % 16 : true;
                bool masked = !c->is1x1 && tap_masked(c, (int)(t / 3), (int)(t % 3));
                w[t][ch] = (used && !masked) ? (int)weight_u(c, m, s->kom, kim, ko, t, ch) + c->wmin : 0;
            }
        for (unsigned i = 0; i < 3; i++)
            for (unsigned j = 0; j < 3; j++) {
                uint32_t sum = 0;
                for (unsigned t = 0; t < ntap; t++) {
                    const unsigned r = c->is1x1 ? i : i + t / 3, col = c->is1x1 ? j : j + t % 3;
                    for (unsigned ch = 0; ch < nch; ch++) {
                        if (!w[t][ch]) continue;
                        uint32_t x = c->dw ? (ko < lanes ? win[r][col][ko] : 0) : chan_value(c, win[r][col], ch, lanes);
                        sum += x * (uint32_t)w[t][ch];
                    }
                }
                s->acc[ko][3 * i + j] += sum;
            }
    }
}

static void mac_linear(const ne16_job_cfg_t *c, const mem_t *m, subtile_t *s, unsigned kim, unsigned lanes)
{
    const uint32_t B = c->infeat + 3 * s->im * c->in_d1 + 3 * s->jm * c->in_d0 + kim * (c->mode16 ? 512u : 256u);
    uint32_t x[256];
    for (unsigned e = 0; e < 256; e++) {
        const unsigned L = c->mode16 ? e / 8 : e / 16;
        if (L >= lanes) {
            x[e] = 0;
            continue;
        }
        x[e] = c->mode16 ? rdle(m, B + L * c->in_d0 + 2 * (e % 8), 2) : rd8(m, B + L * c->in_d0 + e % 16);
    }
    for (unsigned ko = 0; ko < s->n_ko; ko++) {
        uint32_t sum = 0;
        for (unsigned e = 0; e < 256; e++)
            if (x[e]) sum += x[e] * (uint32_t)((int)weight_u(c, m, s->kom, kim, ko, 0, e) + c->wmin);
        s->acc[ko][0] += sum;
    }
}

static bool pixel_enabled(const ne16_job_cfg_t *c, const subtile_t *s, unsigned i, unsigned j)
{
    if (c->linear) return i == 0 && j == 0;
    if (i >= s->h_out || j >= s->w_out) return false;
    return !c->strided || ((i == 0 || i == 2) && (j == 0 || j == 2));
}

static uint32_t pixel_addr(const ne16_job_cfg_t *c, const subtile_t *s, unsigned i, unsigned j)
{
    return c->outfeat + s->kom * c->ko_sub * c->ob + (3 * s->im + i) * c->out_d2 + (3 * s->jm + j) * c->out_d1;
}

static void store(const ne16_job_cfg_t *c, mem_t *m, const subtile_t *s, ne16_golden_result_t *res)
{
    for (unsigned i = 0; i < 3; i++)
        for (unsigned j = 0; j < 3; j++) {
            if (!pixel_enabled(c, s, i, j)) continue;
            const uint32_t P = pixel_addr(c, s, i, j);
            const unsigned h = c->strided ? 2 * s->im + i / 2 : 3 * s->im + i;
            const unsigned w = c->strided ? 2 * s->jm + j / 2 : 3 * s->jm + j;
            for (unsigned ko = 0; ko < s->n_ko; ko++) {
                const unsigned k = s->kom * c->ko_sub + ko;
                uint32_t scale = 0, bias = 0;
                uint8_t shb = 0;
                if (c->streamout) {
                    scale = rdle(m, c->scale + k * c->sb, c->sb);
                    if (c->norm_bias) bias = rdle(m, c->scale_bias + 4 * k, 4);
                    if (c->norm_shift) shb = rd8(m, c->scale_shift + k);
                }
                const uint32_t y = ne16_norm_quant(c, (int32_t)s->acc[ko][3 * i + j], scale, (int32_t)bias, shb);
                const uint32_t a = out_addr(c, P, ko);
                for (unsigned b = 0; b < c->ob; b++) mem_write8(m, (uint32_t)(a + b), (uint8_t)(y >> (8 * b)));
                record(res, a, c->ob, k, h, w);
            }
        }
}

int ne16_golden_job(const uint32_t regs[NE16_NUM_JOB_REGS], mem_t *m, ne16_golden_result_t *res)
{
    ne16_job_cfg_t cfg;
    const ne16_job_cfg_t *c = &cfg;
    const int err = ne16_job_decode(regs, &cfg);
    if (res) res->error = err;
    if (err) return err;
    subtile_t *s = calloc(1, sizeof *s);
    if (!s) {
        if (res) res->oom = 1;
        return err;
    }
    for (unsigned kom = 0; kom < c->nb_ko; kom++) {
        s->kom = kom;
        s->n_ko = (kom == c->nb_ko - 1 && c->rem_ko) ? c->rem_ko : c->ko_sub;
        for (unsigned im = 0; im < c->nb_ho; im++) {
            const bool last_h = im == c->nb_ho - 1;
            s->im = im;
            s->h_out = last_h && c->rem_ho ? c->rem_ho : 3;
            s->h_in = last_h && c->rem_hi ? c->rem_hi : c->f;
            for (unsigned jm = 0; jm < c->nb_wo; jm++) {
                const bool last_w = jm == c->nb_wo - 1;
                s->jm = jm;
                s->w_out = last_w && c->rem_wo ? c->rem_wo : 3;
                s->w_in = last_w && c->rem_wi ? c->rem_wi : c->f;
                memset(s->acc, 0, sizeof s->acc);
                if (c->streamin) /* 4.5: same addresses as the 32-bit store */
                    for (unsigned p = 0; p < 9; p++)
                        if (pixel_enabled(c, s, p / 3, p % 3))
                            for (unsigned ko = 0; ko < s->n_ko; ko++)
                                s->acc[ko][p] = rdle(m, out_addr(c, pixel_addr(c, s, p / 3, p % 3), ko), 4);
                if (c->dw) {
                    mac_conv(c, m, s, kom, s->n_ko);
                } else {
                    for (unsigned kim = 0; kim < c->nb_ki; kim++) {
                        const unsigned lanes = (kim == c->nb_ki - 1 && c->rem_ki) ? c->rem_ki : c->ki_full;
                        if (c->linear) mac_linear(c, m, s, kim, lanes);
                        else mac_conv(c, m, s, kim, lanes);
                    }
                }
                store(c, m, s, res);
            }
        }
    }
    free(s);
    return NE16_OK;
}
