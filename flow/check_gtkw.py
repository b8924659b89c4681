#!/usr/bin/env python3
"""Checks a GTKWave save file against its FST: the dump file exists, the marker lies inside the dumped
time range, and every signal the save file lists exists in the FST (a misspelt name would silently show
nothing in GTKWave). Usage: python3 -m flow.check_gtkw <file.gtkw> [...]; exit 1 on any problem. Needs fst2vcd
(gtkwave)."""
import os
import re
import shutil
import subprocess
import sys


def vcd_vars(lines):
    """(full name, VCD identifier, '[msb:lsb]' or '') of every $var of a VCD header, read from the iterator
    `lines` up to $enddefinitions (flow/fst_table.py reads the value changes after it)."""
    scope = []
    for line in lines:
        t = line.split()
        if not t:
            continue
        if t[0] == '$scope':
            scope.append(t[2])
        elif t[0] == '$upscope':
            scope.pop()
        elif t[0] == '$var':
            yield '.'.join(scope + [t[4]]), t[3], t[5] if len(t) > 6 and t[5].startswith('[') else ''
        elif t[0] == '$enddefinitions':
            return


def fst_signals(fst):
    """Full names (with [msb:lsb] for vectors) and the first/last timestamps of an FST."""
    if not shutil.which('fst2vcd'):   # say so, instead of failing with an empty reason
        print("check_gtkw: fst2vcd is not installed (Debian package gtkwave; flow/setup/install_deps.sh installs it)")
        sys.exit(1)
    lines = iter(subprocess.run(['fst2vcd', fst], capture_output=True, text=True, check=True).stdout.splitlines())
    names = {name + rng for name, _, rng in vcd_vars(lines)}
    times = [int(line[1:]) for line in lines if line.startswith('#')]
    return names, (min(times), max(times)) if times else (0, 0)


def check(gtkw):
    problems = []
    text = open(gtkw).read()
    m = re.search(r'^\[dumpfile\] "([^"]+)"', text, re.M)
    if not m:
        return [f"{gtkw}: no [dumpfile] line"]
    if os.path.isabs(m.group(1)):   # would break once the folder of waves is moved or copied
        return [f"{gtkw}: [dumpfile] is an absolute path ({m.group(1)}); it must be relative to the save file"]
    fst = os.path.join(os.path.dirname(gtkw), m.group(1))
    if not os.path.exists(fst):
        return [f"{gtkw}: dump file {fst} does not exist"]
    names, (t0, t1) = fst_signals(fst)
    mk = re.search(r'^\*[-\d.]+ (\d+)', text, re.M)
    if not mk:
        problems.append(f"{gtkw}: no marker line")
    elif not t0 <= int(mk.group(1)) <= t1 + 10:
        problems.append(f"{gtkw}: marker {mk.group(1)} outside the dumped time range {t0}..{t1}")
    for line in text.splitlines():
        if line.startswith('TOP.') and line not in names:
            problems.append(f"{gtkw}: signal {line} is not in {fst}")
    return problems


def main():
    problems = [p for g in sys.argv[1:] for p in check(g)]
    for p in problems:
        print('ERROR:', p)
    print(f"check_gtkw: {len(sys.argv) - 1} save files, {len(problems)} problems")
    return 1 if problems or len(sys.argv) < 2 else 0


if __name__ == '__main__':
    sys.exit(main())
