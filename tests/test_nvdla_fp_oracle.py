#!/usr/bin/env python3
"""The golden model's floating point (golden/nvdla/nvdla_fp16.c) and its FP16 units against NVIDIA's C model itself,
run by `make test` (docs/nvdla_nv_full.md, "FP16").

The oracle is built here, out of tree, from ../shared (nothing of cmod enters the repository): NVIDIA's HLS floating-
point libraries (cmod/hls/vlibs/*.cpp, on Mentor's ac_int in cmod/hls/include), SDP's HLS blocks (hls/sdp, as cmod's
Makefile lists them), CDP's converters (hls/cdp_libs) and the PDP, SDP and CDP HLS wrappers (cmod/hls_wrapper/, with
the SystemC and log headers they include stubbed by tests/oracle/stubs/), compiled with g++ into
build/nvdla_fp_oracle/ and driven by tests/oracle/nvdla_fp_cmod.cpp; its twin tests/oracle/nvdla_fp_ours.c runs the
same cases on the golden model. cmod's headers are used as they are but for one line: ac_fixed.h's to_ac_int() calls a
member template of a dependent type without the `template` keyword, which g++ 12 refuses; the copy under build/ has it
added (a syntax fix: the code is the same).

Checks: every sweep of tests/oracle/nvdla_fp_sweep.h (exhaustive over 16- and 17-bit inputs, the special classes
crossed and 10^6 random pairs per binary operation) has the same results on both sides (a difference names the
operation, the operands and both results); tests/unit/data/nvdla_fp_digests.tsv, which the unit test test_nvdla_fp16
checks the golden model against where ../shared is absent, equals cmod's digests (`--write-digests` rewrites it);
PDP's FP16 pooling (max, min, average with every padding value) on random cubes equals cmod's wrapper functions driven
in NV_NVDLA_pdp.cpp's order, SDP's FP16 X stages on random jobs equal cmod's sdp_hls_wrapper, and CDP at FP16 on
random jobs equals cmod's HLS_CDP_lookup_fp16; FP16 variants of NVIDIA's pdp_max_pooling_int16 and sdp_relu_int16 run
through TXN= on the golden model (golden-only, build/nvdla/sim) write the output cmod computes for them; the FP16
trace-player tests of vectors/nvdla/txn_fp16/ equal what cmod computes for them (--write-vectors rewrites them); the
FP16 jobs of nv_full's random tests (sdp/pdp/cdp_random_fp16, 20 seeds each, golden-only, passing) written with the
generator's predictions (+nvf_oracle=) equal what cmod computes for them, CDP's as nv_full's RTL feeds them (+0 in a
channel outside the cube), and cmod's own feeding (D_DATIN_OFFSET there) differs only in channels that reach the
cube's edge, counted.
Skipped, saying so, where ../shared's cmod is absent."""
import os
import random
import re
import shutil
import struct
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from tests.checklib import Checks, run, sim

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
    for f in ('pdp_hls_wrapper.cpp', 'sdp_hls_wrapper.cpp', 'cdp_hls_wrapper.cpp', 'cdp_icvt_wrapper.cpp',
              'cdp_ocvt_wrapper.cpp'):
        units.append((os.path.join(CMOD, 'hls_wrapper', f), os.path.join(OUT, f[:-4] + '.o')))
    sdp_dir = os.path.join(CMOD, 'hls', 'sdp')
    # hls/sdp as cmod's Makefile (:71-77) builds it: sdp_y_lut.cpp, which it leaves out, does not compile
    units += [(os.path.join(sdp_dir, f), os.path.join(OUT, f[:-4] + '.o')) for f in sorted(os.listdir(sdp_dir))
              if f.endswith('.cpp') and f != 'sdp_y_lut.cpp']
    cdp_dir = os.path.join(CMOD, 'hls', 'cdp_libs')
    units += [(os.path.join(cdp_dir, f), os.path.join(OUT, f[:-4] + '.o')) for f in ('cdp_icvt.cpp', 'cdp_ocvt.cpp')]
    flags = ['-I' + os.path.join(ORACLE, 'stubs'), '-I' + inc, '-I' + vlibs, '-I' + os.path.join(CMOD, 'include'),
             '-I' + os.path.join(CMOD, 'hls_wrapper'), '-I' + sdp_dir, '-I' + cdp_dir,
             '-include', 'stdint.h']

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
    golden = [os.path.join(ROOT, 'golden', 'nvdla', f) for f in ('nvdla_fp16.c', 'nvdla_fp16.h', 'pdp_fp16.c',
                                                                  'pdp_fp16.h', 'sdp_fp16.c', 'sdp_fp16.h',
                                                                  'sdp_lut_fp16.c', 'sdp_lut_fp16.h', 'sdp_lut.h',
                                                                  'nv_lut_slopes.h', 'sdp_ew_fp16.c', 'sdp_ew_fp16.h',
                                                                  'sdp_ew.h', 'nvdla_pp.h', 'cdp_fp16.c', 'cdp_fp16.h')]
    if stale(ours_drv, drv_src + golden):
        rc, out = run(['gcc', '-std=c11', '-O2', '-Wall', '-Wextra', '-Werror', '-D_POSIX_C_SOURCE=200809L',
                       '-I' + os.path.join(ROOT, 'golden', 'nvdla'), '-I' + os.path.join(ROOT, 'dpi'), '-I' + ORACLE,
                       os.path.join(ORACLE, 'nvdla_fp_ours.c')] + [g for g in golden if g.endswith('.c')]
                      + ['-o', ours_drv, '-lm'])
        if not check(rc == 0, 'build the golden model side (tests/oracle/nvdla_fp_ours.c)', out):
            return None
    return cmod_drv, ours_drv


