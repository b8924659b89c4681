#!/usr/bin/env python3
"""Mutation testing of our RTL: `make mutate ACC=<acc> [N=20] [SEED=1] [LIST=...] [TIMEOUT=...] [ONLY=<id>]`.

Lists the candidate mutants of rtl/<acc>/ (the files our DUT is built from; flow/mutants.py says which
kinds), samples N of them with SEED (stratified by kind), and for each one:
  1. writes the mutated file to build/mutate/<acc>/src/ (rtl/ is never touched) and re-verilates the
     accelerator with it (Makefile, VARIANT_RULES); a mutant that Verilator or the C++ compiler rejects is
     STILLBORN, not killed;
  2. a mutant whose verilated model is byte-identical to the unmutated one is IDENTICAL (equivalent by
     construction: Verilator optimised the change away) and is not run;
  3. runs the list's runs of ACC on our DUT (default: the nightly's), the cheapest and the best killers
     first, and stops at the first failure: KILLED (a run failed, or hit TIMEOUT); SURVIVED otherwise.
Survivors that cannot change behaviour are recorded with the reason in flow/mutation_equivalents.tsv and
scored as equivalent. Score = killed / (killed + survivors not recorded as equivalent).
The unmutated build must pass the list first: a list that fails without a mutant scores nothing.
Writes build/mutate/<acc>/report.json and report.txt; exit 1 when the score is below --require.
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

from flow import mutants as mutlib
from flow import regress

ROOT = regress.ROOT
EQUIV = os.path.join(ROOT, 'flow', 'mutation_equivalents.tsv')


class Bench:
    """One accelerator's mutation campaign: its scratch build folder and the runs that judge mutants."""

    def __init__(self, acc, runs, jobs, timeout):
        self.acc, self.runs, self.jobs, self.timeout = acc, runs, jobs, timeout
        self.dir = os.path.join(ROOT, 'build', 'mutate', acc)
        self.kills = {}          # run id -> mutants it killed (moves good killers to the front)
        self.cost = {}           # run id -> wall seconds on the unmutated build
        self.outdir = os.path.join(self.dir, 'runs')
        os.makedirs(os.path.join(self.outdir, 'logs'), exist_ok=True)

    def make(self, target, mfile, copy):
        cmd = ['make', '--no-print-directory', f'MUT_ACC={self.acc}', f'MUT_FILE={mfile}',
               f'MUT_COPY={os.path.relpath(copy, ROOT)}', os.path.relpath(os.path.join(self.dir, target), ROOT)]
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def model_digest(self, mfile):
        """Hash of the verilated C++ (what the compiler sees): equal digests mean equal behaviour. The scratch
        copy's path is read as the original's, so that every file's unmutated copy hashes alike."""
        copy, orig = os.path.join(self.dir, 'src', mfile).encode(), os.path.join(ROOT, mfile).encode()
        h = hashlib.sha256()
        obj = os.path.join(self.dir, 'obj')
        for name in sorted(os.listdir(obj)):
            if name.endswith(('.cpp', '.h')):
                with open(os.path.join(obj, name), 'rb') as f:
                    h.update(name.encode() + b'\0' + f.read().replace(copy, orig))
        return h.hexdigest()

    def build(self, mfile, text):
        """Verilate and compile ACC with `text` as mfile. Returns (status, digest, message)."""
        copy = os.path.join(self.dir, 'src', mfile)
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        with open(copy, 'w') as f:
            f.write(text)
        rc, out = self.make(f'obj/Vtb_{self.acc}.mk', mfile, copy)
        if rc:
            return 'STILLBORN', None, first_error(out)
        digest = self.model_digest(mfile)
        return 'BUILT', digest, ''

    def compile(self, mfile):
        copy = os.path.join(self.dir, 'src', mfile)
        rc, out = self.make('sim', mfile, copy)
        return (None if rc == 0 else first_error(out))

    def order(self):
        return sorted(self.runs, key=lambda r: (-self.kills.get(regress.run_id(r), 0),
                                                self.cost.get(regress.run_id(r), 0.0)))

    def run_list(self, stop_at_first_fail):
        """Run the list on build/mutate/<acc>/sim. Returns (results, first failing result or None)."""
        regress.BUILD_ROOT = os.path.join('build', 'mutate')
        regress.RUN_TIMEOUT_S = self.timeout
        failed = None
        results = []
        pool = cf.ThreadPoolExecutor(max_workers=self.jobs)
        try:
            futs = [pool.submit(regress.execute, r, self.outdir) for r in self.order()]
            for fut in cf.as_completed(futs):
                if fut.cancelled():
                    continue
                res = fut.result()
                results.append(res)
                if res['status'] not in ('PASS', 'SKIP') and failed is None:
                    failed = res
                    if stop_at_first_fail:
                        for f in futs:
                            f.cancel()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return results, failed


def sample(cands, n, seed):
    """n candidates, stratified by kind: each pick takes a kind uniformly among those left, then one of its
    mutants, so that the many literals (register addresses, widths) do not crowd out the operators."""
    rng = random.Random(seed)
    by_kind = {}
    for m in cands:
        by_kind.setdefault(m.kind, []).append(m)
    out = []
    while len(out) < n and by_kind:
        kind = rng.choice(sorted(by_kind))
        pool = by_kind[kind]
        out.append(pool.pop(rng.randrange(len(pool))))
        if not pool:
            del by_kind[kind]
    return out


