#!/usr/bin/env python3
"""Convolution weights larger than their CBUF banks, and the golden comparison of .cfg traces (run by `make test`;
issue 22, docs/nvdla_conv.md):
  - NVIDIA's dc_8x8x36 trace with its weight banks cut from 4 to 2 (9216 weight bytes in 8192: streamed, one kernel
    group of 4608 in the ring) keeps NVIDIA's CRC on the golden model and on our RTL (nv_small hangs on it: an
    open finding, docs/nvdla_conv.md);
  - the same trace with 1 weight bank (a group does not fit: nv_small would hang) fails golden-only, printing the
    model's reason;
  - a .cfg trace whose CRC matches but whose output differs from the golden model fails, naming the first differing
    element: a bit of the layer's output flipped on the wires (+fault=wdata_flip), the trace's CRC replaced by the
    CRC of that faulty output;
  - a conv_wstream layer golden-only is computed, not refused.
Skipped, with the reason, where ../shared/conformance is absent."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACE = os.path.join(ROOT, '..', 'shared', 'conformance', 'nvdla', 'dc_8x8x36_4x4x36x16_dilation_int8_0')
SIM = os.path.join(ROOT, 'build', 'nvdla', 'sim')
T = Checks('test_conv_wstream')
check, skip = T.check, T.skip


def run(cmd):
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def variant(tmp, name, edit):
    """A copy of the dc_8x8x36 trace directory named `name`, its .cfg text passed through edit()."""
    d = os.path.join(tmp, name)
    shutil.copytree(TRACE, d)
    src = os.path.join(d, os.path.basename(TRACE) + '.cfg')
    cfg = os.path.join(d, name + '.cfg')
    text = open(src).read()
    os.remove(src)
    open(cfg, 'w').write(edit(text))
    return cfg


def banks(text, value):
    """Both D_BANK writes (CDMA and CSC) set to value."""
    out, n = re.subn(r'(NVDLA_(CDMA|CSC)\.D_BANK_0, )0x[0-9a-f]+', r'\g<1>' + value, text)
    assert n == 2, 'expected two D_BANK writes'
    return out


def main():
    if not os.path.isdir(TRACE):
        print(f'skip: {TRACE} is absent (needs ../shared/conformance)')
        return 0
    for s in (SIM,):
        if not os.access(s, os.X_OK):
            print(f'FAIL {s} is not built (make build)')
            return 1
    os.makedirs(os.path.join(ROOT, 'build'), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=os.path.join(ROOT, 'build')) as tmp:
        # streamed: 2 weight banks (0x10003: WEIGHT_BANK 1, DATA_BANK 3) for 9216 weight bytes
        streamed = variant(tmp, 'dc_8x8x36_wstream', lambda t: banks(t, '0x10003'))
        rc, out = run([SIM, f'+cfg={streamed}', '+golden_only', '+seed=1'])
        check(rc == 0 and re.search(r'check_crc .* ok', out) is not None,
              "streamed weights (2 banks for 9216 bytes): golden-only keeps NVIDIA's CRC", out)
        # (nv_small hangs on this variant after the first kernel group: an open finding, docs/nvdla_conv.md)
        rc, out = run([SIM, f'+cfg={streamed}', '+seed=1', '+stall=1'])
        check(rc == 0 and re.search(r'check_crc .* ok', out) is not None and 'MISMATCH' not in out,
              "streamed weights on ours: NVIDIA's CRC and the golden comparison pass", out)

        # refused: 1 weight bank (4096 bytes) cannot hold a kernel group of 4 x 4 x 36 x 8 = 4608 bytes
        refused = variant(tmp, 'dc_8x8x36_nogroup', lambda t: banks(t, '0x00003'))
        rc, out = run([SIM, f'+cfg={refused}', '+golden_only', '+seed=1'])
        check(rc != 0 and re.search(r'golden model: .*CONV grp 0: CDMA\.D_BANK\.WEIGHT_BANK: 1 weight banks .* hold no '
                                    r'whole kernel group: a group is 4608 bytes', out) is not None,
              'golden-only on a layer whose kernel group exceeds the weight ring fails, printing the reason', out)

        # CRC matches, golden comparison differs: flip an output bit on the wires, give the trace that output's CRC
        rc, out = run([SIM, f'+cfg={streamed}', '+seed=1', '+fault=wdata_flip:3'])
        m = re.search(r'expected CRC 0x[0-9a-f]{8}, DUT memory gives (0x[0-9a-f]{8})', out)
        check(rc != 0 and m is not None, 'a flipped output bit changes the trace CRC (the fault lands in the output)',
              out)
        if m:
            faulty = variant(tmp, 'dc_8x8x36_crc_of_faulty', lambda t: re.sub(
                r'(check_crc\(sync_id_0, 1, 0xa0000000, 0x500, )0x[0-9a-f]+', r'\g<1>' + m.group(1),
                banks(t, '0x10003')))
            rc, out = run([SIM, f'+cfg={faulty}', '+seed=1', '+fault=wdata_flip:3'])
            mm = re.search(r'MISMATCH SDP grp 0 output[^\n]*', out)
            check(rc != 0 and re.search(r'check_crc .* ok', out) is not None and mm is not None and
                  re.search(r'first at SDP grp 0 c \d+ h \d+ w \d+ addr 0x[0-9a-f]+: expected 0x[0-9a-f]+ got',
                            mm.group(0)),
                  'a .cfg trace whose CRC matches but whose output differs from the golden model fails, naming the '
                  'first differing element' + (f': {mm.group(0).strip()}' if mm else ''), out)

    rc, out = run([SIM, '+test=conv_wstream', '+golden_only', '+seed=1'])
    # a generator run golden-only has no expectation of its own to check, so its one error is "nothing was
    # checked" (docs/no_silent_pass.md); a refused layer would add "golden model: <reason>"
    errors = [ln for ln in out.splitlines() if 'ERROR' in ln]
    check(errors and all('nothing was checked' in ln for ln in errors) and 'golden model:' not in out,
          'conv_wstream golden-only: the streamed layer is computed (no refusal)', out)
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
