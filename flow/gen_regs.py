#!/usr/bin/env python3
"""The one register generator: every accelerator's register description into its C and SV register files.

Usage (from the repository root):
  python3 -m flow.gen_regs [--check] [--root DIR] [--nv-full DIR] [acc ...]
    acc       nvdla, ne16, max78000 (the committed outputs) and nv_full (NVIDIA's map, below); default: all
    --check   write nothing; exit 1 naming every generated file that differs from its description's output
              (and the description it comes from); nv_full: parse and cross-check arnvdla.h instead
    --root    the repository to read and write (default: this checkout; tests use a copy)
    --nv-full nv_full's tree (default $NV_FULL, else ../shared/upstream/nvdla_nv_full beside the checkout)
Python 3 standard library only. Exit status 2 names the file and line of a malformed description.

One input format. rtl/<acc>/regs/<acc>_regs.csv, one row per field ('#' lines are comments):
  unit,register,byte_addr,field,msb,lsb,access,reset,flags,meaning
  unit       the register block (NVDLA_SDP, NE16, quad)
  register   its register; rows of one register are consecutive. An empty register makes a *unit row*:
             byte_addr is the unit's base, flags may give count=N stride=S (a block repeated N times,
             instance k at base + k*S); without a unit row the base is the lowest address rounded to 4 KiB
  byte_addr  absolute byte address of the register (of its instance 0 / element 0)
  msb,lsb    the field's bits; reset: the field's reset value (not shifted)
  access     RW stored and read back; RO driven by hardware; RC read-only constant (its reset value);
             WO write-only (reads 0); W1C write 1 to clear; RWHC cleared by hardware (OP_EN); RWT a stored
             trigger (the write itself acts)
  flags      space-separated. Field: zero (reads 0, writes ignored), ext (value from hand-written logic),
             noreadback (a write does not read back), hwset (hardware can set the RW field), idle1 (RO bit
             that reads 1 on an idle accelerator). Register (any of its rows): wrstrobe / rdstrobe (a bus
             write / read is reported to hand-written logic: a side effect), word (the whole register is
             exported as one word), count=N stride=S (the register repeats N times, S bytes apart)
  meaning    what the field means; a register's description is the meaning of its first row

One output convention.
  C   golden/<acc>/<acc>_regs.h: the register addresses and, for every field F of register R,
      <R>_<F>_SHIFT and <R>_<F>_MASK (mask in place); golden/common/regfield.h (included by each) reads
      and writes a field with REG_GET(v, <R>_<F>) and REG_SET(v, <R>_<F>, x). NVDLA adds its register
      table golden/nvdla/nvdla_regmap.{h,c}; NE16 the job-register indices; MAX78000 its descriptor table.
  SV  rtl/<acc>/regs/gen/: the package <acc>_regs_pkg.sv (constants: <R>_<F>_SHIFT, <R>_<F>_WIDTH where a
      design needs field positions, NVDLA's per-unit structs) and the register files: NVDLA one per unit
      (nvdla_<unit>_regfile.sv; ping-pong units instantiate the hand-written rtl/nvdla/nvdla_pingpong.sv),
      NE16 the job context (ne16_ctx_regfile.sv), MAX78000 one per block (max78000_<block>_regs.sv).
  Every output is committed, so a build needs no generator; `make regs-check` runs --check.

nv_full (the second NVDLA configuration) is read from NVIDIA's own map, never copied into this repository:
<nv_full>/cmod/include/arnvdla.h, its #define list (per register the _MK_ADDR_CONST address, RESET_VAL,
READ_MASK, WRITE_MASK; per field _SHIFT, _FIELD, _RANGE hi:lo, _DEFAULT). Its _DUAL is 0 everywhere, so the
ping-pong (dual) registers are, as in nv_small, those from a unit's D_OP_ENABLE on. At build time, not
committed, `python3 -m flow.gen_regs nv_full` writes build/nv_full/regs/: nv_full_regs.h (arnvdla.h's register
names, with _SHIFT/_MASK as above) and nv_full_regmap.{h,c} (the table nv_full_regs[] in nvdla_regmap.h's
types; access from the read/write masks: RW, RO or WO). --check reads and cross-checks arnvdla.h (each
field's _FIELD mask against its _RANGE, each register's RESET_VAL against its fields' defaults) and generates
into memory only (build/ is the build's to remake); it prints "skipped: <path> absent" when the tree is not
there.
"""
import argparse
import csv
import os
import re
import sys
from collections import OrderedDict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
COLUMNS = ['unit', 'register', 'byte_addr', 'field', 'msb', 'lsb', 'access', 'reset', 'flags', 'meaning']
ACCESS = ('RW', 'RO', 'RC', 'WO', 'W1C', 'RWHC', 'RWT')
FIELD_FLAGS = {'zero', 'ext', 'noreadback', 'hwset', 'idle1'}
REG_FLAGS = {'wrstrobe', 'rdstrobe', 'word'}
NUM_FLAGS = {'count', 'stride'}   # key=value; on a unit row or a register's row
REGFIELD_H = '../common/regfield.h'        # REG_GET / REG_SET, as golden/<acc>/<acc>_regs.h includes it

SV_KEYWORDS = {'reg', 'wire', 'logic', 'type', 'begin', 'end', 'case', 'default', 'input', 'output', 'module',
               'int', 'bit', 'byte', 'do', 'if', 'else', 'for', 'struct', 'enum', 'packed', 'string', 'time',
               'event', 'table', 'config', 'cell', 'library', 'bind', 'class', 'final', 'new', 'null', 'priority'}


class DescError(Exception):
    """A malformed description: the message names file:line."""


def banner(rel):
    return 'GENERATED by flow/gen_regs.py from %s. Do not edit.' % rel


class Field:
    def __init__(self, name, msb, lsb, access, reset, flags=(), meaning='', lineno=0):
        self.name = name
        self.msb = msb
        self.lsb = lsb
        self.access = access
        self.reset = reset
        self.flags = set(flags)
        self.meaning = meaning
        self.width = msb - lsb + 1
        self.mask = ((1 << self.width) - 1) << lsb
        self.lineno = lineno
        self.kind = None      # NVDLA: classified later
        self.sv = None        # NVDLA: struct member / signal name


class Reg:
    def __init__(self, unit, name, addr):
        self.unit = unit
        self.name = name
        self.addr = addr
        self.off = addr & 0xFFF
        self.fields = []
        self.flags = set()
        self.count = 1        # count=N stride=S: the register repeats
        self.stride = 0
        self.array = False
        self.meaning = ''
        self.dual = False

    @property
    def woff(self):
        return self.off >> 2

    def mask(self, pred=lambda f: True):
        m = 0
        for f in self.fields:
            if pred(f):
                m |= f.mask
        return m

    def reset(self):
        v = 0
        for f in self.fields:
            v |= f.reset << f.lsb
        return v

    @property
    def stem(self):
        n = self.name[:-2] if self.name.endswith('_0') else self.name
        for p in ('D_', 'S_', 'CFG_'):
            if n.startswith(p):
                return n[len(p):]
        return n

    @property
    def sig(self):
        return self.name.lower()


class Unit:
    def __init__(self, name):
        self.name = name
        self.regs = OrderedDict()
        self.op_off = None
        self.given_base = None
        self.count = 1
        self.stride = 0
        self.meaning = ''

    @property
    def short(self):
        return self.name[len('NVDLA_'):].lower()

    @property
    def base(self):
        if self.given_base is not None:
            return self.given_base
        return min(r.addr for r in self.regs.values()) & ~0xFFF

    @property
    def pp(self):
        return self.op_off is not None

    def fields_of(self, kind, dual=None):
        out = []
        for r in self.regs.values():
            if dual is not None and r.dual != dual:
                continue
            out += [(r, f) for f in r.fields if f.kind == kind]
        return out


def parse_flags(text, where):
    words, nums = set(), {}
    for w in text.split():
        if '=' in w:
            k, v = w.split('=', 1)
            if k not in NUM_FLAGS:
                raise DescError('%s: unknown flag %r' % (where, w))
            try:
                nums[k] = int(v, 0)
            except ValueError:
                raise DescError('%s: bad number in flag %r' % (where, w))
        elif w in FIELD_FLAGS or w in REG_FLAGS:
            words.add(w)
        else:
            raise DescError('%s: unknown flag %r' % (where, w))
    return words, nums


