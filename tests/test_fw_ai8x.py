#!/usr/bin/env python3
"""ai8xize programs as MAX78000 firmware (issue 39 item 4; flow/fw_ai8x.py, docs/max78000_fw.md), on copies of
../shared's conv1d-1 (one conv1d layer) under build/test_fw_ai8x/:
  - the builder builds a folder with the SDK's template Makefile, finds it cached the second time, and builds it
    again when one of its files changes; it refuses a folder whose base.txt names an absent folder and a folder
    that is no ai8xize program, each with its reason, and fails make run FIRMWARE= on a refusal;
  - a --riscv program of the repository (vectors/max78000/ai8x_fastfifo/ff-fifostream-pool-stride-hwc: main.c
    boots the RISC-V core, main_riscv.c drives the CNN through the fast FIFO; base.txt names its ../shared folder)
    is built as both images and runs golden-only and on our RTL with its RISC-V image (+fw_riscv=);
  - a list entry firmware=<folder> runs the program golden-only and on our RTL, named fw-<folder>, with a
    `make run ... FIRMWARE=<folder>` repro line;
  - a corrupted CNN output word (+fault=out_flip) fails naming the layer and the address;
  - a program too large for the chip (../shared's burnin_64x64x64) is linked for the larger-memories virtual chip
    (+fw_bigmem in its run.args; a program that fits gets none) and passes golden-only, its log saying that it does
    not fit a real MAX78000 and by how many bytes; a malformed or shrinking +fw_bigmem is refused naming it;
  - the generator-defective fifostream-group-notvga64x48-hwc is refused by the simulator with its reason
    (ai8x_defects[], recognised by the banner main.c prints), a skip the runner accepts.
Skipped, with the reason, where ../shared or arm-none-eabi-gcc is absent. Needs build/max78000/sim."""
import json
import os
import re
import shutil
import sys

from flow import fw_ai8x
from tests.checklib import Checks, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AI8X = os.path.join('..', 'shared', 'conformance', 'max78000', 'ai8x')
TMP = os.path.join('build', 'test_fw_ai8x')       # relative to ROOT
PROG = 'fwtest-conv1d-1'                          # a name of its own: its cache folder is not conv1d-1's
DEFECT = 'fifostream-group-notvga64x48-hwc'
BIG = 'burnin_64x64x64'                          # overflows the SDK's FLASH and SRAM
RISCV = os.path.join('vectors', 'max78000', 'ai8x_fastfifo', 'ff-fifostream-pool-stride-hwc')   # 1 s on our RTL
T = Checks('test_fw_ai8x')
check, skip = T.check, T.skip


def copy(src, name):
    dst = os.path.join(TMP, name)
    shutil.rmtree(os.path.join(ROOT, dst), ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, src), os.path.join(ROOT, dst))
    return dst


def test_builder():
    prog = copy(os.path.join(AI8X, 'conv1d-1'), PROG)
    shutil.rmtree(os.path.join(ROOT, fw_ai8x.OUT, PROG), ignore_errors=True)
    rc, out = run([sys.executable, '-m', 'flow.fw_ai8x', '--jobs', '1', prog], timeout=300)
    check(rc == 0 and f'built   {prog}' in out and os.path.isfile(os.path.join(ROOT, fw_ai8x.elf_path(prog))),
          'an ai8xize folder is built with the SDK\'s Makefile', out)
    rc, out = run([sys.executable, '-m', 'flow.fw_ai8x', '--jobs', '1', prog], timeout=300)
    check(rc == 0 and f'cached  {prog}' in out, 'built again unchanged: cached, nothing rebuilt', out)
    with open(os.path.join(ROOT, prog, 'main.c'), 'a') as f:
        f.write('\n// changed\n')
    rc, out = run([sys.executable, '-m', 'flow.fw_ai8x', '--jobs', '1', prog], timeout=300)
    check(rc == 0 and f'built   {prog}' in out, 'a changed file: rebuilt', out)
    nobase = copy(os.path.join(AI8X, 'conv1d-1'), 'fwtest-nobase')
    with open(os.path.join(ROOT, nobase, 'base.txt'), 'w') as f:
        f.write('# the folder whose files this one does not hold\n../no-such-folder\n')
    bad = copy(os.path.join(AI8X, 'conv1d-1'), 'fwtest-nocnn')
    os.remove(os.path.join(ROOT, bad, 'cnn.c'))
    rc, out = run([sys.executable, '-m', 'flow.fw_ai8x', nobase, bad], timeout=60)
    check(rc == 0 and f'refused {nobase}: {nobase}/base.txt:2: base folder' in out
          and f'refused {bad}: not an ai8xize program folder: no cnn.c' in out,
          'a folder whose base.txt names an absent folder and a folder without cnn.c are refused, each with its '
          'reason', out)
    rc, out = run(['make', 'run', 'ACC=max78000', f'FIRMWARE={nobase}'], timeout=120)
    check(rc != 0 and 'does not exist' in out, 'make run FIRMWARE=<refused folder> fails with the reason', out)


