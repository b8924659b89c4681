#!/usr/bin/env python3
"""Checks of the mutation candidates (flow/mutants.py) on a small SystemVerilog sample: every kind is found
where it should be, comments, strings, declarations' widths and non-blocking assignments are not mistaken for
operators, ids are unique, and a sampled set is the same for the same seed. No build, no simulation."""
import os
import sys
import tempfile

from flow import mutants
from flow import mutate
from tests.checklib import Checks

SAMPLE = """\
module m #(parameter int W = 8) (
  input  logic       clk,
  input  logic       rst_n,
  input  logic [7:0] a, b,
  output logic       hit,
  output logic [7:0] q
);
  localparam logic [3:0] LIM = 4'd9;
  logic busy;
  // q <= a + b; in a comment must stay a comment
  always_comb begin
    hit = (a == b) && (a < LIM);
  end
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      q <= '0; busy <= 1'b0;
    end else if (a <= b) begin
      q <= (a + b) << 1; busy <= a[0] | b[0];
    end
  end
endmodule
"""

T = Checks('test_mutants')
check = T.check


def main():
    with tempfile.NamedTemporaryFile('w', suffix='.sv', dir=mutants.ROOT, delete=False) as f:
        f.write(SAMPLE)
        path = os.path.relpath(f.name, mutants.ROOT)
    try:
        cands = mutants.candidates(path)
    finally:
        os.unlink(os.path.join(mutants.ROOT, path))
    by = {}
    for m in cands:
        by.setdefault(m.kind, []).append(m)
    lines = SAMPLE.split('\n')

    def has(kind, line_no, after):
        return any(m.line == line_no and after in m.after for m in by.get(kind, []))

    check(has('eq', 12, 'a != b'), "== becomes != (eq)")
    check(has('logic', 12, '||'), "&& becomes || (logic)")
    check(has('rel', 12, 'a <= LIM'), "< becomes <= (rel)")
    check(has('rel', 17, 'a < b'), "<= inside parentheses is relational: becomes <")
    check(has('arith', 18, 'a - b'), "binary + becomes - (arith)")
    check(has('shift', 18, '>> 1'), "<< becomes >> (shift)")
    check(has('bit', 18, 'a[0] & b[0]'), "binary | becomes & (bit)")
    check(has('lit+1', 18, '<< 2') and has('lit-1', 18, '<< 0'), "an integer literal +1 and -1")
    check(has('lit+1', 8, "4'd10") and has('lit-1', 8, "4'd8"), "a parameter's sized value +1 and -1 (lit)")
    check(has('lit+1', 1, 'W = 9'), "a parameter's default value (lit)")
    check(has('lit', 16, "q <= '1"), "'0 becomes '1 (lit)")
    check(has('stuck', 18, 'q <= q;'), "a register stuck at its old value (stuck)")
    check(has('invert', 18, 'busy <= !( a[0] | b[0])') or has('invert', 18, 'busy <= !(a[0] | b[0])'),
          "a 1-bit register's next value inverted (invert)")
    check(has('invert', 12, 'hit = !('), "a 1-bit combinational assignment inverted (invert)")
    check(has('ifneg', 15, 'if (!(!rst_n))'), "an if condition negated (ifneg)")
    check(not any(m.line == 10 for m in cands), "nothing in a comment is mutated")
    check(not any(m.line in (4, 7) for m in cands), "declaration widths are left alone")
    check(not any(m.kind == 'rel' and m.line in (16, 18) for m in cands),
          "a non-blocking assignment is not taken for <=")
    check(len({m.id for m in cands}) == len(cands), "every candidate has its own id")
    check(all(m.text.count('\n') == SAMPLE.count('\n') for m in cands), "a mutant keeps every line where it was")
    check(all(m.text.split('\n')[m.line - 1] == m.after and lines[m.line - 1] == m.before for m in cands),
          "before/after are the mutated line")
    s1 = [m.id for m in mutate.sample(list(cands), 8, 5)]
    s2 = [m.id for m in mutate.sample(list(cands), 8, 5)]
    check(s1 == s2 and len(set(s1)) == 8, "the same seed samples the same mutants")
    check(len({m.split(':')[-1] for m in s1}) >= 5, "sampling spreads over the kinds")
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
