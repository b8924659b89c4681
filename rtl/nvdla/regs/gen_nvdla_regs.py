#!/usr/bin/env python3
"""Generate the NVDLA register blocks from the one register description, nvdla_regs.csv.

Outputs (paths relative to the repository root):
  rtl/nvdla/regs/gen/nvdla_regs_pkg.sv         packed structs per unit (D_ config, S_ config, HW inputs,
                                               per-group results) and their reset constants
  rtl/nvdla/regs/gen/nvdla_<unit>_regfile.sv   one register file per unit: storage, write masks, access
                                               types, registered read mux; ping-pong units instantiate the
                                               hand-written rtl/nvdla/nvdla_pingpong.sv
  golden/nvdla/nvdla_regs.h                    #define addresses and field SHIFT/MASK macros
  golden/nvdla/nvdla_regmap.{h,c}              const register table for drivers, golden model and tests

Usage: gen_nvdla_regs.py          write the files
       gen_nvdla_regs.py --check  exit 1 (naming the files) if any generated file is out of date
Python 3 standard library only.
"""
import csv
import os
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
CSV_PATH = os.path.join(HERE, 'nvdla_regs.csv')
CSV_REL = 'rtl/nvdla/regs/nvdla_regs.csv'

ACCESS = ('RW', 'RO', 'RC', 'WO', 'W1C', 'RWHC', 'RWT')

# Fields whose behaviour is not plain storage (spec §4.4). kind 'zero': reads 0, writes ignored;
# 'ext': value comes from hand-written logic (input port). readback: does a write read back (C table).
SPECIAL_FIELDS = {
    ('NVDLA_SDP', 'S_LUT_ACCESS_DATA_0', 'LUT_DATA'): ('zero', False),
    ('NVDLA_CDP', 'S_LUT_ACCESS_CFG_0', 'LUT_ADDR'): ('ext', True),
    ('NVDLA_CDP', 'S_LUT_ACCESS_DATA_0', 'LUT_DATA'): ('ext', False),
}
# Registers whose CSB writes are reported to hand-written logic (one-cycle strobe, data = req_wdat).
WRITE_STROBES = {
    ('NVDLA_BDMA', 'CFG_OP_0'), ('NVDLA_BDMA', 'CFG_LAUNCH0_0'), ('NVDLA_BDMA', 'CFG_LAUNCH1_0'),
    ('NVDLA_GLB', 'S_INTR_SET_0'),
    ('NVDLA_CDP', 'S_LUT_ACCESS_CFG_0'), ('NVDLA_CDP', 'S_LUT_ACCESS_DATA_0'),
}
# Registers whose CSB reads are reported (side effect on read: LUT address auto-increment).
READ_STROBES = {('NVDLA_CDP', 'S_LUT_ACCESS_DATA_0')}
# Registers exported as a whole 32-bit word (W1C registers always are).
WORD_VIEWS = {('NVDLA_GLB', 'S_INTR_MASK_0')}

SV_KEYWORDS = {'reg', 'wire', 'logic', 'type', 'begin', 'end', 'case', 'default', 'input', 'output', 'module',
               'int', 'bit', 'byte', 'do', 'if', 'else', 'for', 'struct', 'enum', 'packed', 'string', 'time',
               'event', 'table', 'config', 'cell', 'library', 'bind', 'class', 'final', 'new', 'null', 'priority'}


class Field:
    def __init__(self, row, lineno):
        self.name = row['field']
        self.msb = int(row['msb'])
        self.lsb = int(row['lsb'])
        self.access = row['access']
        self.reset = int(row['reset'], 0)
        self.width = self.msb - self.lsb + 1
        self.lineno = lineno
        self.kind = None      # classified later
        self.sv = None        # struct member / signal name


class Reg:
    def __init__(self, unit, name, addr):
        self.unit = unit
        self.name = name
        self.addr = addr
        self.off = addr & 0xFFF
        self.fields = []
        self.dual = False

    @property
    def woff(self):
        return self.off >> 2

    def mask(self, pred=lambda f: True):
        m = 0
        for f in self.fields:
            if pred(f):
                m |= ((1 << f.width) - 1) << f.lsb
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

    @property
    def short(self):
        return self.name[len('NVDLA_'):].lower()

    @property
    def base(self):
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


def die(msg):
    sys.stderr.write('gen_nvdla_regs.py: error: %s\n' % msg)
    sys.exit(2)


