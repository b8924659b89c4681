# ai8xize program folders as MAX78000 firmware (issue 39 item 4, docs/max78000_fw.md): flow/fw_ai8x.py builds a
# folder with the SDK's CNN template Makefile (the one ai8x-synthesis copies beside its output; the SDK's mnist
# carries it), out of the tree under build/max78000/fw/ai8x/<name>/, cached by content.
#   make run ACC=max78000 FIRMWARE=<ai8xize folder>     one program (vp.mk runs it: FW_ARGS)
#   make fw-ai8x [JOBS=n]                               every program the nightly runs, n builds at a time
# An ai8xize folder has a cnn.c and no Makefile (an SDK example folder has its Makefile: vp.mk builds those).
# flow/regress.py builds the firmware= entries of a list itself, with $MAX78000_SDK: make exports the variable when
# it is given on the command line or in the environment (an `export` here would define it empty before vp.mk's ?=).
ifneq ($(FIRMWARE),)
FW_AI8X := $(if $(filter %.elf,$(FIRMWARE)),,$(if $(wildcard $(FIRMWARE)/Makefile),,$(wildcard $(FIRMWARE)/cnn.c)))
ifneq ($(FW_AI8X),)
# the run's plusargs, which the builder writes beside the ELF(s) (+firmware=, and +fw_riscv= for a --riscv program)
FW_ELF := $(BUILD)/max78000/fw/ai8x/$(notdir $(abspath $(FIRMWARE)))/run.args
# FORCE: the tool decides by content whether anything is to be built; --require: a refusal stops make run
$(FW_ELF): FORCE
	@MAX78000_SDK=$(MAX78000_SDK) $(PYTHON) -m flow.fw_ai8x --jobs 1 --require $(FIRMWARE)
endif
endif
# The folders of tests/lists/max78000_ai8x_fw.nightly.list (make regress builds them first; flow/regress.py would
# build them itself before its runs, one list at a time).
FW_AI8X_DIRS = $(wildcard ../shared/conformance/max78000/ai8x/*/ vectors/max78000/ai8x_fastfifo/*/)
.PHONY: fw-ai8x
fw-ai8x:
	@if [ -d ../shared/conformance/max78000/ai8x ] && [ -f $(MAX78000_SDK)/Libraries/CMSIS/Device/Maxim/MAX78000/Source/GCC/gcc.mk ]; \
	then MAX78000_SDK=$(MAX78000_SDK) $(PYTHON) -m flow.fw_ai8x --jobs $(JOBS) $(FW_AI8X_DIRS); \
	else echo "fw-ai8x: ../shared/conformance/max78000/ai8x or the SDK ($(MAX78000_SDK)) is absent: nothing to build"; fi
