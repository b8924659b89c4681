#!/usr/bin/env python3
"""Re-measure cycle budgets (tb/common/cycle_budgets.tsv) after a deliberate throughput change:

    python3 -m flow.update_cycle_budgets --acc ne16 [--test perf_1x1_k64] [--dry-run]

For every N-cycle line of the accelerator (and test) on our DUT it runs build/<acc>/sim with the line's test,
+stall and seed ('*' = seed 1), takes the cycles of the jobs the line's prefix matches (the largest) and rewrites
the budget and the note's date. Ratio lines (xR) are left alone. The diff is the change to commit, with why."""
import argparse
import datetime
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, 'tb', 'common', 'cycle_budgets.tsv')


def measure(acc, test, prefix, stall, seed, nobudget):
    p = subprocess.run([os.path.join(ROOT, 'build', acc, 'sim'), f'+test={test}', f'+seed={seed}', f'+stall={stall}',
                        '+quiet', f'+cycle_budgets={nobudget}'], cwd=ROOT, capture_output=True, text=True)
    cycles = [int(m.group(2)) for m in re.finditer(r'^job (\S.*?)\s+PASS\s+cycles (\d+)', p.stdout, re.M)
              if prefix == '*' or m.group(1).startswith(prefix)]
    if p.returncode != 0 or not cycles:
        sys.exit(f'{acc} {test} stall={stall} seed={seed}: run failed or no job matches {prefix!r}:\n{p.stdout[-800:]}'
                 f'{p.stderr[-800:]}')
    return max(cycles)


def main():
    ap = argparse.ArgumentParser(prog='python3 -m flow.update_cycle_budgets', description=__doc__.splitlines()[0])
    ap.add_argument('--acc', required=True)
    ap.add_argument('--test')
    ap.add_argument('--dry-run', action='store_true')
    a = ap.parse_args()
    lines = open(TABLE).read().splitlines()
    today = datetime.date.today().isoformat()
    with tempfile.NamedTemporaryFile('w', suffix='.tsv') as nob:
        nob.write('acc\tdut\ttest\tjob\tstall\tseed\tbudget\ttolerance_pct\tnote\n')
        nob.flush()
        for i, line in enumerate(lines):
            c = line.split('\t')
            if line.startswith('#') or len(c) < 9 or c[0] != a.acc or c[1] not in ('ours', '*') \
                    or c[6].startswith('x') or (a.test and c[2] != a.test) or '*' in (c[2],):
                continue
            cyc = measure(c[0], c[2], c[3], c[4] if c[4] != '*' else '0', c[5] if c[5] != '*' else '1', nob.name)
            print(f'{c[2]} {c[3]} stall={c[4]}: {c[6]} -> {cyc}')
            c[6] = str(cyc)
            c[8] = re.sub(r'measured \d{4}-\d\d-\d\d', f'measured {today}', c[8])
            lines[i] = '\t'.join(c)
    if not a.dry_run:
        open(TABLE, 'w').write('\n'.join(lines) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
