#!/usr/bin/env python3
"""What a verilated model's C++ costs to compile at each optimisation level, from a sample of its files, for
models too large to compile whole once per level (nv_full: 1.8 GB of C++; docs/nvdla_nv_full.md).

Usage: python3 -m flow.measure_cxx <model folder> [--levels=-O0,-O1,-O2,-O3] [--sample 12] [--json out.json]
  <model folder>  where Verilator wrote the model (its <prefix>.mk and .cpp files)
  --sample N      files measured: N of the model's fast-path .cpp files (those compiled with OPT_FAST, the level
                  a DUT's cxxopt sets), spread over the size order (smallest to largest), the same N each run

Each sampled file is compiled by the model's own makefile rule (make -n prints it; no ccache) at each level, one
compile at a time, its CPU time and peak memory read from the child's rusage. The whole model's CPU time at a
level is estimated as the sample's CPU per byte of C++ times the fast files' bytes; the slow-path files (Slow in
their name, compiled at OPT_SLOW whatever the level) are counted apart. Prints a table and the repro line.
"""
import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time


def compile_cmd(model, mk, cpp, level, out):
    """The model's own compile command of cpp (make -n of its object), with the level and the object moved."""
    obj = os.path.basename(cpp)[:-4] + '.o'
    # the project's own make flags of a model build (Makefile VL_MAKEFLAGS: no precompiled header)
    vl = ['PYTHON3=python3', 'VK_PCH_I_FAST=', 'VK_PCH_I_SLOW=', 'CFG_CXXFLAGS_PCH=-E']
    p = subprocess.run(['make', '-n', '-B', '-C', model, '-f', mk, f'OPT_FAST={level}', 'OBJCACHE=', *vl, obj],
                       capture_output=True, text=True)
    lines = [ln for ln in p.stdout.splitlines() if ' -c ' in ln and os.path.basename(cpp) in ln]
    if p.returncode or not lines:
        sys.exit(f"ERROR: {model}/{mk}: no compile rule for {obj} (make -n said: {(p.stdout + p.stderr)[-400:]})")
    return shlex.split(lines[-1]) + ['-o', out]


def measure(model, cmd):
    """(wall s, CPU s, peak KiB) of one compile."""
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=model, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    if status:
        sys.exit(f"ERROR: {' '.join(cmd)} failed:\n{proc.stderr.read().decode()[-800:]}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('model')
    ap.add_argument('--levels', default='-O0,-O1,-O2,-O3')
    ap.add_argument('--sample', type=int, default=12)
    ap.add_argument('--json')
    a = ap.parse_args(argv)
    mks = [m for m in glob.glob(os.path.join(a.model, 'V*.mk')) if not re.search(r'_(classes|hier)\.mk$', m)]
    if len(mks) != 1:
        sys.exit(f"ERROR: {a.model}: expected one V<top>.mk, found {[os.path.basename(m) for m in mks] or 'none'}")
    mk = os.path.basename(mks[0])
    cpps = sorted(glob.glob(os.path.join(a.model, '*.cpp')), key=os.path.getsize)
    slow = [c for c in cpps if 'Slow' in os.path.basename(c)]
    fast = [c for c in cpps if c not in slow]
    if not fast:
        sys.exit(f"ERROR: {a.model}: no fast-path .cpp files")
    n = min(a.sample, len(fast))
    sample = [fast[(2 * k + 1) * len(fast) // (2 * n)] for k in range(n)]
    fast_bytes = sum(os.path.getsize(c) for c in fast)
    sample_bytes = sum(os.path.getsize(c) for c in sample)
    print(f"measure_cxx {a.model}: {len(fast)} fast files ({fast_bytes / 1e6:.0f} MB), {len(slow)} slow "
          f"({sum(os.path.getsize(c) for c in slow) / 1e6:.0f} MB, at OPT_SLOW whatever the level); sample {n} fast "
          f"files, {sample_bytes / 1e6:.1f} MB")
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for level in a.levels.split(','):
            wall = cpu = 0.0
            peak = 0
            for c in sample:
                w, u, m = measure(a.model, compile_cmd(a.model, mk, c, level, os.path.join(tmp, 'x.o')))
                wall, cpu, peak = wall + w, cpu + u, max(peak, m)
            est = cpu * fast_bytes / sample_bytes
            res[level] = {'sample_cpu_s': round(cpu, 1), 'sample_wall_s': round(wall, 1), 'peak_mib': peak // 1024,
                          'est_fast_cpu_min': round(est / 60, 1)}
            print(f"  {level:4} sample CPU {cpu:7.1f} s (wall {wall:7.1f} s), peak {peak // 1024:5d} MiB; "
                  f"all fast files estimated {est / 60:6.1f} CPU-min", flush=True)
    if a.json:
        with open(a.json, 'w') as f:
            json.dump({'model': a.model, 'fast_files': len(fast), 'fast_bytes': fast_bytes, 'slow_files': len(slow),
                       'sample': [os.path.basename(c) for c in sample], 'levels': res}, f, indent=1)
    print(f"repro: python3 -m flow.measure_cxx {a.model} --levels={a.levels} --sample {a.sample}")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
