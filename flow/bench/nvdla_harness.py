#!/usr/bin/env python3
"""Our bench beside NVIDIA's own Verilator harness on nv_small, per simulated cycle, on the same traces.

NVIDIA's harness is `verif/verilator/nvdla.cpp` of nvdla/hw (not shipped in ../shared: point NVDLA_HW, or
--nvdla-hw, at a checkout of nvdla/hw, branch nv_small; without one this bench says it is skipped and why).
It is built the way its verif/verilator/Makefile builds it: `verilator --cc --exe` of the RTL and nvdla.cpp, the
Verilated model's default optimisation (no -O3, no --x-assign fast), no tracing, then `make -f VNV_nvdla.mk`;
with g++ instead of clang when clang is absent (said in the output). The RTL is the same unmodified nv_small
as our `nv_small` DUT (../shared/upstream, FPGA RAM models: the ASIC ones need `#` delays Verilator drops).
Its input is NVIDIA's binary trace format (nvdla.cpp's TraceLoader); `cfg_to_trace_bin` writes it from an
nv_small `.cfg` the way NVIDIA's new_trace_to_verilator.py does (memory loads, interrupt sync points with their
CRC checks, then the register sequence), so both harnesses run the same trace: NVIDIA's with its fixed
32-cycle read latency, ours with +stall=0 (no backpressure). Each trace runs on both, interleaved, `repeats`
times; both must pass (NVIDIA's prints *** PASS, its CRC checks included). Reported per trace and in total:
simulated cycles per CPU second of the simulator process, not per wall-clock second, since the machines are
shared (NVIDIA's cycles = its "done at N ticks" / 2, reset and the 8,192 settle cycles included, as it
simulates them), and the ratio ours / NVIDIA's; then the same ratio without NVIDIA's fixed cost (an empty trace,
run beside each: its reset, settle and quiescent cycles and their CPU time taken out of NVIDIA's figures), since
those idle cycles are cheap and a short trace's figure is otherwise theirs (all traces together only: per trace
the difference is noise). Our figure keeps everything: start-up, reset, golden model and checks.
Standalone: NVDLA_HW=/path/to/nvdla-hw python3 -m flow.bench.nvdla_harness [--repeats N]
"""
import argparse
import csv
import glob
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys

from flow.bench import lib as benchlib

from flow import dut_manifest

ROOT = benchlib.ROOT
OUT = os.path.join(ROOT, 'build', 'nvdla_harness')
TRACES = os.path.join(ROOT, '..', 'shared', 'conformance', 'nvdla', '*', '*.cfg')


class HarnessError(Exception):
    pass


def registers():
    """'NVDLA_UNIT.REG_0' -> byte address, and the GLB interrupt status fields -> bit, from our register map."""
    addr, bits = {}, {}
    with open(os.path.join(ROOT, 'rtl', 'nvdla', 'regs', 'nvdla_regs.csv')) as f:
        for row in csv.DictReader(f):
            addr[f"{row['unit']}.{row['register']}"] = int(row['byte_addr'], 16)
            if row['unit'] == 'NVDLA_GLB' and row['register'] == 'S_INTR_STATUS_0':
                bits[row['field']] = 1 << int(row['lsb'])
    return addr, bits


def dat_bytes(path):
    """An nv_small .dat surface file: {offset:.., size:.., payload:0x.. ..} lines."""
    data = bytearray()
    for n, line in enumerate(open(path), 1):
        line = line.strip()
        if line in ('{', '}', ''):
            continue
        m = re.match(r'{\s*offset:\s*(\S+?)\s*,\s*size:\s*(\S+?)\s*,\s*payload:\s*([0-9a-fA-Fx ]+)\s*}\s*,?$', line)
        if not m:
            raise HarnessError(f"{path}:{n}: not a .dat line: {line[:60]}")
        off, payload = int(m.group(1), 0), [int(b, 0) for b in m.group(3).split()]
        if len(data) < off + len(payload):
            data.extend(bytes(off + len(payload) - len(data)))
        data[off:off + len(payload)] = bytes(payload)
    return bytes(data)