def load_csv(root, rel):
    """The description rel (relative to root) as an OrderedDict of Units, in file order."""
    units = OrderedDict()
    try:
        with open(os.path.join(root, rel), newline='') as fh:
            lines = [(i, ln) for i, ln in enumerate(fh, start=1) if not ln.startswith('#')]
    except OSError as e:
        raise DescError('%s: cannot read (%s)' % (rel, e.strerror))
    rd = csv.reader([ln for _, ln in lines])
    header = next(rd, None)
    if header != COLUMNS:
        raise DescError('%s:%d: header %r, expected %r' % (rel, lines[0][0] if lines else 1, header, COLUMNS))
    prev = None
    for (lineno, _), row in zip(lines[1:], rd):
        where = '%s:%d' % (rel, lineno)
        if len(row) != len(COLUMNS):
            raise DescError('%s: %d columns, expected %d' % (where, len(row), len(COLUMNS)))
        row = dict(zip(COLUMNS, row))
        words, nums = parse_flags(row['flags'], where)
        try:
            addr = int(row['byte_addr'], 0)
        except ValueError as e:
            raise DescError('%s: bad number (%s)' % (where, e))
        u = units.get(row['unit'])
        if u is None:
            u = units[row['unit']] = Unit(row['unit'])
        if not row['register']:                       # a unit row
            if u.regs or u.given_base is not None or words:
                raise DescError('%s: a unit row comes first, once per unit, with count=/stride= only' % where)
            u.given_base, u.meaning = addr, row['meaning']
            u.count, u.stride = nums.get('count', 1), nums.get('stride', 0)
            continue
        try:
            f = Field(row['field'], int(row['msb']), int(row['lsb']), row['access'], int(row['reset'], 0),
                      words & FIELD_FLAGS, row['meaning'], lineno)
        except ValueError as e:
            raise DescError('%s: bad number (%s)' % (where, e))
        if f.access not in ACCESS:
            raise DescError('%s: unknown access %r (one of %s)' % (where, f.access, ', '.join(ACCESS)))
        if not (0 <= f.lsb <= f.msb <= 31) or f.reset < 0 or f.reset >> f.width:
            raise DescError('%s: bad bit range or reset for %s' % (where, f.name))
        r = u.regs.get(row['register'])
        if r is None:
            if addr & 3 or any(o.addr == addr for o in u.regs.values()):
                raise DescError('%s: address 0x%x misaligned or taken by another register' % (where, addr))
            r = u.regs[row['register']] = Reg(u, row['register'], addr)
            r.meaning = row['meaning']
        elif prev is not r:
            raise DescError('%s: rows of %s are not consecutive' % (where, r.name))
        elif r.addr != addr:
            raise DescError('%s: %s at 0x%x and 0x%x' % (where, r.name, r.addr, addr))
        if u.given_base is None and (addr >> 12) != (u.base >> 12):
            raise DescError('%s: address 0x%x outside the unit window' % (where, addr))
        if r.mask() & f.mask:
            raise DescError('%s: field %s overlaps another field of %s' % (where, f.name, r.name))
        if any(o.name == f.name for o in r.fields):
            raise DescError('%s: field %s twice in %s' % (where, f.name, r.name))
        r.flags |= words & REG_FLAGS
        if nums:
            r.count, r.stride, r.array = nums.get('count', 1), nums.get('stride', 0), True
        r.fields.append(f)
        prev = r
    if not units:
        raise DescError('%s: no registers' % rel)
    return units


# =========================================================================================== NVDLA
NVDLA_CSV = 'rtl/nvdla/regs/nvdla_regs.csv'


def nvdla_classify(units):
    for u in units.values():
        for r in u.regs.values():
            if r.name == 'D_OP_ENABLE_0':
                u.op_off = r.off
    for u in units.values():
        nvdla_classify_unit(u)


def nvdla_classify_unit(u):
    names = {}
    for r in u.regs.values():
        r.dual = u.pp and r.off >= u.op_off
        if u.pp and not r.dual and not r.name.startswith('S_'):
            raise DescError('%s.%s: single register in a ping-pong unit must be named S_*' % (u.name, r.name))
        if r.dual and not r.name.startswith('D_'):
            raise DescError('%s.%s: ping-pong register must be named D_*' % (u.name, r.name))
        for f in r.fields:
            names[f.name] = names.get(f.name, 0) + 1
    for r in u.regs.values():
        for f in r.fields:
            if 'zero' in f.flags:
                f.kind = 'zero'
            elif 'ext' in f.flags:
                f.kind = 'ext'
            elif u.pp and r.name == 'S_STATUS_0':
                f.kind = 'pp_status'
            elif u.pp and r.name == 'S_POINTER_0':
                f.kind = {'PRODUCER': 'pp_producer', 'CONSUMER': 'pp_consumer'}[f.name]
            elif f.access == 'RWHC':
                if not (r.name == 'D_OP_ENABLE_0' and f.name == 'OP_EN'):
                    raise DescError('%s.%s.%s: RWHC is only D_OP_ENABLE.OP_EN' % (u.name, r.name, f.name))
                f.kind = 'pp_op_en'
            elif f.access == 'RC':
                f.kind = 'const'
            elif f.access == 'WO':
                f.kind = 'zero'
            elif f.access == 'RO':
                f.kind = 'res' if r.dual else 'hw'
            elif f.access == 'W1C':
                f.kind = 'w1c'
            else:
                f.kind = 'store'
            n = f.name.lower() if names[f.name] == 1 else '%s_%s' % (r.stem.lower(), f.name.lower())
            f.sv = n + '_f' if n in SV_KEYWORDS else n


# ----------------------------------------------------------------------------------------------- SV
HDR = '// %s\n' % banner(NVDLA_CSV)


def struct_members(u, kind, dual):
    return [(r, f) for (r, f) in u.fields_of(kind, dual)]


def struct_groups(u):
    """(suffix, members, comment) for the unit's packed structs; empty ones are omitted."""
    groups = []
    d = struct_members(u, 'store', True) if u.pp else []
    s = struct_members(u, 'store', False)
    hw = struct_members(u, 'hw', False)
    res = struct_members(u, 'res', True) if u.pp else []
    if d:
        groups.append(('d', d, 'D_ (ping-pong) configuration fields of one group'))
    if s:
        groups.append(('s', s, 'S_ / single configuration fields (storage)'))
    if hw:
        groups.append(('hw', hw, 'hardware status fields read through RO registers (inputs)'))
    if res:
        groups.append(('res', res, 'per-group RO result fields captured at completion (inputs)'))
    return groups


def gen_pkg(units):
    o = [HDR, 'package nvdla_regs_pkg;\n']
    o.append('  // CSB unit windows: byte address bits [17:12] (= word address bits [15:10])\n')
    for u in units.values():
        o.append('  localparam logic [5:0] WIN_%s = 6\'h%02x;\n' % (u.short.upper(), u.base >> 12))
    o.append('\n')
    for u in units.values():
        for suf, mem, why in struct_groups(u):
            o.append('  // %s: %s\n' % (u.name, why))
            o.append('  typedef struct packed {\n')
            for r, f in mem:
                o.append('    logic %-8s %s;   // %s.%s\n' % ('[%d:0]' % (f.width - 1) if f.width > 1 else '',
                                                           f.sv, r.name, f.name))
            o.append('  } %s_%s_t;\n' % (u.short, suf))
            o.append('\n')
    o.append('endpackage\n')
    return ''.join(o)


def read_expr(u, r, f):
    k = f.kind
    if k == 'store':
        return ('d_q[pp_producer].' if r.dual else 's_q.') + f.sv
    if k == 'const':
        return "%d'h%x" % (f.width, f.reset)
    if k == 'zero':
        return None
    if k == 'hw':
        return 's_hw.' + f.sv
    if k == 'res':
        return 'pp_res.' + f.sv
    if k == 'w1c':
        return '%s_q[%d:%d]' % (r.sig, f.msb, f.lsb)
    if k == 'pp_status':
        return 'pp_status[%d:%d]' % (f.msb, f.lsb)
    if k == 'pp_producer':
        return 'pp_producer'
    if k == 'pp_consumer':
        return 'pp_consumer'
    if k == 'pp_op_en':
        return 'pp_op_en_prod'
    if k == 'ext':
        return 'ext_%s_%s' % (r.sig, f.name.lower())
    raise AssertionError(k)


