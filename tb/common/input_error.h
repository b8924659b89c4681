/* The one form of a stimulus reader's error: "path:line: what (saw 'token')". The readers of native traces
 * (trace_native.c), nv_small .cfg files (tb/nvdla/nvsmall_cfg.c) and NVIDIA's trace-player tests
 * (tb/nvdla/nvfull_txn.c) each wrap it in their own fail(). */
#ifndef INPUT_ERROR_H
#define INPUT_ERROR_H
#include <stdarg.h>
#include <stddef.h>

/* Writes the message (fmt, ap) at path:line into err (nothing when err is NULL or errlen 0), with the offending
 * token when tok is not NULL (its first 80 characters). Returns -1, so a reader can `return` it. */
int input_verror(char *err, size_t errlen, const char *path, int line, const char *tok, const char *fmt, va_list ap);
#endif
