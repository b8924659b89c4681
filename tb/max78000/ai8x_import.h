/* Reader of ai8xize-generated MAX78000 programs (a folder with cnn.c, main.c, weights.h, sampledata.h,
 * sampleoutput.h): the program's CNN bus accesses, FIFO polls, interrupt wait and known-answer reads as a
 * program (ai8x_import.c; docs/max78000.md). */
#ifndef AI8X_IMPORT_H
#define AI8X_IMPORT_H
#include "program.h"
#include <stdbool.h>
#include <stddef.h>

/* Appends the folder's program to p (named after the folder). 0, or -1 with "file:line: message" in err.
 * A folder for which ai8xize produced no program (no cnn.c, an ERROR in log.txt) becomes a skip op. */
typedef struct ai8x_defect {
    const char *name, *why;
} ai8x_defect_t;
/* Folders (by name) whose known answer the hardware cannot produce; ends with {NULL, NULL}. */
extern const ai8x_defect_t ai8x_defects[];

int ai8x_import(const char *dir, program_t *p, char *err, size_t errlen);
/* The same; skip_defects=false reads a folder of ai8x_defects[] like any other (unit tests). */
int ai8x_import_ex(const char *dir, program_t *p, bool skip_defects, char *err, size_t errlen);
#endif