def concat(parts):
    """parts: list of (msb, lsb, expr or None) -> SV expression of 32 bits."""
    items, bit = [], 31
    for msb, lsb, e in sorted(parts, key=lambda p: -p[0]):
        if e is None:
            continue
        if msb < bit:
            items.append("%d'd0" % (bit - msb))
        items.append(e)
        bit = lsb - 1
    if not items:
        return None
    if bit >= 0:
        items.append("%d'd0" % (bit + 1))
    return '{' + ', '.join(items) + '}' if len(items) > 1 else items[0]


def packed_words(words, nw):
    """SV literal of a packed [nw-1:0][31:0] table, word 0 last."""
    return "{%s}" % ', '.join("32'h%08x" % words.get(i, 0) for i in reversed(range(nw)))


def field_slice(u, r, f, dsrc):
    """Expression of a field from storage words (s_q / dsrc) or its special source."""
    if f.kind == 'store':
        return '%s[%d][%d:%d]' % (dsrc if r.dual else 's_q', r.woff, f.msb, f.lsb)
    return read_expr(u, r, f)


SPECIAL_KINDS = ('hw', 'res', 'w1c', 'pp_status', 'pp_producer', 'pp_consumer', 'pp_op_en', 'ext')


def reg_expr(u, r, dsrc):
    """Read value of a whole register: stored words and W1C words are already masked."""
    kinds = set(f.kind for f in r.fields)
    if kinds == {'store'}:
        return '%s[%d]' % (dsrc if r.dual else 's_q', r.woff)
    if kinds == {'w1c'}:
        return '%s_q' % r.sig
    if kinds == {'pp_status'}:
        return 'pp_status'          # nvdla_pingpong returns the whole word, reserved bits 0
    return concat([(f.msb, f.lsb, field_slice(u, r, f, dsrc)) for f in r.fields])


def gen_regfile(u):
    groups = dict((g[0], g[1]) for g in struct_groups(u))
    s = u.short
    regs = sorted(u.regs.values(), key=lambda r: r.off)
    nw = max(r.woff for r in regs) + 1
    aw = max(1, (nw - 1).bit_length())
    w1c = [r for r in regs if any(f.kind == 'w1c' for f in r.fields)]
    views = [r for r in regs if 'word' in r.flags]
    wstb = [r for r in regs if 'wrstrobe' in r.flags]
    rstb = [r for r in regs if 'rdstrobe' in r.flags]
    ext = [(r, f) for r in regs for f in r.fields if f.kind == 'ext']
    smask = dict((r.woff, r.mask(lambda f: f.kind == 'store')) for r in regs if not r.dual)
    sreset = dict((r.woff, r.reset() & smask[r.woff]) for r in regs if not r.dual)
    dmask = dict((r.woff, r.mask(lambda f: f.kind == 'store')) for r in regs if r.dual)
    dreset = dict((r.woff, r.reset() & dmask[r.woff]) for r in regs if r.dual)
    const = dict((r.woff, r.reset() & r.mask(lambda f: f.kind == 'const')) for r in regs)
    has_s = any(smask.values())
    has_d = any(dmask.values())
    has_c = any(const.values())
    special = [r for r in regs if any(f.kind in SPECIAL_KINDS for f in r.fields)]
    ports = [('input  logic        clk', ''), ('input  logic        rst_n', ''),
             ('input  logic        req_vld', 'decoded CSB access to this unit, one cycle'),
             ('input  logic        req_wr', ''),
             ('input  logic [9:0]  req_woff', 'word offset inside the 4 KiB window'),
             ('input  logic [31:0] req_wdat', ''),
             ('output logic [31:0] rd_data', 'read data, the cycle after a read access')]
    if 's' in groups:
        ports.append(('output nvdla_regs_pkg::%s_s_t s_cfg' % s, 'single (S_) configuration'))
    if 'hw' in groups:
        ports.append(('input  nvdla_regs_pkg::%s_hw_t s_hw' % s, 'hardware status for RO fields'))
    if u.pp:
        if 'd' in groups:
            ports.append(('output nvdla_regs_pkg::%s_d_t dp_cfg' % s, 'datapath hook: CONSUMER group D_ fields'))
        ports.append(('output logic        dp_op_en', 'op_en[CONSUMER]: start / running'))
        ports.append(('output logic        dp_group', 'CONSUMER'))
        ports.append(('input  logic        dp_done', 'one-cycle layer completion'))
        if 'res' in groups:
            ports.append(('input  nvdla_regs_pkg::%s_res_t dp_res' % s, 'results, captured at dp_done'))
    for r in w1c:
        ports.append(('input  logic [31:0] %s_set' % r.sig, 'hardware set (wins over a W1C clear)'))
        ports.append(('output logic [31:0] %s_q' % r.sig, ''))
    for r in views:
        ports.append(('output logic [31:0] %s_q' % r.sig, ''))
    for r in wstb:
        ports.append(('output logic        %s_wr' % r.sig, 'CSB write strobe (data on req_wdat)'))
    for r in rstb:
        ports.append(('output logic        %s_rd' % r.sig, 'CSB read strobe'))
    for r, f in ext:
        ports.append(('input  logic [%d:0] ext_%s_%s' % (f.width - 1, r.sig, f.name.lower()), 'hand-written value'))
    body = []
    for i, (d, c) in enumerate(ports):
        d = '  ' + d + ('' if i == len(ports) - 1 else ',')
        body.append(d + ('  // ' + c if c else ''))
    o = [HDR]
    o.append('// %s register file (base 0x%05x)%s.\n' % (u.name, u.base,
             ', ping-pong D_ groups from offset 0x%03x' % u.op_off if u.pp else ''))
    o.append('// Storage is word-organised: constant tables give each word\'s write mask, reset value and\n'
             '// constant (RC) bits, so a write or a read is one indexed statement.\n')
    o.append('module nvdla_%s_regfile\n  import nvdla_regs_pkg::*;\n(\n%s\n);\n' % (s, '\n'.join(body)))
    o.append('  localparam int NW = %d;   // words in use in the window\n' % nw)
    o.append('  wire          wr_en  = req_vld & req_wr;\n')
    o.append('  wire          in_rng = req_woff < 10\'(NW);\n')
    o.append('  wire [%d:0]    wi     = req_woff[%d:0];\n' % (aw - 1, aw - 1))
    if has_s:
        o.append('  localparam logic [NW-1:0][31:0] S_WMASK = %s;\n' % packed_words(smask, nw))
        o.append('  localparam logic [NW-1:0][31:0] S_RESET = %s;\n' % packed_words(sreset, nw))
    if has_d:
        o.append('  localparam logic [NW-1:0][31:0] D_WMASK = %s;\n' % packed_words(dmask, nw))
        o.append('  localparam logic [NW-1:0][31:0] D_RESET = %s;\n' % packed_words(dreset, nw))
    if has_c:
        o.append('  localparam logic [NW-1:0][31:0] RD_CONST = %s;\n' % packed_words(const, nw))
    if u.pp:
        o.append('\n  // ping-pong mechanics (spec 4.2), shared by every unit\n')
        o.append('  logic        pp_producer, pp_consumer, pp_d_wr_ok, pp_op_en_prod;\n')
        o.append('  logic [31:0] pp_status;\n')
        rw = '$bits(%s_res_t)' % s if 'res' in groups else '1'
        if 'res' in groups:
            o.append('  %s_res_t pp_res;\n' % s)
            res_in, res_out = 'dp_res', 'pp_res'
        else:
            o.append('  /* verilator lint_off UNUSED */\n  logic pp_res_unused;\n  /* verilator lint_on UNUSED */\n')
            res_in, res_out = "1'b0", 'pp_res_unused'
        ptr = u.regs['S_POINTER_0'].woff
        o.append('  nvdla_pingpong #(.RES_W(%s)) u_pp (\n' % rw)
        o.append('    .clk, .rst_n,\n')
        o.append("    .ptr_wr   (wr_en && req_woff == 10'h%03x),\n" % ptr)
        o.append("    .op_en_wr (wr_en && req_woff == 10'h%03x),\n" % (u.op_off >> 2))
        o.append('    .wdat0    (req_wdat[0]),\n')
        o.append('    .producer (pp_producer), .consumer (pp_consumer), .d_wr_ok (pp_d_wr_ok),\n')
        o.append('    .op_en_prod (pp_op_en_prod), .s_status (pp_status),\n')
        o.append('    .dp_op_en, .dp_done, .dp_res (%s), .res_prod (%s));\n' % (res_in, res_out))
        o.append('  assign dp_group = pp_consumer;\n')
    if has_s:
        o.append('\n  // S_ storage words (words without S_ storage stay 0)\n')
        o.append('  logic [NW-1:0][31:0] s_q;\n')
        o.append('  always_ff @(posedge clk or negedge rst_n) begin\n')
        # word by word: Verilator 5.006 miscompiles wide (>256-bit) constant assignments (VL_CONSTHI_W
        # writes past the end of the target), so no whole-vector constant is ever assigned
        o.append('    if (!rst_n) for (int k = 0; k < NW; k++) s_q[k] <= S_RESET[k];\n')
        o.append('    else if (wr_en && in_rng) s_q[wi] <= req_wdat & S_WMASK[wi];\n')
        o.append('  end\n')
    if has_d:
        o.append('\n  // D_ storage words of both groups; CSB accesses go to PRODUCER, writes only while it is idle\n')
        o.append('  logic [1:0][NW-1:0][31:0] d_q;\n')
        o.append('  always_ff @(posedge clk or negedge rst_n) begin\n')
        o.append('    if (!rst_n) for (int k = 0; k < NW; k++) begin d_q[0][k] <= D_RESET[k]; d_q[1][k] <= D_RESET[k]; end\n')
        o.append("    else if (wr_en && in_rng && pp_d_wr_ok && req_woff >= 10'h%03x) d_q[pp_producer][wi] <= req_wdat & D_WMASK[wi];\n"
                 % (u.op_off >> 2))
        o.append('  end\n')
        o.append('  /* verilator lint_off UNUSED */\n  logic [NW-1:0][31:0] d_c;   // consumer group (S_ words unused)\n'
                 '  /* verilator lint_on UNUSED */\n')
        o.append('  assign d_c = d_q[pp_consumer];\n')
    if 's' in groups:
        o.append('  assign s_cfg = {%s};\n' % ', '.join(field_slice(u, r, f, 'd_c') for r, f in groups['s']))
    if 'd' in groups:
        o.append('  assign dp_cfg = {%s};\n' % ', '.join(field_slice(u, r, f, 'd_c') for r, f in groups['d']))
    for r in w1c:
        m = r.mask(lambda f: f.kind == 'w1c')
        o.append('\n  // %s: W1C, hardware set wins over a clear in the same cycle\n' % r.name)
        o.append('  localparam logic [31:0] %s_MASK = 32\'h%08x;\n' % (r.sig.upper(), m))
        o.append('  always_ff @(posedge clk or negedge rst_n) begin\n')
        o.append("    if (!rst_n) %s_q <= 32'h%08x;\n" % (r.sig, r.reset() & m))
        o.append("    else %s_q <= ((%s_q & ~((wr_en && req_woff == 10'h%03x) ? req_wdat : 32'd0)) | %s_set)"
                 " & %s_MASK;\n" % (r.sig, r.sig, r.woff, r.sig, r.sig.upper()))
        o.append('  end\n')
    for r in views:
        o.append('  assign %s_q = %s;\n' % (r.sig, reg_expr(u, r, 'd_q[pp_producer]') or "32'd0"))
    for r in wstb:
        o.append("  assign %s_wr = wr_en && req_woff == 10'h%03x;\n" % (r.sig, r.woff))
    for r in rstb:
        o.append("  assign %s_rd = req_vld && !req_wr && req_woff == 10'h%03x;\n" % (r.sig, r.woff))
    # registered read path: evaluated only on a read access
    terms = []
    if has_s:
        terms.append('s_q[wi]')
    if has_d:
        terms.append('d_q[pp_producer][wi]')
    if has_c:
        terms.append('RD_CONST[wi]')
    base = ('in_rng ? (%s) : 32\'d0' % ' | '.join(terms)) if terms else "32'd0"
    o.append('\n  // registered read path\n')
    o.append('  always_ff @(posedge clk or negedge rst_n) begin\n')
    o.append("    if (!rst_n) rd_data <= 32'd0;\n")
    o.append('    else if (req_vld && !req_wr) begin\n')
    if special:
        o.append('      case (req_woff)\n')
        for r in special:
            e = reg_expr(u, r, 'd_q[pp_producer]')
            o.append("        10'h%03x: rd_data <= %s;  // %s\n" % (r.woff, e or "32'd0", r.name))
        o.append('        default: rd_data <= %s;\n      endcase\n' % base)
    else:
        o.append('      rd_data <= %s;\n' % base)
    o.append('    end\n  end\n')
    o.append('\n  // write-data bits of reserved / read-only fields are not stored\n')
    o.append('  /* verilator lint_off UNUSED */\n  wire unused_ok = &{1\'b0, req_wdat, wr_en, wi, in_rng};\n'
             '  /* verilator lint_on UNUSED */\n')
    o.append('endmodule\n')
    return ''.join(o)


