#include "input_error.h"
#include <stdio.h>

int input_verror(char *err, size_t errlen, const char *path, int line, const char *tok, const char *fmt, va_list ap)
{
    char msg[256];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (err && errlen) {
        if (tok) snprintf(err, errlen, "%s:%d: %s (saw '%.80s')", path, line, msg, tok);
        else snprintf(err, errlen, "%s:%d: %s", path, line, msg);
    }
    return -1;
}
