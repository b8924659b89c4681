#!/usr/bin/env python3
"""Regression runner: runs a test list as parallel simulator processes after one build.

List format (tests/lists/*.list), one entry per line, '#' comments, `include <other.list>` (relative):
    <acc> <stimulus> <seeds> [options...]
  stimulus: test=<name> | trace=<file> | cfg=<glob>   (a glob expands to one entry per file)
  seeds:    number of seeds (test=) or runs per file
  `include <list> dut=<name>` runs the included entries on that DUT (those that name none themselves).
  options:  +plusarg[=v]          passed to the simulator
            expect=fail:<regex>   negative test: passes only if the run fails with output matching regex
            needs=<path>          skipped, with the reason, when <path> does not exist
            dut=<name>            run on that DUT of the accelerator (tb/<acc>/duts/<name>.dut; default: the
                                  accelerator's default DUT); skipped, with the reason, when its RTL is absent
            xfail=<deviation>     the run is expected to fail with that known deviation of its DUT; a pass is
                                  XPASS (a failure: the deviation list is out of date)
Known deviations (tb/<acc>/duts/<dut>.deviations, format: tests/deviations.py): a failing run on such a DUT
whose every error line a deviation of its test explains is an expected failure, XFAIL <name> (JUnit:
skipped with message 'XFAIL <name>: ...'; JSON: status XFAIL, deviations [...]); it does not fail the list.
Seeds are base+0 .. base+n-1 (--seed, default 1), so a list run is reproducible; every failing run prints
the one `make run ...` line that reproduces it and is re-run with an FST window into waves/.
Outputs: build/regress/<name>/{results.json,junit.xml,logs/}; exit status 1 on any failure.
Where the runs execute: --launcher local (processes here, default) or slurm (tests/launch_slurm.py).
"""
import argparse
import concurrent.futures as cf
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import launch_slurm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tb', 'common'))
import dut_manifest  # noqa: E402  (the DUT descriptions: tb/<acc>/duts/*.dut)
import deviations  # noqa: E402  (known deviations of a DUT: tb/<acc>/duts/<dut>.deviations)
WAVE_MARGIN = 200          # cycles of context before the job start and after the failure
RUN_TIMEOUT_S = 600        # wall-clock limit per run (the cycle watchdogs fire long before)
SKIP_EXIT = 77             # a simulator's exit status for a skipped run (tb/common/tb_api.h TB_EXIT_SKIP)


class ListError(Exception):
    pass


def parse_list(path, dut=None):
    """Entries of a list file; `dut` (from `include <list> dut=<name>`) applies to entries naming no DUT."""
    entries = []
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split('#', 1)[0].strip()
            if not line:
                continue
            where = f"{path}:{lineno}"
            if line.startswith('include '):
                words = line.split()[1:]
                inc = os.path.join(os.path.dirname(path), words[0])
                inc_dut = dut
                for w in words[1:]:
                    if not w.startswith('dut='):
                        raise ListError(f"{where}: include takes '<list> [dut=<name>]', saw '{w}'")
                    inc_dut = w[len('dut='):]
                if not os.path.exists(inc):
                    raise ListError(f"{where}: included list '{inc}' does not exist")
                entries.extend(parse_list(inc, inc_dut))
                continue
            tok = shlex.split(line)
            if len(tok) < 3:
                raise ListError(f"{where}: expected '<acc> <stimulus> <seeds> [options]', saw '{line}'")
            acc, stim, seeds = tok[0], tok[1], tok[2]
            if not re.fullmatch(r'(test|trace|cfg)=\S+', stim):
                raise ListError(f"{where}: stimulus must be test=, trace= or cfg=, saw '{stim}'")
            if not seeds.isdigit() or int(seeds) < 1:
                raise ListError(f"{where}: seeds must be a positive number, saw '{seeds}'")
            e = {'acc': acc, 'kind': stim.split('=', 1)[0], 'stim': stim.split('=', 1)[1], 'seeds': int(seeds),
                 'args': [], 'expect': None, 'needs': None, 'dut': dut, 'xfail': None, 'where': where}
            for opt in tok[3:]:
                if opt.startswith('+'):
                    e['args'].append(opt)
                elif opt.startswith('expect=fail:'):
                    e['expect'] = opt[len('expect=fail:'):]
                    re.compile(e['expect'])
                elif opt.startswith('needs='):
                    e['needs'] = opt[len('needs='):]
                elif opt.startswith('dut='):
                    e['dut'] = opt[len('dut='):]
                elif opt.startswith('xfail='):
                    e['xfail'] = opt[len('xfail='):]
                else:
                    raise ListError(f"{where}: unknown option '{opt}'")
            try:
                d = dut_manifest.get(acc, e['dut'])
            except dut_manifest.ManifestError as ex:
                raise ListError(f"{where}: {ex}") from None
            e['dut'] = None if d.default else d.name    # None: the accelerator's default DUT
            try:   # checked here, read again per run (runs may execute elsewhere, e.g. through Slurm)
                devs = deviations.load(acc, e['dut'])
            except (deviations.DeviationError, OSError) as ex:
                raise ListError(f"{where}: {ex}") from None
            if e['xfail'] and e['xfail'] not in [x['name'] for x in devs]:
                raise ListError(f"{where}: xfail={e['xfail']} is no deviation of {acc} DUT {d.name} "
                                f"({deviations.path_for(acc, d.name)})")
            entries.append(e)
    return entries