# ------------------------------------------------------------------------------------------------ C
CHDR = '/* %s */\n' % banner(NVDLA_CSV)


def cname(u, r):
    return 'NVDLA_%s_%s' % (u.short.upper(), r.name)


def gen_regs_h(units, chdr=CHDR, guard='NVDLA_REGS_H', what='NVDLA'):
    o = [chdr, '/* %s register byte addresses and field SHIFT/MASK (mask in place) macros. */\n' % what,
         '#ifndef %s\n#define %s\n#include "%s"\n\n' % (guard, guard, REGFIELD_H)]
    for u in units.values():
        o.append('/* %s */\n#define NVDLA_%s_BASE 0x%05xu\n' % (u.name, u.short.upper(), u.base))
        for r in u.regs.values():
            n = cname(u, r)
            o.append('#define %s 0x%05xu\n' % (n, r.addr))
            for f in r.fields:
                o.append('#define %s_%s_SHIFT %du\n' % (n, f.name, f.lsb))
                o.append('#define %s_%s_MASK 0x%08xu\n' % (n, f.name, ((1 << f.width) - 1) << f.lsb))
        o.append('\n')
    o.append('#endif\n')
    return ''.join(o)


REGMAP_H = CHDR + '''/* Register table of NVDLA (nv_small + BDMA): one row per register, fields inside. Const data only. */
#ifndef NVDLA_REGMAP_H
#define NVDLA_REGMAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { NVR_RW, NVR_RO, NVR_RC, NVR_WO, NVR_W1C, NVR_RWHC, NVR_RWT } nvdla_access_t;
typedef struct { const char *name; uint8_t msb, lsb; nvdla_access_t access; uint32_t reset; } nvdla_field_t;
typedef struct {
    const char *unit;        /* "NVDLA_SDP" */
    const char *name;        /* "D_OP_ENABLE_0" */
    uint32_t addr;           /* absolute byte address */
    uint32_t reset;          /* whole-register reset value (fields shifted in place) */
    uint32_t store_mask;     /* bits written by a CSB write and read back (RW, RWT, RWHC storage) */
    uint32_t ro_mask;        /* RO / RC bits (writes ignored) */
    uint32_t w1c_mask, wo_mask;
    bool     dual;           /* ping-pong D_ register (two groups selected by S_POINTER.PRODUCER) */
    uint8_t  nfields;
    const nvdla_field_t *fields;
} nvdla_reg_t;
/* Sorted by addr. Data ports that do not read back what was written (SDP/CDP S_LUT_ACCESS_DATA) are
 * RWT fields outside store_mask. */
extern const nvdla_reg_t nvdla_regs[];
extern const size_t nvdla_nregs;
const nvdla_reg_t *nvdla_reg_by_name(const char *unit_dot_reg);   /* "NVDLA_SDP.D_OP_ENABLE_0" */
const nvdla_reg_t *nvdla_reg_by_addr(uint32_t byte_addr);
/* per ping-pong unit: base address and D_OP_ENABLE offset, for register tests */
typedef struct { const char *unit; uint32_t base; uint32_t op_enable_off; } nvdla_pp_unit_t;
extern const nvdla_pp_unit_t nvdla_pp_units[];
extern const size_t nvdla_npp_units;
#endif
'''


def readback(u, r, f):
    return f.access in ('RW', 'RWT', 'RWHC') and not f.flags & {'zero', 'noreadback'}


