/* The printed inference time against the bench's cycles (vp_inftime.h). The bench's figure is the engine cycles the
 * scoreboard accounts for the firmware's job (max78000_tb.c: one RTL run from the start write to the end of busy);
 * the CNN clock is the core clock (100 MHz, IPO) over the platform's clock ratio (vp_cpu.c). The firmware's timer
 * runs a little longer than the engine (the store that starts it, the interrupt's entry, the handler's instructions
 * before MXC_TMR_SW_Stop) and prints whole microseconds: the tolerance covers that, in percent of the bench's. */
#include "vp_inftime.h"
#include "scoreboard.h"
#include <stdlib.h>
#include <string.h>

#define CORE_MHZ 100.0
static const char KEY[] = "inference time: "; /* mnist: "Approximate inference time: %u us" (ai8xize: "data loading and
                                                 inference time"; rps, faceid: "loading and inference time") */

void vp_inftime_line(vp_t *v, const char *line, size_t n)
{
    char buf[160];
    if (n >= sizeof buf) return;
    memcpy(buf, line, n);
    buf[n] = 0;
    const char *at = strstr(buf, KEY);
    if (!at) return;
    char *end;
    unsigned long us = strtoul(at + sizeof KEY - 1, &end, 10);
    if (end == at + sizeof KEY - 1 || strncmp(end, " us", 3)) return;
    v->printed_us = (long long)us;
    v->printed_what = strstr(buf, "loading") ? "loading and inference" : "inference";
}

void vp_inftime_check(vp_t *v)
{
    const char *tol_s = sim_plusarg(v->sim, "fw_time_tol");
    if (!tol_s || !*tol_s) return;
    char *end;
    double tol = strtod(tol_s, &end);
    if (*end || tol < 0) drv_fail(v->drv, "+fw_time_tol=%s: expected a tolerance in whole percent, e.g. 1", tol_s);
    uint64_t cycles = sb_current(sim_scoreboard(v->sim))->engine_cycles;
    if (sim_plusarg(v->sim, "golden_only"))
        drv_fail(v->drv, "+fw_time_tol=: golden-only, the CNN takes no time (no RTL): the printed time is not "
                         "comparable; check it on our RTL");
    if (v->printed_us < 0)
        drv_fail(v->drv, "+fw_time_tol=: the firmware printed no \"inference time: <n> us\" line on UART0");
    if (!cycles) drv_fail(v->drv, "+fw_time_tol=: no RTL run of the CNN was timed (no engine cycles)");
    double mhz = CORE_MHZ / v->clk_ratio, bench_us = (double)cycles / mhz,
           off = 100.0 * ((double)v->printed_us - bench_us) / bench_us;
    if (off > tol || off < -tol)
        drv_fail(v->drv,
                 "the firmware's printed %s time, %lld us, is off by %+.2f%% from the bench's: its RTL ran the CNN for "
                 "%llu cycles = %.1f us at %.0f MHz (tolerance %g%%, +fw_time_tol=)",
                 v->printed_what, v->printed_us, off, (unsigned long long)cycles, bench_us, mhz, tol);
    sim_note(v->sim,
             "firmware %s time %lld us against the bench's %llu engine cycles = %.1f us at %.0f MHz: %+.2f%% "
             "(tolerance %g%%)",
             v->printed_what, v->printed_us, (unsigned long long)cycles, bench_us, mhz, off, tol);
    sim_count_check(v->sim);
}
