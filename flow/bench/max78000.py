#!/usr/bin/env python3
"""MAX78000 performance figures for `make bench` (flow/bench/__main__.py runs `run(jobs, repeats)` when
build/max78000/sim exists):
  1. simulated cycles/s and jobs/s of random networks (`test=net_random`, fixed seeds, one process,
     median over `repeats` passes);
  2. the SDK mnist inference on the RTL: engine cycles from the CNN start to done and for the whole trace,
     MACs per cycle, and the cycles against the ideal engine (one output pixel of one output channel per cycle per
     input pass; the testbench computes both from the layers the golden model ran), beside the figures before
     issue 12 (flow/bench/max78000_baseline.tsv); when ../shared/conformance is present (skipped, saying so,
     otherwise).
Standalone: python3 -m flow.bench.max78000 [--repeats N]
"""
import argparse
from flow.bench import lib as benchlib
import os
import re
import statistics
import sys

ROOT = benchlib.ROOT
SIM = os.path.join(ROOT, 'build', 'max78000', 'sim')
SEEDS = range(1, 6)     # fixed: the figures compare across commits
MNIST = os.path.join(ROOT, '..', 'shared', 'conformance', 'max78000', 'mnist', 'apb_trace.txt')


def run_sim(args):
    return benchlib.run_sim(SIM, args, who='bench_max78000')

def run(jobs, repeats):
    del jobs   # per-process figures
    res = {}
    rates, jrates = [], []
    for _ in range(repeats):
        tw = tc = tj = 0
        for s in SEEDS:
            w, c, j, _ = run_sim(['+test=net_random', f'+seed={s}', '+stall=0', '+quiet'])
            tw, tc, tj = tw + w, tc + c, tj + j
        rates.append(tc / tw)
        jrates.append(tj / tw)
    res['random'] = {'cycles_per_s': statistics.median(rates), 'jobs_per_s': statistics.median(jrates)}
    print(f"bench: MAX78000, test=net_random seeds {SEEDS.start}..{SEEDS.stop - 1} x {repeats} (medians)")
    print(f"  MAX78000 random networks, 1 process: {res['random']['cycles_per_s']:10,.0f} cycles/s "
          f"{res['random']['jobs_per_s']:6.2f} jobs/s")
    if not os.path.exists(MNIST):
        print("  MAX78000 mnist: skipped (../shared/conformance/max78000/mnist is absent)")
        return res
    w, total, _, out = run_sim([f'+trace={MNIST}', '+seed=1'])
    # The testbench counts the engine's busy cycles of each run ("RTL run N done in C cycles"); the wait
    # for the interrupt starts earlier, while queued APB writes still drain, so it would overstate the run.
    m = re.search(r'RTL run \d+ done in (\d+) cycles: (\d+) MACs, [\d.]+ MACs/cycle; .*? needs (\d+) cycles', out)
    if not m:
        sys.exit("bench_max78000: no 'RTL run 1 done in N cycles: M MACs ... needs I cycles' note in the mnist run")
    inference, macs, ideal = int(m.group(1)), int(m.group(2)), int(m.group(3))
    base = baseline().get('mnist')
    res['mnist'] = {'inference_cycles': inference, 'macs': macs, 'macs_per_cycle': macs / inference,
                    'ideal_cycles': ideal, 'trace_cycles': total, 'wall_s': w, 'before': base}
    print(f"  MAX78000 mnist on the RTL: inference {inference} cycles (engine busy, start to done), {macs:,} MACs = "
          f"{macs / inference:.2f} MACs/cycle, {inference / ideal:.2f}x the ideal engine's {ideal} cycles"
          + (f"; before issue 12: {base[0]} cycles, {base[1]:.2f} MACs/cycle" if base else ''))
    print(f"  MAX78000 mnist whole trace {total} cycles, {w:.1f} s ({total / w:,.0f} cycles/s)")
    return res


def baseline():
    """workload -> (engine cycles, MACs/cycle) before issue 12 (flow/bench/max78000_baseline.tsv)."""
    out = {}
    with open(os.path.join(ROOT, 'flow', 'bench', 'max78000_baseline.tsv')) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                name, cycles, mpc = line.split('\t')
                out[name] = (int(cycles), float(mpc))
    return out


if __name__ == '__main__':
    ap = argparse.ArgumentParser(prog='python3 -m flow.bench.max78000', description=__doc__)
    ap.add_argument('--repeats', type=int, default=1)
    run(0, ap.parse_args().repeats)