def cfg_to_trace_bin(cfg, out):
    """NVIDIA's binary trace (nvdla.cpp TraceLoader commands 2, 3, 5, 6, 7, 8, 0xFF) of an nv_small .cfg."""
    addr, bits = registers()
    mem, syncpts, checks, seq = [], {}, [], []
    for n, line in enumerate(open(cfg), 1):
        line = line.split('//')[0].strip()
        if not line:
            continue
        m = re.match(r'(\w+)\((.*)\);$', line)
        if not m:
            raise HarnessError(f"{cfg}:{n}: not a trace command: {line[:60]}")
        op, args = m.group(1), [a.strip() for a in m.group(2).split(',')]
        if op == 'mem_init':
            if args[3] != 'ALL_ZERO':
                raise HarnessError(f"{cfg}:{n}: mem_init pattern {args[3]} (NVIDIA's converter knows ALL_ZERO)")
            mem.append((int(args[1], 16), bytes(int(args[2], 16))))
        elif op == 'mem_load':
            mem.append((int(args[1], 16), dat_bytes(os.path.join(os.path.dirname(cfg), args[2].strip('"')))))
        elif op == 'intr_notify':
            blk, grp = re.match(r'(.*)_(\d+)$', args[0]).groups()
            syncpts[args[1]] = (len(syncpts), bits[f"{blk}_DONE_STATUS{grp}"])
        elif op == 'check_crc':
            checks.append((args[0], int(args[2], 16), int(args[3], 16), int(args[4], 16)))
        elif op in ('reg_write', 'poll_reg_equal'):
            if args[0] not in addr:
                raise HarnessError(f"{cfg}:{n}: unknown register {args[0]}")
            seq.append((op, addr[args[0]] >> 2, int(args[1], 16)))
        else:
            raise HarnessError(f"{cfg}:{n}: {op}: not converted (NVIDIA's converter has no equivalent either)")
    with open(out, 'wb') as f:
        for a, data in mem:
            f.write(struct.pack('=BII', 5, a, len(data)) + data)
        for sid, mask in syncpts.values():
            f.write(struct.pack('=BII', 6, sid, mask))
        for name, base, size, crc in checks:
            f.write(struct.pack('=BIIII', 8, syncpts[name][0], base, size, crc))
        for op, a, v in seq:
            f.write(struct.pack('=BII', 2, a, v) if op == 'reg_write' else struct.pack('=BIII', 3, a, 0xFFFFFFFF, v))
        if syncpts:
            f.write(struct.pack('=BII', 7, addr['NVDLA_GLB.S_INTR_STATUS_0'] >> 2,
                                addr['NVDLA_GLB.S_INTR_MASK_0'] >> 2))
        f.write(struct.pack('=B', 0xFF))


