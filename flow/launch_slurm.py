#!/usr/bin/env python3
"""Slurm launcher of flow/regress.py (`--launcher slurm`): the runs of a list become one Slurm job array.

Submit host (regress.py, after the builds): the runs are dealt round-robin into at most --slurm-tasks
chunks (so thousands of short runs are a few dozen array tasks, not thousands of jobs), written to
build/regress/<name>/slurm/chunks.json and submitted with one `sbatch --array`. Each array task runs
    python3 -m flow.launch_slurm --run-chunk build/regress/<name>/slurm/chunks.json
which calls regress.execute() on every run of its chunk, exactly as the local launcher does, and writes
each result to slurm/results/<i>.json (a `<i>.started` marker first). The submit host polls the result
folder and `squeue`; results are yielded as they appear. A run with no result once its array task has
left the queue (cancelled, time limit, node failure, worker crash) is a FAIL whose reason is the task's
Slurm state (sacct, else scontrol), with its repro line: never lost.
Needs a folder shared by the submit host and the nodes at the same path (the checkout), and the same
Python/Verilator toolchain on the nodes. Options: see add_args(); sbatch also reads SBATCH_PARTITION,
SBATCH_ACCOUNT, SBATCH_TIMELIMIT itself."""
import argparse
import concurrent.futures as cf
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLUSTER = os.path.join(ROOT, 'flow', 'slurm', 'local_cluster.sh')   # this machine's single-node cluster
POLL_S = 2.0              # squeue / result-folder polling period
RESULT_GRACE_S = 30.0     # a completed task's results may show late on a network filesystem
MAX_QUERY_ERRORS = 30     # consecutive failed squeue calls (about a minute) before giving up
FINAL_STATES = {'COMPLETED', 'CANCELLED', 'FAILED', 'TIMEOUT', 'NODE_FAIL', 'PREEMPTED', 'BOOT_FAIL', 'DEADLINE',
                'OUT_OF_MEMORY'}


class LaunchError(Exception):
    pass


def add_args(ap):
    g = ap.add_argument_group('Slurm launcher (--launcher slurm); defaults from the environment')
    env = os.environ.get
    g.add_argument('--slurm-partition', default=env('REGRESS_SLURM_PARTITION'),
                   help='sbatch --partition (env REGRESS_SLURM_PARTITION; sbatch itself reads SBATCH_PARTITION)')
    g.add_argument('--slurm-account', default=env('REGRESS_SLURM_ACCOUNT'),
                   help='sbatch --account (env REGRESS_SLURM_ACCOUNT or SBATCH_ACCOUNT)')
    g.add_argument('--slurm-time', default=env('REGRESS_SLURM_TIME'),
                   help='time limit of one array task, i.e. of one chunk of runs, e.g. 30 or 1:00:00 '
                        '(env REGRESS_SLURM_TIME or SBATCH_TIMELIMIT)')
    g.add_argument('--slurm-tasks', type=int, default=int(env('REGRESS_SLURM_TASKS', '64')),
                   help='at most this many array tasks; runs are dealt round-robin over them (default 64, '
                        'env REGRESS_SLURM_TASKS)')
    g.add_argument('--sbatch-opt', action='append', default=shlex.split(env('REGRESS_SBATCH_OPTS', '')),
                   help="one more sbatch option, repeatable, e.g. --sbatch-opt=--qos=short "
                        "(env REGRESS_SBATCH_OPTS, shell-split)")


def local_conf():
    """The slurm.conf of this checkout's local cluster (in its private runtime folder: local_cluster.sh dir)."""
    d = subprocess.run([CLUSTER, 'dir'], capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(d, 'slurm.conf')


def _slurm_env():
    """The environment for sbatch/squeue: this checkout's local cluster when no other is configured."""
    env = dict(os.environ)
    if 'SLURM_CONF' not in env and not os.path.exists('/etc/slurm/slurm.conf') and os.path.exists(local_conf()):
        env['SLURM_CONF'] = local_conf()
    return env


def _slurm(cmd, env):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, 124, '', f"{cmd[0]} timed out after 60 s")


def _write_json(path, data):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, 'w') as f:
        json.dump(data, f)
    os.replace(tmp, path)   # atomic: the poller never reads half a result


