#!/usr/bin/env python3
"""Merge functional-coverage files written by tb/common/fcov.c (+cov=<dir>/), apply waivers, report holes.

A waiver whose reason starts with "OPEN:" marks a reachable feature no generator builds yet: it is listed
separately in every report, so it stays visible until a test covers it.
Used by the per-accelerator tools tb/<acc>/<acc>_coverage.py (which make regress / make test run):
    report(acc, paths, waiver_file, require_all, max_holes) -> exit status
Coverage files: '#' comments, then "<cross> <bin> <count>" for every allowed bin. Waiver file: one
"<cross> <bin> <reason ...>" per line ('#' comments); a waiver must name an existing bin and give a reason.
A whole cross may be waived with bin '*' and a reason starting "NEEDS-DUT:": it is sampled only by runs of a
DUT with some capability (say which in the reason). While no bin of it is hit (no such DUT ran: its lane was
skipped) it is reported as NOT RUN with that reason, not gated; once any bin is hit it is gated like any other.
Exit status: 0; 1 with require_all and an un-waived hole (or a bad waiver); 2 no input / malformed file.
"""
import argparse
import os
import sys


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


def read_waivers(path):
    waivers = {}   # (cross, bin) -> (reason, where)
    if not path or not os.path.exists(path):
        return waivers
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split('#', 1)[0].strip()
            if not line:
                continue
            tok = line.split(None, 2)
            where = f"{path}:{lineno}"
            if len(tok) < 3:
                raise ValueError(f"{where}: expected '<cross> <bin> <reason>', saw '{line}'")
            waivers[(tok[0], tok[1])] = (tok[2], where)
    return waivers


def report(acc, paths, waiver_file=None, require_all=False, max_holes=20):
    tag = f"{acc}_coverage"
    try:
        files = list(cov_files(paths))
    except FileNotFoundError as e:
        print(f"{tag}: {e}: no such file or directory", file=sys.stderr)
        return 2
    if not files:
        print(f"{tag}: no .cov files under {' '.join(paths)}", file=sys.stderr)
        return 2
    try:
        crosses = merge(files)
        waivers = read_waivers(waiver_file)
    except ValueError as e:
        print(f"{tag}: {e}", file=sys.stderr)
        return 2
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
    w = max([36] + [len(n) for n in crosses])
    print(f"{acc.upper()} functional coverage from {len(files)} run(s)")
    print(f"{'cross':<{w}} {'hit':>5} {'waived':>6} {'total':>5}  {'%':>6}")
    total = hit = nwaived = 0
    holes, waived_hit = {}, []
    for name, bins in crosses.items():
        if name in not_run:
            print(f"{name:<{w}} {'NOT RUN':>19}  (not gated)")
            continue
        h = sum(1 for c in bins.values() if c > 0)
        wv = sum(1 for b, c in bins.items() if c == 0 and (name, b) in waivers)
        total += len(bins)
        hit += h
        nwaived += wv
        print(f"{name:<{w}} {h:>5} {wv:>6} {len(bins):>5}  {100.0 * (h + wv) / len(bins):>5.1f}%")
        missing = [b for b, c in bins.items() if c == 0 and (name, b) not in waivers]
        if missing:
            holes[name] = missing
        waived_hit += [f"{name} {b}" for b, c in bins.items() if c > 0 and (name, b) in waivers]
    print(f"{'TOTAL':<{w}} {hit:>5} {nwaived:>6} {total:>5}  {100.0 * (hit + nwaived) / max(total, 1):>5.1f}%")
    if holes:
        print("holes (not waived):")
        for name, missing in holes.items():
            shown = missing[:max_holes]
            more = f" ... and {len(missing) - len(shown)} more" if len(missing) > len(shown) else ''
            print(f"  {name}: {' '.join(shown)}{more}")
    else:
        print("holes: none (not waived)")
    if not_run:
        reasons = sorted(set(not_run.values()))
        print(f"not run (no DUT that samples them ran, not gated): {len(not_run)} cross(es): " + '; '.join(reasons))
    opened = [f"{c} {b}: {r[len('OPEN:'):].strip()}" for (c, b), (r, _) in waivers.items()
              if r.startswith('OPEN:') and crosses.get(c, {}).get(b, 1) == 0]
    if opened:
        print(f"open gaps (waived, not yet generated): {len(opened)}")
        for o in opened:
            print(f"  {o}")
    for b in waived_hit:
        print(f"{tag}: note: waived bin was hit (the waiver may be stale): {b}")
    for msg in bad:
        print(f"{tag}: {msg}", file=sys.stderr)
    if require_all and (holes or bad):
        if holes:
            n = sum(len(m) for m in holes.values())
            print(f"{tag}: {n} bin(s) not hit and not waived ({waiver_file})", file=sys.stderr)
        return 1
    return 0


def main(acc, waiver_file, doc):
    ap = argparse.ArgumentParser(description=doc.split('\n')[0])
    ap.add_argument('paths', nargs='+', help='coverage files or directories (searched for *.cov)')
    ap.add_argument('--require-all', action='store_true',
                    help='exit 1 on any bin neither hit nor waived (the nightly gate)')
    ap.add_argument('--holes', type=int, default=20, help='list at most N holes per cross')
    a = ap.parse_args()
    return report(acc, a.paths, waiver_file, a.require_all, a.holes)
