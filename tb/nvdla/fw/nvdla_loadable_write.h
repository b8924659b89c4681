/* Writes an NVDLA loadable flatbuffer (schema loadable.fbs 0.7.0) from the same description the reader
 * produces (nvdla_loadable.h): blobs, memory list, address list, tasks, tensor descriptions, and a submit
 * list of one entry per task. The random networks of test fw_net are written with it (docs/drivers.md). */
#ifndef NVDLA_LOADABLE_WRITE_H
#define NVDLA_LOADABLE_WRITE_H
#include "nvdla_loadable.h"
#include <stddef.h>
#include <stdint.h>

/* Returns a malloc'ed buffer of *len bytes. */
uint8_t *nvdla_loadable_write(const nvdla_loadable_t *l, size_t *len);
#endif