def regress(name, lines):
    lst = os.path.join(TMP, name + '.list')
    with open(os.path.join(ROOT, lst), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    shutil.rmtree(os.path.join(ROOT, 'build', 'regress', name), ignore_errors=True)
    rc, out = run([sys.executable, '-m', 'flow.regress', '--list', lst, '--name', name, '--jobs', '2',
                   '--no-waves'], timeout=600)
    try:
        with open(os.path.join(ROOT, 'build', 'regress', name, 'results.json')) as f:
            runs = {r['id']: r for r in json.load(f)['runs']}
    except (OSError, ValueError):
        runs = {}
    return rc, out, runs


def test_list_entries():
    prog = os.path.join(TMP, PROG)
    rc, out, runs = regress('test_fw_ai8x', [
        f'max78000 firmware={prog}/ 1 +golden_only',
        f'max78000 firmware={prog}/ 1',
        f'max78000 firmware={prog}/ 1 +fault=out_flip expect=fail:MISMATCH.final.image.*layer.0.*addr.0x50c02050',
        f'max78000 firmware={AI8X}/{DEFECT}/ 1 +golden_only',
        f'max78000 firmware={RISCV}/ 1 +golden_only',
        f'max78000 firmware={RISCV}/ 1',
        f'max78000 firmware={AI8X}/{BIG}/ 1 +golden_only'])
    go, rtl = runs.get(f'max78000.fw-{PROG}.golden_only.s1', {}), runs.get(f'max78000.fw-{PROG}.s1', {})
    check(go.get('status') == 'PASS' and rtl.get('status') == 'PASS' and rtl.get('jobs'),
          'firmware=<folder> passes golden-only and on our RTL, runs named fw-<folder>', out)
    check(rtl.get('repro', '').startswith(f'make run ACC=max78000 FIRMWARE={prog} SEED=1'),
          'its repro line is make run ... FIRMWARE=<folder>', rtl.get('repro', out))
    flip = runs.get(f'max78000.fw-{PROG}.fault_out_flip.s1', {})
    check(flip.get('status') == 'PASS' and 'layer 0' in flip.get('reason', ''),
          'a corrupted CNN output word fails naming layer and address', flip.get('reason', out))
    d = runs.get(f'max78000.fw-{DEFECT}.golden_only.s1', {})
    why = f'(ai8xize program {DEFECT}): known answer not reachable by the hardware as specified: ai8xize enables'
    check(d.get('status') == 'SKIP' and d.get('skip_by') == 'simulator' and why in d.get('reason', '') and rc == 0,
          'the defective program is refused by the simulator with its reason', out)
    name = os.path.basename(RISCV)
    rgo, rrtl = runs.get(f'max78000.fw-{name}.golden_only.s1', {}), runs.get(f'max78000.fw-{name}.s1', {})
    rv_elf = fw_ai8x.rv_elf_path(RISCV)
    check(rgo.get('status') == 'PASS' and rrtl.get('status') == 'PASS'
          and (rrtl.get('jobs') or [{}])[0].get('bytes_compared', 0) > 0
          and f'+fw_riscv={rv_elf}' in ' '.join(fw_ai8x.run_args(RISCV)),
          'a --riscv program passes golden-only and on our RTL (bytes compared) with its RISC-V image', out)
    big = runs.get(f'max78000.fw-{BIG}.golden_only.s1', {})
    args = ' '.join(fw_ai8x.run_args(os.path.join(AI8X, BIG)))
    try:
        with open(os.path.join(ROOT, big.get('log', 'none'))) as f:
            log = f.read()
    except OSError:
        log = ''
    check(big.get('status') == 'PASS' and '+fw_bigmem=flash:' in args
          and '+fw_bigmem' not in ' '.join(fw_ai8x.run_args(prog))
          and re.search(r"DOES NOT FIT A REAL MAX78000: it overflows the chip's flash \(512 KiB\) by [1-9][0-9]* bytes "
                        r"and its SRAM \(128 KiB\) by [1-9][0-9]* bytes", log),
          'a program too large for the chip passes golden-only on the larger-memories variant, its log saying so',
          f'{args}\n{big}')
    elf = fw_ai8x.elf_path(os.path.join(AI8X, BIG))
    for bad, why in (('flash:606208:78092', 'expected flash:<bytes>:<overflow>,sram:<bytes>:<overflow>'),
                     ('flash:262144:0,sram:274432:139804', 'the flash window must be a multiple of 4 KiB from')):
        rc, out = run([os.path.join('build', 'max78000', 'sim'), '+test=firmware', f'+firmware={elf}',
                       f'+fw_bigmem={bad}', '+golden_only'], timeout=60)
        check(rc not in (0, None) and why in out, f'+fw_bigmem={bad} is refused naming it', out)


def main():
    if not os.access(os.path.join(ROOT, 'build', 'max78000', 'sim'), os.X_OK):
        print("ERROR: build/max78000/sim is missing: run 'make build' first", file=sys.stderr)
        return 2
    if not os.path.isdir(os.path.join(ROOT, AI8X)) or not os.path.isdir(os.path.join(ROOT, fw_ai8x.sdk_path())):
        skip(f'{AI8X} or the SDK ({fw_ai8x.sdk_path()}) is absent')
        return T.summary()
    if not shutil.which('arm-none-eabi-gcc'):
        skip('arm-none-eabi-gcc is not installed (flow/setup/install_deps.sh)')
        return T.summary()
    os.makedirs(os.path.join(ROOT, TMP), exist_ok=True)
    for t in (test_builder, test_list_entries):
        try:
            t()
        except (OSError, KeyError, ValueError) as ex:
            check(False, f'{t.__name__} did not finish: {type(ex).__name__}: {ex}')
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
