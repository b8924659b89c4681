#!/usr/bin/env python3
"""Regression runner: runs a test list as parallel simulator processes after one build.

List format (tests/lists/*.list), one entry per line, '#' comments, `include <other.list>` (relative):
    <acc> <stimulus> <seeds> [options...]
  stimulus: test=<name> | trace=<file> | cfg=<glob>   (a glob expands to one entry per file)
            | firmware=<glob of ai8xize folders>  (MAX78000: each built as firmware by flow/fw_ai8x.py before
              the runs, content-cached, --jobs at a time, and run by the test firmware; runs named fw-<folder>;
              a folder the builder refuses is skipped with its reason, one whose build fails fails)
  seeds:    number of seeds (test=) or runs per file
  `include <list> dut=<name>` runs the included entries on that DUT (those that name none themselves).
  options:  +plusarg[=v]          passed to the simulator
            expect=fail:<regex>   negative test: passes only if the run fails with output matching regex
            needs=<path>          skipped, with the reason, when <path> does not exist (may repeat: each path)
            dut=<name>            run on that DUT of the accelerator (tb/<acc>/duts/<name>.dut; default: the
                                  accelerator's default DUT); skipped, with the reason, when its RTL is absent
            xfail=<deviation>     the run is expected to fail with that known deviation of its DUT; a pass is
                                  XPASS (a failure: the deviation list is out of date)
            timeout=<s>           wall-clock limit per run instead of the default 600 s (long runs of slow
                                  models; the cycle watchdogs still apply)
            from=<k>              the entry's seeds start k after the base (base+k .. base+k+n-1): a nightly
                                  entry that continues a smoke entry's seeds without running them again
Known deviations (tb/<acc>/duts/<dut>.deviations, format: flow/deviations.py): a failing run on such a DUT
whose every error line a deviation of its test explains is an expected failure, XFAIL <name> (JUnit:
skipped with message 'XFAIL <name>: ...'; JSON: status XFAIL, deviations [...]); it does not fail the list.
Seeds are base+0 .. base+n-1 modulo 2^64 (--seed 0..2^64-1, default 1, or 'random': drawn, printed and
recorded), so a list run is reproducible and every repro line carries its seed.
A negative test's regex must match one of the run's error lines (not its echoed command or repro line). A
list entry runs what it names: +help is refused, +features= names are checked against the DUT, a run that
exits 0 without a job fails, and a simulator's skip for anything but a feature the DUT lacks fails.
Failures are bucketed by signature (first error line, numbers masked): each bucket is printed once, with its
count, one repro line, one log, and one run of it re-run with an FST window (every bucket).
Outputs, all under build/regress/<name>/ (one regression per name at a time: build/regress/<name>.lock):
results.json (runs, buckets, base seed, environment), junit.xml, index.html (the page: flow/report.py, which
also appends the regression's line to the history, --history / $HISTORY), logs/, waves/, cov/ (a list's
+cov=<dir> bins land in cov/<dir's name>/); exit status 1 on any failure, 2 on a bad list or argument.
Which simulators: --build-root DIR (default build) runs DIR/<acc>/sim and DIR/<acc>-<dut>/sim, e.g. build/xrand
(make build-xrand: X-randomised); repro lines then name that simulator itself (`make run` would run build/).
Where the runs execute: --launcher local (processes here, default) or slurm (flow/launch_slurm.py).
"""
import argparse
import hashlib
import concurrent.futures as cf
import fcntl
import glob
import json
import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

