# runtime/module.mk - the runtime linked into instrumented programs.
#
# lib/fz/fz-rt.o is one relocatable object (ld -r of the runtime's files) so
# fz-cc can append a single file, last, to every link line.  It is built
# -O2 -fPIC (usable in PIE, non-PIE and shared links) and never instrumented.
RT_CFLAGS = -std=gnu11 -O2 -g -fPIC -Wall -Wextra -Iinclude -I. -MMD -MP \
	-fno-stack-protector -fvisibility=hidden
RT_SRCS := runtime/rt-map.c runtime/rt-input.c runtime/rt-fsrv.c
RT_OBJS := $(RT_SRCS:%.c=$(OBJ)/rt/%.o)

ALL += $(LIBFZ)/fz-rt.o $(LIBFZ)/fz-libfuzzer.o

$(OBJ)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -c $< -o $@

$(LIBFZ)/fz-rt.o: $(RT_OBJS)
	@mkdir -p $(dir $@)
	ld -r $(RT_OBJS) -o $@

$(LIBFZ)/fz-libfuzzer.o: $(OBJ)/rt/runtime/libfuzzer.o
	@mkdir -p $(dir $@)
	cp $< $@
