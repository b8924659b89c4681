#!/usr/bin/env python3
"""`make waves` names every run's waves after the run (issue 41 item 10), run by `make test`: two runs of one
ai8xize folder with one seed, started at once, write two FST files and two save files, each log names its own
(stimulus, seed and process id in the name), and each FST reads back (fst2vcd) with the run's cycles. Before,
both wrote waves/max78000_trace_1.fst. Skipped, with the reason, where ../shared's folder is absent."""
import os
import re
import subprocess
import sys
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SDK = os.path.join('..', 'shared', 'conformance', 'max78000', 'ai8x', 'ai85-conv1d')
T = Checks('test_waves_unique')
check, skip = T.check, T.skip


def main():
    if not os.path.isdir(os.path.join(ROOT, SDK)):
        skip(f'{SDK} is absent (../shared beside the checkout)')
        sys.exit(T.summary())
    # The traced twin first, so that the two runs below share one up-to-date build and start together.
    b = subprocess.run(['make', '--no-print-directory', 'build/max78000/sim-waves'], cwd=ROOT, capture_output=True,
                       text=True)
    if not check(b.returncode == 0, 'the traced twin build/max78000/sim-waves builds', b.stdout + b.stderr):
        sys.exit(T.summary())
    cmd = ['make', '--no-print-directory', 'waves', 'ACC=max78000', f'SDK={SDK}', 'SEED=5']
    procs = [subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=600)[0] for p in procs]
    named, files = [], []
    for i, (p, out) in enumerate(zip(procs, outs)):
        m = re.search(r'^waves of this run: (\S+\.fst), (\S+\.gtkw)$', out, re.M)
        rec = re.search(r'^waves: recording (\S+) from cycle', out, re.M)
        cyc = re.search(r'^PASS \S+ seed 5: (\d+) cycles', out, re.M)
        ok = p.returncode == 0 and m and rec and cyc and rec.group(1) == m.group(1)
        check(ok, f'run {i + 1}: passes and its log names the waves it records ({m.group(1) if m else "?"})', out)
        if m:
            named.append(m.group(1))
            files += [m.group(1), m.group(2)]
            check(re.fullmatch(r'waves/max78000_ai85-conv1d_s5_p\d+\.fst', m.group(1)) is not None,
                  f'run {i + 1}: the name holds the accelerator, the stimulus, the seed and the process id')
    check(len(set(named)) == 2, f'the two runs wrote two files ({", ".join(named)})')
    for f in named:
        with subprocess.Popen(['fst2vcd', os.path.join(ROOT, f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) as v:  # its header and first time step: the file opens and holds values
            nvars, defined, stamped = 0, False, False
            for line in v.stdout:
                nvars += line.startswith('$var')
                defined = defined or line.startswith('$enddefinitions')
                stamped = defined and line.startswith('#')
                if stamped:
                    break
            v.kill()
        check(nvars > 0 and stamped, f'{f} reads back (fst2vcd: {nvars} signals, then values)')
    for f in files:
        if os.path.isfile(os.path.join(ROOT, f)):
            os.remove(os.path.join(ROOT, f))
    sys.exit(T.summary())


if __name__ == '__main__':
    main()
