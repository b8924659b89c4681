# nv_full's register map, NVIDIA's own (arnvdla.h; python3 -m flow.gen_regs nv_full writes the table into
# build/nv_full/regs/, never committed), compiled into the NVDLA library so that a stimulus written for nv_full
# (NVIDIA's trace-player tests, make run TXN=) lands on the golden model (tb/nvdla/nvdla_config.c). Absent
# (../shared missing): the library is built without it, and such runs stop saying so (NV_FULL_ABSENT). Included
# after tb/nvdla/fw/nvdla_fw.mk (sorted), which sets EXTRA_*_nvdla with :=, hence += here.
NV_FULL     ?= ../shared/upstream/nvdla_nv_full
NV_FULL_HDR := $(NV_FULL)/cmod/include/arnvdla.h
ifneq ($(wildcard $(NV_FULL_HDR)),)
NV_FULL_REGS := $(BUILD)/nv_full/regs
EXTRA_INCS_nvdla += -I$(NV_FULL_REGS)
EXTRA_OBJS_nvdla += $(BUILD)/nvdla/nv_full/nv_full_regmap.o
# gen_regs writes all three files each time: touch them so that make sees them newer than their sources.
$(NV_FULL_REGS)/nv_full_regmap.c: $(NV_FULL_HDR) flow/gen_regs.py
	@$(if $(Q),echo "  GEN     $(NV_FULL_REGS)/ from $(NV_FULL_HDR)")
	$(Q)$(PYTHON) -m flow.gen_regs --nv-full $(NV_FULL) nv_full >/dev/null && touch $(NV_FULL_REGS)/nv_full_regmap.h $@
$(NV_FULL_REGS)/nv_full_regmap.h: $(NV_FULL_REGS)/nv_full_regmap.c ;
$(BUILD)/nvdla/nv_full/nv_full_regmap.o: $(NV_FULL_REGS)/nv_full_regmap.c $(NV_FULL_REGS)/nv_full_regmap.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (nv_full's register table)")
	$(Q)$(CC) $(CFLAGS) -Igolden/nvdla -I$(NV_FULL_REGS) -c $< -o $@
# The configuration table and the nv_full random generators (nvf_*.c, nv_full_regs.h) include the generated headers:
# they must exist before the first compile.
$(BUILD)/nvdla/c/tb/nvdla/nvdla_config.o $(patsubst %.c,$(BUILD)/nvdla/c/%.o,$(wildcard tb/nvdla/nvf_*.c)): \
    $(NV_FULL_REGS)/nv_full_regmap.h
else
EXTRA_INCS_nvdla += '-DNV_FULL_ABSENT="$(NV_FULL_HDR) is absent"'
endif