def gen_regmap_c(units, chdr=CHDR, include='nvdla_regmap.h'):
    regs = sorted([(u, r) for u in units.values() for r in u.regs.values()], key=lambda x: x[1].addr)
    o = [chdr, '#include "%s"\n#include <stdlib.h>\n#include <string.h>\n\n' % include]
    for i, (u, r) in enumerate(regs):
        o.append('static const nvdla_field_t f%d[] = {' % i)
        o.append(', '.join('{"%s", %d, %d, NVR_%s, 0x%xu}' % (f.name, f.msb, f.lsb, f.access, f.reset)
                           for f in r.fields))
        o.append('};\n')
    o.append('\nconst nvdla_reg_t nvdla_regs[] = {\n')
    for i, (u, r) in enumerate(regs):
        store = r.mask(lambda f: readback(u, r, f))
        ro = r.mask(lambda f: f.access in ('RO', 'RC'))
        o.append('    {"%s", "%s", 0x%05xu, 0x%08xu, 0x%08xu, 0x%08xu, 0x%08xu, 0x%08xu, %s, %d, f%d},\n'
                 % (u.name, r.name, r.addr, r.reset(), store, ro, r.mask(lambda f: f.access == 'W1C'),
                    r.mask(lambda f: f.access == 'WO'), 'true' if r.dual else 'false', len(r.fields), i))
    o.append('};\nconst size_t nvdla_nregs = sizeof nvdla_regs / sizeof nvdla_regs[0];\n\n')
    o.append('const nvdla_pp_unit_t nvdla_pp_units[] = {\n')
    for u in units.values():
        if u.pp:
            o.append('    {"%s", 0x%05xu, 0x%03xu},\n' % (u.name, u.base, u.op_off))
    o.append('};\nconst size_t nvdla_npp_units = sizeof nvdla_pp_units / sizeof nvdla_pp_units[0];\n\n')
    # Every .cfg trace line names its register: looked up by name through this index, not by a scan of the table.
    by_name = sorted(range(len(regs)), key=lambda i: (regs[i][0].name.encode(), regs[i][1].name.encode()))
    o.append('/* nvdla_regs in (unit, name) order, byte-wise as strcmp compares */\nstatic const uint16_t by_name[] = {')
    for k, i in enumerate(by_name):
        o.append(('\n    ' if k % 16 == 0 else ' ') + '%d,' % i)
    o.append('\n};\n\n')
    o.append('''/* A name looked up: the unit is the ulen bytes before the dot. */
typedef struct { const char *unit; size_t ulen; const char *name; } name_key_t;

/* bsearch order of a key against a by_name entry: the unit (shorter sorts first), then the name */
static int cmp_name(const void *key, const void *entry)
{
    const name_key_t *k = key;
    const nvdla_reg_t *r = &nvdla_regs[*(const uint16_t *)entry];
    int c = strncmp(k->unit, r->unit, k->ulen);
    if (c == 0 && r->unit[k->ulen] != '\\0')
        c = -1;   /* r->unit is longer: the key sorts first */
    return c ? c : strcmp(k->name, r->name);
}

const nvdla_reg_t *nvdla_reg_by_name(const char *unit_dot_reg)
{
    const char *dot = unit_dot_reg ? strchr(unit_dot_reg, '.') : NULL;
    if (!dot)
        return NULL;
    const name_key_t key = {unit_dot_reg, (size_t)(dot - unit_dot_reg), dot + 1};
    const uint16_t *e = bsearch(&key, by_name, sizeof by_name / sizeof by_name[0], sizeof by_name[0], cmp_name);
    return e ? &nvdla_regs[*e] : NULL;
}

static int cmp_addr(const void *key, const void *entry)
{
    const uint32_t a = *(const uint32_t *)key, b = ((const nvdla_reg_t *)entry)->addr;
    return (a > b) - (a < b);
}

const nvdla_reg_t *nvdla_reg_by_addr(uint32_t byte_addr)
{
    return bsearch(&byte_addr, nvdla_regs, nvdla_nregs, sizeof nvdla_regs[0], cmp_addr);   /* sorted by addr */
}
''')
    return ''.join(o)




def nvdla_outputs(root):
    units = load_csv(root, NVDLA_CSV)
    for u in units.values():
        if not u.name.startswith('NVDLA_') or u.given_base is not None:
            raise DescError('%s: unit %s: NVDLA units are NVDLA_<unit>, without unit rows' % (NVDLA_CSV, u.name))
    nvdla_classify(units)
    out = OrderedDict()
    out['rtl/nvdla/regs/gen/nvdla_regs_pkg.sv'] = gen_pkg(units)
    for u in units.values():
        out['rtl/nvdla/regs/gen/nvdla_%s_regfile.sv' % u.short] = gen_regfile(u)
    out['golden/nvdla/nvdla_regs.h'] = gen_regs_h(units)
    out['golden/nvdla/nvdla_regmap.h'] = REGMAP_H
    out['golden/nvdla/nvdla_regmap.c'] = gen_regmap_c(units)
    return NVDLA_CSV, out


# ============================================================================================ NE16
NE16_CSV = 'rtl/ne16/regs/ne16_regs.csv'
NE16_JOB_BASE = 0x20     # the job registers: every RW register, exactly 0x20..0x7C


def ne16_load(root):
    units = load_csv(root, NE16_CSV)
    if list(units) != ['NE16']:
        raise DescError('%s: one unit, NE16' % NE16_CSV)
    regs = list(units['NE16'].regs.values())
    for r in regs:
        if r.addr > 0x7C:
            raise DescError('%s:%d: %s outside the APB window' % (NE16_CSV, r.fields[0].lineno, r.name))
        acc = set(f.access for f in r.fields)
        if len(acc) != 1 or not acc <= {'RW', 'RO', 'WO'}:
            raise DescError('%s:%d: %s: one access of RW, RO, WO per register' % (NE16_CSV, r.fields[0].lineno, r.name))
        r.access = acc.pop()
    job = [r for r in regs if r.access == 'RW']
    if [r.addr for r in job] != list(range(NE16_JOB_BASE, 0x80, 4)):
        raise DescError('%s: job registers (RW) must be exactly 0x20..0x7C' % NE16_CSV)
    return regs, job


