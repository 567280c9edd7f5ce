#!/bin/bash
# llvm_version_mismatch.sh - the LLVM pass loaded by a clang of another LLVM
# major version must stop the compile with one clear line naming both
# versions and how to rebuild, both from the plugin itself and from fz-cc.
#
# A second clang is rarely installed, so the plugin is rebuilt here believing
# it was made for LLVM 99 (FZ_BUILT_LLVM_MAJOR, the only knob for this), and
# fz-cc is run from a copy of the tree whose fz-llvm-pass.version says 99.
# Any other clang-N found on PATH is also tried against the real plugin.
. "$(dirname "$0")/../lib.sh"

command -v clang >/dev/null || fz_skip "clang is not installed (apt-get install clang llvm-dev)"
so=$FZ_ROOT/lib/fz/fz-llvm-pass.so
[ -e "$so" ] || fz_skip "lib/fz/fz-llvm-pass.so is not built (needs llvm-dev)"
host=$(clang -dumpversion | cut -d. -f1)
llvm_config=${LLVM_CONFIG:-$(command -v "llvm-config-$host" || command -v llvm-config)}
[ -n "$llvm_config" ] || fz_skip "llvm-config is not installed (apt-get install llvm-dev)"

printf 'int main(void) { return 0; }\n' >"$T/x.c"

# expect_error LOG VERSION...: one fz-cc error line naming every VERSION and
# the rebuild command.
expect_error() {
    local log=$1 line
    shift
    line=$(grep 'error: .*built for LLVM' "$log" | head -n 1)
    [ -n "$line" ] || fail "no version error; stderr was: $(cat "$log")"
    for v in "$@"; do
        echo "$line" | grep -q "LLVM $v\\b" || fail "error does not name LLVM $v: $line"
    done
    echo "$line" | grep -q 'make clean && make' || fail "error does not say how to rebuild: $line"
}

# 1. The plugin's own check, as clang loads it.
${CXX:-g++} -DFZ_BUILT_LLVM_MAJOR=99 -I"$FZ_ROOT/include" -I"$FZ_ROOT" \
    $("$llvm_config" --cxxflags | sed 's/-I/-isystem /g') -fno-rtti -fPIC -shared \
    "$FZ_ROOT/plugin/fz-llvm-pass.cc" -o "$T/fz-llvm-pass.so" || fail "cannot build the test plugin"
clang -fpass-plugin="$T/fz-llvm-pass.so" -c "$T/x.c" -o "$T/x.o" 2>"$T/plugin.log" &&
    fail "clang compiled with a plugin built for LLVM 99"
expect_error "$T/plugin.log" 99 "$host"
[ -e "$T/x.o" ] && fail "an object was written despite the version error"
ok "plugin: $(grep -m1 error "$T/plugin.log")"

# 2. fz-cc's explanation, from an install whose .version says 99.
fz_tree_copy "$T/tree"
cp "$T/fz-llvm-pass.so" "$T/tree/lib/fz/fz-llvm-pass.so"
echo 99 >"$T/tree/lib/fz/fz-llvm-pass.version"
"$T/tree/bin/fz-clang" -c "$T/x.c" -o "$T/y.o" 2>"$T/fzcc.log" &&
    fail "fz-clang compiled with a plugin built for LLVM 99"
grep -q "fz-llvm-pass.so was built for LLVM 99 but clang is LLVM $host" "$T/fzcc.log" ||
    fail "fz-clang does not explain the mismatch: $(cat "$T/fzcc.log")"
ok "fz-cc: $(grep 'clang is LLVM' "$T/fzcc.log")"

# 3. The real thing with any other clang that happens to be installed.
built=$(cat "$FZ_ROOT/lib/fz/fz-llvm-pass.version")
for other in $(compgen -c clang- | grep -E '^clang-[0-9]+$' | sort -u); do
    v=${other#clang-}
    [ "$v" = "$built" ] && continue
    "$other" -fpass-plugin="$so" -c "$T/x.c" -o "$T/z.o" 2>"$T/$other.log" &&
        fail "$other compiled with a plugin built for LLVM $built"
    # Some LLVMs refuse the library before our code runs (missing symbols);
    # then fz-cc's message is the one the user sees, so check that too.
    FZ_CC=$other "$FZ_BIN/fz-cc" -c "$T/x.c" -o "$T/z.o" 2>"$T/$other-fzcc.log" &&
        fail "fz-cc with FZ_CC=$other compiled with a plugin built for LLVM $built"
    grep -q "built for LLVM $built but $other is LLVM $v" "$T/$other-fzcc.log" ||
        fail "fz-cc does not explain the $other mismatch: $(cat "$T/$other-fzcc.log")"
    ok "$other: $(grep -m1 error "$T/$other.log")"
done