def expand(entries, base_seed):
    """Entries → runs: one per seed (test=) or per file and seed (trace=/cfg= globs)."""
    runs = []
    for e in entries:
        skip = None
        if e['needs'] and not os.path.exists(os.path.join(ROOT, e['needs'])):
            skip = f"{e['needs']} is absent (external stimulus not available in this checkout)"
        if not skip:
            skip = dut_manifest.get(e['acc'], e['dut']).unavailable()
        stims = [e['stim']]
        if e['kind'] != 'test':
            found = sorted(glob.glob(os.path.join(ROOT, e['stim'])))
            if found:
                stims = [os.path.relpath(p, ROOT) for p in found]
            elif not skip:
                raise ListError(f"{e['where']}: no file matches '{e['stim']}'")
        for stim in stims:
            for i in range(e['seeds']):
                runs.append(dict(e, stim=stim, seed=base_seed + i, skip=skip))
    seen = {}
    for r in runs:   # two runs with one name would share a log, a result and a wave: refuse, naming both
        rid = run_id(r)
        if rid in seen and seen[rid]['stim'] != r['stim']:
            raise ListError(f"{r['where']}: run {rid} of {r['stim']} has the name of the run of {seen[rid]['stim']} "
                            f"({seen[rid]['where']}); rename one of the files")
        seen[rid] = r
    return runs


def acc_dut(r):
    """'nvdla' on the default DUT, 'nvdla@nv_small' on another: the prefix of run ids and report rows."""
    return r['acc'] + (f"@{r['dut']}" if r.get('dut') else '')


def test_name(r):
    """What a run is named after: the test; for a trace, the test it holds. A MAX78000 SDK trace is always
    <network>/apb_trace.txt (vectors/max78000/README.md), so it is named after its folder; other traces and
    .cfg files after their file."""
    stem = os.path.splitext(os.path.basename(r['stim']))[0]
    if r['kind'] != 'test' and any(ch in r['stim'] for ch in '*?['):
        # a glob that matched nothing (its stimulus is absent: the run is skipped): named after its folder
        # pattern too, so that two such globs of one list keep distinct names
        pattern = os.path.join(os.path.basename(os.path.dirname(r['stim'])), stem)
        return re.sub(r'[^A-Za-z0-9]+', '_', pattern).strip('_') or 'glob'
    if r['kind'] != 'test' and stem == 'apb_trace':
        return os.path.basename(os.path.dirname(os.path.abspath(os.path.join(ROOT, r['stim'])))) or stem
    return stem


def run_id(r):
    stim = test_name(r)
    tag = '_'.join(re.sub(r'[^A-Za-z0-9]+', '_', a.lstrip('+')) for a in r['args'])
    return f"{acc_dut(r)}.{stim}{('.' + tag) if tag else ''}.s{r['seed']}"


BUILD_ROOT = 'build'       # --build-root: where the simulators are (build/coverage for code-coverage builds)
CODE_COV = None            # --code-cov DIR: each run writes its line coverage to DIR/<run>.dat


def sim_path(acc, dut):
    return os.path.join(ROOT, BUILD_ROOT, os.path.relpath(dut_manifest.get(acc, dut).build_dir, 'build'), 'sim')


def sim_cmd(r, extra=()):
    cov = [f"+code_cov={os.path.join(CODE_COV, run_id(r) + '.dat')}"] if CODE_COV else []
    return [sim_path(r['acc'], r.get('dut')), f"+{r['kind']}={r['stim']}", f"+seed={r['seed']}",
            f"+verilator+seed+{r['seed']}", *r['args'], *cov, *extra]


