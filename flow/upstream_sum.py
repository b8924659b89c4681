#!/usr/bin/env python3
"""The content of a DUT's upstream files as one Make prerequisite: build/<dir>/upstream.sum.

A DUT's verilation depends on the files it reads from its vendor tree (Dut.upstream_files()). Depending on them
by mtime re-verilated every vendor DUT whenever the tree was copied anew with its contents unchanged (an rsync,
an unpacked tarball, a CI cache, a freshly provisioned ../shared): nv_full is tens of CPU-minutes. So the build
depends on upstream.sum instead, one `sha256  path` line per file, rewritten only when a file's content changes or
a file joins or leaves the set (a changed path list changes the text too).

Hashing nv_full's ~35 MB on every make would cost a fraction of a second each time: upstream.hashes beside it
caches path, size and mtime_ns -> sha256, so only the files whose stat changed are read again (a fresh copy of the
tree is hashed once, then the cache holds the new mtimes).

When upstream.sum is first written (a build folder of before this file existed, or a new one), its mtime is the
newest of the files' mtimes: exactly what the mtime rule compared before, so a model it deemed up to date stays
up to date and one it deemed stale stays stale.

Usage (tests, debugging): python3 -m flow.upstream_sum <sum file> <file>...
"""
import hashlib
import os
import sys


def _read_cache(path):
    """{path: (size, mtime_ns, sha256)} from a cache file; a missing or malformed one is an empty cache."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.rstrip('\n').split(' ', 3)
                if len(parts) == 4 and parts[1].isdigit() and parts[2].isdigit():
                    out[parts[3]] = (int(parts[1]), int(parts[2]), parts[0])
    except OSError:
        pass
    return out


def _sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def _write(path, text):
    """Write text atomically (a per-process temporary: two makes may regenerate it at once)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


def file_hashes(files, cache_path):
    """{path: sha256} of files, re-reading only those whose size or mtime_ns differ from the cache's; the cache is
    rewritten when it changes. Returns also the newest mtime_ns of the files (0 for none)."""
    cache = _read_cache(cache_path)
    out, rows, newest = {}, [], 0
    for p in files:
        st = os.stat(p)
        hit = cache.get(p)
        sha = hit[2] if hit and hit[:2] == (st.st_size, st.st_mtime_ns) else _sha256(p)
        out[p] = sha
        rows.append(f"{sha} {st.st_size} {st.st_mtime_ns} {p}\n")
        newest = max(newest, st.st_mtime_ns)
    text = ''.join(rows)
    try:
        with open(cache_path) as f:
            same = f.read() == text
    except OSError:
        same = False
    if not same:
        _write(cache_path, text)
    return out, newest


def write_sum(sum_path, files):
    """Write sum_path (`sha256  path` per file, sorted) when its text changes, with its cache <stem>.hashes beside
    it. Returns True when it was (re)written."""
    os.makedirs(os.path.dirname(sum_path) or '.', exist_ok=True)
    hashes, newest = file_hashes(sorted(files), os.path.splitext(sum_path)[0] + '.hashes')
    text = ''.join(f"{sha}  {p}\n" for p, sha in sorted(hashes.items()))
    try:
        with open(sum_path) as f:
            old = f.read()
    except OSError:
        old = None
    if old == text:
        return False
    _write(sum_path, text)
    if old is None and newest:
        # First written: dated like the newest file, as the mtime rule it replaces saw the set (see the docstring).
        os.utime(sum_path, ns=(newest, newest))
    return True


def main(argv):
    if len(argv) < 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        print('written' if write_sum(argv[0], argv[1:]) else 'unchanged')
    except OSError as ex:
        print(f"ERROR: {ex}", file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
