# mutators/module.mk - the mutation engine, a static library with no I/O;
# plus its unit tests and benchmark.

MUT_SRCS := mutators/rng.c mutators/dict.c mutators/mutate.c mutators/chain.c mutators/reduce.c \
	mutators/cmpedit.c mutators/text.c
MUT_OBJS := $(MUT_SRCS:%.c=$(OBJ)/%.o)

$(OBJ)/libfzmut.a: $(MUT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL += $(OBJ)/libfzmut.a

# Unit tests: the whole library is rebuilt with AddressSanitizer for them
# (cheap, and it is what proves splicing and block copies stay in bounds).
MUT_TEST_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
MUT_TESTS := $(OBJ)/tests/check_mutators $(OBJ)/tests/check_dict $(OBJ)/tests/check_reduce $(OBJ)/tests/check_cmpedit
MUT_TESTS += $(OBJ)/tests/check_text

$(MUT_TESTS): $(OBJ)/tests/check_%: tests/check_%.c $(MUT_SRCS) $(wildcard mutators/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -std=gnu11 -Wall -Wextra -Iinclude -I. $(MUT_TEST_FLAGS) $(CHECK_CFLAGS) \
		$< $(MUT_SRCS) $(filter %.c,$(filter-out $<,$(filter fz-fuzz/% core/%,$^))) -o $@ $(CHECK_LIBS)

# check_dict also covers reading -x files (fz-fuzz/dictfile.c, which reads
# through core/fileio.c), which feeds the parser here.
$(OBJ)/tests/check_dict: fz-fuzz/dictfile.c fz-fuzz/dictfile.h core/fileio.c core/fileio.h

UNIT_TESTS += $(MUT_TESTS)

# Benchmark: mutations per second, no target executed.
$(OBJ)/bench/mutations: bench/mutations.c $(OBJ)/libfzmut.a
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) -O2 $< $(OBJ)/libfzmut.a -o $@

# The script builds its program itself (make -s build/bench/mutations), since
# `make bench` only builds ALL first.
BENCH += bench/mutations.sh
