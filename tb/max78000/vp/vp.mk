# The MAX78000 virtual platform (tb/max78000/vp/, docs/max78000_fw.md): the CPU is Unicorn's (Debian
# libunicorn-dev, installed by flow/setup/install_deps.sh), linked into the MAX78000 simulators. Debian ships its
# static library (libunicorn.a), so the simulators stay static (-static, SIM_LDFLAGS); it needs libpthread and libm.
EXTRA_CSRCS_max78000 += $(wildcard tb/max78000/vp/*.c)
EXTRA_INCS_max78000  += -Itb/max78000/vp
EXTRA_LIBS_max78000  += -lunicorn -lpthread -lm

# make run ACC=max78000 FIRMWARE=<SDK example folder | .elf>: the folder is built with the SDK's own Makefile
# (Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi) out of the tree: copied into build/max78000/fw/<name>/src
# (the SDK may be read-only; its Makefile writes beside itself) with BUILD_DIR there too, so the SDK's
# PeriphDriver library is built in our build folder and nothing is written under MAX78000_SDK.
MAX78000_SDK ?= ../shared/upstream/max78000_sdk
ifneq ($(FIRMWARE),)
FW_DIR := $(BUILD)/max78000/fw/$(notdir $(abspath $(FIRMWARE)))
FW_ELF := $(if $(filter %.elf,$(FIRMWARE)),$(FIRMWARE),$(FW_DIR)/build/max78000.elf)
FW_ARGS = +test=firmware +firmware=$(FW_ELF) +fw_sdk=$(MAX78000_SDK)
ifeq ($(filter %.elf,$(FIRMWARE)),)
.PHONY: $(FW_ELF)
$(FW_ELF):
	@test -f $(FIRMWARE)/Makefile || { echo "make run: FIRMWARE=$(FIRMWARE): no Makefile there (an SDK example folder or an .elf)"; exit 2; }
	@command -v arm-none-eabi-gcc >/dev/null || { echo "make run: FIRMWARE= needs arm-none-eabi-gcc: flow/setup/install_deps.sh gcc-arm-none-eabi libnewlib-arm-none-eabi"; exit 2; }
	@mkdir -p $(FW_DIR)/src && cp -pr $(FIRMWARE)/. $(FW_DIR)/src/
	@echo "  FW      $(FIRMWARE) with the SDK's Makefile (MAXIM_PATH=$(MAX78000_SDK)); log: $(FW_DIR)/build.log"
	@$(MAKE) --no-print-directory -C $(FW_DIR)/src MAXIM_PATH=$(abspath $(MAX78000_SDK)) BUILD_DIR=$(abspath $(FW_DIR))/build \
	    >$(FW_DIR)/build.log 2>&1 || { tail -20 $(FW_DIR)/build.log; exit 1; }
endif
run waves: $(FW_ELF)
endif
