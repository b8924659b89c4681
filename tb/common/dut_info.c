/* Feature queries on the compiled-in DUT description (dut_info.h). */
#include "dut_info.h"
#include <stdio.h>
#include <string.h>

bool dut_has(const char *feature) {
    for (const char *const *f = tb_dut.features; *f; f++)
        if (strcmp(*f, feature) == 0) return true;
    return false;
}

bool dut_provides(const char *needs, char *why, size_t n) {
    char missing[256] = "";
    const char *p = needs ? needs : "";
    while (*p) {
        size_t len = strcspn(p, " ");
        if (len) {
            char feat[64];
            snprintf(feat, sizeof feat, "%.*s", (int)len, p);
            if (!dut_has(feat)) {
                size_t used = strlen(missing);
                snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "", feat);
            }
        }
        p += len + (p[len] == ' ');
    }
    if (!missing[0]) return true;
    snprintf(why, n, "needs %s, which DUT %s (%s) does not implement", missing, tb_dut.name, tb_dut.describe);
    return false;
}
