/* NVIDIA's NVDLA loadable (a flatbuffer, schema nvdla_sw/umd/core/common/loadable.fbs, version 0.7.0): the
 * parts the firmware needs, read by a small bounds-checked flatbuffer reader (no flatbuffers dependency).
 * Memory list entries (size, alignment, contents = blobs placed at offsets), the address list (memory id +
 * offset), the tasks (their address lists), the tensor descriptions of bound inputs/outputs and the submit list
 * (the order NVIDIA's runtime submits the tasks in). */
#ifndef NVDLA_LOADABLE_H
#define NVDLA_LOADABLE_H
#include <stddef.h>
#include <stdint.h>

enum { LD_MEM_ALLOC = 1, LD_MEM_SET = 2, LD_MEM_INPUT = 4, LD_MEM_OUTPUT = 8 };
enum { LD_IF_DLA1 = 1, LD_IF_EMU1 = 2 }; /* loadable.fbs: enum Interface { NONE, DLA1, EMU1 } */

typedef struct ld_blob {
    char *name;
    const uint8_t *data;
    size_t size;
    uint32_t interface, sub_interface;
} ld_blob_t;
typedef struct ld_content {
    const ld_blob_t *blob;
    uint64_t offset;
} ld_content_t;
typedef struct ld_mem {
    uint16_t id, flags, bind_id, tensor_desc_id;
    uint8_t domain;
    uint64_t size;
    uint32_t alignment;
    ld_content_t *contents;
    size_t ncontents;
} ld_mem_t;
typedef struct ld_addr {
    uint16_t id, mem_id;
    uint64_t offset, size;
} ld_addr_t;
typedef struct ld_task {
    uint16_t id;
    uint32_t interface;
    int16_t instance;
    uint16_t *addr_ids;
    size_t naddr;
} ld_task_t;
/* loadable.fbs SubmitListEntry: "sched list entries are submitted serially, in id order"; task_id indexes the task
 * list (Runtime.cpp's submitInternal: m_task[task_id]) */
typedef struct ld_submit {
    uint16_t id;
    uint16_t *task_ids;
    size_t ntasks;
} ld_submit_t;
typedef struct ld_tensor {
    char *name;
    uint16_t id, mem_id;
    uint64_t size, offset;
    uint8_t data_format, data_type, data_category, pixel_format;
    int32_t n, c, h, w;
    uint32_t stride[8];
} ld_tensor_t;

typedef struct nvdla_loadable {
    uint8_t *buf; /* the file */
    size_t len;
    uint8_t version[3];
    ld_blob_t *blobs;
    size_t nblobs;
    ld_mem_t *mems;
    size_t nmems;
    ld_addr_t *addrs;
    size_t naddrs;
    ld_task_t *tasks;
    size_t ntasks;
    ld_tensor_t *tensors;
    size_t ntensors;
    ld_submit_t *submits;
    size_t nsubmits;
} nvdla_loadable_t;

/* Returns 0, or -1 with "file: offset N: what" in err. */
int nvdla_loadable_read(nvdla_loadable_t *l, const char *path, char *err, size_t errlen);
/* The same from a buffer (malloc'ed; the loadable owns it from now on, also on error); name for messages. */
int nvdla_loadable_parse(nvdla_loadable_t *l, uint8_t *buf, size_t len, const char *name, char *err, size_t errlen);
void nvdla_loadable_free(nvdla_loadable_t *l);
const ld_mem_t *ld_mem_by_id(const nvdla_loadable_t *l, uint16_t id);
const ld_addr_t *ld_addr_by_id(const nvdla_loadable_t *l, uint16_t id);
#endif
