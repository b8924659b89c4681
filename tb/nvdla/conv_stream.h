/* The CACC -> SDP stream a DUT delivered (seen by tb/nvdla/duts/nvdla_cacc_probe.sv) against the golden
 * model's CACC output, layer by layer: tells a convolution mismatch before SDP (CDMA, CBUF, CSC, CMAC, CACC)
 * from one in SDP or after it. */
#ifndef CONV_STREAM_H
#define CONV_STREAM_H
#include "nvdla_golden.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct conv_stream {
    int32_t *v;
    size_t n, cap;
    unsigned layer_ends; /* beats flagged layer end */
} conv_stream_t;

void conv_stream_push(conv_stream_t *s, int32_t value, bool layer_end);
void conv_stream_clear(conv_stream_t *s);
void conv_stream_free(conv_stream_t *s);

/* Compares the stream with the layers, in delivery order: per layer, kernel group by kernel group (8 lanes),
 * then row, column, lane. Returns the number of differing values (the stream's length counts as one
 * difference when it is not the layers' total, and so does a layer-end flag count other than the layers') and writes one line into msg: the first difference as
 * grp, (k, h, w), expected and got; or, when everything agrees, how many values did. */
uint64_t conv_stream_compare(const conv_stream_t *s, const nvdla_conv_out_t *layers, size_t nlayers, char *msg,
                             size_t len);
#endif
