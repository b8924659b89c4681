"""Functional-coverage report rules (flow/fcov_report.py), run by `make test` as python3 -m tests.test_fcov_report:
  - a hole fails the gate (--require-all) and is named;
  - a whole-cross waiver (bin '*', reason NEEDS-DUT:) keeps a cross nothing sampled out of the gate, saying
    NOT RUN with its reason; once one bin of it is hit the rest are gated again;
  - a whole-cross waiver without NEEDS-DUT:, or naming no cross, is refused;
  - a required cross (tb/<acc>/<acc>_cov_required.tsv) missing, or with another number of bins, fails the gate;
  - a malformed table stops the report (exit 2) naming its line;
  - the accelerators' own tables read."""
import io
import os
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout

from flow import fcov_report
from tests.checklib import Checks

T = Checks('test_fcov_report')
check = T.check


def gate(cov, waivers=None, required=None):
    """The gate of accelerator x over one coverage file, with the tables given (None: no such table)."""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'a.cov'), 'w') as f:
            f.write(cov)
        os.makedirs(os.path.join(d, 'tb', 'x'))
        for kind, text in (('waivers', waivers), ('required', required)):
            if text is not None:
                with open(fcov_report.table_path(d, 'x', kind), 'w') as f:
                    f.write(text)
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(out):
            rc = fcov_report.report('x', [os.path.join(d, 'a.cov')], require_all=True, root=d)
        return rc, out.getvalue()


BASE = "dp_a v=0 3\ndp_a v=1 1\n"
CONV0 = "conv_k k=1 0\nconv_k k=2 0\n"
CONV1 = "conv_k k=1 5\nconv_k k=2 0\n"
NEEDS = "conv_k\t*\tNEEDS-DUT: convolution (a DUT with it)\n"

rc, out = gate(BASE + CONV0, "")
check(rc == 1 and 'conv_k: k=1 k=2' in out, 'an unwaived hole fails the gate, named', out)
rc, out = gate(BASE + CONV0, NEEDS)
check(rc == 0 and 'NOT RUN' in out and 'convolution (a DUT with it)' in out,
      'a cross nothing sampled, waived NEEDS-DUT, is reported NOT RUN and not gated', out)
rc, out = gate(BASE + CONV1, NEEDS)
check(rc == 1 and 'conv_k: k=2' in out and 'NOT RUN' not in out,
      'once one bin of a NEEDS-DUT cross is hit, its other bins are gated', out)
rc, out = gate(BASE + CONV0, "conv_k\t*\tbecause\n")
check(rc == 1 and 'NEEDS-DUT' in out, "a whole-cross waiver without NEEDS-DUT: is refused", out)
rc, out = gate(BASE + CONV0, "conv_z\t*\tNEEDS-DUT: x\n" + NEEDS)
check(rc == 1 and 'names no cross' in out, 'a whole-cross waiver naming no cross is refused', out)
rc, out = gate(BASE, None)
check(rc == 0 and 'waived' not in out and 'holes: none\n' in out,
      'without a waivers table: no waived column, the gate passes when every bin is hit', out)
rc, out = gate(BASE, None, "dp_a\t2\ttwo values\n")
check(rc == 0, 'a required cross with its number of bins passes', out)
rc, out = gate(BASE, None, "dp_a\t3\tthree values\n")
check(rc == 1 and 'cross dp_a has 2 bins, the spec allows 3' in out, 'a required cross of another size fails', out)
rc, out = gate(BASE, None, "conv_k\t2\tk\n")
check(rc == 1 and 'required cross conv_k is missing' in out, 'a missing required cross fails', out)
rc, out = gate(BASE, "dp_a v=0 no tabs\n")
check(rc == 2 and 'x_cov_waivers.tsv:1:' in out, 'a malformed waivers line stops the report, named', out)
for acc in fcov_report.accelerators():
    try:
        fcov_report.read_waivers(fcov_report.table_path(fcov_report.ROOT, acc, 'waivers'))
        fcov_report.read_required(fcov_report.table_path(fcov_report.ROOT, acc, 'required'))
        ok, why = True, ''
    except ValueError as e:
        ok, why = False, str(e)
    check(ok, f'{acc}: its coverage tables read', why)
sys.exit(T.summary())
