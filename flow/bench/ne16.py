#!/usr/bin/env python3
"""NE16 performance figures for `make bench` (flow/bench/__main__.py runs `run(jobs, repeats)` when build/ne16/sim
exists).

  1. Simulation speed: simulated cycles/s and jobs/s of `test=random` over a fixed set of seeds, one process
     at a time (median over `repeats` passes; the machines are noisy).
  2. Engine throughput: per throughput job (every `test=perf_*` the simulator lists, +stall=0: each layer at
     Qw = 2, 4, 6, 8): MACs computed here from the layer shape in the job name (stride 1, no padding:
     3x3/depthwise Ho = Hi-2, Wo = Wi-2), cross-checked against the testbench's own count, divided by the cycles
     from trigger to done event (`+perf`); the cycles against the ideal (MACs / the bit-plane array's peak for
     the mode and Qw, peak_macs below) and beside the figures of an earlier engine where
     flow/bench/ne16_baseline.tsv has them (commit 2c058b4) and, when build/ne16-pulp/sim is built, PULP's NE16
     on the same job (its cycles and PULP/ours).
  3. Testbench share of run time: callgrind instruction counts of one random run, classified by symbol:
     Vtb_ne16* = Verilated model, sources under dpi/, tb/, golden/ = testbench, the rest = runtime/libc.
Standalone: python3 -m flow.bench.ne16 [--repeats N]
"""
import argparse
from flow.bench import lib as benchlib
import os
import re
import statistics
import subprocess
import sys

ROOT = benchlib.ROOT
SIM = os.path.join(ROOT, 'build', 'ne16', 'sim')
PULP_SIM = os.path.join(ROOT, 'build', 'ne16-pulp', 'sim')   # PULP's NE16 as the DUT (make build-upstream)
BASELINE = os.path.join(ROOT, 'flow', 'bench', 'ne16_baseline.tsv')

