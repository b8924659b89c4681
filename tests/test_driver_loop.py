#!/usr/bin/env python3
"""Tests of the driver-in-the-loop core (tb/common/driver_loop.c) and NVIDIA's firmware on it (run by `make test`;
docs/drivers.md):
  - any program played through the coroutine (+via_driver) gives the same verdict and the same cycles as the
    sequencer running it, and the trace its +dump= writes replays without the driver, again in the same cycles;
  - a driver that keeps polling a register is stopped by the watchdog, with the register named;
  - NVIDIA's firmware (test fw) runs a loadable; with +fault= it fails with coordinates and a repro line; the
    repro line reproduces the failure, and the +dump= trace of the driver run replays without the driver and
    fails with the same first error (same cycle, same coordinates);
  - random networks for nv_full (test fw_net, NVIDIA's firmware built for nv_full, golden-only): over 60 seeds every
    unit the writer draws there (RUBIK in its three modes) and the three precisions appear, and every network runs
    through the firmware with no error but the golden-only "nothing was checked" (FP16 ones pass: their own
    reference checks them); a portable network passes against its nv_small twin, a corrupted element is named, its
    written loadable replays through `fw` in the same cycles; an FP16 network passes against the loadable's FP16
    reference (nvdla_fw_fp16ref.c), which names a corrupted element.
Skips, saying so, what cannot run here (NVIDIA's firmware or loadables absent)."""
import os
import re
import shlex
import subprocess
import sys
import tempfile
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, 'build', 'nvdla', 'sim')
NVDLA_SW = os.environ.get('NVDLA_SW', os.path.join(ROOT, '..', 'shared', 'upstream', 'nvdla_sw'))
LOADABLES = os.path.join(NVDLA_SW, 'regression', 'flatbufs', 'kmd')
T = Checks('test_driver_loop')
check, skip = T.check, T.skip


def run(args, cwd=ROOT):
    p = subprocess.run(args, capture_output=True, text=True, cwd=cwd, timeout=600)
    return p.returncode, p.stdout + p.stderr


def verdict(out):
    """(PASS|FAIL|SKIP, cycles) from the simulator's closing line."""
    m = re.search(r'^(PASS|FAIL|SKIP) \S* seed \d+: (\d+) cycles', out, re.M)
    return (m.group(1), int(m.group(2))) if m else (None, None)


def first_error(out):
    m = re.search(r'^\[cycle \d+\] ERROR .*$', out, re.M)
    return m.group(0) if m else None


def play_equivalence(tmp):
    """Direct, through the coroutine, and the coroutine run's dump replayed: same verdict, same cycles."""
    for test, seed in (('sdp_random', 1), ('pdp_b2b', 2), ('reg_pingpong', 1), ('cdp_random', 3),
                       ('bdma_queue_full', 1), ('conv_random', 2)):
        dump = os.path.join(tmp, f'{test}.trace')
        base = [SIM, f'+test={test}', f'+seed={seed}', '+quiet']
        a = verdict(run(base)[1])
        b = verdict(run(base + ['+via_driver', f'+dump={dump}'])[1])
        c = verdict(run([SIM, f'+trace={dump}', f'+seed={seed}', '+quiet'])[1])
        check(a[0] == 'PASS' and a == b == c,
              f'{test} seed {seed}: direct {a}, via the driver {b}, its dump replayed {c}: same verdict and cycles')
        polls = sum(1 for line in open(dump) if line.startswith('poll '))
        if test == 'reg_pingpong':
            check(polls >= 1, f'{test}: the driver\'s repeated reads became {polls} poll(s) in its dump')


def poll_watchdog(tmp):
    """A driver that polls forever: the driver-loop watchdog names the register."""
    trace = os.path.join(tmp, 'poll_forever.trace')
    with open(trace, 'w') as f:
        f.write('acc nvdla\nname poll_forever\njob poll_forever\npoll 9048 00000001 00000001 0\n')
    rc, out = run([SIM, f'+trace={trace}', '+seed=1', '+via_driver', '+watchdog=3000'])
    err = first_error(out) or ''
    check(rc == 1 and 'watchdog: the driver read NVDLA_SDP.D_DST_BASE_ADDR_LOW_0' in err and 'repro: make run' in out,
          f'a driver polling a register that never changes is stopped by the watchdog: {err[:140]}')


