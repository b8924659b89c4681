#!/usr/bin/env python3
"""Damaged vendor inputs fail with an error that says where, and with the repro line every failure prints
(issue 41 items 5-7), run by `make test`. Each input is a copy of a file of ../shared made in a temporary folder
and damaged there:
  - pulp-nnx conf.json, read with Debian's jansson: a duplicated key, trailing data, an unknown key, a wrong type,
    a type name NE16 does not take, a value out of range and a layer too large for the bench are each refused
    naming the file and the key and value (line and column for what the parser finds);
  - NVIDIA loadables: a memory content offset that wraps around (0xffffffffffffff00) and an address entry whose
    size reaches past its memory entry are refused by the reader with their file offset; an SDP surface whose
    destination address index (99) lies outside the task's address list fails naming the task and the index,
    not only with the output mismatch that follows; a submit list naming task 5 of 1 is refused by the reader with
    its offset, one naming no task fails naming the task NVIDIA's runtime would never run;
  - ai8xize folders: a sampleoutput.h record one word longer than it says names sampleoutput.h's line and the
    record before it; a cnn.c write to an unmapped address names the address and cnn.c's line, golden-only and
    on our RTL (apb_master's PSLVERR error, then the program's line);
  - every one of these refusals, setup errors included, prints the `repro: make run ...` line of run-time
    failures, and one of them, run as printed, fails with the same error.
Skipped, with the reason, where ../shared's inputs or the simulators are absent."""
import os
from functools import partial
import re
import shutil
import struct
import sys
import tempfile
from tests.checklib import Checks, sim
from tests.checklib import run as run_in_root

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join('..', 'shared')
NNX = os.path.join(SHARED, 'upstream', 'pulp_nnx', 'test', 'tests', 'test_1')
LOADABLE = os.path.join(SHARED, 'upstream', 'nvdla_sw', 'regression', 'flatbufs', 'kmd', 'SDP',
                        'SDP_X1_L0_0_small_fbuf')
SDK = os.path.join(SHARED, 'conformance', 'max78000', 'ai8x', 'ai85-conv1d')
T = Checks('test_input_errors')
check, skip = T.check, T.skip
run = partial(run_in_root, timeout=300)   # (exit status, output) of a command run from the root




def repro_of(out):
    m = re.search(r'^repro: (make run .*)$', out, re.M)
    return m.group(1) if m else None


def refused(what, cmd, pattern, rc_want=2):
    """Run cmd; it must exit rc_want with an error line matching pattern and print a repro line."""
    rc, out = run(cmd)
    err = re.search(pattern, out)
    check(rc == rc_want and err is not None, f'{what}: exit {rc_want}, error matches /{pattern}/', out)
    check(repro_of(out) is not None, f'{what}: prints its repro line', out)
    return out


# ---- pulp-nnx conf.json ---------------------------------------------------------------------------------
def conf_checks(tmp):
    text = open(os.path.join(ROOT, NNX, 'conf.json')).read()
    cases = [
        ('a duplicated key', text.replace('"in_width": 6,', '"in_width": 6,\n    "in_width": 8,'),
         r'conf\.json:\d+:\d+: duplicate object key near \'"in_width"\''),
        ('trailing data', text + '\n}garbage', r'conf\.json:\d+:\d+: end of file expected'),
        ('an unknown key', text.replace('"has_relu"', '"has_reluu"'),
         r"conf\.json: key 'has_reluu' \(value false\) is not a conf\.json field; did you mean 'has_relu'\?"),
        ('a wrong type', text.replace('"in_height": 3', '"in_height": 3.0'),
         r'conf\.json: field in_height = 3\.0: not an integer'),
        ('a type NE16 does not take', text.replace('"out_type": "int8"', '"out_type": "int-1"'),
         r'conf\.json: not an NE16 layer: field out_type = "int-1": NE16 takes uint8, int8, int32'),
        ('a value out of range', text.replace('"in_channel": 14', '"in_channel": 70000'),
         r'conf\.json: field in_channel = 70000 is outside 1\.\.65535'),
        ('a layer too large (4096 x 4096 x 65535)',
         text.replace('"in_height": 3', '"in_height": 4096').replace('"in_width": 6', '"in_width": 4096')
             .replace('"in_channel": 14', '"in_channel": 65535'),
         r'conf\.json: in_height 4096 x in_width 4096 x in_channel 65535, out_channel 32: .* need \d+ bytes, more '
         r'than the bench\'s'),
    ]
    for i, (what, body, pattern) in enumerate(cases):
        d = os.path.join(tmp, f'nnx{i}')
        os.makedirs(d)
        open(os.path.join(d, 'conf.json'), 'w').write(body)
        out = refused(f'conf.json with {what}', [sim('ne16'), '+test=pulpnnx', f'+pulpnnx={d}', '+seed=1'],
                      re.escape(d) + '/' + pattern)
        if i == 0:  # the repro line, run as printed, refuses the same file the same way
            rep = repro_of(out)
            if rep:
                rc2, out2 = run(rep, shell=True, timeout=1800)  # make: builds what is out of date
                check(rc2 != 0 and re.search(pattern, out2) is not None,
                      'its repro line, run as printed (make run), refuses the file the same way', out2)


