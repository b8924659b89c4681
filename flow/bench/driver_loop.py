#!/usr/bin/env python3
"""What the driver-in-the-loop coroutine costs per register access (docs/drivers.md): a native trace of N CSB
reads run by the sequencer directly and played through the coroutine (+via_driver), interleaved, medians of
REPEAT runs each, CPU time of the process. Golden-only (no RTL: the bus answers at once, so the coroutine's share is
as large as it can be) and on the RTL (what a user sees). Both ways run the same cycles; the difference of CPU
times over N is the cost of one access's two context switches.
    python3 -m flow.bench.driver_loop [--reads N] [--repeat R]"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # flow/bench/ -> the checkout
SIM = os.path.join(ROOT, 'build', 'nvdla', 'sim')


def one(args):
    """(cycles, CPU seconds of the simulator process): CPU time, not wall time, so that other processes on a
    shared machine disturb the figure less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([SIM] + args, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    m = re.search(r'^PASS \S* seed \d+: (\d+) cycles', out, re.M)
    if not m:
        sys.exit(f'bench_driver_loop: run failed: {" ".join(args)}\n{out[-2000:]}')
    return int(m.group(1)), (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(prog='python3 -m flow.bench.driver_loop', )
    ap.add_argument('--reads', type=int, default=100000)
    ap.add_argument('--repeat', type=int, default=5)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for mode, n, extra in (('golden-only', a.reads, ['+golden_only']), ('RTL (ours)', a.reads // 10, [])):
            trace = os.path.join(tmp, f'reads{n}.trace')
            with open(trace, 'w') as f:
                f.write('acc nvdla\nname reads\njob reads\n')
                f.writelines('r 9048 00000000 00000000\n' for _ in range(n))   # SDP.D_DST_BASE_ADDR_LOW, unchecked
            base = [f'+trace={trace}', '+seed=1', '+quiet'] + extra
            direct, via = [], []
            for _ in range(a.repeat):
                direct.append(one(base))
                via.append(one(base + ['+via_driver']))
            cyc = {c for c, _ in direct + via}
            td, tv = statistics.median(t for _, t in direct), statistics.median(t for _, t in via)
            print(f'{mode}: {n} reads, cycles {"/".join(map(str, sorted(cyc)))} (same both ways: {len(cyc) == 1}); '
                  f'median CPU time: sequencer {td:.3f} s, coroutine {tv:.3f} s, ratio {tv / td:.2f}; '
                  f'coroutine cost per access {(tv - td) / n * 1e9:.0f} ns')
    return 0


if __name__ == '__main__':
    sys.exit(main())
