# fz-cc/module.mk - the compiler wrapper: bin/fz-cc and its three names.
# Behaviour is chosen by argv[0], so the other names are symlinks.

FZCC_NAMES := $(BIN)/fz-c++ $(BIN)/fz-clang $(BIN)/fz-clang++
ALL += $(BIN)/fz-cc $(FZCC_NAMES)
UNIT_TESTS += $(OBJ)/tests/check_fzcc

$(BIN)/fz-cc: $(OBJ)/fz-cc/main.o $(OBJ)/fz-cc/args.o $(OBJ)/fz-cc/fallback.o
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) -o $@ $(LINK_IN)

$(FZCC_NAMES): $(BIN)/fz-cc
	ln -sf fz-cc $@

$(OBJ)/tests/check_fzcc: tests/check_fzcc.c $(OBJ)/fz-cc/args.o $(OBJ)/fz-cc/fallback.o
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS)
