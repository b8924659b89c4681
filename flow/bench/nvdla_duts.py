#!/usr/bin/env python3
"""Our NVDLA RTL beside NVIDIA's nv_small on the same jobs; `run(jobs, repeats) -> dict` as flow/bench/__main__.py
expects.

For every available NVDLA DUT (tb/nvdla/duts/), the same seeded SDP, PDP and CDP jobs (random shapes with
memory backpressure, and the fixed perf shapes with an ideal memory) run one process at a time, repeated;
reported per DUT and engine: simulated cycles per wall-clock second (median over repeats) and cycles per job
(deterministic for a given seed), then the ratios nv_small / ours. The run is the same checked run as in a
regression: both DUTs must pass, or the bench stops with the run's output; a run that fails on a DUT with one
of that DUT's known deviations (tb/nvdla/duts/<dut>.deviations) is left out on every DUT, and said so.
Convolution: the fixed shapes of `test=conv_perf` (+stall=0), once per DUT: MACs per cycle from the job's MACs
(in its name) and the cycles from the enables to the layer's interrupts (the run's note), against the 8 x 8 = 64
MACs/cycle of nv_small's CMAC, and the ratio of the DUTs' cycles.
Standalone: python3 -m flow.bench.nvdla_duts [--repeats N]
"""
import argparse
import os
import re
import statistics
import sys

import subprocess

from flow.bench import lib as benchlib
from flow import deviations

from flow import dut_manifest

WORKLOADS = [   # (label, plusargs per seed, seeds)
    ('SDP random +stall=1', ['+test=sdp_random', '+stall=1'], range(1, 11)),
    ('PDP random +stall=1', ['+test=pdp_random', '+stall=1'], range(1, 11)),
    ('CDP random +stall=1', ['+test=cdp_random', '+stall=1'], range(1, 11)),
    ('SDP/PDP/CDP perf shapes +stall=0', None, range(1, 6)),
]


def workload_runs(args, seeds):
    if args is not None:
        return [args + [f'+seed={s}', f'+verilator+seed+{s}'] for s in seeds]
    return [[f'+test={e}_perf', '+stall=0', f'+seed={s}', f'+verilator+seed+{s}'] for e in ('sdp', 'pdp', 'cdp')
            for s in seeds]


CONV_PERF_SEEDS = range(1, 6)     # tb/nvdla/conv_gen.c perf_shapes
CONV_PEAK = 64                    # MACs/cycle of nv_small's 8 x 8 CMAC
CONV_NOTE = re.compile(r"job 'conv_perf\.macs(\d+)\.(\S+?)\.s\d+\..*?c(\d+)k\d+\.(\d+x\d+)\.[^']*' "
                       r"interrupt \S+ after (\d+) cycles")


def conv_perf(sim, seed):
    """(shape label, MACs, cycles from the enables to the interrupts) of conv_perf's job for seed."""
    _, _, _, out = benchlib.run_sim(sim, ['+test=conv_perf', '+stall=0', f'+seed={seed}'], who='bench_nvdla_duts')
    m = CONV_NOTE.search(out)
    if not m:
        sys.exit(f"bench_nvdla_duts: no conv_perf interrupt note in the output of {sim} seed {seed}")
    macs, out_shape, c, kern, cycles = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)
    return f"{kern} c{c} -> {out_shape}", int(macs), int(cycles)


def comparable(avail, runs):
    """The runs every DUT passes; a run failing on a DUT only with its known deviations is left out (printed)."""
    keep = []
    for args in runs:
        ok = True
        for d, sim in avail:
            p = subprocess.run([sim, *args, '+quiet'], cwd=benchlib.ROOT, capture_output=True, text=True)
            out = p.stdout + p.stderr
            if p.returncode == 0 and benchlib.RESULT.search(p.stdout):
                continue
            test = next(a.split('=', 1)[1] for a in args if a.startswith('+test='))
            known = deviations.classify(deviations.load('nvdla', None if d.default else d.name), test, out)
            if not known:
                sys.exit(f"bench_nvdla_duts: run failed: {sim} {' '.join(args)}\n{out[-3000:]}")
            print(f"  (left out on every DUT: {' '.join(args[:3])} fails on {d.name} with its known deviation "
                  f"{', '.join(known)})")
            ok = False
            break
        if ok:
            keep.append(args)
    return keep


