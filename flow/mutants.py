#!/usr/bin/env python3
"""Candidate mutants of our SystemVerilog (flow/mutate.py samples them). Kinds:
  arith   binary + <-> -, * -> +            rel     < <-> <=, > <-> >=  (<= only inside parentheses:
  eq      == <-> !=                                  outside them it is a non-blocking assignment)
  logic   && <-> ||                          bit     binary & <-> |, ^ -> |
  shift   << <-> >>                          lit+1, lit-1: an integer literal +1, -1; lit: '0 <-> '1
  stuck   `x <= e;` -> `x <= x;` (a register keeps its old value)
  invert  a 1-bit assignment's right side negated: `x = e;` -> `x = !(e);`
  ifneg   `if (c)` -> `if (!(c))`
Comments and strings are never mutated. Declarations are left alone (a changed width only makes a stillborn
mutant) except the values of parameters. A candidate's id is file:line:column:kind and does not depend on
sampling, so `make mutate ONLY=<id>` reproduces one mutant. Standalone: python3 -m flow.mutants <file.sv>
"""
import os
import re
import sys
from dataclasses import dataclass

from flow import dut_manifest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TOKEN = re.compile(r"""
    (?P<sized>\d+\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-F_xXzZ?]+)
  | (?P<fill>'[01xXzZ](?![\w']))
  | (?P<num>\d[\d_]*(?!['\w]))
  | (?P<ident>[A-Za-z_$][\w$]*(?:::[A-Za-z_]\w*)?)
  | (?P<op><<<=|>>>=|<<<|>>>|<<=|>>=|===|!==|==\?|!=\?|==|!=|<=|>=|&&|\|\||<<|>>|\+\+|--|\+:|-:|->|::|~&|~\||~\^|\^~
           |\+=|-=|\*=|[-+*/%<>&|^!~=?:;,.()\[\]{}#@'])
""", re.X)

DECL = re.compile(r"^\s*(input|output|inout|logic|wire|reg|bit|byte|int|integer|typedef|import|module|endmodule|"
                  r"package|endpackage|function|task|genvar|struct|enum|parameter|localparam)\b")
USER_TYPE_DECL = re.compile(r"^\s*(?!assign\b|return\b|else\b|end\b)[A-Za-z_]\w*(::\w+)?\s+[A-Za-z_]\w*\s*[;,=\[]")
PARAM = re.compile(r"\b(parameter|localparam)\b")
ONE_BIT = re.compile(r"^\s*(?:(?:input|output|inout)\s+)?(?:logic|wire|reg|bit)\s+(?!\[|signed\b)([\w\s,]+?)[\s,;]*$")
KEYWORDS = {'if', 'else', 'begin', 'end', 'case', 'unique', 'priority', 'casez', 'endcase', 'default', 'for',
            'assign', 'always_ff', 'always_comb', 'return', 'or', 'posedge', 'negedge', 'inside'}
SWAPS = {
    '+': ('arith', '-'), '-': ('arith', '+'), '*': ('arith', '+'),
    '<': ('rel', '<='), '>': ('rel', '>='), '>=': ('rel', '>'),
    '==': ('eq', '!='), '!=': ('eq', '=='),
    '&&': ('logic', '||'), '||': ('logic', '&&'),
    '&': ('bit', '|'), '|': ('bit', '&'), '^': ('bit', '|'),
    '<<': ('shift', '>>'), '>>': ('shift', '<<'),
}
BINARY_LEFT = ('ident', 'num', 'sized', 'fill')     # a binary operator follows an operand or ) ]


@dataclass
class Mutant:
    file: str       # relative to the repository root
    line: int
    col: int
    kind: str
    before: str     # the source line
    after: str      # the source line mutated
    text: str       # the whole mutated file

    @property
    def id(self):
        return f"{self.file}:{self.line}:{self.col}:{self.kind}"


