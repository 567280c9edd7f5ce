# fz-fuzz/core.mk - the execution core shared by fz-fuzz and the tools
# (build/libfzcore.a: shared memory, forkserver client, coverage map,
# minimizer driver) and the stand-alone tools fz-showmap, fz-tmin, fz-cmin.
# The minimizer drives mutators/reduce.h, so programs that use the core
# link build/libfzmut.a after it.

CORE_SRCS := fz-fuzz/shm.c fz-fuzz/fsrv.c fz-fuzz/coverage.c fz-fuzz/minimize.c \
	fz-fuzz/tools.c
CORE_OBJS := $(CORE_SRCS:%.c=$(OBJ)/%.o)
CORE_LIBS := $(OBJ)/libfzcore.a $(OBJ)/libfzmut.a

$(OBJ)/libfzcore.a: $(CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

CORE_TOOLS := $(BIN)/fz-showmap $(BIN)/fz-tmin $(BIN)/fz-cmin
ALL += $(OBJ)/libfzcore.a $(CORE_TOOLS)

$(BIN)/fz-showmap: $(OBJ)/fz-fuzz/showmap_main.o $(OBJ)/libfzcore.a
$(BIN)/fz-tmin: $(OBJ)/fz-fuzz/tmin_main.o $(CORE_LIBS)
$(BIN)/fz-cmin: $(OBJ)/fz-fuzz/cmin_main.o $(CORE_LIBS)
$(CORE_TOOLS):
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) -o $@ $^

UNIT_TESTS += $(OBJ)/tests/check_coverage

$(OBJ)/tests/check_coverage: tests/check_coverage.c $(OBJ)/fz-fuzz/coverage.o
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $^ $(CHECK_LIBS)
