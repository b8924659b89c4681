#!/usr/bin/env python3
"""Line coverage of our RTL (`make coverage`): runs a list on the line-coverage builds of our DUTs
(build/coverage/<acc>/sim, Verilator --coverage-line), merges each accelerator's runs with verilator_coverage,
keeps the lines of rtl/ only, applies the waivers of flow/coverage_waivers.tsv, and writes
  build/coverage/<acc>.info     lcov tracefile after waivers
  build/coverage/html/          genhtml report (open build/coverage/html/index.html)
and prints per file and per accelerator: lines hit / instrumented, before and after waivers.
Waivers (tab-separated: file, first line, last line, reason) remove lines that cannot be hit in this
configuration; every waiver needs a reason, and a waiver that covers no uninstrumented line is reported.
--require PCT exits 1 when an accelerator is below PCT after waivers.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'build', 'coverage')
WAIVERS = os.path.join(ROOT, 'flow', 'coverage_waivers.tsv')


def read_waivers():
    out = []
    with open(WAIVERS) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            cells = line.split('\t')
            if len(cells) != 4 or not cells[3].strip() or not cells[1].isdigit() or not cells[2].isdigit():
                sys.exit(f"{WAIVERS}:{lineno}: expected file TAB first TAB last TAB reason")
            out.append({'file': cells[0], 'first': int(cells[1]), 'last': int(cells[2]), 'reason': cells[3],
                        'where': f"{os.path.relpath(WAIVERS, ROOT)}:{lineno}", 'used': 0})
    return out


def parse_info(path):
    """{file: {line: hits}} of an lcov tracefile."""
    cov, cur = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith('SF:'):
                cur = cov.setdefault(os.path.relpath(line[3:].strip(), ROOT), {})
            elif line.startswith('DA:') and cur is not None:
                ln, hits = line[3:].split(',')[:2]
                cur[int(ln)] = cur.get(int(ln), 0) + int(hits)
    return cov


def write_info(path, cov):
    with open(path, 'w') as f:
        for fn, lines in sorted(cov.items()):
            f.write(f"TN:\nSF:{os.path.join(ROOT, fn)}\n")
            for ln in sorted(lines):
                f.write(f"DA:{ln},{lines[ln]}\n")
            f.write(f"LH:{sum(1 for h in lines.values() if h)}\nLF:{len(lines)}\nend_of_record\n")


def split_points(merged):
    """Split a merged .dat into its line/branch points (written to <acc>.line.dat for lcov) and its toggle
    points of rtl/ ({file: [(signal bit, hits)]}): a toggle point on a declaration line would otherwise read
    as a line that is not covered."""
    line_dat = merged[:-4] + '.line.dat'
    toggles = {}
    with open(merged, errors='replace') as f, open(line_dat, 'w') as out:
        for raw in f:
            if '\x01page\x02v_toggle' not in raw:
                out.write(raw)
                continue
            keys = dict(kv.split('\x02', 1) for kv in raw[raw.index("'") + 1:raw.rindex("'")].split('\x01')
                        if '\x02' in kv)
            fn = os.path.relpath(os.path.join(ROOT, keys.get('f', '')), ROOT)
            if fn.startswith('rtl/'):
                toggles.setdefault(fn, []).append((f"{keys.get('h', '')}:{keys.get('o', '')}",
                                                   int(raw.rsplit(' ', 1)[1])))
    return line_dat, toggles


def print_toggles(report):
    """Toggle coverage (signals up to COV_TOGGLE_WIDTH bits: control logic) per accelerator; the bits that
    never toggled are listed in build/coverage/<acc>.toggle.txt. Reported, not gated."""
    if not any(report.values()):
        return
    print(f"\n{'toggle coverage (narrow signals)':52} {'points':>7} {'hit':>7} {'cov %':>6}")
    for acc, files in sorted(report.items()):
        n = sum(len(p) for p in files.values())
        h = sum(1 for p in files.values() for _, c in p if c)
        with open(os.path.join(OUT, f'{acc}.toggle.txt'), 'w') as f:
            for fn, points in sorted(files.items()):
                for name, c in points:
                    if not c:
                        f.write(f"{fn}\t{name}\tnever toggled\n")
        print(f"{'== ' + acc + ' (our DUT)':52} {n:7} {h:7} {100 * h / n if n else 100:6.1f}   "
              f"(untoggled: {os.path.relpath(OUT, ROOT)}/{acc}.toggle.txt)")


def main():
    ap = argparse.ArgumentParser(prog='python3 -m flow.coverage',
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--list', default='tests/lists/nightly.list')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--no-run', action='store_true', help='merge the .dat files of a previous run only')
    ap.add_argument('--require', type=float, default=0.0, help='minimum %% per accelerator after waivers')
    ap.add_argument('--out', default=os.path.join('build', 'coverage'),
                    help="folder of the .dat files, lcov files and HTML report, relative to the checkout (default "
                    "build/coverage); its name names the regression (make coverage-smoke: build/coverage-smoke)")
    a = ap.parse_args()
    global OUT
    OUT = os.path.normpath(os.path.join(ROOT, a.out))
    dat = os.path.join(OUT, 'dat')
    if not a.no_run:
        for f in glob.glob(os.path.join(dat, '*.dat')):
            os.unlink(f)
        r = subprocess.run([sys.executable, '-m', 'flow.regress', '--list', a.list, '--jobs',
                            str(a.jobs), '--name', os.path.basename(OUT), '--no-waves', '--code-cov', dat], cwd=ROOT)
        if r.returncode:
            print("coverage: the list did not pass on the coverage builds; figures below are of what ran")
    waivers = read_waivers()
    accs = sorted({os.path.basename(p).split('.')[0].split('@')[0] for p in glob.glob(os.path.join(dat, '*.dat'))})
    total_rc, infos, toggle_report = 0, [], {}
    print(f"\n{'file':52} {'lines':>7} {'hit':>7} {'cov %':>6} {'waived':>6} {'after %':>7}")
    for acc in accs:
        files = sorted(glob.glob(os.path.join(dat, f'{acc}.*.dat')))
        merged = os.path.join(OUT, f'{acc}.dat')
        subprocess.run(['verilator_coverage', '--write', merged, *files], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        line_dat, toggles = split_points(merged)
        raw = os.path.join(OUT, f'{acc}.raw.info')
        subprocess.run(['verilator_coverage', '--write-info', raw, line_dat], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        toggle_report[acc] = toggles
        cov = {f: l for f, l in parse_info(raw).items() if f.startswith('rtl/')}
        lf = lh = wf = 0
        kept = {}
        for fn, lines in sorted(cov.items()):
            keep = {}
            nw = 0
            for ln, hits in lines.items():
                w = next((w for w in waivers if w['file'] == fn and w['first'] <= ln <= w['last']), None)
                if w and not hits:
                    w['used'] += 1
                    nw += 1
                    continue
                keep[ln] = hits
            kept[fn] = keep
            n, h = len(lines), sum(1 for x in lines.values() if x)
            ka, kh = len(keep), sum(1 for x in keep.values() if x)
            lf, lh, wf = lf + n, lh + h, wf + nw
            print(f"{fn:52} {n:7} {h:7} {100 * h / n if n else 100:6.1f} {nw:6} {100 * kh / ka if ka else 100:7.1f}")
        info = os.path.join(OUT, f'{acc}.info')
        write_info(info, kept)
        infos.append(info)
        after = 100 * lh / (lf - wf) if lf - wf else 100.0
        print(f"{'== ' + acc + ' (our DUT)':52} {lf:7} {lh:7} {100 * lh / lf if lf else 100:6.1f} {wf:6} {after:7.1f}")
        if a.require and after < a.require:
            print(f"coverage: {acc} is at {after:.1f} % after waivers, below the required {a.require} %")
            total_rc = 1
    for w in waivers:
        if not w['used']:
            print(f"note: waiver {w['where']} ({w['file']}:{w['first']}-{w['last']}) covers no unhit line")
    print_toggles(toggle_report)
    html = os.path.join(OUT, 'html')
    if not shutil.which('genhtml'):
        print("coverage: no HTML report: genhtml is not installed "
              "(Debian package lcov: flow/setup/install_deps.sh lcov)")
        return 1
    g = subprocess.run(['genhtml', '--quiet', '--output-directory', html, '--title', 'accel-cosim RTL line coverage',
                        *infos], cwd=ROOT, capture_output=True, text=True)
    if g.returncode:
        print(f"coverage: genhtml failed: {g.stderr.strip()[-500:]}")
        return 1
    print(f"\nreport: {os.path.relpath(html, ROOT)}/index.html (lcov: {os.path.relpath(OUT, ROOT)}/<acc>.info)")
    return total_rc


if __name__ == '__main__':
    sys.exit(main())
