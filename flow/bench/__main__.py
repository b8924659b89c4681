#!/usr/bin/env python3
"""`make bench`: performance figures, measured here and now (the machines are noisy: medians of repeats).

  1. BDMA regression speed: simulated cycles/s and jobs/s of constrained-random BDMA runs (one process),
     and regression throughput with --jobs parallel processes.
  2. Testbench share of run time: callgrind instruction counts split into testbench C (dpi/, tb/, golden/),
     the Verilated model and the Verilator runtime/libc (instruction counts are repeatable).
  3. Incremental rebuild time after touching one C file (relink only, no re-verilation).
  4. Cost of a windowed FST vs none (on the traced twin, build/nvdla/sim-waves).
  5. flow/bench/builds.py: every DUT's regression build against the previous default (Verilator 5.006, traced).
Other accelerators add their figures in flow/bench/<acc>.py: a module with `run(jobs, repeats) -> dict` that
prints its own lines; each is run after the NVDLA figures when its simulator is built.
Writes build/bench/bench.json as well.
"""
import argparse
import glob
import importlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from flow import dut_manifest
from flow.bench import lib as benchlib

ROOT = benchlib.ROOT
SIM = os.path.join(ROOT, 'build', 'nvdla', 'sim')


def run_sim(args, verdict='PASS'):
    wall, cycles, jobs, _ = benchlib.run_sim(SIM, [*args, '+quiet'], verdict)
    return wall, cycles, jobs

def bdma_speed(seeds, repeats):
    rates, jrates = [], []
    for _ in range(repeats):
        tw = tc = tj = 0
        for s in range(1, seeds + 1):
            w, c, j = run_sim(['+test=bdma_random', f'+seed={s}', '+stall=1'])
            tw, tc, tj = tw + w, tc + c, tj + j
        rates.append(tc / tw)
        jrates.append(tj / tw)
    return statistics.median(rates), statistics.median(jrates), tc, tj


def regression_throughput(jobs):
    with tempfile.NamedTemporaryFile('w', suffix='.list', delete=False) as f:
        f.write('nvdla test=bdma_random 60 +stall=1\n')
        lst = f.name
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, '-m', 'flow.regress', '--list', lst, '--jobs',
                        str(jobs), '--name', 'bench', '--no-waves'], cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - t0
    os.unlink(lst)
    m = re.search(r'(\d+) jobs passed', p.stdout)
    if p.returncode or not m:
        sys.exit('bench regression failed:\n' + p.stdout[-2000:])
    return int(m.group(1)) / wall, wall, int(m.group(1))


def callgrind_share():
    return benchlib.callgrind_share(SIM, ['+test=bdma_random', '+seed=3', '+stall=1', '+quiet'],
                                    'Vtb_nvdla', 'callgrind.out')

def rebuild_time(repeats):
    times = []
    for _ in range(repeats):
        os.utime(os.path.join(ROOT, 'tb', 'common', 'scoreboard.c'))
        t0 = time.monotonic()
        subprocess.run(['make', '-s', 'build/nvdla/sim'], cwd=ROOT, capture_output=True, check=True)
        times.append(time.monotonic() - t0)
    return statistics.median(times)


def wave_cost(repeats):
    """A long run (the memory never acknowledges, so the watchdog ends it after ~400k cycles): the cost of
    two 200-cycle windows versus no waves versus the whole run dumped."""
    args = ['+test=bdma_sanity', '+seed=1', '+fault=b_stuck']
    traced = dut_manifest.traced_sim(SIM)   # all three on the traced twin: the cost of recording, not of the build
    base = statistics.median(benchlib.run_sim(traced, [*args, '+quiet'], 'FAIL')[0] for _ in range(repeats))
    fst = os.path.join(ROOT, 'build', 'bench', 'w.fst')
    win = statistics.median(benchlib.run_sim(traced, args + [f'+wave={fst}', '+wave_from=100', '+wave_to=300',
                                                             '+quiet'], 'FAIL')[0]
                            for _ in range(repeats))
    full = statistics.median(benchlib.run_sim(traced, args + [f'+wave={fst}', '+quiet'], 'FAIL')[0]
                             for _ in range(max(1, repeats // 2)))
    return base, win, full


def main():
    ap = argparse.ArgumentParser(prog='python3 -m flow.bench',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--seeds', type=int, default=30)
    ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    os.makedirs(os.path.join(ROOT, 'build', 'bench'), exist_ok=True)
    res = {}
    print(f"bench: NVDLA BDMA, {a.seeds} seeds x {a.repeats} repeats (medians)")
    cps, jps, cyc, jobs = bdma_speed(a.seeds, a.repeats)
    res['bdma'] = {'cycles_per_s': cps, 'jobs_per_s': jps, 'cycles': cyc, 'jobs': jobs}
    print(f"  BDMA random, 1 process : {cps:12,.0f} cycles/s  {jps:8.1f} jobs/s   ({jobs} jobs, {cyc} cycles per pass)")
    tput, wall, n = regression_throughput(a.jobs)
    res['regression'] = {'jobs_per_s': tput, 'wall_s': wall, 'jobs': n, 'processes': a.jobs}
    print(f"  regression, {a.jobs} processes: {tput:8.1f} jobs/s   ({n} jobs in {wall:.1f} s incl. runner start-up)")
    shares, total = callgrind_share()
    res['callgrind'] = {k: {'Ir': v[0], 'percent': v[1]} for k, v in shares.items()}
    print(f"  run-time share (callgrind, {total:,} instructions, bdma_random seed 3):")
    for k, (v, pct) in shares.items():
        print(f"      {k:36} {pct:5.1f} %")
    rb = rebuild_time(a.repeats)
    res['rebuild_after_c_change_s'] = rb
    print(f"  incremental rebuild after touching tb/common/scoreboard.c: {rb:.2f} s (relink, no re-verilation)")
    base, win, full = wave_cost(5)
    res['waves'] = {'none_s': base, 'window_200_cycles_s': win, 'full_s': full}
    print(f"  waves, 400k-cycle run: none {base:.2f} s, one 200-cycle FST window {win:.2f} s "
          f"({win/base:.2f}x), whole run dumped {full:.2f} s ({full/base:.2f}x)")
    for path in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), '*.py'))):
        acc = os.path.basename(path)[:-3]          # nvdla_dp.py measures build/nvdla/sim
        if acc.startswith('__') or acc == 'lib':
            continue
        mod = importlib.import_module(f'flow.bench.{acc}')
        if not hasattr(mod, 'run'):                # driver_loop: standalone only (python3 -m flow.bench.driver_loop)
            continue
        if acc != 'builds' and not os.access(os.path.join(ROOT, 'build', acc.split('_')[0], 'sim'), os.X_OK):
            print(f"bench {acc}: build/{acc.split('_')[0]}/sim not built, skipped")
            continue
        res[acc] = mod.run(a.jobs, a.repeats)
    with open(os.path.join(ROOT, 'build', 'bench', 'bench.json'), 'w') as f:
        json.dump(res, f, indent=1)
    print("  written: build/bench/bench.json")
    return 0


if __name__ == '__main__':
    sys.exit(main())