def changed_lines(rev, files):
    """{file: set of line numbers} added or changed since git revision rev (git diff -U0)."""
    p = subprocess.run(['git', 'diff', '-U0', rev, '--', *files], cwd=ROOT, capture_output=True, text=True)
    if p.returncode:
        raise ValueError(f"git diff {rev} failed: {p.stderr.strip()[:200]}")
    out, cur = {}, None
    for line in p.stdout.splitlines():
        if line.startswith('+++ '):
            cur = line[6:] if line.startswith('+++ b/') else None
        elif line.startswith('@@') and cur:
            m = re.match(r'@@ -\S+ \+(\d+)(?:,(\d+))? @@', line)
            start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
            out.setdefault(cur, set()).update(range(start, start + count))
    return out


def first_error(out):
    lines = [l for l in out.splitlines() if '%Error' in l or 'error:' in l or 'ERROR' in l]
    return (lines[0] if lines else (out.strip().splitlines() or ['(no output)'])[-1]).strip()[:200]


def read_equivalents():
    """(acc, file, before, after) -> reason; format: acc TAB file TAB before TAB after TAB reason."""
    out = {}
    if not os.path.exists(EQUIV):
        return out
    with open(EQUIV) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            cells = line.split('\t')
            if len(cells) != 5 or not cells[4].strip():
                sys.exit(f"{os.path.relpath(EQUIV, ROOT)}:{n}: expected acc TAB file TAB before TAB after TAB reason "
                         f"(a reason is required)")
            out[tuple(c.strip() for c in cells[:4])] = f"{cells[4].strip()} ({os.path.relpath(EQUIV, ROOT)}:{n})"
    return out


def select_runs(list_path, acc, seed):
    runs = regress.expand(regress.parse_list(list_path), seed)
    keep = [r for r in runs if r['acc'] == acc and not r.get('dut') and not r['skip']
            and '+golden_only' not in r['args']]
    # Functional-coverage bins of mutants would pollute the nightly's: runs write none here.
    for r in keep:
        r['args'] = [a for a in r['args'] if not a.startswith('+cov=')]
    return keep