def load(path):
    units = OrderedDict()
    with open(path, newline='') as fh:
        rd = csv.DictReader(fh)
        want = ['unit', 'register', 'byte_addr', 'field', 'msb', 'lsb', 'access', 'reset', 'meaning']
        if rd.fieldnames != want:
            die('%s:1: header %r, expected %r' % (CSV_REL, rd.fieldnames, want))
        for i, row in enumerate(rd, start=2):
            where = '%s:%d' % (CSV_REL, i)
            try:
                f = Field(row, i)
                addr = int(row['byte_addr'], 0)
            except (ValueError, TypeError) as e:
                die('%s: bad number (%s)' % (where, e))
            if f.access not in ACCESS:
                die('%s: unknown access %r' % (where, f.access))
            if not (0 <= f.lsb <= f.msb <= 31) or f.reset >> f.width:
                die('%s: bad bit range or reset for %s' % (where, f.name))
            u = units.setdefault(row['unit'], Unit(row['unit']))
            r = u.regs.get(row['register'])
            if r is None:
                r = u.regs[row['register']] = Reg(u, row['register'], addr)
            elif r.addr != addr:
                die('%s: %s at 0x%x and 0x%x' % (where, r.name, r.addr, addr))
            if addr & 3 or (addr >> 12) != (u.base >> 12):
                die('%s: address 0x%x misaligned or outside the unit window' % (where, addr))
            if r.mask() & (((1 << f.width) - 1) << f.lsb):
                die('%s: field %s overlaps another field of %s' % (where, f.name, r.name))
            r.fields.append(f)
            if r.name == 'D_OP_ENABLE_0':
                u.op_off = r.off
    for u in units.values():
        classify(u)
    return units


def classify(u):
    names = {}
    for r in u.regs.values():
        r.dual = u.pp and r.off >= u.op_off
        if u.pp and not r.dual and not r.name.startswith('S_'):
            die('%s.%s: single register in a ping-pong unit must be named S_*' % (u.name, r.name))
        if r.dual and not r.name.startswith('D_'):
            die('%s.%s: ping-pong register must be named D_*' % (u.name, r.name))
        for f in r.fields:
            names[f.name] = names.get(f.name, 0) + 1
    for r in u.regs.values():
        for f in r.fields:
            sp = SPECIAL_FIELDS.get((u.name, r.name, f.name))
            if sp:
                f.kind = sp[0]
            elif u.pp and r.name == 'S_STATUS_0':
                f.kind = 'pp_status'
            elif u.pp and r.name == 'S_POINTER_0':
                f.kind = {'PRODUCER': 'pp_producer', 'CONSUMER': 'pp_consumer'}[f.name]
            elif f.access == 'RWHC':
                if not (r.name == 'D_OP_ENABLE_0' and f.name == 'OP_EN'):
                    die('%s.%s.%s: RWHC is only D_OP_ENABLE.OP_EN' % (u.name, r.name, f.name))
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
HDR = '// GENERATED by rtl/nvdla/regs/gen_nvdla_regs.py from %s. Do not edit.\n' % CSV_REL


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
    views = [r for r in regs if (u.name, r.name) in WORD_VIEWS]
    wstb = [r for r in regs if (u.name, r.name) in WRITE_STROBES]
    rstb = [r for r in regs if (u.name, r.name) in READ_STROBES]
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
CHDR = '/* GENERATED by rtl/nvdla/regs/gen_nvdla_regs.py from %s. Do not edit. */\n' % CSV_REL


def cname(u, r):
    return 'NVDLA_%s_%s' % (u.short.upper(), r.name)


def gen_regs_h(units):
    o = [CHDR, '/* NVDLA register byte addresses and field SHIFT/MASK (mask in place) macros. */\n',
         '#ifndef NVDLA_REGS_H\n#define NVDLA_REGS_H\n\n']
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
    sp = SPECIAL_FIELDS.get((u.name, r.name, f.name))
    if sp:
        return sp[1]
    return f.access in ('RW', 'RWT', 'RWHC')


def gen_regmap_c(units):
    regs = sorted([(u, r) for u in units.values() for r in u.regs.values()], key=lambda x: x[1].addr)
    o = [CHDR, '#include "nvdla_regmap.h"\n#include <stdlib.h>\n#include <string.h>\n\n']
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


def outputs(units):
    out = OrderedDict()
    out['rtl/nvdla/regs/gen/nvdla_regs_pkg.sv'] = gen_pkg(units)
    for u in units.values():
        out['rtl/nvdla/regs/gen/nvdla_%s_regfile.sv' % u.short] = gen_regfile(u)
    out['golden/nvdla/nvdla_regs.h'] = gen_regs_h(units)
    out['golden/nvdla/nvdla_regmap.h'] = REGMAP_H
    out['golden/nvdla/nvdla_regmap.c'] = gen_regmap_c(units)
    return out


def main(argv):
    check = '--check' in argv[1:]
    bad = [a for a in argv[1:] if a != '--check']
    if bad:
        die('unknown argument %s (usage: gen_nvdla_regs.py [--check])' % bad[0])
    units = load(CSV_PATH)
    stale = []
    for rel, text in outputs(units).items():
        path = os.path.join(ROOT, rel)
        try:
            with open(path) as fh:
                cur = fh.read()
        except OSError:
            cur = None
        if cur == text:
            continue
        if check:
            stale.append(rel)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as fh:
                fh.write(text)
            print('wrote', rel)
    if stale:
        for rel in stale:
            sys.stderr.write('gen_nvdla_regs.py --check: %s is out of date (run rtl/nvdla/regs/gen_nvdla_regs.py)\n'
                             % rel)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
