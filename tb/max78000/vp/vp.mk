# The MAX78000 virtual platform (tb/max78000/vp/, docs/max78000_fw.md): the CPU is Unicorn's (Debian
# libunicorn-dev, installed by flow/setup/install_deps.sh), linked into the MAX78000 simulators. Debian ships its
# static library (libunicorn.a), so the simulators stay static (-static, SIM_LDFLAGS); it needs libpthread and libm.
EXTRA_CSRCS_max78000 += $(wildcard tb/max78000/vp/*.c)
EXTRA_INCS_max78000  += -Itb/max78000/vp
# Debian's libunicorn.a defines crc32 (its own copy of zlib's, util/crc32c.c) and the traced simulators take zlib's
# crc32 from libz.a for their FST writer: a static link then stops on a multiple definition. The simulators link a
# copy of the archive in which Unicorn's crc32, its definition and its uses, is renamed, so each side keeps its own.
VP_UNICORN_A := $(BUILD)/max78000/libunicorn_vp.a
$(VP_UNICORN_A): $(shell gcc -print-file-name=libunicorn.a)
	@mkdir -p $(@D)
	objcopy --redefine-sym crc32=vp_unicorn_crc32 $< $@
$(BUILD)/max78000/libtb_max78000.a: | $(VP_UNICORN_A)
EXTRA_LIBS_max78000  += $(CURDIR)/$(VP_UNICORN_A) -lpthread -lm

# make run ACC=max78000 FIRMWARE=<SDK example folder | .elf>: the folder is built with the SDK's own Makefile
# (Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi) out of the tree: copied into build/max78000/fw/<name>/src
# (the SDK may be read-only; its Makefile writes beside itself), the examples' Common/ into .../<name>/Common (some
# Makefiles reach it as ../Common), with BUILD_DIR=.../<name>/build, so that the SDK's PeriphDriver library is
# built in our build folder too and nothing is written under MAX78000_SDK.
MAX78000_SDK ?= ../shared/upstream/max78000_sdk
# $(call FW_BUILD,<example folder>,<out folder>): the recipe that builds one example (its ELF: <out>/build/max78000.elf)
define FW_BUILD
	@test -f $(1)/Makefile || { echo "make: FIRMWARE=$(1): no Makefile there (an SDK example folder or an .elf)"; exit 2; }
	@command -v arm-none-eabi-gcc >/dev/null || { echo "make: FIRMWARE= needs arm-none-eabi-gcc: flow/setup/install_deps.sh"; exit 2; }
	@mkdir -p $(2)/src && cp -pr $(1)/. $(2)/src/
	@if [ -d $(1)/../Common ]; then mkdir -p $(2)/Common && cp -pr $(1)/../Common/. $(2)/Common/; fi
	@echo "  FW      $(1) with the SDK's Makefile (MAXIM_PATH=$(MAX78000_SDK)); log: $(2)/build.log"
	@$(MAKE) --no-print-directory -C $(2)/src MAXIM_PATH=$(abspath $(MAX78000_SDK)) BUILD_DIR=$(abspath $(2))/build \
	    >$(2)/build.log 2>&1 || { tail -20 $(2)/build.log; exit 1; }
endef
ifneq ($(FIRMWARE),)
ifeq ($(FW_AI8X),)
FW_DIR := $(BUILD)/max78000/fw/$(notdir $(abspath $(FIRMWARE)))
FW_ELF := $(if $(filter %.elf,$(FIRMWARE)),$(FIRMWARE),$(FW_DIR)/build/max78000.elf)
ifeq ($(filter %.elf,$(FIRMWARE)),)
.PHONY: $(FW_ELF)
$(FW_ELF):
	$(call FW_BUILD,$(FIRMWARE),$(FW_DIR))
endif
endif # else an ai8xize folder: ai8x_fw.mk
FW_ARGS = +test=firmware +firmware=$(FW_ELF) +fw_sdk=$(MAX78000_SDK)
run waves: $(FW_ELF)
endif
# The SDK examples the lists run (tests/lists/max78000_fw.*.list), built by make test and make regress when the SDK is
# there (the list's entries are skipped, saying so, when it is not). The SDK's Makefile is incremental: a rebuild
# with nothing changed takes about a second.
FW_SMOKE := mnist faceid rps
# and the applications the nightly runs until their first unmodelled device (make fw-examples-nightly)
FW_NIGHTLY := $(FW_SMOKE) kws20_demo cats-dogs_demo
.PHONY: fw-examples fw-examples-nightly
ifneq ($(wildcard $(MAX78000_SDK)/Examples/MAX78000/CNN),)
ifneq ($(shell command -v arm-none-eabi-gcc),)
fw-examples: $(foreach e,$(FW_SMOKE),$(BUILD)/max78000/fw/$(e)/build/max78000.elf)
fw-examples-nightly: $(foreach e,$(FW_NIGHTLY),$(BUILD)/max78000/fw/$(e)/build/max78000.elf)
# FORCE: the SDK's Makefile decides what is out of date.
$(BUILD)/max78000/fw/%/build/max78000.elf: FORCE
	$(call FW_BUILD,$(MAX78000_SDK)/Examples/MAX78000/CNN/$*,$(BUILD)/max78000/fw/$*)
endif
endif
fw-examples fw-examples-nightly: ;
