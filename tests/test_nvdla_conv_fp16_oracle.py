#!/usr/bin/env python3
"""The golden model's FP16 convolution arithmetic (golden/nvdla/conv_fp16.c) against NVIDIA's C model itself
(docs/nvdla_nv_full.md, "FP16 convolution"), run by `make test`.

cmod's CMAC cell (class NvdlaMacCell in cmod/cmac/NV_NVDLA_cmac.h) and CACC's FP48 add and FP32 delivery
(cacc_fp16_add, cacc_fp48_to_fp32 in cmod/cacc/NV_NVDLA_cacc.cpp) are SystemC code (sc_int), so this needs SystemC's
headers and library (Debian's libsystemc-dev, which flow/setup/install_deps.sh installs). They are cut from ../shared at
test time into build/nvdla_conv_fp16_oracle/cmod_conv_fp16.inc (nothing of cmod enters the repository; the member
functions become free functions, their text otherwise as it is) and linked with tests/oracle/nvdla_conv_fp16_cmod.cpp
and the golden model's conv_fp16.c, which compares both on random cells (all of FP16's classes: zeros skipped by CSC's
mask, denormals, Inf, NaN, any bits; exponents from tiny to large so products align across the whole range) and
random chains of 1-12 cells through CACC, and the same random cells in Winograd mode (cmod's winograd_op_) against
conv_wino_fp16.c's cell (docs/nvdla_nv_full.md, "Winograd at FP16"). The one place the model follows the RTL instead
of cmod (a negative rounding carry renormalised, NV_NVDLA_CACC_CALC_fp_48b.v:439-440) is counted apart: cmod's
accumulator then has the same value in another form.
Skipped, saying so, where ../shared's cmod or SystemC is absent."""
import os
import re
import sys
from tests.checklib import Checks, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CMOD = os.path.join(ROOT, '..', 'shared', 'upstream', 'nvdla_nv_full', 'cmod')
OUT = os.path.join(ROOT, 'build', 'nvdla_conv_fp16_oracle')
SYSTEMC_H = '/usr/include/systemc.h'
T = Checks('test_nvdla_conv_fp16_oracle')
check, skip = T.check, T.skip


def cut(path, start, end):
    """The text of path from the line holding `start` up to (not including) the line holding `end`."""
    text = open(path).read()
    i = text.find(start)
    j = text.find(end, i + 1)
    if i < 0 or j < 0:
        return None
    return text[text.rfind('\n', 0, i) + 1:text.rfind('\n', 0, j) + 1]


def extract():
    cmac_h = os.path.join(CMOD, 'cmac', 'NV_NVDLA_cmac.h')
    cacc_cpp = os.path.join(CMOD, 'cacc', 'NV_NVDLA_cacc.cpp')
    cacc_h = os.path.join(CMOD, 'cacc', 'NV_NVDLA_cacc.h')
    defines = [ln for ln in open(cmac_h).read().splitlines()
               if re.match(r'#(define|undef) ', ln) and '_NV_NVDLA_CMAC_H_' not in ln and 'SC_INCLUDE' not in ln]
    cell = cut(cmac_h, 'class NvdlaMacCell {', 'class NV_NVDLA_cmac:')
    add = cut(cacc_cpp, 'void NV_NVDLA_cacc::cacc_fp16_add(', 'void NV_NVDLA_cacc::cacc_fp48_to_fp32(')
    fp32 = cut(cacc_cpp, 'void NV_NVDLA_cacc::cacc_fp48_to_fp32(', '#pragma CTC SKIP\nNV_NVDLA_cacc * NV_NVDLA_caccCon')
    widths = '#define FP16_ALEN 48' in open(cacc_h).read()
    debug = re.findall(r'^#define FP16DEBUG_DETAIL .*$', open(cacc_cpp).read(), re.M)[:1]
    missing = [n for n, t in (('NvdlaMacCell', cell), ('cacc_fp16_add', add), ('cacc_fp48_to_fp32', fp32)) if not t]
    if missing or not widths:
        return None, f'cmod changed: {", ".join(missing) or "FP16_ALEN 48"} not found where expected'
    # cacc.h's default (no NVDLA_GENERIC_CACC_USE_39_BIT_FP_ADDER): the 48-bit adder, as nv_full's RTL (CALC_fp_48b)
    inc = ['// cut from ../shared/upstream/nvdla_nv_full/cmod by tests/test_nvdla_conv_fp16_oracle.py', *defines,
           '#define NVDLA_CMAC_A_D_MISC_CFG_0_PROC_PRECISION_INT8 0',
           '#define NVDLA_CMAC_A_D_MISC_CFG_0_PROC_PRECISION_INT16 1',
           '#define NVDLA_CMAC_A_D_MISC_CFG_0_PROC_PRECISION_FP16 2',
           '#define FP16_ALEN 48', '#define FP16_ELEN 8', '#define FP16_MLEN 40', *debug, cell,
           add.replace('NV_NVDLA_cacc::', 'static '), fp32.replace('NV_NVDLA_cacc::', 'static ')]
    return '\n'.join(inc) + '\n', None