def _task_states(jobid, env):
    """{array task: {'state', 'exit', 'node', 'limit', 'reason'}} from sacct, else scontrol (no accounting)."""
    states = {}
    p = _slurm(['sacct', '-n', '-P', '-X', '-j', jobid, '-o', 'JobID,State,ExitCode,NodeList,Timelimit'], env)
    if p.returncode == 0:
        for line in p.stdout.splitlines():
            f = line.split('|')
            m = re.fullmatch(rf'{jobid}_(\d+)', f[0]) if len(f) >= 5 else None
            if m:
                states[int(m.group(1))] = {'state': f[1], 'exit': f[2], 'node': f[3], 'limit': f[4], 'reason': ''}
    if states:
        return states
    p = _slurm(['scontrol', '-o', 'show', 'job', jobid], env)
    for line in p.stdout.splitlines():
        kv = dict(t.split('=', 1) for t in line.split() if '=' in t)
        if kv.get('ArrayJobId') == jobid and kv.get('ArrayTaskId', '').isdigit():
            states[int(kv['ArrayTaskId'])] = {'state': kv.get('JobState', '?'), 'exit': kv.get('ExitCode', '?'),
                                              'node': kv.get('NodeList', '?'), 'limit': kv.get('TimeLimit', '?'),
                                              'reason': kv.get('Reason', '')}
    return states


def _active_tasks(jobid, env):
    """Number of array tasks still queued or running; None when squeue could not answer."""
    p = _slurm(['squeue', '-h', '-r', '-j', jobid, '-o', '%i %T'], env)
    if p.returncode != 0:
        return 0 if 'Invalid job id' in p.stderr else None
    return sum(1 for line in p.stdout.split('\n') if line.strip() and line.split()[-1] not in FINAL_STATES)


def _lost_reason(jobid, task, st, started, out):
    """Why a run has no result: its array task's Slurm state, and whether the run had started."""
    if st is None:
        what = 'left the queue with no state known to sacct or scontrol'
    else:
        what = f"ended {st['state']}"
        if st['state'].startswith('TIMEOUT'):
            what += f" (time limit {st['limit']})"
        elif st['state'].startswith('COMPLETED'):
            what += ' but wrote no result (is build/regress shared with the node at the same path?)'
        else:
            what += f" (exit {st['exit']}{', ' + st['reason'] if st['reason'] not in ('', 'None') else ''})"
        what += f" on {st['node']}"
    when = 'while this run was running' if started else 'before this run started'
    return f"Slurm array task {jobid}_{task} {what} {when}; task output: {out}"


