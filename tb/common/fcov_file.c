/* fcov_write_plusarg: where a run's coverage goes (+cov=<file> or +cov=<dir>/); separate from fcov.c so
 * that the bin logic links without the simulator. */
#include "fcov.h"
#include "dut_info.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* The file a run's coverage goes to, opened for writing (the caller closes it), or NULL: no +cov, a failed
 * run, or an error (printed). */
static FILE *open_plusarg(sim_t *sim)
{
    const char *path = sim_plusarg(sim, "cov");
    if (!path || !*path) return NULL;
    if (sim_error_count(sim)) {
        fprintf(stderr, "NOTE: coverage not written: the run failed\n");
        return NULL;
    }
    const char *test = sim_plusarg(sim, "test");
    char file[1200];
    size_t len = strlen(path);
    struct stat st;
    if (path[len - 1] == '/' || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
        char dir[900];
        snprintf(dir, sizeof dir, "%.*s", (int)(path[len - 1] == '/' ? len - 1 : len), path);
        for (char *s = dir + 1; *s; s++)
            if (*s == '/') {
                *s = 0;
                mkdir(dir, 0777);
                *s = '/';
            }
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "ERROR: +cov=%s: cannot create the directory\n", path);
            return NULL;
        }
        /* traces and cfg files: named after the file, so that one entry per file does not overwrite */
        const char *stim = test && *test               ? test
                           : sim_plusarg(sim, "trace") ? sim_plusarg(sim, "trace")
                                                       : sim_plusarg(sim, "cfg");
        char name[200];
        snprintf(name, sizeof name, "%s", stim ? stim : "run");
        /* A driver test runs one vendor stimulus per entry (NVIDIA's firmware: a loadable; pulp-nnx: a layer
         * folder), named by a plusarg of that test: the file is named after it too, so entries do not overwrite. */
        static const struct {
            const char *test, *plusarg;
        } driver_stims[] = {{"fw", "loadable"}, {"pulpnnx", "pulpnnx"}};
        for (size_t i = 0; test && i < sizeof driver_stims / sizeof driver_stims[0]; i++) {
            const char *v = strcmp(test, driver_stims[i].test) == 0 ? sim_plusarg(sim, driver_stims[i].plusarg) : NULL;
            if (!v || !*v) continue;
            size_t n = strlen(v);
            while (n > 1 && v[n - 1] == '/') n--;
            size_t b = n;
            while (b > 0 && v[b - 1] != '/') b--;
            snprintf(name + strlen(name), sizeof name - strlen(name), "_%.*s", (int)(n - b), v + b);
        }
        for (char *s = name; *s; s++)
            if (*s == '/' || *s == '.') *s = '_';
        /* runs on another DUT than the default (e.g. nv_small) sample the same golden view: own file names */
        snprintf(file, sizeof file, "%s/%s.s%llu.stall%llu%s%s.cov", dir, name, (unsigned long long)sim_seed(sim),
                 (unsigned long long)sim_stall(sim), tb_dut.is_default ? "" : ".",
                 tb_dut.is_default ? "" : tb_dut.name);
    } else {
        snprintf(file, sizeof file, "%s", path);
    }
    FILE *f = fopen(file, "w");
    if (!f) fprintf(stderr, "ERROR: +cov: cannot write %s\n", file);
    return f;
}

void fcov_write_plusarg(const fcov_t *c, sim_t *sim)
{
    FILE *f = open_plusarg(sim);
    if (!f) return;
    fcov_write(c, f, sim_plusarg(sim, "test"), sim_seed(sim));
    fclose(f);
}
