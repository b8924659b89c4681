#!/usr/bin/env python3
"""The page of a regression, and the history of every night (issue 40).

    python3 -m flow.report --name <name> [--history FILE] [--nights N] [--append]     (make report NAME=<name>)

Reads build/regress/<name>/results.json (flow/regress.py), the functional-coverage bins under its cov/
(flow/fcov_report.py: analyse) and the history file, and writes build/regress/<name>/index.html: one
self-contained file (its style and script inline, its plots inline SVG drawn here, no network: a
Content-Security-Policy forbids every fetch), whose links are relative (logs/, waves/ of the same folder; lcov's
report under build/coverage/html/ when `make coverage` wrote one), so that it opens from file:// and from any web
server. The runner calls publish() at the end of every regression (local and Slurm launcher) with append=True:
one JSON line per regression is appended to the history (default build/regress/history.jsonl, HISTORY= or
--history elsewhere, e.g. on a share the nightly machine keeps): counts, bucket signatures, coverage per
accelerator, wall time, seed, revision, date. `make report` re-renders without appending.
The page shows the last N nights (--nights, default 14) of the regression's own name.
Exit status: 0; 2 no results.json or an unreadable one.
"""
import argparse
import datetime
import fcntl
import hashlib
import json
import os
import subprocess
import sys

from flow import dut_manifest, fcov_report
from flow import report_html

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_HISTORY = os.path.join('build', 'regress', 'history.jsonl')
NIGHTS = 14
shown_path = report_html.shown_path   # a path as reports say it: relative to the checkout when inside it
STATUSES = ('PASS', 'FAIL', 'SKIP', 'XFAIL', 'XPASS')
LCOV_INDEX = os.path.join('build', 'coverage', 'html', 'index.html')   # make coverage (flow/coverage.py)


class ReportError(Exception):
    pass


def history_path(arg=None):
    """--history, else $HISTORY, else build/regress/history.jsonl (relative paths: to the checkout)."""
    path = arg or os.environ.get('HISTORY') or DEFAULT_HISTORY
    return path if os.path.isabs(path) else os.path.join(ROOT, path)


def environment():
    """What ran: Verilator (the build's stamp build/verilator.version), the git revision, ../shared present.
    Recorded in results.json by the runner so that a later `make report` shows what the runs used."""
    vl = 'unknown (no build/verilator.version)'
    try:
        with open(os.path.join(ROOT, 'build', 'verilator.version')) as f:
            ver, _, path = f.read().strip().partition(' ')
        if ver.isdigit():
            rel = os.path.relpath(path, ROOT)
            vl = f"{int(ver) // 1000000}.{int(ver) // 1000 % 1000:03d} ({path if rel.startswith('..') else rel})"
    except OSError:
        pass
    def git(*args):
        p = subprocess.run(['git', *args], cwd=ROOT, capture_output=True, text=True)
        return p.stdout.strip() if p.returncode == 0 else ''
    rev = git('rev-parse', '--short=12', 'HEAD') or 'unknown (not a git checkout)'
    if git('status', '--porcelain', '--untracked-files=no'):
        rev += ' + uncommitted changes'
    shared = os.path.join(os.path.dirname(ROOT), 'shared')
    return {'verilator': vl, 'revision': rev,
            'shared': {'present': os.path.isdir(shared),
                       'upstream': sorted(n for n in os.listdir(os.path.join(shared, 'upstream'))
                                          if os.path.isdir(os.path.join(shared, 'upstream', n)))
                       if os.path.isdir(os.path.join(shared, 'upstream')) else []},
            'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')}


def duts(runs):
    """The DUTs the runs named: [{acc, dut, describe, source, ran}], ran = runs not skipped."""
    out = {}
    for r in runs:
        d = dut_manifest.get(r['acc'], r.get('dut'))
        e = out.setdefault((r['acc'], d.name), {'acc': r['acc'], 'dut': d.name, 'describe': d.describe,
                                                'source': d.source or 'this repository', 'ran': 0, 'runs': 0})
        e['runs'] += 1
        e['ran'] += r['status'] != 'SKIP'
    return [out[k] for k in sorted(out)]


def coverage(outdir):
    """Functional coverage of each accelerator whose bins the regression wrote (cov/<acc>_<list>/)."""
    cov_dir = os.path.join(outdir, 'cov')
    names = sorted(os.listdir(cov_dir)) if os.path.isdir(cov_dir) else []
    out = {}
    for acc in fcov_report.accelerators():
        dirs = [os.path.join(cov_dir, n) for n in names if n.startswith(acc + '_')]
        if not dirs:
            continue
        try:
            a = fcov_report.analyse(acc, dirs)
        except LookupError:
            continue   # the folder exists, no run wrote a bin (every run of it failed or was skipped)
        except (OSError, ValueError) as ex:
            out[acc] = {'error': str(ex)}
            continue
        a['waiver_file'] = os.path.relpath(a['waiver_file'], ROOT)
        a['pct'] = round(100.0 * (a['hit'] + a['waived']) / max(a['total'], 1), 2)
        out[acc] = a
    return out


def counts(runs):
    c = {s: sum(r['status'] == s for r in runs) for s in STATUSES}
    c['runs'] = len(runs)
    return c


def results_key(path):
    """The identity of a regression's results (its history record says which results it came from)."""
    with open(path, 'rb') as f:
        return hashlib.sha1(f.read()).hexdigest()[:16]