from flow import deviations      # known deviations of a DUT: tb/<acc>/duts/<dut>.deviations
from flow import fw_ai8x         # ai8xize folders built as MAX78000 firmware (firmware= entries)
from flow import dut_manifest    # the DUT descriptions: tb/<acc>/duts/*.dut
from flow import launch_slurm
from flow import report as report_page   # the regression's page and the history (issue 40)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WAVE_MARGIN = 200          # cycles of context before the job start and after the failure
RUN_TIMEOUT_S = 600        # wall-clock limit per run (the cycle watchdogs fire long before)
SKIP_EXIT = 77             # a simulator's exit status for a skipped run (tb/common/tb_api.h TB_EXIT_SKIP)
SEED_MAX = 2**64 - 1
INFO_PLUSARGS = ('help',)  # plusargs that print and exit: a list entry with one would check nothing


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
            if not re.fullmatch(r'(test|trace|cfg|firmware)=\S+', stim):
                raise ListError(f"{where}: stimulus must be test=, trace=, cfg= or firmware=, saw '{stim}'")
            if not seeds.isdigit() or int(seeds) < 1:
                raise ListError(f"{where}: seeds must be a positive number, saw '{seeds}'")
            e = {'acc': acc, 'kind': stim.split('=', 1)[0], 'stim': stim.split('=', 1)[1], 'seeds': int(seeds),
                 'args': [], 'expect': None, 'needs': [], 'dut': dut, 'xfail': None, 'where': where,
                 'timeout': None, 'from': 0}
            for opt in tok[3:]:
                if opt.startswith('+'):
                    name = opt[1:].split('=', 1)[0]
                    if name in INFO_PLUSARGS:
                        raise ListError(f"{where}: '{opt}' makes the simulator print and exit without running a "
                                        "job: not a list option (a list entry must run something)")
                    e['args'].append(opt)
                elif opt.startswith('expect=fail:'):
                    e['expect'] = opt[len('expect=fail:'):]
                    re.compile(e['expect'])
                elif opt.startswith('needs='):
                    e['needs'].append(opt[len('needs='):])
                elif opt.startswith('dut='):
                    e['dut'] = opt[len('dut='):]
                elif opt.startswith('xfail='):
                    e['xfail'] = opt[len('xfail='):]
                elif opt.startswith('timeout='):
                    if not opt[len('timeout='):].isdigit() or int(opt[len('timeout='):]) < 1:
                        raise ListError(f"{where}: timeout= takes a number of seconds >= 1, saw '{opt}'")
                    e['timeout'] = int(opt[len('timeout='):])
                elif opt.startswith('from='):
                    if not opt[len('from='):].isdigit():
                        raise ListError(f"{where}: from= takes a number of seeds >= 0, saw '{opt}'")
                    e['from'] = int(opt[len('from='):])
                else:
                    raise ListError(f"{where}: unknown option '{opt}'")
            try:
                d = dut_manifest.get(acc, e['dut'])
            except dut_manifest.ManifestError as ex:
                raise ListError(f"{where}: {ex}") from None
            e['dut'] = None if d.default else d.name    # None: the accelerator's default DUT
            for opt in e['args']:   # a misspelt feature would turn the entry's runs into skips
                if opt.startswith('+features='):
                    bad = [f for f in opt[len('+features='):].split(',') if f not in d.features]
                    if bad:
                        raise ListError(f"{where}: {opt}: {', '.join(repr(f) for f in bad)} is no feature of "
                                        f"{acc} DUT {d.name} (its features: {' '.join(d.features)})")
            try:   # checked here, read again per run (runs may execute elsewhere, e.g. through Slurm)
                devs = deviations.load(acc, e['dut'])
            except (deviations.DeviationError, OSError) as ex:
                raise ListError(f"{where}: {ex}") from None
            if e['xfail'] and e['xfail'] not in [x['name'] for x in devs]:
                raise ListError(f"{where}: xfail={e['xfail']} is no deviation of {acc} DUT {d.name} "
                                f"({deviations.path_for(acc, d.name)})")
            entries.append(e)
    return entries


def parse_seed(text):
    """--seed / make regress SEED=: a number 0..2^64-1, or 'random' (drawn here, printed and recorded)."""
    if text == 'random':
        return secrets.randbits(64), True
    if not re.fullmatch(r'\d+', text) or int(text) > SEED_MAX:
        raise ListError(f"seed '{text}': expected a number 0..{SEED_MAX} (2^64-1) or 'random'")
    return int(text), False


def expand(entries, base_seed):
    """Entries → runs: one per seed (test=) or per file and seed (trace=/cfg= globs). Seeds past 2^64-1 wrap to 0."""
    runs = []
    for e in entries:
        skip = None
        missing = [n for n in e['needs'] if not os.path.exists(os.path.join(ROOT, n))]
        if missing:
            skip = f"{missing[0]} is absent (external stimulus not available in this checkout)"
        if not skip:
            d = dut_manifest.get(e['acc'], e['dut'])
            skip = d.unavailable() or d.unbuilt()
        stims = [e['stim']]
        if e['kind'] != 'test':
            found = sorted(glob.glob(os.path.join(ROOT, e['stim'])))
            if found:
                stims = [os.path.relpath(p, ROOT) for p in found]
            elif not skip:
                raise ListError(f"{e['where']}: no file matches '{e['stim']}'")
        for stim in stims:
            for i in range(e['seeds']):
                runs.append(dict(e, stim=stim, seed=(base_seed + e['from'] + i) & SEED_MAX, skip=skip))
    seen = {}
    for r in runs:   # two runs with one name would share a log, a result and a wave: refuse, naming both
        rid = run_id(r)
        if rid in seen and seen[rid]['stim'] != r['stim']:
            raise ListError(f"{r['where']}: run {rid} of {r['stim']} has the name of the run of {seen[rid]['stim']} "
                            f"({seen[rid]['where']}); rename one of the files")
        if rid in seen and seen[rid]['where'] != r['where']:
            raise ListError(f"{r['where']}: run {rid} is also a run of {seen[rid]['where']} (same test, seed and "
                            "arguments): one of the entries is redundant")
        seen[rid] = r
    return runs


