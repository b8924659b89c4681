#!/usr/bin/env python3
"""Checks the variables of `make run` / `make waves` before anything is built (the Makefile calls it while
it reads itself): a known accelerator, a known DUT whose RTL is present, exactly one stimulus, and a TRACE or
CFG file that exists. Prints nothing when all is well; otherwise, on stderr, the ERROR line naming the mistake and
the accepted values and the repro line every failure prints (`repro: make run ...`, as the simulator's setup
errors word it: the variables as given, so that running it refuses the same way), and on stdout the line Make
stops with; exits 2.
Usage: python3 -m flow.check_run_args ACC=.. DUT=.. TEST=.. TRACE=.. CFG=.. TXN=.. LOADABLE=.. SDK=.. FIRMWARE=..
       [PULPNNX=.. SEED=.. GOLDEN_ONLY=.. ARGS=..]   (the last four: only what the command line gave, for the repro)
"""
import glob
import os
import sys

from flow import dut_manifest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def accelerators():
    return sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(ROOT, 'tb', '*', 'tb_*.sv')))


def problem(v):
    stims = [k for k in ('TEST', 'TRACE', 'CFG', 'TXN', 'LOADABLE', 'SDK', 'FIRMWARE') if v.get(k)]
    if not stims:
        return ("make run: say what to run: TEST=<name> (make list), TRACE=<file.trace>, CFG=<file.cfg>, "
                "TXN=<nv_full trace-player test folder>, LOADABLE=<NVDLA loadable> or SDK=<ai8xize folder>")
    if len(stims) > 1:
        return f"make run: give one of TEST, TRACE, CFG, TXN, LOADABLE, SDK and FIRMWARE, not {' and '.join(stims)}"
    if v.get('LOADABLE') and v.get('ACC') != 'nvdla':
        return (f"make run: LOADABLE= is an NVDLA loadable (NVIDIA's firmware runs it): ACC=nvdla, "
                f"not ACC={v.get('ACC')}")
    if v.get('TXN') and v.get('ACC') != 'nvdla':
        return (f"make run: TXN= is an NVDLA nv_full trace-player test (a folder with input.txn): ACC=nvdla, "
                f"not ACC={v.get('ACC')}")
    if v.get('TXN') and not (os.path.isfile(os.path.join(v['TXN'], 'input.txn'))
                             or (v['TXN'].endswith('.txn') and os.path.isfile(v['TXN']))):
        return f"make run: TXN={v['TXN']}: not a trace-player test (a folder with input.txn, or a .txn file)"
    if v.get('FIRMWARE') and v.get('ACC') != 'max78000':
        return f"make run: FIRMWARE= is MAX78000 firmware (the SDK's): ACC=max78000, not ACC={v.get('ACC')}"
    if v.get('FIRMWARE') and not os.path.exists(v['FIRMWARE']):
        return (f"make run: FIRMWARE={v['FIRMWARE']}: no such folder or file (an SDK example folder, an ai8xize "
                "folder or an .elf)")
    for k in ('TRACE', 'CFG', 'LOADABLE'):
        if v.get(k) and not os.path.isfile(v[k]) and not (k == 'CFG' and os.path.isdir(v[k])):
            return f"make run: {k}={v[k]}: no such file"
    if v.get('SDK') and not os.path.isdir(v['SDK']):
        return f"make run: SDK={v['SDK']}: no such folder (an ai8xize output folder: cnn.c, main.c, *.h)"
    accs = accelerators()
    if not v.get('ACC'):
        return (f"make run: TRACE={v['TRACE']} names no accelerator (no 'acc <name>' line); say ACC=<one of "
                f"{', '.join(accs)}>") if v.get('TRACE') else f"make run: ACC= is empty (known: {', '.join(accs)})"
    if v['ACC'] not in accs:
        return f"make run: ACC={v['ACC']}: unknown accelerator (known: {', '.join(accs)})"
    try:
        d = dut_manifest.get(v['ACC'], v.get('DUT') or None)
    except dut_manifest.ManifestError as ex:
        return f"make run: DUT={v.get('DUT')}: {ex}"
    # A golden-only run needs no RTL: it runs on the default simulator (the Makefile's RUN_SIM), built or not.
    return d.unavailable() or (None if v.get('GOLDEN_ONLY') == '1' else d.unbuilt())


def repro(v):
    """The make line that reproduces the refusal: the accelerator, a DUT other than its default, the stimulus (a
    pulp-nnx folder as PULPNNX=, which the Makefile passes on as TEST=pulpnnx), and SEED, GOLDEN_ONLY and ARGS
    when given."""
    parts = ['make run']
    if v.get('ACC'):
        parts.append(f"ACC={v['ACC']}")
    if v.get('DUT'):
        try:
            default = dut_manifest.get(v['ACC'], None).name if v.get('ACC') in accelerators() else None
        except dut_manifest.ManifestError:
            default = None
        if v['DUT'] != default:
            parts.append(f"DUT={v['DUT']}")
    for k in ('TEST', 'TRACE', 'CFG', 'TXN', 'LOADABLE', 'SDK', 'FIRMWARE', 'PULPNNX', 'SEED', 'GOLDEN_ONLY'):
        if v.get(k) and not (k == 'TEST' and v.get('PULPNNX') and v[k] == 'pulpnnx'):
            parts.append(f'{k}={v[k]}')
    if v.get('ARGS'):
        parts.append(f"ARGS='{v['ARGS']}'")
    return ' '.join(parts)


def main(argv):
    v = dict(a.split('=', 1) for a in argv if '=' in a)
    why = problem(v)
    if why:
        print(f'ERROR: {why}', file=sys.stderr)
        print(f'repro: {repro(v)}', file=sys.stderr)
        print('make run refused its arguments (the ERROR above; nothing was built)')
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
