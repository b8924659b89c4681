// Generic simulation kernel: the only C++ in the testbench. It owns the Verilated model (VTOP, chosen at
// compile time), drives clk and rst_n, calls the C testbench after every rising edge, and opens/closes
// FST windows on request. Everything else (bus models, sequencing, checking) is C behind tb_api.h.
// The regression simulators are built without tracing (VM_TRACE 0); a run that asks for waves (+wave=) hands
// itself over to the traced twin built beside it (<this binary>-waves), with the same arguments.
#include "tb_api.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif
#include <unistd.h>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#define STR2(x) #x
#define STR(x) STR2(x)
#include STR(VTOP.h)

namespace
{
struct Kernel {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<VTOP> top;
#if VM_TRACE
    std::unique_ptr<VerilatedFstC> fst;
#endif
    uint64_t time = 0;
};
Kernel *g_kernel; // the one kernel of this process; reached only from the signal handler

#if VM_TRACE
int wave_open(void *k, const char *path, int levels, const char *scope)
{
    Kernel *kn = static_cast<Kernel *>(k);
    if (kn->fst) return 0;
    kn->fst.reset(new VerilatedFstC);
    kn->top->trace(kn->fst.get(), 99);
    if (scope && *scope) kn->fst->dumpvars(levels, scope);
    kn->fst->open(path);
    if (!kn->fst->isOpen()) {
        kn->fst.reset();
        return -1;
    }
    return 0;
}
void wave_close(void *k)
{
    Kernel *kn = static_cast<Kernel *>(k);
    if (kn->fst) {
        kn->fst->close();
        kn->fst.reset();
    }
}
void close_trace(Kernel *kn)
{
    if (kn && kn->fst) kn->fst->close();
}
void dump_trace(Kernel &k)
{
    if (k.fst) k.fst->dump(k.time);
}
#else
int wave_open(void *, const char *, int, const char *) { return -1; } // unreachable: see hand_over_for_waves
void wave_close(void *) {}
void close_trace(Kernel *) {}
void dump_trace(Kernel &) {}

// A run with +wave=<non-empty> becomes the traced twin (same arguments, same seed, so the same run); without
// one, it stops with the command that builds it.
void hand_over_for_waves(int argc, char **argv)
{
    bool wants = false;
    for (int i = 1; i < argc; i++)
        if (std::strncmp(argv[i], "+wave=", 6) == 0 && argv[i][6]) wants = true;
    if (!wants) return;
    std::string twin = std::string(argv[0]) + "-waves";
    if (access(twin.c_str(), X_OK) == 0) {
        std::fflush(stdout);
        execv(twin.c_str(), argv);
        std::fprintf(stderr, "ERROR: +wave: cannot run the traced simulator %s\n", twin.c_str());
    } else {
        std::fprintf(stderr,
                     "ERROR: +wave: %s is the fast build (no tracing); build its traced twin with "
                     "`make %s` (make waves and the regression's failing-job waves do it themselves)\n",
                     argv[0], twin.c_str() + (twin.rfind("./", 0) == 0 ? 2 : 0));
    }
    std::exit(2);
}
#endif
int verilator_errors(void *k) { return static_cast<Kernel *>(k)->ctx->errorCount(); }

void on_signal(int signo)
{
    // Close the trace so a crash still leaves a readable FST, then report and exit.
    close_trace(g_kernel);
    std::_Exit(tb_crash(signo));
}

void half_cycle(Kernel &k, int clk)
{
    k.top->clk = clk;
    k.top->eval();
    dump_trace(k);
    k.time += 5; // 10 time units per cycle (timescale 1ns/1ps: 100 MHz in the viewer)
}

// Power-on before the reset: rst_n high for a few clocks, so that the reset that follows is a falling edge of
// rst_n and of every reset synchroniser behind it. Verilator starts every signal at 0 with no event, so without
// that edge an asynchronous reset (always @(posedge clk or negedge rstn)) acts only at clock edges, and a flop
// whose clock is gated off during reset is never reset. nv_small's FIFO and SLCG clock gates are off while idle:
// its MCIF write context queue kept its free-address mask at 0 instead of all ones, wrote every entry to one
// RAM address and returned the last require-ack bit for all of them (docs/nv_small_fst.md). A 4-state simulator
// resets such flops at the X->0 edge. The testbench does not see these cycles: no tb_step, no trace, no time
// (the DPI ticks find no accelerator before the reset: sim_acc).
#ifndef TB_XRAND
constexpr int POWER_ON_CYCLES = 16; // > nv_small's reset synchroniser chain (rstn reaches its cq 5 clocks late)
void power_on(Kernel &k)
{
    k.top->rst_n = 1;
    for (int i = 0; i < POWER_ON_CYCLES; i++) {
        k.top->clk = 1;
        k.top->eval();
        k.top->clk = 0;
        k.top->eval();
    }
}
#endif
} // namespace

int main(int argc, char **argv)
{
#if !VM_TRACE
    hand_over_for_waves(argc, argv);
#endif
    Kernel k;
    g_kernel = &k;
    k.ctx.reset(new VerilatedContext);
    // Verilator's seed is derived from the run's +seed (tb_verilator_seed), never given apart: its own
    // +verilator+seed+ accepts only 1..2^31-1 and would abort a run with SEED=0 or SEED >= 2^31.
    std::unique_ptr<const char *[]> vargs(new const char *[argc + 1]);
    int vargc = 0;
    for (int i = 0; i < argc; i++)
        if (std::strncmp(argv[i], "+verilator+seed+", 16) != 0) vargs[vargc++] = argv[i];
    vargs[vargc] = nullptr;
    k.ctx->commandArgs(vargc, vargs.get());
#if VM_TRACE
    k.ctx->traceEverOn(true);
#endif
    k.ctx->errorLimit(1000); // keep running to collect messages; the error count decides the exit status
    for (int s : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGINT, SIGTERM}) std::signal(s, on_signal);

    tb_kernel_ops_t ops = {&k, wave_open, wave_close, verilator_errors};
    int rc = tb_init(argc, argv, &ops);
    if (rc != 0) return rc;
    // The model is built after the seed is known: with --x-initial unique (build/xrand/) its initial X values
    // are drawn at construction from this seed; TB_XRAND builds randomise them (+verilator+rand+reset+2).
    k.ctx->randSeed(tb_verilator_seed());
#ifdef TB_XRAND
    k.ctx->randReset(2);
#endif
    k.top.reset(new VTOP(k.ctx.get()));

    const uint64_t reset_cycles = tb_reset_cycles();
    uint64_t cycle = 0;
#ifndef TB_XRAND
    power_on(k); // not in X-randomised builds: our RTL only (free-running clocks), whose random unreset state
                 // would meet the SV protocol checks, which are live while rst_n is high
#endif
    k.top->rst_n = 0;
    k.top->clk = 0;
    k.top->eval();
    while (!k.ctx->gotFinish()) {
        k.top->rst_n = cycle >= reset_cycles;
        half_cycle(k, 1);
        if (tb_step() != TB_RUN) break;
        half_cycle(k, 0);
        ++cycle;
    }
    k.top->final();
    rc = tb_finish();
#if VM_COVERAGE
    // Code-coverage builds (make coverage): this run's line coverage, merged later by verilator_coverage.
    const char *dat = k.ctx->commandArgsPlusMatch("code_cov=");
    if (dat && *dat) k.ctx->coveragep()->write(dat + std::strlen("+code_cov="));
#endif
    g_kernel = nullptr;
    return rc;
}
