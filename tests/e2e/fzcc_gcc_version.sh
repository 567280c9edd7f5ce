#!/bin/bash
# fzcc_gcc_version.sh - a GCC plugin built for another GCC must stop the
# compile with one clear line naming both versions and a rebuild command
# that is right for the compiler in use, both from fz-cc (which must catch
# it before GCC fails with "cannot load plugin ... undefined symbol") and
# from the plugin itself when it loads.
#
# A second GCC is rarely installed, so the mismatch is faked as in
# llvm_version_mismatch.sh: an install whose fz-gcc-plugin.version names GCC
# 99.1.0 and whose plugin cannot be loaded (an undefined symbol, as across
# GCC majors), and plugins built believing they were made for another GCC
# (FZ_BUILT_GCC_BASEVER / FZ_BUILT_GCC_CONFIG, the only knobs for this).
. "$(dirname "$0")/../lib.sh"

[ -e "$FZ_ROOT/lib/fz/fz-gcc-plugin.version" ] || fz_skip "lib/fz/fz-gcc-plugin.version is not built"
host=$(gcc -dumpfullversion)
cd "$T"
printf 'int main(void) { return 0; }\n' >x.c

# "gcc-13" and "g++-13": the host's drivers under versioned names, to check
# that the hint names the pair the user runs.
mkdir ccdir
ln -s "$(command -v gcc)" ccdir/gcc-13
ln -s "$(command -v g++)" ccdir/g++-13
export PATH=$T/ccdir:$PATH

fz_tree_copy tree
echo 99.1.0 >tree/lib/fz/fz-gcc-plugin.version
printf 'extern void fz_symbol_of_gcc_99(void);\nint plugin_is_GPL_compatible = 1;\nint plugin_init(void) { fz_symbol_of_gcc_99(); return 0; }\n' >bad.c
gcc -shared -fPIC bad.c -o tree/lib/fz/fz-gcc-plugin.so || fail "cannot build the unloadable plugin"
gcc -fplugin=tree/lib/fz/fz-gcc-plugin.so -c x.c -o never.o 2>raw.log &&
    fail "the fake plugin loads; the test would not show what a GCC mismatch looks like"

# expect_one_error LOG HINT: exactly one error line, from fz-cc, naming
# both versions and HINT, and nothing from GCC (it must not have run).
expect_one_error() {
    local log=$1 hint=$2 line
    [ "$(grep -c . "$log")" = 1 ] || fail "expected one line, got: $(cat "$log")"
    line=$(cat "$log")
    echo "$line" | grep -q 'error: .*built for GCC 99\.1\.0 but .* is GCC '"$host"';' ||
        fail "error does not name both versions: $line"
    echo "$line" | grep -qF "'$hint'" || fail "error does not say '$hint': $line"
}

FZ_CC=gcc-13 tree/bin/fz-cc -c x.c -o y.o 2>cc.log && fail "fz-cc compiled with a plugin built for GCC 99.1.0"
[ -e y.o ] && fail "an object was written despite the version error"
expect_one_error cc.log "make clean && make CC=gcc-13 CXX=g++-13"
ok "fz-cc, FZ_CC=gcc-13: $(cat cc.log)"

FZ_CXX=g++-13 tree/bin/fz-c++ -c x.c -o y.o 2>cxx.log && fail "fz-c++ compiled with a plugin built for GCC 99.1.0"
expect_one_error cxx.log "make clean && make CC=gcc-13 CXX=g++-13"
tree/bin/fz-cc x.c -o y 2>def.log && fail "fz-cc compiled and linked with a plugin built for GCC 99.1.0"
expect_one_error def.log "make clean && make CC=gcc CXX=g++"
ok "fz-c++ (FZ_CXX=g++-13) and plain fz-cc name their own driver pair"

# The hint must be right: the pair it names is one GCC, and the C++ one
# compiles C++.
for c in gcc-13 g++-13; do
    [ "$($c -dumpfullversion)" = "$host" ] || fail "$c is not GCC $host"
done
printf '#include <string>\nint main() { return std::string("a").size() - 1; }\n' >h.cc
g++-13 h.cc -o h && ./h || fail "g++-13 from the hint does not build C++"

# Calls that compile nothing do not need the plugin: still fine.
FZ_CC=gcc-13 tree/bin/fz-cc -E x.c >/dev/null || fail "-E fails because of the plugin's version"
gcc -c x.c -o plain.o && FZ_CC=gcc-13 tree/bin/fz-cc plain.o -o linked 2>link.log ||
    fail "linking plain objects fails because of the plugin's version: $(cat link.log)"
ok "non-compiling calls and links are not refused"

# The plugin's own check, for -fplugin= outside fz-cc and for what fz-cc
# cannot see.  Built with the host GCC but told it was built for another.
build_plugin() { # OUT DEFINE
    ${CXX:-g++} -shared -fno-rtti -fPIC "$2" -I"$FZ_ROOT/include" -I"$FZ_ROOT/plugin" \
        -I"$(gcc -print-file-name=plugin)/include" "$FZ_ROOT/plugin/fz-gcc-plugin.cc" \
        "$FZ_ROOT/plugin/fz-gcc-cmp.cc" -o "$1" ||
        fail "cannot build the test plugin with $2"
}
build_plugin other.so -DFZ_BUILT_GCC_BASEVER='"99.1.0"'
gcc-13 -fplugin=./other.so -c x.c -o z.o 2>other.log && fail "GCC $host ran a plugin built for GCC 99.1.0"
line=$(grep 'fz-cc: error' other.log)
echo "$line" | grep -q "built for GCC 99\.1\.0 but is loaded by GCC $host;" || fail "plugin does not name both versions: $(cat other.log)"
echo "$line" | grep -qF "make clean && make CC=gcc-13 CXX=g++-13" || fail "plugin's hint is wrong: $line"
ok "plugin: $line"
printf 'int main() { return 0; }\n' >x.cc
g++-13 -fplugin=./other.so -c x.cc -o z.o 2>otherxx.log && fail "g++ ran a plugin built for GCC 99.1.0"
grep -qF "make clean && make CC=gcc-13 CXX=g++-13" otherxx.log || fail "plugin's hint under g++-13 is wrong: $(cat otherxx.log)"

build_plugin conf.so -DFZ_BUILT_GCC_CONFIG='"--fz-test-configure"'
gcc -fplugin=./conf.so -c x.c -o z.o 2>conf.log && fail "GCC ran a plugin built for a differently configured GCC"
line=$(grep 'fz-cc: error' conf.log)
[ -n "$line" ] || fail "no error from the plugin: $(cat conf.log)"
[ "$(echo "$line" | grep -o "$host" | wc -l)" = 1 ] || fail "the same version is named twice: $line"
echo "$line" | grep -q "another build of GCC $host" || fail "plugin does not say what differs: $line"
ok "plugin, configure arguments differ: $line"

# And with the real install nothing of this shows.
FZ_QUIET=0 FZ_CC=gcc-13 "$FZ_BIN/fz-cc" -c x.c -o ok.o 2>real.log || fail "the real build fails: $(cat real.log)"
grep -q error real.log && fail "the real build reports an error: $(cat real.log)"
exit 0
