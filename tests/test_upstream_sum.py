#!/usr/bin/env python3
"""A DUT's verilation depends on its vendor files' CONTENT, not their mtimes (flow/upstream_sum.py; run by
`make test`): on a tiny DUT described under a temporary folder (EXTRA_DUTS), whose model is marked up to date
with `make -t` (nothing is verilated), touching a vendor file leaves the model up to date, editing one byte, adding
a file to the set or removing one re-verilates it; the stat cache re-reads only files whose stat changed."""
import os
import shutil
import sys
import tempfile

from flow import upstream_sum
from tests.checklib import Checks, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = 'upsum_test'                                      # build/nvdla-upsum_test, removed at the end
BDIR = os.path.join('build', f'nvdla-{NAME}')
MODEL = os.path.join(BDIR, 'obj', 'Vtb_nvdla.mk')        # the verilation's target: no C++ is ever built

T = Checks('test_upstream_sum')
check = T.check


def make(env, *args):
    return run(['make', '--no-print-directory', *args, MODEL], env=env)


def settle(env):
    """Mark the model up to date without verilating: `make -t` creates verilate.cmd empty, the next make rewrites
    it with the command (it does so whenever it differs), hence a second -t; then `make -q` must say up to date."""
    make(env, '-t')
    make(env, '-t')
    return make(env, '-q')[0] == 0


def verilates(env):
    rc, out = make(env, '-n')
    return rc == 0 and '--top-module tb_nvdla' in out, out


def bump(path, seconds=5):
    """A later mtime without changing the content (as a fresh copy of the tree gives every file)."""
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 10**9))


def read(path):
    with open(path) as f:
        return f.read()


def check_cache():
    with tempfile.TemporaryDirectory() as t:
        files = []
        for i in range(3):
            files.append(os.path.join(t, f'f{i}.v'))
            with open(files[-1], 'w') as f:
                f.write(f'module f{i}; endmodule\n')
        s = os.path.join(t, 'b', 'upstream.sum')
        check(upstream_sum.write_sum(s, files), 'the first sum is written')
        newest = max(os.stat(p).st_mtime_ns for p in files)
        check(os.stat(s).st_mtime_ns == newest,
              'a first sum is dated like its newest file (the mtime rule it replaces)')
        cache = os.path.join(t, 'b', 'upstream.hashes')
        check(len(read(cache).splitlines()) == 3, 'the stat cache holds one line per file')
        # a stale cache entry for an unchanged stat is trusted: proves that files whose stat is unchanged are not read
        text = read(cache).replace(upstream_sum._sha256(files[0]), '0' * 64)
        with open(cache, 'w') as f:
            f.write(text)
        upstream_sum.write_sum(s, files)
        check('0' * 64 in read(s), 'a file whose size and mtime are unchanged is not read again')
        bump(files[0])
        check(upstream_sum.write_sum(s, files) and '0' * 64 not in read(s),
              'a file whose mtime changed is hashed again')
        check(not upstream_sum.write_sum(s, files), 'nothing changed: the sum is not rewritten')


def main():
    check_cache()
    if os.path.exists(os.path.join(ROOT, BDIR)):
        shutil.rmtree(os.path.join(ROOT, BDIR))
    with tempfile.TemporaryDirectory() as t:
        rtl, extra = os.path.join(t, 'rtl'), os.path.join(t, 'duts', 'nvdla')
        os.makedirs(os.path.join(rtl, 'inc'))
        os.makedirs(extra)
        with open(os.path.join(rtl, 'top.v'), 'w') as f:
            f.write('module upsum_top; endmodule\n')
        with open(os.path.join(rtl, 'inc', 'defs.vh'), 'w') as f:
            f.write('`define UPSUM 1\n')
        with open(os.path.join(extra, f'{NAME}.dut'), 'w') as f:
            f.write(f'describe test_upstream_sum\nroot - {rtl}\nfiles *.v\nincdirs inc\ntop upsum_top\n')
        env = dict(os.environ, EXTRA_DUTS=os.path.join(t, 'duts'))
        env.pop('MAKEFLAGS', None)
        try:
            os.makedirs(os.path.join(ROOT, BDIR, 'obj'))
            rc, out = run(['make', '--no-print-directory', '-q', 'duts'], env=env)   # any target: writes duts.mk
            with open(os.path.join(ROOT, 'build', 'duts.mk')) as f:
                deps = next((ln for ln in f if ln.startswith(f'DUT_nvdla_{NAME}_DEPS :=')), '')
            check(f'{BDIR}/upstream.sum' in deps and 'top.v' not in deps and 'defs.vh' not in deps,
                  f'the verilation depends on upstream.sum, not on the vendor files ({deps.strip()[-120:]})')
            check(settle(env), f'{MODEL} marked up to date (make -t)')
            for f in ('top.v', 'inc/defs.vh'):
                bump(os.path.join(rtl, f))
            v, out = verilates(env)
            check(not v, 'vendor files touched, contents unchanged (a tree copied anew): no re-verilation', out)
            check(settle(env), 'still up to date')
            with open(os.path.join(rtl, 'inc', 'defs.vh'), 'a') as f:
                f.write(' ')
            v, out = verilates(env)
            check(v, 'one byte added to an included vendor file: re-verilation', out)
            check(settle(env), 'up to date again')
            with open(os.path.join(rtl, 'more.v'), 'w') as f:
                f.write('module upsum_more; endmodule\n')
            v, out = verilates(env)
            check(v, 'a vendor file joins the set (files *.v): re-verilation', out)
            check(settle(env), 'up to date again')
            os.unlink(os.path.join(rtl, 'more.v'))
            v, out = verilates(env)
            check(v, 'a vendor file leaves the set: re-verilation', out)
        finally:
            shutil.rmtree(os.path.join(ROOT, BDIR), ignore_errors=True)
            run(['make', '--no-print-directory', '-q', 'duts'])     # build/duts.mk without the test's DUT again
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
