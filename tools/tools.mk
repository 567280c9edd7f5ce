# tools/tools.mk - the stand-alone tools over the execution core (core/):
# fz-showmap, fz-tmin, fz-cmin; and the report tools fz-plot, fz-cov.  Each tools/fz-NAME.c is one program's main:
# option parsing and its report, nothing the others share.

CORE_TOOLS := $(BIN)/fz-showmap $(BIN)/fz-tmin $(BIN)/fz-cmin
ALL += $(CORE_TOOLS)

$(BIN)/fz-showmap: $(OBJ)/tools/fz-showmap.o build/libfzcore.a
$(BIN)/fz-tmin: $(OBJ)/tools/fz-tmin.o build/libfzcore.a build/libfzmut.a
$(BIN)/fz-cmin: $(OBJ)/tools/fz-cmin.o build/libfzcore.a build/libfzmut.a
$(CORE_TOOLS):
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) -o $@ $(LINK_IN)

# The report tools: HTML pages from an output directory (report/).
REPORT_TOOLS := $(BIN)/fz-plot $(BIN)/fz-cov
ALL += $(REPORT_TOOLS) $(LIBFZ)/fz-cov-rt.so

$(BIN)/fz-plot: $(OBJ)/tools/fz-plot.o build/libfzreport.a build/libfzcore.a
$(BIN)/fz-cov: $(OBJ)/tools/fz-cov.o build/libfzreport.a build/libfzcore.a build/libfzmut.a
$(REPORT_TOOLS):
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) -o $@ $(LINK_IN) -lm

# fz-cov's forkserver, preloaded into the coverage build it replays through.
$(LIBFZ)/fz-cov-rt.so: tools/fz-cov-rt.c include/fz-protocol.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -std=gnu11 -Wall -Wextra -Iinclude -fPIC -shared -o $@ $<