def repro(r):
    stim = {'test': 'TEST', 'trace': 'TRACE', 'cfg': 'CFG'}[r['kind']]
    args = f" ARGS='{' '.join(r['args'])}'" if r['args'] else ''
    dut = f" DUT={r['dut']}" if r.get('dut') else ''
    return f"make run ACC={r['acc']}{dut} {stim}={r['stim']} SEED={r['seed']}{args}"


def execute(r, outdir):
    rid = run_id(r)
    res = {'id': rid, 'acc': r['acc'], 'dut': r.get('dut'), 'stim': r['stim'], 'kind': r['kind'], 'seed': r['seed'],
           'args': r['args'], 'negative': r['expect'] is not None, 'repro': repro(r), 'jobs': [],
           'cycles': 0, 'wall_s': 0.0}
    if r['skip']:
        res.update(status='SKIP', reason=r['skip'])
        return res
    log = os.path.join(outdir, 'logs', rid + '.log')
    rjson = os.path.join(outdir, 'logs', rid + '.json')
    t0 = time.monotonic()
    try:
        p = subprocess.run(sim_cmd(r, [f'+results={rjson}', '+quiet']), cwd=ROOT, capture_output=True,
                           text=True, timeout=RUN_TIMEOUT_S)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as ex:
        out, rc = (ex.stdout or b'').decode(errors='replace') + f"\nTIMEOUT after {RUN_TIMEOUT_S} s", -1
    res['wall_s'] = time.monotonic() - t0
    with open(log, 'w') as f:
        f.write(' '.join(shlex.quote(c) for c in sim_cmd(r)) + '\n' + out)
    data = {}
    try:
        with open(rjson) as f:
            data = json.load(f)
    except (OSError, ValueError):
        pass
    res['jobs'] = data.get('jobs', [])
    res['cycles'] = data.get('cycles', 0)
    verdict = data.get('verdict', 'FAIL' if rc else 'PASS')
    reason = data.get('reason', '') or (out.strip().splitlines() or ['no output'])[-1]
    res['log'] = os.path.relpath(log, ROOT)
    if r['expect'] is not None:
        # A negative test passes when the run fails, says why, and exits nonzero.
        if rc != 0 and verdict == 'FAIL' and re.search(r['expect'], out):
            res.update(status='PASS', reason=f"failure detected as expected: {reason}")
        else:
            res.update(status='FAIL', reason=f"expected a failure matching /{r['expect']}/ with nonzero exit; "
                                              f"got verdict {verdict}, exit {rc}")
        return res
    if verdict == 'SKIP' and rc == SKIP_EXIT:
        res.update(status='SKIP', reason=reason)
    elif verdict == 'PASS' and rc == 0:
        res.update(status='PASS', reason='')
        if r.get('xfail'):
            res.update(status='XPASS', deviations=[r['xfail']],
                       reason=f"XPASS {r['xfail']}: expected to fail with this known deviation, but passed")
    else:
        devs = deviations.load(r['acc'], r.get('dut'))
        # a deviation lists tests by name; trace and cfg runs by their file's name without the extension
        name = r['stim'] if r['kind'] == 'test' else os.path.splitext(os.path.basename(r['stim']))[0]
        known = deviations.classify(devs, name, out)
        if known and (not r.get('xfail') or r['xfail'] in known):
            res.update(status='XFAIL', deviations=known, exit=rc, reason=f"XFAIL {', '.join(known)}: {reason}")
        else:
            res.update(status='FAIL', reason=reason, exit=rc)
    return res


def rerun_with_waves(r, res, outdir):
    """Re-run a failing job with the same seed and an FST window around the failing job only."""
    jobs = res['jobs']
    bad = next((j for j in jobs if j.get('failed')), jobs[-1] if jobs else None)
    start = max(0, (bad['start'] if bad else 0) - WAVE_MARGIN)
    fail_cycle = (bad.get('first_error_cycle') or bad['end']) if bad else res['cycles']
    end = max(fail_cycle, bad['end'] if bad else 0) + WAVE_MARGIN
    os.makedirs(os.path.join(ROOT, 'waves'), exist_ok=True)
    base = os.path.join('waves', res['id'])
    # The simulator places the marker itself: where the DUT went wrong when it knows, else the detection.
    cmd = sim_cmd(r, [f'+wave={base}.fst', f'+gtkw={base}.gtkw', f'+wave_from={start}', f'+wave_to={end}',
                      '+quiet'])
    try:
        cmd[0] = dut_manifest.traced_sim(cmd[0])   # the regression's simulators have no tracing compiled in
    except dut_manifest.ManifestError as ex:
        res['wave_error'] = str(ex)
        print(f"  no waves for {res['id']}: {ex}")
        return
    try:
        subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        pass
    if os.path.exists(os.path.join(ROOT, base + '.fst')):
        res['wave'] = base + '.fst'
        res['gtkw'] = base + '.gtkw'
        res['wave_window'] = [start, end]