def acc_dut(r):
    """'nvdla' on the default DUT, 'nvdla@nv_small' on another: the prefix of run ids and report rows."""
    return r['acc'] + (f"@{r['dut']}" if r.get('dut') else '')


# Stimulus file names fixed by their format, so that only the folder tells one stimulus from another: runs of
# such a file are named after its folder. ai8xize writes every network's SDK trace as <network>/apb_trace.txt
# (vectors/max78000/README.md). A new format with a fixed file name adds its name (without extension) here.
FOLDER_NAMED_STEMS = frozenset({'apb_trace'})


def test_name(r):
    """What a run is named after: the test; for a trace or .cfg, its file's name without the extension, or its
    folder's name when the file's name is fixed by its format (FOLDER_NAMED_STEMS)."""
    stem = os.path.splitext(os.path.basename(r['stim']))[0]
    if r['kind'] != 'test' and any(ch in r['stim'] for ch in '*?['):
        # a glob that matched nothing (its stimulus is absent: the run is skipped): named after its folder
        # pattern too, so that two such globs of one list keep distinct names
        pattern = os.path.join(os.path.basename(os.path.dirname(r['stim'])), stem)
        return re.sub(r'[^A-Za-z0-9]+', '_', pattern).strip('_') or 'glob'
    if r['kind'] == 'firmware':   # apart from the reader's runs (cfg=) of the same folder
        return 'fw-' + stem
    if r['kind'] != 'test' and stem in FOLDER_NAMED_STEMS:
        return os.path.basename(os.path.dirname(os.path.abspath(os.path.join(ROOT, r['stim'])))) or stem
    return stem


RUN_ID_MAX = 200    # a run's id names its files (<id>.log, .json, waves, coverage): file names hold 255 bytes


def run_id(r):
    stim = test_name(r)
    tag = '_'.join(re.sub(r'[^A-Za-z0-9]+', '_', a.lstrip('+')) for a in r['args'])
    rid = f"{acc_dut(r)}.{stim}{('.' + tag) if tag else ''}.s{r['seed']}"
    if len(rid) > RUN_ID_MAX:   # the arguments' tail gives way to a hash of them all: still one id per run
        keep = RUN_ID_MAX - len(f"{acc_dut(r)}.{stim}..s{r['seed']}") - 11
        tag = f"{tag[:max(keep, 0)]}_{hashlib.sha256(tag.encode()).hexdigest()[:10]}"
        rid = f"{acc_dut(r)}.{stim}.{tag}.s{r['seed']}"
    return rid


BUILD_ROOT = 'build'       # --build-root: where the simulators are (build/xrand, build/coverage, build/mutate)
CODE_COV = None            # --code-cov DIR: each run writes its line coverage to DIR/<run>.dat


BUILD_TARGETS = {os.path.join('build', 'xrand'): 'build-xrand'}   # a variant build root: what builds it


def build_root(arg, code_cov):
    """--build-root, checked: a folder inside the checkout, given relative to it (logs and repro lines carry no
    absolute path), not together with --code-cov (which has its own)."""
    root = os.path.normpath(arg)
    if code_cov and root != 'build':
        raise ListError(f"--build-root {arg} and --code-cov: the coverage builds are build/coverage; give one")
    if os.path.isabs(root) or root.startswith('..'):
        raise ListError(f"--build-root {arg}: give a folder inside the checkout, relative to it (e.g. build/xrand)")
    if not os.path.isdir(os.path.join(ROOT, root)):
        hint = f" (make {BUILD_TARGETS[root]})" if root in BUILD_TARGETS else ''
        raise ListError(f"--build-root {arg}: no such folder{hint}")
    return root


def run_timeout(r):
    """A run's wall-clock limit: its list entry's timeout=, else the default (runs of flow/diff.py have none)."""
    return r.get('timeout') or RUN_TIMEOUT_S


def sim_path(acc, dut):
    """The simulator, relative to the checkout (runs execute there; logs carry no absolute path)."""
    return os.path.join(BUILD_ROOT, os.path.relpath(dut_manifest.get(acc, dut).build_dir, 'build'), 'sim')


def known_tests(sim):
    """The tests a simulator knows, in its order: the names `+test=?` lists (what `make list` prints)."""
    p = subprocess.run([sim, '+test=?'], cwd=ROOT, capture_output=True, text=True)
    return re.findall(r'^\s+(\w+)\s', (p.stdout + p.stderr).split('known tests', 1)[-1], re.M)


