/* Feature queries on the compiled-in DUT description (dut_info.h). */
#include "dut_info.h"
#include "sim.h"
#include <stdio.h>
#include <string.h>

static bool in_list(const char *list, const char *feature)
{ /* comma-separated */
    const size_t n = strlen(feature);
    for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        if (strcspn(p, ",") == n && strncmp(p, feature, n) == 0) return true;
    }
    return false;
}

/* +features=a,b,...: the run uses only these of the DUT's features, so that a differential run generates the
 * same jobs on two DUTs (flow/diff.py passes the features they share). */
bool dut_has(const char *feature)
{
    for (const char *const *f = tb_dut.features; *f; f++)
        if (strcmp(*f, feature) == 0) {
            const char *only = sim_plusarg(sim_get(), "features");
            return !only || in_list(only, feature);
        }
    return false;
}

bool dut_provides(const char *needs, char *why, size_t n)
{
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
