#!/usr/bin/env python3
"""Golden-only runs, repro lines and run names (run by `make test`; issue: nightly beyond one machine):
  - the MAX78000 SDK mnist trace replays on the golden model alone (+golden_only, no RTL) and passes against
    expected.txt and layerN.txt; the wall time is printed (a figure, not a pass criterion);
  - against a corrupted copy of expected.txt (+expect_dir=) it fails, and its printed repro line, run as it is,
    reproduces the same mismatch;
  - a regression with two SDK traces reports two distinct run names (each named after its network);
  - the NVDLA nv_small SDP/PDP/CDP and convolution traces pass golden-only;
  - the tests showing nv_small's CBUF deviations (weight padding, weight credit, image read across the ring wrap)
    (expected to fail on nv_small) pass on the golden model, every layer computed: their failure on nv_small is the
    RTL's.
Skipped, with the reason, where ../shared/conformance is absent."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MNIST = os.path.join('..', 'shared', 'conformance', 'max78000', 'mnist')
NVDLA = os.path.join('..', 'shared', 'conformance', 'nvdla')
T = Checks('golden_only')
check, skip = T.check, T.skip


def run(cmd, **kw):
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout + p.stderr


def mnist_checks():
    sim = os.path.join(ROOT, 'build', 'max78000', 'sim')
    trace = os.path.join(MNIST, 'apb_trace.txt')
    t0 = time.monotonic()
    rc, out = run([sim, f'+trace={trace}', '+golden_only', '+seed=1'])
    wall = time.monotonic() - t0
    check(rc == 0 and 'expected.txt: 10 words match' in out and re.search(r'^PASS ', out, re.M),
          f'mnist golden-only replay passes against expected.txt ({wall:.3f} s wall, no RTL)')
    with tempfile.TemporaryDirectory(dir=os.path.join(ROOT, 'build')) as d:
        bad = os.path.join(d, 'mnist')
        shutil.copytree(os.path.join(ROOT, MNIST), bad)
        exp = os.path.join(bad, 'expected.txt')
        text = open(exp).read()
        m = re.search(r'^([0-9a-f]{8}) ([0-9a-f]{8})', text, re.M)
        open(exp, 'w').write(text[:m.start(2)] + f"{int(m.group(2), 16) ^ 1:08x}" + text[m.end(2):])
        rc, out = run([sim, f'+trace={trace}', '+golden_only', '+seed=1', f'+expect_dir={bad}'])
        mm = re.search(r'MISMATCH golden model vs .*', out)
        rep = re.search(r'^repro: (make run .*)$', out, re.M)
        check(rc == 1 and mm is not None, 'a corrupted expected.txt (+expect_dir=) fails the golden-only replay')
        check(rep is not None and '+golden_only' in rep.group(1) and f'+expect_dir={bad}' in rep.group(1),
              'its repro line carries +golden_only and +expect_dir=')
        if rep and mm:
            rc2, out2 = run(rep.group(1), shell=True)
            check(rc2 != 0 and mm.group(0) in out2, 'the repro line reproduces the same mismatch')
        # two SDK traces (networks mnist and kws, say) in one regression: two names, after their networks;
        # two traces that would share a name are refused rather than sharing a log and a result
        other = os.path.join(d, 'kws')
        os.rename(bad, other)
        from flow import regress
        lst = os.path.join(d, 'two.list')
        with open(lst, 'w') as f:
            f.write(f"max78000 trace={trace} 1 +golden_only\nmax78000 trace={os.path.join(other, 'apb_trace.txt')} 1 "
                    f"+golden_only\n")
        ids = [regress.run_id(r) for r in regress.expand(regress.parse_list(lst), 1)]
        check(ids == ['max78000.mnist.golden_only.s1', 'max78000.kws.golden_only.s1'],
              f'two SDK traces give two run names, after their networks: {", ".join(ids)}')
        clash = os.path.join(d, 'x', 'mnist')
        shutil.copytree(other, clash)
        with open(lst, 'w') as f:
            f.write(f"max78000 trace={trace} 1\nmax78000 trace={os.path.join(clash, 'apb_trace.txt')} 1\n")
        try:
            regress.expand(regress.parse_list(lst), 1)
            refused = ''
        except regress.ListError as ex:
            refused = str(ex)
        check('has the name of the run of' in refused, f'two traces with one name are refused: {refused[-90:]}')


def nvdla_checks():
    sim = os.path.join(ROOT, 'build', 'nvdla', 'sim')
    for cfg in sorted(p for p in os.listdir(os.path.join(ROOT, NVDLA)) if p[:3] in ('sdp', 'pdp', 'cdp', 'dc_')):
        path = os.path.join(NVDLA, cfg, cfg + '.cfg')
        rc, out = run([sim, f'+cfg={path}', '+golden_only', '+seed=1'])
        check(rc == 0 and re.search(r'check_crc .* ok', out) is not None, f'{cfg} passes its CRC golden-only')


def deviation_demo_checks():
    sim = os.path.join(ROOT, 'build', 'nvdla', 'sim')
    for test in ('conv_wpad_skew', 'conv_wt_credit_hang', 'conv_image_wrap'):
        for seed in (1, 2, 3):
            rc, out = run([sim, f'+test={test}', '+golden_only', f'+seed={seed}'])
            layers = re.findall(r'^job (\S+) +(PASS|FAIL)', out, re.M)
            layers = [v for name, v in layers if not name.endswith('.flush')]
            # golden-only, a generator's check_golden has no DUT to compare: the run says "nothing was checked"
            # (issue 23) and must say nothing else, i.e. the model computed both layers without an error
            errs = [l for l in out.splitlines() if 'ERROR' in l]
            check(rc == 1 and len(layers) == 2 and len(errs) == 1 and 'nothing was checked' in errs[0],
                  f'{test} seed {seed}: the golden model computes both layers without an error')


def main():
    deviation_demo_checks()
    if not os.path.isdir(os.path.join(ROOT, MNIST)):
        skip(f'{MNIST} is absent')
    else:
        mnist_checks()
    if not os.path.isdir(os.path.join(ROOT, NVDLA)):
        skip(f'{NVDLA} is absent')
    else:
        nvdla_checks()
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