def own_cov(arg, outdir):
    """+cov=<dir> of a list entry, moved under the regression's own folder (<outdir>/cov/<dir's name>/), so that
    two regressions never merge each other's coverage bins."""
    if not arg.startswith('+cov=') or outdir is None:
        return arg
    name = os.path.basename(os.path.normpath(arg[len('+cov='):])) or 'cov'
    return f"+cov={os.path.relpath(os.path.join(outdir, 'cov', name), ROOT)}/"


def stim_args(r):
    """The plusargs that name a run's stimulus: +<kind>=<stim>; a firmware= folder runs what its build wrote
    (run.args: its ELF, a --riscv program's RISC-V image too), or its ELF's path where nothing was built."""
    if r['kind'] == 'firmware':
        try:
            fw = fw_ai8x.run_args(r['stim'])
        except OSError:
            fw = [f"+firmware={fw_ai8x.elf_path(r['stim'])}"]
        return ['+test=firmware', *fw, f"+fw_sdk={fw_ai8x.sdk_path()}"]
    return [f"+{r['kind']}={r['stim']}"]


def build_firmware(runs, jobs):
    """Builds the folders of the firmware= runs (flow/fw_ai8x.py, cached by content) before any run starts: a
    folder it refuses becomes a skip with the reason, a failed build a run that fails with the build's log."""
    fw = [r for r in runs if r['kind'] == 'firmware' and not r['skip']]
    if not fw:
        return
    try:
        built = fw_ai8x.build(sorted({r['stim'] for r in fw}), fw_ai8x.sdk_path(), jobs)
    except fw_ai8x.SdkAbsent as ex:
        for r in fw:
            r['skip'] = f"{ex} (external stimulus not available in this checkout)"
        return
    except FileNotFoundError as ex:
        raise ListError(str(ex)) from None
    for r in fw:
        status, detail = built[r['stim']]
        if status == 'refused':
            r['skip'] = f"refused by the firmware path (flow/fw_ai8x.py): {detail}"
        elif status == 'FAILED':
            r['build_error'] = f"{r['stim']}: firmware build failed: {detail}"


def sim_cmd(r, extra=(), outdir=None):
    cov = [f"+code_cov={os.path.join(CODE_COV, run_id(r) + '.dat')}"] if CODE_COV else []
    return [sim_path(r['acc'], r.get('dut')), *stim_args(r), f"+seed={r['seed']}",
            *[own_cov(a, outdir) for a in r['args']], *cov, *extra]


def repro(r):
    """One command line that reproduces the run: `make run ...` on the default builds; on a variant build
    (--build-root: X-randomised, mutant, coverage) the variant simulator itself, since `make run` would run the
    default binary."""
    if BUILD_ROOT != 'build':
        return ' '.join(shlex.quote(c) for c in [sim_path(r['acc'], r.get('dut')), *stim_args(r),
                                                 f"+seed={r['seed']}", *r['args']])
    stim = {'test': 'TEST', 'trace': 'TRACE', 'cfg': 'CFG', 'firmware': 'FIRMWARE'}[r['kind']]
    args = f" ARGS='{' '.join(r['args'])}'" if r['args'] else ''
    dut = f" DUT={r['dut']}" if r.get('dut') else ''
    return f"make run ACC={r['acc']}{dut} {stim}={r['stim']} SEED={r['seed']}{args}"


def signature(line):
    """A failure's bucket: its first error line with numbers, addresses, seeds and the job's name masked (a
    generator names each job after its random shape: 'net0: 2 layers | HWC 3x6x7 pad1 ...')."""
    line = re.sub(r"\bjob '[^']*'", "job '*'", line.strip())
    line = re.sub(r'0x[0-9a-fA-F]+|\d+', lambda m: '0x#' if m.group(0).startswith('0x') else '#', line)
    return re.sub(r'\s+', ' ', line)[:300]


