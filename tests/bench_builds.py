#!/usr/bin/env python3
"""The regression build beside the previous default, per DUT, measured side by side in one run; called by
tests/bench.py as `run(jobs, repeats) -> dict`.

The simulators that run regressions (`build/<acc>[-<dut>]/sim`) are built without tracing; before, every
simulator had FST tracing compiled in (`--trace-fst --trace-structs`), which is what the traced twin
`sim-waves` still is (built on first use, for failing-job waves). For every available DUT the same checked
runs (a fixed workload per accelerator, below) go through both binaries, interleaved run by run, `repeats`
times; reported: simulated cycles per CPU-second of each build (median over the repeats of the workload's
total cycles / total CPU time of the simulator processes) and the ratio regression / traced. Both builds must pass every run
(the bench stops with the run's output otherwise) and simulate the same cycles (checked).
Standalone: python3 tests/bench_builds.py [--repeats N]
"""
import argparse
import os
import statistics
import sys

import benchlib

sys.path.insert(0, os.path.join(benchlib.ROOT, 'tb', 'common'))
import dut_manifest  # noqa: E402

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
    print(f"bench builds: regression build (no tracing) vs the previous default (FST tracing compiled in), "
          f"same runs interleaved, medians of {repeats}")
    res = {}
    for d in (d for duts in dut_manifest.all_duts().values() for d in duts.values()):
        runs = WORKLOADS.get(d.acc)
        if not runs:
            continue
        label = f"{d.acc}@{d.name}"
        why = d.unavailable()
        sim = os.path.join(benchlib.ROOT, d.build_dir, 'sim')
        if why or not os.access(sim, os.X_OK):
            print(f"  {label:18} skipped: {why or d.build_dir + '/sim is not built (make build-upstream)'}")
            continue
        traced = dut_manifest.traced_sim(sim)
        fast_cps, traced_cps = [], []
        for _ in range(repeats):
            wf, cf = measure(sim, runs)
            wt, ct = measure(traced, runs)
            if cf != ct:
                sys.exit(f"bench_builds: {label}: the two builds simulated different cycles ({cf} vs {ct})")
            fast_cps.append(cf / wf)
            traced_cps.append(ct / wt)
        f, t = statistics.median(fast_cps), statistics.median(traced_cps)
        res[label] = {'regression_cycles_per_s': f, 'traced_cycles_per_s': t, 'ratio': f / t, 'cycles': cf,
                      'runs': len(runs)}
        print(f"  {label:18} regression {f:10,.0f} cycles/CPU-s   traced (previous default) {t:10,.0f} cycles/CPU-s   "
              f"ratio {f / t:4.2f}x   ({len(runs)} runs, {cf:,} cycles)")
    return res


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--repeats', type=int, default=3)
    run(1, ap.parse_args().repeats)
