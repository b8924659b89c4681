#!/usr/bin/env python3
"""The fuzz lane's classifier and gate (flow/fuzz.py), run by `make test`: fake simulators planted in place of
build/nvdla/sim, each passing the unmutated input and misbehaving on its mutants in one way, must each be
classified as that and fail the gate (exit 1), with the run listed in build/.../report.txt with its repro
commands:
  - one that kills itself with SIGSEGV: crash; one that stops on 'out of memory' naming no file: crash;
  - one that tries to allocate 1 GiB under a 0.5 GiB limit and passes if it can: crash (the limit is applied);
  - one that sleeps past the time limit: hang;
  - one that passes having compared nothing: silent-pass;
  - one that refuses naming the file and line but prints no repro line, and one that names no file: unclear;
and one that refuses every mutant cleanly (file:line, repro line) passes the gate. Then the rules themselves:
a pass whose mutant corrupted the input's own expected result is a silent pass, and `implied` tells a corrupt
expectation (value changed, CRC changed) from one still true of the correct output (a narrower mask, a check
removed). No simulator and no ../shared needed: the input is a small .cfg written here."""
import json
import os
import sys
import tempfile

from flow import fuzz
from flow import fuzz_mutants as fm
from tests.checklib import Checks, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = Checks('test_fuzz')
check = T.check

CFG = '''mem_init(pri_mem, 0x80000000, 0x100, ALL_ZERO);
reg_write(NVDLA_PDP.D_DATA_CUBE_IN_WIDTH_0, 0x7);
reg_write(NVDLA_PDP.D_OP_ENABLE_0, 0x1);
intr_notify(PDP_0, sync_id_0);
check_crc(sync_id_0, pri_mem, 0x80000000, 0x100, 0x12345678);
'''

# The fake simulator: the unmutated input (a path outside the mutants' folder) passes; a mutant gets MODE.
FAKE = r'''#!/usr/bin/env python3
import os, signal, sys, time
mode = os.environ['FAKE_MODE']
cfg = next(a[5:] for a in sys.argv if a.startswith('+cfg='))
PASS = ('job t PASS  cycles 10  bytes compared 256  mismatches 0\n'
        'checked: 256 output bytes compared, 0 expected values read\nPASS t seed 1: 10 cycles, 1 jobs, 0 errors\n')
REPRO = f'repro: make run ACC=nvdla CFG={cfg} SEED=1\n'
if '/mutants/' not in cfg:
    sys.stdout.write(PASS); sys.exit(0)
if mode == 'segv':
    os.kill(os.getpid(), signal.SIGSEGV)
if mode == 'oom':
    print('mem: out of memory allocating 4104 bytes', flush=True); sys.exit(1)
if mode == 'alloc':
    try:
        b = bytearray(1 << 30)
    except MemoryError:
        print('ERROR: out of memory allocating 1073741824 bytes', flush=True); sys.exit(1)
    sys.stdout.write(PASS); sys.exit(0)
if mode == 'hang':
    time.sleep(60)
if mode == 'silent':
    print('job t PASS  cycles 10  bytes compared 0  mismatches 0\n'
          'checked: 0 output bytes compared, 0 expected values read\nPASS t seed 1: 10 cycles, 1 jobs, 0 errors')
    sys.exit(0)
if mode == 'norepro':
    print(f'ERROR: {cfg}:3: unrecognized line', file=sys.stderr); sys.exit(2)
if mode == 'nofile':
    print('ERROR: something went wrong', file=sys.stderr); sys.stderr.write(REPRO); sys.exit(2)
if mode == 'clean':
    print(f'ERROR: {cfg}:3: unrecognized line', file=sys.stderr); sys.stderr.write(REPRO); sys.exit(2)
sys.exit(3)
'''

# mode: (the class every mutant must get, its reason must contain, extra flow.fuzz arguments)
PLANTS = {
    'segv': ('crash', 'SIGSEGV', []),
    'oom': ('crash', 'out of memory naming no input file', []),
    'alloc': ('crash', 'out of memory naming no input file', ['--mem-gib', '0.5']),
    'hang': ('hang', 'no exit within 2 s', ['--timeout', '2']),
    'silent': ('silent-pass', 'compared nothing', []),
    'norepro': ('unclear', 'without a repro line', []),
    'nofile': ('unclear', 'naming no input file', []),
}


def campaign(tmp, mode, extra, n=3):
    out = os.path.relpath(os.path.join(tmp, f'mutants/{mode}'), ROOT)
    rc, text = run([sys.executable, '-m', 'flow.fuzz', '--inputs', os.path.join(tmp, 'inputs.tsv'), '--count',
                    str(n), '--sim', f'nvdla={os.path.join(tmp, "fake_sim.py")}', '--out', out, '--jobs', '2',
                    '--seed', '7', *extra], env=dict(os.environ, FAKE_MODE=mode), timeout=300)
    path = os.path.join(ROOT, out, 'report.json')
    rep = json.load(open(path)) if os.path.exists(path) else {}
    txt = open(os.path.join(ROOT, out, 'report.txt')).read() if rep else ''
    return rc, text, rep, txt