def execute(r, outdir):
    rid = run_id(r)
    res = {'id': rid, 'acc': r['acc'], 'dut': r.get('dut'), 'stim': r['stim'], 'kind': r['kind'], 'seed': r['seed'],
           'args': r['args'], 'negative': r['expect'] is not None, 'repro': repro(r), 'jobs': [],
           'cycles': 0, 'wall_s': 0.0, 'where': r.get('where')}
    if r['skip']:
        res.update(status='SKIP', reason=r['skip'], skip_by='runner')
        return res
    if r.get('build_error'):
        res.update(status='FAIL', reason=r['build_error'], error=r['build_error'][:500])
        return res
    log = os.path.join(outdir, 'logs', rid + '.log')
    rjson = os.path.relpath(os.path.join(outdir, 'logs', rid + '.json'), ROOT)
    t0 = time.monotonic()
    try:
        p = subprocess.run(sim_cmd(r, [f'+results={rjson}', '+quiet'], outdir), cwd=ROOT, capture_output=True,
                           text=True, timeout=run_timeout(r))
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as ex:
        out, rc = (ex.stdout or b'').decode(errors='replace') + f"\nTIMEOUT after {run_timeout(r)} s", -1
    res['wall_s'] = time.monotonic() - t0
    with open(log, 'w') as f:
        f.write(' '.join(shlex.quote(c) for c in sim_cmd(r, (), outdir)) + '\n' + out)
    data = {}
    try:
        with open(os.path.join(ROOT, rjson)) as f:
            data = json.load(f)
    except (OSError, ValueError):
        pass
    res['jobs'] = data.get('jobs', [])
    res['cycles'] = data.get('cycles', 0)
    verdict = data.get('verdict', 'FAIL' if rc else 'PASS')
    reason = data.get('reason', '') or (out.strip().splitlines() or ['no output'])[-1]
    res['log'] = os.path.relpath(log, ROOT)
    errors = deviations.error_lines(out)   # the run's own error lines, not its echoed command or repro line
    if errors:
        res['error'] = errors[0][:500]
    if r['expect'] is not None:
        # A negative test passes when the run fails, exits nonzero and one of its error lines says why.
        hit = next((ln for ln in errors if re.search(r['expect'], ln)), None)
        if rc != 0 and verdict == 'FAIL' and hit:
            res.update(status='PASS', reason=f"failure detected as expected: {hit.strip()[:300]}")
        else:
            first = f"; first error line: {errors[0].strip()[:200]}" if errors else '; no error line'
            res.update(status='FAIL', reason=f"expected a failure whose error line matches /{r['expect']}/ with "
                                              f"nonzero exit; got verdict {verdict}, exit {rc}{first}")
        return res
    if verdict == 'SKIP' and rc == SKIP_EXIT:
        res.update(status='SKIP', reason=reason, skip_by='simulator')
    elif verdict == 'PASS' and rc == 0 and not res['jobs']:
        # e.g. +help, or a stimulus with nothing in it: a pass must have run and checked something
        res.update(status='FAIL', reason='exit 0 without running a job: nothing was checked', exit=rc)
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
    wdir = os.path.relpath(os.path.join(outdir, 'waves'), ROOT)   # the regression's own: never another's
    os.makedirs(os.path.join(ROOT, wdir), exist_ok=True)
    base = os.path.join(wdir, res['id'])
    # The simulator places the marker itself: where the DUT went wrong when it knows, else the detection.
    cmd = sim_cmd(r, [f'+wave={base}.fst', f'+gtkw={base}.gtkw', f'+wave_from={start}', f'+wave_to={end}',
                      '+quiet'], outdir)
    try:
        cmd[0] = dut_manifest.traced_sim(cmd[0])   # the regression's simulators have no tracing compiled in
    except dut_manifest.ManifestError as ex:
        res['wave_error'] = str(ex)
        print(f"  no waves for {res['id']}: {ex}")
        return
    try:
        subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=run_timeout(r))
    except subprocess.TimeoutExpired:
        pass
    if os.path.exists(os.path.join(ROOT, base + '.fst')):
        res['wave'] = base + '.fst'
        res['gtkw'] = base + '.gtkw'
        res['wave_window'] = [start, end]


def bucket_failures(failed):
    """Failures grouped by signature (dvsim's buckets): [{signature, count, runs, repro, log}], most frequent
    first. A run's signature is its first error line, numbers masked; a failed negative test's or an XPASS's,
    its reason (its error lines are what it was expected to print)."""
    groups = {}
    for r in sorted(failed, key=lambda r: r['id']):
        text = r['reason'] if r['negative'] or r['status'] == 'XPASS' else (r.get('error') or r['reason'])
        groups.setdefault(signature(text), []).append(r)
    out = [{'signature': sig, 'count': len(rs), 'runs': [r['id'] for r in rs], 'repro': rs[0]['repro'],
            'log': rs[0].get('log', ''), 'first': f"{rs[0]['id']}: {rs[0]['reason']}"} for sig, rs in groups.items()]
    return sorted(out, key=lambda b: (-b['count'], b['signature']))


def wave_runs(buckets, results):
    """The run of each bucket to re-run with waves (every bucket: the first of its runs that failed on its own,
    not a negative test nor an XPASS, which have no failure to show); None for a bucket without one."""
    by_res = {r['id']: r for r in results}
    return [next((by_res[i] for i in b['runs'] if by_res[i]['status'] == 'FAIL' and not by_res[i]['negative']), None)
            for b in buckets]


