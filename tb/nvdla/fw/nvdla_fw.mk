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
# nv_full's build of the same sources, out of tree: without DLA_SMALL_CONFIG the firmware includes opendla_initial.h,
# nv_full's map (arnvdla.h's addresses). It runs loadables on nv_full (test fw with +fw_map=nv_full, or on a DUT with
# feature nv_full_map). Both builds define the same names, so the nv_full objects are linked into one relocatable
# object whose defined global symbols get the prefix nvfull_ (objcopy --redefine-syms; the relocations follow the
# symbols): the two builds live in one simulator, and both call the same 11 port functions (nvdla_fw_port.c).
NVDLA_FW_FULL_INCS := -Itb/nvdla/fw/include -I$(NVDLA_FW_DIR)/include -I$(NVDLA_FW_DIR) -I$(NVDLA_SW)/kmd/include
NVDLA_FW_FULL_OBJS := $(patsubst $(NVDLA_FW_DIR)/%.c,$(BUILD)/nvdla/fw_full/%.o,$(wildcard $(NVDLA_FW_DIR)/*.c))
EXTRA_OBJS_nvdla  += $(BUILD)/nvdla/fw_full/nvdla_fw_full.o
$(BUILD)/nvdla/fw_full/%.o: $(NVDLA_FW_DIR)/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (NVIDIA firmware, nv_full)")
	$(Q)$(CC) -std=c11 -O2 -g -w $(NVDLA_FW_FULL_INCS) -MMD -MP -c $< -o $@
$(BUILD)/nvdla/fw_full/nvdla_fw_full.o: $(NVDLA_FW_FULL_OBJS)
	@$(if $(Q),echo "  LD      $@ (NVIDIA firmware, nv_full, symbols nvfull_*)")
	$(Q)$(LD) -r -o $@.all $^
	$(Q)nm -g --defined-only $@.all | awk 'NF == 3 { print $$3, "nvfull_" $$3 }' > $@.syms
	$(Q)objcopy --redefine-syms=$@.syms $@.all $@
-include $(NVDLA_FW_FULL_OBJS:.o=.d)
else
EXTRA_INCS_nvdla  := -Itb/nvdla/fw '-DNVDLA_FW_ABSENT="$(NVDLA_FW_DIR) has no scheduler.c"'
# fw_net writes its loadables with the firmware's own structures (dla_interface.h), and its FP16 reference reads them:
# skipped too, not built.
EXTRA_CSRCS_nvdla := $(filter-out tb/nvdla/fw/nvdla_fw_net.c tb/nvdla/fw/nvdla_fw_fp16ref.c,$(EXTRA_CSRCS_nvdla))
endif