def peak_macs(mode, qw):
    """MACs per cycle of the bit-plane array (rtl/ne16/ne16_bitplane_array.sv, 9 x 9 x 16 one-bit cells) when
    the operands are there: 3x3 one bit plane of 9 taps x 16 channels x 9 pixels per cycle; 1x1 every plane of
    16 channels x 9 pixels; depthwise every plane of 9 taps x 9 pixels of one channel; linear 4 planes of 256
    inputs per cycle (docs/ne16_engine.md)."""
    if mode == '3x3':
        return 9 * 9 * 16 / qw
    if mode == '1x1':
        return 9 * 16
    if mode == 'dw':
        return 9 * 9
    return 256 / -(-qw // 4)
SEEDS = range(1, 11)          # fixed: the figures compare across commits
CALLGRIND_SEED = 3


def run_sim(args, sim=SIM):
    return benchlib.run_sim(sim, args, who='bench_ne16')

def random_speed(repeats):
    rates, jrates = [], []
    for _ in range(repeats):
        tw = tc = tj = 0
        for s in SEEDS:
            w, c, j, _ = run_sim(['+test=random', f'+seed={s}', f'+verilator+seed+{s}', '+quiet'])
            tw, tc, tj = tw + w, tc + c, tj + j
        rates.append(tc / tw)
        jrates.append(tj / tw)
    return statistics.median(rates), statistics.median(jrates), tc, tj


def baseline():
    """{test: (cycles, macs)} of the previous engine (flow/bench/ne16_baseline.tsv), in table order."""
    rows = {}
    with open(BASELINE) as f:
        for line in f:
            if line.startswith('#') or line.startswith('test\t') or not line.strip():
                continue
            t, cyc, macs = line.split('\t')
            rows[t] = (int(cyc), int(macs))
    return rows


def layer_macs(mode, ki, ko, hi, wi):
    if mode == '3x3':
        return 9 * ki * ko * (hi - 2) * (wi - 2)
    if mode == 'dw':
        return 9 * ko * (hi - 2) * (wi - 2)
    if mode == '1x1':
        return ki * ko * hi * wi
    return ki * ko                                  # linear


def macs_per_cycle(test, sim=SIM):
    _, _, _, out = run_sim([f'+test={test}', '+seed=1', '+verilator+seed+1', '+stall=0', '+perf'], sim)
    shape = re.search(r'perf (3x3|dw|1x1|linear) ki(\d+)/ko(\d+)/(\d+)x(\d+)/q(\d+) \((\d+) MACs\)', out)
    perf = re.search(r'^perf: job \d+: (\d+) cycles, (\d+) MACs', out, re.M)
    if not shape or not perf:
        sys.exit(f"bench_ne16: {test} output not understood:\n{out[-2000:]}")
    mode = shape.group(1)
    ki, ko, hi, wi = (int(shape.group(i)) for i in range(2, 6))
    macs = layer_macs(mode, ki, ko, hi, wi)
    if macs != int(shape.group(7)) or macs != int(perf.group(2)):
        sys.exit(f"bench_ne16: {test}: MACs from the shape ({macs}) disagree with the generator ({shape.group(7)}) "
                 f"or the testbench ({perf.group(2)})")
    cycles = int(perf.group(1))
    ideal = int(-(-macs // peak_macs(mode, int(shape.group(6)))))
    return {'shape': f"{mode} Ki={ki} Ko={ko} {hi}x{wi} Qw={shape.group(6)}", 'macs': macs, 'cycles': cycles,
            'macs_per_cycle': macs / cycles, 'ideal_cycles': ideal, 'of_ideal': ideal / cycles}


def perf_tests():
    """The throughput jobs, in the simulator's order (`+test=?`: tb/ne16/ne16_directed.c perf_jobs[])."""
    p = subprocess.run([SIM, '+test=?'], cwd=ROOT, capture_output=True, text=True)
    tests = re.findall(r'^\s+(perf_\w+)\s', p.stdout + p.stderr, re.M)
    if not tests:
        sys.exit(f"bench_ne16: {SIM} +test=? lists no perf_* test:\n{(p.stdout + p.stderr)[-2000:]}")
    return tests


def callgrind_share():
    s = CALLGRIND_SEED
    return benchlib.callgrind_share(SIM, ['+test=random', f'+seed={s}', f'+verilator+seed+{s}', '+quiet'], 'Vtb_ne16',
                                    'callgrind_ne16.out')

def run(jobs, repeats):
    """jobs: unused (the figures are per process); repeats: passes over the seeds for the speed medians."""
    del jobs
    res = {}
    print(f"bench: NE16, test=random seeds {SEEDS.start}..{SEEDS.stop - 1} x {repeats} repeats (medians)")
    cps, jps, cyc, njobs = random_speed(repeats)
    res['random'] = {'cycles_per_s': cps, 'jobs_per_s': jps, 'cycles': cyc, 'jobs': njobs,
                     'seeds': [SEEDS.start, SEEDS.stop - 1]}
    print(f"  NE16 random, 1 process : {cps:12,.0f} cycles/s  {jps:8.1f} jobs/s   "
          f"({njobs} jobs, {cyc} cycles per pass)")
    print("  NE16 throughput jobs (no stalls; ideal = MACs / the array's peak for the mode and Qw; before = commit "
          "2c058b4, flow/bench/ne16_baseline.tsv):")
    pulp = os.access(PULP_SIM, os.X_OK)
    print(f"      {'test':16} {'layer':32} {'cycles':>8} {'ideal':>7} {'of ideal':>8} {'MACs/cyc':>8}   "
          f"{'before':>8} {'MACs/cyc':>8} {'speed-up':>8}" + (f"   {'PULP':>8} {'PULP/ours':>9}" if pulp else ""))
    before = baseline()
    for test in perf_tests():
        mp = macs_per_cycle(test)
        line = (f"      {test:16} {mp['shape']:32} {mp['cycles']:8} {mp['ideal_cycles']:7} "
                f"{100 * mp['of_ideal']:7.1f}% "
                f"{mp['macs_per_cycle']:8.2f}   ")
        if test in before:
            bcyc, bmacs = before[test]
            mp['before'] = {'cycles': bcyc, 'macs_per_cycle': bmacs / bcyc}
            line += f"{bcyc:8} {bmacs / bcyc:8.2f} {bcyc / mp['cycles']:7.2f}x"
        else:
            line += f"{'-':>8} {'-':>8} {'-':>8}"
        if pulp:
            pp = macs_per_cycle(test, PULP_SIM)
            mp['pulp'] = {'cycles': pp['cycles'], 'macs_per_cycle': pp['macs_per_cycle']}
            line += f"   {pp['cycles']:8} {pp['cycles'] / mp['cycles']:8.2f}x"
        res[test] = mp
        print(line)
    if not pulp:
        print(f"      (PULP's NE16 not built: {os.path.relpath(PULP_SIM, ROOT)}; make build-upstream adds its cycles)")
    shares, total = callgrind_share()
    res['callgrind'] = {k: {'Ir': v, 'percent': pct} for k, (v, pct) in shares.items()}
    print(f"  NE16 run-time share (callgrind, {total:,} instructions, random seed {CALLGRIND_SEED}):")
    for k, (v, pct) in shares.items():
        print(f"      {k:36} {pct:5.1f} %")
    return res


if __name__ == '__main__':
    ap = argparse.ArgumentParser(prog='python3 -m flow.bench.ne16', description=__doc__.split('\n')[0])
    ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    if not os.access(SIM, os.X_OK):
        sys.exit(f"bench_ne16: {SIM} not built (make build/ne16/sim)")
    run(os.cpu_count() or 2, a.repeats)
