#!/usr/bin/env python3
"""No silent pass (issue 23 part A, run by `make test`): every input that used to exit 0 with PASS without
having checked anything now fails (or errors) with one clear line. Each case runs a simulator (or `make run`)
and asserts a nonzero exit and exactly one line matching what the error must say. Negative input files are in
tests/negative/. A case that needs ../shared (the MAX78000 mnist replay) says SKIPPED with the reason.
Also: a failing run dumped with +dump= and replayed with `make run TRACE=` fails the same way, and seeds
0..2^64-1 run."""
import os
from functools import partial
import re
import shutil
import sys
import tempfile
from tests.checklib import Checks, sim
from tests.checklib import run as run_in_root

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NEG = 'tests/negative'
MNIST = os.path.join(ROOT, '..', 'shared', 'conformance', 'max78000', 'mnist')
T = Checks('test_no_silent_pass')
check, skip = T.check, T.skip
run = partial(run_in_root, timeout=120)   # (exit status, output) of a command run from the root




def expect_fail(name, cmd, want, timeout=120):
    """cmd must exit nonzero and print exactly one line matching `want` (an ERROR line)."""
    rc, out = run(cmd, timeout=timeout)
    lines = [l for l in out.splitlines() if re.search(want, l)]
    ok = rc not in (None, 0) and len(lines) == 1 and 'ERROR' in lines[0]
    check(ok, f"{name}: exit {rc}, {lines[0].strip()[:160] if lines else 'no line matching ' + repr(want)}")
    if not ok:
        print('\n'.join('     | ' + l for l in out.splitlines()[-12:]))
    return out


def expect_pass(name, cmd, want):
    rc, out = run(cmd)
    lines = [l for l in out.splitlines() if re.search(want, l)]
    got = lines[0].strip()[:160] if lines else 'no line matching ' + repr(want)
    check(rc == 0 and lines, f"{name}: exit {rc}, {got}")


NV = ['+test=bdma_sanity', '+seed=1']
CASES = [
    # --- plusarg values range-checked from the table's value column (tb/*/..._plusargs.tsv)
    ('+stall=3', [sim('nvdla'), *NV, '+stall=3'], r"\+stall=3 is out of range: accepted values are 0\|1\|2"),
    ('+stall=-1', [sim('nvdla'), *NV, '+stall=-1'], r"\+stall=-1 is out of range: accepted values are 0\|1\|2"),
    ('ne16 +stall=2', [sim('ne16'), '+test=random', '+seed=1', '+stall=2'],
     r"\+stall=2 is out of range: accepted values are 0\|1"),
    ('+csb_idle=101', [sim('nvdla'), *NV, '+csb_idle=101'], r"\+csb_idle=101 is out of range: a percentage 0\.\.100"),
    ('+apb_idle=x', [sim('ne16'), '+test=random', '+seed=1', '+apb_idle=x'], r"\+apb_idle=x is not a percentage"),
    ('+seed=-1', [sim('nvdla'), '+test=bdma_sanity', '+seed=-1'], r"\+seed=-1 is not an unsigned number"),
    ('+seed=2^64', [sim('nvdla'), '+test=bdma_sanity', '+seed=18446744073709551616'],
     r"\+seed=18446744073709551616 is not an unsigned"),
    ('+watchdog=0', [sim('nvdla'), *NV, '+watchdog=0'], r"\+watchdog=0 is out of range: at least 1 cycle"),
    ('+watchdog=5k', [sim('nvdla'), *NV, '+watchdog=5k'], r"\+watchdog=5k is not an unsigned number"),
    ('+log=yes', [sim('nvdla'), *NV, '+log=yes'], r"\+log is a flag"),
    ('+fault_job beyond the jobs', [sim('nvdla'), *NV, '+fault=wdata_flip', '+fault_job=99'],
     r"\+fault_job=99 is out of range: bdma_sanity has 1 job \(0\.\.0\)"),
    ('+fault_job without +fault', [sim('nvdla'), *NV, '+fault_job=0'], r"\+fault_job=0 without \+fault="),
    ('+features typo', [sim('nvdla'), '+test=bdma_random', '+seed=1', '+features=bdam,sdp'],
     r"\+features=bdam,sdp: 'bdam' is not a feature of DUT ours; did you mean 'bdma'\?"),
    ('arguments after the 64th', [sim('nvdla'), *NV] + ['+quiet'] * 70, r"72 arguments, at most 63 are accepted"),
    # --- a requested fault that never fired fails the run (five kinds on tests where they cannot fire)
    ('nvdla cacc_flip on BDMA', [sim('nvdla'), *NV, '+fault=cacc_flip'],
     r"fault cacc_flip requested but never injected"),
    ('nvdla result_flip on BDMA', [sim('nvdla'), *NV, '+fault=result_flip'],
     r"fault result_flip requested but never injected"),
    ('nvdla wdata_flip past the beats', [sim('nvdla'), *NV, '+fault=wdata_flip:100000'],
     r"fault wdata_flip:100000 requested but never injected"),
    ('ne16 store_flip past the stores', [sim('ne16'), '+test=ex2', '+seed=1', '+fault=store_flip:10000000'],
     r"fault store_flip:10000000 requested but never injected"),
    ('max78000 bus_error past the writes',
     [sim('max78000'), '+test=reg_reset', '+seed=1', '+fault=bus_error:100000000'],
     r"fault bus_error:100000000 requested but never injected"),
    # --- every run checks something
    ('empty trace', [sim('nvdla'), f'+trace={NEG}/empty.trace', '+seed=1'], r"nothing was checked"),
    ('comment-only trace', [sim('nvdla'), f'+trace={NEG}/comment_only.trace', '+seed=1'], r"nothing was checked"),
    ('check_crc of 0 bytes', [sim('nvdla'), f'+trace={NEG}/check_crc_zero.trace', '+seed=1'],
     r"check_crc_zero.trace:4: check_crc over 0 bytes checks nothing"),
    ('NE16 job with only check_golden', [sim('ne16'), f'+trace={NEG}/ne16_check_golden_only.trace', '+seed=1'],
     r"nothing was checked"),
    ('empty .cfg', [sim('nvdla'), f'+cfg={NEG}/empty.cfg', '+seed=1'], r"nothing was checked"),
    ('.cfg cut before its check_crc', [sim('nvdla'), f'+cfg={NEG}/cut_before_check.cfg', '+seed=1'],
     r"nothing was checked"),
    ('malformed .dat line', [sim('nvdla'), f'+cfg={NEG}/bad_surface.cfg', '+seed=1'],
     r"bad_surface.dat:3: malformed surface record"),
    # --- size limits on trace operations (a 3-line trace must not hang or exhaust memory)
    ('fill of 1 TiB', [sim('nvdla'), f'+trace={NEG}/fill_huge.trace', '+seed=1'],
     r"fill_huge.trace:4: fill of 0x10000000000 bytes exceeds the limit"),
    ('check_crc over 2^64 bytes', [sim('nvdla'), f'+trace={NEG}/check_crc_huge.trace', '+seed=1'],
     r"check_crc_huge.trace:4: check_crc of 0xffffffffffffffff bytes exceeds the limit"),
    ('idle of 2^64 cycles', [sim('nvdla'), f'+trace={NEG}/idle_huge.trace', '+seed=1'],
     r"idle_huge.trace:4: idle of 18446744073709551615 cycles exceeds the limit"),
    # --- plusargs recorded in a trace are checked as on the command line
    ('trace plusarg that changes nothing', [sim('nvdla'), f'+trace={NEG}/trace_plusarg_not_repro.trace'],
     r"plusarg \+dump=x.trace: not one that changes a run's outcome"),
    ('trace plusarg out of range', [sim('nvdla'), f'+trace={NEG}/trace_plusarg_range.trace'],
     r"\+stall=7 is out of range"),
]


