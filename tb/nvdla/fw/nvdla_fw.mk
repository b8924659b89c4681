# NVIDIA's NVDLA firmware (nvdla_sw's kmd/firmware) for the `fw` and `fw_net` tests (docs/drivers.md), compiled
# unmodified from NVDLA_SW (default ../shared/upstream/nvdla_sw) into the NVDLA library, with the project's port
# (tb/nvdla/fw/) around it. Vendor C: its own flags (nv_small's register map needs DLA_SMALL_CONFIG; -w: its
# warnings are not ours to fix). Absent: the port is built without it and `fw` runs are reported skipped, saying
# so (NVDLA_FW_ABSENT). Included before the accelerators' library rules, which read EXTRA_*_nvdla (and the
# .d files of its objects).
NVDLA_SW  ?= ../shared/upstream/nvdla_sw
NVDLA_FW_DIR := $(NVDLA_SW)/kmd/firmware
EXTRA_CSRCS_nvdla := $(wildcard tb/nvdla/fw/*.c)
ifneq ($(wildcard $(NVDLA_FW_DIR)/scheduler.c),)
NVDLA_FW_INCS := -DDLA_SMALL_CONFIG -Itb/nvdla/fw/include -I$(NVDLA_FW_DIR)/include -I$(NVDLA_FW_DIR) -I$(NVDLA_SW)/kmd/include
EXTRA_INCS_nvdla  := -Itb/nvdla/fw $(NVDLA_FW_INCS)
EXTRA_OBJS_nvdla  := $(patsubst $(NVDLA_FW_DIR)/%.c,$(BUILD)/nvdla/fw/%.o,$(wildcard $(NVDLA_FW_DIR)/*.c))
$(BUILD)/nvdla/fw/%.o: $(NVDLA_FW_DIR)/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (NVIDIA firmware)")
	$(Q)$(CC) -std=c11 -O2 -g -w $(NVDLA_FW_INCS) -MMD -MP -c $< -o $@
else
EXTRA_INCS_nvdla  := -Itb/nvdla/fw '-DNVDLA_FW_ABSENT="$(NVDLA_FW_DIR) has no scheduler.c"'
# fw_net writes its loadables with the firmware's own structures (dla_interface.h): skipped too, not built.
EXTRA_CSRCS_nvdla := $(filter-out tb/nvdla/fw/nvdla_fw_net.c,$(EXTRA_CSRCS_nvdla))
endif