# ---- NVIDIA loadables --------------------------------------------------------------------------------------
class Flatbuf:
    """Just enough of a flatbuffer to find a field: tables, vectors, strings (little-endian)."""

    def __init__(self, data):
        self.b = bytearray(data)

    def u32(self, o):
        return struct.unpack_from('<I', self.b, o)[0]

    def field(self, t, i):
        vt = t - struct.unpack_from('<i', self.b, t)[0]
        if 4 + 2 * i >= struct.unpack_from('<H', self.b, vt)[0]:
            return 0
        fo = struct.unpack_from('<H', self.b, vt + 4 + 2 * i)[0]
        return t + fo if fo else 0

    def vec(self, t, i):
        f = self.field(t, i)
        v = f + self.u32(f)
        return v + 4, self.u32(v)

    def tables(self, t, i):
        s, n = self.vec(t, i)
        return [s + 4 * k + self.u32(s + 4 * k) for k in range(n)]

    def string(self, t, i):
        f = self.field(t, i)
        s = f + self.u32(f)
        return bytes(self.b[s + 4:s + 4 + self.u32(s)]).decode()


L_MEMS, L_ADDRS, L_BLOBS, L_SUBMITS = 2, 3, 5, 8  # loadable.fbs: the root's memory list, address list, blobs, submits


def patched(fb, tmp, name, fmt, at, value):
    """A copy of the loadable with one field packed anew (struct format fmt at offset at), written to tmp/name."""
    bad = Flatbuf(fb.b)
    struct.pack_into(fmt, bad.b, at, value)
    path = os.path.join(tmp, name)
    open(path, 'wb').write(bad.b)
    return path


def loadable_checks(tmp):
    fb = Flatbuf(open(os.path.join(ROOT, LOADABLE), 'rb').read())
    root = fb.u32(0)
    mem = next(m for m in fb.tables(root, L_MEMS) if fb.vec(m, 6)[1])
    offsets, _ = fb.vec(mem, 6)
    path = patched(fb, tmp, 'wrapped_offset_fbuf', '<Q', offsets, 0xffffffffffffff00)
    refused('a loadable whose content offset is 0xffffffffffffff00', [sim('nvdla'), '+test=fw', f'+loadable={path}',
            '+seed=1', '+golden_only'],
            re.escape(path) + rf': offset {offsets}: memory entry \d+: content \S+ at offset 18446744073709551360 '
            r'\(0xffffffffffffff00; \d+ bytes\) overflows')
    # An address entry whose size reaches past its memory entry (2^64-1 passed unread until the fuzz lane found it).
    addr = fb.tables(root, L_ADDRS)[0]
    path = patched(fb, tmp, 'addr_size_huge_fbuf', '<Q', fb.field(addr, 3), 0xffffffffffffffff)
    refused('a loadable whose address entry size is 2^64-1', [sim('nvdla'), '+test=fw', f'+loadable={path}',
            '+seed=1', '+golden_only'],
            re.escape(path) + r': offset \d+: address entry \d+: 18446744073709551615 \(0xffffffffffffffff\) bytes at '
            r'offset \d+ overflow memory entry \d+\'s \d+ bytes')
    # SDP's surface descriptor: five dla_data_cube of 28 bytes (src, x1, x2, y, dst); `address` is the int16 at 2.
    surf = next(t for t in fb.tables(root, L_BLOBS) if 'SurfList' in fb.string(t, 0))
    data, _ = fb.vec(surf, 5)
    path = patched(fb, tmp, 'dst_index_99_fbuf', '<h', data + 4 * 28 + 2, 99)
    refused('a loadable whose SDP destination address index is 99', [sim('nvdla'), '+test=fw',
            f'+loadable={path}', '+seed=1', '+golden_only', '+fw_golden=none'],
            rf'loadable {re.escape(path)}: task \d+: address-list index 99 \(a DMA address\) outside the task\'s \d+ '
            r'entries', rc_want=1)
    # The submit list (the order NVIDIA's runtime runs the tasks in): a task id past the task list, and a task that
    # no entry names (NVIDIA's runtime would never run it).
    sub = fb.tables(root, L_SUBMITS)[0]
    ids, _ = fb.vec(sub, 1)
    path = patched(fb, tmp, 'submit_task_5_fbuf', '<H', ids, 5)
    refused('a loadable whose submit list names task 5', [sim('nvdla'), '+test=fw', f'+loadable={path}', '+seed=1',
            '+golden_only'], re.escape(path) + rf': offset {ids}: submit entry 0 names task 5; the task list has 1')
    path = patched(fb, tmp, 'submit_none_fbuf', '<I', ids - 4, 0)
    refused('a loadable whose submit entry names no task', [sim('nvdla'), '+test=fw', f'+loadable={path}', '+seed=1',
            '+golden_only'], re.escape(path) + r': task 0 \(index 0\) is in no entry of the submit list: NVIDIA\'s '
            r'runtime would never run it')


