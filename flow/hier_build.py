#!/usr/bin/env python3
"""The hier_block libraries of a hierarchically verilated model (`--hierarchical`) built at their own C++
optimisation (a DUT's `hieropt`, flow/dut_manifest.py; Makefile, VERILATED_SIM), before the rest of the model.

Why: nv_full's time is in its 16 MAC cells, one hier_block, whose library is 61 MB of C++ against about 800 MB for
the rest; the rest must stay at -O1 (cxxopt: gcc's -O2/-O3 are superlinear on its huge functions), the cell's
library runs 13 % faster at -Os (docs/performance.md, "nv_full: the MAC cell's library apart"). Verilator's
makefile builds the libraries with the flags it is given for the whole model; built here first, they are up to
date when it runs, and it archives and links them as before.

Each block's library is built in its folder (<obj>/<block>/, Verilator's <block>.mk, goal lib<name>.a). make does
not see flags, so one built with other flags than last time (<block>/hier.flags) is rebuilt whole.
Usage: python3 -m flow.hier_build <obj> <Vtop.mk> --opt=FLAGS [--objcache=CCACHE]
(VL_MAKEFLAGS, exported by the Makefile, is passed to the builds.)
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class HierError(Exception):
    pass


def blocks(obj, top_mk):
    """The hier_blocks of a model: (folder, library file) from VM_HIER_LIBS of Verilator's <top>_hier.mk."""
    hier_mk = os.path.join(obj, top_mk[:-len('.mk')] + '_hier.mk')
    if not os.path.isfile(hier_mk):
        raise HierError(f"{hier_mk}: not found: the model is not verilated with --hierarchical, so it has no "
                        "hier_block to build apart (drop hieropt from the description)")
    with open(hier_mk) as f:
        text = f.read()
    m = re.search(r'^VM_HIER_LIBS := \\\n((?:[ \t]+\S+ \\\n)+)', text, re.M)
    if not m:
        raise HierError(f"{hier_mk}: no VM_HIER_LIBS list (a Verilator whose hierarchical output this tool does "
                        "not know)")
    return [os.path.split(line.split()[0]) for line in m.group(1).splitlines()]


def build_lib(where, lib, opt, common, log):
    """One block's library, at `opt`; rebuilt whole when last built with other flags."""
    stamp = os.path.join(where, 'hier.flags')
    old = open(stamp).read() if os.path.isfile(stamp) else None
    if old != opt + '\n':
        for f in glob.glob(os.path.join(where, '*.o')) + glob.glob(os.path.join(where, '*.a')):
            os.unlink(f)
    prefix = os.path.basename(where)
    args = ['make', '--no-print-directory', '-C', where, '-f', f'{prefix}.mk', f'VM_PREFIX={prefix}',
            f'OPT_FAST={opt}', *common, lib]
    with open(log, 'a') as f:
        f.write(' '.join(shlex.quote(a) for a in args) + '\n')
        f.flush()
        if subprocess.run(args, stdout=f, stderr=subprocess.STDOUT).returncode:
            with open(log) as r:
                tail = r.read()[-3000:]
            raise HierError(f"building {where}/{lib} failed (log: {os.path.relpath(log, ROOT)}):\n{tail}")
    with open(stamp, 'w') as f:
        f.write(opt + '\n')


def main():
    ap = argparse.ArgumentParser(prog='python3 -m flow.hier_build', description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('obj', help="the model's Verilator output folder")
    ap.add_argument('top_mk', help="Verilator's makefile of the model (V<top>.mk)")
    ap.add_argument('--opt', required=True, help="the blocks' C++ optimisation (OPT_FAST), e.g. --opt=-Os")
    ap.add_argument('--objcache', default='')
    a = ap.parse_args()
    obj = os.path.abspath(a.obj)
    common = [f'OBJCACHE={a.objcache}', *shlex.split(os.environ.get('VL_MAKEFLAGS', ''))]
    try:
        libs = blocks(obj, a.top_mk)
        log = os.path.join(obj, 'hier_build.log')
        open(log, 'w').close()
        for d, lib in libs:
            build_lib(os.path.join(obj, d), lib, a.opt, common, log)
    except HierError as ex:
        sys.exit(f"ERROR: flow/hier_build.py: {ex}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