def mnist_cases(tmp):
    """MAX78000 replays whose expectation files are missing: errors, not silently dropped checks."""
    if not os.path.isdir(MNIST):
        skip('MAX78000 missing expectation files: SKIPPED, ../shared/conformance/max78000/mnist absent')
        return
    for drop, want in (('layer2.txt', r"expectation file .*/layer2.txt is missing \(.*/layer3.txt exists\)"),
                       ('layer4.txt', r"expectation file .*/layer4.txt is missing: the run has layer 4"),
                       ('expected.txt', r"expectation file .*/expected.txt is missing")):
        d = os.path.join(tmp, 'no_' + drop.split('.')[0])
        shutil.copytree(MNIST, d)
        os.remove(os.path.join(d, drop))
        expect_fail(f'mnist replay without {drop}', [sim('max78000'), f'+trace={d}/apb_trace.txt', '+seed=1',
                                                     '+golden_only'], want)


def replay_case(tmp):
    """A failing run dumped with +dump= and replayed with `make run TRACE=` fails the same way: the trace records
    the seed, the backpressure mode and the fault."""
    trace = os.path.join(tmp, 'fail.trace')
    rc, out = run([sim('nvdla'), '+test=bdma_random', '+seed=4', '+stall=2', '+fault=wdata_flip', f'+dump={trace}'])
    first = [l for l in out.splitlines() if 'ERROR' in l]
    got = first[0].strip()[:120] if first else out[-200:]
    check(rc == 1 and first, f"bdma_random +fault=wdata_flip +stall=2 fails: {got}")
    text = open(trace).read() if os.path.exists(trace) else ''
    check(all(re.search(p, text, re.M) for p in (r'^seed 4$', r'^plusarg \+stall=2$', r'^plusarg \+fault=wdata_flip$')),
          'the dumped trace records seed 4, +stall=2 and +fault=wdata_flip')
    rc2, out2 = run(['make', '--no-print-directory', 'run', f'TRACE={trace}'], timeout=600)
    first2 = [l for l in out2.splitlines() if 'ERROR' in l]
    strip = lambda l: re.sub(r"job '[^']*'", 'job', l)   # the replay's job may carry the trace's name
    check(rc2 not in (0, None) and first2 and first and strip(first2[0]) == strip(first[0]) and 'seed 4' in out2,
          f"make run TRACE=<dump> fails the same way: {first2[0].strip()[:120] if first2 else out2[-300:]}")


def seed_cases():
    for seed in ('0', '2147483648', '18446744073709551615'):
        expect_pass(f'+seed={seed} runs',
                    [sim('nvdla'), '+test=bdma_sanity', f'+seed={seed}', f'+verilator+seed+{seed}'],
                    rf"^PASS bdma_sanity seed {seed}:")


def main():
    for acc in ('nvdla', 'ne16', 'max78000'):
        if not os.access(sim(acc), os.X_OK):
            print(f'FAIL build/{acc}/sim missing (make build first)')
            return 1
    for name, cmd, want in CASES:
        expect_fail(name, cmd, want)
    seed_cases()
    with tempfile.TemporaryDirectory(prefix='nosilent.') as tmp:
        mnist_cases(tmp)
        replay_case(tmp)
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
