#!/usr/bin/env python3
"""Every mistyped command gets a clear answer (run by `make test`): each case exits nonzero with one line
naming the mistake and the accepted values, before anything is built where Make can tell, and with the repro
line every failure prints (`repro: make run ...`; run as printed, it refuses the same way; a refused plusarg is
passed on in it); and `make help`
lists exactly the plusargs each simulator accepts (`sim +help`, from the same tables) and every variable the
Makefile documents."""
import os
import re
import subprocess
import sys
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = Checks('test_cli')
check, skip = T.check, T.skip

# (make arguments, what the one error line must say)
CASES = [
    (['ACC=nvdla', 'TEST=bdma_random', "ARGS=+stal=0"],
     r"ERROR: unknown plusarg '\+stal=0' for nvdla; did you mean '\+stall'\? Known: .*\+stall .*\+csb_idle"),
    (['TRACE=nope.trace'], r"TRACE=nope.trace: no such file"),
    (['ACC=foo', 'TEST=x'], r"ACC=foo: unknown accelerator \(known: max78000, ne16, nvdla\)"),
    (['ACC=nvdla', 'DUT=nope', 'TEST=x'], r"DUT=nope: unknown DUT 'nope' for nvdla \(known: nv_full, nv_small, ours\)"),
    (['ACC=nvdla'], r"say what to run: TEST=<name> \(make list\), TRACE=<file.trace>, CFG=<file.cfg>, "
                    r"TXN=<nv_full trace-player test folder>, LOADABLE=<NVDLA loadable> or SDK="),
    (['ACC=nvdla', 'TEST=bdma_random', 'CFG=x.cfg'],
     r"give one of TEST, TRACE, CFG, TXN, LOADABLE, SDK and FIRMWARE, not TEST and CFG"),
    (['ACC=ne16', 'LOADABLE=Makefile'], r"LOADABLE= is an NVDLA loadable .*ACC=nvdla, not ACC=ne16"),
    (['ACC=nvdla', 'LOADABLE=no/such.fbuf'], r"LOADABLE=no/such.fbuf: no such file"),
    (['ACC=nvdla', 'FIRMWARE=Makefile'], r"FIRMWARE= is MAX78000 firmware .*ACC=max78000, not ACC=nvdla"),
    (['ACC=max78000', 'FIRMWARE=no/such'], r"FIRMWARE=no/such: no such folder or file"),
    (['ACC=ne16', 'TXN=tests/negative/txn_bad_line'],
     r"TXN= is an NVDLA nv_full trace-player test .*ACC=nvdla, not ACC=ne16"),
    (['ACC=nvdla', 'TXN=tests'], r"TXN=tests: not a trace-player test \(a folder with input.txn, or a .txn file\)"),
]


def main():
    for args, want in CASES:
        p = subprocess.run(['make', '--no-print-directory', 'run', *args], cwd=ROOT, capture_output=True, text=True)
        out = p.stdout + p.stderr
        errs = [l for l in out.splitlines() if re.search(want, l)]
        noise = [l for l in out.splitlines() if 'No rule to make target' in l or "can't read" in l]
        check(p.returncode != 0 and len(errs) == 1 and not noise,
              f"make run {' '.join(args)}: exit {p.returncode}, {errs[0].strip() if errs else 'no matching line'}")
        # refused (before anything is built where Make can tell; else by the simulator's plusarg check), with the
        # repro line every failure prints, which refuses the same way
        rep = re.search(r'^repro: (make run .*)$', out, re.M)
        rc2, out2 = None, ''
        if rep:
            p2 = subprocess.run(rep.group(1), shell=True, cwd=ROOT, capture_output=True, text=True)
            rc2, out2 = p2.returncode, p2.stdout + p2.stderr
        check(rep is not None and rc2 != 0 and re.search(want, out2) is not None,
              f"make run {' '.join(args)}: its repro line ({rep.group(1) if rep else 'none'}) refuses the same way",
              out)
    helptext = subprocess.run(['make', '--no-print-directory', 'help'], cwd=ROOT, capture_output=True,
                              text=True).stdout
    # every variable the Makefile's header documents is in make help (its list once skipped names with digits)
    with open(os.path.join(ROOT, 'Makefile')) as f:
        documented = re.findall(r'^#   ([A-Z][A-Z0-9_]*=.*)$', f.read(), re.M)
    listed = set(helptext.splitlines())
    missing = [d.split('=')[0] for d in documented if f'  {d}' not in listed]
    check(documented and not missing, f"make help lists the {len(documented)} variable lines the Makefile documents"
          f"{' (missing: ' + ', '.join(missing) + ')' if missing else ''}")
    for acc in ('nvdla', 'ne16', 'max78000'):
        sim = os.path.join(ROOT, 'build', acc, 'sim')
        if not os.access(sim, os.X_OK):
            check(False, f'build/{acc}/sim exists for the help check')
            continue
        simhelp = subprocess.run([sim, '+help'], cwd=ROOT, capture_output=True, text=True)
        section = re.search(rf"^{acc} plusargs .*?(?=^\S|\Z)", helptext, re.M | re.S)
        check(simhelp.returncode == 0 and section is not None and section.group(0).strip() == simhelp.stdout.strip(),
              f"make help lists exactly the plusargs build/{acc}/sim accepts ({len(simhelp.stdout.splitlines()) - 1})")
        # and each listed plusarg is accepted: the simulator stops on none of them as unknown
        names = re.findall(r'^\s+\+([a-z_]+)', simhelp.stdout, re.M)
        bad = [n for n in names if n != 'help' and 'unknown plusarg' in subprocess.run(
            [sim, f'+{n}', '+test=?'], cwd=ROOT, capture_output=True, text=True).stderr]
        check(names and not bad, f"{acc}: every plusarg make help lists is accepted ({', '.join(bad) or 'all'})")
    regress_names()
    return T.summary()


def regress_names():
    """make regress (dry run, prerequisites taken as done): the nightly, its coverage folders and the X lane all
    use NAME as one word. A comment after NAME's value once put blanks into it: `--name nightly   -xrand` split,
    so the X lane refused its arguments and the coverage gate read /cov/..., after a 45-minute nightly."""
    for extra, name in (([], 'nightly'), (['NAME=mine'], 'mine')):
        p = subprocess.run(['make', '--no-print-directory', '-n', '-o', 'check-deps', '-o', 'build', '-o',
                            'build-upstream', '-o', 'build-xrand', 'regress', *extra], cwd=ROOT, capture_output=True,
                           text=True)
        out = p.stdout
        ok = (p.returncode == 0 and f'--name {name} ' in out and f'--name {name}-xrand ' in out
              and f'build/regress/{name}/cov/' in out)
        check(ok, f"make regress{''.join(' ' + e for e in extra)}: regressions '{name}' and '{name}-xrand', "
                  f"coverage under build/regress/{name}/cov/")


if __name__ == '__main__':
    sys.exit(main())
