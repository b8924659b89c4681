/* Convolution stimulus (CDMA -> CSC -> CMAC_A/B -> CACC -> SDP on the fly): constrained-random direct
 * convolutions over shapes, kernel sizes, channels, strides, dilation, padding and pad value, CBUF bank
 * splits at and near their limits, CACC truncation, SDP post-processing (register or DMA bias, ReLU, MUL,
 * converter), output to memory or on the fly into PDP, both ping-pong groups and back-to-back layers; a
 * small network as one program; image input (pixel formats, CDMA converter and mean); the CDMA converter on feature
 * input; very wide single-channel layers with kernels taller than the input (conv_wide, and a share of conv_random);
 * a hang test. */
#ifndef CONV_GEN_H
#define CONV_GEN_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int conv_random(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_seq(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_b2b(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_pdp(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_wpad_skew(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_wt_credit_hang(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_image(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_image_seq(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_image_wrap(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_net(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_hang(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_perf(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_wstream(program_t *p, uint64_t seed, char *err, size_t errlen);
int conv_wide(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
