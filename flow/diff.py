#!/usr/bin/env python3
"""Differential runs: the same seeded jobs on two DUTs of one accelerator, outputs compared job by job and
cycle counts side by side (`make diff ACC=nvdla TEST=sdp_random,pdp_random SEEDS=20`). A test may be a shell
pattern (perf_*: the tests of the first DUT's simulator that match). Without tests, an accelerator's default set
runs (tests/lists/diff_defaults.tsv: tests, seeds and plusargs).

Each run is a normal checked run (golden model, scoreboard, protocol checkers) on each DUT. On top of that
the report compares, per job, the DUTs' output digests (a CRC over every region the scoreboard compared,
tb/common/scoreboard.h) and their cycle counts. Exit status 1 when any run fails or any job's output
differs between the DUTs; every such run is listed with the repro line of each side.
Reports: build/diff/<acc>/<a>_vs_<b>.{json,md}.
"""
import argparse
import concurrent.futures as cf
import fnmatch
import json
import os
import statistics
import sys

from flow import regress   # one runner: the same execute() and repro lines as the regression

dut_manifest = regress.dut_manifest
ROOT = regress.ROOT
DEFAULTS = os.path.join('tests', 'lists', 'diff_defaults.tsv')


def default_set(acc):
    """(tests, seeds, plusargs) that `make diff ACC=acc` runs when no TEST is given, from DEFAULTS."""
    with open(os.path.join(ROOT, DEFAULTS)) as f:
        for n, raw in enumerate(f, 1):
            fields = raw.split('#', 1)[0].split()
            if not fields or fields[0] != acc:
                continue
            if len(fields) != 4 or not fields[1].isdigit() or int(fields[1]) < 1:
                raise dut_manifest.ManifestError(f"{DEFAULTS}:{n}: expected '<acc> <seeds> <plusargs|-> <tests>', "
                                                 f"saw '{raw.strip()}'")
            args = '' if fields[2] == '-' else fields[2].replace(',', ' ')
            return fields[3], int(fields[1]), args
    raise dut_manifest.ManifestError(f"no TEST given and {DEFAULTS} has no default set for '{acc}': "
                                     f"make diff ACC={acc} TEST=<test>[,<test>...]")


def expand_tests(spec, sim):
    """The comma-separated tests of spec, each shell pattern (perf_*) replaced by the tests of simulator sim that it
    matches, in the simulator's order. A pattern that matches none is an error (ManifestError)."""
    out, known = [], None
    for t in (t for t in spec.split(',') if t):
        if not any(c in t for c in '*?['):
            out.append(t)
            continue
        known = regress.known_tests(sim) if known is None else known
        hits = [k for k in known if fnmatch.fnmatchcase(k, t)]
        if not hits:
            raise dut_manifest.ManifestError(f"test pattern '{t}' matches none of the tests "
                                             f"{os.path.relpath(sim, ROOT)} knows (make list)")
        out += hits
    return out


def one_run(acc, dut, test, seed, args, outdir):
    """A normal checked run of `test` on `dut` (regress.execute: results JSON, log, repro line)."""
    d = dut_manifest.get(acc, dut)
    r = {'acc': acc, 'dut': None if d.default else d.name, 'kind': 'test', 'stim': test, 'seed': seed,
         'args': list(args), 'expect': None, 'needs': None, 'skip': d.unavailable(), 'where': 'diff'}
    return regress.execute(r, outdir)


def job_cycles(j):
    return j['end'] - j['start']