def write_junit(path, name, results, base_seed):
    suite = ET.Element('testsuite', name=name, tests=str(len(results)),
                       failures=str(sum(r['status'] in ('FAIL', 'XPASS') for r in results)),
                       skipped=str(sum(r['status'] in ('SKIP', 'XFAIL') for r in results)),
                       time=f"{sum(r['wall_s'] for r in results):.3f}")
    props = ET.SubElement(suite, 'properties')
    ET.SubElement(props, 'property', name='base_seed', value=str(base_seed))
    for r in results:
        tc = ET.SubElement(suite, 'testcase', classname=f"{acc_dut(r)}.{os.path.basename(r['stim'])}",
                           name=r['id'], time=f"{r['wall_s']:.3f}")
        if r['status'] in ('FAIL', 'XPASS'):
            f = ET.SubElement(tc, 'failure', message=r['reason'][:500])
            f.text = f"repro: {r['repro']}\nlog: {r.get('log', '')}\nwave: {r.get('gtkw', '')}"
        elif r['status'] in ('SKIP', 'XFAIL'):     # XFAIL: 'XFAIL <deviation>: <failure>'
            ET.SubElement(tc, 'skipped', message=r['reason'][:500])
    ET.ElementTree(suite).write(path, encoding='utf-8', xml_declaration=True)


def judge_skips(results):
    """A list entry must run what it names. A skip is accepted only for absent stimulus or RTL (the runner's
    own skips), stimulus the simulator found unusable, or a feature the DUT does not implement; a simulator's
    skip for any other reason (e.g. the
    entry's +features= leaving out a feature the DUT has) is a failure of that run."""
    def feature_skip(r):
        """None: a skip for features the DUT lacks, or for stimulus the simulator found unusable ('unusable
        stimulus: ' and why, e.g. an ai8xize folder holding no program); else what is wrong with it."""
        if 'unusable stimulus: ' in r['reason']:
            return None
        m = re.search(r'needs (.+?), wh(?:ich|ose) ', r['reason'])
        if not m:
            return f"skipped for a reason that is not a missing DUT feature ({r['reason']})"
        has = set(dut_manifest.get(r['acc'], r.get('dut')).features)
        left_out = [f for f in m.group(1).split(', ') if f in has]
        return (f"skipped because the entry's arguments leave out {', '.join(left_out)}, which DUT "
                f"{dut_manifest.get(r['acc'], r.get('dut')).name} implements: the entry runs nothing"
                if left_out else None)
    for r in results:
        why = feature_skip(r) if r['status'] == 'SKIP' and r.get('skip_by') == 'simulator' else None
        if why:
            r.update(status='FAIL', reason=f"{r.get('where')}: {why}")


def summary(results):
    groups = {}
    for r in results:
        stem = ('fw-' if r['kind'] == 'firmware' else '') + os.path.basename(r['stim'])   # apart from cfg= runs
        key = (acc_dut(r), stem, ' '.join(r['args']) + (' (negative)' if r['negative'] else ''))
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


# Launchers: (runs, output folder, options) -> results in completion order. Slurm: flow/launch_slurm.py.
LAUNCHERS = {'local': launch_local,
             'slurm': lambda runs, outdir, a: launch_slurm.launch(runs, outdir, a, execute)}


def lock_regression(name):
    """build/regress/<name>.lock, held while the regression runs: a second regression of that name in this
    checkout stops with one line instead of mixing its logs, waves, coverage and reports into the first's.
    Regressions of other names have their own folders and run side by side."""
    base = os.path.join(ROOT, 'build', 'regress')
    os.makedirs(base, exist_ok=True)
    f = open(os.path.join(base, f'{name}.lock'), 'a+')
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        holder = f.read().strip() or '?'
        raise ListError(f"a regression named '{name}' is already running in this checkout (pid {holder}, lock "
                        f"build/regress/{name}.lock); wait for it or give another --name / NAME=") from None
    f.seek(0)
    f.truncate()
    f.write(f"{os.getpid()}\n")
    f.flush()
    return f