def blank_comments(src):
    """The source with comments, strings and preprocessor lines turned into spaces (newlines kept)."""
    out = list(src)
    for m in re.finditer(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|^[ \t]*`[^\n]*', src, re.S | re.M):
        for i in range(m.start(), m.end()):
            if out[i] != '\n':
                out[i] = ' '
    return ''.join(out)


def sized_variants(tok):
    """'8'd5' -> [('8'd6', 'lit+1'), ('8'd4', 'lit-1')] within the width; nothing for x/z digits."""
    m = re.match(r"(\d+)\s*'([sS]?)([bBoOdDhH])\s*([0-9a-fA-F_]+)$", tok)
    if not m:
        return []
    width, s, base, digits = int(m.group(1)), m.group(2), m.group(3), m.group(4).replace('_', '')
    radix = {'b': 2, 'o': 8, 'd': 10, 'h': 16}[base.lower()]
    try:
        v = int(digits, radix)
    except ValueError:
        return []
    fmt = {2: 'b', 8: 'o', 10: 'd', 16: 'x'}[radix]
    out = []
    for nv, kind in ((v + 1, 'lit+1'), (v - 1, 'lit-1')):
        if 0 <= nv < (1 << width):
            out.append((f"{width}'{s}{base}{format(nv, fmt)}", kind))
    return out


def candidates(relpath):
    """Every candidate mutant of one file (path relative to the repository root)."""
    with open(os.path.join(ROOT, relpath)) as f:
        src = f.read()
    code = blank_comments(src)
    line_starts = [0] + [i + 1 for i, c in enumerate(src) if c == '\n']
    lines = src.split('\n')
    code_lines = code.split('\n')

    def where(pos):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, pos - line_starts[lo] + 1

    one_bit = set()
    for cl in code_lines:
        m = ONE_BIT.match(cl)
        if m:
            one_bit.update(n.strip() for n in m.group(1).split(',') if n.strip())

    toks = [(m.lastgroup, m.group(), m.start(), m.end()) for m in TOKEN.finditer(code)]
    out = []

    def add(start, end, repl, kind):
        ln, col = where(start)
        text = src[:start] + repl + src[end:]
        after = text.split('\n')[ln - 1]
        if after != lines[ln - 1]:
            out.append(Mutant(relpath, ln, col, kind, lines[ln - 1], after, text))

    def decl_line(pos):
        return bool(DECL.match(code_lines[where(pos)[0] - 1]) or USER_TYPE_DECL.match(code_lines[where(pos)[0] - 1]))

    def lhs_start(i):
        """Index of the first token of the lvalue that ends at token i-1 (identifiers, selects, fields)."""
        j, depth = i - 1, 0
        while j >= 0:
            kind, t = toks[j][0], toks[j][1]
            if t == ']':
                depth += 1
            elif t == '[':
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and not ((kind == 'ident' and t not in KEYWORDS) or t == '.'):
                break
            j -= 1
        return j + 1

    def stmt_end(i):
        """Index of the ';' that ends the statement whose right side starts at token i (same nesting)."""
        depth = 0
        for j in range(i, len(toks)):
            t = toks[j][1]
            if t in '([{':
                depth += 1
            elif t in ')]}':
                depth -= 1
            elif t == ';' and depth == 0:
                return j
        return None

    paren = 0
    bracket = 0
    in_comb = False       # inside an always_comb block or an assign (blocking '=' is an assignment there)
    for i, (kind, t, s, e) in enumerate(toks):
        prev = toks[i - 1] if i else ('op', ';', 0, 0)
        if t == '(':
            paren += 1
        elif t == ')':
            paren -= 1
        elif t == '[':
            bracket += 1
        elif t == ']':
            bracket -= 1
        if t in ('always_comb', 'assign'):
            in_comb = True
        elif t in ('always_ff', 'endmodule', 'endfunction'):
            in_comb = False
        is_decl = decl_line(s)
        if is_decl:
            if PARAM.search(code_lines[where(s)[0] - 1]) and bracket == 0 and kind in ('num', 'sized'):
                if kind == 'num':
                    v = int(t.replace('_', ''))
                    add(s, e, str(v + 1), 'lit+1')
                    if v > 0:
                        add(s, e, str(v - 1), 'lit-1')
                else:
                    for r, k in sized_variants(t):
                        add(s, e, r, k)
            continue
        binary = prev[0] in BINARY_LEFT or prev[1] in (')', ']')
        if kind == 'op' and t in SWAPS and binary:
            if t in ('&', '|', '^', '+', '-', '*') and toks[i + 1][1] in ('=',):
                continue
            k, r = SWAPS[t]
            add(s, e, r, k)
        elif t == '<=':
            if paren > 0:
                add(s, e, '<', 'rel')
            else:      # a non-blocking assignment: the register stuck, a 1-bit one inverted
                a, z = lhs_start(i), stmt_end(i + 1)
                if z is None or a >= i:
                    continue
                lhs = src[toks[a][2]:toks[i - 1][3]]
                rs, re_ = toks[i + 1][2], toks[z - 1][3]
                if src[rs:re_].strip() != lhs.strip():
                    add(rs, re_, lhs, 'stuck')
                if lhs.strip() in one_bit:
                    add(rs, re_, f"!({src[rs:re_]})", 'invert')
        elif t == '=' and paren == 0 and in_comb:
            a, z = lhs_start(i), stmt_end(i + 1)
            if z is None or a >= i:
                continue
            lhs = src[toks[a][2]:toks[i - 1][3]].strip()
            if lhs in one_bit:
                rs, re_ = toks[i + 1][2], toks[z - 1][3]
                add(rs, re_, f"!({src[rs:re_]})", 'invert')
        elif kind == 'num' and not (bracket and (toks[i + 1][1] == ':' or prev[1] == ':')):
            v = int(t.replace('_', ''))
            add(s, e, str(v + 1), 'lit+1')
            if v > 0:
                add(s, e, str(v - 1), 'lit-1')
        elif kind == 'sized':
            for r, k in sized_variants(t):
                add(s, e, r, k)
        elif kind == 'fill':
            if t in ("'0", "'1"):
                add(s, e, "'1" if t == "'0" else "'0", 'lit')
        elif t == 'if' and toks[i + 1][1] == '(':
            depth, j = 0, i + 1
            while j < len(toks):
                depth += toks[j][1] == '('
                depth -= toks[j][1] == ')'
                if depth == 0:
                    break
                j += 1
            if j < len(toks):
                cs, ce = toks[i + 1][3], toks[j][2]
                add(cs, ce, f"!({src[cs:ce]})", 'ifneg')
    return out


def dut_files(acc):
    """The files of rtl/<acc>/ that our DUT of acc is built from, in its file list's order."""
    try:
        d = dut_manifest.get(acc, None)
    except Exception:          # an unknown accelerator: the caller says which exist
        return []
    _, srcs, _ = d.sources(d.root)
    prefix = os.path.join(ROOT, 'rtl', acc) + os.sep
    return [os.path.relpath(p, ROOT) for p in srcs if p.startswith(prefix)]


if __name__ == '__main__':
    for path in sys.argv[1:]:
        for m in candidates(os.path.relpath(os.path.abspath(path), ROOT)):
            print(f"{m.id}\n    {m.before.strip()}\n    {m.after.strip()}")