def record(res, key, cov, env):
    """The regression's line in the history."""
    return {'name': res['name'], 'key': key, 'date': env['date'], 'revision': env['revision'],
            'list': res.get('list'), 'base_seed': res['base_seed'], 'seed_drawn': res.get('seed_drawn', False),
            'wall_s': round(res['wall_s'], 2), 'counts': counts(res['runs']),
            'buckets': [{'signature': b['signature'], 'count': b['count']} for b in res['buckets']],
            'coverage': {acc: {k: a[k] for k in ('hit', 'waived', 'total', 'pct')} for acc, a in cov.items()
                         if 'error' not in a}}


def read_history(path, name):
    """The records of regression `name`, oldest first, and warnings (file:line) for lines that do not parse
    (e.g. the truncated last line of a regression killed while appending): skipped, said on the page."""
    recs, warnings = [], []
    if not os.path.exists(path):
        return recs, warnings
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                ok = isinstance(rec, dict) and 'counts' in rec and 'name' in rec
            except ValueError:
                ok = False
            if not ok:
                warnings.append(f"{path}:{lineno}: not a history record, skipped")
            elif rec['name'] == name:
                recs.append(rec)
    return recs, warnings


def nights(recs, rec, nmax):
    """The nights to show: this regression's history up to its own record (`rec`; appended when it is not in
    the file, marked provisional), the last nmax of them, each numbered by its place in the whole history."""
    upto = next((i for i, r in enumerate(recs) if r.get('key') == rec['key']), None)
    provisional = upto is None
    chain = recs + [rec] if provisional else recs[:upto + 1]
    numbered = [dict(r, night=i) for i, r in enumerate(chain, 1)]
    return numbered[-nmax:], provisional


def bucket_history(shown):
    """Each signature of the shown nights: its first and last night (numbers), and its state on the last night:
    'new' (absent the night before), 'open' (there both nights), 'fixed' (there the night before, not now)."""
    out = {}
    for n in shown:
        for b in n['buckets']:
            e = out.setdefault(b['signature'], {'signature': b['signature'], 'first': n['night'], 'nights': []})
            e['last'] = n['night']
            e['nights'].append(n['night'])
    cur = {b['signature'] for b in shown[-1]['buckets']}
    prev = {b['signature'] for b in shown[-2]['buckets']} if len(shown) > 1 else set()
    for sig, e in out.items():
        e['state'] = ('new' if sig not in prev else 'open') if sig in cur else ('fixed' if sig in prev else 'gone')
    return sorted(out.values(), key=lambda e: (-e['last'], e['first'], e['signature']))


def append_line(path, line):
    """One line appended in one write under an exclusive lock: regressions of other names (side by side in one
    checkout, or nightly machines sharing the file) never interleave their records."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, line.encode())
    finally:
        os.close(fd)


def lcov_href(outdir):
    path = os.path.join(ROOT, LCOV_INDEX)
    return os.path.relpath(path, outdir) if os.path.exists(path) else None


def publish(outdir, history=None, append=False, nmax=NIGHTS):
    """Write <outdir>/index.html (and with append, the regression's line in the history first). Returns the
    page's path. ReportError: no readable results.json."""
    rpath = os.path.join(outdir, 'results.json')
    try:
        with open(rpath) as f:
            res = json.load(f)
    except (OSError, ValueError) as ex:
        raise ReportError(f"{os.path.relpath(rpath, ROOT)}: {ex} (run the regression first)") from None
    env = res.get('env') or dict(environment(), note='recorded when the page was written, not by the runner')
    cov = coverage(outdir)
    rec = record(res, results_key(rpath), cov, env)
    hpath = history_path(history)
    recs, warnings = read_history(hpath, res['name'])
    if append and not any(r.get('key') == rec['key'] for r in recs):
        append_line(hpath, json.dumps(rec, sort_keys=True) + '\n')
        recs.append(rec)
    shown, provisional = nights(recs, rec, nmax)
    page = report_html.page({
        'res': res, 'env': env, 'counts': rec['counts'], 'duts': duts(res['runs']), 'coverage': cov,
        'lcov': lcov_href(outdir), 'nights': shown, 'provisional': provisional, 'buckets_hist': bucket_history(shown),
        'history_file': hpath, 'history_warnings': warnings,
        'href': lambda p: os.path.relpath(os.path.join(ROOT, p), outdir) if p else None})
    out = os.path.join(outdir, 'index.html')
    with open(out + '.tmp', 'w') as f:
        f.write(page)
    os.replace(out + '.tmp', out)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog='python3 -m flow.report', description=__doc__.split('\n')[0])
    ap.add_argument('--name', required=True, help='the regression (build/regress/<name>/)')
    ap.add_argument('--history', help=f'the history file (default $HISTORY, else {DEFAULT_HISTORY})')
    ap.add_argument('--nights', type=int, default=NIGHTS, help=f'nights of history shown (default {NIGHTS})')
    ap.add_argument('--append', action='store_true', help="append the regression's record to the history "
                    "(the runner does; a second append of the same results is a no-op)")
    a = ap.parse_args(argv)
    try:
        out = publish(os.path.join(ROOT, 'build', 'regress', a.name), a.history, a.append, max(a.nights, 1))
    except ReportError as ex:
        print(f"ERROR: {ex}", file=sys.stderr)
        return 2
    print(f"page: {os.path.relpath(out, ROOT)}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
