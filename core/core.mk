# core/core.mk - the execution core shared by fz-fuzz and the tools
# (build/libfzcore.a: shared memory, forkserver client (fsrv*.c, with
# proc.c and cpu.c), the execution
# module (one run -> one record), coverage map, minimizer driver, file
# reader/writer, option helpers).  The minimizer drives
# mutators/reduce.h, so programs that use the core link build/libfzmut.a
# after it.

CORE_SRCS := core/shm.c core/proc.c core/cpu.c core/fsrv.c core/fsrv-spawn.c core/fsrv-input.c \
	core/fsrv-handshake.c core/fsrv-wait.c core/fsrv-direct.c core/fsrv-diag.c core/coverage.c core/exec.c core/minimize.c core/fileio.c core/env.c core/opts.c core/cmplog.c
CORE_OBJS := $(CORE_SRCS:%.c=$(OBJ)/%.o)
CORE_LIBS := $(OBJ)/libfzcore.a $(OBJ)/libfzmut.a

$(OBJ)/libfzcore.a: $(CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL += $(OBJ)/libfzcore.a

UNIT_TESTS += $(OBJ)/tests/check_coverage

$(OBJ)/tests/check_coverage: tests/check_coverage.c $(OBJ)/core/coverage.o
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)

UNIT_TESTS += $(OBJ)/tests/check_cmplog

$(OBJ)/tests/check_cmplog: tests/check_cmplog.c $(OBJ)/core/cmplog.o
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)
