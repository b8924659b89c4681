#!/usr/bin/env python3
"""The fuzz lane: `make fuzz [SEED=<n>|random]` (make regress runs it; make test runs its --smoke subset).

From a seed (default 1; printed), derives mutants of every vendor format the bench reads: NVIDIA loadables,
nv_small .cfg traces (and their .dat), ai8xize folders, pulp-nnx conf.json and the MAX78000 firmware ELF (the
inputs and how many of each: flow/fuzz_inputs.tsv; the mutations: flow/fuzz_mutants.py). Each mutant is written
under build/fuzz/<format>/<id>/ and run golden-only (pulp-nnx, which has no golden-only mode, on our RTL), the
first few of each input on our RTL too, each under a memory limit (--mem-gib, default 2 GiB of address space) and
a wall-time limit, and each run is classified:
  clean-error  refused before its first cycle: nonzero exit, an error line naming the mutated input's file and
               where in it (a line, an offset, a field, an entry...), and the repro line
  fail         ran and failed: an error or mismatch line, and the repro line (a check caught the change)
  pass         exit 0 with something compared, and the input's own expected result (when it carries one)
               unchanged or still true of the correct output: the bench computed on the changed input and the
               checks agreed, which is all it can know
  skip         the bench skipped it, saying why (a unit the DUT lacks)
  silent-pass  exit 0 but nothing compared, or the input's expected result changed so that the correct output no
               longer satisfies it (flow/fuzz_mutants.py `implied`) and the run still passed
  crash        killed by a signal, the simulator's crash handler, a sanitizer, or out of memory naming no file
  hang         the wall-time limit hit
  unclear      nonzero exit without an error naming the file and where, or without the repro line
Gate: 0 crash, 0 hang, 0 silent-pass, 0 unclear, and every unmutated input passes first; exit 1 otherwise (an
input that is absent, ../shared or the mnist ELF, is skipped saying why; with none present the gate is SKIP).
Writes build/fuzz/report.txt and report.json (--out): counts per format and class, and every run not clean with
the commands that reproduce it (this tool with --only, the simulator's command line, and make run).
"""
import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import resource
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import time

from flow import fuzz_mutants as fm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INPUTS = os.path.join(ROOT, 'flow', 'fuzz_inputs.tsv')
SDK = '../shared/upstream/max78000_sdk'
GATED = ('crash', 'hang', 'silent-pass', 'unclear')
CLASSES = ('clean-error', 'fail', 'pass', 'skip') + GATED
SEED_MAX = 2 ** 64 - 1
SKIP_EXIT = 77  # TB_EXIT_SKIP (tb/common/tb_api.h)


# ---- the formats: how each is run, mutated, and what it expects of its output --------------------------------
def stim_loadable(path, base):
    return ['+test=fw', f'+loadable={path}'] + ([f'+fw_golden={base["golden"]}'] if base.get('golden') else [])


FORMATS = {
    # acc, golden-only mode, binary, make run variable, plusargs of the mutant, expectation (None: none inside)
    'loadable': dict(acc='nvdla', golden_only=True, binary=True, make='LOADABLE', stim=stim_loadable,
                     fields=fm.loadable_fields, header=fm.loadable_header_len, expect=None),
    'cfg': dict(acc='nvdla', golden_only=True, binary=False, make='CFG',
                stim=lambda p, b: [f'+cfg={os.path.join(p, b["cfg"])}'], expect=lambda f, b: fm.cfg_expectation(f)),
    'ai8x': dict(acc='max78000', golden_only=True, binary=False, make='SDK', stim=lambda p, b: [f'+cfg={p}'],
                 expect=lambda f, b: fm.ai8x_expectation(f)),
    'pulpnnx': dict(acc='ne16', golden_only=False, binary=False, make='PULPNNX',
                    stim=lambda p, b: ['+test=pulpnnx', f'+pulpnnx={p}'], expect=None),
    'elf': dict(acc='max78000', golden_only=True, binary=True, make='FIRMWARE',
                stim=lambda p, b: ['+test=firmware', f'+firmware={p}', f'+fw_sdk={SDK}'],
                fields=fm.elf_fields, header=fm.elf_header_len, data_ranges=fm.elf_data_ranges,
                expect=lambda f, b: fm.elf_expectation(f, b['expect_at']) if b.get('expect_at') else None),
}