def launch(runs, outdir, opts, execute):
    """Run `runs` as one Slurm job array; yields each run's result (as execute() makes it) as it arrives."""
    if not runs:
        return
    env = _slurm_env()
    for tool in ('sbatch', 'squeue'):
        if not shutil.which(tool):
            raise LaunchError(f"{tool} not found: install the Slurm client (apt-get install slurm-client) or "
                              "start this machine's test cluster: flow/slurm/local_cluster.sh start")
    sdir = os.path.join(outdir, 'slurm')
    shutil.rmtree(sdir, ignore_errors=True)
    os.makedirs(os.path.join(sdir, 'results'))
    os.makedirs(os.path.join(sdir, 'out'))
    ntasks = max(1, min(len(runs), opts.slurm_tasks))
    chunks = [list(range(t, len(runs), ntasks)) for t in range(ntasks)]
    # relative to the checkout (the tasks run there: --chdir), so that no output holds an absolute path
    _write_json(os.path.join(sdir, 'chunks.json'), {'outdir': os.path.relpath(outdir, ROOT), 'runs': runs,
                                                    'chunks': chunks,
                                                    'build_root': getattr(opts, 'build_root', 'build')})
    cmd = ['sbatch', '--parsable', f'--array=0-{ntasks - 1}', f"--job-name=regress-{os.path.basename(outdir)}",
           f"--output={sdir}/out/%a.out", f'--chdir={ROOT}', '--export=ALL']
    for flag, val in (('--partition', opts.slurm_partition), ('--account', opts.slurm_account),
                      ('--time', opts.slurm_time)):
        if val:
            cmd.append(f'{flag}={val}')
    cmd += opts.sbatch_opt
    cmd += ['--wrap', f"exec python3 -m flow.launch_slurm --run-chunk {shlex.quote(sdir)}/chunks.json"]
    p = _slurm(cmd, env)
    if p.returncode != 0 or not p.stdout.strip():
        raise LaunchError(f"sbatch failed (exit {p.returncode}): {p.stderr.strip() or p.stdout.strip()}\n"
                          f"  command: {' '.join(shlex.quote(c) for c in cmd)}\n  no cluster? "
                          "flow/slurm/local_cluster.sh start  (a single-node cluster on this machine)")
    jobid = p.stdout.strip().split(';')[0]
    print(f"submitted Slurm job array {jobid}: {len(runs)} runs in {ntasks} array tasks "
          f"(~{math.ceil(len(runs) / ntasks)} runs each); task output in {os.path.relpath(sdir, ROOT)}/out/",
          flush=True)
    done, errors = set(), 0
    result = lambda i: os.path.join(sdir, 'results', f'{i}.json')

    def arrived():
        """The results that appeared since the last look."""
        present = set(os.listdir(os.path.join(sdir, 'results')))   # one listing, not a stat per run
        for i in range(len(runs)):
            if i not in done and f'{i}.json' in present:
                with open(result(i)) as f:
                    res = json.load(f)
                done.add(i)
                yield res

    try:
        while True:
            yield from arrived()
            if len(done) == len(runs):
                return
            active = _active_tasks(jobid, env)
            errors = errors + 1 if active is None else 0
            if errors >= MAX_QUERY_ERRORS:
                raise LaunchError(f"squeue has not answered for {errors} polls; job {jobid} cancelled")
            if active == 0:
                break
            time.sleep(POLL_S)
    except BaseException:
        _slurm(['scancel', jobid], env)   # Ctrl-C or an error here: do not leave the array running
        raise
    # The array left the queue with runs missing: wait a little for late files, then report each as lost.
    states = _task_states(jobid, env)
    deadline = time.monotonic() + (RESULT_GRACE_S if any(s['state'].startswith('COMPLETED')
                                                         for s in states.values()) else 0)
    while True:
        yield from arrived()
        if len(done) == len(runs) or time.monotonic() >= deadline:
            break
        time.sleep(POLL_S)
    for t, chunk in enumerate(chunks):
        for i in chunk:
            if i in done:
                continue
            out = os.path.relpath(os.path.join(sdir, 'out', f'{t}.out'), ROOT)
            reason = _lost_reason(jobid, t, states.get(t), os.path.exists(result(i) + '.started'), out)
            # execute() of a run marked skipped builds the run's result without running it: reuse its shape.
            res = execute(dict(runs[i], skip=reason), outdir)
            res.update(status='FAIL', reason=reason, log=out)
            yield res


def run_chunk(path, task):
    """On a node: run this array task's chunk with regress.execute(), one result file per run."""
    from flow import regress   # here: regress imports this module
    with open(path) as f:
        spec = json.load(f)
    regress.BUILD_ROOT = spec.get('build_root', 'build')   # the submitter's --build-root (a variant build)
    rdir = os.path.join(os.path.dirname(path), 'results')

    def one(i):
        out = os.path.join(rdir, f'{i}.json')
        if os.path.exists(out):        # a requeued task does not redo what it finished
            return
        open(out + '.started', 'w').close()
        res = regress.execute(spec['runs'][i], os.path.join(ROOT, spec['outdir']))
        _write_json(out, res)
        print(f"{res['status']:4} {res['id']} {res['wall_s']:.2f} s", flush=True)

    workers = int(os.environ.get('SLURM_CPUS_PER_TASK', '1'))
    with cf.ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        list(pool.map(one, spec['chunks'][task]))
    return 0


def main():
    ap = argparse.ArgumentParser(prog='python3 -m flow.launch_slurm',
                                 description='Slurm array task worker of flow/regress.py (see its --launcher)')
    ap.add_argument('--run-chunk', required=True, help='chunks.json written by the submit host')
    ap.add_argument('--task', type=int, default=None, help='chunk index (default: $SLURM_ARRAY_TASK_ID)')
    a = ap.parse_args()
    task = a.task if a.task is not None else os.environ.get('SLURM_ARRAY_TASK_ID')
    if task is None:
        print('ERROR: no chunk index: give --task or run as a Slurm array task', file=sys.stderr)
        return 2
    return run_chunk(a.run_chunk, int(task))


if __name__ == '__main__':
    sys.exit(main())
