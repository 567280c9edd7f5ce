# plugin/llvm.mk - builds the Clang/LLVM back end: lib/fz/fz-llvm-pass.so (a
# new-pass-manager plugin for clang -fpass-plugin=) and
# lib/fz/fz-llvm-pass.version (the LLVM major version it was built for, one
# line, read by fz-cc to explain a failed clang compile).
#
# llvm-config is looked up lazily (`=`), so `make check` can install llvm-dev
# first and find it in its sub-make.  Order: $(LLVM_CONFIG) if the user set
# it, then llvm-config-N for the major version of the `clang` on PATH (the
# pass must match the clang that loads it), then plain llvm-config, then the
# newest /usr/lib/llvm-*/bin/llvm-config.  LLVM_CONFIG=no builds without
# clang support.  Clang support is optional: without llvm-config, or with
# one whose headers (llvm-dev) are not installed, both rules say what to
# install and build nothing, `make` still succeeds, fz-cc with gcc works and
# the clang tests skip with that message.

FZ_LLVM_CONFIG = $(if $(filter no,$(LLVM_CONFIG)),,$(or $(LLVM_CONFIG),$(shell \
	m=$$(clang -dumpversion 2>/dev/null | cut -d. -f1); \
	for c in $${m:+llvm-config-$$m} llvm-config \
	         $$(ls -d /usr/lib/llvm-*/bin/llvm-config 2>/dev/null | sort -t- -k2 -n -r); do \
	    command -v $$c >/dev/null 2>&1 && { command -v $$c; break; }; \
	done)))

# Why clang support cannot be built, or empty when it can.
FZ_LLVM_MISSING = $(if $(filter no,$(LLVM_CONFIG)),LLVM_CONFIG=no,$(if $(FZ_LLVM_CONFIG),$(if \
	$(wildcard $(shell $(FZ_LLVM_CONFIG) --includedir)/llvm/Passes/PassPlugin.h),,\
	the LLVM headers of $(FZ_LLVM_CONFIG) are not installed),llvm-config not found))

# Plugins take LLVM's symbols from the clang that loads them, so no -lLLVM:
# linking a second copy of LLVM into clang would break its global state.
# -isystem: LLVM's own headers are not -Wextra clean under g++.
FZ_LLVM_CXXFLAGS = $(patsubst -I%,-isystem %,$(if $(FZ_LLVM_CONFIG),$(shell $(FZ_LLVM_CONFIG) --cxxflags))) -fno-rtti -fPIC
FZ_LLVM_LDFLAGS = $(if $(FZ_LLVM_CONFIG),$(shell $(FZ_LLVM_CONFIG) --ldflags)) -shared

ALL += $(LIBFZ)/fz-llvm-pass.so $(LIBFZ)/fz-llvm-pass.version

FZ_LLVM_SRCS = plugin/fz-llvm-pass.cc plugin/fz-llvm-cmp.cc

$(LIBFZ)/fz-llvm-pass.so: $(FZ_LLVM_SRCS) plugin/fz-llvm-cmp.h plugin/fz-denylist.h plugin/fz-test-crash.h \
		include/fz-config.h include/fz-cmplog.h
	@if [ -n "$(FZ_LLVM_MISSING)" ]; then \
	    echo "plugin/llvm.mk: $(FZ_LLVM_MISSING): skipping $@ (clang support is optional; for it: apt-get install clang llvm-dev)" >&2; \
	else \
	    mkdir -p $(dir $@) $(OBJ)/plugin && \
	    echo "$(CXX) ... -o $@" && \
	    $(CXX) $(FZ_CXXFLAGS) $(FZ_LLVM_CXXFLAGS) -MF $(OBJ)/plugin/fz-llvm-pass.d -MT $@ \
	        $(FZ_LLVM_SRCS) $(FZ_LLVM_LDFLAGS) -o $@.tmp && mv $@.tmp $@; \
	fi

$(LIBFZ)/fz-llvm-pass.version: $(LIBFZ)/fz-llvm-pass.so
	@if [ -z "$(FZ_LLVM_MISSING)" ]; then \
	    mkdir -p $(dir $@) && \
	    $(FZ_LLVM_CONFIG) --version | cut -d. -f1 > $@.tmp && mv $@.tmp $@; \
	fi
