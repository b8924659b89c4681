#!/usr/bin/env python3
"""Tests of `cxx clang` in a DUT description (a model compiled with clang++, profile-guided with clang's IR profile:
flow/dut_manifest.py, the Makefile's VERILATED_SIM, flow/llvm_tools.py, flow/pgo_train.py).

Run by `make test` (a few seconds, nothing built, nothing installed): the key is read, any other value and its
pairing with hieropt are refused with file:line, the generated build/duts.mk line, the lookup of clang++ and its
LLVM tools of one version, and the training of a clang build (.profraw files in their folder).

    python3 -m tests.test_dut_cxx --build    (by hand: a few minutes of CPU; installs clang when absent)

also builds a scratch DUT, our NVDLA with `cxx clang` and its PGO training runs (described under
build/test_dut_cxx/, EXTRA_DUTS, never committed), fast simulator and traced twin, checks that clang++ compiled it
with precompiled headers and the merged profile, and that a few runs pass on it.
"""
import os
import re
import sys
import tempfile

from flow import dut_manifest
from flow import llvm_tools
from tests.checklib import Checks, dut_parse_error, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = Checks('test_dut_cxx')
check, skip = T.check, T.skip


parse_error = dut_parse_error


def check_key():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'x.dut')
        with open(path, 'w') as f:
            f.write('top NV_nvdla\nfiles x.v\ncxx clang\n')
        check(dut_manifest.parse(path, 'nvdla').cxx == 'clang', 'cxx clang is read')
    check(dut_manifest.get('nvdla', 'ours').cxx == '', 'no cxx key: the model is built with g++ (cxx empty)')
    for bad in ('gcc', 'clang gcc', ''):
        e = parse_error(f'top NV_nvdla\nfiles x.v\ncxx {bad}\n')
        check(e.startswith('bad.dut:3: cxx takes one of clang') and f"not '{bad}'" in e,
              f"cxx '{bad}' refused with file:line ({e})")
    e = parse_error('top NV_nvdla\nfiles x.v\ncxx clang\nhieropt -Os\n')
    check(e.startswith('bad.dut:3: cxx clang with hieropt'), f'cxx clang with hieropt refused at the cxx line ({e})')


def fragment_with(extra):
    """build/duts.mk's text with the descriptions of folder `extra` (EXTRA_DUTS) added; no build file written."""
    old = os.environ.get('EXTRA_DUTS')
    os.environ['EXTRA_DUTS'] = extra
    dut_manifest.all_duts.cache_clear()
    try:
        return dut_manifest.make_fragment(write=False), ''
    except dut_manifest.ManifestError as ex:
        return '', str(ex)
    finally:
        if old is None:
            del os.environ['EXTRA_DUTS']
        else:
            os.environ['EXTRA_DUTS'] = old
        dut_manifest.all_duts.cache_clear()


def scratch_dut(folder, name, extra=''):
    """A description of our NVDLA under folder/nvdla/<name>.dut (paths relative to it, as in tb/)."""
    os.makedirs(os.path.join(folder, 'nvdla'), exist_ok=True)
    here = os.path.join(folder, 'nvdla')
    duts = os.path.relpath(os.path.join(ROOT, 'tb', 'nvdla', 'duts'), here)
    adapters = ' '.join(os.path.join(duts, a) for a in dut_manifest.get('nvdla', 'ours').adapter)
    with open(os.path.join(here, f'{name}.dut'), 'w') as f:
        f.write(f"describe  our NVDLA RTL, its model built with clang (tests/test_dut_cxx.py; not committed)\n"
                f"root      - .\nfilelist  rtl/nvdla/nvdla.f\ntop       NV_nvdla\n"
                f"features  {' '.join(dut_manifest.get('nvdla', 'ours').features)}\n"
                f"adapter   {adapters}\npgo       {os.path.join(duts, 'ours.pgo')}\ncxx       clang\n{extra}")


def check_fragment():
    with tempfile.TemporaryDirectory() as t:
        scratch_dut(t, 'xclang')
        text, err = fragment_with(t)
        check('DUT_nvdla_xclang_CXX := clang\n' in text and 'DUT_nvdla_ours_CXX := \n' in text
              and 'DUT_nvdla_nv_small_CXX := \n' in text,
              f'duts.mk: DUT_<acc>_<dut>_CXX is clang for it, empty for the g++ DUTs {err}')
        scratch_dut(t, 'ours')
        text, err = fragment_with(t)
        check(not text and 'DUT ours of nvdla is described already' in err,
              f'EXTRA_DUTS: a DUT of a name already described is refused ({err})')


