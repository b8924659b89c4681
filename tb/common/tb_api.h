/* The interface between the generic C++ simulation kernel (sim_kernel.cpp) and the C testbench.
 * The kernel owns the Verilated model, the clock, reset and FST windows; the C side owns everything
 * else and asks the kernel for waves through tb_kernel_ops_t. */
#ifndef TB_API_H
#define TB_API_H
#include <stdbool.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct tb_kernel_ops {
    void *kernel;
    /* Open an FST file recording `levels` levels below `scope` ("" = everything). 0 on success. */
    int (*wave_open)(void *kernel, const char *path, int levels, const char *scope);
    void (*wave_close)(void *kernel);
    int (*verilator_errors)(void *kernel); /* $error/$fatal count seen by the Verilated model */
} tb_kernel_ops_t;

enum { TB_RUN = 0, TB_STOP = 1 };
/* Exit status of a run that was skipped (a test the DUT cannot run, stimulus of a unit not built): 77, the
 * automake/ctest convention for "skipped", so that no caller mistakes it for a pass (0) or a failure (1). */
enum { TB_EXIT_SKIP = 77 };

/* Parse plusargs, build the accelerator context. Returns 0, or an exit status to stop with. */
int tb_init(int argc, char **argv, const tb_kernel_ops_t *ops);
/* Verilator's random seed (1..2^31-1, what +verilator+seed+ accepts) derived from the run's seed (known once
 * tb_init returned): X randomisation and $random follow +seed. */
int tb_verilator_seed(void);
/* Cycles the kernel holds rst_n low after time 0. */
uint64_t tb_reset_cycles(void);
/* Called once after every rising edge has been evaluated. Returns TB_RUN or TB_STOP. */
int tb_step(void);
/* Ends the run (closes waves via ops, writes reports). Returns the process exit status. */
int tb_finish(void);
/* The kernel caught a signal: record it and finish; returns the exit status. */
int tb_crash(int signo);
#ifdef __cplusplus
}
#endif
#endif
