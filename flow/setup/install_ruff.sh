#!/usr/bin/env bash
# Installs the Python linter of `make lint` (flow/ and tests/): PyPI's ruff, pinned, into a project-local virtual
# environment, and prints the path of its `ruff`. Quiet and quick when it is already there (as
# install_verilator.sh). Its rules: ruff.toml at the root.
#   flow/setup/install_ruff.sh [venv-folder]      (default .venv/ruff-<pin> in the checkout)
set -u
pin=0.17.5
here=$(cd "$(dirname "$0")/../.." && pwd)
venv=${1:-$here/.venv/ruff-$pin}
bin=$venv/bin/ruff
if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then echo "$bin"; exit 0; fi
echo "installing ruff $pin from PyPI into $venv (once per checkout)" >&2
"$here/flow/setup/install_deps.sh" >&2 || exit 1     # python3-venv
python3 -m venv "$venv" >&2 || { echo "ERROR: 'python3 -m venv $venv' failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
"$venv/bin/python" -m pip install -q --disable-pip-version-check "ruff==$pin" >&2 \
  || { echo "ERROR: pip could not install ruff==$pin from PyPI into $venv" >&2; exit 1; }
"$bin" --version >/dev/null || { echo "ERROR: $bin does not run" >&2; exit 1; }
echo "$bin"
