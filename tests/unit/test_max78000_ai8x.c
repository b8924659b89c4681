/* Every ai8xize program of ../shared/conformance/max78000/ai8x read by the program reader
 * (tb/max78000/ai8x_import.c) and replayed on the golden model alone: every known-answer read must match,
 * every FIFO poll must be satisfied when it is made, the interrupt must be up at the wait, and the model
 * must meet no unsupported feature. One line per failing folder with its first problem, then the count.
 * Reported skipped when ../shared is absent. The reader's C files are compiled in here because the unit-test
 * link line carries only golden/ and tb/common/ sources. */
#include "unit.h"

#include "../../tb/max78000/ai8x_import.c"
#include "../../tb/max78000/ai8x_src.c"
#include "max78000_golden.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#define AI8X_DIR "../shared/conformance/max78000/ai8x"

/* The program on the golden model; "" or the first problem in why. */
static void replay(const program_t *p, char *why, size_t n, size_t *words)
{
    max78000_t *m = max78000_new();
    why[0] = 0;
    for (size_t i = 0; i < p->n && !why[0]; i++) {
        const op_t *o = &p->ops[i];
        const char *f = o->file ? o->file : "?";
        if (o->kind == OP_WRITE) {
            if (max78000_apb_write(m, (uint32_t)o->addr, o->data, o->strb).slverr)
                snprintf(why, n, "%s:%d: write 0x%08llx answers PSLVERR", f, o->line, (unsigned long long)o->addr);
        } else if (o->kind == OP_READ || o->kind == OP_POLL) {
            uint32_t v = max78000_apb_read(m, (uint32_t)o->addr).rdata;
            if ((v ^ o->data) & o->mask)
                snprintf(why, n, "%s:%d: %s 0x%08llx = 0x%08x, expected 0x%08x mask 0x%08x", f, o->line,
                         o->kind == OP_READ ? "read" : "poll", (unsigned long long)o->addr, v, o->data, o->mask);
            else if (o->kind == OP_READ && o->mask) (*words)++;
        } else if (o->kind == OP_WAIT_IRQ) {
            if (!max78000_irq(m)) snprintf(why, n, "%s:%d: no interrupt at the wait", f, o->line);
        }
        if (!why[0] && m->unsupported[0]) snprintf(why, n, "unsupported: %s", m->unsupported);
    }
    max78000_free(m);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void)
{
    unit_t uu = {.name = "test_max78000_ai8x", .test = "ai8x_golden"}, *u = &uu;
    DIR *d = opendir(AI8X_DIR);
    if (!d) {
        printf("test_max78000_ai8x: SKIPPED: %s is absent\n", AI8X_DIR);
        return unit_done(u);
    }
    char *names[512];
    size_t nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nn < 512) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", AI8X_DIR, e->d_name);
        if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) names[nn++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, nn, sizeof *names, by_name);
    const char *only = getenv("AI8X_ONLY");
    unsigned pass = 0, skip = 0, fail = 0, ndefect = 0;
    size_t words = 0;
    for (size_t i = 0; i < nn; i++) {
        if (only && !strstr(names[i], only)) {
            free(names[i]);
            continue;
        }
        char path[1024], err[512], why[600];
        snprintf(path, sizeof path, "%s/%s", AI8X_DIR, names[i]);
        program_t p;
        program_init(&p, "max78000", "", 1);
        size_t w = 0;
        bool defect = false;
        for (const ai8x_defect_t *df = ai8x_defects; df->name; df++) defect |= !strcmp(df->name, names[i]);
        if (ai8x_import_ex(path, &p, false, err, sizeof err) != 0) snprintf(why, sizeof why, "reader: %s", err);
        else if (p.n && p.ops[0].kind == OP_SKIP) {
            printf("  skipped %s: %s\n", names[i], p.ops[0].text);
            skip++;
            why[0] = 0;
            program_free(&p);
            free(names[i]);
            continue;
        } else replay(&p, why, sizeof why, &w);
        if (defect) { /* a known-defective program must still fail: its entry would be stale otherwise */
            CHECK(why[0] != 0, "%s is listed in ai8x_defects[] but passes golden-only: remove the entry", names[i]);
            printf("  known defect %s: fails golden-only as expected (%s)\n", names[i], why);
            ndefect++;
        } else {
            CHECK(!why[0], "%s: %s", names[i], why);
            if (why[0]) fail++;
            else {
                pass++;
                words += w;
            }
        }
        program_free(&p);
        free(names[i]);
    }
    printf("test_max78000_ai8x: %u programs pass golden-only (%zu known-answer words), %u fail, %u known defects "
           "fail as expected, %u skipped (no program generated)\n",
           pass, words, fail, ndefect, skip);
    return unit_done(u);
}
