#!/usr/bin/env python3
"""Checks the variables of `make run` / `make waves` before anything is built (the Makefile calls it while
it reads itself): a known accelerator, a known DUT whose RTL is present, exactly one stimulus, and a TRACE or
CFG file that exists. Prints nothing when all is well; otherwise one line naming the mistake and the accepted
values, and exits 2.   Usage: python3 -m flow.check_run_args ACC=.. DUT=.. TEST=.. TRACE=.. CFG=.. LOADABLE=..
"""
import glob
import os
import sys

from flow import dut_manifest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def accelerators():
    return sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(ROOT, 'tb', '*', 'tb_*.sv')))


def problem(v):
    stims = [k for k in ('TEST', 'TRACE', 'CFG', 'LOADABLE', 'SDK', 'FIRMWARE') if v.get(k)]
    if not stims:
        return ("make run: say what to run: TEST=<name> (make list), TRACE=<file.trace>, CFG=<file.cfg>, "
                "LOADABLE=<NVDLA loadable> or SDK=<ai8xize folder>")
    if len(stims) > 1:
        return f"make run: give one of TEST, TRACE, CFG, LOADABLE, SDK and FIRMWARE, not {' and '.join(stims)}"
    if v.get('LOADABLE') and v.get('ACC') != 'nvdla':
        return (f"make run: LOADABLE= is an NVDLA loadable (NVIDIA's firmware runs it): ACC=nvdla, "
                f"not ACC={v.get('ACC')}")
    if v.get('FIRMWARE') and v.get('ACC') != 'max78000':
        return f"make run: FIRMWARE= is MAX78000 firmware (the SDK's): ACC=max78000, not ACC={v.get('ACC')}"
    if v.get('FIRMWARE') and not os.path.exists(v['FIRMWARE']):
        return f"make run: FIRMWARE={v['FIRMWARE']}: no such folder or file (an SDK example folder or an .elf)"
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
    return d.unavailable() or d.unbuilt()


def main(argv):
    v = dict(a.split('=', 1) for a in argv if '=' in a)
    why = problem(v)
    if why:
        print(why)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