def unit_oracle(name, golden, what):
    """Link tests/oracle/<name>.cpp with the cmod objects build() compiled (hls/sdp, vlibs) and the golden model's C
    files `golden`; the executable's path, or None after a failed check."""
    exe = os.path.join(OUT, name)
    src = os.path.join(ORACLE, name + '.cpp')
    golden = [os.path.join(ROOT, 'golden', 'nvdla', f) for f in golden]
    headers = [os.path.join(ROOT, 'golden', 'nvdla', f) for f in os.listdir(os.path.join(ROOT, 'golden', 'nvdla'))
               if f.endswith('.h')]
    objs = [os.path.join(OUT, f) for f in sorted(os.listdir(OUT)) if f.endswith('.o') and not f.startswith('g_')]
    if stale(exe, [src] + golden + headers + objs):
        gobjs = []
        for g in golden:
            o = os.path.join(OUT, 'g_' + os.path.basename(g)[:-2] + '.o')
            rc, out = run(['gcc', '-std=c11', '-O2', '-Wall', '-Wextra', '-Werror', '-I' + os.path.dirname(g), '-c',
                           g, '-o', o])
            if not check(rc == 0, f'compile {os.path.relpath(g, ROOT)} for the {what} oracle', out):
                return None
            gobjs.append(o)
        sdp_dir, vlibs = os.path.join(CMOD, 'hls', 'sdp'), os.path.join(CMOD, 'hls', 'vlibs')
        flags = ['-I' + os.path.join(ORACLE, 'stubs'), '-I' + os.path.join(OUT, 'include'), '-I' + vlibs,
                 '-I' + os.path.join(CMOD, 'include'), '-I' + sdp_dir, '-I' + os.path.join(ROOT, 'golden', 'nvdla')]
        cmod_objs = [os.path.join(OUT, f[:-4] + '.o') for f in sorted(os.listdir(sdp_dir))
                     if f.endswith('.cpp') and f != 'sdp_y_lut.cpp']
        cmod_objs += [os.path.join(OUT, f[:-4] + '.o') for f in sorted(os.listdir(vlibs)) if f.endswith('.cpp')]
        rc, out = run(CXX + flags + [src] + cmod_objs + gobjs + ['-o', exe], timeout=600)
        if not check(rc == 0, f'build the {what} oracle (tests/oracle/{name}.cpp)', out):
            return None
    return exe


def check_ew(n=2000, seed=38):
    """SDP's EW stage at FP16: cmod's NV_NVDLA_SDP_CORE_Y_top against golden/nvdla/sdp_ew_fp16.c in one process
    (tests/oracle/nvdla_ew_fp16_cmod.cpp), linked with the objects build() compiled; the stage's FP32 outputs."""
    exe = unit_oracle('nvdla_ew_fp16_cmod', ('sdp_ew_fp16.c', 'nvdla_fp16.c'), 'EW')
    if not exe:
        return
    rc, out = run([exe, str(n), str(seed)], timeout=300)
    m = re.search(r'jobs (\d+) values (\d+) differ (\d+)', out)
    check(rc == 0 and m and m.group(3) == '0',
          f'SDP EW (Y) at FP16: {n} random jobs (seed {seed}; multiplier, PReLU, ALU max/min/sum, register FP32 and '
          f'ERDMA FP16 operands, NaN to zero, the converter\'s registers unused) through cmod\'s '
          f'NV_NVDLA_SDP_CORE_Y_top: the golden model\'s FP32 outputs equal cmod\'s '
          f'({m.group(0) if m else "no summary"})', out[-3000:])


def check_lut(n=2000, seed=38):
    """SDP's Y LUT at FP16: cmod's NV_NVDLA_SDP_CORE_Y_top (Y_idx) and Y_inp, with the wrapper's steps between them
    (tests/oracle/nvdla_lut_fp16_cmod.cpp), against golden/nvdla/sdp_lut_fp16.c; the LUT's FP32 outputs, the table
    and entry each lookup read."""
    exe = unit_oracle('nvdla_lut_fp16_cmod', ('sdp_lut_fp16.c', 'nvdla_fp16.c'), 'LUT')
    if not exe:
        return
    rc, out = run([exe, str(n), str(seed)], timeout=300)
    m = re.search(r'jobs (\d+) values (\d+) differ (\d+)', out)
    check(rc == 0 and m and m.group(3) == '0',
          f'SDP Y LUT at FP16: {n} random jobs of 64 lookups (seed {seed}; LE linear/exponent, LO, every priority, '
          f'signed selects and offsets, FP32 starts/ends, FP16 entries and scales with corners, inputs in, at the '
          f'edges of, under and over both tables, 0/denormal/Inf/NaN) through cmod\'s Y_idx and Y_inp: the golden '
          f'model\'s FP32 outputs and entries equal cmod\'s ({m.group(0) if m else "no summary"})', out[-3000:])


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