def build_harness(nvdla_hw):
    """build/nvdla_harness/verilator/VNV_nvdla, from nvdla.cpp of nvdla_hw and our nv_small DUT's RTL list."""
    src = os.path.join(nvdla_hw, 'verif', 'verilator', 'nvdla.cpp')
    if not os.path.isfile(src):
        raise HarnessError(f"{src}: not found (NVDLA_HW must be a checkout of nvdla/hw, branch nv_small)")
    d = dut_manifest.get('nvdla', 'nv_small')
    why = d.unavailable()
    if why:
        raise HarnessError(why)
    # The Verilator of our bench (the Makefile exports VERILATOR, VL_VERSION, VL_MAKEFLAGS; standalone, the
    # script asks it), so that both harnesses compare on the same one; one build per version.
    vl = os.environ['VERILATOR']
    mdir = os.path.join(OUT, 'verilator' + (f"-{os.environ['VL_VERSION']}" if os.environ.get('VL_VERSION') else ''))
    binary = os.path.join(mdir, 'VNV_nvdla')
    os.makedirs(mdir, exist_ok=True)
    spec = os.path.join(OUT, 'spec')        # nvdla.cpp includes "../spec/defs/project.h"
    if not os.path.exists(spec):
        os.symlink(os.path.join(d.root, '..', 'spec'), spec)
    if os.path.exists(binary):
        return binary, 'cached'
    shutil.copy(src, os.path.join(mdir, 'nvdla.cpp'))
    libs, srcs, incs = d.sources()
    top = [s for s in srcs if os.path.basename(s) == 'NV_nvdla.v']   # the RTL alone: no bench probe or bind
    waivers = os.path.join(ROOT, d.build_dir, 'dut_waivers.vlt')       # lint waivers only (written by make)
    # the flags of NVIDIA's verif/verilator/Makefile and verilator_nv_small.f (-Wno-fatal: its lint warnings stay
    # warnings)
    args = [vl, '--cc', '--exe', '--top-module', 'NV_nvdla', '-Mdir', mdir, '--output-split', '250000000',
            '-Wno-moddup', '-Wno-fatal',
            *[f'-D{x}' for x in d.defines], *([waivers] if os.path.exists(waivers) else []),
            *[f'+incdir+{i}' for i in incs], *[x for lib in libs for x in ('-v', lib)], *top,
            os.path.join(mdir, 'nvdla.cpp')]
    p = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if p.returncode:
        raise HarnessError(f"verilating NVIDIA's harness failed:\n{p.stderr[-2500:]}")
    cxx = 'clang' if shutil.which('clang++') else None
    mk = ['make', '-C', mdir, '-f', 'VNV_nvdla.mk', 'VM_PARALLEL_BUILDS=1', f'-j{os.cpu_count() or 2}', 'VNV_nvdla',
          *os.environ.get('VL_MAKEFLAGS', '').split()]
    if cxx:
        mk += ['CC=clang', 'CXX=clang++']
    p = subprocess.run(mk, cwd=ROOT, capture_output=True, text=True)
    if p.returncode:
        raise HarnessError(f"building NVIDIA's harness failed:\n{p.stdout[-1500:]}{p.stderr[-1500:]}")
    return binary, 'clang' if cxx else 'g++ (clang++ absent)'


def total_rate(per_trace, repeats):
    """All traces together: per repeat, their cycles over their CPU seconds; the median of those. per_trace holds
    each trace's list of (CPU seconds, cycles), one pair a repeat."""
    return statistics.median(sum(r[i][1] for r in per_trace) / sum(r[i][0] for r in per_trace)
                             for i in range(repeats))


def run_nvidia(binary, trace_bin):
    """(CPU seconds, cycles) of one run of NVIDIA's harness."""
    t0 = benchlib.cpu_seconds()
    p = subprocess.run([binary, trace_bin], cwd=os.path.dirname(trace_bin), capture_output=True, text=True)
    cpu = benchlib.cpu_seconds() - t0
    m = re.search(r'^done at (\d+) ticks', p.stdout, re.M)
    if p.returncode or not m or '*** PASS' not in p.stdout:
        raise HarnessError(f"NVIDIA's harness failed on {trace_bin}:\n{p.stdout[-1500:]}")
    return cpu, int(m.group(1)) // 2


