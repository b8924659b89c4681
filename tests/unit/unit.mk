# Unit tests of pure C code: every tests/unit/test_*.c becomes build/unit/test_<x>, linked with the bus
# models (dpi/*.c) and UNIT_EXTRA_SRCS (others append their sources with +=). `make unit-test` builds and
# runs them all and fails if any test fails. Include from the top-level Makefile, or standalone:
#     make -f tests/unit/unit.mk unit-test        (from the repository root)
ifndef DPI_SRCS
include dpi/dpi.mk
endif

UNIT_CC         ?= gcc
UNIT_CFLAGS     ?= -std=c11 -Wall -Wextra -Werror -O2 -g -D_POSIX_C_SOURCE=200809L
UNIT_INCLUDES   += -Idpi -Itests/unit -Itb/common
UNIT_LDLIBS     ?= -lm
UNIT_BUILD      ?= build/unit
UNIT_EXTRA_SRCS +=

UNIT_TEST_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS      := $(patsubst tests/unit/%.c,$(UNIT_BUILD)/%,$(UNIT_TEST_SRCS))
# Library objects are compiled once and shared by every test binary (deferred: UNIT_EXTRA_SRCS may grow
# after this fragment is included).
UNIT_LIB_OBJS   = $(patsubst %.c,$(UNIT_BUILD)/obj/%.o,$(DPI_SRCS) $(UNIT_EXTRA_SRCS))

# The makefile that was invoked (the top-level one when this fragment is included), for sub-makes.
UNIT_SELF := $(firstword $(MAKEFILE_LIST))

.PHONY: unit-test unit-build
unit-build: $(UNIT_BINS)

# Build what builds (-k: one broken test must not hide the others), then run every binary; each prints
# "<name>: N passed, N failed". A binary that does not build, crashes, or exits nonzero without such a
# line counts as one failure. Exit status is nonzero on any failure.
unit-test:
	@$(MAKE) --no-print-directory -k -f $(UNIT_SELF) unit-build || true
	@pass=0; fail=0; \
	for t in $(UNIT_BINS); do \
	    if ! $(MAKE) --no-print-directory -q -f $(UNIT_SELF) $$t >/dev/null 2>&1; then \
	        fail=$$((fail + 1)); echo "$$t: BUILD FAILED"; continue; \
	    fi; \
	    out=$$($$t 2>&1); rc=$$?; \
	    printf '%s\n' "$$out"; \
	    sum=$$(printf '%s\n' "$$out" | sed -n 's/^[^ ]*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$$/\1 \2/p' | tail -n 1); \
	    if [ -n "$$sum" ]; then \
	        set -- $$sum; pass=$$((pass + $$1)); fail=$$((fail + $$2)); \
	        if [ $$rc -ne 0 ] && [ $$2 -eq 0 ]; then fail=$$((fail + 1)); echo "$$t: exit status $$rc"; fi; \
	    else \
	        fail=$$((fail + 1)); echo "$$t: no summary line (exit status $$rc)"; \
	    fi; \
	done; \
	echo "unit: $$pass passed, $$fail failed"; \
	[ $$fail -eq 0 ]

.PRECIOUS: $(UNIT_BUILD)/obj/%.o

$(UNIT_BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(UNIT_CC) $(UNIT_CFLAGS) $(UNIT_INCLUDES) -MMD -MP -c $< -o $@

# Second expansion lets $$(UNIT_LIB_OBJS) see UNIT_EXTRA_SRCS += made after this include. It only affects
# prerequisites written with $$, so rules elsewhere in the including Makefile are unchanged.
.SECONDEXPANSION:
$(UNIT_BUILD)/test_%: $(UNIT_BUILD)/obj/tests/unit/test_%.o $$(UNIT_LIB_OBJS)
	@echo "  LD      $@"
	@$(UNIT_CC) $(UNIT_CFLAGS) -o $@ $^ $(UNIT_LDLIBS)

-include $(shell find $(UNIT_BUILD)/obj -name '*.d' 2>/dev/null)
