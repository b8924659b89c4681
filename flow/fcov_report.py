"""Merge the functional-coverage files of runs (+cov=<dir>/, tb/common/fcov.c, tb/ne16/ne16_cov.c), apply the
accelerator's coverage tables, report the holes; with --require-all, the gate of the nightly.

usage: python3 -m flow.fcov_report <acc> [--require-all] [--holes N] [--json] <dir-or-file>...
  directories are searched recursively for *.cov files.

Coverage files: '#' comments, then "<cross> <bin> <count>" for every allowed bin (only passing runs write).

Each accelerator's tables, both optional, tab-separated, '#' lines are comments:
  tb/<acc>/<acc>_cov_waivers.tsv   <cross> <bin> <reason>: a bin no nightly job can hit, and why. The report
      then has a `waived` column. A reason starting "OPEN:" marks a reachable feature no generator builds yet: it
      is listed separately in every report, so it stays visible until a test covers it. A whole cross may be
      waived with bin '*' and a reason starting "NEEDS-DUT:": it is sampled only by runs of a DUT with some
      capability (say which in the reason). While no bin of it is hit (no such DUT ran: its lane was skipped) it
      is reported as NOT RUN with that reason, not gated; once any bin is hit it is gated like any other.
      A waiver must name an existing bin and give a reason.
  tb/<acc>/<acc>_cov_required.tsv  <cross> <bins> <why>: a cross the gate requires with exactly that many allowed
      bins, so that a run by a simulator built before the cross existed, or a table that silently lost bins,
      fails instead of passing on fewer bins.
Exit status: 0; 1 with --require-all and an un-waived hole, a bad waiver or a required cross missing or of
another size; 2 no input, a malformed file or an unknown accelerator.
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def table_path(root, acc, kind):
    return os.path.join(root, 'tb', acc, f'{acc}_cov_{kind}.tsv')


def cov_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for n in sorted(names):
                    if n.endswith('.cov'):
                        yield os.path.join(root, n)
        elif os.path.exists(p):
            yield p
        else:
            raise FileNotFoundError(p)


def merge(files):
    crosses = {}   # cross -> {bin: count}, in first-seen order
    for path in files:
        with open(path) as f:
            for lineno, raw in enumerate(f, 1):
                line = raw.strip()
                if not line or line.startswith('#'):
                    continue
                tok = line.split()
                if len(tok) != 3 or not tok[2].isdigit():
                    raise ValueError(f"{path}:{lineno}: expected '<cross> <bin> <count>', saw '{line}'")
                bins = crosses.setdefault(tok[0], {})
                bins[tok[1]] = bins.get(tok[1], 0) + int(tok[2])
    return crosses


def read_tsv(path, fields):
    """The rows of a table (None when it does not exist): (the three fields, 'path:line')."""
    if not os.path.exists(path):
        return None
    rows = []
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            tok = [t.strip() for t in line.split('\t', 2)]
            where = f"{path}:{lineno}"
            if len(tok) < 3 or not all(tok):
                raise ValueError(f"{where}: expected '{fields}' separated by tabs, saw '{line}'")
            rows.append((tok, where))
    return rows


def read_waivers(path):
    """(cross, bin) -> (reason, where); None when the accelerator has no waivers table."""
    rows = read_tsv(path, '<cross> <bin> <reason>')
    return None if rows is None else {(t[0], t[1]): (t[2], where) for t, where in rows}


def read_required(path):
    """cross -> number of allowed bins (empty when the accelerator has no such table)."""
    required = {}
    for t, where in read_tsv(path, '<cross> <bins> <why>') or []:
        if not t[1].isdigit():
            raise ValueError(f"{where}: the number of bins is not a number: '{t[1]}'")
        required[t[0]] = int(t[1])
    return required


def analyse(acc, paths, root=ROOT):
    """The coverage of an accelerator as data: {acc, files, crosses: [{name, hit, waived, total, holes, not_run}],
    hit, waived, total, holes: {cross: [bins]}, not_run: {cross: reason}, waivers: [{cross, bin, reason}],
    open: [...], waived_hit: [...], bad: [...], has_waivers, waiver_file}. Raises FileNotFoundError (a path
    that does not exist), LookupError (no .cov files) or ValueError (a malformed file or table)."""
    files = list(cov_files(paths))
    if not files:
        raise LookupError(f"no .cov files under {' '.join(paths)}")
    waiver_file = table_path(root, acc, 'waivers')
    crosses = merge(files)
    waivers = read_waivers(waiver_file)
    required = read_required(table_path(root, acc, 'required'))
    # An accelerator without a waivers table has nothing waived: no `waived` column, holes are plain holes.
    has_waivers = waivers is not None
    waivers = waivers or {}
    bad = []
    not_run = {}   # cross -> reason, for NEEDS-DUT cross waivers of crosses nothing hit
    for (cross, b), (reason, where) in waivers.items():
        if b == '*':
            if cross not in crosses:
                bad.append(f"{where}: waiver names no cross of the coverage table: {cross}")
            elif not reason.startswith('NEEDS-DUT:'):
                bad.append(f"{where}: a whole-cross waiver ('*') must give a NEEDS-DUT: reason")
            elif not any(crosses[cross].values()):
                not_run[cross] = reason[len('NEEDS-DUT:'):].strip()
        elif b not in crosses.get(cross, {}):
            bad.append(f"{where}: waiver names no bin of the coverage table: {cross} {b}")
    rows, holes, waived_hit = [], {}, []
    total = hit = nwaived = 0
    for name, bins in crosses.items():
        if name in not_run:
            rows.append({'name': name, 'hit': 0, 'waived': 0, 'total': len(bins), 'holes': [],
                         'not_run': not_run[name]})
            continue
        h = sum(1 for c in bins.values() if c > 0)
        wv = sum(1 for b, c in bins.items() if c == 0 and (name, b) in waivers)
        missing = [b for b, c in bins.items() if c == 0 and (name, b) not in waivers]
        rows.append({'name': name, 'hit': h, 'waived': wv, 'total': len(bins), 'holes': missing, 'not_run': None})
        total += len(bins)
        hit += h
        nwaived += wv
        if missing:
            holes[name] = missing
        waived_hit += [f"{name} {b}" for b, c in bins.items() if c > 0 and (name, b) in waivers]
    opened = [f"{c} {b}: {r[len('OPEN:'):].strip()}" for (c, b), (r, _) in waivers.items()
              if r.startswith('OPEN:') and crosses.get(c, {}).get(b, 1) == 0]
    for name, n in required.items():
        if name not in crosses:
            bad.append(f"required cross {name} is missing from the coverage files (simulator too old?)")
        elif len(crosses[name]) != n:
            bad.append(f"cross {name} has {len(crosses[name])} bins, the spec allows {n}")
    return {'acc': acc, 'files': len(files), 'crosses': rows, 'hit': hit, 'waived': nwaived, 'total': total,
            'holes': holes, 'not_run': not_run, 'open': opened, 'waived_hit': waived_hit, 'bad': bad,
            'waivers': [{'cross': c, 'bin': b, 'reason': r} for (c, b), (r, _) in waivers.items()],
            'has_waivers': has_waivers, 'waiver_file': waiver_file}


def report(acc, paths, require_all=False, max_holes=20, root=ROOT):
    tag = f"{acc}_coverage"
    try:
        a = analyse(acc, paths, root)
    except FileNotFoundError as e:
        print(f"{tag}: {e}: no such file or directory", file=sys.stderr)
        return 2
    except (LookupError, ValueError) as e:
        print(f"{tag}: {e}", file=sys.stderr)
        return 2
    has_waivers, holes, not_run = a['has_waivers'], a['holes'], a['not_run']
    w = max([36 if has_waivers else 34] + [len(c['name']) for c in a['crosses']])
    waived_col = (lambda v: f" {v:>6}") if has_waivers else (lambda v: '')
    print(f"{acc.upper()} functional coverage from {a['files']} run(s)")
    print(f"{'cross':<{w}} {'hit':>5}{waived_col('waived')} {'total':>5}  {'%':>6}")
    for c in a['crosses']:
        if c['not_run'] is not None:
            print(f"{c['name']:<{w}} {'NOT RUN':>19}  (not gated)")
            continue
        print(f"{c['name']:<{w}} {c['hit']:>5}{waived_col(c['waived'])} {c['total']:>5}  "
              f"{100.0 * (c['hit'] + c['waived']) / c['total']:>5.1f}%")
    print(f"{'TOTAL':<{w}} {a['hit']:>5}{waived_col(a['waived'])} {a['total']:>5}  "
          f"{100.0 * (a['hit'] + a['waived']) / max(a['total'], 1):>5.1f}%")
    not_waived = ' (not waived)' if has_waivers else ''
    if holes:
        print(f"holes{not_waived}:")
        for name, missing in holes.items():
            shown = missing[:max_holes]
            more = f" ... and {len(missing) - len(shown)} more" if len(missing) > len(shown) else ''
            print(f"  {name}: {' '.join(shown)}{more}")
    else:
        print(f"holes: none{not_waived}")
    if not_run:
        reasons = sorted(set(not_run.values()))
        print(f"not run (no DUT that samples them ran, not gated): {len(not_run)} cross(es): " + '; '.join(reasons))
    if a['open']:
        print(f"open gaps (waived, not yet generated): {len(a['open'])}")
        for o in a['open']:
            print(f"  {o}")
    for b in a['waived_hit']:
        print(f"{tag}: note: waived bin was hit (the waiver may be stale): {b}")
    for msg in a['bad']:
        print(f"{tag}: {msg}", file=sys.stderr)
    if require_all and (holes or a['bad']):
        if holes:
            n = sum(len(m) for m in holes.values())
            if has_waivers:
                print(f"{tag}: {n} bin(s) not hit and not waived ({a['waiver_file']})", file=sys.stderr)
            else:
                print(f"{tag}: {n} required bin(s) not hit", file=sys.stderr)
        return 1
    return 0


def accelerators(root=ROOT):
    """The accelerators of the tree: those with a testbench top tb/<acc>/tb_<acc>.sv (as the Makefile's ACCS)."""
    tb = os.path.join(root, 'tb')
    return sorted(a for a in os.listdir(tb) if os.path.exists(os.path.join(tb, a, f'tb_{a}.sv')))


def main(argv=None):
    ap = argparse.ArgumentParser(prog='python3 -m flow.fcov_report', description=__doc__.split('\n')[0])
    ap.add_argument('acc', help='the accelerator (tb/<acc>/)')
    ap.add_argument('paths', nargs='+', help='coverage files or directories (searched for *.cov)')
    ap.add_argument('--require-all', action='store_true',
                    help='exit 1 on any bin neither hit nor waived, or a required cross missing or of another '
                         'size (the nightly gate)')
    ap.add_argument('--holes', type=int, default=20, help='list at most N holes per cross (default 20)')
    ap.add_argument('--json', action='store_true', help='print the analysis as JSON instead (exit 0, or 2 on '
                    'bad input): what flow/report.py shows')
    a = ap.parse_args(argv)
    accs = accelerators()
    if a.acc not in accs:
        print(f"fcov_report: unknown accelerator '{a.acc}' (known: {', '.join(accs)})", file=sys.stderr)
        return 2
    if a.json:
        try:
            print(json.dumps(analyse(a.acc, a.paths), indent=1))
        except (OSError, LookupError, ValueError) as e:
            print(f"{a.acc}_coverage: {e}", file=sys.stderr)
            return 2
        return 0
    return report(a.acc, a.paths, a.require_all, a.holes)


if __name__ == '__main__':
    sys.exit(main())
