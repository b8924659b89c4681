# pulp-nnx's NE16 driver (test pulpnnx, docs/pulpnnx.md), compiled unmodified from PULP_NNX (default
# ../shared/upstream/pulp_nnx) into the NE16 library, with the project's host glue (tb/ne16/pulpnnx/) in place
# of its util/hwpe.c and ne16/bsp/ne16_pulp_bsp.c. When the folder is absent, nothing of it is built and test
# pulpnnx stops with the reason (no NE16_PULP_NNX). Included before the accelerators' library rules, which read
# EXTRA_OBJS_ne16 (and its objects' .d files); its own rules compile the driver and the glue with the driver's
# flags. __PLATFORM__ and ARCHI_PLATFORM_GVSOC are both defined, and differ: with neither defined, the driver's
# `#if __PLATFORM__ == ARCHI_PLATFORM_GVSOC` is true (its GVSoC-only path).
PULP_NNX ?= ../shared/upstream/pulp_nnx
NNX_DRIVER_SRCS := ne16/hal/ne16.c ne16/hal/ne16_task.c src/pulp_nnx_ne16.c util/pulp_nnx_util.c
ifneq ($(wildcard $(PULP_NNX)/src/pulp_nnx_ne16.c),)
NNX_INCS   := -I$(PULP_NNX)/util -I$(PULP_NNX)/ne16/hal -I$(PULP_NNX)/ne16/bsp -I$(PULP_NNX)/inc
NNX_DEFS   := -D__PLATFORM__=1 -DARCHI_PLATFORM_GVSOC=2
# The driver's own warnings, which we cannot fix in its unmodified sources: its const device pointers are
# passed to hwpe.h's non-const parameters, and some API parameters are unused.
NNX_VENDOR_WARN := -Wno-discarded-qualifiers -Wno-unused-parameter
NNX_OBJS   := $(patsubst %.c,$(BUILD)/ne16/c/pulp_nnx/%.o,$(NNX_DRIVER_SRCS)) \
              $(patsubst %.c,$(BUILD)/ne16/c/%.o,$(wildcard tb/ne16/pulpnnx/*.c))
$(BUILD)/ne16/c/pulp_nnx/%.o: $(PULP_NNX)/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (pulp-nnx, unmodified)")
	$(Q)$(CC) $(CFLAGS) $(NNX_VENDOR_WARN) $(NNX_DEFS) $(NNX_INCS) -MMD -MP -c $< -o $@
$(BUILD)/ne16/c/tb/ne16/pulpnnx/%.o: tb/ne16/pulpnnx/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(NNX_DEFS) $(ne16_INCS) $(NNX_INCS) -MMD -MP -c $< -o $@
$(BUILD)/ne16/c/tb/ne16/ne16_nnx.o: CFLAGS += -DNE16_PULP_NNX
EXTRA_OBJS_ne16 += $(NNX_OBJS)
endif
