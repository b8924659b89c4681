#!/usr/bin/env python3
"""NVDLA datapath performance figures (SDP, PDP, CDP); `run(jobs, repeats) -> dict` as flow/bench/__main__.py expects.

  1. Engine throughput: for a few fixed shapes (tests sdp_perf / pdp_perf / cdp_perf; the seed picks the
     shape, the job name carries W x H x C and the element count W*H*8*ceil(C/8)), the cycles from the last
     CSB write of the job (its D_OP_ENABLE) to the GLB done interrupt, with an ideal memory (+stall=0) and
     with backpressure (+stall=1). nv_small's engines process one int8 element per cycle, so elements/cycle
     >= 1 means nv_small throughput or better. The cycle count is deterministic for +stall=0.
  2. Testbench share of run time for an SDP job: callgrind instruction counts (--auto=no), classified by
     symbol as flow/bench/__main__.py does: sources under dpi/, tb/, golden/ = testbench C, Vtb_nvdla* = Verilated
     model, the rest = Verilator runtime / libc.
Standalone: python3 -m flow.bench.nvdla_dp [--repeats N]     (needs build/nvdla/sim)
"""
import argparse
from flow.bench import lib as benchlib
import os
import re
import subprocess
import sys

ROOT = benchlib.ROOT
SIM = os.path.join(ROOT, 'build', 'nvdla', 'sim')
SHAPES = range(1, 6)          # seeds 1..5 = the five fixed shapes of tb/nvdla/dp_perf_gen.c
ENGINES = ('sdp', 'pdp', 'cdp')
CALLGRIND_ARGS = ['+test=sdp_random', '+seed=3', '+verilator+seed+3', '+stall=1', '+quiet']


def run_sim(args):
    wall, _, _, out = benchlib.run_sim(SIM, args, who='bench_nvdla_dp')
    return wall, out          # job NOTE lines go to stderr; benchlib returns stdout + stderr

def engine_cycles(engine, seed, stall):
    """(shape, elements, cycles from enable to interrupt) of one fixed-shape job."""
    _, out = run_sim([f'+test={engine}_perf', f'+seed={seed}', f'+stall={stall}'])
    job = re.search(r"job '(\w+)_perf\.(\d+x\d+x\d+)\.elems(\d+)' start", out)
    irq = re.search(r"interrupt 0x[0-9a-f]+ after (\d+) cycles", out)
    if not job or not irq:
        sys.exit(f"bench_nvdla_dp: cannot parse {engine}_perf seed {seed}:\n{out[-2000:]}")
    return job.group(2), int(job.group(3)), int(irq.group(1))


def throughput():
    res = {}
    for eng in ENGINES:
        rows = []
        for seed in SHAPES:
            shape, elems, c0 = engine_cycles(eng, seed, 0)
            c1 = engine_cycles(eng, seed, 1)[2]
            rows.append({'shape': shape, 'elements': elems, 'cycles_stall0': c0, 'cycles_stall1': c1,
                         'elems_per_cycle_stall0': elems / c0, 'elems_per_cycle_stall1': elems / c1})
        res[eng] = rows
    return res


def callgrind_share():
    return benchlib.callgrind_share(SIM, CALLGRIND_ARGS, 'Vtb_nvdla', 'callgrind_nvdla_dp.out')

def run(jobs, repeats):
    del jobs, repeats          # cycle counts are deterministic and do not depend on parallelism
    res = {}
    print("bench nvdla_dp: fixed-shape jobs, cycles from D_OP_ENABLE to the done interrupt; "
          "nv_small = 1 element/cycle")
    tp = throughput()
    for eng, rows in tp.items():
        for r in rows:
            print(f"  {eng.upper()} {r['shape']:>9}: {r['elements']:6d} elements  "
                  f"stall=0 {r['cycles_stall0']:6d} cycles "
                  f"({r['elems_per_cycle_stall0']:4.2f} elem/cycle)  stall=1 {r['cycles_stall1']:7.0f} cycles "
                  f"({r['elems_per_cycle_stall1']:4.2f} elem/cycle)")
    res['throughput'] = tp
    try:
        shares, total = callgrind_share()
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"  callgrind unavailable ({e}); testbench share skipped")
        return res
    res['callgrind'] = {k: {'Ir': v[0], 'percent': v[1]} for k, v in shares.items()}
    print(f"  run-time share (callgrind, {total:,} instructions, {' '.join(CALLGRIND_ARGS[:2])}):")
    for k, (_, pct) in shares.items():
        print(f"      {k:36} {pct:5.1f} %")
    return res


if __name__ == '__main__':
    ap = argparse.ArgumentParser(prog='python3 -m flow.bench.nvdla_dp',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    if not os.access(SIM, os.X_OK):
        sys.exit(f"bench_nvdla_dp: {SIM} not built (make build/nvdla/sim)")
    run(1, a.repeats)