def firmware_fault(tmp):
    loadable = os.path.join(LOADABLES, 'SDP', 'SDP_X1_L0_0_small_fbuf')
    if not os.path.isfile(loadable):
        skip(f'firmware fault/dump: {loadable} is absent')
        return
    rc, out = run([SIM, '+test=fw', f'+loadable={loadable}', '+seed=1', '+quiet'])
    if verdict(out)[0] == 'SKIP':
        skip('firmware fault/dump: ' + out.strip().splitlines()[-1])
        return
    check(rc == 0 and re.search(r'^lead\.md5 .* equal$', out, re.M) is not None,
          'NVIDIA\'s firmware runs SDP_X1_L0_0_small: PASS, output md5 equal to lead.md5')
    dump = os.path.join(tmp, 'fw_fault.trace')
    fault = ['+fault=wdata_flip:5', '+fault_job=1']
    rc, out = run([SIM, '+test=fw', f'+loadable={loadable}', '+seed=3', f'+dump={dump}'] + fault)
    err = first_error(out)
    repro = re.search(r'^repro: (make run .*)$', out, re.M)
    check(rc == 1 and err is not None and re.search(r'MISMATCH .*grp \d .*(surf|line|byte|c \d)', err) is not None,
          f'firmware run with +fault=wdata_flip fails with coordinates: {err}')
    check(repro is not None and '+fault=wdata_flip:5' in repro.group(1) and 'TEST=fw' in repro.group(1),
          f'... and prints a repro line: {repro.group(1) if repro else None}')
    if repro:
        rc2, out2 = run(shlex.split(repro.group(1)) + ['-s'])
        check(rc2 != 0 and first_error(out2) == err, '... which reproduces the same first error')
    check(os.path.isfile(dump) and not any(line.startswith('test ') for line in open(dump)),
          f'... and its +dump= wrote a native trace ({dump})')
    rc3, out3 = run([SIM, f'+trace={dump}', '+seed=3'] + fault)
    check(rc3 == 1 and first_error(out3) == err and verdict(out3)[1] == verdict(out)[1],
          f'the dump replays without the driver to the same first error in the same cycles: {first_error(out3)}')
    rc4, out4 = run([SIM, f'+trace={dump}', '+seed=3'])
    check(rc4 == 0, 'the dump without the fault passes (the failure is the fault, not the replay)')


def firmware_net(tmp):
    """A random network written as a loadable file replays through `fw` like `fw_net` ran it; a truncated
    loadable is refused with one line naming the file and offset."""
    saved = os.path.join(tmp, 'net7.fbuf')
    rc, out = run([SIM, '+test=fw_net', '+seed=7', f'+fw_save={saved}', '+quiet'])
    if verdict(out)[0] == 'SKIP':
        skip('fw_net: ' + out.strip().splitlines()[-1])
        return
    rc2, out2 = run([SIM, '+test=fw', f'+loadable={saved}', '+seed=7', '+quiet'])
    check(rc == 0 and rc2 == 0 and verdict(out)[1] == verdict(out2)[1] and re.search(r'bytes compared [1-9]', out2),
          f'fw_net seed 7 {verdict(out)} and its written loadable run by fw {verdict(out2)}: both pass, same cycles')
    bad = os.path.join(tmp, 'truncated.fbuf')
    with open(saved, 'rb') as f, open(bad, 'wb') as g:
        g.write(f.read()[:300])
    rc3, out3 = run([SIM, '+test=fw', f'+loadable={bad}', '+seed=1'])
    err = [line for line in out3.splitlines() if line.startswith('ERROR')]
    check(rc3 == 2 and len(err) == 1 and 'truncated.fbuf: offset' in err[0],
          f'a truncated loadable is refused with one line: {err[0] if err else out3[-200:]}')


