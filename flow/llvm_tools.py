#!/usr/bin/env python3
"""The LLVM tools a clang build uses (a DUT's `cxx clang`, Makefile; NVIDIA's nv_full harness,
flow/bench/nvdla_full_harness.py), found one way for both.

clang++ is `clang++` when on PATH, else the newest `clang++-NN` (Debian installs the versioned names and the
unversioned ones only with its `clang` package). clang and llvm-profdata are then taken of the same version as
clang++: a profile written by one LLVM version is read by that version's llvm-profdata only.
Usage: python3 -m flow.llvm_tools clang++|clang|llvm-profdata   prints the command, or exits 1 saying what is absent
"""
import os
import re
import shutil
import sys

TOOLS = ('clang++', 'clang', 'llvm-profdata')


def _versioned(name):
    """The newest <name>-NN on PATH, or None."""
    pat = re.compile(re.escape(name) + r'-(\d+)')
    found = sorted((int(m.group(1)), n) for d in os.environ.get('PATH', '').split(os.pathsep) if os.path.isdir(d)
                   for n in os.listdir(d) if (m := pat.fullmatch(n)))
    return found[-1][1] if found else None


def tool(name):
    """The command of LLVM tool `name` (one of TOOLS) matching clang++'s version, or None when absent."""
    if name not in TOOLS:
        raise ValueError(f"unknown LLVM tool '{name}' (known: {', '.join(TOOLS)})")
    cxx = 'clang++' if shutil.which('clang++') else _versioned('clang++')
    if cxx is None:
        return None
    if name == 'clang++':
        return cxx
    suffix = cxx[len('clang++'):]          # '' or '-NN'
    for cand in (name + suffix, name):     # the same version first; an unversioned one where only it exists
        if shutil.which(cand):
            return cand
    return None


def main(argv):
    if len(argv) != 1 or argv[0] not in TOOLS:
        print(__doc__, file=sys.stderr)
        return 2
    found = tool(argv[0])
    if found is None:
        print(f"ERROR: {argv[0]} not found on PATH (neither {argv[0]} nor {argv[0]}-NN beside clang++)",
              file=sys.stderr)
        return 1
    print(found)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