def ne16_gen_c(regs, job):
    o = ['/* %s */\n' % banner(NE16_CSV), '#ifndef NE16_REGS_H\n#define NE16_REGS_H\n#include "%s"\n\n' % REGFIELD_H]
    o.append('/* Byte offsets in the 256-byte APB window. */\n')
    for r in regs:
        o.append('#define NE16_REG_%-18s 0x%02Xu /* %s */\n' % (r.name, r.addr, ' '.join([r.access] + sorted(r.flags))))
    o.append('\n#define NE16_JOB_REG_BASE 0x%02Xu\n#define NE16_NUM_JOB_REGS %d\n' % (NE16_JOB_BASE, len(job)))
    o.append('/* Index of a job register in the 24-word context (regs[] of the golden model). */\n')
    for r in job:
        o.append('#define NE16_JOB_%-18s %d\n' % (r.name, (r.addr - NE16_JOB_BASE) // 4))
    o.append('\n/* Fields: _SHIFT, _MASK (in place); REG_GET(v, NE16_<reg>_<field>) reads one. */\n')
    for r in regs:
        for f in r.fields:
            p = 'NE16_%s_%s' % (r.name, f.name)
            o.append('#define %s_SHIFT %du\n#define %s_MASK 0x%08Xu /* %s */\n' % (p, f.lsb, p, f.mask, f.meaning))
    o.append('\n/* Job-register names by index, for messages. */\n'
             'static const char *const ne16_job_reg_names[NE16_NUM_JOB_REGS] = {\n')
    o.append(''.join('    "%s",\n' % r.name for r in job))
    o.append('};\n#endif\n')
    return ''.join(o)


def ne16_gen_pkg(regs, job):
    o = ['// %s\n' % banner(NE16_CSV), 'package ne16_regs_pkg;\n',
         '  // Every constant is generated; a design uses only some of them.\n  // verilator lint_off UNUSEDPARAM\n']
    for r in regs:
        o.append("  localparam logic [7:0] REG_%s = 8'h%02X;\n" % (r.name, r.addr))
    o.append('  localparam int unsigned NUM_JOB_REGS = %d;\n' % len(job))
    for r in job:
        o.append('  localparam int unsigned JOB_%s = %d;\n' % (r.name, (r.addr - NE16_JOB_BASE) // 4))
    for r in regs:
        for f in r.fields:
            o.append('  localparam int unsigned %s_%s_SHIFT = %d;\n' % (r.name, f.name, f.lsb))
            o.append('  localparam int unsigned %s_%s_WIDTH = %d;\n' % (r.name, f.name, f.width))
    o.append('  // One job context as stored (register order; element 0 = WEIGHTS_PTR).\n')
    o.append('  typedef logic [NUM_JOB_REGS-1:0][31:0] job_regs_t;\n')
    o.append("  localparam logic [NUM_JOB_REGS-1:0][31:0] JOB_RESET = '{\n")
    o.append(',\n'.join("    32'h%08X" % r.reset() for r in reversed(job)))
    o.append('\n  };\n  // verilator lint_on UNUSEDPARAM\nendpackage\n')
    return ''.join(o)


NE16_CTX = '''// Storage of one NE16 job context: 24 x 32-bit registers, APB byte strobes, clear to reset values.
module ne16_ctx_regfile
  import ne16_regs_pkg::*;
(
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            clear_i,  // synchronous clear (SOFT_CLEAR value 0)
  input  logic                            we_i,     // write this context
  input  logic [$clog2(NUM_JOB_REGS)-1:0] idx_i,    // register index (offset-0x20)/4
  input  logic [31:0]                     wdata_i,
  input  logic [3:0]                      strb_i,
  output job_regs_t                       regs_o
);
  job_regs_t regs_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      regs_q <= JOB_RESET;
    end else if (clear_i) begin
      regs_q <= JOB_RESET;
    end else if (we_i) begin
      for (int b = 0; b < 4; b++) begin
        if (strb_i[b]) regs_q[idx_i][8*b +: 8] <= wdata_i[8*b +: 8];
      end
    end
  end

  assign regs_o = regs_q;
endmodule
'''


def ne16_outputs(root):
    regs, job = ne16_load(root)
    return NE16_CSV, OrderedDict([('golden/ne16/ne16_regs.h', ne16_gen_c(regs, job)),
                                  ('rtl/ne16/regs/gen/ne16_regs_pkg.sv', ne16_gen_pkg(regs, job)),
                                  ('rtl/ne16/regs/gen/ne16_ctx_regfile.sv', '// %s\n' % banner(NE16_CSV) + NE16_CTX)])


# ======================================================================================== MAX78000
MAX_CSV = 'rtl/max78000/regs/max78000_regs.csv'
MAX_ACCESS = {'RW': 'rw', 'RO': 'ro', 'WO': 'wo'}
MAX_BLOCKS = ('glob', 'quad', 'ffifo')      # C descriptor table: block 0, 1, 2


def max_load(root):
    units = load_csv(root, MAX_CSV)
    if list(units) != list(MAX_BLOCKS):
        raise DescError('%s: blocks %s, in this order' % (MAX_CSV, ', '.join(MAX_BLOCKS)))
    blocks = []
    for u in units.values():
        if u.given_base is None:
            raise DescError('%s: block %s has no unit row (its base)' % (MAX_CSV, u.name))
        regs = []
        for r in u.regs.values():
            where = '%s:%d' % (MAX_CSV, r.fields[0].lineno)
            fields = []
            for f in r.fields:
                if f.access not in MAX_ACCESS or f.flags - {'hwset', 'idle1'}:
                    raise DescError('%s: %s.%s: access RW/RO/WO, flags hwset/idle1 only' % (where, r.name, f.name))
                if 'idle1' in f.flags and f.access != 'RO':
                    raise DescError('%s: %s.%s: idle1 marks a read-only status bit' % (where, r.name, f.name))
                fields.append(dict(name=f.name, lo=f.lsb, width=f.width, mask=f.mask, access=MAX_ACCESS[f.access],
                                   hwset='hwset' in f.flags, idle1='idle1' in f.flags))
            reg = dict(name=r.name, offset=r.addr - u.base, reset=r.reset(), desc=r.meaning, fields=fields,
                       count=r.count, stride=r.stride, array=r.array)
            reg['wmask'] = sum(f['mask'] for f in fields if f['access'] in ('rw', 'wo'))
            reg['rwmask'] = sum(f['mask'] for f in fields if f['access'] == 'rw')
            reg['romask'] = sum(f['mask'] for f in fields if f['access'] == 'ro')
            reg['womask'] = sum(f['mask'] for f in fields if f['access'] == 'wo')
            reg['rmask'] = reg['rwmask'] | reg['romask']
            reg['hwset'] = sum(f['mask'] for f in fields if f['hwset'])
            reg['idle'] = sum(f['mask'] for f in fields if f['idle1'])
            if reg['reset'] & ~reg['rwmask'] & 0xFFFFFFFF:
                raise DescError('%s: %s: reset value has bits outside its RW fields' % (where, r.name))
            regs.append(reg)
        blocks.append(dict(name=u.name, base=u.base, count=u.count, stride=u.stride, regs=regs))
    return blocks


def max_c_header(blocks):
    o = []
    o.append("/* MAX78000 CNN registers. %s */" % banner(MAX_CSV))
    o.append("#ifndef MAX78000_REGS_H")
    o.append("#define MAX78000_REGS_H")
    o.append('#include "%s"' % REGFIELD_H)
    o.append("#include <stdint.h>")
    o.append("")
    for b in blocks:
        B = b["name"].upper()
        o.append("#define MAX78000_%s_BASE 0x%08Xu" % (B, b["base"]))
        o.append("#define MAX78000_%s_COUNT %du" % (B, b["count"]))
        o.append("#define MAX78000_%s_STRIDE 0x%Xu" % (B, b["stride"]))
    o.append("#define MAX78000_QUAD_ADDR(q, off) (MAX78000_QUAD_BASE + MAX78000_QUAD_STRIDE * (uint32_t)(q) + (off))")
    o.append("")
    for b in blocks:
        for r in b["regs"]:
            R = "MAX78000_" + r["name"]
            o.append("/* %s (%s block): %s */" % (r["name"], b["name"], r["desc"]))
            if r["array"]:
                o.append("#define %s_OFF(i) (0x%04Xu + 0x%Xu * (uint32_t)(i))" % (R, r["offset"], r["stride"]))
                o.append("#define %s_COUNT %du" % (R, r["count"]))
                o.append("#define %s_OFF0 0x%04Xu" % (R, r["offset"]))
            else:
                o.append("#define %s_OFF 0x%04Xu" % (R, r["offset"]))
            o.append("#define %s_RESET 0x%08Xu" % (R, r["reset"]))
            o.append("#define %s_WMASK 0x%08Xu" % (R, r["wmask"]))
            o.append("#define %s_RMASK 0x%08Xu" % (R, r["rmask"]))
            o.append("#define %s_ROMASK 0x%08Xu" % (R, r["romask"]))
            for f in r["fields"]:
                F = "%s_%s" % (R, f["name"])
                o.append("#define %s_SHIFT %du" % (F, f["lo"]))
                o.append("#define %s_MASK 0x%08Xu" % (F, f["mask"]))
            o.append("")
    o.append("/* Descriptor table (register tests walk it): block 0 = glob, 1 = quad, 2 = ffifo. */")
    o.append("typedef struct max78000_reg_desc {")
    o.append("    const char *name;")
    o.append("    uint8_t  block;")
    o.append("    uint16_t offset, count, stride;")
    o.append("    uint32_t reset, wmask, rmask, romask, womask;")
    o.append("    uint32_t idle;     /* read-only bits that read 1 on an idle accelerator (e.g. an empty FIFO) */")
    o.append("} max78000_reg_desc_t;")
    o.append("")
    o.append("static const max78000_reg_desc_t max78000_reg_table[] = {")
    for bi, b in enumerate(blocks):
        for r in b["regs"]:
            o.append('    {"%s", %d, 0x%04X, %d, %d, 0x%08Xu, 0x%08Xu, 0x%08Xu, 0x%08Xu, 0x%08Xu, 0x%08Xu},'
                     % (r["name"], bi, r["offset"], r["count"], r["stride"], r["reset"], r["wmask"],
                        r["rmask"], r["romask"], r["womask"], r["idle"]))
    o.append("};")
    o.append("#define MAX78000_REG_TABLE_N (sizeof max78000_reg_table / sizeof max78000_reg_table[0])")
    o.append("#endif")
    return "\n".join(o) + "\n"


def max_sv_pkg(blocks):
    o = ["// MAX78000 CNN register constants. %s" % banner(MAX_CSV),
         "// A constants package: each user needs only some of them.",
         "/* verilator lint_off UNUSEDPARAM */", "package max78000_regs_pkg;"]
    for b in blocks:
        B = b["name"].upper()
        o.append("  localparam logic [31:0] %s_BASE = 32'h%08X;" % (B, b["base"]))
        o.append("  localparam logic [31:0] %s_STRIDE = 32'h%08X;" % (B, b["stride"]))
    for b in blocks:
        for r in b["regs"]:
            R = r["name"]
            o.append("  // %s: %s" % (R, r["desc"]))
            o.append("  localparam logic [12:0] %s_OFF = 13'h%04X;" % (R, r["offset"]))
            if r["array"]:
                o.append("  localparam int %s_COUNT = %d;" % (R, r["count"]))
            o.append("  localparam logic [31:0] %s_RESET = 32'h%08X;" % (R, r["reset"]))
            o.append("  localparam logic [31:0] %s_WMASK = 32'h%08X;" % (R, r["wmask"]))
            o.append("  localparam logic [31:0] %s_RMASK = 32'h%08X;" % (R, r["rmask"]))
            for f in r["fields"]:
                o.append("  localparam int %s_%s_SHIFT = %d;" % (R, f["name"], f["lo"]))
                o.append("  localparam int %s_%s_WIDTH = %d;" % (R, f["name"], f["width"]))
    o.append("endpackage")
    o.append("/* verilator lint_on UNUSEDPARAM */")
    return "\n".join(o) + "\n"

def max_sv_regfile(b, modname):
    """One register file: word-addressed write port and combinational read mux."""
    regs = b["regs"]
    ports = []
    body = []
    ports.append("  input  logic        clk,")
    ports.append("  input  logic        rst_n,")
    ports.append("  input  logic        wr_en,     // write strobe (one cycle per APB write)")
    ports.append("  input  logic [10:0] waddr,     // word offset in the block window (byte offset >> 2)")
    ports.append("  input  logic [31:0] wdata,")
    ports.append("  input  logic [3:0]  wstrb,")
    ports.append("  input  logic [10:0] raddr,     // word offset for the read mux")
    ports.append("  output logic [31:0] rdata,")
    ports.append("  output logic        rhit,      // raddr decodes to a register of this block")
    for r in regs:
        n = r["name"].lower()
        dim = " [%d]" % r["count"] if r["array"] else ""
        if r["rwmask"]:
            ports.append("  output logic [31:0] %s_q%s,  // stored value (rw bits)" % (n, dim))
        if r["romask"]:
            ports.append("  input  logic [31:0] %s_ro_i%s,  // hardware status bits (mask 0x%08X)" % (n, dim, r["romask"]))
        if r["hwset"]:
            ports.append("  input  logic [31:0] %s_set_i%s,  // hardware set of rw bits (mask 0x%08X)" % (n, dim, r["hwset"]))
        if r["womask"]:
            ports.append("  output logic %s_we%s,  // write strobe of the write-only port" % (n, dim))
    ports[-1] = ports[-1].replace(",  //", "  //", 1) if ",  //" in ports[-1] else ports[-1].rstrip(",")
    body.append("  logic [31:0] bmask;")
    body.append("  assign bmask = {{8{wstrb[3]}}, {8{wstrb[2]}}, {8{wstrb[1]}}, {8{wstrb[0]}}};")
    body.append("")
    for r in regs:
        n = r["name"].lower()
        R = r["name"]
        w = r["offset"] >> 2
        if r["array"]:
            cnt, st = r["count"], r["stride"] >> 2
            if r["rwmask"]:
                setx = " | (%s_set_i[i] & %s_WMASK)" % (n, R) if r["hwset"] else ""
                body.append("  for (genvar i = 0; i < %d; i++) begin : g_%s" % (cnt, n))
                body.append("    always_ff @(posedge clk or negedge rst_n) begin")
                body.append("      if (!rst_n) %s_q[i] <= %s_RESET;" % (n, R))
                body.append("      else if (wr_en && waddr == 11'(%d + %d * i))" % (w, st))
                body.append("        %s_q[i] <= ((%s_q[i] & ~(bmask & %s_WMASK)) | (wdata & bmask & %s_WMASK))%s;"
                            % (n, n, R, R, setx))
                if r["hwset"]:
                    body.append("      else %s_q[i] <= %s_q[i] | (%s_set_i[i] & %s_WMASK);" % (n, n, n, R))
                body.append("    end")
                body.append("  end")
            if r["womask"]:
                body.append("  for (genvar i = 0; i < %d; i++) begin : g_%s_we" % (cnt, n))
                body.append("    assign %s_we[i] = wr_en && waddr == 11'(%d + %d * i);" % (n, w, st))
                body.append("  end")
        else:
            if r["rwmask"]:
                setx = " | (%s_set_i & %s_WMASK)" % (n, R) if r["hwset"] else ""
                body.append("  always_ff @(posedge clk or negedge rst_n) begin")
                body.append("    if (!rst_n) %s_q <= %s_RESET;" % (n, R))
                body.append("    else if (wr_en && waddr == 11'(%d))" % w)
                body.append("      %s_q <= ((%s_q & ~(bmask & %s_WMASK)) | (wdata & bmask & %s_WMASK))%s;"
                            % (n, n, R, R, setx))
                if r["hwset"]:
                    body.append("    else %s_q <= %s_q | (%s_set_i & %s_WMASK);" % (n, n, n, R))
                body.append("  end")
            if r["womask"]:
                body.append("  assign %s_we = wr_en && waddr == 11'(%d);" % (n, w))
    body.append("")
    body.append("  always_comb begin")
    body.append("    rdata = '0;")
    body.append("    rhit  = 1'b0;")
    for r in regs:
        n = r["name"].lower()
        w = r["offset"] >> 2
        val = []
        if r["rwmask"]:
            val.append("%s_q%s" % (n, "[i]" if r["array"] else ""))
        if r["romask"]:
            val.append("(%s_ro_i%s & 32'h%08X)" % (n, "[i]" if r["array"] else "", r["romask"]))
        v = " | ".join(val) if val else "32'h0"
        if r["array"]:
            body.append("    for (int i = 0; i < %d; i++)" % r["count"])
            body.append("      if (raddr == 11'(%d + %d * i)) begin rdata = %s; rhit = 1'b1; end"
                        % (w, r["stride"] >> 2, v))
        else:
            body.append("    if (raddr == 11'(%d)) begin rdata = %s; rhit = 1'b1; end" % (w, v))
    body.append("  end")
    hdr = ["// %s: register file of the MAX78000 CNN '%s' block. %s" % (modname, b["name"], banner(MAX_CSV)),
           "// Write: wr_en with word address waddr, PSTRB byte lanes wstrb; only writable bits change (D03).",
           "// Read: combinational rdata/rhit for raddr; reserved bits read 0; write-only ports read 0.",
           "module %s" % modname,
           "  import max78000_regs_pkg::*;",
           "("]
    return "\n".join(hdr + ports + [");"] + body + ["endmodule"]) + "\n"




def max_outputs(root):
    blocks = max_load(root)
    out = OrderedDict([('golden/max78000/max78000_regs.h', max_c_header(blocks)),
                       ('rtl/max78000/regs/gen/max78000_regs_pkg.sv', max_sv_pkg(blocks))])
    for b in blocks:
        out['rtl/max78000/regs/gen/max78000_%s_regs.sv' % b['name']] = max_sv_regfile(b, 'max78000_%s_regs' % b['name'])
    return MAX_CSV, out


# ========================================================================================= nv_full
NV_FULL_HDR = 'cmod/include/arnvdla.h'
NV_FULL_OUT = 'build/nv_full/regs'
# The units of arnvdla.h's register names (NVDLA_<unit>_<register>), longest first so SDP_RDMA beats SDP.
NV_FULL_UNITS = sorted(('GLB', 'GEC', 'MCIF', 'CVIF', 'BDMA', 'CDMA', 'CSC', 'CMAC_A', 'CMAC_B', 'CACC', 'SDP_RDMA',
                        'SDP', 'PDP_RDMA', 'PDP', 'CDP_RDMA', 'CDP', 'RBK', 'CFGROM'), key=lambda s: -len(s))
_DEF = re.compile(r'#define\s+(NVDLA_\w+)\s+(.*?)\s*$')
_CONST = re.compile(r'_MK_(?:ADDR|SHIFT|MASK)_CONST\((0x[0-9a-fA-F]+|\d+)\)$')


def nv_full_dir(opt):
    return opt or os.environ.get('NV_FULL') or os.path.join(ROOT, '..', 'shared', 'upstream', 'nvdla_nv_full')


def nv_full_load(path):
    """arnvdla.h as Units: '// Register NVDLA_X' opens a register; its #defines give the rest."""
    defs, order, ranges = {}, [], {}      # ranges: register -> [(field, 'hi:lo')] in file order
    with open(path) as fh:
        for lineno, ln in enumerate(fh, start=1):
            if ln.startswith('// Register NVDLA_'):
                order.append((ln.split()[2], lineno))
                ranges[order[-1][0]] = []
                continue
            m = _DEF.match(ln)
            if m:
                defs[m.group(1)] = m.group(2)
                cur = order[-1][0] if order else ''
                if m.group(1).startswith(cur + '_') and m.group(1).endswith('_RANGE') and cur:
                    ranges[cur].append((m.group(1)[len(cur) + 1:-len('_RANGE')], m.group(2)))

    def val(name, where):
        v = defs.get(name)
        m = _CONST.match(v) if v is not None else None
        if v is not None and m is None and re.match(r'^(0x[0-9a-fA-F]+|\d+)$', v):
            return int(v, 0)
        if m is None:
            raise DescError('%s: %s: no numeric #define %s' % (where, name, name))
        return int(m.group(1), 0)

    units = OrderedDict()
    for name, lineno in order:
        where = '%s:%d' % (path, lineno)
        rest = name[len('NVDLA_'):]
        unit = next((u for u in NV_FULL_UNITS if rest.startswith(u + '_')), None)
        if unit is None:
            raise DescError('%s: %s: unit not one of %s' % (where, name, ' '.join(NV_FULL_UNITS)))
        u = units.get('NVDLA_' + unit)
        if u is None:
            u = units['NVDLA_' + unit] = Unit('NVDLA_' + unit)
        r = Reg(u, rest[len(unit) + 1:], val(name, where))
        if r.addr & 3 or r.name in u.regs:
            raise DescError('%s: %s misaligned or twice' % (where, name))
        rmask, wmask = val(name + '_READ_MASK', where), val(name + '_WRITE_MASK', where)
        for fname, rng in ranges[name]:
            if not re.match(r'^\d+:\d+$', rng):
                raise DescError('%s: %s_%s_RANGE is %r, not hi:lo' % (where, name, fname, rng))
            msb, lsb = (int(x) for x in rng.split(':'))
            shift = val('%s_%s_SHIFT' % (name, fname), where)
            access = 'RW' if (rmask >> lsb) & 1 and (wmask >> lsb) & 1 else 'WO' if (wmask >> lsb) & 1 else 'RO'
            f = Field(fname, msb, lsb, access, val('%s_%s_DEFAULT' % (name, fname), where), (), '', lineno)
            fm = re.match(r'_MK_FIELD_CONST\((0x[0-9a-fA-F]+|\d+),', defs.get('%s_%s_FIELD' % (name, fname), ''))
            if shift != lsb or not fm or int(fm.group(1), 0) << lsb != f.mask or f.reset >> f.width:
                raise DescError('%s: %s.%s: _SHIFT, _FIELD, _RANGE or _DEFAULT disagree' % (where, name, fname))
            if r.mask() & f.mask:
                raise DescError('%s: %s.%s overlaps another field' % (where, name, fname))
            r.fields.append(f)
        r.fields.sort(key=lambda f: f.lsb)
        if not r.fields:
            raise DescError('%s: %s has no fields' % (where, name))
        if r.reset() != val(name + '_RESET_VAL', where):
            raise DescError('%s: %s: RESET_VAL 0x%x, its fields give 0x%x'
                            % (where, name, val(name + '_RESET_VAL', where), r.reset()))
        u.regs[r.name] = r
        if r.name == 'D_OP_ENABLE_0':
            u.op_off = r.off
    if not units:
        raise DescError('%s: no "// Register" blocks' % path)
    # arnvdla.h's _DUAL is 0 everywhere: the ping-pong registers are, as in nv_small, a unit's D_OP_ENABLE and after
    for u in units.values():
        for r in u.regs.values():
            r.dual = u.pp and r.off >= u.op_off
            if u.pp and r.dual != r.name.startswith('D_'):
                raise DescError('%s: NVDLA_%s_%s: D_ registers must start at D_OP_ENABLE'
                                % (path, u.short.upper(), r.name))
    return units


def nv_full_outputs(root, src):
    """(description, {path: text}) of nv_full, or (None, reason) when its tree is absent."""
    path = os.path.join(src, NV_FULL_HDR)
    if not os.path.isfile(path):
        return None, 'skipped: %s absent' % os.path.normpath(path)
    units = nv_full_load(path)
    out_dir = os.path.join(root, NV_FULL_OUT)
    inc = os.path.relpath(os.path.join(root, 'golden', 'common', 'regfield.h'), out_dir)
    chdr = '/* GENERATED by flow/gen_regs.py from %s (NVIDIA nv_full). Do not edit. */\n' % os.path.relpath(path, root)
    h = gen_regs_h(units, chdr, 'NV_FULL_REGS_H', 'NVDLA nv_full').replace('"%s"' % REGFIELD_H, '"%s"' % inc)
    regmap_h = chdr + ('/* Register table of NVDLA nv_full: the types of nvdla_regmap.h, its own tables. */\n'
                       '#ifndef NV_FULL_REGMAP_H\n#define NV_FULL_REGMAP_H\n#include "nvdla_regmap.h"\n'
                       'extern const nvdla_reg_t nv_full_regs[];\nextern const size_t nv_full_nregs;\n'
                       'const nvdla_reg_t *nv_full_reg_by_name(const char *unit_dot_reg);\n'
                       'const nvdla_reg_t *nv_full_reg_by_addr(uint32_t byte_addr);\n'
                       'extern const nvdla_pp_unit_t nv_full_pp_units[];\n'
                       'extern const size_t nv_full_npp_units;\n#endif\n')
    c = gen_regmap_c(units, chdr, 'nv_full_regmap.h')
    c = re.sub(r'\bnvdla_(regs|nregs|pp_units|npp_units|reg_by_name|reg_by_addr)\b', r'nv_full_\1', c)
    return path, OrderedDict([(NV_FULL_OUT + '/nv_full_regs.h', h), (NV_FULL_OUT + '/nv_full_regmap.h', regmap_h),
                              (NV_FULL_OUT + '/nv_full_regmap.c', c)])


# ============================================================================================ main
COMMITTED = OrderedDict([('nvdla', nvdla_outputs), ('ne16', ne16_outputs), ('max78000', max_outputs)])
ALL = list(COMMITTED) + ['nv_full']


def outputs(acc, root, nv_full=None):
    """(description, {path relative to root: text}) of one accelerator; nv_full: (None, reason) if absent."""
    if acc == 'nv_full':
        return nv_full_outputs(root, nv_full_dir(nv_full))
    return COMMITTED[acc](root)


def main(argv=None):
    ap = argparse.ArgumentParser(prog='python3 -m flow.gen_regs', description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--check', action='store_true', help='compare instead of writing; exit 1 naming stale files')
    ap.add_argument('--root', default=ROOT, help='the repository (default: this checkout)')
    ap.add_argument('--nv-full', help='nv_full tree (default $NV_FULL, else ../shared/upstream/nvdla_nv_full)')
    ap.add_argument('acc', nargs='*', help=' '.join(ALL) + ' (default: all)')
    a = ap.parse_args(argv)
    for acc in a.acc:
        if acc not in ALL:
            ap.error('unknown accelerator %r (one of %s)' % (acc, ', '.join(ALL)))
    stale = 0
    for acc in a.acc or ALL:
        try:
            desc, outs = outputs(acc, a.root, a.nv_full)
        except DescError as e:
            print('flow.gen_regs: error: %s' % e, file=sys.stderr)
            return 2
        if desc is None:
            print('flow.gen_regs: %s %s' % (acc, outs))
            continue
        if a.check and acc == 'nv_full':    # build/ output, made when needed: --check checks the map only
            n = len(re.findall(r'^    \{"NVDLA_\w+", "', outs[NV_FULL_OUT + '/nv_full_regmap.c'], re.M))
            print('flow.gen_regs: nv_full: %d registers of %s read and consistent' % (n, os.path.relpath(desc)))
            continue
        for rel, text in outs.items():
            path = os.path.join(a.root, rel)
            try:
                with open(path) as fh:
                    cur = fh.read()
            except OSError:
                cur = None
            if cur == text:
                continue
            if a.check:
                print('flow.gen_regs --check: %s is out of date with %s (run python3 -m flow.gen_regs %s)'
                      % (rel, desc, acc), file=sys.stderr)
                stale += 1
            else:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, 'w') as fh:
                    fh.write(text)
                print('wrote', rel)
    return 1 if stale else 0


if __name__ == '__main__':
    sys.exit(main())
