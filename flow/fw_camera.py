#!/usr/bin/env python3
"""The camera frame of an SDK camera example, as a binary PPM for the virtual platform's sensor (+fw_camera=;
tb/max78000/vp/vp_camera.c, docs/max78000_fw.md).

mnist-streaming's RISC-V core reads each pixel from the camera interface as one FIFO word (R, G, B in its low three
bytes) and gives the CNN the int8 `(~((r + g + b) / 3)) - 128`: a grey pixel p gives 127 - p, so the grey pixel
p = 127 - s gives back the sample s. This tool writes the example's own input (sampledata.h's INPUT_0: 1x28x28 int8,
four to a 32-bit word, little-endian, row by row) as that grey frame, so the CNN sees the input whose outputs the
generator recorded: the comment line `# known answer: class K, outputs v0 v1 ...` carries them, from main_riscv.c's
cnn_check() (the expected 32-bit output words; K is the largest), and the platform checks what the firmware prints
against it. Nothing is copied from the SDK into the repository: the frame is made in the build folder.

Usage: python3 -m flow.fw_camera <example folder> <out.ppm> [--size WxH]
  exit 1 with file:line when the folder's sampledata.h or cnn_check() cannot be read as described.
"""
import argparse
import os
import re
import sys


class ReadError(Exception):
    pass


def samples(path):
    """The int8 samples of INPUT_0 in sampledata.h, in memory order."""
    with open(path) as f:
        text = f.read()
    m = re.search(r'#define\s+INPUT_0\s*\{(.*?)\}', text, re.S)
    if not m:
        raise ReadError(f"{path}:1: no '#define INPUT_0 {{ ... }}'")
    out = []
    for tok in m.group(1).replace('\\', ' ').split(','):
        tok = tok.strip()
        if not tok:
            continue
        if not re.fullmatch(r'0x[0-9a-fA-F]{1,8}', tok):
            line = text[:m.start(1)].count('\n') + 1
            raise ReadError(f"{path}:{line}: INPUT_0 holds '{tok}', not a 32-bit hex word")
        w = int(tok, 16)
        out += [((w >> (8 * i)) & 0xFF) - (256 if (w >> (8 * i)) & 0x80 else 0) for i in range(4)]
    return out


def known_outputs(path):
    """The expected output words of cnn_check() in main_riscv.c, as signed 32-bit values in their order."""
    with open(path) as f:
        text = f.read()
    m = re.search(r'int\s+cnn_check\s*\(\s*void\s*\)\s*\{(.*?)\n\}', text, re.S)
    if not m:
        raise ReadError(f"{path}:1: no cnn_check() function")
    vals = [int(v, 16) for v in re.findall(r'!=\s*(0x[0-9a-fA-F]+)\)', m.group(1))]
    if not vals:
        line = text[:m.start()].count('\n') + 1
        raise ReadError(f"{path}:{line}: cnn_check() compares no output word")
    return [v - (1 << 32) if v & 0x80000000 else v for v in vals]


def write_ppm(out, w, h, grey, known):
    best = max(range(len(known)), key=lambda i: known[i]) if known else None
    head = "P6\n# accel-cosim flow/fw_camera.py: grey p = 127 - s of the example's INPUT_0\n"
    if known:
        head += f"# known answer: class {best}, outputs {' '.join(str(v) for v in known)}\n"
    head += f"{w} {h}\n255\n"
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, 'wb') as f:
        f.write(head.encode() + bytes(p for g in grey for p in (g, g, g)))
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('folder')
    ap.add_argument('out')
    ap.add_argument('--size', default='28x28', help='the frame size WxH (default 28x28, mnist-streaming)')
    a = ap.parse_args(argv)
    w, h = (int(x) for x in a.size.split('x'))
    try:
        s = samples(os.path.join(a.folder, 'sampledata.h'))
        if len(s) != w * h:
            raise ReadError(f"{a.folder}/sampledata.h:1: INPUT_0 holds {len(s)} samples, a {w}x{h} frame needs {w * h}")
        main_rv = os.path.join(a.folder, 'main_riscv.c')
        known = known_outputs(main_rv) if os.path.exists(main_rv) else []
    except (OSError, ReadError) as ex:
        print(f"fw_camera: {ex}", file=sys.stderr)
        return 1
    best = write_ppm(a.out, w, h, [127 - v for v in s], known)
    print(f"fw_camera: {a.out}: {w}x{h} grey frame of {a.folder}/sampledata.h"
          + (f", known answer class {best}" if best is not None else ", no known answer"))
    return 0


if __name__ == '__main__':
    sys.exit(main())
