/* Reader of ai8xize-generated MAX78000 programs (a folder with cnn.c, main.c, weights.h, sampledata.h,
 * sampleoutput.h): the program's CNN bus accesses, FIFO polls, interrupt wait and known-answer reads as a
 * program (ai8x_import.c; docs/max78000.md). */
#ifndef AI8X_IMPORT_H
#define AI8X_IMPORT_H
#include "program.h"
#include <stddef.h>

/* Appends the folder's program to p (named after the folder). 0, or -1 with "file:line: message" in err.
 * A folder for which ai8xize produced no program (no cnn.c, an ERROR in log.txt) becomes a skip op. */
int ai8x_import(const char *dir, program_t *p, char *err, size_t errlen);
#endif
