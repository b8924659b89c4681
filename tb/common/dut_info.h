/* The design under test a simulator was built for: generated at build time from tb/<acc>/duts/<dut>.dut by
 * flow/dut_manifest.py (build/<acc>[-<dut>]/dut_info.c). Read-only data: the accelerator's tests ask it
 * which features the DUT implements, the simulator names it in reports and repro lines, and its signal
 * list (relative to the DUT instance) goes into the failing-job GTKWave save file. */
#ifndef DUT_INFO_H
#define DUT_INFO_H
#include <stdbool.h>
#include <stddef.h>

typedef struct dut_info {
    const char *acc, *name, *describe, *source, *root;
    int is_default;                  /* the accelerator's default DUT (our embedded RTL) */
    const char *const *features;     /* NULL-terminated */
    const char *const *wave_signals; /* NULL-terminated; "-Group" lines start a group */
} dut_info_t;

extern const dut_info_t tb_dut;

bool dut_has(const char *feature); /* narrowed by the plusarg +features=a,b,... when given */
/* `needs` is a space-separated feature list. Returns true when the DUT has them all; otherwise writes
 * "needs feature(s) X, which DUT D does not implement" into why. */
bool dut_provides(const char *needs, char *why, size_t n);
#endif
