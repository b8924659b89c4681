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
# The -riscv examples (a Makefile.RISCV beside the Makefile) build a second image for the RISC-V core with the
# SDK's gcc_riscv.mk, which calls riscv-none-embed-gcc: Debian's riscv64-unknown-elf toolchain and picolibc under
# those names (tb/max78000/vp/riscv/riscv-none-embed.sh, linked into VP_RV_BIN, first on PATH). Their Makefile
# reads the Cortex-M4's map from build/ and writes buildrv/ beside itself, and BUILD_DIR would be shared by both
# images, so the two images are built one after the other with their own BUILD_DIR under src/: `make arm`, then
# `make riscv -o arm` (its rule remakes the Cortex-M4 image otherwise, into the RISC-V's BUILD_DIR). The SDK's
# combined ELF (objcopy through Intel hex) carries no symbols; the platform loads the two ELFs instead.
VP_RV_BIN := $(BUILD)/max78000/fw/riscv-bin
VP_RV_TOOLS := gcc g++ objcopy ar as objdump size
$(VP_RV_BIN)/picolibc_stdio.o: tb/max78000/vp/riscv/picolibc_stdio.c tb/max78000/vp/riscv/riscv-none-embed.sh
	@command -v riscv64-unknown-elf-gcc >/dev/null || { echo "make: the SDK's RISC-V images need riscv64-unknown-elf-gcc and picolibc: flow/setup/install_deps.sh"; exit 2; }
	@mkdir -p $(@D)
	@for t in $(VP_RV_TOOLS); do ln -sf $(CURDIR)/tb/max78000/vp/riscv/riscv-none-embed.sh $(@D)/riscv-none-embed-$$t; done
	riscv64-unknown-elf-gcc --specs=picolibc.specs -march=rv32imc -mabi=ilp32 -Os -Wall -Wextra -Werror -c $< -o $@
# $(call FW_BUILD_RV,<example folder>,<out folder>): its images <out>/src/build/max78000.elf (Cortex-M4) and
# <out>/src/buildrv/max78000-riscv.elf (RISC-V)
define FW_BUILD_RV
	@command -v riscv64-unknown-elf-gcc >/dev/null || { echo "make: FIRMWARE=$(1) has a RISC-V image: it needs riscv64-unknown-elf-gcc and picolibc: flow/setup/install_deps.sh"; exit 2; }
	@mkdir -p $(2)/src && cp -pr $(1)/. $(2)/src/
	@if [ -d $(1)/../Common ]; then mkdir -p $(2)/Common && cp -pr $(1)/../Common/. $(2)/Common/; fi
	@echo "  FW      $(1) with the SDK's Makefile (MAXIM_PATH=$(MAX78000_SDK)), Cortex-M4 and RISC-V images; log: $(2)/build.log"
	@{ $(MAKE) --no-print-directory -C $(2)/src arm MAXIM_PATH=$(abspath $(MAX78000_SDK)) BUILD_DIR=$(abspath $(2))/src/build && \
	   PATH=$(abspath $(VP_RV_BIN)):$$PATH $(MAKE) --no-print-directory -C $(2)/src riscv -o arm \
	     MAXIM_PATH=$(abspath $(MAX78000_SDK)) BUILD_DIR=$(abspath $(2))/src/buildrv; } >$(2)/build.log 2>&1 || { tail -20 $(2)/build.log; exit 1; }
endef
ifneq ($(FIRMWARE),)
ifeq ($(FW_AI8X),)
FW_DIR := $(BUILD)/max78000/fw/$(notdir $(abspath $(FIRMWARE)))
FW_RV := $(if $(filter %.elf,$(FIRMWARE)),,$(wildcard $(FIRMWARE)/Makefile.RISCV))
FW_ELF := $(if $(filter %.elf,$(FIRMWARE)),$(FIRMWARE),$(if $(FW_RV),$(FW_DIR)/src/build/max78000.elf,$(FW_DIR)/build/max78000.elf))
ifeq ($(filter %.elf,$(FIRMWARE)),)
.PHONY: $(FW_ELF)
ifneq ($(FW_RV),)
$(FW_ELF): | $(VP_RV_BIN)/picolibc_stdio.o
	$(call FW_BUILD_RV,$(FIRMWARE),$(FW_DIR))
else
$(FW_ELF):
	$(call FW_BUILD,$(FIRMWARE),$(FW_DIR))
