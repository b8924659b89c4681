#!/usr/bin/env python3
"""Merge NE16 functional-coverage files and print the report.

Each simulator run given +cov=<file> (or +cov=<dir>/) writes every coverage bin of tb/ne16/ne16_cov.c with
its hit count, one per line: "<cross> <bin> <count>" ('#' lines are comments). Only passing runs write.

usage: ne16_coverage.py [--require-all] [--holes N] <dir-or-file>...
  directories are searched recursively for *.cov files.
  --require-all   exit 1 if any bin of any cross was never hit, or a required cross is missing or has
                  the wrong number of allowed bins (the nightly gate)
  --holes N       list at most N holes per cross (default 20)
Exit status: 0, 1 (holes with --require-all), 2 (no input / malformed file).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from fcov_report import cov_files, merge  # noqa: E402  (shared with the NVDLA and MAX78000 tools)

# Crosses the nightly gate requires, with their number of allowed bins (tb/ne16/ne16_cov.c states each exclusion
# with its spec reference). A run by a simulator built before a cross existed, or a table that silently lost
# bins, fails --require-all instead of passing on fewer bins.
REQUIRED = {
    # 4 modes x 8 Qw x 2 inputs x 3 norm x 3 quant x 2 bias x 2 shift x 2 round = 4608, minus depthwise with
    # MODE16 (D20, 6.2 code 7): 8 x 3 x 3 x 8 = 576
    'mode_x_qw_x_in_x_norm_x_quant_x_bias_x_shift_x_round': 4032,
    'mode_x_weight_bits': 32,
    'mode_x_input': 7,
    'norm_bits_x_quant_bits': 9,
    'bias_x_shift_x_round_x_rect': 16,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('paths', nargs='+')
    ap.add_argument('--require-all', action='store_true')
    ap.add_argument('--holes', type=int, default=20)
    a = ap.parse_args()
    try:
        files = list(cov_files(a.paths))
    except FileNotFoundError as e:
        print(f"ne16_coverage: {e}: no such file or directory", file=sys.stderr)
        return 2
    if not files:
        print(f"ne16_coverage: no .cov files under {' '.join(a.paths)}", file=sys.stderr)
        return 2
    try:
        crosses = merge(files)
    except ValueError as e:
        print(f"ne16_coverage: {e}", file=sys.stderr)
        return 2
    total = hit = 0
    w = max([34] + [len(n) for n in crosses])
    print(f"NE16 functional coverage from {len(files)} run(s)")
    print(f"{'cross':<{w}} {'hit':>5} {'total':>5}  {'%':>6}")
    holes = {}
    for name, bins in crosses.items():
        h = sum(1 for c in bins.values() if c > 0)
        total += len(bins)
        hit += h
        print(f"{name:<{w}} {h:>5} {len(bins):>5}  {100.0 * h / len(bins):>5.1f}%")
        missing = [b for b, c in bins.items() if c == 0]
        if missing:
            holes[name] = missing
    print(f"{'TOTAL':<{w}} {hit:>5} {total:>5}  {100.0 * hit / max(total, 1):>5.1f}%")
    if holes:
        print("holes:")
        for name, missing in holes.items():
            shown = missing[:a.holes]
            more = f" ... and {len(missing) - len(shown)} more" if len(missing) > len(shown) else ''
            print(f"  {name}: {' '.join(shown)}{more}")
    else:
        print("holes: none")
    bad = []
    for name, n in REQUIRED.items():
        if name not in crosses:
            bad.append(f"required cross {name} is missing from the coverage files (simulator too old?)")
        elif len(crosses[name]) != n:
            bad.append(f"cross {name} has {len(crosses[name])} bins, the spec allows {n}")
    for msg in bad:
        print(f"ne16_coverage: {msg}", file=sys.stderr)
    if a.require_all and (holes or bad):
        if holes:
            print(f"ne16_coverage: {total - hit} required bin(s) not hit", file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