def firmware_net_full(tmp):
    """fw_net on nv_full, golden-only (the default simulator with +fw_map=nv_full, as `make run DUT=nv_full
    GOLDEN_ONLY=1` runs it): the draw, the twin check, its negative, the written loadable, FP16's reference check
    and its negative."""
    full = ['+test=fw_net', '+golden_only', '+fw_map=nv_full']
    rc, out = run([SIM, *full, '+seed=1'])
    if verdict(out)[0] == 'SKIP' or not os.path.isdir(os.path.join(ROOT, '..', 'shared', 'upstream', 'nvdla_nv_full')):
        skip('fw_net on nv_full: ' + out.strip().splitlines()[-1])
        return
    drawn, bad = set(), []
    for seed in range(1, 61):
        rc, out = run([SIM, *full, f'+seed={seed}'])
        m = re.search(r'^fw_net seed \d+: \d+ operations: nv_full (int8|int16|fp16) (.*)$', out, re.M)
        errors = [e for e in re.findall(r'ERROR.*', out) if 'nothing was checked' not in e]
        if not m or errors or 'HWLs done' not in out:
            bad.append(f'seed {seed}: {errors[:1] or out[-200:]}')
            continue
        drawn.add(m.group(1))
        drawn.update(re.findall(r'\d+:(SDP|PDP-(?:avg|max|min)|CDP|BDMA|RUBIK(?:-split|-merge)?|CONV)\(', m.group(2)))
        if m.group(1) != 'fp16' and re.search(r':PDP-avg\(', m.group(2)):
            drawn.add('INT average pooling')
    want = {'int8', 'int16', 'fp16', 'SDP', 'PDP-avg', 'PDP-max', 'PDP-min', 'INT average pooling', 'CDP', 'BDMA',
            'RUBIK', 'RUBIK-split', 'RUBIK-merge', 'CONV'}
    check(not bad and drawn == want,
          f'nv_full networks, seeds 1-60: every one through the firmware ({bad[:1] or "no error"}), drawn '
          f'{sorted(drawn)} (want {sorted(want)})')
    saved = os.path.join(tmp, 'full7.fbuf')
    rc, out = run([SIM, *full, '+fw_portable', '+seed=7', f'+fw_save={saved}'])
    n = re.search(r'checked: (\d+) output bytes compared', out)
    check(rc == 0 and n and int(n.group(1)) > 0 and 'against its nv_small twin' not in out,
          f'a portable nv_full network passes against its nv_small twin: {verdict(out)}, '
          f'{n.group(1) if n else "no"} elements compared')
    rc2, out2 = run([SIM, '+test=fw', f'+loadable={saved}', '+golden_only', '+fw_map=nv_full', '+seed=7'])
    layers = re.compile(r'firmware: \d+ HWLs done, totally \d+ layers')
    check(layers.search(out) and layers.search(out2) and
          layers.findall(out)[-1] == layers.findall(out2)[-1] and
          verdict(out2)[1] == int(re.search(r'fw.net_s7.t0\s+\S+\s+cycles (\d+)', out).group(1)) + 1,
          f'its written loadable replays through fw on nv_full: {layers.findall(out2)[-1:]} in {verdict(out2)[1]} '
          f'cycles')
    rc3, out3 = run([SIM, *full, '+fw_portable', '+seed=7', '+fw_corrupt=5'])
    err = first_error(out3) or ''
    check(rc3 == 1 and re.search(r'MISMATCH fw_net output tensor \S+ .* against its nv_small twin: 1 of \d+ elements '
                                 r'differ, first in element c \d+ y \d+ x \d+', err),
          f'a corrupted element of the nv_full output is named: {err}')
    rc4, out4 = run([SIM, *full, '+fw_prec=fp16', '+seed=2'])
    n4 = re.findall(r'fw_net FP16 reference: output tensor \S+ \(\S+\): (\d+) elements equal', out4)
    check(rc4 == 0 and n4 and all(int(k) > 0 for k in n4),
          f"an FP16 network passes against the loadable's FP16 reference: {verdict(out4)}, {n4} elements equal")
    rc5, out5 = run([SIM, *full, '+fw_prec=fp16', '+seed=2', '+fw_corrupt=3'])
    err5 = first_error(out5) or ''
    check(rc5 == 1 and re.search(r'MISMATCH fw_net FP16 output tensor \S+ .* against the loadable.s FP16 reference: 1 '
                                 r'of \d+ elements differ, first in element c \d+ y \d+ x \d+: memory 0x[0-9a-f]{4}, '
                                 r'reference 0x[0-9a-f]{4}', err5),
          f"a corrupted element of an FP16 network's output is named: {err5}")


def main():
    if not os.access(SIM, os.X_OK):
        print(f'test_driver_loop: {SIM} is not built (make build)')
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        play_equivalence(tmp)
        poll_watchdog(tmp)
        firmware_fault(tmp)
        firmware_net(tmp)
        firmware_net_full(tmp)
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
