#!/usr/bin/env python3
"""Prints an FST window as a table: one row per clock cycle in which one of the chosen signals changed, with the
values they had just before that cycle's rising edge (what the flops sample), so that waveform evidence can be
quoted as text (cycle numbers as in the simulator's log: the kernel's 10 time units a cycle).

Usage: python3 -m flow.fst_table <file.fst> <regex>... [--from C] [--to C] [--all]
  regex   Python re searched in each signal's full name (TOP.tb_<acc>.dut....); every match is a column
  --all   a row for every cycle, not only those with a change
Needs fst2vcd (gtkwave; flow/setup/install_deps.sh installs it)."""
import argparse
import re
import shutil
import subprocess
import sys

from flow.check_gtkw import vcd_vars

CYCLE = 10   # time units per clock cycle (tb/common/sim_kernel.cpp half_cycle)


def main():
    ap = argparse.ArgumentParser(prog='python3 -m flow.fst_table', description=__doc__.split('\n')[0])
    ap.add_argument('fst')
    ap.add_argument('regex', nargs='+')
    ap.add_argument('--from', dest='first', type=int, default=0)
    ap.add_argument('--to', dest='last', type=int, default=None)
    ap.add_argument('--all', action='store_true')
    a = ap.parse_args()
    if not shutil.which('fst2vcd'):
        sys.exit("fst_table: fst2vcd is not installed (Debian package gtkwave; flow/setup/install_deps.sh installs it)")
    pats = [re.compile(p) for p in a.regex]
    vcd = subprocess.Popen(['fst2vcd', a.fst], stdout=subprocess.PIPE, text=True)
    names, by_id, clk_id = [], {}, None
    for path, ident, _ in vcd_vars(vcd.stdout):
        if path == 'TOP.clk':
            clk_id = ident
        if path not in names and any(p.search(path) for p in pats):
            names.append(path)
            by_id.setdefault(ident, []).append(path)
    if clk_id is None or not names:
        sys.exit(f"fst_table: {a.fst}: {'no TOP.clk' if clk_id is None else 'no signal matches'}")
    for i, n in enumerate(names):
        print(f"# {i} {n}")
    cur, prev, clk, time = {n: 'x' for n in names}, None, '0', 0
    for line in vcd.stdout:
        line = line.strip()
        if not line:
            continue
        if line[0] == '#':
            time = int(line[1:])
            continue
        if line[0] in 'bB':
            val, ident = line[1:].split()
            val = hex(int(val, 2)) if set(val) <= {'0', '1'} else val
        else:
            val, ident = line[0], line[1:]
        if ident == clk_id:
            cycle = time // CYCLE
            if val == '1' and clk == '0' and cycle >= a.first and (a.last is None or cycle <= a.last):
                row = [cur[n] for n in names]
                if a.all or row != prev:
                    print(cycle, ' '.join(f"{i}={v}" for i, v in enumerate(row)
                                          if a.all or prev is None or v != prev[i]))
                prev = row
            clk = val
        for n in by_id.get(ident, []):
            cur[n] = val
    vcd.wait()


if __name__ == '__main__':
    main()
