#!/usr/bin/env python3
"""The camera path of the MAX78000 virtual platform (tb/max78000/vp/vp_camera.c, flow/fw_camera.py,
docs/max78000_fw.md), fast checks beside the lists' runs of mnist-streaming:
  - the frame's encoding: the grey pixel p = 127 - s gives back the int8 sample s through mnist-streaming's own
    conversion `(~((r + g + b) / 3)) - 128` (uint32 arithmetic, stored as int8), for every s;
  - flow/fw_camera.py writes the SDK example's sampledata.h as that frame (P6, 28x28) with the known answer of
    main_riscv.c's cnn_check() (class 7), and refuses a sampledata.h without INPUT_0 naming file and line;
  - the platform (golden-only, about 1 s a run) refuses a frame of the wrong size naming both sizes, and fails a
    frame whose known answer the firmware's printed classification does not match, naming both classes.
Skipped, with the reason, where the SDK or the built example (make fw-examples) is absent."""
import os
import sys

from flow import fw_camera
from tests.checklib import Checks, run, sim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SDK = os.path.join('..', 'shared', 'upstream', 'max78000_sdk')
EXAMPLE = os.path.join(SDK, 'Examples', 'MAX78000', 'CNN', 'mnist-streaming')
FW = os.path.join('build', 'max78000', 'fw', 'mnist-streaming')
TMP = os.path.join('build', 'test_fw_camera')
T = Checks('test_fw_camera')
check, skip = T.check, T.skip


def test_encoding():
    bad = []
    for s in range(-128, 128):
        p = 127 - s
        data = p | p << 8 | p << 16                                    # the FIFO word: R, G, B
        v = ((~(((data & 0xff) + (data >> 8 & 0xff) + (data >> 16)) // 3)) - 128) & 0xFFFFFFFF
        b = v & 0xFF                                                   # *ptr8 = ...: the low byte, as int8
        if (b - 256 if b & 0x80 else b) != s:
            bad.append(s)
    check(not bad, 'the grey pixel 127 - s gives back every int8 sample s through the firmware\'s conversion',
          f'samples not recovered: {bad[:10]}')


def test_tool():
    out = os.path.join(TMP, 'camera.ppm')
    rc, log = run([sys.executable, '-m', 'flow.fw_camera', EXAMPLE, out])
    with open(os.path.join(ROOT, out), 'rb') as f:
        data = f.read()
    check(rc == 0 and data.startswith(b'P6\n') and b'# known answer: class 7, outputs ' in data
          and len(data.split(b'\n255\n', 1)[1]) == 3 * 28 * 28,
          'fw_camera writes the example\'s input as a 28x28 P6 frame with the known answer class 7', log)
    pix = data.split(b'\n255\n', 1)[1]
    s = fw_camera.samples(os.path.join(ROOT, EXAMPLE, 'sampledata.h'))
    check(all(pix[3 * i] == pix[3 * i + 1] == pix[3 * i + 2] == 127 - s[i] for i in range(28 * 28)),
          'every pixel is the grey 127 - s of its sample, in memory order')
    broken = os.path.join(TMP, 'broken')
    os.makedirs(os.path.join(ROOT, broken), exist_ok=True)
    with open(os.path.join(ROOT, broken, 'sampledata.h'), 'w') as f:
        f.write('// no input here\n')
    rc, log = run([sys.executable, '-m', 'flow.fw_camera', broken, os.path.join(TMP, 'x.ppm')])
    check(rc == 1 and f"{broken}/sampledata.h:1: no '#define INPUT_0" in log,
          'a sampledata.h without INPUT_0 is refused naming file and line', log)
    return out


def platform(extra):
    return run([sim('max78000'), '+test=firmware', f'+firmware={FW}/src/build/max78000.elf',
                f'+fw_riscv={FW}/src/buildrv/max78000-riscv.elf', f'+fw_sdk={SDK}', '+golden_only'] + extra,
               timeout=120)


def test_platform(ppm):
    with open(os.path.join(ROOT, ppm), 'rb') as f:
        data = f.read()
    small = os.path.join(TMP, 'small.ppm')
    with open(os.path.join(ROOT, small), 'wb') as f:
        f.write(b'P6\n4 4\n255\n' + bytes(48))
    rc, out = platform([f'+fw_camera={small}'])
    check(rc != 0 and 'is 4x4, the sensor\'s output size is 28x28' in out and 'on the RISC-V core' in out,
          'a frame of the wrong size fails naming both sizes', out)
    wrong = os.path.join(TMP, 'wrong.ppm')
    with open(os.path.join(ROOT, wrong), 'wb') as f:
        f.write(data.replace(b'# known answer: class 7, outputs', b'# known answer: class 3, outputs', 1)
                .replace(b' 39323', b' 1', 1))
    rc, out = platform([f'+fw_camera={wrong}'])
    check(rc != 0 and 'printed output 39323 of class 7, the known answer of' in out,
          'a frame whose known answer differs from what the firmware prints fails naming the output', out)
    rc, out = platform([f'+fw_camera={ppm}'])
    check(rc == 0 and 'frame 1 classified as class 7' in out and 'the run ends: the firmware polls PB1' in out
          and 'equals the camera\'s frame' in out, 'the frame of fw_camera passes with class 7 and UART1\'s image', out)


def main():
    test_encoding()
    if not os.path.isdir(os.path.join(ROOT, EXAMPLE)):
        skip(f'the SDK example {EXAMPLE} is absent')
        return T.summary()
    os.makedirs(os.path.join(ROOT, TMP), exist_ok=True)
    ppm = test_tool()
    if not os.path.isfile(os.path.join(ROOT, FW, 'src', 'buildrv', 'max78000-riscv.elf')) or \
            not os.access(sim('max78000'), os.X_OK):
        skip(f'{FW} or build/max78000/sim is not built (make fw-examples, make build)')
        return T.summary()
    test_platform(ppm)
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
