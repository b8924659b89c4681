#!/usr/bin/env python3
"""Our bench beside NVIDIA's own Verilator harness on nv_full, per simulated cycle, on NVIDIA's trace-player tests.

NVIDIA's harness is nv_full's `verif/verilator/nvdla.cpp` (in ../shared/upstream/nvdla_nv_full, unmodified, compiled
from there) and its traces are `verif/traces/traceplayer/<test>/input.txn`, converted by NVIDIA's own
`input_txn_to_verilator.pl` into the binary trace nvdla.cpp reads. Our side runs the same folders
(`+cfg=<folder>`, the trace importer) on our nv_full DUT (build/nvdla-nv_full/sim, +stall=0: no backpressure, as
NVIDIA's responders), golden model and checks included.

How NVIDIA's harness is built. Its verif/verilator/Makefile verilates verilator.f (the ASIC RAM models) with
--output-split 250000000 and compiles with clang at Verilator's default optimisation. Built that way it cannot be
used here: the ASIC RAM models misread under --no-timing (flow/ram_diff.py; the same fault made our first nv_full
build hang and corrupt data), and the flat C++ of nv_full did not finish compiling within 60 minutes on this
machine (../shared/upstream/README.md). So it is built with exactly the levers our DUT build uses and nothing
else of ours: the same RTL list from tb/nvdla/duts/nv_full.dut (FPGA RAM models, NO_PLI defines), --no-timing,
--hierarchical with the MAC cell as hier_block, Verilator's default --output-split, the C++ at the DUT's cxxopt
(-O1), g++; NVIDIA's own Verilator flags otherwise (no -O3, no --x-assign/--x-initial fast, no --assert, which our
build adds), top NV_nvdla, its nvdla.cpp as the main. The ratio therefore measures what differs between the two
harnesses and their Verilator flags on the same model, not the compiler or the RAM models.

Its build takes about as long as our nv_full's (tens of CPU-minutes), so only `make build-nv_full-harness`
starts it (this module's --build); `make bench` uses it when built and says it is skipped otherwise, naming that
command. A trace counts only if both harnesses pass it (NVIDIA's prints *** PASS after its own checks); one that
fails on either side is listed with the reason and left out of the totals.
Standalone: python3 -m flow.bench.nvdla_full_harness [--build] [--repeats N]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys

from flow import dut_manifest
from flow.bench import lib as benchlib
from flow.bench.nvdla_harness import HarnessError, run_nvidia, total_rate

ROOT = benchlib.ROOT
OUT = os.path.join(ROOT, 'build', 'nvdla_full_harness')
BUILD_CMD = 'make build-nv_full-harness'


def nvidia_dir():
    """nv_full's verif/ folder of the DUT's RTL tree (root is .../nvdla_nv_full/vmod)."""
    return os.path.normpath(os.path.join(dut_manifest.get('nvdla', 'nv_full').root, '..', 'verif'))


def binary_path():
    mdir = os.path.join(OUT, 'verilator' + (f"-{os.environ['VL_VERSION']}" if os.environ.get('VL_VERSION') else ''))
    return mdir, os.path.join(mdir, 'VNV_nvdla')


def build():
    """Verilate and compile NVIDIA's harness (see the module text for the flags); returns the binary."""
    d = dut_manifest.get('nvdla', 'nv_full')
    why = d.unavailable()
    if why:
        raise HarnessError(why)
    main = os.path.join(nvidia_dir(), 'verilator', 'nvdla.cpp')
    if not os.path.isfile(main):
        raise HarnessError(f"{main}: not found (NVIDIA's nv_full harness)")
    waivers = os.path.join(ROOT, d.build_dir, 'dut_waivers.vlt')   # lint waivers and the hier_block (make writes it)
    if not os.path.isfile(waivers):
        raise HarnessError(f"{os.path.relpath(waivers, ROOT)} is absent: run `make build-nv_full` first "
                           "(it writes the DUT's Verilator configuration this build shares)")
    mdir, binary = binary_path()
    os.makedirs(mdir, exist_ok=True)
    libs, srcs, incs = d.sources()
    top = [s for s in srcs if os.path.basename(s) == 'NV_nvdla.v']
    args = [os.environ['VERILATOR'], '--cc', '--exe', '--top-module', 'NV_nvdla', '-Mdir', mdir, '-o', 'VNV_nvdla',
            '-Wno-moddup', '-Wno-fatal', *d.vflags, *[f'-D{x}' for x in d.defines], waivers,
            *[f'+incdir+{i}' for i in incs], *[x for lib in libs for x in ('-v', lib)], *top, main]
    with open(os.path.join(mdir, 'build.log'), 'w') as log:
        log.write(' '.join(args) + '\n')
        log.flush()
        if subprocess.run(args, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode:
            raise HarnessError(f"verilating NVIDIA's harness failed: {os.path.relpath(log.name, ROOT)}")
        mk = ['make', '-C', mdir, '-f', 'VNV_nvdla.mk', f'-j{os.cpu_count() or 2}', 'VNV_nvdla',
              f"OPT_FAST={' '.join(d.cxxopt) or '-O3'}", *os.environ.get('VL_MAKEFLAGS', '').split()]
        cache = shutil.which('ccache')
        if cache:
            mk.append(f'OBJCACHE={cache}')
        if subprocess.run(mk, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode:
            raise HarnessError(f"compiling NVIDIA's harness failed: {os.path.relpath(log.name, ROOT)}")
    return binary


def convert(test_dir, out):
    """NVIDIA's input_txn_to_verilator.pl: input.txn (with its data files) -> trace.bin."""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    pl = os.path.join(nvidia_dir(), 'verilator', 'input_txn_to_verilator.pl')
    p = subprocess.run(['perl', pl, test_dir, out], cwd=ROOT, capture_output=True, text=True)
    if p.returncode or not os.path.isfile(out):
        raise HarnessError(f"{pl} {test_dir}: failed:\n{p.stdout[-800:]}{p.stderr[-800:]}")


def run(jobs, repeats):
    del jobs
    ours = os.path.join(ROOT, dut_manifest.get('nvdla', 'nv_full').build_dir, 'sim')
    _, binary = binary_path()
    if not os.access(ours, os.X_OK) or not os.access(binary, os.X_OK):
        why = (f"{os.path.relpath(ours, ROOT)} is not built (make build-nv_full)" if not os.access(ours, os.X_OK)
               else f"NVIDIA's nv_full harness is not built ({BUILD_CMD}: tens of CPU-minutes)")
        print(f"bench nvdla_full harness: skipped: {why}")
        return {'skipped': why}
    tests = sorted(os.path.join(nvidia_dir(), 'traces', 'traceplayer', t)
                   for t in os.listdir(os.path.join(nvidia_dir(), 'traces', 'traceplayer')))
    tests = [t for t in tests if os.path.isfile(os.path.join(t, 'input.txn'))]
    print(f"bench nvdla_full harness: our bench (nv_full DUT, +stall=0) vs NVIDIA's nvdla.cpp (same model flags as "
          f"ours but NVIDIA's Verilator options), {len(tests)} traces, interleaved, medians of {repeats}")
    res, tot, left = {}, {'ours': [], 'nvidia': []}, {}
    for t in tests:
        name = os.path.basename(t)
        tb = os.path.join(OUT, 'traces', name, 'trace.bin')
        try:
            convert(t, tb)
            o, n = [], []
            for _ in range(repeats):
                o.append(ours_run(ours, t))
                n.append(run_nvidia(binary, tb))
        except HarnessError as ex:
            left[name] = str(ex).splitlines()[0][:200]
            print(f"  {name:32} left out: {left[name]}")
            continue
        oc = statistics.median(c / w for w, c in o)
        nc = statistics.median(c / w for w, c in n)
        tot['ours'].append(o)
        tot['nvidia'].append(n)
        res[name] = {'ours_cycles_per_s': oc, 'nvidia_cycles_per_s': nc, 'ratio': oc / nc,
                     'ours_cycles': o[0][1], 'nvidia_cycles': n[0][1]}
        print(f"  {name:32} ours {oc:8,.0f} cycles/s ({o[0][1]:6,} cycles)   NVIDIA {nc:8,.0f} cycles/s "
              f"({n[0][1]:6,} cycles)   ours/NVIDIA {oc / nc:4.2f}x")
    if tot['ours']:
        agg = {k: total_rate(v, repeats) for k, v in tot.items()}
        res['all'] = {'ours_cycles_per_s': agg['ours'], 'nvidia_cycles_per_s': agg['nvidia'],
                      'ratio': agg['ours'] / agg['nvidia'], 'traces': len(tot['ours'])}
        print(f"  {'all compared traces':32} ours {agg['ours']:8,.0f} cycles/s   NVIDIA {agg['nvidia']:8,.0f} "
              f"cycles/s   ours/NVIDIA {agg['ours'] / agg['nvidia']:4.2f}x")
    res['left_out'] = left
    return res


def ours_run(sim, test_dir):
    """(CPU seconds, cycles) of our bench on one trace folder; a failing run is a HarnessError naming it."""
    return benchlib.run_sim_cpu(sim, [f'+cfg={test_dir}', '+stall=0', '+seed=1', '+quiet'], who='our bench',
                                raise_as=HarnessError)


if __name__ == '__main__':
    ap = argparse.ArgumentParser(prog='python3 -m flow.bench.nvdla_full_harness',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--build', action='store_true', help="build NVIDIA's harness (long) and stop")
    ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    os.environ.update(benchlib.verilator_env())
    if a.build:
        try:
            print(f"built: {os.path.relpath(build(), ROOT)}")
        except HarnessError as ex:
            sys.exit(f"nvdla_full harness: {ex}")
        sys.exit(0)
    run(1, a.repeats)
