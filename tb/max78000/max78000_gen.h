/* Constrained-random MAX78000 networks and the spec's worked examples as directed tests. Every program
 * programs the accelerator the way an ai8x-synthesis cnn.c does (max78000_fw.h); the expected results
 * come from the golden model fed by the APB monitor, never from the generator. */
#ifndef MAX78000_GEN_H
#define MAX78000_GEN_H
#include "program.h"
#include <stddef.h>
#include <stdint.h>

int m7_net_random(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_net_random_multi(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_net_small(program_t *p, uint64_t seed, char *err, size_t errlen);
/* A 2-3 layer network run in oneshot mode (CTRL.oneshot): one start per layer, cnn_continue in between. */
int m7_net_wide(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_net_oneshot(program_t *p, uint64_t seed, char *err, size_t errlen);
/* A 1-3 layer network of 1-D convolutions (T x 1 kernels whose taps may cross MRAM words). */
int m7_net_oned(program_t *p, uint64_t seed, char *err, size_t errlen);
/* A 1-3 layer network whose non-collecting quadrants store their own totals too (several writes a pixel). */
int m7_net_many_ch(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_net_spread(program_t *p, uint64_t seed, char *err, size_t errlen);
/* 1-3 layers with element-wise, pass-through, ConvTranspose2d layers and FIFO input (M3). */
int m7_net_m3(program_t *p, uint64_t seed, char *err, size_t errlen);
/* Streaming layers (2.4) whose layer 0 reads its input from memory, not a FIFO. */
int m7_net_stream_mem(program_t *p, uint64_t seed, char *err, size_t errlen);
/* Processors a layer masks off hold random kernels at the layer's MRAM words. */
int m7_net_masked(program_t *p, uint64_t seed, char *err, size_t errlen);
/* FIFO streaming with the host pushing far ahead of a slow, tall layer 0 (beyond its circular buffer). */
int m7_net_fifo_ahead(program_t *p, uint64_t seed, char *err, size_t errlen);
/* Spec 4 Stop [M2]: a run stopped by clearing the master's cnn_en, then oneshot from layer 0 again. */
int m7_net_stop(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_ex_mram_express(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_ex_out_stage(program_t *p, uint64_t seed, char *err, size_t errlen);
int m7_mlator(program_t *p, uint64_t seed, char *err, size_t errlen);
#endif
