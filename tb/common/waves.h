/* FST windows: +wave=<file.fst> with +wave_from=<cycle> and +wave_to=<cycle> records only that window (the
 * regression re-runs a failing job with the window around it); +gtkw=<file> writes a GTKWave save file
 * with the accelerator's signals and a marker at the failure cycle (+wave_marker=<cycle>, else the cycle
 * of the first error). */
#ifndef WAVES_H
#define WAVES_H
#include "tb_api.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct sim sim_t;

typedef struct wave_ctl {
    const tb_kernel_ops_t *kops;
    const char *path, *gtkw, *scope;
    const char *const *signals;
    uint64_t from, to, marker, opened_at;
    bool open, enabled;
} wave_ctl_t;

void waves_init(wave_ctl_t *w, sim_t *s, const tb_kernel_ops_t *kops, const char *scope, const char *const *signals);
void waves_step(wave_ctl_t *w, uint64_t cycle);
void waves_finish(wave_ctl_t *w, uint64_t cycle, uint64_t fail_cycle);
/* True while a wave window is recording: a failed run then keeps simulating for a short tail so the
 * viewer shows what follows the failure. */
bool waves_recording(const wave_ctl_t *w);
#endif
