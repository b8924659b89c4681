#!/usr/bin/env python3
"""The golden model's floating point (golden/nvdla/nvdla_fp16.c) and its FP16 units against NVIDIA's C model itself,
run by `make test` (docs/nvdla_nv_full.md, "FP16").

The oracle is built here, out of tree, from ../shared (nothing of cmod enters the repository): NVIDIA's HLS
floating-point libraries (cmod/hls/vlibs/*.cpp, on Mentor's ac_int in cmod/hls/include) and PDP's HLS wrapper
(cmod/hls_wrapper/pdp_hls_wrapper.cpp, with the two headers of SystemC and cmod's log it includes stubbed by
tests/oracle/stubs/), compiled with g++ into build/nvdla_fp_oracle/ and driven by tests/oracle/nvdla_fp_cmod.cpp;
its twin tests/oracle/nvdla_fp_ours.c runs the same cases on the golden model. cmod's headers are used as they are
but for one line: ac_fixed.h's to_ac_int() calls a member template of a dependent type without the `template`
keyword, which g++ 12 refuses; the copy under build/ has it added (a syntax fix: the code is the same).

Checks: every sweep of tests/oracle/nvdla_fp_sweep.h (exhaustive over 16- and 17-bit inputs, the special classes
crossed and 10^6 random pairs per binary operation) has the same results on both sides (a difference names the
operation, the operands and both results); tests/unit/data/nvdla_fp_digests.tsv, which the unit test
test_nvdla_fp16 checks the golden model against where ../shared is absent, equals cmod's digests
(`--write-digests` rewrites it); PDP's FP16 pooling (max, min, average with every padding value) on random cubes
equals cmod's wrapper functions driven in NV_NVDLA_pdp.cpp's order.
Skipped, saying so, where ../shared's cmod is absent."""
import os
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from tests.checklib import Checks, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CMOD = os.path.join(ROOT, '..', 'shared', 'upstream', 'nvdla_nv_full', 'cmod')
OUT = os.path.join(ROOT, 'build', 'nvdla_fp_oracle')
ORACLE = os.path.join(ROOT, 'tests', 'oracle')
DIGESTS = os.path.join(ROOT, 'tests', 'unit', 'data', 'nvdla_fp_digests.tsv')
CXX = ['g++', '-O1', '-std=gnu++98', '-w']  # cmod's ac_int predates C++11's stricter templates
FIX_FROM = '*this).slc<AC_MAX(I,1)>(0)'
FIX_TO = '*this).template slc<AC_MAX(I,1)>(0)'
T = Checks('test_nvdla_fp_oracle')
check, skip = T.check, T.skip


def stale(target, sources):
    return not os.path.exists(target) or any(os.path.getmtime(s) > os.path.getmtime(target) for s in sources)


