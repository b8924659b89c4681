#!/usr/bin/env bash
# Installs the Debian packages accel-cosim needs and this machine lacks: as root with apt-get, otherwise with
# passwordless sudo, otherwise it names the one command to run and exits 1. Quiet and quick when nothing is
# missing: the Makefile runs it before anything else (make test, make regress, make run, ...).
#   flow/setup/install_deps.sh [extra-package ...]       (e.g. lcov for make coverage, valgrind for make bench)
set -u
# what must be there -> the Debian package that provides it
need=(
  "verilator:verilator" "gcc:gcc" "g++:g++" "make:make" "python3:python3" "patch:patch"
  "fst2vcd:gtkwave"      # the failing-job tests read FSTs back; GTKWave shows them
  "ccache:ccache"        # upstream DUT builds are minutes without it
  "file:/usr/include/zlib.h:zlib1g-dev"   # libz.a: simulators are linked statically (Makefile SIM_LDFLAGS)
  "file:/usr/include/jansson.h:libjansson-dev"   # NE16 reads pulp-nnx's conf.json with it (libjansson.a: static)
  "file:/usr/include/lz4.h:liblz4-dev"   # the 5.48 wheel's FST writer (traced simulators)
  "file:/usr/include/systemc.h:libsystemc-dev"   # cmod's FP16 CMAC cell and CACC (sc_int): tests/test_nvdla_conv_fp16_oracle.py
  "venv:python3-venv"    # flow/setup/install_verilator.sh: the project-local Verilator
  "clang-format:clang-format"   # make lint checks the C style (.clang-format), make format applies it
  "file:/usr/include/unicorn/unicorn.h:libunicorn-dev"   # the MAX78000 virtual platform's Cortex-M4 (libunicorn.a)
  "arm-none-eabi-gcc:gcc-arm-none-eabi"   # builds the MAX78000 SDK's firmware (make run FIRMWARE=, make test)
  "file:/usr/lib/arm-none-eabi/newlib/libc.a:libnewlib-arm-none-eabi"   # its C library
  "riscv64-unknown-elf-gcc:gcc-riscv64-unknown-elf"   # the SDK's RISC-V images (-riscv examples; vp/riscv-none-embed.sh)
  "file:/usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs:picolibc-riscv64-unknown-elf"   # their C library (Debian has no RISC-V newlib)
)
missing=()
for n in "${need[@]}"; do
  case "$n" in
    file:*) f=${n#file:}; f=${f%%:*}; [ -e "$f" ] || missing+=("${n##*:}") ;;
    venv:*) python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=("${n##*:}") ;;
    *)      command -v "${n%%:*}" >/dev/null 2>&1 || missing+=("${n##*:}") ;;
  esac
done
for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
cmd="apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing[*]}"
echo "installing missing Debian packages: ${missing[*]}" >&2
if [ "$(id -u)" = 0 ]; then
  sh -c "$cmd" >&2 || { echo "ERROR: '$cmd' failed" >&2; exit 1; }
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo sh -c "$cmd" >&2 || { echo "ERROR: 'sudo sh -c \"$cmd\"' failed" >&2; exit 1; }
else
  echo "ERROR: missing ${missing[*]}; not root and no passwordless sudo: run  sudo sh -c \"$cmd\"" >&2
  exit 1
fi
