/* Tiny reader for the MAX78000 conformance files (shared/conformance/max78000/): the native trace subset
 * `w <addr> <data> <pstrb>`, `r <addr> <expected> <mask>`, `wait_irq`, and `<addr> <value>` word lists
 * (expected.txt, layerN.txt). `#` starts a comment. Used by golden-model tests that must not depend on
 * tb/common; the testbench proper reads traces with trace_read() (tb/common/program.h). */
#ifndef MAX78000_TRACE_H
#define MAX78000_TRACE_H
#include <stddef.h>
#include <stdint.h>

typedef enum { MAX78000_T_WRITE, MAX78000_T_READ, MAX78000_T_WAIT_IRQ } max78000_top_kind_t;

typedef struct max78000_top {
    max78000_top_kind_t kind;
    uint32_t addr, data, mask; /* read: data = expected value */
    uint8_t strb;
    int line;
} max78000_top_t;

typedef struct max78000_trace {
    max78000_top_t *ops;
    size_t n, cap;
} max78000_trace_t;

typedef struct max78000_words {
    uint32_t *addr, *value;
    size_t n, cap;
} max78000_words_t;

/* 0 on success; -1 with "path:line: message" in err. */
int max78000_trace_load(max78000_trace_t *t, const char *path, char *err, size_t errlen);
void max78000_trace_free(max78000_trace_t *t);
int max78000_words_load(max78000_words_t *w, const char *path, char *err, size_t errlen);
void max78000_words_free(max78000_words_t *w);
#endif
