#!/usr/bin/env python3
"""Functional-coverage report rules (tb/common/fcov_report.py), run by `make test`:
  - a hole fails the gate (--require-all) and is named;
  - a whole-cross waiver (bin '*', reason NEEDS-DUT:) keeps a cross nothing sampled out of the gate, saying
    NOT RUN with its reason; once one bin of it is hit the rest are gated again;
  - a whole-cross waiver without NEEDS-DUT:, or naming no cross, is refused."""
import io
import os
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tb', 'common'))
import fcov_report  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checklib import Checks  # noqa: E402

T = Checks('test_fcov_report')
check, skip = T.check, T.skip


def gate(cov, waivers):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'a.cov'), 'w') as f:
            f.write(cov)
        wp = os.path.join(d, 'w.txt')
        with open(wp, 'w') as f:
            f.write(waivers)
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(out):
            rc = fcov_report.report('x', [d], wp, require_all=True)
        return rc, out.getvalue()


BASE = "dp_a v=0 3\ndp_a v=1 1\n"
CONV0 = "conv_k k=1 0\nconv_k k=2 0\n"
CONV1 = "conv_k k=1 5\nconv_k k=2 0\n"
NEEDS = "conv_k * NEEDS-DUT: convolution (a DUT with it)\n"

rc, out = gate(BASE + CONV0, "")
check(rc == 1 and 'conv_k: k=1 k=2' in out, 'an unwaived hole fails the gate, named')
rc, out = gate(BASE + CONV0, NEEDS)
check(rc == 0 and 'NOT RUN' in out and 'convolution (a DUT with it)' in out,
      'a cross nothing sampled, waived NEEDS-DUT, is reported NOT RUN and not gated')
rc, out = gate(BASE + CONV1, NEEDS)
check(rc == 1 and 'conv_k: k=2' in out and 'NOT RUN' not in out,
      'once one bin of a NEEDS-DUT cross is hit, its other bins are gated')
rc, out = gate(BASE + CONV0, "conv_k * because\n")
check(rc == 1 and 'NEEDS-DUT' in out, "a whole-cross waiver without NEEDS-DUT: is refused")
rc, out = gate(BASE + CONV0, "conv_z * NEEDS-DUT: x\n" + NEEDS)
check(rc == 1 and 'names no cross' in out, 'a whole-cross waiver naming no cross is refused')
sys.exit(T.summary())
