"""The bookkeeping every tests/test_*.py suite shares: one line per check (ok / FAIL), the failed check's output
tail, skips said with their reason, and one summary line whose counts `make test` shows.

    from checklib import Checks
    T = Checks('test_cli')
    T.check(rc != 0, 'make run ACC=foo fails', out)
    T.skip('nv_small is not built')
    sys.exit(T.summary())
"""


import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sim(acc):
    """The simulator of an accelerator's default DUT in this checkout."""
    return os.path.join(ROOT, 'build', acc, 'sim')


def run(cmd, timeout=120, **kw):
    """Runs cmd from the checkout's root: (exit status, stdout + stderr), or (None, 'timed out after N s')."""
    try:
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        return None, f'timed out after {timeout} s'
    return p.returncode, p.stdout + p.stderr


def dut_parse_error(text):
    """The error flow.dut_manifest gives for a description of this text (its temp folder left out), or ''."""
    from flow import dut_manifest
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'bad.dut')
        with open(path, 'w') as f:
            f.write(text)
        try:
            dut_manifest.parse(path, 'nvdla')
        except dut_manifest.ManifestError as ex:
            return str(ex).replace(d + '/', '')
    return ''


class Checks:
    def __init__(self, name):
        self.name = name
        self.checked, self.failures, self.skipped = [], [], []

    def check(self, cond, what, out='', tail=12):
        """Record one check; on failure print the last `tail` lines of `out` (the command's output) under it."""
        self.checked.append(what)
        print(('ok   ' if cond else 'FAIL ') + what, flush=True)
        if not cond:
            self.failures.append(what)
            if out:
                print('     ' + '\n     '.join(str(out).strip().splitlines()[-tail:]), flush=True)
        return bool(cond)

    def skip(self, what):
        """A check that cannot run here, with the reason: counted and said, never counted as passed."""
        self.skipped.append(what)
        print('skip ' + what, flush=True)

    def summary(self):
        """Print the counts and return the exit code: 1 if any check failed."""
        n_ok = len(self.checked) - len(self.failures)
        print(f'{self.name}: {n_ok} passed, {len(self.failures)} failed, {len(self.skipped)} skipped', flush=True)
        for f in self.failures:
            print(f'  failed: {f}')
        return 1 if self.failures else 0
