/* sdp_random_lut's LUT (nvf_sdplut_gen.c): the EW stage's lookup table and its S_LUT_* settings drawn around the
 * values that enter it, for nvf_sdpm_gen.c's job frame. */
#ifndef NVF_SDPLUT_GEN_H
#define NVF_SDPLUT_GEN_H
#include "dp_gen_util.h"
#include "sdp_lut.h"

typedef struct nvf_sdplut {
    sdp_lut_cfg_t cfg;
    sdp_lut_t tab;
    char tag[40];
} nvf_sdplut_t;

/* Draws the tables, their placement and priorities aimed at [lo, hi] (the smallest and largest value entering the
 * LUT) and puts the S_LUT_* settings into l. */
void nvf_sdplut_draw(rng_t *r, dp_wlist_t *l, int64_t lo, int64_t hi, nvf_sdplut_t *out);
/* The same at FP16 processing (nvf_sdplut_fp16_gen.c): lo and hi the smallest and largest finite FP32 value entering
 * the LUT (lo > hi: none is finite). */
void nvf_sdplut_draw_fp16(rng_t *r, dp_wlist_t *l, float lo, float hi, nvf_sdplut_t *out);
/* The S_LUT_* registers of c into l. */
void nvf_sdplut_put(dp_wlist_t *l, const sdp_lut_cfg_t *c);
/* Writes both tables through S_LUT_ACCESS_CFG/DATA into p, either first, each in one of the ways the RTL's store takes
 * (entries in order; after data writes under ACCESS_TYPE read; from the pointer's wrap; extra writes past the end).
 * corrupt: the entry (0-64 LE, 65-321 LO) written with bit 15 flipped (the negative test sdp_lut_corrupt), or -1. */
void nvf_sdplut_write(program_t *p, rng_t *r, const nvf_sdplut_t *l, int corrupt);
#endif