def check_llvm_tools():
    """clang++ on PATH, else the newest clang++-NN; clang and llvm-profdata of clang++'s version."""
    with tempfile.TemporaryDirectory() as t:
        for n in ('clang++-13', 'clang++-15', 'clang-13', 'clang-15', 'llvm-profdata-15', 'llvm-profdata'):
            p = os.path.join(t, n)
            with open(p, 'w') as f:
                f.write('#!/bin/sh\n')
            os.chmod(p, 0o755)
        old = os.environ['PATH']
        os.environ['PATH'] = t
        try:
            got = [llvm_tools.tool(n) for n in llvm_tools.TOOLS]
            os.unlink(os.path.join(t, 'clang++-15'))
            os.unlink(os.path.join(t, 'clang++-13'))
            none = llvm_tools.tool('clang')
        finally:
            os.environ['PATH'] = old
    check(got == ['clang++-15', 'clang-15', 'llvm-profdata-15'], f'the newest clang++-NN, its clang and llvm-profdata '
          f'({got})')
    check(none is None, 'no clang++: no LLVM tool found (the Makefile installs them when a clang DUT is built)')
    rc, out = run([sys.executable, '-m', 'flow.llvm_tools', 'gcc'])
    check(rc == 2 and 'Usage' in out, 'flow.llvm_tools refuses a tool it does not know')


def check_training():
    """A clang build's training runs write .profraw files into the folder of -fprofile-generate=; pgo_train
    clears the old ones first and says when none was written."""
    with tempfile.TemporaryDirectory() as t:
        prof = os.path.join(t, 'prof')
        os.makedirs(prof)
        old = os.path.join(prof, 'default_1_0.profraw')
        open(old, 'w').close()
        fake = os.path.join(t, 'Vsim')      # a stand-in instrumented simulator: writes a profile unless +noprof
        with open(fake, 'w') as f:
            f.write(f'#!/bin/sh\ncase "$*" in *+noprof*) ;; *) echo x > {prof}/default_2_0.profraw;; esac\n'
                    'echo "PASS x"\n')
        os.chmod(fake, 0o755)
        runs = os.path.join(t, 'x.pgo')
        with open(runs, 'w') as f:
            f.write('+test=a\n')
        rc, out = run([sys.executable, '-m', 'flow.pgo_train', fake, runs, prof])
        check(rc == 0 and '(0 failed)' in out and '1 profiles' in out and not os.path.exists(old),
              f'clang training: old .profraw removed, the runs write theirs ({out.strip()[-120:]})')
        with open(runs, 'w') as f:
            f.write('+test=a +noprof\n')
        rc, out = run([sys.executable, '-m', 'flow.pgo_train', fake, runs, prof])
        check(rc == 0 and 'wrote no profile (*.profraw)' in out, f'clang training without a profile is said '
              f'({out.strip()[-120:]})')


def check_build():
    """--build: the scratch clang DUT built, both simulators, and a few runs on it."""
    folder = os.path.join('build', 'test_dut_cxx')
    scratch_dut(os.path.join(ROOT, folder), 'ours_clang')
    env = dict(os.environ, EXTRA_DUTS=folder)
    bdir = os.path.join('build', 'nvdla-ours_clang')
    for sim in ('sim', 'sim-waves'):
        rc, out = run(['make', '-j2', 'PGO=1', os.path.join(bdir, sim)], timeout=3600, env=env)
        check(rc == 0, f'make {bdir}/{sim} with cxx clang', out, tail=40)
    obj = os.path.join(ROOT, bdir, 'obj')
    try:
        with open(os.path.join(obj, 'build.log')) as f:
            log = f.read()
    except OSError:
        log = ''
    cxx = llvm_tools.tool('clang++')
    compiles = [ln for ln in log.splitlines() if re.search(r'\s-c\s', ln)]
    check(bool(compiles) and all(f' {cxx} ' in ln for ln in compiles), f'every compile of the model by {cxx}')
    check(any('-include-pch Vtb_nvdla__pch.h.fast.gch' in ln for ln in compiles), 'precompiled headers read')
    check(os.path.isfile(os.path.join(obj, 'Vtb_nvdla.profdata'))
          and all(f'-fprofile-use={obj}/Vtb_nvdla.profdata' in ln for ln in compiles),
          'the training runs merged into obj/Vtb_nvdla.profdata, which every compile reads')
    rc, out = run(['make', '-j2', 'PGO=1', os.path.join(bdir, 'sim')], env=env)
    check(rc == 0 and 'BUILD' not in out and 'PGO' not in out, 'a second make rebuilds and retrains nothing', out)
    for args in (['+test=sdp_random', '+seed=3'], ['+test=conv_random', '+seed=1'], ['+test=pdp_random', '+seed=2'],
                 ['+test=conv_image', '+seed=4']):
        rc, out = run([os.path.join(bdir, 'sim'), *args])
        check(rc == 0 and 'PASS' in out, f"{bdir}/sim {' '.join(args)} passes", out)
    rc, out = run([os.path.join(bdir, 'sim-waves'), '+test=sdp_random', '+seed=3',
                   f'+wave={os.path.join(folder, "w.fst")}'])
    check(rc == 0 and 'PASS' in out and os.path.getsize(os.path.join(ROOT, folder, 'w.fst')) > 0,
          f'{bdir}/sim-waves records an FST', out)


def main():
    check_key()
    check_fragment()
    check_llvm_tools()
    check_training()
    if '--build' in sys.argv[1:]:
        check_build()
    else:
        skip('the clang build itself: python3 -m tests.test_dut_cxx --build (minutes)')
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
