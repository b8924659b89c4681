/* The C subset of an ai8xize-generated MAX78000 program (cnn.c, main.c, weights.h, sampledata.h,
 * sampleoutput.h), read as source: comments and the `#ifdef CNN_INFERENCE_TIMER` branches removed (the
 * macro is undefined), `#define NAME { ... }` arrays collected with the line of each element, and the rest
 * split into a tree of statements (`;`-terminated, or `{ ... }` blocks) with their file:line.
 * Interpretation of the statements is in ai8x_import.c. */
#ifndef AI8X_SRC_H
#define AI8X_SRC_H
#include <stddef.h>
#include <stdint.h>

typedef struct ai8x_array {
    char *name;
    uint32_t *v;
    int *line; /* source line of each element */
    size_t n;
    const char *file;
} ai8x_array_t;

typedef struct ai8x_stmt {
    char *text; /* whitespace-normalised, without the terminator */
    int line;
    const char *file;
    struct ai8x_stmt *kids; /* block body (has_block) */
    size_t nkids;
    int has_block;
} ai8x_stmt_t;

typedef struct ai8x_src {
    ai8x_array_t *arrays;
    size_t narrays;
    ai8x_stmt_t top; /* top-level statements of all C files read, in order */
    char **files;    /* owned path strings */
    size_t nfiles;
} ai8x_src_t;

/* Reads one file into src: headers contribute arrays, .c files statements too. 0, or -1 with
 * "file:line: message" in err. */
int ai8x_src_read(ai8x_src_t *src, const char *path, char *err, size_t errlen);
void ai8x_src_free(ai8x_src_t *src);
const ai8x_array_t *ai8x_src_array(const ai8x_src_t *src, const char *name);
#endif