def build():
    os.makedirs(OUT, exist_ok=True)
    inc, why = extract()
    if not inc:
        check(False, f'cut cmod\'s FP16 cell and CACC functions: {why}')
        return None
    with open(os.path.join(OUT, 'cmod_conv_fp16.inc'), 'w') as f:
        f.write(inc)
    objs = []
    exe = os.path.join(OUT, 'nvdla_conv_fp16_cmod')
    for src in ('conv_fp16', 'conv_wino_fp16', 'conv_winograd', 'nvdla_fp16'):
        objs.append(os.path.join(OUT, src + '.o'))
        rc, out = run(['gcc', '-std=c11', '-O2', '-Wall', '-Wextra', '-Werror', '-Igolden/nvdla', '-c',
                       f'golden/nvdla/{src}.c', '-o', objs[-1]])
        if not check(rc == 0, f'the golden model\'s {src}.c compiles', out):
            return None
    rc, out = run(['g++', '-O1', '-w', '-I' + OUT, '-Igolden/nvdla', 'tests/oracle/nvdla_conv_fp16_cmod.cpp', *objs,
                   '-lsystemc', '-o', exe], timeout=300)
    if not check(rc == 0, 'cmod\'s NvdlaMacCell and CACC FP16 functions build with SystemC into ' +
                 os.path.relpath(exe, ROOT), out):
        return None
    return exe


def main():
    if not os.path.isdir(CMOD):
        skip(f'NVIDIA\'s C model is absent ({os.path.relpath(CMOD, ROOT)}): the oracle cannot be built')
        return T.summary()
    if not os.path.exists(SYSTEMC_H):
        skip(f'SystemC is absent ({SYSTEMC_H}; Debian libsystemc-dev, flow/setup/install_deps.sh installs it): '
             'cmod\'s FP16 cell and CACC cannot be built')
        return T.summary()
    exe = build()
    if exe:
        cells, chains = 20000, 20000
        rc, out = run([exe, str(cells), str(chains), '38'], timeout=600)
        m = re.search(r'cells (\d+) differ (\d+); chains (\d+) differ (\d+) deviation (\d+); wino (\d+) differ (\d+)',
                      out)
        check(rc == 0 and m and m.group(2) == '0' and m.group(4) == '0' and m.group(7) == '0',
              f'{cells} random FP16 cells, {chains} chains of 1-12 cells through CACC (FP48 sums, FP32 delivery) and '
              f'{cells} Winograd cells (POA, one exponent, one NaN): the golden model equals cmod '
              f'({m.group(0) if m else "no summary"}; a deviation is the RTL\'s renormalised negative rounding carry, '
              'the same value)', out)
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
