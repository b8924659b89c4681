# C bus-functional models (dpi/): sources and flags, included by the top-level Makefile (run from the
# repository root). The models are plain C11; the Verilator build links them as a gcc-built library.
DPI_SRCS   := $(wildcard dpi/*.c)
DPI_HDRS   := $(wildcard dpi/*.h)
DPI_CFLAGS ?= -std=c11 -Wall -Wextra -Werror -O2 -g -D_POSIX_C_SOURCE=200809L -Idpi
