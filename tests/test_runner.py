#!/usr/bin/env python3
"""Tests of the regression runner's "no silent pass" rules (issue 23 part B), run by `make test`:
  - a negative test passes only when one of the run's error lines matches: not its echoed repro line;
  - a list entry with +help, or a misspelt +features= name, or whose runs become skips because its
    arguments leave out what the test needs, fails the list; a run that exits 0 with no job fails;
  - --build-root DIR runs DIR/<acc>/sim (the X-randomised lane: build/xrand), and its repro lines name it;
  - seeds: --seed random is drawn, printed, recorded (results.json, JUnit, repro lines); 0..2^64-1 accepted,
    2^64 refused; `make regress SEED=... NAME=...` passes both on;
  - failures are bucketed by signature (13 failures of one signature: one bucket, count 13, one waves
    re-run), every bucket gets waves (not only ten), all of a regression is under build/regress/<name>/
    (waves, coverage bins, logs), with no absolute path in its outputs; the .gtkw opens once moved;
  - two regressions of different names run side by side intact; a second of the same name stops clearly;
  - `make waves` exits nonzero on a failing run, and still writes the waves;
  - the local Slurm cluster keeps its sockets in a short private folder whatever the checkout's depth;
  - no absolute path in the repository; unit tests find ../shared relatively and say why they skip.
Needs `make build` (nvdla, ne16 and max78000 on their default DUTs) and `make unit-build`."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from flow import regress
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TMP = os.path.join(ROOT, 'build', 'test_runner')   # lists and traces of these tests (paths inside the checkout)
JOBS = os.environ.get('JOBS', '2')
T = Checks('runner')
check, skip = T.check, T.skip


def write(name, text):
    os.makedirs(TMP, exist_ok=True)
    path = os.path.join(TMP, name)
    with open(path, 'w') as f:
        f.write(text)
    return os.path.relpath(path, ROOT)


def regress_cmd(name, lst, *opts, clean=True):
    if clean:   # nothing stale from an earlier run can count
        shutil.rmtree(os.path.join(ROOT, 'build', 'regress', name), ignore_errors=True)
    return [sys.executable, '-m', 'flow.regress', '--list', lst, '--name', name,
            '--jobs', JOBS, *opts]


def run_regress(name, lst, *opts):
    p = subprocess.run(regress_cmd(name, lst, *opts), cwd=ROOT, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def results(name):
    with open(os.path.join(ROOT, 'build', 'regress', name, 'results.json')) as f:
        return json.load(f)


def test_negative_matches_error_lines():
    # The repro line echoes '+watchdog=100000': a regex matching the echo must not pass a run failing on a MISMATCH.
    lst = write('negative.list',
                "nvdla test=bdma_random 1 +fault=wdata_flip +watchdog=100000 expect=fail:watchdog\n"
                "nvdla test=bdma_random 1 +fault=wdata_flip +watchdog=100001 expect=fail:MISMATCH\n")
    rc, out = run_regress('t_negative', lst, '--no-waves')
    runs = {r['args'][1]: r for r in results('t_negative')['runs']}
    wd = runs.get('+watchdog=100000', {})
    check(rc == 1 and wd.get('status') == 'FAIL' and 'MISMATCH' in wd.get('reason', ''),
          f"expect=fail:watchdog on a run failing on a MISMATCH is a FAIL naming its error line: {wd.get('reason')}")
    ok = runs.get('+watchdog=100001', {})
    check(ok.get('status') == 'PASS' and 'MISMATCH' in ok['reason'], 'expect=fail:MISMATCH on the same run passes')


def test_list_entries():
    rc, out = run_regress('t_help', write('help.list', "nvdla test=reg_reset 1 +help\n"))
    check(rc == 2 and 'help.list:1' in out and '+help' in out, f"a +help entry is refused with file:line: "
          f"{out.strip().splitlines()[-1] if out.strip() else ''}")
    rc, out = run_regress('t_feat', write('feat.list', "nvdla test=bdma_random 1 +features=csb,glb,bdam\n"))
    check(rc == 2 and 'feat.list:1' in out and "'bdam'" in out,
          f"a misspelt +features= name is refused: {out.strip().splitlines()[-1] if out.strip() else ''}")
    # valid names that leave out what the test needs: the simulator skips, the runner must not stay green
    rc, out = run_regress('t_feat2', write('feat2.list', "nvdla test=bdma_random 2 +features=csb,glb\n"
                                                         "nvdla test=reg_reset 1\n"), '--no-waves')
    st = {r['id']: r for r in results('t_feat2')['runs']}
    bad = [r for r in st.values() if r['stim'] == 'bdma_random']
    check(rc == 1 and len(bad) == 2 and all(r['status'] == 'FAIL' and 'bdma' in r['reason'] for r in bad),
          f"runs skipped because +features= leaves out a feature the DUT has fail: {[r['reason'] for r in bad][:1]}")
    # a run that exits 0 without a job (here +help, past the list check): a FAIL, not a PASS
    outdir = os.path.join(ROOT, 'build', 'regress', 't_nojob')
    os.makedirs(os.path.join(outdir, 'logs'), exist_ok=True)
    run = dict(regress.expand(regress.parse_list(write('nojob.list', "nvdla test=reg_reset 1\n")), 1)[0],
               args=['+help'])
    r = regress.execute(run, outdir)
    check(r['status'] == 'FAIL' and 'without running a job' in r['reason'],
          f"a run that exits 0 without a job fails: {r['status']} {r['reason']}")
    # needs= may repeat: every path must exist, the first missing one is named
    runs = regress.expand(regress.parse_list(write('needs.list', "nvdla test=reg_reset 1 needs=flow needs=nope/x\n"
                                                                 "nvdla test=reg_rw 1 needs=flow needs=tests\n")), 1)
    check(runs[0].get('skip') == 'nope/x is absent (external stimulus not available in this checkout)'
          and not runs[1].get('skip'), f"repeated needs=: skipped naming the missing path ({runs[0].get('skip')}), "
          f"run when all exist ({runs[1].get('skip')})")
    # from=k: an entry's seeds continue another's (base+k ..), so a nightly extends a smoke without repeating it
    runs = regress.expand(regress.parse_list(write('from.list', "nvdla test=reg_rw 2\nnvdla test=reg_rw 3 from=2\n")),
                          5)
    check([r['seed'] for r in runs] == [5, 6, 7, 8, 9], f"from=2 continues the seeds: {[r['seed'] for r in runs]}")
    try:
        regress.expand(regress.parse_list(write('from2.list', "nvdla test=reg_rw 2\nnvdla test=reg_rw 3 from=1\n")), 1)
        e = ''
    except regress.ListError as ex:
        e = str(ex)
    check('is redundant' in e, f"overlapping seeds of two entries refused, naming both ({e[:120]})")
    e = ''
    try:
        regress.parse_list(write('from3.list', "nvdla test=reg_rw 2 from=x\n"))
    except regress.ListError as ex:
        e = str(ex)
    check('from3.list:1: from= takes a number' in e, f"a malformed from= refused with file:line ({e})")


def test_seeds():
    lst = write('seeds.list', "nvdla test=reg_rw 2\nnvdla test=bdma_random 1 +fault=wdata_flip\n")
    rc, out = run_regress('t_seed', lst, '--seed', 'random', '--no-waves')
    m = re.search(r'random base seed (\d+)', out)
    res = results('t_seed')
    seed = int(m.group(1)) if m else None
    check(m is not None and res['base_seed'] == seed and res['seed_drawn'],
          f'--seed random: drawn, printed and in results.json ({seed})')
    junit = ET.parse(os.path.join(ROOT, 'build', 'regress', 't_seed', 'junit.xml')).getroot()
    prop = junit.find("properties/property[@name='base_seed']")
    check(prop is not None and prop.get('value') == str(seed), 'the base seed is a JUnit property')
    reg = sorted(r['seed'] for r in res['runs'] if r['stim'] == 'reg_rw')
    check(seed is not None and reg == [seed, (seed + 1) % 2**64] and
          all(f"SEED={r['seed']}" in r['repro'] for r in res['runs']), f'runs from the drawn seed, repro lines '
          f'carry it: {reg}')
    check(seed is not None and f"SEED={seed} ARGS='+fault=wdata_flip'" in out, 'the printed repro line has the seed')
    check(all(r['status'] == 'PASS' for r in res['runs'] if r['stim'] == 'reg_rw'),
          f"runs pass at a 64-bit seed: {[r['reason'] for r in res['runs'] if r['stim'] == 'reg_rw']}")
    rc, out = run_regress('t_seed_max', write('seedmax.list', "nvdla test=reg_rw 2\n"), '--seed', str(2**64 - 1))
    st = sorted((r['seed'], r['status']) for r in results('t_seed_max')['runs'])
    check(rc == 0 and st == [(0, 'PASS'), (2**64 - 1, 'PASS')],
          f'--seed 2^64-1 accepted, the next seed wraps to 0: {st}')
    top = next((r for r in results('t_seed_max')['runs'] if r['seed'] == 2**64 - 1), None)
    if top:   # the repro line of a run at the largest seed works too (Verilator's own seed derived from it)
        p = subprocess.run(top['repro'], shell=True, cwd=ROOT, capture_output=True, text=True)
        check(p.returncode == 0 and f'seed {2**64 - 1}' in p.stdout, f"its repro line passes: {top['repro']}")
    rc, out = run_regress('t_seed_big', lst, '--seed', str(2**64))
    check(rc == 2 and '2^64-1' in out, f"--seed 2^64 refused in one line: {out.strip()}")
    mk = subprocess.run(['make', '-n', '-o', 'build', '-o', 'build-upstream', '-o', 'build-xrand', '-o', 'check-deps',
                         'regress', 'SEED=random', 'NAME=x'], cwd=ROOT, capture_output=True, text=True)
    check(re.search(r'-m flow\.regress .*--name x --seed random', mk.stdout) is not None and
          'build/regress/x/cov/' in mk.stdout,
          'make regress SEED=random NAME=x passes both to the runner')
    flat = re.sub(r'\s+', ' ', mk.stdout.replace('\\\n', ' '))   # the recipe's continued lines as one
    check(re.search(r'-m flow\.regress --list tests/lists/xrand\.nightly\.list --build-root build/xrand '
                    r'.*--name x-xrand --seed random', flat) is not None and re.search(r'^regress:.* build-xrand', open(
                        os.path.join(ROOT, 'Makefile')).read(), re.M) is not None,
          'make regress then runs the X lane on build/xrand (regression x-xrand), after building it')


def test_build_root():
    # A fake variant build root: its nvdla/sim notes each call, then runs the real simulator.
    fake = os.path.join(TMP, 'fakeroot')
    shutil.rmtree(fake, ignore_errors=True)
    os.makedirs(os.path.join(fake, 'nvdla'))
    calls = os.path.join(fake, 'nvdla', 'calls')
    sim = os.path.join(fake, 'nvdla', 'sim')
    with open(sim, 'w') as f:
        f.write(f'#!/bin/sh\necho "$@" >> {os.path.relpath(calls, ROOT)}\nexec build/nvdla/sim "$@"\n')
    os.chmod(sim, 0o755)
    root = os.path.relpath(fake, ROOT)
    lst = write('root.list', "nvdla test=reg_rw 1\nnvdla test=bdma_random 1 +fault=wdata_flip\n")
    rc, out = run_regress('t_root', lst, '--build-root', root, '--no-waves')
    ncalls = lambda: len(open(calls).read().splitlines()) if os.path.exists(calls) else 0
    res = {r['stim']: r for r in results('t_root')['runs']}
    bad, good = res.get('bdma_random', {}), res.get('reg_rw', {})
    check(rc == 1 and ncalls() == 2 and good.get('status') == 'PASS' and bad.get('status') == 'FAIL',
          f'--build-root {root} runs {root}/nvdla/sim ({ncalls()} calls; exit {rc})')
    want = f"{root}/nvdla/sim +test=bdma_random +seed={bad.get('seed')} +fault=wdata_flip"
    check(bad.get('repro') == want and f"repro: {want}" in out and
          open(os.path.join(ROOT, bad.get('log', 'x'))).readline().startswith(f"{root}/nvdla/sim "),
          f"its repro line and log name the variant simulator: {bad.get('repro')}")
    p = subprocess.run(bad.get('repro', 'false'), shell=True, cwd=ROOT, capture_output=True, text=True)
    from_log = regress.deviations.error_lines(open(os.path.join(ROOT, bad['log'])).read()) if bad else []
    check(p.returncode != 0 and ncalls() == 3 and from_log and
          from_log[0] == regress.deviations.error_lines(p.stdout + p.stderr)[0],
          f'the repro line reruns the variant and fails the same way: {from_log[:1]}')
    rc, out = run_regress('t_root2', write('root2.list', "ne16 test=ex1 1\n"), '--build-root', root)
    check(rc == 2 and f'{root}/ne16/sim is missing' in out, f'a variant root without the simulator: {out.strip()}')
    rc, out = run_regress('t_root3', lst, '--build-root', 'build/no_such_root')
    check(rc == 2 and 'no_such_root' in out and len(out.strip().splitlines()) == 1,
          f'a build root that does not exist: {out.strip()}')


def test_buckets_and_folder():
    name = 't_buckets'
    lst = write('buckets.list', "nvdla test=bdma_random 13 +fault=wdata_flip +cov=build/cov/nvdla_t/\n"
                                "nvdla test=bdma_random 1 +fault=wdata_flip expect=fail:watchdog\n"
                                "nvdla test=reg_rw 1 +cov=build/cov/nvdla_t/\n")
    shutil.rmtree(os.path.join(ROOT, 'build', 'cov', 'nvdla_t'), ignore_errors=True)
    rc, out = run_regress(name, lst)
    res = results(name)
    b = res['buckets']
    big = [x for x in b if x['count'] == 13]
    check(rc == 1 and len(b) == 2 and len(big) == 1, f"14 failures, 2 signatures: 2 buckets, one of 13 "
          f"({[(x['count'], x['signature'][:60]) for x in b]})")
    check(re.search(r'\] 13 x .*MISMATCH', out) is not None and len(re.findall(r'\n  repro: ', out)) == 2,
          'the report prints each bucket once with its count and one repro line')
    outdir = os.path.join(ROOT, 'build', 'regress', name)
    waves = sorted(os.listdir(os.path.join(outdir, 'waves'))) if os.path.isdir(os.path.join(outdir, 'waves')) else []
    check(len([w for w in waves if w.endswith('.fst')]) == 1 and big and big[0].get('gtkw', '').startswith(
          f'build/regress/{name}/waves/'), f'one waves re-run for the bucket of 13, in build/regress/{name}/waves/')
    check(not os.path.exists(os.path.join(ROOT, 'build', 'cov', 'nvdla_t')) and
          len(os.listdir(os.path.join(outdir, 'cov', 'nvdla_t'))) > 0,
          f'coverage bins under build/regress/{name}/cov/, none under build/cov/')
    texts = [open(os.path.join(dp, f), errors='replace').read() for dp, _, fs in os.walk(outdir) for f in fs
             if f.endswith(('.json', '.xml', '.log', '.gtkw'))]
    check(texts and not any(ROOT in t for t in texts), f'no absolute path in results.json, junit.xml, logs, .gtkw '
          f'({len(texts)} files)')
    if big and big[0].get('gtkw'):
        with tempfile.TemporaryDirectory() as d:
            moved = shutil.copytree(os.path.join(outdir, 'waves'), os.path.join(d, 'moved'))
            g = subprocess.run([sys.executable, '-m', 'flow.check_gtkw',
                                os.path.join(moved, os.path.basename(big[0]['gtkw']))], cwd=ROOT, capture_output=True,
                               text=True)
            check(g.returncode == 0, f'the .gtkw, moved with its FST, still names it: {g.stdout.strip()}')
    # every bucket gets waves, not only the first ten: the choice of the runs to re-run
    fake = [{'id': f'r{i}', 'status': 'FAIL', 'negative': False, 'reason': 'x', 'repro': '',
             'error': f'ERROR: kind{chr(97 + i)} of failure at 0x{i:x}'} for i in range(12)]
    bk = regress.bucket_failures(fake)
    check(len(bk) == 12 and len([w for w in regress.wave_runs(bk, fake) if w]) == 12,
          '12 signatures: 12 buckets, each with a run to re-run with waves')
    same = regress.bucket_failures([dict(fake[0], id=f's{i}', error=f'ERROR: MISMATCH job {i} at 0x{i * 64:x}')
                                    for i in range(13)])
    check(len(same) == 1 and same[0]['count'] == 13, 'numbers and addresses are masked in a signature')
    shapes = ["net0: 1 layer | HWC 3x8x3 pad2 3x3->11 abs s+3 fifo", "net0: 2 layers | HWC 2x4x6 avgpool1x3/2 relu"]
    named = regress.bucket_failures([dict(fake[0], id=f'n{i}', error=f"[cycle {i}] ERROR job '{j}' layer 0: the RTL "
                                          "did not write") for i, j in enumerate(shapes)])
    check(len(named) == 1, "a job's name is masked in a signature (generators name jobs after their random shapes)")
    skips = [dict(fake[0], id=f'k{i}', status='SKIP', skip_by='simulator', acc='max78000', dut=None, where='l:1',
                  reason=why) for i, why in enumerate(["unusable stimulus: ai8xize generated no program for x",
                                                       "the program printed nothing to run"])]
    regress.judge_skips(skips)
    check([k['status'] for k in skips] == ['SKIP', 'FAIL'], "a simulator skip stands only for a missing DUT feature "
          f"or stimulus it says is unusable ({[k['status'] for k in skips]})")


def test_concurrent():
    lst_a = write('conc_a.list', "nvdla test=reg_rw 3 +cov=build/cov/nvdla_c/\nmax78000 test=net_small 1\n")
    lst_b = write('conc_b.list', "nvdla test=reg_reset 3 +cov=build/cov/nvdla_c/\nne16 test=ex1 1\n")
    pa = subprocess.Popen(regress_cmd('t_conc_a', lst_a, '--jobs', '1'), cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    pa.stdout.readline()                  # its lock is held once it prints its header
    pb = subprocess.Popen(regress_cmd('t_conc_b', lst_b, '--jobs', '1'), cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    # The same name while one runs: this process holds that regression's lock (as a running regression does) so
    # the check does not race a first regression that may finish before the second starts.
    held = regress.lock_regression('t_conc_same')
    try:
        same = subprocess.run(regress_cmd('t_conc_same', lst_a), cwd=ROOT, capture_output=True, text=True)
    finally:
        held.close()
    pa.communicate(), pb.communicate()    # both finished (their reports are read from results.json)
    check(same.returncode == 2 and 'already running' in same.stderr and str(os.getpid()) in same.stderr,
          f"a second regression of the same name stops in one line, naming the holder: {same.stderr.strip()}")
    ra, rb = results('t_conc_a'), results('t_conc_b')
    ids = lambda r: sorted(x['id'] for x in r['runs'])
    logs = lambda n: sorted(os.listdir(os.path.join(ROOT, 'build', 'regress', n, 'logs')))
    check(pa.returncode == 0 and pb.returncode == 0 and len(ra['runs']) == 4 and len(rb['runs']) == 4 and
          all(x['status'] == 'PASS' for x in ra['runs'] + rb['runs']),
          f'two regressions of different names side by side: both pass, 4 runs each (exit {pa.returncode}, '
          f'{pb.returncode})')
    check(all(f"{i}.log" in logs('t_conc_a') for i in ids(ra)) and all(f"{i}.log" in logs('t_conc_b') for i in ids(rb))
          and not set(logs('t_conc_a')) & set(logs('t_conc_b')), 'each has its own logs, complete')
    cov = lambda n: os.listdir(os.path.join(ROOT, 'build', 'regress', n, 'cov', 'nvdla_c'))
    check(len(cov('t_conc_a')) > 0 and len(cov('t_conc_b')) > 0, 'each has its own coverage bins')


def test_make_waves():
    p = subprocess.run(['make', '--no-print-directory', 'waves', 'ACC=nvdla', 'TEST=bdma_random', 'SEED=3',
                        "ARGS=+fault=wdata_flip"], cwd=ROOT, capture_output=True, text=True)
    # The files are named after the run (stimulus, seed, process id): make prints them on its first line.
    named = re.search(r'waves of this run: (waves/nvdla_bdma_random_s3_p\d+)\.fst', p.stdout)
    fst = os.path.join(ROOT, named.group(1) + '.fst') if named else os.path.join(ROOT, 'waves', 'none.fst')
    check(p.returncode != 0 and os.path.exists(fst), f'make waves of a failing run exits nonzero ({p.returncode}) '
          f'and writes the FST it names ({os.path.relpath(fst, ROOT)})')
    for ext in ('.fst', '.gtkw'):
        if os.path.exists(fst[:-4] + ext):
            os.unlink(fst[:-4] + ext)


def test_slurm_runtime_dir():
    with tempfile.TemporaryDirectory() as d:
        deep = os.path.join(d, *(['a' * 40] * 5))   # a checkout well past 150 characters
        os.makedirs(os.path.join(deep, 'flow', 'slurm'))
        script = shutil.copy(os.path.join(ROOT, 'flow', 'slurm', 'local_cluster.sh'),
                             os.path.join(deep, 'flow', 'slurm'))
        env = {k: v for k, v in os.environ.items() if k != 'SLURM_LOCAL_DIR'}
        run = lambda s: subprocess.run([s, 'dir'], capture_output=True, text=True, env=env).stdout.strip()
        rdir, mine = run(script), run(os.path.join(ROOT, 'flow', 'slurm', 'local_cluster.sh'))
        sock = os.path.join(rdir, 'munge', 'munge.socket')
        check(len(deep) > 150 and rdir and len(sock) < 108 and not rdir.startswith(deep) and rdir != mine,
              f'the local cluster of a {len(deep)}-character checkout keeps munge\'s socket at {sock} '
              f'({len(sock)} < 108 bytes), outside the checkout, apart from this checkout\'s {mine}')


def test_no_absolute_paths():
    g = subprocess.run(['git', 'grep', '-nE', r'/work/|/home/|/Users/', '--', '.'], cwd=ROOT, capture_output=True,
                       text=True)
    hits = [h for h in g.stdout.splitlines() if not h.startswith('tests/test_runner.py:')]
    check(g.returncode in (0, 1) and not hits, f'no absolute path in the repository: {hits[:3]}')
    for t, what in (('test_nvsmall_cfg', 'conformance'), ('test_nvdla_dp_conformance', 'conformance'),
                    ('test_trace_native', 'MAX78000')):
        exe = os.path.join(ROOT, 'build', 'unit', t)
        if not os.access(exe, os.X_OK):
            check(False, f'build/unit/{t} exists (make unit-build)')
            continue
        p = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True,
                           env=dict(os.environ, COSIM_SHARED='/nonexistent/shared'))
        check('SKIPPED' in p.stdout and '/nonexistent/shared/' in p.stdout and 'COSIM_SHARED' in p.stdout,
              f'{t} reads $COSIM_SHARED and says why it skips: '
              f'{next((ln for ln in p.stdout.splitlines() if "SKIPPED" in ln), "no SKIPPED line").strip()}')
        if os.path.isdir(os.path.join(ROOT, '..', 'shared', 'conformance')):
            p = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True,
                               env={k: v for k, v in os.environ.items() if k != 'COSIM_SHARED'})
            check(p.returncode == 0 and 'SKIPPED' not in p.stdout, f'{t} finds ../shared from the checkout and runs')


def main():
    for acc in ('nvdla', 'ne16', 'max78000'):
        if not os.access(os.path.join(ROOT, 'build', acc, 'sim'), os.X_OK):
            print(f"ERROR: build/{acc}/sim is missing: run 'make build' first", file=sys.stderr)
            return 2
    only = sys.argv[1:]
    for t in (test_negative_matches_error_lines, test_list_entries, test_seeds, test_build_root,
              test_buckets_and_folder, test_concurrent, test_make_waves, test_slurm_runtime_dir,
              test_no_absolute_paths):
        if not only or t.__name__ in only:
            try:
                t()
            except (OSError, KeyError, ValueError, TypeError, AttributeError, IndexError) as ex:
                check(False, f'{t.__name__} did not finish: {type(ex).__name__}: {ex}')
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