def read_inputs(path=INPUTS):
    out = []
    for n, line in enumerate(open(path), 1):
        if not line.strip() or line.startswith('#'):
            continue
        c = line.rstrip('\n').split('\t')
        if len(c) != 7 or c[0] not in FORMATS:
            sys.exit(f'ERROR: {path}:{n}: expected 7 tab-separated columns, a format of {", ".join(FORMATS)}')
        out.append(dict(format=c[0], input=c[1], mutate=c[2].split(','), nightly=int(c[3]), rtl=int(c[4]),
                        smoke=int(c[5]), rtl_smoke=int(c[6]), name=os.path.basename(c[1].rstrip('/'))))
    return out


# ---- mutants ------------------------------------------------------------------------------------------------
def mutant_files(base):
    """The mutated files of an input as {name: bytes} (a file input: its one file under the name 'fw.elf' for ELFs,
    else its base name)."""
    src = os.path.join(ROOT, base['input'])
    if os.path.isfile(src):
        return {base['fname']: open(src, 'rb').read()}
    return {f: open(os.path.join(src, f), 'rb').read() for f in base['mutate']}


def make_mutant(base, k, seed, outdir):
    """Writes mutant k of an input under outdir and returns its description. The k-th mutant's operator and file
    follow k (every operator on every file in turn); its offsets and values come from a random stream of
    (seed, input, k) alone, so that one mutant is re-derived without the others (--only)."""
    fmt = FORMATS[base['format']]
    rnd = random.Random(f'{seed}:{base["format"]}:{base["input"]}:{k}')
    ops = fm.BINARY_OPS if fmt['binary'] else fm.TEXT_OPS
    op = ops[k % len(ops)]
    files = base['files']
    fname = sorted(files)[(k // len(ops)) % len(files)]
    data = files[fname]
    if fmt['binary']:
        ranges = fmt['data_ranges'](data) if fmt.get('data_ranges') else None
        new, what = fm.binary_mutation(data, rnd, op, fmt['header'](data), fmt['fields'](data), ranges)
    else:
        new, what = fm.text_mutation(data, rnd, op)
    mid = f'{base["format"]}.{base["name"]}.{k:03d}'
    d = os.path.join(outdir, base['format'], mid)
    shutil.rmtree(d, ignore_errors=True)
    src = os.path.join(ROOT, base['input'])
    if os.path.isdir(src):
        path = os.path.join(d, base['name'])
        shutil.copytree(src, path)
        for top, dirs, names in os.walk(path):   # ../shared is read-only; the copy must be writable and removable
            os.chmod(top, 0o755)
            for n in names:
                os.chmod(os.path.join(top, n), 0o644)
        target = os.path.join(path, fname)
    else:
        os.makedirs(d)
        path = target = os.path.join(d, base['name'])
    with open(target, 'wb') as f:
        f.write(new)
    mutated = dict(files, **{fname: new})
    expect_ok, expect_note = True, ''
    if fmt['expect']:
        orig, mut = fmt['expect'](files, base), fmt['expect'](mutated, base)
        if mut != orig:
            expect_ok = fm.implied(orig, mut)
            expect_note = ('its expected result changed but still holds for the correct output' if expect_ok else
                           'its expected result changed: the correct output no longer satisfies it')
    return dict(id=mid, format=base['format'], input=base['input'], file=fname, op=op, mutation=what,
                path=os.path.relpath(path, ROOT), dir=os.path.relpath(d, ROOT), expect_ok=expect_ok,
                expect_note=expect_note)


# ---- running and judging ----------------------------------------------------------------------------------------
def sim_argv(sims, base, path, golden_only):
    fmt = FORMATS[base['format']]
    return ([sims[fmt['acc']]] + fmt['stim'](path, base) + ['+seed=1'] + (['+golden_only'] if golden_only else []))


def make_line(base, path, golden_only):
    fmt = FORMATS[base['format']]
    if base['format'] == 'cfg':
        path = os.path.join(path, base['cfg'])
    args = [a for a in fmt['stim'](path, base) if a.startswith('+fw_golden=')]
    return (f'make run ACC={fmt["acc"]} {fmt["make"]}={path} SEED=1' + (' GOLDEN_ONLY=1' if golden_only else '')
            + (f" ARGS='{' '.join(args)}'" if args else ''))


def limit(mem_bytes):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (mem_bytes, mem_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def execute(argv, timeout, mem_bytes):
    """(exit status, output, timed out, seconds): the run in its own process group, killed whole on timeout."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         start_new_session=True, preexec_fn=limit(mem_bytes))
    try:
        out, _ = p.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        timed_out = True
    return p.returncode, out.decode('utf-8', 'replace'), timed_out, time.monotonic() - t0


CRASH = re.compile(r'crashed with signal|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|'
                   r'Segmentation fault|terminate called|Assertion .* failed|std::bad_alloc', re.I)
OOM = re.compile(r'out of memory|cannot allocate|bad_alloc', re.I)
REPRO = re.compile(r'^repro: make run \S.*$', re.M)
SUMMARY = re.compile(r'^(PASS|FAIL|SKIP) \S* ?seed \d+: ', re.M)
CHECKED = re.compile(r'^checked: (\d+) output bytes compared, (\d+) expected values read$', re.M)
ERROR = re.compile(r'ERROR|MISMATCH|mismatch', re.M)
# Where in the file: a line (file:12), an offset, or a named part of the format.
WHERE = re.compile(r':\d+|\b(offset|line|word|entry|key|field|record|segment|section|byte|index|task|symbol|'
                   r'statement|value|address)\b', re.I)


def compared(out):
    """(output bytes compared, expected values read) of a run's output; None when it says neither."""
    m = CHECKED.search(out)
    if m:
        return int(m.group(1)), int(m.group(2))
    jobs = re.findall(r'^job .* bytes compared (\d+) ', out, re.M)
    return (sum(map(int, jobs)), 0) if jobs else None


def classify(rc, out, timed_out, names, expect_ok=True, expect_note='', timeout=0):
    """(class, reason) of one run. names: the strings an error must contain to name the mutated input (its path)."""
    if timed_out:
        return 'hang', f'no exit within {timeout:g} s'
    if rc is not None and rc < 0:
        return 'crash', f'killed by signal {-rc} ({signal.Signals(-rc).name})'
    m = CRASH.search(out)
    if m:
        return 'crash', out[max(0, out.rfind('\n', 0, m.start()) + 1):].split('\n', 1)[0].strip()
    for line in out.splitlines():
        if OOM.search(line) and not any(n in line for n in names):
            return 'crash', f'out of memory naming no input file: {line.strip()}'
    if rc == 0:
        c = compared(out)
        if not SUMMARY.search(out) or not re.search(r'^PASS ', out, re.M):
            return 'unclear', 'exit 0 without a PASS line'
        if not c or c == (0, 0):
            return 'silent-pass', 'passed but compared nothing (0 output bytes, 0 expected values)'
        if not expect_ok:
            return 'silent-pass', f'passed although {expect_note}'
        return 'pass', f'{c[0]} output bytes compared, {c[1]} expected values read'
    if rc == SKIP_EXIT:
        m = re.search(r'^SKIP .*$', out, re.M)
        return ('skip', m.group()) if m else ('unclear', f'exit {rc} (skip) without a SKIP line')
    errors = [l.strip() for l in out.splitlines() if ERROR.search(l) and not l.startswith('repro:')]
    if not REPRO.search(out):
        return 'unclear', f'exit {rc} without a repro line' + (f': {errors[0]}' if errors else '')
    if re.search(r'^FAIL ', out, re.M) and SUMMARY.search(out):
        if not errors:
            return 'unclear', f'failed (exit {rc}) without an error line'
        return 'fail', errors[0]
    naming = [l for l in errors if any(n in l for n in names)]
    if not naming:
        return 'unclear', f'refused (exit {rc}) naming no input file: {errors[0] if errors else "no error line"}'
    for l in naming:
        tail = l[min(l.find(n) for n in names if n in l):]
        if WHERE.search(tail):
            return 'clean-error', l
    return 'unclear', f'names the file but not where in it: {naming[0]}'


def judge(job):
    """Runs one mutant (or unmutated input) and classifies it: the report's row."""
    rc, out, timed_out, secs = execute(job['argv'], job['timeout'], job['mem'])
    names = [job['path'], os.path.abspath(os.path.join(ROOT, job['path']))]
    cls, why = classify(rc, out, timed_out, names, job.get('expect_ok', True), job.get('expect_note', ''),
                        job['timeout'])
    os.makedirs(os.path.join(ROOT, job['dir']), exist_ok=True)
    log = os.path.join(job['dir'], f'{job["run"]}.log')
    with open(os.path.join(ROOT, log), 'w') as f:
        f.write(' '.join(map(shlex.quote, job['argv'])) + '\n' + out)
    return dict(job, rc=rc, cls=cls, reason=why, seconds=round(secs, 3), log=log,
                compared=compared(out), argv=None, command=' '.join(map(shlex.quote, job['argv'])))


# ---- the campaign -----------------------------------------------------------------------------------------------
def prepare(base, sims):
    """Reads an unmutated input and its expectation; None and the reason when it or its simulator is absent."""
    fmt = FORMATS[base['format']]
    src = os.path.join(ROOT, base['input'])
    if not os.path.exists(src):
        return f'{base["input"]} is absent (../shared beside the checkout; the ELF: make fw-examples)'
    if not os.path.isfile(os.path.join(ROOT, sims[fmt['acc']])):
        return f'{sims[fmt["acc"]]} is not built (make build)'
    base['fname'] = 'fw.elf' if base['format'] == 'elf' else base['name']
    if base['format'] == 'cfg':
        base['cfg'] = next(f for f in base['mutate'] if f.endswith('.cfg'))
    base['files'] = mutant_files(base)
    if base['format'] == 'elf':
        base['expect_at'] = fm.elf_symbol_bytes(base['files']['fw.elf'], 'check_output')
        if not base['expect_at']:
            return f'{base["input"]}: no symbol check_output (its known answer) to judge mutants by'
    return None


def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog='python3 -m flow.fuzz', description=__doc__.split('\n')[0])
    ap.add_argument('--seed', default='1', help="0..2^64-1 or 'random' (drawn and printed); default 1")
    ap.add_argument('--smoke', action='store_true', help="make test's subset (fuzz_inputs.tsv column smoke)")
    ap.add_argument('--count', type=int, help='mutants per input instead of the table\'s (RTL runs: at most this)')
    ap.add_argument('--formats', help='comma-separated formats to fuzz (default all)')
    ap.add_argument('--only', help='comma-separated mutant ids to derive and run alone (a report\'s repro)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--timeout', type=float, default=60, help='seconds per golden-only run (default 60)')
    ap.add_argument('--rtl-timeout', type=float, default=300, help='seconds per run on our RTL (default 300)')
    ap.add_argument('--mem-gib', type=float, default=2, help='address-space limit per run in GiB (default 2)')
    ap.add_argument('--sim', action='append', default=[], metavar='ACC=PATH',
                    help='run PATH as the simulator of ACC (tests plant fake simulators with it)')
    ap.add_argument('--inputs', default=INPUTS, help='the table of inputs (default flow/fuzz_inputs.tsv)')
    ap.add_argument('--out', help='mutants and report (default build/fuzz; with --only build/fuzz-only, so that a '
                    'repro keeps the campaign\'s report)')
    a = ap.parse_args(argv)
    a.out = a.out or os.path.join('build', 'fuzz-only' if a.only else 'fuzz')
    return a


def plan(a, seed):
    sims = {acc: os.path.join('build', acc, 'sim') for acc in ('nvdla', 'ne16', 'max78000')}
    for s in a.sim:
        acc, _, path = s.partition('=')
        sims[acc] = path
    formats = set(a.formats.split(',')) if a.formats else set(FORMATS)
    only = set(a.only.split(',')) if a.only else None
    mem = int(a.mem_gib * 2 ** 30)
    outdir = os.path.join(ROOT, a.out)
    bases, skipped, jobs = [], [], []
    for base in read_inputs(a.inputs):
        if base['format'] not in formats:
            continue
        why = prepare(base, sims)
        if why:
            skipped.append(f'{base["format"]} {base["input"]}: {why}')
            continue
        fmt = FORMATS[base['format']]
        n = a.count if a.count is not None else base['smoke' if a.smoke else 'nightly']
        n_rtl = min(n, base['rtl_smoke' if a.smoke else 'rtl'])
        bases.append(base)
        rel_in = base['input']
        base_dir = os.path.relpath(os.path.join(outdir, base['format'], f'{base["format"]}.{base["name"]}.base'),
                                   ROOT)
        # the unmutated input first (also with --only): it must pass, or the lane cannot judge its mutants; on the
        # RTL only when mutants of it run there
        for go in ([True] if fmt['golden_only'] else []) + ([False] if n_rtl or not fmt['golden_only'] else []):
            jobs.append(dict(id=f'{base["format"]}.{base["name"]}.base', format=base['format'], input=rel_in,
                             base=True, path=rel_in, dir=base_dir, run='golden-only' if go else 'rtl',
                             mutation='none (the unmutated input)', file='', op='',
                             argv=sim_argv(sims, base, rel_in, go), make=make_line(base, rel_in, go),
                             timeout=a.timeout if go else a.rtl_timeout, mem=mem))
        for k in range(n):
            mid = f'{base["format"]}.{base["name"]}.{k:03d}'
            if only is not None and mid not in only:
                continue
            m = make_mutant(base, k, seed, outdir)
            runs = ([True] if fmt['golden_only'] else []) + ([False] if k < n_rtl or not fmt['golden_only'] else [])
            for go in runs:
                jobs.append(dict(m, base=False, run='golden-only' if go else 'rtl',
                                 argv=sim_argv(sims, base, m['path'], go), make=make_line(base, m['path'], go),
                                 timeout=a.timeout if go else a.rtl_timeout, mem=mem))
    return bases, skipped, jobs


def golden_of(rows, bases):
    """NVIDIA's golden file of each loadable, as its unmutated run found it beside the loadable (mutants, written
    elsewhere, are given it with +fw_golden=)."""
    for r in rows:
        if r['format'] == 'loadable' and r['base']:
            m = re.search(r'NVIDIA golden: (\S+)', open(os.path.join(ROOT, r['log'])).read())
            if m and m.group(1) != 'none':
                next(b for b in bases if b['input'] == r['input'])['golden'] = m.group(1)


def report(rows, skipped, seed, a, wall):
    counts = {}
    for r in rows:
        if not r['base']:
            c = counts.setdefault(r['format'], {k: 0 for k in CLASSES})
            c[r['cls']] += 1
    bad_base = [r for r in rows if r['base'] and r['cls'] != 'pass']
    bad = [r for r in rows if not r['base'] and r['cls'] in GATED]
    notable = [r for r in rows if not r['base'] and r['cls'] == 'skip']
    nmut = len({r['id'] for r in rows if not r['base']})
    regen = f'python3 -m flow.fuzz --seed {seed} --only'
    # nothing to run (every input absent, each said above): skipped, not passed; the lane cannot fail on it
    gate = 'SKIP' if not rows else 'PASS' if not bad and not bad_base else 'FAIL'
    nruns = sum(1 for r in rows if not r['base'])
    nrtl = sum(1 for r in rows if not r['base'] and r['run'] == 'rtl')
    lines = [f'fuzz lane, seed {seed}{" (smoke subset)" if a.smoke else ""}: {nmut} mutants, {nruns} runs ({nrtl}'
             f' on our RTL), {wall:.1f} s; memory limit {a.mem_gib:g} GiB, time limit {a.timeout:g} s golden-only, '
             f'{a.rtl_timeout:g} s on the RTL',
             '', f'{"format":10s}' + ''.join(f'{c:>12s}' for c in CLASSES) + f'{"runs":>8s}']
    for f in sorted(counts):
        lines.append(f'{f:10s}' + ''.join(f'{counts[f][c]:12d}' for c in CLASSES) + f'{sum(counts[f].values()):8d}')
    tot = {c: sum(counts[f][c] for f in counts) for c in CLASSES}
    lines.append(f'{"all":10s}' + ''.join(f'{tot[c]:12d}' for c in CLASSES) + f'{sum(tot.values()):8d}')
    for s in skipped:
        lines.append(f'skipped: {s}')
    for title, group in (('unmutated inputs that did not pass (their mutants cannot be judged)', bad_base),
                         ('runs that fail the gate (crash, hang, silent-pass, unclear)', bad),
                         ('skipped runs (not gated; the reason is the bench\'s)', notable)):
        if group:
            lines += ['', title + ':']
            for r in group:
                lines += [f'  {r["id"]} [{r["run"]}] {r["cls"].upper()}: {r["reason"]}',
                          f'      mutation: {r["file"]} {r["mutation"]}',
                          f'      repro: {regen} {r["id"]}' if not r['base'] else None,
                          f'      run:   {r["command"]}', f'      make:  {r["make"]}', f'      log:   {r["log"]}']
    lines += ['', f'gate (0 crash, 0 hang, 0 silent-pass, 0 unclear): {gate}']
    text = '\n'.join(l for l in lines if l is not None) + '\n'
    out = os.path.join(ROOT, a.out)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'report.txt'), 'w') as f:
        f.write(text)
    with open(os.path.join(out, 'report.json'), 'w') as f:
        json.dump(dict(seed=seed, smoke=a.smoke, mutants=nmut, counts=counts, totals=tot, gate=gate,
                       skipped=skipped, wall_s=round(wall, 1), mem_gib=a.mem_gib, timeout=a.timeout,
                       rtl_timeout=a.rtl_timeout, runs=rows), f, indent=1)
    return text, gate