endif
endif
endif # else an ai8xize folder: ai8x_fw.mk
# A camera example (its RISC-V program includes camera.h: mnist-streaming) sees the frame of a binary PPM
# (+fw_camera=); by default its own sampledata.h input as a grey frame with the known answer (flow/fw_camera.py).
# UART1's bytes (the image it streams to a PC) go to a file beside the build.
FW_CAM := $(if $(FW_RV),$(if $(shell grep -l '"camera.h"' $(FIRMWARE)/main_riscv.c 2>/dev/null),$(FW_DIR)/camera.ppm))
ifneq ($(FW_CAM),)
$(FW_CAM): $(FIRMWARE)/sampledata.h flow/fw_camera.py
	$(PYTHON) -m flow.fw_camera $(FIRMWARE) $@
run waves: $(FW_CAM)
endif
# an ai8xize folder: the plusargs its build wrote (ai8x_fw.mk: FW_ELF is that file), read when the run's recipe is
# expanded, after the build
FW_ARGS = +test=firmware $(if $(FW_AI8X),$(shell cat $(FW_ELF)),+firmware=$(FW_ELF) $(if $(FW_RV),+fw_riscv=$(FW_DIR)/src/buildrv/max78000-riscv.elf)) +fw_sdk=$(MAX78000_SDK) \
    $(if $(FW_CAM),$(if $(findstring +fw_camera=,$(ARGS)),,+fw_camera=$(FW_CAM)) +fw_uart_bin=$(FW_DIR)/uart1.bin)
run waves: $(FW_ELF)
endif
# The SDK examples the lists run (tests/lists/max78000_fw.*.list), built by make test and make regress when the SDK is
# there (the list's entries are skipped, saying so, when it is not). The SDK's Makefile is incremental: a rebuild
# with nothing changed takes about a second.
FW_SMOKE := mnist faceid rps
# and the applications the nightly runs until their first unmodelled device (make fw-examples-nightly)
FW_NIGHTLY := $(FW_SMOKE) kws20_demo cats-dogs_demo
# the examples with a RISC-V image (built when riscv64-unknown-elf-gcc is there: their list entries are skipped
# otherwise, saying so)
FW_SMOKE_RV := mnist-riscv mnist-streaming
FW_NIGHTLY_RV := $(FW_SMOKE_RV)
# the camera examples' default frames (flow/fw_camera.py), which their list entries give as +fw_camera=
FW_CAM_EXAMPLES := mnist-streaming
.PHONY: fw-examples fw-examples-nightly
ifneq ($(wildcard $(MAX78000_SDK)/Examples/MAX78000/CNN),)
ifneq ($(shell command -v arm-none-eabi-gcc),)
fw-examples: $(foreach e,$(FW_SMOKE),$(BUILD)/max78000/fw/$(e)/build/max78000.elf)
fw-examples-nightly: $(foreach e,$(FW_NIGHTLY),$(BUILD)/max78000/fw/$(e)/build/max78000.elf)
# FORCE: the SDK's Makefile decides what is out of date.
$(BUILD)/max78000/fw/%/build/max78000.elf: FORCE
	$(call FW_BUILD,$(MAX78000_SDK)/Examples/MAX78000/CNN/$*,$(BUILD)/max78000/fw/$*)
ifneq ($(shell command -v riscv64-unknown-elf-gcc),)
fw-examples: $(foreach e,$(FW_SMOKE_RV),$(BUILD)/max78000/fw/$(e)/src/build/max78000.elf)
fw-examples-nightly: $(foreach e,$(FW_NIGHTLY_RV),$(BUILD)/max78000/fw/$(e)/src/build/max78000.elf)
fw-examples fw-examples-nightly: $(foreach e,$(FW_CAM_EXAMPLES),$(BUILD)/max78000/fw/$(e)/camera.ppm)
$(BUILD)/max78000/fw/%/camera.ppm: $(MAX78000_SDK)/Examples/MAX78000/CNN/%/sampledata.h flow/fw_camera.py
	$(PYTHON) -m flow.fw_camera $(MAX78000_SDK)/Examples/MAX78000/CNN/$* $@
$(BUILD)/max78000/fw/%/src/build/max78000.elf: FORCE | $(VP_RV_BIN)/picolibc_stdio.o
	$(call FW_BUILD_RV,$(MAX78000_SDK)/Examples/MAX78000/CNN/$*,$(BUILD)/max78000/fw/$*)
endif
endif
endif
fw-examples fw-examples-nightly: ;
