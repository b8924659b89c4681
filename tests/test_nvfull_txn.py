#!/usr/bin/env python3
"""NVIDIA's nv_full trace-player tests (input.txn, make run TXN=; docs/nvdla_nv_full.md) on the golden model, run by
`make test`. Each case is a copy of one of NVIDIA's tests in a temporary folder, changed there:
  - sdp_relu_int16 with its input and output moved to CVSRAM: NVIDIA's expected output, read there;
  - sanity1 and sanity1_cvsram with a dump_mem of BDMA's destination added (NVIDIA's own trace has none): the
    model's copy equals the source file, in DBB and in CVSRAM; one byte of the expected file flipped fails naming
    its address;
  - a corrupted register value (line 4) and a data line cut short are refused naming file:line and the field;
  - a destination moved to the end of DBB's window: BDMA's copy leaves the harness' memory and the run fails
    naming BDMA and the first address outside;
  - the same test on a DUT of another register map (ours) is skipped, saying why.
Skipped, with the reason, where ../shared's nv_full or the simulator is absent."""
import os
import re
import shutil
import sys
import tempfile
from functools import partial
from tests.checklib import Checks, sim
from tests.checklib import run as run_in_root

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACES = os.path.join('..', 'shared', 'upstream', 'nvdla_nv_full', 'verif', 'traces', 'traceplayer')
T = Checks('test_nvfull_txn')
check, skip = T.check, T.skip
run = partial(run_in_root, timeout=120)


def copy(tmp, test, name):
    dst = os.path.join(tmp, name)
    shutil.copytree(os.path.join(ROOT, TRACES, test), dst)
    os.chmod(dst, 0o755)
    for f in os.listdir(dst):
        os.chmod(os.path.join(dst, f), 0o644)
    return dst


def edit(folder, fn, name='input.txn'):
    path = os.path.join(folder, name)
    lines = open(path).read().split('\n')
    open(path, 'w').write('\n'.join(fn(lines)))
    return path


def flip_first_byte(lines):
    """The first data byte of a .dat file (0xce in NVIDIA's sample_surf.dat) made 0xcf."""
    i = next(i for i, ln in enumerate(lines) if ln.startswith('0x'))
    return lines[:i] + [lines[i].replace('0xce', '0xcf', 1)] + lines[i + 1:]


def to_cvsram(lines):
    """sdp_relu_int16's input and output moved from DBB (0x8...) to CVSRAM (0x5...): addresses, and the RAM type
    bits (1 = DBB, 0 = CVSRAM) of SDP_RDMA.D_SRC_DMA_CFG (word 0x281d) and SDP.D_DST_DMA_CFG (0x2c2d)."""
    out = []
    for ln in lines:
        ln = ln.replace('0x80200000', '0x50200000').replace('0x80800000', '0x50800000')
        f = ln.split()
        if len(f) >= 3 and f[1] in ('0xffff281d', '0xffff2c2d'):
            if f[0] == 'write_reg':
                ln = f'write_reg {f[1]} 0x0'
            elif f[0] == 'read_reg':
                ln = f'read_reg {f[1]} {f[2]} 0x00000000'
        out.append(ln)
    return out


def golden(folder, *args):
    return run([sim('nvdla'), f'+cfg={folder}', '+golden_only', '+seed=1', *args])


def main():
    if not os.path.isfile(sim('nvdla')):
        skip('build/nvdla/sim is not built (make build)')
        sys.exit(T.summary())
    if not os.path.isdir(os.path.join(ROOT, TRACES)):
        skip(f'{TRACES} is absent (../shared beside the checkout)')
        sys.exit(T.summary())
    with tempfile.TemporaryDirectory(dir=os.path.join(ROOT, 'build')) as tmp:
        # BDMA's destination against the source file: 8 lines of 256 bytes, both strides 0x100, so the copy is the
        # file's first 0x800 bytes
        for test, dst in (('sanity1', '0x81000000'), ('sanity1_cvsram', '0x51000000')):
            d = copy(tmp, test, test + '_dumped')
            edit(d, lambda ls, dst=dst: ls + [f'dump_mem {dst} 0x800 sample_surf.dat'])
            rc, out = golden(d)
            check(rc == 0 and re.search(r'2048 bytes of the trace\'s expected memory', out) is not None,
                  f'{test} with a dump_mem of its destination: the model\'s BDMA copy equals the source', out)
            edit(d, flip_first_byte, 'sample_surf.dat')
            # the load comes from the same file: flip a byte of the expected copy only by loading a pristine one
            shutil.copy(os.path.join(ROOT, TRACES, test, 'sample_surf.dat'), os.path.join(d, 'source.dat'))
            edit(d, lambda ls: [ln.replace('sample_surf.dat', 'source.dat', 1) if ln.startswith('load_mem') else ln
                                for ln in ls])
            rc, out = golden(d)
            want = (f'check_mem at 0x1{dst[2:]} .byte 0 of 2048 from CVSRAM at {dst}.' if 'cvsram' in test else
                    f'check_mem at {dst} .byte 0 of 2048.') + ': expected 0xcf got 0xce'
            check(rc == 1 and re.search(want, out) is not None,
                  f'{test}: a wrong expected byte fails naming its address {dst}', out)

        # SDP with both memories in CVSRAM (NVIDIA's test has them in DBB): the RAM-type bits select the memory
        d = copy(tmp, 'sdp_relu_int16', 'sdp_relu_int16_cvsram')
        edit(d, to_cvsram)
        rc, out = golden(d)
        check(rc == 0 and '4096 bytes of the trace\'s expected memory' in out,
              'sdp_relu_int16 moved to CVSRAM (SDP_RDMA.D_SRC_DMA_CFG, SDP.D_DST_DMA_CFG = 0): NVIDIA\'s expected '
              'output, read from CVSRAM', out)

        d = copy(tmp, 'sanity1', 'bad_value')
        edit(d, lambda ls: ls[:3] + [ls[3].replace('0x800', '0x8g0')] + ls[4:])
        rc, out = golden(d)
        check(rc == 2 and re.search(r'bad_value/input\.txn:4: register data must be a hexadecimal number 0x\.\.\. '
                                    r"\(saw '0x8g0'\)", out) is not None,
              'a corrupted register value names input.txn:4 and the field', out)

        d = copy(tmp, 'sanity1', 'short_line')
        edit(d, lambda ls: ls[:12] + [ls[12].rsplit(' ', 1)[0]] + ls[13:], 'sample_surf.dat')
        rc, out = golden(d)
        check(rc == 2 and re.search(r'short_line/sample_surf\.dat:13: data line has 31 bytes, not 32', out)
              is not None, 'a data line cut short names sample_surf.dat:13', out)

        d = copy(tmp, 'sanity1', 'outside')
        edit(d, lambda ls: [ln.replace('0x81000000', '0x8fffff00') for ln in ls])
        rc, out = golden(d)
        check(rc == 1 and re.search(r"DMA outside the stimulus's memory: the golden model's BDMA wrote .* at "
                                    r'0x90000000', out) is not None,
              "BDMA's copy past DBB's window fails naming BDMA and 0x90000000", out)

        rc, out = run([sim('nvdla'), f'+cfg={os.path.join(TRACES, "sanity1")}', '+seed=1'])
        check(rc == 77 and 'DUT ours has another map: run it with GOLDEN_ONLY=1' in out,
              'on a DUT of another register map the test is skipped, saying why', out)
    sys.exit(T.summary())


if __name__ == '__main__':
    main()
