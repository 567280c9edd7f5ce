# plugin/gcc.mk - builds lib/fz/fz-gcc-plugin.so, the GCC instrumentation
# plugin that fz-cc loads with -fplugin= on compile steps.
#
# The plugin headers come from gcc-12-plugin-dev; the path is evaluated lazily
# (=, not :=) so that `make check` can install the package first and then
# build in a sub-make.  The plugin must be built with the same GCC it is
# loaded into (plugin_init checks and says how to rebuild).

FZ_GCC_PLUGIN_INC = $(shell $(CC) -print-file-name=plugin)/include
FZ_GCC_PLUGIN_CXXFLAGS = -O2 -g -Wall -Wextra -Wno-unused-parameter -fno-rtti -fPIC \
	-Iinclude -Iplugin -I$(FZ_GCC_PLUGIN_INC)

ALL += lib/fz/fz-gcc-plugin.so

lib/fz/fz-gcc-plugin.so: plugin/fz-gcc-plugin.cc plugin/fz-denylist.h include/fz-config.h
	@mkdir -p $(dir $@)
	@test -f $(FZ_GCC_PLUGIN_INC)/gcc-plugin.h || { echo "plugin/gcc.mk: GCC plugin headers not found in $(FZ_GCC_PLUGIN_INC); install them: apt-get install gcc-12-plugin-dev (or run make check as root)" >&2; exit 1; }
	$(CXX) -shared $(FZ_GCC_PLUGIN_CXXFLAGS) $< -o $@.tmp && mv $@.tmp $@