# ---- ai8xize folders ---------------------------------------------------------------------------------------
def sdk_checks(tmp):
    d = os.path.join(tmp, 'sdk_long_record')
    shutil.copytree(os.path.join(ROOT, SDK), d)
    so = os.path.join(d, 'sampleoutput.h')
    text = open(so).read()
    # The first record's length one word short of its data: its last word is then read as the next address.
    m = re.search(r'(0x5040[0-9a-f]{4}, 0x[0-9a-f]{8}, )0x([0-9a-f]{8})', text)
    text = text[:m.start(2)] + f'{int(m.group(2), 16) + 1:08x}' + text[m.end(2):]
    open(so, 'w').write(text)
    refused('a sampleoutput.h record one word too long', [sim('max78000'), f'+cfg={d}', '+seed=1', '+golden_only'],
            re.escape(so) + r':\d+: SAMPLE_OUTPUT, word \d+: known-answer record at 0x[0-9a-f]{8} .*; the record '
            r'before it starts at word 0 \(line \d+, address 0x5040[0-9a-f]{4}\) \(read by \S+main\.c:\d+\)')
    d = os.path.join(tmp, 'sdk_unmapped')
    shutil.copytree(os.path.join(ROOT, SDK), d)
    cnn = os.path.join(d, 'cnn.c')
    lines = open(cnn).read().split('\n')
    n = next(i for i, s in enumerate(lines) if '*((volatile uint32_t *) 0x50001000) = ' in s)
    lines[n] = lines[n].replace('0x50001000', '0x5fff0000')
    open(cnn, 'w').write('\n'.join(lines))
    refused('a cnn.c write to an unmapped address, golden-only', [sim('max78000'), f'+cfg={d}', '+seed=1',
            '+golden_only'], r'to 0x5fff0000 answered with an error by the golden model \(no register or memory '
            rf'there\) \({re.escape(cnn)}:{n + 1}\)', rc_want=1)
    refused('the same write on our RTL', [sim('max78000'), f'+cfg={d}', '+seed=1'],
            rf'the write of 0x5fff0000 that answered PSLVERR is the program\'s \({re.escape(cnn)}:{n + 1}\)',
            rc_want=1)


def setup_checks(tmp):
    missing = os.path.join(tmp, 'absent.trace')
    out = refused('a trace that does not exist', [sim('nvdla'), f'+trace={missing}'], re.escape(missing))
    rep = repro_of(out) or ''
    check(f'TRACE={missing}' in rep and 'SEED=' not in rep,
          'a trace refused before its seed is known: repro line without a seed (make run replays its own)', rep)


def main():
    have = {a: os.path.isfile(sim(a)) for a in ('ne16', 'nvdla', 'max78000')}
    with tempfile.TemporaryDirectory(dir=os.path.join(ROOT, 'build')) as tmp:
        for acc, inp, fn in (('ne16', NNX, conf_checks), ('nvdla', LOADABLE, loadable_checks),
                             ('max78000', SDK, sdk_checks), ('nvdla', None, setup_checks)):
            if not have[acc]:
                skip(f'{fn.__name__}: build/{acc}/sim is not built (make build)')
            elif inp and not os.path.exists(os.path.join(ROOT, inp)):
                skip(f'{fn.__name__}: {inp} is absent (../shared beside the checkout)')
            else:
                fn(tmp)
    sys.exit(T.summary())


if __name__ == '__main__':
    main()
