#!/usr/bin/env python3
"""Known deviations of a DUT from the accelerator's spec, as data: tb/<acc>/duts/<dut>.deviations.

A deviation is a finding about that DUT's RTL (not a bench problem): runs that fail only because of it are
reported as expected failures (XFAIL, with its name), never as passes and never dropped. Format: blocks
of `key value` lines, '#' comments, each block starting with `name`:

    name     <identifier>           e.g. done-before-last-store
    spec     <reference>            the spec section / rule the DUT breaks
    repro    <make run ...>         one minimal command that shows it
    match    <regex>                recognises one of its error lines in the simulator output (Python re)
    requires <regex>                optional: a line the output must also hold (Python re, any line: e.g. the
                                    hang diagnosis that shows the deviation's mechanism); without it the match
                                    explains nothing, and the run stays a FAIL
    tests    <test>... | *          the tests (trace/cfg runs: file name without extension) it may make fail
    describe <text>                 what the RTL does instead (one line; may repeat)
    continue yes                    optional: its errors do not stop the simulation (tb/common/dev_continue.h;
                                    the match must then also be a POSIX extended regex, the simulator's)

Classification of a failing run on such a DUT (flow/regress.py): every error line of the output must be
matched by a deviation that lists the run's test; then the run is XFAIL, named by the deviations that
matched. Any error line no deviation explains keeps the run a FAIL. A list entry may say
`xfail=<name>`: that run is expected to hit the deviation, and passing is reported as XPASS (a failure of
the regression: the deviation list is out of date).

A `continue` deviation (e.g. one register read that the driver accepts either way) does not hide the rest of
the run: the simulator goes on to the end and compares the outputs. Its error lines are explained only when
the simulator's summary line "deviation <name> continued past N error line(s); the run went to its end and
compared B output bytes" (B > 0) is there, or when the run stopped at the error of another (not continued)
deviation; an output that also differs is an error line of its own, so the run
is XFAIL <name> only when the continued difference is its only failure.
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = ('name', 'spec', 'repro', 'match', 'requires', 'tests', 'describe', 'continue')
CONTINUED = re.compile(r'^deviation (\S+) continued past [0-9]+ error line\(s\); the run went to its end and '
                       r'compared ([0-9]+) output bytes$', re.M)
# Lines that report an error already reported on its own line (the SV $error text comes first).
ECHO = re.compile(r'SystemVerilog assertion failed \(see \$error above\)')
ERROR_LINE = re.compile(r'\bERROR\b|%Error')
REPRO_LINE = re.compile(r'^\s*(repro|rerun)\b.*:|\bmake run\b')


class DeviationError(Exception):
    pass


def path_for(acc, dut):
    return os.path.join(ROOT, 'tb', acc, 'duts', f"{dut}.deviations")


def parse(path):
    """[{name, spec, repro, match and requires (compiled), tests, describe}] of a deviations file; errors name
    file:line."""
    devs, cur = [], None
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            # a regex or a command may hold a '#'
            keep_hash = raw.lstrip().startswith(('match', 'requires', 'repro'))
            line = raw.rstrip('\n') if keep_hash else raw.split('#', 1)[0].rstrip()
            if not line.strip():
                continue
            where = f"{path}:{lineno}"
            key, _, val = line.strip().partition(' ')
            val = val.strip()
            if key not in KEYS:
                raise DeviationError(f"{where}: unknown key '{key}' (known: {', '.join(KEYS)})")
            if key == 'name':
                cur = {'name': val, 'spec': '', 'repro': '', 'match': None, 'requires': None, 'tests': [],
                       'describe': '', 'continue': False, 'where': where}
                devs.append(cur)
                continue
            if cur is None:
                raise DeviationError(f"{where}: '{key}' before the first 'name'")
            if key in ('match', 'requires'):
                try:
                    cur[key] = re.compile(val, re.M if key == 'requires' else 0)
                except re.error as ex:
                    raise DeviationError(f"{where}: bad regex: {ex}") from None
            elif key == 'tests':
                cur['tests'] += val.split()
            elif key == 'continue':
                if val != 'yes':
                    raise DeviationError(f"{where}: continue takes 'yes', not '{val}'")
                cur['continue'] = True
            elif key == 'describe':
                cur['describe'] = (cur['describe'] + ' ' + val).strip()
            else:
                cur[key] = val
    for d in devs:
        for k in ('spec', 'repro', 'match', 'tests'):
            if not d[k]:
                raise DeviationError(f"{d['where']}: deviation '{d['name']}' has no '{k}'")
        if d['requires'] and d['continue']:   # the simulator continues on the match alone (dev_continue.c)
            raise DeviationError(f"{d['where']}: deviation '{d['name']}': requires with continue (the simulator "
                                 "decides to continue on the match alone)")
    names = [d['name'] for d in devs]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise DeviationError(f"{path}: deviation names repeated: {', '.join(sorted(dup))}")
    return devs


def load(acc, dut):
    """The deviations of a DUT ([] when it has no file)."""
    p = path_for(acc, dut) if dut else None
    return parse(p) if p and os.path.exists(p) else []


def error_lines(output):
    """The error lines of a run's output, in order: not the echoes of an error already reported, not the
    repro command line (it repeats the run's arguments, so a regex could match the echo of a +fault=...)."""
    return [ln for ln in output.splitlines()
            if ERROR_LINE.search(ln) and not ECHO.search(ln) and not REPRO_LINE.search(ln)]


def classify(devs, test, output):
    """Names of the deviations explaining every error line of a failing run's output, or None when some
    error line is unexplained (or there is none: a failure without an error line is not a known deviation)."""
    mine = [d for d in devs if ('*' in d['tests'] or test in d['tests'])
            and (d['requires'] is None or d['requires'].search(output))]
    lines = error_lines(output)
    if not lines or not mine:
        return None
    hit = []
    completed = {m.group(1) for m in CONTINUED.finditer(output) if int(m.group(2)) > 0}
    for ln in lines:
        d = next((d for d in mine if d['match'].search(ln)), None)
        if d is None:
            return None
        if d['name'] not in hit:
            hit.append(d['name'])
    # Only continued differences: the run must have gone to its end and compared its outputs. (A run that
    # stopped at another deviation's error is explained by that one, as without `continue`.)
    cont = {d['name'] for d in mine if d['continue']}
    if all(n in cont for n in hit) and not all(n in completed for n in hit):
        return None
    return hit