def main(argv=None):
    a = parse_args(argv)
    if a.seed == 'random':
        seed = secrets.randbits(64)
    elif re.fullmatch(r'\d+', a.seed) and int(a.seed) <= SEED_MAX:
        seed = int(a.seed)
    else:
        print(f"ERROR: --seed {a.seed}: expected 0..2^64-1 or 'random'", file=sys.stderr)
        return 2
    print(f'fuzz: seed {seed}' + (' (drawn)' if a.seed == 'random' else '') + f'; mutants under {a.out}/', flush=True)
    t0 = time.monotonic()
    bases, skipped, jobs = plan(a, seed)
    rows = []
    with cf.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        first = [j for j in jobs if j['base']]   # the unmutated inputs (a loadable's golden file comes from its run)
        rows += list(ex.map(judge, first))
        golden_of(rows, bases)
        rest = []
        for j in jobs:
            if not j['base'] and j['format'] == 'loadable':
                b = next(b for b in bases if b['input'] == j['input'])
                j['argv'] = sim_argv({FORMATS['loadable']['acc']: j['argv'][0]}, b, j['path'], j['run'] != 'rtl')
                j['make'] = make_line(b, j['path'], j['run'] != 'rtl')
            if not j['base']:
                rest.append(j)
        rows += list(ex.map(judge, rest))
    text, gate = report(rows, skipped, seed, a, time.monotonic() - t0)
    print(text, end='')
    print(f'report: {os.path.join(a.out, "report.txt")}, {os.path.join(a.out, "report.json")}')
    return 1 if gate == 'FAIL' else 0


if __name__ == '__main__':
    sys.exit(main())
