#!/usr/bin/env bash
# The SDK's RISC-V toolchain names (gcc_riscv.mk: riscv-none-embed-gcc, -objcopy, -ar, ...; the -riscv examples'
# Makefile calls riscv-none-embed-objcopy itself) on Debian's riscv64-unknown-elf toolchain. vp.mk links this
# script under each name into build/max78000/fw/riscv-bin/, which FW_BUILD puts first on PATH; nothing of the SDK
# is edited. Differences it bridges, each a fact of the two toolchains:
# - riscv-none-embed (xPack) defaults to -mabi=ilp32; Debian's riscv64 gcc defaults to lp64d, which an rv32 -march
#   refuses: -mabi=ilp32 is added when none is given, and -march=rv32imc (the core's ISA) when none is (the
#   start-up code is assembled with neither).
# - riscv-none-embed's gcc 8 implements ISA spec 2.2, in which I includes the CSR instructions the SDK's core_rv32.h
#   uses; gcc 12 defaults to 20191213, where they are the zicsr extension: -misa-spec=2.2.
# - Debian has no newlib for riscv64-unknown-elf, only picolibc: --specs=picolibc.specs (its headers and libc).
#   At the link, newlib's -lc_nano becomes picolibc's -lc, -lnosys (newlib's stubs) is dropped, picolibc's
#   stdin/stdout/stderr are bound to the SDK's newlib-style _write/_read (picolibc_stdio.o, built by vp.mk from
#   picolibc_stdio.c beside this script) and picolibc's sbrk gets its heap from the SDK's linker-script symbols.
# - The link's -march=rv32imafdc (gcc_riscv.mk's LDFLAGS) selects the libraries: the MAX78000's RISC-V core is
#   RV32IMC without F/D, so the link uses -march=rv32imc (Debian's rv32im/ilp32 multilib: no F/D instructions).
set -euo pipefail
here=$(dirname "$0")
tool=${0##*/riscv-none-embed-}
case "$tool" in
gcc | g++) ;;
*) exec "riscv64-unknown-elf-$tool" "$@" ;;
esac
link=1 abi=0 arch=0
for a in "$@"; do
  case "$a" in
  -c | -S | -E | -M | -MM) link=0 ;;
  -mabi=*) abi=1 ;;
  -march=*) arch=1 ;;
  esac
done
args=(--specs=picolibc.specs -misa-spec=2.2)
[ $abi = 1 ] || args+=(-mabi=ilp32)
[ $arch = 1 ] || args+=(-march=rv32imc)
for a in "$@"; do
  if [ $link = 1 ]; then
    case "$a" in
    -march=*) a=-march=rv32imc ;;
    -lc_nano) a=-lc ;;
    -lnosys) continue ;;
    esac
  fi
  args+=("$a")
done
if [ $link = 1 ]; then
  args+=("$here/picolibc_stdio.o" -Wl,--defsym=__heap_start=__HeapBase -Wl,--defsym=__heap_end=__HeapLimit)
fi
exec "riscv64-unknown-elf-$tool" "${args[@]}"
