# fz-fuzz/module.mk - the fuzzer, bin/fz-fuzz, and its unit tests.  It
# links the execution core and the mutation engine by their fixed paths.

FUZZ_SRCS := fz-fuzz/options.c fz-fuzz/names.c fz-fuzz/queue.c fz-fuzz/schedule.c fz-fuzz/outdir.c fz-fuzz/stats.c \
	fz-fuzz/status.c fz-fuzz/diag.c fz-fuzz/resume.c fz-fuzz/calibrate.c fz-fuzz/sites.c fz-fuzz/triage.c fz-fuzz/run.c fz-fuzz/maxlen.c fz-fuzz/fuzz.c fz-fuzz/replay.c \
	fz-fuzz/i2s.c
FUZZ_SRCS += fz-fuzz/sync.c fz-fuzz/dictfile.c fz-fuzz/jobs.c fz-fuzz/crashinfo.c fz-fuzz/aflenv.c
FUZZ_SRCS += fz-fuzz/custom.c fz-fuzz/lfmut.c fz-fuzz/campaign.c fz-fuzz/cmdline.c
FUZZ_OBJS := $(FUZZ_SRCS:%.c=$(OBJ)/%.o)

ALL += $(BIN)/fz-fuzz

$(BIN)/fz-fuzz: $(OBJ)/fz-fuzz/main.o $(FUZZ_OBJS) $(OBJ)/libfzcore.a $(OBJ)/libfzmut.a
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) -o $@ $(LINK_IN) -ldl

# Unit tests (explicit rules, so no pattern rule of another fragment applies).
FUZZ_TESTS := $(OBJ)/tests/check_queue $(OBJ)/tests/check_options $(OBJ)/tests/check_stats $(OBJ)/tests/check_diag
FUZZ_TESTS += $(OBJ)/tests/check_sync $(OBJ)/tests/check_sites $(OBJ)/tests/check_crashinfo
FUZZ_TESTS += $(OBJ)/tests/check_aflenv
UNIT_TESTS += $(FUZZ_TESTS)

$(OBJ)/tests/check_queue: tests/check_queue.c $(OBJ)/fz-fuzz/queue.o $(OBJ)/fz-fuzz/schedule.o $(OBJ)/fz-fuzz/names.o
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)

$(OBJ)/tests/check_options: tests/check_options.c $(OBJ)/fz-fuzz/options.o $(OBJ)/core/opts.o $(OBJ)/core/env.o
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)

$(OBJ)/tests/check_sites: tests/check_sites.c $(OBJ)/fz-fuzz/sites.o
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)

$(OBJ)/tests/check_crashinfo: tests/check_crashinfo.c $(FUZZ_OBJS) $(OBJ)/libfzcore.a $(OBJ)/libfzmut.a
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)

$(OBJ)/tests/check_aflenv: tests/check_aflenv.c $(OBJ)/fz-fuzz/aflenv.o
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)

$(OBJ)/tests/check_diag: tests/check_diag.c $(OBJ)/fz-fuzz/diag.o $(OBJ)/libfzcore.a
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)

$(OBJ)/tests/check_sync: tests/check_sync.c $(FUZZ_OBJS) $(OBJ)/libfzcore.a $(OBJ)/libfzmut.a
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)

$(OBJ)/tests/check_stats: tests/check_stats.c $(FUZZ_OBJS) $(OBJ)/libfzcore.a $(OBJ)/libfzmut.a
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)

# Benchmark: coverage over time against afl-fuzz on bench/coverage_target.c.
BENCH += bench/coverage.sh
BENCH += bench/cmplog.sh
