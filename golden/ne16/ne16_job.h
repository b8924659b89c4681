/* Decoded NE16 job context (spec ne16.md 2.2, 3.1) and the legality check of 6.2. Shared by the golden
 * model, the driver and anything that wants to print a job in words. */
#ifndef NE16_JOB_H
#define NE16_JOB_H
#include <stdbool.h>
#include <stdint.h>
#include "ne16_regs.h"

enum { NE16_FM_3X3 = 0, NE16_FM_DW = 1, NE16_FM_1X1 = 2, NE16_FM_RESERVED = 3 };

/* JOB_ERROR codes (6.2); the first failing check wins. */
enum {
    NE16_OK = 0,
    NE16_ERR_QUANT_BITS = 1,  /* QUANT_BITS = 11 */
    NE16_ERR_NORM_BITS = 2,   /* STREAMOUT and NORM_BITS = 11 */
    NE16_ERR_FILTER_MODE = 3, /* not linear and FILTER_MODE = 11 */
    NE16_ERR_NB_ZERO = 4,     /* a subtile count is 0 */
    NE16_ERR_REM_RANGE = 5,   /* a remainder exceeds its subtile */
    NE16_ERR_STREAMIN = 6,    /* STREAMIN without 32-bit output */
    NE16_ERR_MODE16_DW = 7,   /* MODE16 with depthwise */
};

typedef struct ne16_job_cfg {
    /* pointers and strides, as programmed */
    uint32_t weights, infeat, outfeat, scale, scale_shift, scale_bias;
    uint32_t in_d0, in_d1, out_d0, out_d1, out_d2, w_d0, w_d1, w_d2;
    /* subtile counts and remainders (0 = full) */
    unsigned nb_ko, nb_ki, nb_ho, nb_wo;
    unsigned rem_ko, rem_ki, rem_ho, rem_wo, rem_hi, rem_wi;
    /* padding and filter mask */
    unsigned pad_top, pad_right, pad_bottom, pad_left;
    uint16_t pad_value;
    unsigned mask_top, mask_right, mask_bottom, mask_left;
    /* CONFIG0 */
    unsigned qw, filter_mode, norm_bits, quant_bits, right_shift;
    bool mode16, streamout, linear, strided, round, streamin, weight_offs, quant_rect, norm_shift, norm_bias;
    /* derived (3.1) */
    int wmin;         /* weight offset (D9) */
    bool dw, is1x1;   /* depthwise / 1x1 (both false in linear mode) */
    unsigned ko_sub;  /* 32, or 16 in depthwise */
    unsigned f;       /* input window side: 5 (3x3, DW) or 3 (1x1) */
    unsigned wb;      /* weight bytes per tap per plane: 2, or 1 in MODE16 */
    unsigned ob, sb;  /* output / scale bytes */
    unsigned ki_full; /* lanes of a full Ki subtile: 16 bytes; linear: 16 (32 in MODE16) words */
} ne16_job_cfg_t;

/* Decode a context (regs[i] = register at 0x20 + 4i). Returns NE16_OK or the JOB_ERROR code; the
 * struct is filled either way. */
int ne16_job_decode(const uint32_t regs[NE16_NUM_JOB_REGS], ne16_job_cfg_t *c);
/* Short text for an error code ("QUANT_BITS=11"), "ok" for 0. */
const char *ne16_job_error_name(int code);
#endif
