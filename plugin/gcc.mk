# plugin/gcc.mk - builds lib/fz/fz-gcc-plugin.so, the GCC instrumentation
# plugin that fz-cc loads with -fplugin= on compile steps, and
# lib/fz/fz-gcc-plugin.version (`$(CC) -dumpfullversion` of the GCC it was
# built for, one line, read by fz-cc to explain a mismatch).
#
# The plugin headers come from gcc-N-plugin-dev; the path is evaluated lazily
# (=, not :=) so that `make check` can install the package first and then
# build in a sub-make.  The plugin must be built with the same GCC it is
# loaded into: a plugin of another GCC major usually fails to load at all
# (undefined symbols), so fz-cc compares the .version file with the GCC it
# runs before compiling, and plugin_init checks what it can when it loads.

FZ_GCC_PLUGIN_INC = $(shell $(CC) -print-file-name=plugin)/include
FZ_GCC_MAJOR = $(shell $(CC) -dumpversion | cut -d. -f1)
FZ_GCC_PLUGIN_CXXFLAGS = -O2 -g -Wall -Wextra -fno-rtti -fPIC \
	-Iinclude -Iplugin -I$(FZ_GCC_PLUGIN_INC)

ALL += lib/fz/fz-gcc-plugin.so lib/fz/fz-gcc-plugin.version

FZ_GCC_PLUGIN_SRCS = plugin/fz-gcc-plugin.cc plugin/fz-gcc-cmp.cc

lib/fz/fz-gcc-plugin.so: $(FZ_GCC_PLUGIN_SRCS) plugin/fz-gcc-cmp.h plugin/fz-denylist.h plugin/fz-test-crash.h \
		include/fz-config.h include/fz-cmplog.h
	@mkdir -p $(dir $@)
	@test -f $(FZ_GCC_PLUGIN_INC)/gcc-plugin.h || { echo "plugin/gcc.mk: GCC plugin headers not found in $(FZ_GCC_PLUGIN_INC); install them: apt-get install gcc-$(FZ_GCC_MAJOR)-plugin-dev (or run make check as root)" >&2; exit 1; }
	$(CXX) -shared $(FZ_GCC_PLUGIN_CXXFLAGS) $(FZ_GCC_PLUGIN_SRCS) -o $@.tmp && mv $@.tmp $@

lib/fz/fz-gcc-plugin.version: lib/fz/fz-gcc-plugin.so
	$(CC) -dumpfullversion > $@.tmp && mv $@.tmp $@