def run(jobs, repeats, nvdla_hw=None):
    del jobs
    nvdla_hw = nvdla_hw or os.environ.get('NVDLA_HW')
    if not nvdla_hw:
        print("bench nvdla harness: skipped: NVIDIA's verif/verilator/nvdla.cpp is not in ../shared; "
              "NVDLA_HW=/path/to/nvdla-hw (branch nv_small) runs it")
        return {'skipped': 'NVDLA_HW not set'}
    ours = os.path.join(ROOT, dut_manifest.get('nvdla', 'nv_small').build_dir, 'sim')
    cfgs = sorted(glob.glob(TRACES))
    if not cfgs or not os.access(ours, os.X_OK):
        why = 'no nv_small traces in ../shared/conformance/nvdla' if not cfgs else f'{ours} is not built'
        print(f"bench nvdla harness: skipped: {why}")
        return {'skipped': why}
    try:
        binary, how = build_harness(nvdla_hw)
    except (HarnessError, subprocess.CalledProcessError) as ex:
        sys.exit(f"bench nvdla harness: {ex}")
    print(f"bench nvdla harness: our bench (nv_small DUT, regression build, +stall=0) vs NVIDIA's nvdla.cpp "
          f"({how}), same {len(cfgs)} traces, interleaved, medians of {repeats}")
    # NVIDIA's fixed cost: an empty trace is its reset, the 8,192 settle cycles and the 200 quiescent ones.
    empty = os.path.join(OUT, 'traces', 'empty', 'trace.bin')
    os.makedirs(os.path.dirname(empty), exist_ok=True)
    with open(empty, 'wb') as f:
        f.write(struct.pack('=B', 0xFF))
    res, tot = {}, {'ours': [], 'nvidia': [], 'nvidia_fixed': []}
    for cfg in cfgs:
        name = os.path.splitext(os.path.basename(cfg))[0]
        tb = os.path.join(OUT, 'traces', name, 'trace.bin')
        os.makedirs(os.path.dirname(tb), exist_ok=True)
        cfg_to_trace_bin(cfg, tb)
        o, n, e = [], [], []
        for _ in range(repeats):
            o.append(benchlib.run_sim_cpu(ours, [f'+cfg={cfg}', '+stall=0', '+seed=1', '+quiet'],
                                          who='bench_nvdla_harness'))
            n.append(run_nvidia(binary, tb))
            e.append(run_nvidia(binary, empty))
        oc = statistics.median(c / w for w, c in o)
        nc = statistics.median(c / w for w, c in n)
        tot['ours'].append(o)
        tot['nvidia'].append(n)
        tot['nvidia_fixed'].append(e)
        res[name] = {'ours_cycles_per_s': oc, 'nvidia_cycles_per_s': nc, 'ratio': oc / nc,
                     'ours_cycles': o[0][1], 'nvidia_cycles': n[0][1]}
        print(f"  {name:40} ours {oc:9,.0f} cycles/s ({o[0][1]:7,} cycles)   NVIDIA {nc:9,.0f} cycles/s "
              f"({n[0][1]:7,} cycles)   ours/NVIDIA {oc / nc:4.2f}x")
    # all traces together, per repeat: total cycles / total CPU time; without NVIDIA's fixed cost only here (per
    # trace, a short trace's difference of two CPU times is noise)
    agg = {k: total_rate(v, repeats) for k, v in tot.items() if k != 'nvidia_fixed'}
    aggb = statistics.median(
        sum(r[i][1] - f[i][1] for r, f in zip(tot['nvidia'], tot['nvidia_fixed'])) /
        sum(r[i][0] - f[i][0] for r, f in zip(tot['nvidia'], tot['nvidia_fixed'])) for i in range(repeats))
    res['all'] = {'ours_cycles_per_s': agg['ours'], 'nvidia_cycles_per_s': agg['nvidia'],
                  'ratio': agg['ours'] / agg['nvidia'], 'nvidia_trace_cycles_per_s': aggb,
                  'ratio_trace_cycles': agg['ours'] / aggb}
    fixed = (statistics.median(cpu for runs in tot['nvidia_fixed'] for cpu, _ in runs), tot['nvidia_fixed'][0][0][1])
    print(f"  {'all traces':40} ours {agg['ours']:9,.0f} cycles/s   NVIDIA {agg['nvidia']:9,.0f} cycles/s   "
          f"ours/NVIDIA {agg['ours'] / agg['nvidia']:4.2f}x   without NVIDIA's settle {agg['ours'] / aggb:4.2f}x")
    print(f"  (NVIDIA's fixed cost, an empty trace: {fixed[1]:,} cycles in {fixed[0] * 1000:.0f} ms CPU, median; "
          f"the last ratio leaves it out of NVIDIA's cycles and time)")
    return res


if __name__ == '__main__':
    ap = argparse.ArgumentParser(prog='python3 -m flow.bench.nvdla_harness',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--repeats', type=int, default=3)
    ap.add_argument('--nvdla-hw', help='a checkout of nvdla/hw, branch nv_small (default: $NVDLA_HW)')
    a = ap.parse_args()
    os.environ.update(benchlib.verilator_env())   # as `make bench` exports them
    run(1, a.repeats, a.nvdla_hw)