def main():
    ap = argparse.ArgumentParser(prog='python3 -m flow.diff',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--acc', required=True)
    ap.add_argument('--duts', default='', help='two DUTs, a,b (default: the default DUT and the first other one)')
    ap.add_argument('--tests', help=f'comma-separated test names (default: the set in {DEFAULTS})')
    ap.add_argument('--seeds', type=int, help=f'seeds per test: base .. base+N-1 (default: {DEFAULTS}, else 10)')
    ap.add_argument('--seed', type=int, default=1, help='base seed (default 1)')
    ap.add_argument('--args', help=f"plusargs for both DUTs, e.g. '+stall=0' (default: {DEFAULTS}, else none)")
    ap.add_argument('--args-b', default='', help="extra plusargs for the second DUT only (e.g. a fault, to see "
                                                 "the report catch a difference)")
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    try:
        duts = dut_manifest.all_duts().get(a.acc)
        if not duts:
            raise dut_manifest.ManifestError(f"unknown accelerator '{a.acc}' (known: "
                                             f"{', '.join(sorted(dut_manifest.all_duts()))})")
        if a.duts:
            names = a.duts.split(',')
            if len(names) != 2:
                raise dut_manifest.ManifestError(f"--duts takes two DUTs a,b, saw '{a.duts}'")
            pair = [dut_manifest.get(a.acc, n) for n in names]
        else:
            dflt = dut_manifest.default_dut(a.acc)
            # an on-demand DUT (nv_full) is compared only when named: its build is hours
            others = [d for d in duts.values() if not d.default and not d.ondemand]
            if not others:
                raise dut_manifest.ManifestError(f"{a.acc} has one DUT only ({dflt.name}): nothing to compare")
            pair = [dflt, others[0]]
        if not a.tests:
            a.tests, seeds, args = default_set(a.acc)
            a.seeds = a.seeds if a.seeds is not None else seeds
            a.args = a.args if a.args is not None else args
            print(f"diff {a.acc}: no TEST given, running the default set of {DEFAULTS}")
        a.seeds = 10 if a.seeds is None else a.seeds
        a.args = a.args or ''
    except dut_manifest.ManifestError as ex:
        print(f"ERROR: {ex}", file=sys.stderr)
        return 2
    for d in pair:
        why = d.unavailable() or d.unbuilt()
        if why:
            print(f"SKIP differential {a.acc}: {why}")
            return 0
        if not os.access(os.path.join(ROOT, d.build_dir, 'sim'), os.X_OK):
            print(f"ERROR: {d.build_dir}/sim is missing: run 'make {d.build_dir}/sim' first", file=sys.stderr)
            return 2
    try:
        tests = expand_tests(a.tests, os.path.join(ROOT, pair[0].build_dir, 'sim'))
    except dut_manifest.ManifestError as ex:
        print(f"ERROR: {ex}", file=sys.stderr)
        return 2
    # Both DUTs run with the features they share (+features=, tb/common/dut_info.c): the generators then
    # build the same jobs on both, keeping to the semantics both implement.
    shared = [f for f in pair[0].features if f in pair[1].features]
    extra = a.args.split() + [f"+features={','.join(shared)}"]
    outdir = os.path.join(ROOT, 'build', 'diff', a.acc)
    os.makedirs(os.path.join(outdir, 'logs'), exist_ok=True)
    name = f"{pair[0].name}_vs_{pair[1].name}"
    print(f"diff {a.acc}: {pair[0].name} vs {pair[1].name}, tests {','.join(tests)}, seeds {a.seed}.."
          f"{a.seed + a.seeds - 1}, args '{a.args}'")
    work = [(t, s, i) for t in tests for s in range(a.seed, a.seed + a.seeds) for i in range(2)]
    res = {}
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futs = {pool.submit(one_run, a.acc, pair[i].name, t, s, extra + (a.args_b.split() if i else []), outdir):
                (t, s, i) for t, s, i in work}
        for f in cf.as_completed(futs):
            res[futs[f]] = f.result()
    rows, problems, per_test = [], [], {}
    for t in tests:
        for s in range(a.seed, a.seed + a.seeds):
            ra, rb = res[(t, s, 0)], res[(t, s, 1)]
            bad = [r for r in (ra, rb) if r['status'] != 'PASS']
            if bad:
                problems.append((t, s, 'run ' + ' / '.join(f"{r['status']} on {r.get('dut') or pair[0].name}: "
                                                          f"{r['reason'][:160]}" for r in bad), ra, rb))
            ja, jb = ra['jobs'], rb['jobs']
            if [j['name'] for j in ja] != [j['name'] for j in jb] and not bad:
                problems.append((t, s, f"different jobs: {len(ja)} vs {len(jb)}", ra, rb))
            for x, y in zip(ja, jb):
                same = x.get('out_digest') == y.get('out_digest') and x['bytes_compared'] == y['bytes_compared']
                ca, cb = job_cycles(x), job_cycles(y)
                rows.append({'test': t, 'seed': s, 'job': x['name'], 'bytes': x['bytes_compared'],
                             'same_output': same, 'cycles': [ca, cb], 'ratio': cb / ca if ca else None})
                per_test.setdefault(t, []).append(rows[-1])
                if not same and not bad:
                    problems.append((t, s, f"job {x['name']}: outputs differ (digest {x.get('out_digest')} vs "
                                           f"{y.get('out_digest')}, {x['bytes_compared']} vs {y['bytes_compared']} "
                                           f"bytes)", ra, rb))
    lines = [f"# Differential report: {a.acc}, {pair[0].name} vs {pair[1].name}", '',
             f"Seeds {a.seed}..{a.seed + a.seeds - 1}, plusargs '{a.args}'. Cycles are per job (job start to "
             f"its end, as the scoreboard counts them); ratio = {pair[1].name} / {pair[0].name}; jobs = those that "
             f"stored something (a program's setup phase does not).", '',
             f"| test | jobs | identical outputs | median cycles {pair[0].name} | median cycles {pair[1].name} | "
             f"median ratio | min ratio | max ratio |", '|---|---|---|---|---|---|---|---|']
    summary = {}
    for t, rs in per_test.items():
        # A program's setup phase (registers only, nothing stored) is a job of ~50 cycles on every DUT; in a
        # test of one big job it would pull the medians halfway down, so the medians count the jobs that
        # stored something (all jobs when none did). Every job stays in the JSON.
        rs = [r for r in rs if r['bytes']] or rs
        ratios = [r['ratio'] for r in rs if r['ratio']]
        summary[t] = {'jobs': len(rs), 'identical': sum(r['same_output'] for r in rs),
                      'median_cycles': [statistics.median(r['cycles'][i] for r in rs) for i in range(2)],
                      'median_ratio': statistics.median(ratios) if ratios else None,
                      'min_ratio': min(ratios) if ratios else None, 'max_ratio': max(ratios) if ratios else None}
        m = summary[t]
        fmt = (lambda v: f"{v:.2f}" if v is not None else '-')
        lines.append(f"| {t} | {m['jobs']} | {m['identical']} | {m['median_cycles'][0]:.0f} | "
                     f"{m['median_cycles'][1]:.0f} | {fmt(m['median_ratio'])} | {fmt(m['min_ratio'])} | "
                     f"{fmt(m['max_ratio'])} |")
    lines.append('')
    for t, s, why, ra, rb in problems:
        lines += [f"- {t} seed {s}: {why}", f"  - repro {pair[0].name}: `{ra['repro']}`",
                  f"  - repro {pair[1].name}: `{rb['repro']}`"]
    with open(os.path.join(outdir, name + '.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    with open(os.path.join(outdir, name + '.json'), 'w') as f:
        json.dump({'acc': a.acc, 'duts': [d.name for d in pair], 'tests': tests, 'seed': a.seed, 'seeds': a.seeds,
                   'args': a.args, 'summary': summary, 'jobs': rows,
                   'problems': [{'test': t, 'seed': s, 'what': w, 'repro': [ra['repro'], rb['repro']]}
                                for t, s, w, ra, rb in problems]}, f, indent=1)
    print('\n'.join(lines))
    print(f"reports: {os.path.relpath(outdir, ROOT)}/{name}.md, .json")
    njobs = len(rows)
    print(f"diff: {sum(r['same_output'] for r in rows)} of {njobs} jobs with identical outputs, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
