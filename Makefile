# fz - top-level build.  `make` builds everything into bin/ and lib/fz/ with
# no configure step.  Each part of the tree contributes a module.mk that adds
# its outputs to the lists below (a directory may hold several .mk files); this file only holds what is shared.
#
#   make                  build bin/ and lib/fz/
#   make check            install missing packages (as root), build, run all tests
#   make demo             build, instrument and fuzz a bundled buggy program
#   make bench            run the benchmarks (ratios against AFL++ when installed)
#   make install PREFIX=  install bin/, lib/fz/ and the man pages under PREFIX
#                         (default /usr/local; DESTDIR= for staging)
#   make uninstall PREFIX= remove exactly what make install put there
#   make clean

PREFIX ?= /usr/local
MANDIR ?= $(PREFIX)/share/man
CC ?= gcc
CXX ?= g++
CFLAGS ?= -O2 -g
CXXFLAGS ?= -O2 -g

# Flags every C file of fz itself is built with (not the targets fz builds).
FZ_CFLAGS = $(CFLAGS) -std=gnu11 -Wall -Wextra -Iinclude -I. -MMD -MP
FZ_CXXFLAGS = $(CXXFLAGS) -Wall -Wextra -Iinclude -I. -MMD -MP
# What a link rule passes to the compiler: its prerequisites without the
# headers that -MMD adds to a program built straight from its .c file (a
# header removed since the last build is a phony target, not a file).
LINK_IN = $(filter-out %.h,$^)

# `check` is found through pkg-config; evaluated lazily so that `make check`
# can install it first and then build in a sub-make.
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)

BIN := bin
LIBFZ := lib/fz
OBJ := build

# Lists the module.mk files append to.
ALL :=          # programs and libraries that `make` builds
UNIT_TESTS :=   # check(1) test programs, each run by `make check`
BENCH :=        # benchmark scripts, each run by `make bench`

.PHONY: all check unit e2e demo bench deps install uninstall clean
all:

# Every */*.mk fragment.  Fragments are read in name order, so a rule that
# needs another fragment's output names its fixed path (build/libfzmut.a),
# never a variable that fragment defines.
include $(sort $(wildcard */*.mk))

all: $(ALL)

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) -c $< -o $@

deps:
	@scripts/deps.sh

# The sub-make re-reads this file after deps.sh has installed packages, so
# pkg-config and the plugin headers are found on a fresh machine.
check:
	@scripts/deps.sh
	@$(MAKE) --no-print-directory all $(UNIT_TESTS)
	@$(MAKE) --no-print-directory unit e2e

unit: $(UNIT_TESTS)
	@tests/run-unit.sh $(UNIT_TESTS)

e2e: all
	@tests/run-e2e.sh

demo:
	@scripts/deps.sh
	@$(MAKE) --no-print-directory all
	@testcases/demo.sh

bench:
	@$(MAKE) --no-print-directory all
	@for b in $(BENCH); do echo "== $$b"; $$b || exit 1; done

# What make install puts in PREFIX, named here (not read from bin/) so that
# make uninstall works from a clean tree too.
INSTALL_PROGS := fz-cc fz-c++ fz-clang fz-clang++ fz-fuzz fz-showmap fz-tmin fz-cmin fz-plot fz-cov
INSTALL_MAN := fz-cc fz-fuzz fz-showmap fz-tmin fz-cmin fz-plot fz-cov
INSTALL_MAN_ALIASES := fz-c++ fz-clang fz-clang++

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/fz $(DESTDIR)$(MANDIR)/man1
	cp -P $(BIN)/* $(DESTDIR)$(PREFIX)/bin/
	cp -P $(LIBFZ)/* $(DESTDIR)$(PREFIX)/lib/fz/
	install -m 644 $(INSTALL_MAN:%=docs/man/%.1) $(DESTDIR)$(MANDIR)/man1/
	for a in $(INSTALL_MAN_ALIASES); do ln -sf fz-cc.1 $(DESTDIR)$(MANDIR)/man1/$$a.1; done
	@$(MAKE) --no-print-directory lf-driver-install

uninstall:
	rm -f $(INSTALL_PROGS:%=$(DESTDIR)$(PREFIX)/bin/%)
	rm -rf $(DESTDIR)$(PREFIX)/lib/fz
	rm -f $(INSTALL_MAN:%=$(DESTDIR)$(MANDIR)/man1/%.1) $(INSTALL_MAN_ALIASES:%=$(DESTDIR)$(MANDIR)/man1/%.1)

clean:
	rm -rf $(BIN) lib $(OBJ) tests/out bench/out

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