def fp17(x):
    """A Python float as FP17 bits (1.6.10, bias 31), mantissa truncated; 0 for 0."""
    if x == 0:
        return 0
    b = struct.unpack('<I', struct.pack('<f', x))[0]
    e = ((b >> 23) & 0xff) - 127 + 31
    return ((b >> 31) << 16) | (max(0, min(62, e)) << 10) | ((b >> 13) & 0x3ff)


def fp16_value(rng, mode):
    """One FP16 input: moderate values (sums round, rarely overflow), any bits (NaN, Inf, denormals), or mostly
    the special classes."""
    if mode == 'moderate':
        return (rng.getrandbits(1) << 15) | (rng.randint(8, 22) << 10) | rng.getrandbits(10)
    if mode == 'bits' or rng.random() < 0.5:
        return rng.getrandbits(16)
    return rng.choice([0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
                       0x7c01, 0x7e00, 0xfe00, 0x7fff])


def pdp_jobs(n, seed):
    rng = random.Random(seed)
    for i in range(n):
        method = i % 3
        kw, kh = rng.randint(1, 7), rng.randint(1, 7)  # cmod reads past its kernel-width table for 8
        sw, sh = rng.randint(1, kw + 1), rng.randint(1, kh + 1)
        pl, pr, pt, pb = (rng.randint(0, kw - 1), rng.randint(0, kw - 1), rng.randint(0, kh - 1),
                          rng.randint(0, kh - 1))
        wo, ho = rng.randint(1, 6), rng.randint(1, 6)
        w, h = (wo - 1) * sw + kw - pl - pr, (ho - 1) * sh + kh - pt - pb
        while w < 1:
            w, pl = w + 1, pl - 1 if pl else pl
            pr = pr - 1 if w < 1 and not pl and pr else pr
            w = (wo - 1) * sw + kw - pl - pr
        while h < 1:
            pt = pt - 1 if pt else pt
            pb = pb - 1 if not pt and pb else pb
            h = (ho - 1) * sh + kh - pt - pb
        mode = rng.choice(['moderate', 'moderate', 'bits', 'special'])
        recip = [fp17(1.0 / kw), fp17(1.0 / kh)] if rng.random() < 0.7 else [rng.getrandbits(17), rng.getrandbits(17)]
        pads = [fp17(rng.uniform(-8, 8) * (k + 1)) if mode == 'moderate' else rng.getrandbits(19) for k in range(7)]
        if rng.random() < 0.3:
            pads = [0] * 7
        vals = [fp16_value(rng, mode) for _ in range(w * h)]
        f = [method, kw, kh, sw, sh, pl, pt, pr, pb, w, h, rng.getrandbits(1)] + recip + pads + vals
        yield 'pdp ' + ' '.join(f'{x:x}' for x in f)


def eval_both(cmod_drv, ours_drv, jobs, unit, job_width=160):
    """The same random jobs through cmod's driver and the golden model's: (cmod's lines, the model's, the jobs whose
    lines differ, the first three of them for a message), or None when a side did not run (a failed check says so)."""
    stdin = '\n'.join(jobs) + '\n'
    rc1, a = run([cmod_drv, 'eval'], input=stdin, timeout=300)
    rc2, b = run([ours_drv, 'eval'], input=stdin, timeout=300)
    if not check(rc1 == 0 and rc2 == 0, f'{unit} FP16: both sides run {len(jobs)} random jobs', a[-2000:] + b[-2000:]):
        return None
    a, b = a.strip().split('\n'), b.strip().split('\n')
    bad = [(j, x, y) for j, x, y in zip(jobs, a, b) if x != y]
    detail = '\n'.join(f'{j[:job_width]}\n  cmod:   {x[:160]}\n  golden: {y[:160]}' for j, x, y in bad[:3])
    return a, b, bad, detail


def check_pdp(cmod_drv, ours_drv, n=600, seed=38):
    jobs = list(pdp_jobs(n, seed))
    got = eval_both(cmod_drv, ours_drv, jobs, 'PDP')
    if got is None:
        return
    a, b, bad, detail = got
    for m, name in enumerate(('average', 'max', 'min')):
        sel = [(x, y) for j, x, y in zip(jobs, a, b) if j.split()[1] == str(m)]
        outs = sum(len(x.split()) for x, _ in sel)
        check(all(x == y for x, y in sel) and len(a) == len(jobs),
              f'PDP FP16 {name} pooling: {len(sel)} random jobs (seed {seed}), {outs} outputs, the golden model equals '
              'cmod\'s wrappers', detail + f'\n{len(bad)} job(s) differ')


def sdp_stage(rng, mode):
    """One X stage's fields: bypass, alu_bypass, algo, mul_bypass, prelu, relu_bypass, alu_op, mul_op."""
    return [int(rng.random() < 0.2), int(rng.random() < 0.3), rng.randint(0, 3), int(rng.random() < 0.3),
            rng.getrandbits(1), rng.getrandbits(1), fp16_value(rng, mode), fp16_value(rng, mode)]