def measure(sim, runs, repeats):
    """(median cycles/s over repeats of the whole workload, cycles per job, jobs)."""
    rates, cycles, jobs = [], 0, 0
    for _ in range(repeats):
        wall, cycles, jobs = 0.0, 0, 0
        for args in runs:
            w, c, j, _ = benchlib.run_sim(sim, args + ['+quiet'], who='bench_nvdla_duts')
            wall, cycles, jobs = wall + w, cycles + c, jobs + j
        rates.append(cycles / wall if wall else 0.0)
    return statistics.median(rates), cycles / jobs if jobs else 0.0, jobs


def run(jobs, repeats):
    del jobs                          # one process at a time: cycles/s of a single simulation
    duts = [d for d in dut_manifest.all_duts()['nvdla'].values()]
    duts.sort(key=lambda d: not d.default)
    avail = []
    for d in duts:
        why = d.unavailable()
        sim = os.path.join(benchlib.ROOT, d.build_dir, 'sim')
        if why or not os.access(sim, os.X_OK):
            why = why or f"{d.build_dir}/sim not built (make {d.build_target})"
            print(f"bench nvdla DUTs: {d.name} skipped: {why}")
            continue
        avail.append((d, sim))
    res = {}
    print(f"bench nvdla DUTs: the same jobs on {', '.join(d.name for d, _ in avail)} "
          f"(cycles/s: median of {repeats}, one process; cycles per job: deterministic)")
    for label, args, seeds in WORKLOADS:
        row = {}
        runs = comparable(avail, workload_runs(args, seeds))
        for d, sim in avail:
            cps, cpj, n = measure(sim, runs, repeats)
            row[d.name] = {'cycles_per_s': cps, 'cycles_per_job': cpj, 'jobs': n}
        res[label] = row
        cells = '  '.join(f"{n}: {v['cycles_per_s']:9,.0f} cycles/s {v['cycles_per_job']:8.0f} cycles/job"
                          for n, v in row.items())
        ratio = ''
        if len(row) == 2:
            (na, a), (nb, b) = row.items()
            ratio = (f"  | {nb}/{na}: {b['cycles_per_s'] / a['cycles_per_s']:.2f}x cycles/s, "
                     f"{b['cycles_per_job'] / a['cycles_per_job']:.2f}x cycles/job")
        print(f"  {label:34} {cells}{ratio}")
    conv = [(d, sim) for d, sim in avail if 'conv' in d.features]
    if conv:
        print(f"  convolution (test=conv_perf +stall=0; MACs/cycle of the {CONV_PEAK}-MAC array, cycles from the "
              f"enables to the interrupts):")
        res['conv_perf'] = {}
        for seed in CONV_PERF_SEEDS:
            row = {}
            for d, sim in conv:
                shape, macs, cycles = conv_perf(sim, seed)
                row[d.name] = {'shape': shape, 'macs': macs, 'cycles': cycles, 'macs_per_cycle': macs / cycles}
            res['conv_perf'][shape] = row
            cells = '  '.join(f"{n}: {v['cycles']:7d} cycles {v['macs_per_cycle']:5.1f} MACs/cycle "
                              f"({100 * v['macs_per_cycle'] / CONV_PEAK:3.0f} %)" for n, v in row.items())
            ratio = ''
            if len(row) == 2:
                (na, a), (nb, b) = row.items()
                ratio = f"  | {na}/{nb} cycles: {a['cycles'] / b['cycles']:.2f}"
            print(f"    {shape:28} {cells}{ratio}")
    return res


if __name__ == '__main__':
    ap = argparse.ArgumentParser(prog='python3 -m flow.bench.nvdla_duts',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--repeats', type=int, default=3)
    run(1, ap.parse_args().repeats)