def parse_args(argv=None):
    """The command line (argparse: exit 2 with usage on a malformed one)."""
    ap = argparse.ArgumentParser(prog='python3 -m flow.regress',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--list', required=True)
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--seed', default='1', help="base seed 0..2^64-1, or 'random' (drawn, printed, recorded in "
                    "results.json, the JUnit properties and every repro line); default 1")
    ap.add_argument('--name', default='regress', help='the regression: everything it writes is under '
                    'build/regress/<name>/ (letters, digits, _ . -)')
    ap.add_argument('--no-waves', action='store_true', help='do not re-run failing jobs with waves')
    ap.add_argument('--history', help='the history file the regression appends its record to (default $HISTORY, '
                    f'else {report_page.DEFAULT_HISTORY}; flow/report.py)')
    ap.add_argument('--launcher', choices=sorted(LAUNCHERS), default=os.environ.get('LAUNCHER') or 'local',
                    help='where the runs execute: local processes (default) or a Slurm job array (env LAUNCHER)')
    launch_slurm.add_args(ap)
    ap.add_argument('--code-cov', metavar='DIR', help='code coverage (make coverage): run our DUTs only, from the '
                    'coverage builds under build/coverage/, each run writing DIR/<run>.dat (local launcher)')
    ap.add_argument('--build-root', metavar='DIR', default='build',
                    help='where the simulators are, relative to the checkout: DIR/<acc>/sim, DIR/<acc>-<dut>/sim '
                    '(default build; build/xrand: the X-randomised builds of make build-xrand). Repro lines then '
                    'name the variant simulator itself')
    return ap.parse_args(argv)


def plan(a):
    """The runs of the regression, every one checked before any runs: (runs, base seed, whether it was drawn).
    Sets the simulators' build root (and with --code-cov, the coverage folder). ListError: what is wrong."""
    global BUILD_ROOT, CODE_COV
    if not re.fullmatch(r'[A-Za-z0-9_][A-Za-z0-9_.-]*', a.name):
        raise ListError(f"--name '{a.name}': use letters, digits, '_', '.', '-' (it names build/regress/<name>/)")
    seed, drawn = parse_seed(a.seed)
    try:
        runs = expand(parse_list(a.list), seed)
    except re.error as ex:    # an expect=fail: regex that does not compile
        raise ListError(str(ex)) from None
    BUILD_ROOT = a.build_root = build_root(a.build_root, a.code_cov)
    if a.code_cov:
        BUILD_ROOT, CODE_COV = os.path.join('build', 'coverage'), os.path.abspath(a.code_cov)
        os.makedirs(CODE_COV, exist_ok=True)
        other = [r for r in runs if r.get('dut')]
        runs = [r for r in runs if not r.get('dut')]
        print(f"code coverage: {len(runs)} runs on our DUTs ({len(other)} runs on other DUTs left out)")
    for acc, dut in sorted({(r['acc'], r.get('dut') or '') for r in runs if not r['skip']}):
        sim = sim_path(acc, dut or None)
        if not os.access(os.path.join(ROOT, sim), os.X_OK):
            if BUILD_ROOT == 'build':
                how = f"run 'make {'build' if not dut else 'build-upstream'}' first"
            else:
                how = (f"run 'make {BUILD_TARGETS[BUILD_ROOT]}' first" if BUILD_ROOT in BUILD_TARGETS else
                       f"--build-root {BUILD_ROOT} has no simulator of {acc}{'-' + dut if dut else ''}")
            raise ListError(f"{sim} is missing: {how}")
    build_firmware(runs, a.jobs)
    return runs, seed, drawn


def fresh_outdir(name):
    """build/regress/<name>/, emptied: a previous run's logs, waves and bins would mix with these."""
    outdir = os.path.join(ROOT, 'build', 'regress', name)
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(os.path.join(outdir, 'logs'), exist_ok=True)
    return outdir


def launch(runs, outdir, a, seed, drawn):
    """Every run through the chosen launcher, one progress line per result as it comes; the results in
    completion order. launch_slurm.LaunchError when the launcher cannot run them."""
    via = f"{a.jobs} parallel processes" if a.launcher == 'local' else 'a Slurm job array'
    how = f"random base seed {seed} (repeat: --seed {seed}, make regress SEED={seed})" if drawn else f"base seed {seed}"
    print(f"{a.name}: {len(runs)} runs from {a.list}, {how}, {via}", flush=True)
    results = []
    for n, res in enumerate(LAUNCHERS[a.launcher](runs, outdir, a), 1):
        results.append(res)
        extra = f" ({res['reason'][:100]})" if res['status'] != 'PASS' or res['negative'] else ''
        print(f"[{n:4}/{len(runs)}] {res['status']:4} {res['id']:50} {res['cycles']:9} cyc "
              f"{res['wall_s']:6.2f} s{extra}", flush=True)
    return results