def sdp_jobs(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        mode = rng.choice(['moderate', 'moderate', 'bits', 'special'])
        vals = [fp16_value(rng, mode) for _ in range(64)]
        out = 2 if rng.random() < 0.7 else 1  # FP16 processing, FP16 or INT16 output
        f = [rng.getrandbits(1), 2, out, 0, 1, 0] + sdp_stage(rng, mode) + sdp_stage(rng, mode) + [len(vals)] + vals
        yield 'sdp ' + ' '.join(f'{x:x}' for x in f)


def check_sdp(cmod_drv, ours_drv, n=400, seed=38):
    jobs = list(sdp_jobs(n, seed))
    got = eval_both(cmod_drv, ours_drv, jobs, 'SDP')
    if got is None:
        return
    a, b, bad, detail = got
    check(not bad and len(a) == len(jobs), f'SDP FP16 X1/X2 (ALU max/min/sum/eql, multiplier, PReLU, ReLU, NaN flush, '
          'output FP16 or INT16): '
          f'{n} random jobs (seed {seed}), {64 * n} values, the golden model equals cmod\'s sdp_hls_wrapper',
          detail + f'\n{len(bad)} job(s) differ')


def fp32(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def cdp_jobs(n, seed):
    """Random CDP jobs: tables and settings chosen so that lookups hit, underflow and overflow in both tables."""
    rng = random.Random(seed)
    for _ in range(n):
        mode = rng.choice(['moderate', 'moderate', 'moderate', 'bits', 'special'])
        # the square sums of moderate values are up to about 2^17: selects of 11-20 mostly hit, -4-4 overflow both
        target = rng.choice(['hit', 'over', 'any'])
        le_sel, lo_sel = ((rng.randint(11, 20), rng.randint(13, 22)) if target == 'hit' else
                          (rng.randint(-4, 4), rng.randint(-4, 4)) if target == 'over' else
                          (rng.randint(-4, 20), rng.randint(-4, 20)))
        le_off = rng.randint(-128, -60) if target == 'over' else rng.randint(-24, 12)
        le_start = fp32(rng.choice([0.0, 0.0, rng.uniform(-4, 4), rng.uniform(0, 2 ** 10)]))
        lo_start = fp32(rng.choice([0.0, 0.0, rng.uniform(-4, 4), rng.uniform(0, 2 ** 10)]))
        le_end = fp32(rng.uniform(0, 2 ** rng.randint(0, 24)))
        lo_end = fp32(rng.uniform(0, 2 ** rng.randint(0, 24)))
        cfg = [rng.getrandbits(1), rng.getrandbits(1), rng.getrandbits(1), rng.getrandbits(1),
               int(rng.random() < 0.2), int(rng.random() < 0.3), rng.getrandbits(1), rng.randint(0, 3),
               le_start, le_end, lo_start, lo_end, le_off & 0xff, le_sel & 0xff, lo_sel & 0xff,
               *(fp16_value(rng, 'moderate') if rng.random() < 0.6 else 0 for _ in range(4)),  # slopes, 0: the entry
               fp16_value(rng, mode) if rng.random() < 0.3 else 0]
        le = [fp16_value(rng, 'moderate' if rng.random() < 0.9 else 'special') for _ in range(65)]
        lo = [fp16_value(rng, 'moderate' if rng.random() < 0.9 else 'special') for _ in range(257)]
        vals = [fp16_value(rng, mode) for _ in range(rng.choice([16, 32]))]
        f = cfg + le + lo + [len(vals)] + vals
        yield 'cdp ' + ' '.join(f'{x:x}' for x in f)


def check_cdp(cmod_drv, ours_drv, n=500, seed=38):
    jobs = list(cdp_jobs(n, seed))
    got = eval_both(cmod_drv, ours_drv, jobs, 'CDP', job_width=200)
    if got is None:
        return
    a, b, bad, detail = got
    outs = sum(len(x.split()) for x in a)
    check(not bad and len(a) == len(jobs), f'CDP FP16 (square sums of 3-9 channels, LE exponent/linear and LO tables, '
          f'priorities, bypasses, NaN flush): {n} random jobs (seed {seed}), {outs} outputs, the golden model equals '
          'cmod\'s HLS_CDP_lookup_fp16', detail + f'\n{len(bad)} job(s) differ')


def dat(data, title):
    """Bytes in NVIDIA's .dat format (a header line, then lines of 32 "0xHH")."""
    lines = [title] + [' '.join(f'0x{b:02x}' for b in data[i:i + 32]) for i in range(0, len(data), 32)]
    return '\n'.join(lines) + '\n'


def txn_case(tmp, name, cmod_drv, inp, method, kernel, pad, recip, pads, nan_to_zero, surfaces=4):
    """NVIDIA's pdp_max_pooling_int16 (8x8x64, in 16-lane atoms; 16 x `surfaces` channels) made FP16, with the given
    pooling, input values and, as its dump_mem, the output cmod's wrappers compute lane by lane: the golden model's
    run through the trace player (TXN=) must write it."""
    kw, kh, sw, sh = kernel
    pl, pt, pr, pb = pad
    wo, ho = (8 + pl + pr - kw) // sw + 1, (8 + pt + pb - kh) // sh + 1
    outs = {}
    for srf in range(surfaces):
        for lane in range(16):
            vals = [inp[((srf * 8 + y) * 8 + x) * 16 + lane] for y in range(8) for x in range(8)]
            f = [method, kw, kh, sw, sh, pl, pt, pr, pb, 8, 8, nan_to_zero] + recip + pads + vals
            outs[srf, lane] = 'pdp ' + ' '.join(f'{x:x}' for x in f)
    keys = list(outs)
    rc, out = run([cmod_drv, 'eval'], input='\n'.join(outs[k] for k in keys) + '\n', timeout=120)
    if rc != 0:
        return None, out
    res = {k: [int(v, 16) for v in line.split()] for k, line in zip(keys, out.strip().split('\n'))}
    line, surf = wo * 32, wo * ho * 32
    data = bytearray(surfaces * surf)
    for (srf, lane), vals in res.items():
        for i, v in enumerate(vals):
            a = srf * surf + (i // wo) * line + (i % wo) * 32 + 2 * lane
            data[a:a + 2] = v.to_bytes(2, 'little')
    folder = os.path.join(tmp, name)
    os.makedirs(folder)
    src = os.path.join(ROOT, '..', 'shared', 'upstream', 'nvdla_nv_full', 'verif', 'traces', 'traceplayer',
                       'pdp_max_pooling_int16', 'input.txn')
    # register words (arnvdla.h's byte address / 4): PDP and PDP_RDMA data formats, pooling method, kernel, padding
    # (PDP_RDMA's kernel at 0x300e, padding width at 0x300f), output sizes and strides
    regs = {'0xffff3421': 2, '0xffff300c': 2, '0xffff3409': method | 0x10,
            '0xffff340d': (kw - 1) | (kh - 1) << 8 | (sw - 1) << 16 | (sh - 1) << 20,
            '0xffff300e': (kw - 1) | (sw - 1) << 4, '0xffff3410': pl | pt << 4 | pr << 8 | pb << 12,
            '0xffff3406': wo - 1, '0xffff3407': ho - 1, '0xffff341e': line, '0xffff341f': surf,
            '0xffff3408': 16 * surfaces - 1, '0xffff3405': 16 * surfaces - 1, '0xffff3005': 16 * surfaces - 1}
    # the FP16 registers the INT16 trace leaves at their reset values: NaN flush, reciprocals, padding values
    fp16_regs = [('0xffff300f', pl), ('0xffff340a', nan_to_zero), ('0xffff340e', recip[0]), ('0xffff340f', recip[1])]
    fp16_regs += [(f'0xffff34{0x11 + k:02x}', pads[k]) for k in range(7)]
    txn = []
    for ln in open(src).read().split('\n'):
        f = ln.split()
        if len(f) >= 3 and f[1] in regs:
            if f[0] != 'write_reg':
                continue  # NVIDIA's read-back of a value changed here
            ln = f'write_reg {f[1]} {regs[f[1]]:#x}'
        elif f[:2] == ['write_reg', '0xffff3002']:  # PDP_RDMA's enable: everything else is written by then
            txn += [f'write_reg {r} {v:#x}' for r, v in fp16_regs]
        elif f[:1] == ['load_mem']:
            ln = f'load_mem 0x80000000 {0x800 * surfaces:#x} input.dat'
        elif f[:1] == ['dump_mem']:
            ln = f'dump_mem 0x80100000 {len(data):#x} expected.dat'
        txn.append(ln)
    open(os.path.join(folder, 'input.txn'), 'w').write('\n'.join(txn) + '\n')
    inp = inp[:1024 * surfaces]
    open(os.path.join(folder, 'input.dat'), 'w').write(dat(b''.join(v.to_bytes(2, 'little') for v in inp), 'W=0x8'))
    open(os.path.join(folder, 'expected.dat'), 'w').write(dat(data, 'dumped memory (cmod\'s pdp_hls_wrapper)'))
    return folder, ''


def sdp_txn_case(tmp, name, cmod_drv, inp, nan_to_zero, bs, bn, prec=(2, 2, 2), surfaces=2):
    """NVIDIA's sdp_relu_int16 (8x8x32 from memory to memory) with the given precisions (input, processing, output:
    1 INT16, 2 FP16), BS and BN stages (fields as sdp_stage; the converter's offset 0, scale 1, shift 0) and input;
    its dump_mem the output of cmod's sdp_hls_wrapper on every element."""
    inp = inp[:1024 * surfaces]
    f = [nan_to_zero, prec[1], prec[2], 0, 1, 0] + bs + bn + [len(inp)] + inp
    rc, out = run([cmod_drv, 'eval'], input='sdp ' + ' '.join(f'{x:x}' for x in f) + '\n', timeout=120)
    if rc != 0:
        return None, out
    data = b''.join(int(v, 16).to_bytes(2, 'little') for v in out.split())

    def cfg(st):
        return st[0] | st[1] << 1 | st[2] << 2 | st[3] << 4 | st[4] << 5 | st[5] << 6

    # register words: SDP_RDMA.D_FEATURE_MODE_CFG (in, proc, out FP16), SDP.D_DATA_FORMAT (proc, out FP16),
    # SDP.D_FEATURE_MODE_CFG (NAN_TO_ZERO), BS and BN: CFG, ALU_CFG (source register), ALU value, MUL_CFG, MUL value
    regs = {'0xffff281c': prec[0] << 2 | prec[1] << 4 | prec[2] << 6, '0xffff2c2f': prec[1] | prec[2] << 2,
            '0xffff2c2c': nan_to_zero << 3, '0xffff2c16': cfg(bs),
            '0xffff2c17': 0, '0xffff2c18': bs[6], '0xffff2c19': 0, '0xffff2c1a': bs[7], '0xffff2c1b': cfg(bn),
            '0xffff2c1c': 0, '0xffff2c1d': bn[6], '0xffff2c1e': 0, '0xffff2c1f': bn[7],
            '0xffff2805': 16 * surfaces - 1, '0xffff2c11': 16 * surfaces - 1}
    src = os.path.join(ROOT, '..', 'shared', 'upstream', 'nvdla_nv_full', 'verif', 'traces', 'traceplayer',
                       'sdp_relu_int16', 'input.txn')
    txn, written = [], set()
    for ln in open(src).read().split('\n'):
        f = ln.split()
        if len(f) >= 3 and f[1] in regs:
            if f[0] != 'write_reg':
                continue  # NVIDIA's read-back of a value changed here
            ln = f'write_reg {f[1]} {regs[f[1]]:#x}'
            written.add(f[1])
        elif f[:2] == ['write_reg', '0xffff2802']:  # SDP_RDMA's enable: the rest is written by then
            txn += [f'write_reg {r} {v:#x}' for r, v in regs.items() if r not in written]
        elif f[:1] == ['load_mem']:
            ln = f'load_mem 0x80200000 {0x800 * surfaces:#x} input.dat'
        elif f[:1] == ['dump_mem']:
            ln = f'dump_mem 0x80800000 {len(data):#x} expected.dat'
        txn.append(ln)
    folder = os.path.join(tmp, name)
    os.makedirs(folder)
    open(os.path.join(folder, 'input.txn'), 'w').write('\n'.join(txn) + '\n')
    open(os.path.join(folder, 'input.dat'), 'w').write(dat(b''.join(v.to_bytes(2, 'little') for v in inp), 'W=0x8'))
    open(os.path.join(folder, 'expected.dat'), 'w').write(dat(data, 'dumped memory (cmod\'s sdp_hls_wrapper)'))
    return folder, ''


def check_txn(cmod_drv):
    """End to end: FP16 PDP jobs through NVIDIA's trace format on the golden model (golden-only)."""
    if not os.path.isfile(sim('nvdla')):
        skip('PDP FP16 through TXN=: build/nvdla/sim is not built (make build)')
        return
    src = os.path.join(ROOT, '..', 'shared', 'upstream', 'nvdla_nv_full', 'verif', 'traces', 'traceplayer',
                       'pdp_max_pooling_int16', 'input_feature_map.dat')
    nvidia = b''.join(bytes(int(t, 16) for t in ln.split()) for ln in open(src) if ln.strip().startswith('0x'))
    nvidia = [int.from_bytes(nvidia[i:i + 2], 'little') for i in range(0, 0x2000, 2)]
    rng = random.Random(7)
    moderate = [fp16_value(rng, 'moderate') for _ in range(4096)]
    cases = [('max_nvidia_bits', nvidia, 1, (2, 2, 1, 1), (0, 0, 0, 0), [0, 0], [0] * 7, 0),
             ('min_stride2_nan_to_zero', nvidia, 2, (2, 2, 2, 2), (0, 0, 0, 0), [0, 0], [0] * 7, 1),
             ('average_3x3_pad1', moderate, 0, (3, 3, 1, 1), (1, 1, 1, 1), [fp17(1 / 3), fp17(1 / 3)],
              [fp17(0.25 * (k + 1)) for k in range(7)], 0),
             ('average_4x2_stride2_pad', moderate, 0, (4, 2, 2, 2), (2, 1, 2, 1), [fp17(1 / 4), fp17(1 / 2)],
              [fp17(-1.5 * (k + 1)) for k in range(7)], 0)]
    src = os.path.join(ROOT, '..', 'shared', 'upstream', 'nvdla_nv_full', 'verif', 'traces', 'traceplayer',
                       'sdp_relu_int16', 'input_feature_map.dat')
    sdp_nvidia = b''.join(bytes(int(t, 16) for t in ln.split()) for ln in open(src) if ln.strip().startswith('0x'))
    sdp_nvidia = [int.from_bytes(sdp_nvidia[i:i + 2], 'little') for i in range(0, 0x1000, 2)]
    sdp_cases = [('sum_mul_relu_nvidia_bits', sdp_nvidia, 1, [0, 0, 2, 0, 0, 0, 0x3800, 0xbe00],
                  [1, 1, 2, 1, 0, 1, 0, 0]),
                 ('max_then_sum_prelu', moderate[:2048], 0, [0, 0, 0, 1, 0, 1, 0x3400, 0],
                  [0, 0, 2, 0, 1, 1, 0xbc00, 0x3000]),
                 ('fp16_to_int16', moderate[:2048], 0, [0, 0, 2, 0, 0, 1, 0x5640, 0x5a00], [1, 1, 2, 1, 0, 1, 0, 0],
                  (2, 2, 1)),
                 ('int16_to_fp16_nvidia', sdp_nvidia, 0, [0, 0, 2, 1, 0, 0, 0, 1], [1, 1, 2, 1, 0, 1, 0, 0],
                  (1, 1, 2))]
    with tempfile.TemporaryDirectory() as tmp:
        for name, inp, *args in sdp_cases:
            folder, out = sdp_txn_case(tmp, 'sdp_' + name, cmod_drv, inp, *args)
            if not check(folder is not None, f'SDP FP16 {name}: cmod computes the expected output', out):
                continue
            rc, out = run([sim('nvdla'), f'+cfg={folder}', '+golden_only', '+seed=1'], timeout=120)
            check(rc == 0 and 'PASS' in out and 'bytes of the trace\'s expected memory' in out,
                  f'SDP {name} (NVIDIA\'s sdp_relu_int16 made FP16, TXN=, golden-only): the golden model writes '
                  'cmod\'s output', out)
        for name, inp, *args in cases:
            folder, out = txn_case(tmp, name, cmod_drv, inp, *args)
            if not check(folder is not None, f'PDP FP16 {name}: cmod computes the expected output', out):
                continue
            rc, out = run([sim('nvdla'), f'+cfg={folder}', '+golden_only', '+seed=1'], timeout=120)
            check(rc == 0 and 'PASS' in out, f'PDP FP16 {name} (NVIDIA\'s pdp_max_pooling_int16 made FP16, TXN=, '
                  'golden-only): the golden model writes cmod\'s output', out)


VECTORS = os.path.join(ROOT, 'vectors', 'nvdla', 'txn_fp16')


def check_vectors(cmod_drv, write):
    """vectors/nvdla/txn_fp16/: FP16 tests in NVIDIA's trace-player format (one surface of 16 channels each), run by
    tests/lists/nv_full.smoke.list golden-only and by the nightly on nv_full's RTL; their expected memory is cmod's.
    Regenerated here and compared byte for byte (--write-vectors rewrites them)."""
    rng = random.Random(11)
    mixed = [fp16_value(rng, 'moderate') if rng.random() < 0.9 else fp16_value(rng, 'special') for _ in range(1024)]
    moderate = [fp16_value(rng, 'moderate') for _ in range(1024)]
    int16 = [rng.randint(-3000, 3000) & 0xffff for _ in range(1024)]
    pdp = [('pdp_fp16_max', mixed, 1, (2, 2, 1, 1), (0, 0, 0, 0), [0, 0], [0] * 7, 0),
           ('pdp_fp16_average_pad', moderate, 0, (3, 3, 1, 1), (1, 1, 1, 1), [fp17(1 / 3), fp17(1 / 3)],
            [fp17(-0.75 * (k + 1)) for k in range(7)], 0)]
    sdp = [('sdp_fp16_sum_mul_relu', mixed, 1, [0, 0, 2, 0, 0, 0, 0x3800, 0xbe00], [0, 1, 0, 0, 1, 1, 0, 0x3400]),
           ('sdp_int16_to_fp16', int16, 0, [0, 0, 2, 0, 0, 0, 0x0123, 0x0005], [1, 1, 2, 1, 0, 1, 0, 0], (1, 1, 2))]
    with tempfile.TemporaryDirectory() as tmp:
        made = [txn_case(tmp, name, cmod_drv, inp, *args, surfaces=1) for name, inp, *args in pdp]
        made += [sdp_txn_case(tmp, name, cmod_drv, inp, *args, surfaces=1) for name, inp, *args in sdp]
        for (folder, out), name in zip(made, [c[0] for c in pdp + sdp]):
            if not check(folder is not None, f'vectors/nvdla/txn_fp16/{name}: cmod computes its expected memory', out):
                continue
            dst = os.path.join(VECTORS, name)
            if write:
                os.makedirs(dst, exist_ok=True)
                for f in os.listdir(folder):
                    shutil.copy(os.path.join(folder, f), os.path.join(dst, f))
            same = os.path.isdir(dst) and sorted(os.listdir(dst)) == sorted(os.listdir(folder)) and all(
                open(os.path.join(dst, f)).read() == open(os.path.join(folder, f)).read() for f in os.listdir(folder))
            check(same, f'vectors/nvdla/txn_fp16/{name} equals what cmod computes for it (--write-vectors rewrites it)')


CDP_OFFSET, CDP_VALUES = 19, 20 + 65 + 257  # a "cdp" job: 20 settings (the 20th D_DATIN_OFFSET), LE, LO; n, values


def cdp_rtl_feeding(job, c):
    """A CDP job line (cmod's feeding: D_DATIN_OFFSET in the channels outside the cube, c real channels) as nv_full's
    RTL reads it: +0 there (golden/nvdla/cdp_fp16.h CDP_FP16_OUTSIDE), the offset field and the pad lanes 0."""
    f = job.split()
    f[1 + CDP_OFFSET] = '0'
    first = 1 + CDP_VALUES + 1
    f[first + c:] = ['0'] * (len(f) - first - c)
    return ' '.join(f)


def check_cdp_outside(cmod_drv, jobs):
    """The one named difference between cmod and nv_full's RTL in CDP at FP16: a channel outside the cube reads as
    D_DATIN_OFFSET in cmod, +0 on the RTL (docs/nvdla_nv_full.md, "CDP at FP16"). The generator predicts the RTL; the
    jobs as cmod feeds them may differ from it only in a channel whose window reaches outside the cube, in a job with a
    non-zero offset: counted (at least one, or the jobs do not exercise it) and checked here. Returns the jobs as the
    RTL feeds them, which cmod must compute as predicted, every output."""
    if not jobs:
        return jobs
    rc, out = run([cmod_drv, 'eval'], input=''.join(j[0] + '\n' for j in jobs), timeout=300)
    got = out.splitlines() if rc == 0 else []
    differ = stray = 0
    for j, g in zip(jobs, got):
        want, f = j[1].split(), j[0].split()
        # a square sum of 3-9 channels (NORMALZ_LEN 0-3) reads 1-4 on each side; SQSUM_BYPASS none
        reach = 0 if int(f[1 + 4], 16) else int(f[1 + 7], 16) + 1
        offset = int(f[1 + CDP_OFFSET], 16)
        for k, (a, b) in enumerate(zip(want, g.split())):
            if a != b:
                differ += 1
                near = k < reach or k >= len(want) - reach
                stray += not (offset and near)
    check(rc == 0 and len(got) == len(jobs) and differ and not stray,
          f'cdp_random_fp16 jobs as cmod feeds them (D_DATIN_OFFSET outside the cube): {differ} of '
          f'{sum(len(j[1].split()) for j in jobs)} outputs differ from the RTL\'s prediction (+0 there), all in '
          f'a channel whose window reaches outside the cube in a job with a non-zero offset ({stray} elsewhere)',
          out if rc else '')
    return [[cdp_rtl_feeding(j[0], len(j[1].split())), *j[1:]] for j in jobs]


def check_random_jobs(cmod_drv, seeds=20):
    """The FP16 jobs of nv_full's random tests (sdp/pdp/cdp_random_fp16, golden-only) through cmod: each run passes (the
    golden model's memory equals the generator's prediction, element by element) and writes its jobs with that
    prediction (+nvf_oracle=); cmod computes every one of them the same."""
    if not os.path.isfile(sim('nvdla')):
        skip('random FP16 jobs through cmod: build/nvdla/sim is not built (make build)')
        return
    if not os.path.isdir(os.path.join(ROOT, '..', 'shared', 'upstream', 'nvdla_nv_full')):
        skip('random FP16 jobs through cmod: nv_full\'s register map (../shared/upstream/nvdla_nv_full) is absent')
        return
    with tempfile.TemporaryDirectory() as tmp:
        for unit in ('sdp', 'pdp', 'cdp'):
            jobs, failed = [], []
            for seed in range(1, seeds + 1):
                path = os.path.join(tmp, f'{unit}{seed}.txt')
                rc, out = run([sim('nvdla'), f'+test={unit}_random_fp16', f'+seed={seed}', '+golden_only',
                               '+fw_map=nv_full', f'+nvf_oracle={path}'], timeout=120)
                if rc != 0:
                    failed.append(f'seed {seed}: {out.strip().splitlines()[-1:]}')
                    continue
                jobs += [line.rstrip('\n').split('\t') for line in open(path)]
            if unit == 'cdp':
                jobs = check_cdp_outside(cmod_drv, jobs)
            rc, out = run([cmod_drv, 'eval'], input=''.join(j[0] + '\n' for j in jobs), timeout=300)
            got = out.splitlines() if rc == 0 else []
            diffs = [f'{j[2]}: {j[0][:60]}...: expected {j[1][:60]}..., cmod {g[:60]}...'
                     for j, g in zip(jobs, got) if j[1].split() != g.split()[:len(j[1].split())]]
            values = sum(len(j[1].split()) for j in jobs)
            check(not failed and rc == 0 and len(got) == len(jobs) and jobs and not diffs,
                  f'{unit}_random_fp16 seeds 1-{seeds} golden-only: {len(failed)} failed runs {failed[:1]}; their '
                  f'{len(jobs)} FP16 job lines ({values} outputs) equal what cmod computes '
                  f'({len(diffs)} differ{": " + diffs[0] if diffs else ""})', out if rc else '')


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
        check_pdp(*drivers)
        check_sdp(*drivers)
        check_ew()
        check_lut()
        check_cdp(*drivers)
        check_txn(drivers[0])
        check_vectors(drivers[0], write='--write-vectors' in sys.argv)
        check_random_jobs(drivers[0])
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
