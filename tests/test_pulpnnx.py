#!/usr/bin/env python3
"""pulp-nnx's NE16 driver in the loop (test pulpnnx, docs/pulpnnx.md), run by `make test`:
  - the lists: tests/lists/pulpnnx.nightly.list runs every configuration of ../shared/upstream/pulp_nnx/test/tests
    that the simulator accepts as an NE16 layer, on ours and on pulp, and each one it refuses is refused with
    "not an NE16 layer" and a reason (117 + 17 = 134);
  - negative: a pulp-nnx run with +fault=store_flip fails with the element's coordinates (k, h, w) and prints one
    repro line that carries +pulpnnx= and the fault; run as it is, that line fails the same way;
  - its +dump= trace replays without the driver (a native trace) and fails with the same mismatch at the same
    cycle; without the fault the run passes, and so does its replay, in the same number of cycles.
Skipped, with the reason, where ../shared/upstream/pulp_nnx is absent."""
import os
import re
import subprocess
import sys
import tempfile
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join('..', 'shared', 'upstream', 'pulp_nnx', 'test', 'tests')
SIM = os.path.join(ROOT, 'build', 'ne16', 'sim')
LAYER = os.path.join(TESTS, 'test_2')
T = Checks('test_pulpnnx')
check, skip = T.check, T.skip


def run(cmd, **kw):
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout + p.stderr


def list_checks():
    confs = sorted((d for d in os.listdir(os.path.join(ROOT, TESTS)) if d.startswith('test_')),
                   key=lambda d: int(d.split('_')[1]))
    text = open(os.path.join(ROOT, 'tests', 'lists', 'pulpnnx.nightly.list')).read()
    listed = {}
    for line in text.splitlines():
        m = re.match(r'ne16 test=pulpnnx 1 \+pulpnnx=\S+/(test_\d+)\s', line)
        if m:
            listed.setdefault(m.group(1), set()).add('pulp' if ' dut=pulp' in line else 'ours')
    refused = []
    for d in confs:
        if d in listed:
            continue
        rc, out = run([SIM, '+test=pulpnnx', f'+pulpnnx={os.path.join(TESTS, d)}', '+seed=1'])
        if rc != 0 and re.search(r'not an NE16 layer: \S', out):
            refused.append(d)
        else:
            check(False, f'{d} is neither in the nightly list nor refused as a non-NE16 layer')
    both = [d for d, duts in listed.items() if duts == {'ours', 'pulp'}]
    check(len(both) == len(listed) == 117 and len(refused) == 17 and len(confs) == 134,
          f'nightly list: {len(both)} configurations on ours and pulp, {len(refused)} refused as Neureka\'s '
          f'(of {len(confs)})')


def fault_checks():
    with tempfile.TemporaryDirectory(dir=os.path.join(ROOT, 'build')) as d:
        dump = os.path.join(d, 'nnx.trace')
        rc, out = run([SIM, '+test=pulpnnx', f'+pulpnnx={LAYER}', '+seed=3', '+fault=store_flip', f'+dump={dump}'])
        mm = re.search(r'MISMATCH job \d+ output: .*k=\d+ h=\d+ w=\d+.*', out)
        rep = re.search(r'^repro: (make run .*)$', out, re.M)
        cyc = re.search(r'^FAIL pulpnnx seed 3: (\d+) cycles', out, re.M)
        check(rc != 0 and mm is not None and cyc is not None,
              'a pulp-nnx run with +fault=store_flip fails with the coordinates (k, h, w) of the element')
        check(rep is not None and f'+pulpnnx={LAYER}' in rep.group(1) and '+fault=store_flip' in rep.group(1),
              'its repro line carries +pulpnnx= and +fault=store_flip')
        if rep and mm:
            rc2, out2 = run(rep.group(1), shell=True)
            check(rc2 != 0 and mm.group(0) in out2, 'the repro line, run as it is, fails with the same mismatch')
        check(os.path.isfile(dump) and open(dump).read().startswith('# accel-cosim native trace'),
              'the run wrote its +dump= native trace')
        rc3, out3 = run([SIM, f'+trace={dump}', '+seed=3', '+fault=store_flip'])
        cyc3 = re.search(r'^FAIL \S+ seed 3: (\d+) cycles', out3, re.M)
        check(rc3 != 0 and mm is not None and mm.group(0) in out3 and cyc and cyc3 and cyc.group(1) == cyc3.group(1),
              'the dump replays without the driver and fails with the same mismatch in the same cycles '
              f'({cyc3.group(1) if cyc3 else "?"})')
        clean = os.path.join(d, 'clean.trace')
        rc4, out4 = run([SIM, '+test=pulpnnx', f'+pulpnnx={LAYER}', '+seed=3', f'+dump={clean}'])
        rc5, out5 = run([SIM, f'+trace={clean}', '+seed=3'])
        c4 = re.search(r'^PASS pulpnnx seed 3: (\d+) cycles', out4, re.M)
        c5 = re.search(r'^PASS \S+ seed 3: (\d+) cycles', out5, re.M)
        check(rc4 == 0 and rc5 == 0 and c4 and c5 and c4.group(1) == c5.group(1)
              and '0 differ from the golden model, 0 from the DUT' in out4,
              'without the fault the run passes (functional model = golden model = DUT) and so does its replay, '
              f'in the same cycles ({c4.group(1) if c4 else "?"})')


def main():
    if not os.path.isdir(os.path.join(ROOT, TESTS)):
        print(f'SKIP test_pulpnnx: {TESTS} is absent')
        return 0
    if not os.access(SIM, os.X_OK):
        print(f'FAIL test_pulpnnx: {SIM} is missing (make build)')
        return 1
    list_checks()
    fault_checks()
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
