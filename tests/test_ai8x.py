#!/usr/bin/env python3
"""The ai8xize program reader's negative tests (run by `make test`; issue 21, docs/max78000.md), on a program of
../shared (conv1d-1) and on a fast-FIFO program of the repository (vectors/max78000/ai8x_fastfifo, which takes
its known answer from ../shared through its base.txt):
  - a program read as it is passes its known answer golden-only (the baseline the faults are judged against);
  - the same program with one wrong word in a temporary copy of sampleoutput.h fails, naming the word's address
    and sampleoutput.h:line;
  - the same program with one statement the reader does not know (in main.c or main_riscv.c, and in cnn.c)
    fails before running, naming file:line;
  - the fast-FIFO program with fifogrp cleared fails as unsupported, naming it;
  - a folder without a program (no main.c/cnn.c, no generator error in a log) fails naming the missing file;
  - a base.txt naming a folder that does not exist fails naming base.txt:line;
  - the wrong-word failure's printed repro line reproduces it; make run SDK=<missing folder> is refused.
Skipped, with the reason, where ../shared/conformance/max78000/ai8x is absent."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AI8X = os.path.join(ROOT, '..', 'shared', 'conformance', 'max78000', 'ai8x')
PROG = 'conv1d-1'          # small: one conv1d layer, its known answer spans several words
FAST = os.path.join(ROOT, 'vectors', 'max78000', 'ai8x_fastfifo', 'ff-fifostream-pool-stride-hwc')
SIM = os.path.join(ROOT, 'build', 'max78000', 'sim')
T = Checks('test_ai8x')
check, skip = T.check, T.skip


def run(folder):
    p = subprocess.run([SIM, f'+cfg={folder}', '+golden_only', '+seed=1'], cwd=ROOT, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def base_entry(folder):
    """(lines of folder/base.txt, index of the line naming the base folder) (tb/max78000/ai8x_import.c), or None."""
    bt = os.path.join(folder, 'base.txt')
    if not os.path.exists(bt):
        return None
    lines = open(bt).read().split('\n')
    return lines, next(i for i, l in enumerate(lines) if l.strip() and not l.startswith('#'))


def copy(src, dst):
    """A self-contained, writable copy of program folder src: the files it takes from the folder its base.txt
    names (tb/max78000/ai8x_import.c) are copied in, and base.txt is left out."""
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns('base.txt'))
    entry = base_entry(src)
    if entry:
        lines, li = entry
        base = os.path.join(src, lines[li].strip())
        for f in os.listdir(base):
            if not os.path.exists(os.path.join(dst, f)):
                shutil.copy(os.path.join(base, f), dst)
    for f in os.listdir(dst):
        os.chmod(os.path.join(dst, f), 0o644)


def unknown_statement(src, bad, program_file, function):
    """A copy of src with a statement ai8xize never writes at the start of `function` must fail naming
    program_file:line."""
    copy(src, bad)
    cc = os.path.join(bad, program_file)
    lines = open(cc).read().split('\n')
    at = next(i for i, l in enumerate(lines) if l.startswith(function)) + 2
    lines.insert(at, '  *((volatile uint32_t *) 0x50100000) ^= 0x00000001; // not something ai8xize writes')
    open(cc, 'w').write('\n'.join(lines))
    rc, out = run(bad)
    check(rc != 0 and re.search(rf'{re.escape(program_file)}:{at + 1}: .*\^=', out) is not None,
          f'{os.path.basename(src)}: an unsupported C construct fails naming {program_file}:{at + 1}', out)
    shutil.rmtree(bad)


def known_answer_faults(src, prog, d, program_file):
    """The baseline, one wrong known-answer word, one unknown statement: checks for program `src`."""
    rc, out = run(src)
    check(rc == 0 and re.search(r'^PASS ', out, re.M) is not None, f'{prog} passes its known answer golden-only', out)
    # one wrong word in sampleoutput.h: the third data word of the first record
    bad = os.path.join(d, prog)
    copy(src, bad)
    so = os.path.join(bad, 'sampleoutput.h')
    lines = open(so).read().split('\n')
    words = [(i, m) for i, l in enumerate(lines) for m in re.finditer(r'0x([0-9a-f]{8})', l)]
    base = int(words[0][1].group(1), 16)
    li, m = words[5]            # address, mask, length, word 0, word 1, word 2
    addr = base + 8
    lines[li] = lines[li][:m.start(1)] + f'{int(m.group(1), 16) ^ 0x10:08x}' + lines[li][m.end(1):]
    open(so, 'w').write('\n'.join(lines))
    rc, out = run(bad)
    check(rc != 0 and re.search(rf'read of .*\(0x{addr:x}\).*expected', out) is not None and
          f'sampleoutput.h:{li + 1}' in out,
          f'{prog}: one wrong word in sampleoutput.h fails naming its address 0x{addr:08x} and sampleoutput.h:{li + 1}',
          out)
    rep = re.search(r'^repro: (make run .*)$', out, re.M)
    if rep:
        p = subprocess.run(rep.group(1), shell=True, cwd=ROOT, capture_output=True, text=True)
        check(p.returncode != 0 and f'(0x{addr:x})' in p.stdout + p.stderr,
              f'{prog}: its printed repro line, run as it is, fails the same way', p.stdout + p.stderr)
    else:
        check(False, f'{prog}: the failing run prints a repro line', out)
    shutil.rmtree(bad)
    # a statement the reader does not understand, at the start of the program's load_input
    unknown_statement(src, bad, program_file, 'void load_input(void)')


def main():
    if not os.path.exists(SIM):
        print(f'FAIL test_ai8x: {os.path.relpath(SIM, ROOT)} is not built (make build)')
        return 1
    if not os.path.isdir(os.path.join(AI8X, PROG)):
        print(f'SKIPPED test_ai8x: {os.path.relpath(AI8X, ROOT)} is absent (external stimulus not available here; '
              f'the fast-FIFO programs of the repository take their known answers from it)')
        return 0
    with tempfile.TemporaryDirectory(dir=os.path.join(ROOT, 'build')) as d:
        # a fast-FIFO program of the repository (ai8xize --fast-fifo --riscv): main_riscv.c is the program
        known_answer_faults(FAST, os.path.basename(FAST), d, 'main_riscv.c')
        # the same program with quadrant 0's fifogrp cleared: a routing nothing documents, refused at the start
        bad = os.path.join(d, 'fifogrp0')
        copy(FAST, bad)
        cc = os.path.join(bad, 'cnn.c')
        text = open(cc).read()
        check(text.count('0x00d8c809; // Master enable quadrant 0') == 1, 'the fast-FIFO program starts quadrant 0 '
              'with ffifo_en and fifogrp (CTRL 0x00d8c809)')
        open(cc, 'w').write(text.replace('0x00d8c809; // Master enable', '0x0058c809; // Master enable'))
        rc, out = run(bad)
        check(rc != 0 and re.search(r'unsupported feature.*fast-FIFO input other than into quadrant 0 with fifogrp',
                                    out) is not None,
              'a fast-FIFO run without fifogrp fails as unsupported, naming it', out)
        shutil.rmtree(bad)
        # base.txt naming a folder that is not there
        bad = os.path.join(d, 'nobase')
        shutil.copytree(FAST, bad)
        lines, li = base_entry(bad)
        lines[li] = '../no-such-folder'
        open(os.path.join(bad, 'base.txt'), 'w').write('\n'.join(lines))
        rc, out = run(bad)
        check(rc != 0
              and re.search(rf'base\.txt:{li + 1}: base folder .*no-such-folder does not exist', out) is not None,
              f'a base.txt naming a missing folder fails naming base.txt:{li + 1}', out)
        shutil.rmtree(bad)
        src = os.path.join(AI8X, PROG)
        known_answer_faults(src, PROG, d, 'main.c')
        # an unsupported construct in cnn.c too (the driver, not the test program)
        bad = os.path.join(d, PROG)
        unknown_statement(src, bad, 'cnn.c', 'int cnn_init(void)')
        # no program at all
        os.makedirs(bad)
        shutil.copy(os.path.join(src, 'sampleoutput.h'), bad)
        rc, out = run(bad)
        check(rc != 0 and re.search(r'weights\.h:0: cannot read', out) is not None,
              'a folder without the program fails naming the missing file', out)
    p = subprocess.run(['make', 'run', 'ACC=max78000', 'SDK=build/no-such-folder'], cwd=ROOT, capture_output=True,
                       text=True)
    check(p.returncode != 0 and 'SDK=build/no-such-folder: no such folder' in p.stdout + p.stderr,
          'make run SDK=<missing folder> stops with one line naming it', p.stdout + p.stderr)
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
