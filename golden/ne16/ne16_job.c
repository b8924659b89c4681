/* Register decoding and the 6.2 legality check of an NE16 job. */
#include "ne16_job.h"

static unsigned lo16(uint32_t v) { return v & 0xFFFFu; }
static unsigned hi16(uint32_t v) { return v >> 16; }

int ne16_job_decode(const uint32_t regs[NE16_NUM_JOB_REGS], ne16_job_cfg_t *c)
{
    const uint32_t cf = regs[NE16_JOB_CONFIG0];
    c->weights = regs[NE16_JOB_WEIGHTS_PTR];
    c->infeat = regs[NE16_JOB_INFEAT_PTR];
    c->outfeat = regs[NE16_JOB_OUTFEAT_PTR];
    c->scale = regs[NE16_JOB_SCALE_PTR];
    c->scale_shift = regs[NE16_JOB_SCALE_SHIFT_PTR];
    c->scale_bias = regs[NE16_JOB_SCALE_BIAS_PTR];
    c->in_d0 = regs[NE16_JOB_INFEAT_D0_STRIDE];
    c->in_d1 = regs[NE16_JOB_INFEAT_D1_STRIDE];
    c->out_d0 = regs[NE16_JOB_OUTFEAT_D0_STRIDE];
    c->out_d1 = regs[NE16_JOB_OUTFEAT_D1_STRIDE];
    c->out_d2 = regs[NE16_JOB_OUTFEAT_D2_STRIDE];
    c->w_d0 = regs[NE16_JOB_WEIGHTS_D0_STRIDE];
    c->w_d1 = regs[NE16_JOB_WEIGHTS_D1_STRIDE];
    c->w_d2 = regs[NE16_JOB_WEIGHTS_D2_STRIDE];
    c->rem_ko = hi16(regs[NE16_JOB_SUBTILE_REM0]);
    c->rem_ki = lo16(regs[NE16_JOB_SUBTILE_REM0]);
    c->rem_ho = hi16(regs[NE16_JOB_SUBTILE_REM1]);
    c->rem_wo = lo16(regs[NE16_JOB_SUBTILE_REM1]);
    c->rem_hi = hi16(regs[NE16_JOB_SUBTILE_REM2]);
    c->rem_wi = lo16(regs[NE16_JOB_SUBTILE_REM2]);
    c->nb_ko = hi16(regs[NE16_JOB_SUBTILE_NB0]);
    c->nb_ki = lo16(regs[NE16_JOB_SUBTILE_NB0]);
    c->nb_ho = hi16(regs[NE16_JOB_SUBTILE_NB1]);
    c->nb_wo = lo16(regs[NE16_JOB_SUBTILE_NB1]);
    const uint32_t pad = regs[NE16_JOB_PADDING];
    c->pad_top = REG_GET(pad, NE16_PADDING_TOP);
    c->pad_right = REG_GET(pad, NE16_PADDING_RIGHT);
    c->pad_bottom = REG_GET(pad, NE16_PADDING_BOTTOM);
    c->pad_left = REG_GET(pad, NE16_PADDING_LEFT);
    c->pad_value = (uint16_t)REG_GET(pad, NE16_PADDING_VALUE);
    const uint32_t fm = regs[NE16_JOB_FILTER_MASK];
    c->mask_top = REG_GET(fm, NE16_FILTER_MASK_TOP);
    c->mask_right = REG_GET(fm, NE16_FILTER_MASK_RIGHT);
    c->mask_bottom = REG_GET(fm, NE16_FILTER_MASK_BOTTOM);
    c->mask_left = REG_GET(fm, NE16_FILTER_MASK_LEFT);
    c->qw = REG_GET(cf, NE16_CONFIG0_QWM1) + 1;
    c->mode16 = REG_GET(cf, NE16_CONFIG0_MODE16);
    c->streamout = REG_GET(cf, NE16_CONFIG0_STREAMOUT);
    c->filter_mode = REG_GET(cf, NE16_CONFIG0_FILTER_MODE);
    c->linear = REG_GET(cf, NE16_CONFIG0_LINEAR);
    c->strided = REG_GET(cf, NE16_CONFIG0_STRIDED_2X2) && !c->linear;
    c->round = REG_GET(cf, NE16_CONFIG0_ROUND);
    c->norm_bits = REG_GET(cf, NE16_CONFIG0_NORM_BITS);
    c->streamin = REG_GET(cf, NE16_CONFIG0_STREAMIN);
    c->weight_offs = REG_GET(cf, NE16_CONFIG0_WEIGHT_OFFS);
    c->right_shift = REG_GET(cf, NE16_CONFIG0_RIGHT_SHIFT);
    c->quant_bits = REG_GET(cf, NE16_CONFIG0_QUANT_BITS);
    c->quant_rect = REG_GET(cf, NE16_CONFIG0_QUANT_RECT);
    c->norm_shift = REG_GET(cf, NE16_CONFIG0_NORM_SHIFT);
    c->norm_bias = REG_GET(cf, NE16_CONFIG0_NORM_BIAS);

    /* D9: 9-bit layer offset {bit31, bits 7:0}, or the symmetric offset -2^(Qw-1). */
    if (c->weight_offs) {
        const uint32_t wo = regs[NE16_JOB_WEIGHT_OFFSET];
        const int v9 = (int)(((wo >> 31) << 8) | (wo & 0xFFu));
        c->wmin = v9 >= 256 ? v9 - 512 : v9;
    } else {
        c->wmin = -(1 << (c->qw - 1));
    }
    c->dw = !c->linear && c->filter_mode == NE16_FM_DW;
    c->is1x1 = !c->linear && c->filter_mode == NE16_FM_1X1;
    c->ko_sub = c->dw ? 16 : 32;
    c->f = c->is1x1 ? 3 : 5;
    c->wb = c->mode16 ? 1 : 2;
    c->ob = c->quant_bits == 0 ? 1 : c->quant_bits == 1 ? 2 : 4;
    c->sb = c->norm_bits == 0 ? 1 : c->norm_bits == 1 ? 2 : 4;
    c->ki_full = c->linear ? (c->mode16 ? 32 : 16) : 16;

    /* 6.2, in order */
    if (c->quant_bits == 3) return NE16_ERR_QUANT_BITS;
    if (c->streamout && c->norm_bits == 3) return NE16_ERR_NORM_BITS;
    if (!c->linear && c->filter_mode == NE16_FM_RESERVED) return NE16_ERR_FILTER_MODE;
    if (c->nb_ko == 0 || c->nb_ho == 0 || c->nb_wo == 0 || (c->nb_ki == 0 && !c->dw)) return NE16_ERR_NB_ZERO;
    if (c->rem_ko > c->ko_sub) return NE16_ERR_REM_RANGE;
    if (!c->dw && c->rem_ki > c->ki_full) return NE16_ERR_REM_RANGE;
    if (!c->linear && (c->rem_ho > 3 || c->rem_wo > 3 || c->rem_hi > c->f || c->rem_wi > c->f))
        return NE16_ERR_REM_RANGE;
    if (c->streamin && c->quant_bits != 2) return NE16_ERR_STREAMIN;
    if (c->mode16 && c->dw) return NE16_ERR_MODE16_DW;
    return NE16_OK;
}

const char *ne16_job_error_name(int code)
{
    static const char *const names[] = {
        "ok",
        "QUANT_BITS=11",
        "NORM_BITS=11 with STREAMOUT",
        "FILTER_MODE=11",
        "subtile count 0",
        "remainder out of range",
        "STREAMIN without 32-bit output",
        "MODE16 with depthwise",
    };
    return code >= 0 && code < (int)(sizeof names / sizeof names[0]) ? names[code] : "unknown";
}