def judge(runs, results, outdir, no_waves):
    """The verdicts after the runs: skips that ran nothing become failures, failures are bucketed, and one run of
    each bucket is re-run with an FST window (unless no_waves). Returns (failed results, buckets)."""
    judge_skips(results)
    failed = [r for r in results if r['status'] in ('FAIL', 'XPASS')]
    buckets = bucket_failures(failed)
    if buckets and not no_waves:
        by_id = {run_id(r): r for r in runs}
        reps = wave_runs(buckets, results)
        print(f"\nre-running one run of each of the {sum(w is not None for w in reps)} failure bucket(s) "
              f"with an FST window into {os.path.relpath(outdir, ROOT)}/waves/ ...")
        for b, res in zip(buckets, reps):
            if res is not None:
                rerun_with_waves(by_id[res['id']], res, outdir)
                b.update({k: res[k] for k in ('wave', 'gtkw', 'wave_window') if k in res}, wave_run=res['id'])
    results.sort(key=lambda r: r['id'])
    return failed, buckets


def report(a, outdir, results, failed, buckets, seed, drawn, wall):
    """results.json and junit.xml under outdir; on stdout the summary table, the skips and expected failures,
    each bucket with its repro line, log and waves, and the one-line verdict."""
    with open(os.path.join(outdir, 'results.json'), 'w') as f:
        json.dump({'name': a.name, 'list': os.path.relpath(os.path.abspath(a.list), ROOT), 'base_seed': seed,
                   'seed_drawn': drawn, 'wall_s': wall, 'env': report_page.environment(), 'buckets': buckets,
                   'runs': results}, f, indent=1)
    write_junit(os.path.join(outdir, 'junit.xml'), a.name, results, seed)
    print('\n' + summary(results))
    npass, nfail = sum(r['status'] == 'PASS' for r in results), len(failed)
    nskip = sum(r['status'] == 'SKIP' for r in results)
    njobs = sum(len(r['jobs']) for r in results if r['status'] == 'PASS')
    nxfail = sum(r['status'] == 'XFAIL' for r in results)
    for r in results:
        if r['status'] in ('SKIP', 'XFAIL'):
            print(f"{r['status']} {r['id']}: {r['reason']}")
    if buckets:
        print(f"\n{nfail} failure(s) in {len(buckets)} bucket(s) (by first error line, numbers masked):")
    for i, b in enumerate(buckets, 1):
        more = f", ... ({b['count'] - 3} more: results.json)" if b['count'] > 3 else ''
        print(f"\n[{i}] {b['count']} x {b['signature']}\n  first: {b['first']}\n"
              f"  runs:  {', '.join(b['runs'][:3])}{more}\n"
              f"  repro: {b['repro']}\n  log:   {b['log']}")
        if b.get('gtkw'):
            print(f"  waves: {b['wave']} (run {b['wave_run']}, cycles {b['wave_window'][0]}..{b['wave_window'][1]}); "
                  f"open with: gtkwave {b['wave']} {b['gtkw']}")
    print(f"\nreports: {os.path.relpath(outdir, ROOT)}/results.json, junit.xml; {njobs} jobs passed in "
          f"{wall:.1f} s; base seed {seed}")
    xf = [x for r in results if r['status'] == 'XFAIL' for x in r['deviations']]
    named = ', '.join(f"{n} x{xf.count(n)}" for n in sorted(set(xf)))
    xpass = sum(r['status'] == 'XPASS' for r in results)
    print(f"{a.name}: {npass} passed, {nfail} failed{f' (of them {xpass} XPASS)' if xpass else ''}, {nskip} skipped"
          f"{f', {nxfail} expected failures (known deviations: {named})' if nxfail else ''}"
          f"{f'; {len(buckets)} failure bucket(s)' if buckets else ''}")


def main(argv=None):
    """Parse, plan (every run checked before the first starts), launch, judge, report. Exit status: 0 all
    passed, 1 any failure, 2 a bad list, argument or launcher."""
    a = parse_args(argv)
    try:
        runs, seed, drawn = plan(a)
        lock = lock_regression(a.name)   # noqa: F841  (held until the process exits)
    except (ListError, OSError) as ex:
        print(f"ERROR: {ex}", file=sys.stderr)
        return 2
    outdir = fresh_outdir(a.name)
    t0 = time.monotonic()
    try:
        results = launch(runs, outdir, a, seed, drawn)
    except launch_slurm.LaunchError as ex:
        print(f"ERROR: {ex}", file=sys.stderr)
        return 2
    failed, buckets = judge(runs, results, outdir, a.no_waves)
    report(a, outdir, results, failed, buckets, seed, drawn, time.monotonic() - t0)
    try:   # the page and the history line: a regression whose page cannot be written does not pass quietly
        page = report_page.publish(outdir, a.history, append=True)
        hist = report_page.shown_path(report_page.history_path(a.history))
        print(f"page: {os.path.relpath(page, ROOT)} (history: {hist})")
    except (report_page.ReportError, OSError, ValueError, KeyError) as ex:
        print(f"ERROR: the regression's page: {ex}", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
