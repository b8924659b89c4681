#!/usr/bin/env python3
"""Training runs of a profile-guided build (Makefile, VERILATED_SIM): runs an instrumented simulator
(-fprofile-generate) once per line of a DUT's training file (tb/<acc>/duts/<dut>.pgo: one run's plusargs a
line, '#' comments) so that it writes the profiles the regression build is then compiled with: g++'s .gcda files
beside the objects, or clang's .profraw files (a DUT's `cxx clang`) in the folder its -fprofile-generate= names.

A run that fails is reported (file:line, the command, the end of its output) but does not stop the build: the
profile only steers optimisation, never behaviour, and a simulator must still be buildable when the RTL under
it is broken, to debug it. Training runs should pass, though (a failing run's profile steers the wrong paths):
the warning says to mend the training file. No profile at all is reported too; the build then goes on plain.
Usage: python3 -m flow.pgo_train <instrumented-sim> <training-file> [<clang's profile folder>]
"""
import glob
import os
import shlex
import subprocess
import sys
import time


def runs(path):
    out = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.split('#', 1)[0].strip()
            if line:
                out.append((n, shlex.split(line)))
    if not out:
        sys.exit(f"ERROR: {path}: no training runs (one run's plusargs a line)")
    return out


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    sim, path = sys.argv[1:3]
    if len(sys.argv) == 4:      # clang: .profraw files in the folder of -fprofile-generate=
        obj, kind = os.path.abspath(sys.argv[3]), '*.profraw'
    else:                       # g++: .gcda files beside the objects
        obj, kind = os.path.dirname(os.path.abspath(sim)), '*.gcda'
    for old in glob.glob(os.path.join(obj, kind)):
        os.unlink(old)
    t0 = time.monotonic()
    todo = runs(path)
    failed = 0
    for n, args in todo:
        p = subprocess.run([sim, *args, '+quiet'], capture_output=True, text=True)
        if p.returncode or 'PASS' not in p.stdout:
            failed += 1
            print(f"WARNING: {path}:{n}: PGO training run failed (exit {p.returncode}), its profile is kept and the "
                  f"build goes on; mend the training file if the run is meant to pass: {sim} {' '.join(args)}\n"
                  f"{(p.stdout + p.stderr)[-1200:]}", file=sys.stderr)
    made = glob.glob(os.path.join(obj, kind))
    if not made:
        print(f"WARNING: {sim}: the training runs wrote no profile ({kind}) in {obj}; the regression build goes on "
              "without one", file=sys.stderr)
    print(f"  PGO     {len(todo)} training runs of {os.path.relpath(path)} ({failed} failed) in "
          f"{time.monotonic() - t0:.1f} s, {len(made)} profiles")
    return 0


if __name__ == '__main__':
    sys.exit(main())
