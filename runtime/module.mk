# runtime/module.mk - the runtime linked into instrumented programs.
#
# lib/fz/fz-rt.o is one relocatable object (ld -r of the runtime's files) so
# fz-cc can append a single file, last, to every link line.  It is built
# -O2 -fPIC (usable in PIE, non-PIE and shared links) and never instrumented.
RT_CFLAGS = -std=gnu11 -O2 -g -fPIC -Wall -Wextra -Iinclude -I. -MMD -MP \
	-fno-stack-protector -fvisibility=hidden
RT_SRCS := runtime/rt-map.c runtime/rt-input.c runtime/rt-fsrv.c runtime/rt-proc.c runtime/rt-direct.c \
	runtime/rt-loop.c runtime/rt-diag.c \
	runtime/rt-crash.c runtime/rt-site.c runtime/rt-san.c runtime/rt-unwind.c runtime/rt-cmp.c
RT_OBJS := $(RT_SRCS:%.c=$(OBJ)/rt/%.o)

ALL += $(LIBFZ)/fz-rt.o $(LIBFZ)/fz-libfuzzer.o

$(OBJ)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -c $< -o $@

$(LIBFZ)/fz-rt.o: $(RT_OBJS)
	@mkdir -p $(dir $@)
	ld -r $(RT_OBJS) -o $@

# The libFuzzer driver: main() plus libFuzzer's command line, which runs
# fz-fuzz, fz-showmap and fz-tmin; FZ_BINDIR is where it looks for them
# first (`make install` rebuilds it for PREFIX/bin).
# LLVMFuzzerMutate (lf-mutate.c) is fz's mutation engine: the sources of
# build/libfzmut.a compiled again -fPIC, joined with lf-mutate.o into one
# object whose symbols are all made local but the three the driver calls
# (lf-mutate.o), so the engine's names never clash with a harness's.
LF_SRCS := runtime/libfuzzer.c runtime/lf-cli.c runtime/lf-util.c runtime/lf-corpus.c \
	runtime/lf-run.c runtime/lf-report.c runtime/lf-stack.c runtime/lf-fuzz.c runtime/lf-merge.c runtime/lf-crash.c
LF_MUT_SRCS := runtime/lf-mutate.c mutators/rng.c mutators/dict.c mutators/mutate.c
LF_OBJS := $(LF_SRCS:%.c=$(OBJ)/rt/%.o) $(OBJ)/rt/lf-mutate-all.o

$(OBJ)/rt/lf-mutate-all.o: $(LF_MUT_SRCS:%.c=$(OBJ)/rt/%.o)
	ld -r $^ -o $@.tmp
	objcopy -G LLVMFuzzerMutate -G __fz_lf_custom_init -G __fz_lf_custom_apply $@.tmp $@
	rm -f $@.tmp
LF_BINDIR ?= $(abspath $(BIN))
$(OBJ)/rt/runtime/lf-util.o: RT_CFLAGS += -DFZ_BINDIR='"$(LF_BINDIR)"'
# No debug information in the driver: symbolizers then name its frames by
# their symbols, fuzzer::fz::... (lf.h, LF_FRAME), which crash-state
# tools skip as libFuzzer's own.
$(LF_SRCS:%.c=$(OBJ)/rt/%.o) $(LF_MUT_SRCS:%.c=$(OBJ)/rt/%.o): RT_CFLAGS += -g0

$(LIBFZ)/fz-libfuzzer.o: $(LF_OBJS)
	@mkdir -p $(dir $@)
	ld -r $^ -o $@

# `make install`: the installed driver looks in PREFIX/bin first.
.PHONY: lf-driver-install
lf-driver-install:
	@mkdir -p $(OBJ)/rt/installed
	$(CC) $(RT_CFLAGS) -g0 -DFZ_BINDIR='"$(PREFIX)/bin"' -c runtime/lf-util.c -o $(OBJ)/rt/installed/lf-util.o
	ld -r $(filter-out $(OBJ)/rt/runtime/lf-util.o,$(LF_OBJS)) $(OBJ)/rt/installed/lf-util.o \
		-o $(DESTDIR)$(PREFIX)/lib/fz/fz-libfuzzer.o

# Protocol unit test: a minimal fuzzer in tests/check_runtime.c drives two
# hand-instrumented targets built with the plain compiler (no fz-cc needed).
$(OBJ)/rt/rt_edges: testcases/rt_edges.c $(LIBFZ)/fz-rt.o
	@mkdir -p $(dir $@)
	$(CC) -O1 $< $(LIBFZ)/fz-rt.o -o $@

$(OBJ)/rt/rt_loop: testcases/rt_loop.c testcases/rt_afl_macros.h $(LIBFZ)/fz-rt.o
	@mkdir -p $(dir $@)
	$(CC) -O1 -include testcases/rt_afl_macros.h $< $(LIBFZ)/fz-rt.o -o $@

$(OBJ)/tests/check_runtime: tests/check_runtime.c $(OBJ)/rt/rt_edges $(OBJ)/rt/rt_loop
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) $< -o $@ $(CHECK_LIBS)

UNIT_TESTS += $(OBJ)/tests/check_runtime

# The fuzzer's side of the comparison log, for the e2e tests of the hooks
# (tests/e2e/cmplog_*.sh): runs a target with logging on and prints the log.
ALL += $(OBJ)/tests/cmplog-dump

$(OBJ)/tests/cmplog-dump: tests/cmplog_dump.c include/fz-cmplog.h include/fz-protocol.h
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $< -o $@
