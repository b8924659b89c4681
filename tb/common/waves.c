#define _XOPEN_SOURCE 700 /* realpath */
#include "waves.h"
#include "sim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PS_PER_CYCLE = 10 }; /* the kernel advances time by 10 units (ns) per cycle */

void waves_init(wave_ctl_t *w, sim_t *s, const tb_kernel_ops_t *kops, const char *scope, const char *const *signals)
{
    memset(w, 0, sizeof *w);
    w->kops = kops;
    w->scope = scope;
    w->signals = signals;
    w->path = sim_plusarg(s, "wave");
    w->gtkw = sim_plusarg(s, "gtkw");
    w->enabled = w->path && *w->path;
    w->from = sim_plusarg_u64(s, "wave_from", 0);
    w->to = sim_plusarg_u64(s, "wave_to", UINT64_MAX);
    w->marker = sim_plusarg_u64(s, "wave_marker", 0);
}

void waves_step(wave_ctl_t *w, uint64_t cycle)
{
    if (!w->enabled) return;
    if (!w->open && cycle >= w->from && cycle < w->to) {
        /* Everything below the testbench top (level 0 = all levels): bus wires, DUT state, job registers. */
        if (w->kops->wave_open(w->kops->kernel, w->path, 0, w->scope) != 0) {
            fprintf(stderr, "ERROR: cannot open wave file %s\n", w->path);
            w->enabled = false;
            return;
        }
        w->open = true;
        w->opened_at = cycle;
        printf("waves: recording %s from cycle %llu\n", w->path, (unsigned long long)cycle);
    } else if (w->open && cycle >= w->to) {
        w->kops->wave_close(w->kops->kernel);
        w->open = false;
        w->enabled = false;
    }
}

/* The path of `file` relative to the folder of `from` (both must exist), into out; false when unknown. */
static bool relative_to(const char *file, const char *from, char *out, size_t n)
{
    char a[4096], b[4096];
    if (!realpath(file, a) || !realpath(from, b)) return false;
    char *slash = strrchr(b, '/');
    *slash = '\0';        /* b: the folder of `from` */
    size_t i = 0, common; /* common: the '/' ending the folders both share */
    while (a[i] && a[i] == b[i]) i++;
    if (b[i] == '\0' && a[i] == '/') {
        common = i; /* `file` is under the folder of `from` */
    } else {
        common = i ? i - 1 : 0;
        while (common > 0 && a[common] != '/') common--;
    }
    size_t used = 0;
    for (const char *p = b + common; *p; p++) /* one ".." per folder of b below the common prefix */
        if (*p == '/') used += (size_t)snprintf(out + used, used < n ? n - used : 0, "../");
    snprintf(out + (used < n ? used : n - 1), used < n ? n - used : 1, "%s", a + common + 1);
    return used < n;
}

static void write_gtkw(const wave_ctl_t *w, uint64_t marker_cycle)
{
    FILE *f = fopen(w->gtkw, "w");
    if (!f) {
        fprintf(stderr, "ERROR: cannot write %s\n", w->gtkw);
        return;
    }
    /* Relative to the save file, never absolute, so that a moved or copied folder of waves still opens:
     * GTKWave resolves [dumpfile] against the [savefile] it was written as, relocated to where the save
     * file now is (`gtkwave <fst> <gtkw>` works from anywhere). */
    char fst[4096];
    if (!relative_to(w->path, w->gtkw, fst, sizeof fst)) snprintf(fst, sizeof fst, "%s", w->path);
    const char *base = strrchr(w->gtkw, '/');
    fprintf(f, "[*] accel-cosim: failing job window, marker at cycle %llu\n", (unsigned long long)marker_cycle);
    fprintf(f, "[dumpfile] \"%s\"\n", fst);
    fprintf(f, "[savefile] \"%s\"\n", base ? base + 1 : w->gtkw);
    fprintf(f, "[size] 1600 900\n[pos] -1 -1\n");
    /* zoom, primary marker (time units), then 26 unnamed markers */
    fprintf(f, "*-8.000000 %llu", (unsigned long long)(marker_cycle * PS_PER_CYCLE));
    for (int i = 0; i < 26; i++) fprintf(f, " -1");
    /* Open the view on the failure, the marker three quarters into a ~125-cycle view. GTKWave 3.3 honours
     * [timestart] only after the zoom/marker line, and resets a view that would end past the dump's end
     * to time 0 (both checked with screenshots under Xvfb). */
    uint64_t view_start = marker_cycle > w->opened_at + 96 ? marker_cycle - 96 : w->opened_at;
    fprintf(f, "\n[timestart] %llu\n", (unsigned long long)(view_start * PS_PER_CYCLE));
    fprintf(f, "[sst_width] 260\n[signals_width] 320\n[sst_expanded] 1\n");
    for (const char *const *sig = w->signals; sig && *sig; sig++) {
        if ((*sig)[0] == '-') { /* "-Comment" lines group the signals */
            fprintf(f, "@200\n%s\n", *sig);
            continue;
        }
        fprintf(f, "@%s\n%s\n", strchr(*sig, '[') ? "22" : "28", *sig);
    }
    fclose(f);
    printf("waves: GTKWave save file %s (open with: gtkwave %s)\n", w->gtkw, w->gtkw);
}

void waves_finish(wave_ctl_t *w, uint64_t cycle, uint64_t fail_cycle)
{
    if (w->open) {
        w->kops->wave_close(w->kops->kernel);
        w->open = false;
        printf("waves: %s covers cycles %llu..%llu\n", w->path, (unsigned long long)w->opened_at,
               (unsigned long long)cycle);
    }
    if (w->gtkw && *w->gtkw && w->path && *w->path)
        write_gtkw(w, w->marker ? w->marker : (fail_cycle ? fail_cycle : cycle));
}

bool waves_recording(const wave_ctl_t *w) { return w->open; }