def planted(tmp):
    for mode, (cls, why, extra) in PLANTS.items():
        rc, text, rep, txt = campaign(tmp, mode, extra)
        runs = [r for r in rep.get('runs', []) if not r['base']]
        got = sorted({r['cls'] for r in runs})
        check(rc == 1 and runs and got == [cls] and all(why in r['reason'] for r in runs),
              f'planted {mode}: all {len(runs)} mutants {cls} ({why}), gate fails (exit {rc}; classes {got})', text)
        check(rep.get('gate') == 'FAIL' and rep['totals'][cls] == len(runs) and
              all(f'--seed 7 --only {r["id"]}' in txt for r in runs) and 'fuzz: seed 7' in text,
              f'planted {mode}: report lists each with its repro (python3 -m flow.fuzz --seed 7 --only <id>)', txt)
    rc, text, rep, txt = campaign(tmp, 'clean', [])
    check(rc == 0 and rep.get('gate') == 'PASS' and rep['totals']['clean-error'] == 3,
          f'a simulator refusing every mutant with file:line and its repro line passes the gate (exit {rc})', text)


def rules():
    names = ['build/fuzz/x/t.cfg']
    ok = ('job t PASS  cycles 1  bytes compared 8  mismatches 0\nchecked: 8 output bytes compared, 0 expected values '
          'read\nPASS t seed 1: 1 cycles, 1 jobs, 0 errors\n')
    check(fuzz.classify(0, ok, False, names)[0] == 'pass', 'a pass that compared 8 bytes: pass')
    cls, why = fuzz.classify(0, ok, False, names, expect_ok=False, expect_note='its expected result changed')
    check(cls == 'silent-pass', f'the same pass of a mutant whose expected result is corrupt: silent-pass ({why})')
    check(fuzz.classify(0, ok.replace('8 output', '0 output').replace('compared 8', 'compared 0'), False,
                        names)[0] == 'silent-pass', 'a pass that compared nothing: silent-pass')
    err = 'ERROR: build/fuzz/x/t.cfg: unrecognized\nrepro: make run ACC=nvdla CFG=build/fuzz/x/t.cfg SEED=1\n'
    check(fuzz.classify(2, err, False, names)[0] == 'unclear', 'names the file but not where: unclear')
    check(fuzz.classify(2, err.replace('t.cfg:', 't.cfg:4:', 1), False, names)[0] == 'clean-error',
          'names file:line and has its repro line: clean-error')
    fail = ('[cycle 9] ERROR job t MISMATCH at 0x80000010\nFAIL t seed 1: 9 cycles, 1 jobs, 1 errors\n'
            'repro: make run ACC=nvdla CFG=x SEED=1\n')
    check(fuzz.classify(1, fail, False, names)[0] == 'fail', 'ran and failed with its error and repro: fail')
    check(fuzz.classify(1, 'job crashed with signal 11\nrepro: make run X\n', False, names)[0] == 'crash',
          "the simulator's crash handler ('crashed with signal'): crash")
    orig = {0x100: (0xff, 0x12), 0x104: (0xffffffff, 0x3456)}
    check(fm.implied(orig, {0x100: (0x0f, 0x02)}), 'a narrower mask, value equal under it: still true')
    check(not fm.implied(orig, {0x100: (0xff, 0x13)}), 'a known-answer value changed: corrupt')
    check(not fm.implied(orig, {0x108: (0xff, 0)}), 'a known answer at an address the original does not state: '
          'not known true')
    check(not fm.implied(orig, 'unreadable'), 'an expectation that does not read: not known true')
    crc = fm.cfg_expectation({'t.cfg': CFG.encode()})
    check(fm.implied(crc, fm.cfg_expectation({'t.cfg': CFG.replace('check_crc', '// check_crc').encode()})),
          'a check_crc removed: nothing false is expected (the lane still requires something compared)')
    check(not fm.implied(crc, fm.cfg_expectation({'t.cfg': CFG.replace('0x12345678', '0x12345679').encode()})),
          'a check_crc value changed: corrupt')
    check(not fm.implied(crc, fm.cfg_expectation({'t.cfg': CFG.replace('check_crc', 'check_crx').encode()})),
          'a check line that no longer reads as check_crc: not known true')


def main():
    rules()
    with tempfile.TemporaryDirectory(dir=os.path.join(ROOT, 'build')) as tmp:
        os.makedirs(os.path.join(tmp, 'in'))
        with open(os.path.join(tmp, 'in', 't.cfg'), 'w') as f:
            f.write(CFG)
        with open(os.path.join(tmp, 'fake_sim.py'), 'w') as f:
            f.write(FAKE)
        os.chmod(os.path.join(tmp, 'fake_sim.py'), 0o755)
        with open(os.path.join(tmp, 'inputs.tsv'), 'w') as f:
            f.write(f'cfg\t{os.path.relpath(os.path.join(tmp, "in"), ROOT)}\tt.cfg\t3\t0\t3\t0\n')
        planted(tmp)
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