def write_junit(path, name, results):
    suite = ET.Element('testsuite', name=name, tests=str(len(results)),
                       failures=str(sum(r['status'] in ('FAIL', 'XPASS') for r in results)),
                       skipped=str(sum(r['status'] in ('SKIP', 'XFAIL') for r in results)),
                       time=f"{sum(r['wall_s'] for r in results):.3f}")
    for r in results:
        tc = ET.SubElement(suite, 'testcase', classname=f"{acc_dut(r)}.{os.path.basename(r['stim'])}",
                           name=r['id'], time=f"{r['wall_s']:.3f}")
        if r['status'] in ('FAIL', 'XPASS'):
            f = ET.SubElement(tc, 'failure', message=r['reason'][:500])
            f.text = f"repro: {r['repro']}\nlog: {r.get('log', '')}\nwave: {r.get('gtkw', '')}"
        elif r['status'] in ('SKIP', 'XFAIL'):     # XFAIL: 'XFAIL <deviation>: <failure>'
            ET.SubElement(tc, 'skipped', message=r['reason'][:500])
    ET.ElementTree(suite).write(path, encoding='utf-8', xml_declaration=True)


def summary(results):
    groups = {}
    for r in results:
        key = (acc_dut(r), os.path.basename(r['stim']), ' '.join(r['args']) + (' (negative)' if r['negative'] else ''))
        g = groups.setdefault(key, {'runs': 0, 'PASS': 0, 'FAIL': 0, 'SKIP': 0, 'XFAIL': 0, 'XPASS': 0, 'jobs': 0,
                                    'cycles': 0, 'wall': 0.0})
        g['runs'] += 1
        g[r['status']] += 1
        g['jobs'] += len(r['jobs'])
        g['cycles'] += r['cycles']
        g['wall'] += r['wall_s']
    w = max([len(k[1]) for k in groups] + [10])
    wa = max([len(k[0]) for k in groups] + [6])
    lines = [f"{'acc':{wa}} {'test':{w}} {'options':26} {'runs':>5} {'pass':>5} {'fail':>5} {'skip':>5} {'xfail':>5} "
             f"{'jobs':>6} {'cycles':>11} {'cyc/s':>9}"]
    for (acc, test, opts), g in groups.items():
        cps = g['cycles'] / g['wall'] if g['wall'] else 0
        lines.append(f"{acc:{wa}} {test:{w}} {opts[:26]:26} {g['runs']:5} {g['PASS']:5} {g['FAIL'] + g['XPASS']:5} "
                     f"{g['SKIP']:5} {g['XFAIL']:5} {g['jobs']:6} {g['cycles']:11} {cps:9.0f}")
    return '\n'.join(lines)


def launch_local(runs, outdir, a):
    """The default launcher: --jobs simulator processes on this machine; yields results as they finish."""
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for fut in cf.as_completed([pool.submit(execute, r, outdir) for r in runs]):
            yield fut.result()


