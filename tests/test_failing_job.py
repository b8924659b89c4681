#!/usr/bin/env python3
"""End-to-end test of the failure path of a regression (run by `make test`):
a BDMA job whose output is corrupted on its way to memory must make the runner
  - fail, naming the job and its seed, the first mismatching coordinate and address,
  - print a one-line repro command that reproduces the failure exactly,
  - re-run the job with an FST window covering only that job (not the jobs before it),
  - write a .gtkw whose signals all exist in the FST and whose marker is at the failure.
The corrupted job is the second job of a seed whose first job is long, found by search (not hard-coded)."""
import json
import os
import re
import subprocess
import sys
import tempfile

from flow import dut_manifest
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, 'build', 'nvdla', 'sim')
MARGIN = 200
T = Checks('failing_job')
check, skip = T.check, T.skip


def jobs_of(seed):
    out = subprocess.run([SIM, '+test=bdma_random', f'+seed={seed}', '+quiet'], capture_output=True, text=True).stdout
    return [(m.group(1), int(m.group(2))) for m in re.finditer(r'^job (\S+)\s+PASS\s+cycles (\d+)', out, re.M)]


# One failing run per accelerator and DUT (a fault the testbench injects): its .gtkw must name only signals
# that exist in its FST (the DUT's own signal list included). Data, not code: add a line when a DUT joins.
WAVE_RUNS = {
    ('nvdla', None): ['+test=bdma_random', '+seed=2', '+fault=wdata_flip'],
    ('nvdla', 'nv_small'): ['+test=sdp_random', '+seed=2', '+fault=wdata_flip:0'],
    ('ne16', None): ['+test=random', '+seed=1', '+fault=store_flip'],
    ('ne16', 'pulp'): ['+test=ex3', '+seed=1', '+stall=0', '+fault=store_flip'],
    ('max78000', None): ['+test=net_small', '+seed=1', '+fault=out_flip'],
}


def check_all_save_files():
    for (acc, dut_name), args in WAVE_RUNS.items():
        dut = dut_manifest.get(acc, dut_name)
        why = dut.unavailable()
        if why:
            skip(f'{acc} DUT {dut.name} save file: {why}')
            continue
        sim = os.path.join(ROOT, dut.build_dir, 'sim')
        acc = f'{acc} DUT {dut.name}'
        if not os.access(sim, os.X_OK):
            check(False, f'{acc}: {dut.build_dir}/sim exists for the save-file check')
            continue
        with tempfile.TemporaryDirectory() as d:
            fst, gtkw = os.path.join(d, 'w.fst'), os.path.join(d, 'w.gtkw')
            r = subprocess.run([dut_manifest.traced_sim(sim), *args, f'+wave={fst}', f'+gtkw={gtkw}', '+quiet'],
                               capture_output=True, text=True)
            g = subprocess.run([sys.executable, '-m', 'flow.check_gtkw', gtkw],
                               cwd=ROOT, capture_output=True, text=True)
            check(r.returncode != 0 and g.returncode == 0,
                  f"{acc}: the failing run's .gtkw names only signals in its FST: {g.stdout.strip()}")


def main():
    seed = next((s for s in range(1, 60) if len(jobs_of(s)) >= 2 and jobs_of(s)[0][1] > 3 * MARGIN), None)
    check(seed is not None, 'found a seed with two jobs and a long first job')
    if seed is None:
        return 1
    with tempfile.NamedTemporaryFile('w', suffix='.list', delete=False) as f:
        f.write('nvdla test=bdma_random 1 +fault=wdata_flip +fault_job=1\n')
    p = subprocess.run([sys.executable, '-m', 'flow.regress', '--list', f.name, '--seed',
                        str(seed), '--jobs', '1', '--name', 'failing_job'], cwd=ROOT, capture_output=True, text=True)
    os.unlink(f.name)
    out = p.stdout + p.stderr
    check(p.returncode == 1, f'runner exits 1 on a failing job (got {p.returncode})')
    check(f'bdma_random.s{seed}.j1' in out, f'failure names the job bdma_random.s{seed}.j1 (job and seed)')
    m = re.search(r'MISMATCH .*first at BDMA grp \d cmd \d+ surf \d+ line \d+ byte \d+ addr 0x[0-9a-f]+', out)
    check(m is not None, 'failure gives the first mismatching coordinate (surf/line/byte) and address')
    rep = re.search(r'repro: (make run .*)', out)
    check(rep is not None and f'SEED={seed}' in rep.group(1), 'one-line repro command with the seed')
    res = json.load(open(os.path.join(ROOT, 'build', 'regress', 'failing_job', 'results.json')))['runs'][0]
    jobs = res['jobs']
    check(len(jobs) == 2 and jobs[1]['failed'] and not jobs[0]['failed'], 'second job failed, first passed')
    win = res.get('wave_window')
    check(win is not None and os.path.exists(os.path.join(ROOT, res['wave'])), 'FST written under waves/')
    if win:
        check(win[0] == jobs[1]['start'] - MARGIN and win[0] > jobs[0]['start'],
              f"FST window starts {MARGIN} cycles before the failing job, after the first job began ({win})")
        check(win[1] >= jobs[1]['first_error_cycle'], 'FST window reaches the failure')
        g = subprocess.run([sys.executable, '-m', 'flow.check_gtkw', os.path.join(ROOT, res['gtkw'])], cwd=ROOT,
                           capture_output=True, text=True)
        check(g.returncode == 0, 'gtkw signals exist in the FST and the marker is inside it: ' + g.stdout.strip())
        marker = re.search(r'^\*[-\d.]+ (\d+)', open(os.path.join(ROOT, res['gtkw'])).read(), re.M)
        log = open(os.path.join(ROOT, res['log'])).read()
        origin = re.search(r'failure originates at cycle (\d+)', log)
        check(origin is not None and jobs[1]['start'] < int(origin.group(1)) <= jobs[1]['first_error_cycle'],
              'the log names the cycle the corrupted byte was written, inside the failing job')
        check(marker and origin and int(marker.group(1)) == 10 * int(origin.group(1)),
              'GTKWave marker at the write of the corrupted byte')
    if rep:   # the repro line reproduces the same failure
        r = subprocess.run(rep.group(1), shell=True, cwd=ROOT, capture_output=True, text=True)
        check(r.returncode != 0 and m is not None and m.group(0).split('MISMATCH', 1)[1] in r.stdout + r.stderr,
              'the repro command reproduces the identical mismatch')
    check_all_save_files()
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