def main():
    ap = argparse.ArgumentParser(prog='python3 -m flow.mutate',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--acc', required=True)
    ap.add_argument('-n', type=int, default=20, help='mutants to sample (default 20)')
    ap.add_argument('--seed', type=int, default=1, help='sampling seed (default 1); also the list base seed')
    ap.add_argument('--list', default='tests/lists/nightly.list', help="the list whose runs of ACC judge mutants")
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--timeout', type=float, default=0, help='seconds per run (default: 10x the slowest '
                    'unmutated run, at least 60)')
    ap.add_argument('--only', help='run this one mutant (its id as the report prints it)')
    ap.add_argument('--candidates', action='store_true', help='list the candidate mutants and stop')
    ap.add_argument('--require', type=float, default=0.0, help='exit 1 below this score (%%)')
    ap.add_argument('--since', metavar='REV', help='sample only mutants of lines added or changed since git '
                    'revision REV (a change\'s own mutants)')
    a = ap.parse_args()

    files = mutlib.dut_files(a.acc)
    if not files:
        print(f"ERROR: no RTL of {a.acc} under rtl/{a.acc}/ in its DUT's file list (ACC is one of "
              f"{', '.join(sorted(d for d in os.listdir(os.path.join(ROOT, 'rtl')) if d != 'common'))})",
              file=sys.stderr)
        return 2
    cands = [m for f in files for m in mutlib.candidates(f)]
    if a.since:
        try:
            changed = changed_lines(a.since, files)
        except ValueError as ex:
            print(f"ERROR: --since {a.since}: {ex}", file=sys.stderr)
            return 2
        cands = [m for m in cands if m.line in changed.get(m.file, ())]
        if not cands:
            print(f"ERROR: no candidate mutant on the lines of rtl/{a.acc} changed since {a.since}", file=sys.stderr)
            return 2
    if a.candidates:
        for m in cands:
            print(f"{m.id}  {m.before} -> {m.after}")
        print(f"{len(cands)} candidates in {len(files)} files")
        return 0
    if a.only:
        chosen = [m for m in cands if m.id == a.only]
        if not chosen:
            print(f"ERROR: no candidate mutant {a.only} (list them: python3 -m flow.mutate --acc {a.acc} --candidates)",
                  file=sys.stderr)
            return 2
    else:
        chosen = sample(cands, a.n, a.seed)
    try:
        runs = select_runs(a.list, a.acc, a.seed)
    except (regress.ListError, OSError) as ex:
        print(f"ERROR: {ex}", file=sys.stderr)
        return 2
    if not runs:
        print(f"ERROR: {a.list} has no runs of {a.acc} on our DUT", file=sys.stderr)
        return 2
    equiv = read_equivalents()
    bench = Bench(a.acc, runs, a.jobs, a.timeout or 600)
    print(f"mutate {a.acc}: {len(chosen)} of {len(cands)} candidate mutants (seed {a.seed}); judged by the "
          f"{len(runs)} runs of {a.acc} on our DUT in {a.list}, {a.jobs} at a time", flush=True)

    # The unmutated build, through the same path as the mutants, must pass the whole list.
    t0 = time.monotonic()
    base_file = files[0]
    with open(os.path.join(ROOT, base_file)) as f:
        status, base_digest, msg = bench.build(base_file, f.read())
    err = msg if status != 'BUILT' else bench.compile(base_file)
    if err:
        print(f"ERROR: the unmutated {a.acc} does not build: {err}", file=sys.stderr)
        return 2
    results, failed = bench.run_list(stop_at_first_fail=False)
    if failed:
        print(f"ERROR: the list fails without any mutant ({failed['id']}: {failed['reason'][:200]}); "
              f"repro: {failed['repro']}", file=sys.stderr)
        return 2
    for res in results:
        bench.cost[res['id']] = res['wall_s']
    slowest = max(bench.cost.values())
    bench.timeout = a.timeout or max(60.0, 10 * slowest)
    print(f"unmutated: {len(results)} runs passed in {time.monotonic() - t0:.0f} s (slowest run {slowest:.1f} s; "
          f"timeout per run {bench.timeout:.0f} s)", flush=True)

    report = []
    for n, m in enumerate(chosen, 1):
        t1 = time.monotonic()
        entry = {'id': m.id, 'file': m.file, 'line': m.line, 'kind': m.kind, 'before': m.before, 'after': m.after}
        status, digest, msg = bench.build(m.file, m.text)
        if status == 'BUILT' and digest == base_digest:
            status, msg = 'IDENTICAL', 'Verilator generated the unmutated model'
        elif status == 'BUILT':
            err = bench.compile(m.file)
            if err:
                status, msg = 'STILLBORN', err
            else:
                _, failed = bench.run_list(stop_at_first_fail=True)
                if failed:
                    status = 'KILLED'
                    bench.kills[failed['id']] = bench.kills.get(failed['id'], 0) + 1
                    msg = f"by {failed['id']}: {failed['reason'][:150]}"
                    entry['repro'] = failed['repro']
                else:
                    reason = equiv.get((a.acc, m.file, m.before.strip(), m.after.strip()))
                    status, msg = ('EQUIVALENT', reason) if reason else ('SURVIVED', 'no run of the list failed')
        entry.update(status=status, detail=msg, wall_s=round(time.monotonic() - t1, 1))
        report.append(entry)
        print(f"[{n:3}/{len(chosen)}] {status:10} {m.id:48} {m.before.strip()[:50]} -> {m.after.strip()[:50]}  "
              f"({msg[:110]}) {entry['wall_s']:.0f} s", flush=True)

    # Restore the scratch build to the unmutated RTL, so that the folder never holds a mutant's simulator.
    shutil.rmtree(os.path.join(bench.dir, 'src'), ignore_errors=True)
    for f in ('sim', os.path.join('obj', 'Vsim')):
        if os.path.exists(os.path.join(bench.dir, f)):
            os.unlink(os.path.join(bench.dir, f))

    count = {s: sum(e['status'] == s for e in report)
             for s in ('KILLED', 'SURVIVED', 'EQUIVALENT', 'IDENTICAL', 'STILLBORN')}
    scored = count['KILLED'] + count['SURVIVED']
    score = 100.0 * count['KILLED'] / scored if scored else 100.0
    lines = [f"mutate {a.acc}: seed {a.seed}, {len(report)} mutants of {len(cands)} candidates, list {a.list} "
             f"({len(runs)} runs)",
             f"killed {count['KILLED']}, survived {count['SURVIVED']}, equivalent {count['EQUIVALENT']} "
             f"(recorded) + {count['IDENTICAL']} (identical model), stillborn {count['STILLBORN']}",
             f"score: killed / (killed + survivors not equivalent) = {count['KILLED']}/{scored} = {score:.1f} %"]
    for e in report:
        if e['status'] in ('SURVIVED', 'EQUIVALENT'):
            tag = 'survivor' if e['status'] == 'SURVIVED' else f"equivalent: {e['detail']}"
            lines.append(f"  {e['file']}:{e['line']}  {e['before'].strip()}  ->  {e['after'].strip()}   [{tag}]")
    lines.append(f"one mutant again: make mutate ACC={a.acc} SEED={a.seed} LIST={a.list} ONLY=<id>")
    os.makedirs(bench.dir, exist_ok=True)
    with open(os.path.join(bench.dir, 'report.json'), 'w') as f:
        json.dump({'acc': a.acc, 'seed': a.seed, 'list': a.list, 'candidates': len(cands), 'counts': count,
                   'score': score, 'mutants': report}, f, indent=1)
    with open(os.path.join(bench.dir, 'report.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\n' + '\n'.join(lines))
    print(f"report: {os.path.relpath(bench.dir, ROOT)}/report.txt, report.json")
    return 1 if a.require and score < a.require else 0


if __name__ == '__main__':
    sys.exit(main())
