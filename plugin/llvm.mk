# plugin/llvm.mk - builds the Clang/LLVM back end: lib/fz/fz-llvm-pass.so (a
# new-pass-manager plugin for clang -fpass-plugin=) and
# lib/fz/fz-llvm-pass.version (the LLVM major version it was built for, one
# line, read by fz-cc to explain a failed clang compile).
#
# llvm-config is looked up lazily (`=`), so `make check` can install llvm-dev
# first and find it in its sub-make.  Order: $(LLVM_CONFIG) if the user set
# it, then llvm-config-N for the major version of the `clang` on PATH (the
# pass must match the clang that loads it), then plain llvm-config, then the
# newest /usr/lib/llvm-*/bin/llvm-config.  Without one, the rule says what
# to install and builds nothing; the clang tests then skip.

FZ_LLVM_CONFIG = $(or $(LLVM_CONFIG),$(shell \
	m=$$(clang -dumpversion 2>/dev/null | cut -d. -f1); \
	for c in $${m:+llvm-config-$$m} llvm-config \
	         $$(ls -d /usr/lib/llvm-*/bin/llvm-config 2>/dev/null | sort -t- -k2 -n -r); do \
	    command -v $$c >/dev/null 2>&1 && { command -v $$c; break; }; \
	done))

# Plugins take LLVM's symbols from the clang that loads them, so no -lLLVM:
# linking a second copy of LLVM into clang would break its global state.
# -isystem: LLVM's own headers are not -Wextra clean under g++.
FZ_LLVM_CXXFLAGS = $(patsubst -I%,-isystem %,$(if $(FZ_LLVM_CONFIG),$(shell $(FZ_LLVM_CONFIG) --cxxflags))) -fno-rtti -fPIC
FZ_LLVM_LDFLAGS = $(if $(FZ_LLVM_CONFIG),$(shell $(FZ_LLVM_CONFIG) --ldflags)) -shared

ALL += $(LIBFZ)/fz-llvm-pass.so $(LIBFZ)/fz-llvm-pass.version

$(LIBFZ)/fz-llvm-pass.so: plugin/fz-llvm-pass.cc plugin/fz-denylist.h include/fz-config.h
	@if [ -z "$(FZ_LLVM_CONFIG)" ]; then \
	    echo "plugin/llvm.mk: llvm-config not found, skipping $@ (clang support); install it with: apt-get install llvm-dev clang" >&2; \
	else \
	    mkdir -p $(dir $@) $(OBJ)/plugin && \
	    echo "$(CXX) ... -o $@" && \
	    $(CXX) $(FZ_CXXFLAGS) $(FZ_LLVM_CXXFLAGS) -MF $(OBJ)/plugin/fz-llvm-pass.d -MT $@ \
	        $< $(FZ_LLVM_LDFLAGS) -o $@.tmp && mv $@.tmp $@; \
	fi

$(LIBFZ)/fz-llvm-pass.version: $(LIBFZ)/fz-llvm-pass.so
	@if [ -n "$(FZ_LLVM_CONFIG)" ]; then \
	    mkdir -p $(dir $@) && \
	    $(FZ_LLVM_CONFIG) --version | cut -d. -f1 > $@.tmp && mv $@.tmp $@; \
	fi