# Launchers: (runs, output folder, options) -> results in completion order. Slurm: tests/launch_slurm.py.
LAUNCHERS = {'local': launch_local,
             'slurm': lambda runs, outdir, a: launch_slurm.launch(runs, outdir, a, execute)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--list', required=True)
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--seed', type=int, default=1, help='base seed (default 1)')
    ap.add_argument('--name', default='regress')
    ap.add_argument('--no-waves', action='store_true', help='do not re-run failing jobs with waves')
    ap.add_argument('--launcher', choices=sorted(LAUNCHERS), default=os.environ.get('LAUNCHER') or 'local',
                    help='where the runs execute: local processes (default) or a Slurm job array (env LAUNCHER)')
    launch_slurm.add_args(ap)
    ap.add_argument('--code-cov', metavar='DIR', help='code coverage (make coverage): run our DUTs only, from the '
                    'coverage builds under build/coverage/, each run writing DIR/<run>.dat (local launcher)')
    a = ap.parse_args()
    global BUILD_ROOT, CODE_COV
    try:
        runs = expand(parse_list(a.list), a.seed)
    except (ListError, OSError, re.error) as ex:
        print(f"ERROR: {ex}", file=sys.stderr)
        return 2
    if a.code_cov:
        BUILD_ROOT, CODE_COV = os.path.join('build', 'coverage'), os.path.abspath(a.code_cov)
        os.makedirs(CODE_COV, exist_ok=True)
        other = [r for r in runs if r.get('dut')]
        runs = [r for r in runs if not r.get('dut')]
        print(f"code coverage: {len(runs)} runs on our DUTs ({len(other)} runs on other DUTs left out)")
    for acc, dut in sorted({(r['acc'], r.get('dut') or '') for r in runs if not r['skip']}):
        sim = sim_path(acc, dut or None)
        if not os.access(sim, os.X_OK):
            target = 'build' if not dut else 'build-upstream'
            print(f"ERROR: {os.path.relpath(sim, ROOT)} is missing: run 'make {target}' first", file=sys.stderr)
            return 2
    outdir = os.path.join(ROOT, 'build', 'regress', a.name)
    os.makedirs(os.path.join(outdir, 'logs'), exist_ok=True)
    via = f"{a.jobs} parallel processes" if a.launcher == 'local' else 'a Slurm job array'
    print(f"{a.name}: {len(runs)} runs from {a.list}, base seed {a.seed}, {via}", flush=True)
    t0 = time.monotonic()
    results = []
    try:
        for n, res in enumerate(LAUNCHERS[a.launcher](runs, outdir, a), 1):
            results.append(res)
            extra = f" ({res['reason'][:100]})" if res['status'] != 'PASS' or res['negative'] else ''
            print(f"[{n:4}/{len(runs)}] {res['status']:4} {res['id']:50} {res['cycles']:9} cyc "
                  f"{res['wall_s']:6.2f} s{extra}", flush=True)
    except launch_slurm.LaunchError as ex:
        print(f"ERROR: {ex}", file=sys.stderr)
        return 2
    failed = [r for r in results if r['status'] in ('FAIL', 'XPASS')]
    if failed and not a.no_waves:
        print(f"\nre-running {len(failed)} failing run(s) with FST windows into waves/ ...")
        by_id = {run_id(r): r for r in runs}
        for res in failed[:10]:
            if not res['negative'] and res['status'] == 'FAIL':
                rerun_with_waves(by_id[res['id']], res, outdir)
    results.sort(key=lambda r: r['id'])
    wall = time.monotonic() - t0
    with open(os.path.join(outdir, 'results.json'), 'w') as f:
        json.dump({'name': a.name, 'list': a.list, 'base_seed': a.seed, 'wall_s': wall, 'runs': results}, f, indent=1)
    write_junit(os.path.join(outdir, 'junit.xml'), a.name, results)
    print('\n' + summary(results))
    npass, nfail = sum(r['status'] == 'PASS' for r in results), len(failed)
    nskip = sum(r['status'] == 'SKIP' for r in results)
    njobs = sum(len(r['jobs']) for r in results if r['status'] == 'PASS')
    nxfail = sum(r['status'] == 'XFAIL' for r in results)
    for r in results:
        if r['status'] in ('SKIP', 'XFAIL'):
            print(f"{r['status']} {r['id']}: {r['reason']}")
    for r in failed:
        print(f"\nFAIL {r['id']}: {r['reason']}\n  repro: {r['repro']}\n  log:   {r.get('log', '')}")
        if r.get('gtkw'):
            print(f"  waves: {r['wave']} (cycles {r['wave_window'][0]}..{r['wave_window'][1]}); "
                  f"open with: gtkwave {r['gtkw']}")
    print(f"\nreports: {os.path.relpath(outdir, ROOT)}/results.json, junit.xml; {njobs} jobs passed in "
          f"{wall:.1f} s")
    xf = [x for r in results if r['status'] == 'XFAIL' for x in r['deviations']]
    named = ', '.join(f"{n} x{xf.count(n)}" for n in sorted(set(xf)))
    xpass = sum(r['status'] == 'XPASS' for r in results)
    print(f"{a.name}: {npass} passed, {nfail} failed{f' (of them {xpass} XPASS)' if xpass else ''}, {nskip} skipped"
          f"{f', {nxfail} expected failures (known deviations: {named})' if nxfail else ''}")
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