def build():
    """The two drivers; (cmod's, ours), or None after a failed check."""
    inc = os.path.join(OUT, 'include')
    os.makedirs(inc, exist_ok=True)
    src_inc = os.path.join(CMOD, 'hls', 'include')
    for f in os.listdir(src_inc):
        src, dst = os.path.join(src_inc, f), os.path.join(inc, f)
        if stale(dst, [src]):
            text = open(src, encoding='latin-1').read()
            if f == 'ac_fixed.h':
                if text.count(FIX_FROM) != 1:
                    check(False, f'{src}: the one line the oracle fixes ({FIX_FROM}) is not there once')
                    return None
                text = text.replace(FIX_FROM, FIX_TO)
            open(dst, 'w', encoding='latin-1').write(text)
    hdrs = [os.path.join(inc, f) for f in os.listdir(inc)]
    vlibs = os.path.join(CMOD, 'hls', 'vlibs')
    units = [(os.path.join(vlibs, f), os.path.join(OUT, f[:-4] + '.o')) for f in sorted(os.listdir(vlibs))
             if f.endswith('.cpp')]
    units.append((os.path.join(CMOD, 'hls_wrapper', 'pdp_hls_wrapper.cpp'), os.path.join(OUT, 'pdp_hls_wrapper.o')))
    flags = ['-I' + os.path.join(ORACLE, 'stubs'), '-I' + inc, '-I' + vlibs, '-I' + os.path.join(CMOD, 'include')]

    def compile_one(unit):
        src, obj = unit
        if not stale(obj, [src] + hdrs):
            return 0, ''
        return run(CXX + flags + ['-c', src, '-o', obj], timeout=600)

    with ThreadPoolExecutor(max_workers=2) as pool:
        for (src, _), (rc, out) in zip(units, pool.map(compile_one, units)):
            if rc != 0:
                check(False, f'compile {os.path.relpath(src, ROOT)} (g++ {" ".join(CXX[1:])})', out)
                return None
    cmod_drv, ours_drv = os.path.join(OUT, 'nvdla_fp_cmod'), os.path.join(OUT, 'nvdla_fp_ours')
    drv_src = [os.path.join(ORACLE, f) for f in os.listdir(ORACLE) if f.endswith(('.h', '.cpp', '.c'))]
    if stale(cmod_drv, [o for _, o in units] + drv_src):
        rc, out = run(CXX + flags + ['-I' + ORACLE, os.path.join(ORACLE, 'nvdla_fp_cmod.cpp')] + [o for _, o in units]
                      + ['-o', cmod_drv])
        if not check(rc == 0, 'link the cmod oracle (tests/oracle/nvdla_fp_cmod.cpp)', out):
            return None
    golden = [os.path.join(ROOT, 'golden', 'nvdla', f) for f in ('nvdla_fp16.c', 'nvdla_fp16.h', 'pdp_fp16.c')]
    golden = [g for g in golden if os.path.exists(g)]
    if stale(ours_drv, drv_src + golden):
        rc, out = run(['gcc', '-std=c11', '-O2', '-Wall', '-Wextra', '-Werror', '-I' + os.path.join(ROOT, 'golden',
                       'nvdla'), '-I' + ORACLE, os.path.join(ORACLE, 'nvdla_fp_ours.c')]
                      + [g for g in golden if g.endswith('.c')] + ['-o', ours_drv])
        if not check(rc == 0, 'build the golden model side (tests/oracle/nvdla_fp_ours.c)', out):
            return None
    return cmod_drv, ours_drv


def digests(drv):
    rc, out = run([drv, 'digest'], timeout=300)
    if rc != 0:
        return None, out
    return {ln.split('\t')[0]: ln for ln in out.strip().split('\n')}, out


def first_differences(cmod_drv, ours_drv, op, n=5):
    _, a = run([cmod_drv, 'dump', op], timeout=300)
    _, b = run([ours_drv, 'dump', op], timeout=300)
    diffs = [(x, y) for x, y in zip(a.split('\n'), b.split('\n')) if x != y]
    return '\n'.join(f'{op}({" ".join(x.split()[:2])}): cmod {x.split()[2]}, golden {y.split()[2]}'
                     for x, y in diffs[:n]) + f'\n{len(diffs)} case(s) differ'


def check_sweeps(cmod_drv, ours_drv, write):
    theirs, out = digests(cmod_drv)
    if not check(theirs is not None, 'the cmod oracle runs its sweeps', out):
        return
    ours, out = digests(ours_drv)
    if not check(ours is not None, 'the golden model runs its sweeps', out):
        return
    for op, line in theirs.items():
        cases = line.split('\t')[1]
        same = ours.get(op) == line
        check(same, f'{op}: {cases} cases, the golden model equals cmod',
              '' if same else first_differences(cmod_drv, ours_drv, op))
    header = [ln for ln in open(DIGESTS).read().split('\n') if ln.startswith('#')] if os.path.exists(DIGESTS) else []
    want = '\n'.join(header + list(theirs.values())) + '\n'
    if write:
        open(DIGESTS, 'w').write(want)
        print(f'wrote {os.path.relpath(DIGESTS, ROOT)}')
    have = open(DIGESTS).read() if os.path.exists(DIGESTS) else ''
    check(have == want, f'{os.path.relpath(DIGESTS, ROOT)} equals cmod\'s digests (--write-digests rewrites it)')


def main():
    if not os.path.isdir(CMOD):
        skip(f'NVIDIA\'s C model is absent ({os.path.relpath(CMOD, ROOT)}): the oracle cannot be built')
        return T.summary()
    if not shutil.which('g++'):
        skip('g++ is absent (flow/setup/install_deps.sh installs it)')
        return T.summary()
    drivers = build()
    if drivers:
        check_sweeps(*drivers, write='--write-digests' in sys.argv)
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
