#!/usr/bin/env python3
"""End-to-end test of the Slurm launcher (run by `make test`) on this machine's single-node cluster
(flow/slurm/local_cluster.sh: started here when it is not running, and stopped again if started here):
  - tests/slurm/agree.list through Slurm gives the same results.json, JUnit and summary table as the local
    launcher, including a run that fails on a node (a FAIL with its repro line), negative tests and a skip;
  - a node job killed while running (scancel of its array task) is reported: the run in progress and the
    runs that never started fail with the task's Slurm state and their repro lines; none is lost;
  - with --time-limit, the same for a task that hits a 1-minute time limit (TIMEOUT; about 1.5 minutes).
When the cluster cannot start here (not root, no packages), it prints SKIPPED with the reason and exits 0
with no test counted as passed."""
import argparse
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

from flow import launch_slurm
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLUSTER = os.path.join(ROOT, 'flow', 'slurm', 'local_cluster.sh')
ENV = dict(os.environ, SLURM_CONF=launch_slurm.local_conf())
T = Checks('slurm')
check, skip = T.check, T.skip


def regress(name, lst, *opts):
    cmd = [sys.executable, '-m', 'flow.regress', '--list', os.path.join(ROOT, lst),
           '--name', name, *opts]
    return subprocess.Popen(cmd, cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def report(name):
    """results.json runs (without wall-clock times; log and wave paths without the regression's name), JUnit cases."""
    d = os.path.join(ROOT, 'build', 'regress', name)
    with open(os.path.join(d, 'results.json')) as f:
        runs = [{k: (v.replace(f'/{name}/', '/NAME/') if k in ('log', 'wave', 'gtkw') else v) for k, v in r.items()
                 if k != 'wall_s'}
                for r in json.load(f)['runs']]
    suite = ET.parse(os.path.join(d, 'junit.xml')).getroot()
    cases = [(c.get('classname'), c.get('name'), [(e.tag, e.get('message'), (e.text or '').replace(f'/{name}/', '/'))
                                                  for e in c]) for c in suite]
    return runs, [suite.get(k) for k in ('tests', 'failures', 'skipped')], cases


def table(out):
    """The summary table, without its throughput column (cycles per wall-clock second)."""
    m = re.search(r'^acc +test.*?\n\n', out, re.S | re.M)
    return [line.rsplit(None, 1)[0] for line in m.group(0).splitlines() if line] if m else None


def test_agree():
    loc = regress('slurm_agree_local', 'tests/slurm/agree.list', '--jobs', '2')
    out_l = loc.communicate()[0]
    t0 = time.monotonic()
    slu = regress('slurm_agree_slurm', 'tests/slurm/agree.list', '--launcher', 'slurm')
    out_s = slu.communicate()[0]
    print(f"agree.list through Slurm: {time.monotonic() - t0:.1f} s; its output:\n  " +
          '\n  '.join(out_s.splitlines()[-8:]))
    check('submitted Slurm job array' in out_s, 'the Slurm run submitted a job array')
    check(loc.returncode == slu.returncode == 1, f'both exit 1 on the failing run (local {loc.returncode}, '
                                                 f'slurm {slu.returncode})')
    rl, rs = report('slurm_agree_local'), report('slurm_agree_slurm')
    check(rl[0] == rs[0], f'results.json runs identical but for wall time ({len(rl[0])} vs {len(rs[0])} runs)')
    check(rl[1] == rs[1], f'JUnit counts tests/failures/skipped identical: local {rl[1]}, slurm {rs[1]}')
    check(rl[2] == rs[2], 'JUnit test cases, failures and skips identical')
    check(table(out_l) is not None and table(out_l) == table(out_s), 'summary tables identical (but cyc/s)')
    tail = lambda out: out[out.find('failure(s) in '):out.find('\nreports:')]   # failures with repro lines, logs, waves
    rep = re.search(r"\] 1 x .*MISMATCH.*\n  first: nvdla\.bdma_random\.fault_wdata_flip\.s1: .*MISMATCH.*\n"
                    r"  runs:  .*\n  repro: (make run .*)", out_s)
    check(rep is not None and rep.group(1) == "make run ACC=nvdla TEST=bdma_random SEED=1 ARGS='+fault=wdata_flip'",
          'the run failing on a node is a FAIL with its repro line')
    check(tail(out_l).replace('slurm_agree_local', 'X') == tail(out_s).replace('slurm_agree_slurm', 'X'),
          'failure list (reasons, repro lines, logs, waves) identical')
    check(re.search(r'slurm_agree_slurm: \d+ passed, 1 failed, 1 skipped', out_s) is not None,
          'final count line: 1 failed, 1 skipped')
    pl, ps = page('slurm_agree_local'), page('slurm_agree_slurm')
    check(ps is not None and pl == ps and ps[0].get('n-fail') == '1' and len(ps[2]) == int(ps[0].get('n-runs', -1)),
          "the Slurm regression writes the same page (counts, buckets, every run's status) as the local one",
          f"local {pl and pl[0]}, slurm {ps and ps[0]}")


def page(name):
    """What a regression's page (build/regress/<name>/index.html) shows: its counts, its buckets' counts and every
    run's id and status; None when the page is missing."""
    path = os.path.join(ROOT, 'build', 'regress', name, 'index.html')
    if not os.path.exists(path):
        return None
    with open(path) as f:
        html = f.read()
    counts = dict(re.findall(r'id="(n-[a-z]+)"[^>]*>(\d+)<', html))
    buckets = re.findall(r'class="bucket[^"]*"[^>]*data-count="(\d+)"', html)
    runs = re.findall(r'data-status="([A-Z]+)"><td>([^<]+)</td>', html)
    return counts, buckets, runs


def test_killed(time_limit):
    name = 'slurm_timelimit' if time_limit else 'slurm_killed'
    opts = ['--launcher', 'slurm', '--slurm-tasks', '1', '--no-waves'] + (['--slurm-time', '1'] if time_limit else [])
    t0 = time.monotonic()
    p = regress(name, 'tests/slurm/killed.list', *opts)
    lines = []
    for line in p.stdout:                     # the job id comes first; the scancel goes in while it runs
        lines.append(line)
        m = re.match(r'submitted Slurm job array (\d+)', line)
        if m:
            break
    if not time_limit and m:
        started = os.path.join(ROOT, 'build', 'regress', name, 'slurm', 'results', '1.json.started')
        while not os.path.exists(started) and time.monotonic() - t0 < 60:
            time.sleep(0.2)
        time.sleep(1)
        subprocess.run(['scancel', f'{m.group(1)}_0'], env=ENV, check=False)
    try:
        out = ''.join(lines) + p.communicate(timeout=240)[0]
    except subprocess.TimeoutExpired:
        p.kill()
        out = ''.join(lines) + p.communicate()[0]
    state = 'TIMEOUT' if time_limit else 'CANCELLED'
    print(f"killed.list with a task {'over its time limit' if time_limit else 'cancelled'}: "
          f"{time.monotonic() - t0:.1f} s; its failures:\n  "
          + '\n  '.join(out[out.find('failure(s) in '):].splitlines()))
    check(p.returncode == 1, f'{name}: runner exits 1 (got {p.returncode})')
    with open(os.path.join(ROOT, 'build', 'regress', name, 'results.json')) as f:
        res = {r['id']: r for r in json.load(f)['runs']}
    check(len(res) == 4 and {'nvdla.reg_reset.s1', 'nvdla.reg_rw.s1', 'nvdla.reg_rw.s2'} <= set(res),
          f'{name}: all 4 runs reported, none lost: {sorted(res)}')
    check(res.get('nvdla.reg_reset.s1', {}).get('status') == 'PASS', f'{name}: the run finished before the kill passed')
    hang = next((r for r in res.values() if r['stim'] == 'tests/slurm/sleep.trace'), {})
    check(hang.get('status') == 'FAIL' and state in hang.get('reason', '') and 'while this run was running'
          in hang['reason'], f"{name}: the running run fails with the task's state {state}: {hang.get('reason')}")
    check(bool(hang) and f"repro: {hang['repro']}" in out and 'TRACE=tests/slurm/sleep.trace' in hang['repro'],
          f"{name}: its repro line is printed: {hang.get('repro')}")
    for rid in ('nvdla.reg_rw.s1', 'nvdla.reg_rw.s2'):
        r = res.get(rid, {})
        check(r.get('status') == 'FAIL' and 'before this run started' in r.get('reason', ''),
              f'{name}: {rid}, never started, fails with the reason: {r.get("reason")}')
    q = subprocess.run(['squeue', '-h', '-n', f'regress-{name}'], env=ENV, capture_output=True, text=True)
    check(q.returncode == 0 and not q.stdout.strip(), f'{name}: nothing of the job array is left in the queue')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--time-limit', action='store_true', help='also test a task over its time limit (~1.5 min)')
    a = ap.parse_args()
    for acc in ('nvdla', 'ne16', 'max78000'):
        if not os.access(os.path.join(ROOT, 'build', acc, 'sim'), os.X_OK):
            print(f"ERROR: build/{acc}/sim is missing: run 'make build' first", file=sys.stderr)
            return 2
    was_running = subprocess.run([CLUSTER, 'status'], capture_output=True).returncode == 0
    t0 = time.monotonic()
    if not was_running:
        s = subprocess.run([CLUSTER, 'start'], capture_output=True, text=True)
        print(s.stdout + s.stderr, end='')
        if s.returncode == 3:
            why = (s.stderr.strip().splitlines() or ['no reason given'])[-1]
            print(f"slurm: SKIPPED, no test passed or failed: {why}")
            return 0
        if s.returncode != 0:
            print("FAIL the local Slurm cluster did not start")
            return 1
        print(f"local Slurm cluster started in {time.monotonic() - t0:.1f} s")
    try:
        test_agree()
        test_killed(False)
        if a.time_limit:
            test_killed(True)
    finally:
        if not was_running:
            subprocess.run([CLUSTER, 'stop'], capture_output=True)
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
