#!/bin/bash
# fzcc_passthrough.sh - fz-cc is invisible where a build system looks:
# non-compiling calls print exactly what the plain compiler prints, a compile
# prints nothing on stdout, configure probes print nothing extra, exit
# statuses match, and bad set-ups fail with one line naming the cause.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

case $FZ_TEST_CC in
gcc) name=fz-cc var=FZ_CC plugin=fz-gcc-plugin.so ;;
clang) name=fz-clang var=FZ_CC plugin=fz-llvm-pass.so ;;
esac
[ -x "$FZ_BIN/fz-cc" ] || fail "bin/fz-cc is not built; run make"

cd "$T"
cat >x.c <<'EOF'
#include <stdio.h>
#define GREETING "hello"
int main(void) { puts(GREETING); return 0; }
EOF

# same NAME ARGS...: stdout, stderr and exit status equal the plain compiler's.
same() {
    local what=$1
    shift
    fzcc "$@" >fz.out 2>fz.err
    local rc_fz=$?
    plaincc "$@" >plain.out 2>plain.err
    local rc_plain=$?
    [ $rc_fz = $rc_plain ] || fail "$what: exit $rc_fz, plain compiler exits $rc_plain"
    cmp -s fz.out plain.out || fail "$what: stdout differs from the plain compiler's: $(diff fz.out plain.out | head -5)"
    cmp -s fz.err plain.err || fail "$what: stderr differs from the plain compiler's: $(diff fz.err plain.err | head -5)"
    ok "$what is identical to $FZ_TEST_CC"
}

same "-E" -E x.c
same "-E -dM" -E -dM x.c
same "-M" -M x.c
same "-MM -c" -MM -c x.c
# --version: the compiler's own answer first, unchanged, then fz's line.
fzcc --version >fz.out 2>fz.err && plaincc --version >plain.out 2>plain.err || fail "--version failed"
head -n "$(wc -l <plain.out)" fz.out | cmp -s - plain.out || fail "--version: the compiler's answer is changed"
[ "$(($(wc -l <plain.out) + 1))" = "$(wc -l <fz.out)" ] || fail "--version: want one added line"
tail -1 fz.out | grep -Eq '^fz-c[a-z+]* \(fz\) [0-9]' || fail "--version: no fz line: $(tail -1 fz.out)"
cmp -s fz.err plain.err || fail "--version: stderr differs"
ok "--version: $FZ_TEST_CC's answer unchanged, then '$(tail -1 fz.out | cut -c1-40)...'"
same "-dumpmachine" -dumpmachine
same "-dumpversion" -dumpversion
same "-print-file-name" -print-file-name=libc.so
same "-print-prog-name" -print-prog-name=ld
same "-v" -v
same "no input" -O2
same "missing input" -c does-not-exist.c
same "-fsyntax-only" -fsyntax-only x.c
# -E sees none of fz's macros: configure's preprocessor probes match.
fzcc -E -dM x.c | grep -q __AFL_COMPILER && fail "-E output defines __AFL_COMPILER"

# A failed compile exits like the plain one and says the same.
echo 'int main(void) { return syntax error; }' >bad.c
fzcc -c bad.c -o bad.o >/dev/null 2>&1
rc_fz=$?
plaincc -c bad.c -o bad.o >/dev/null 2>&1
[ $rc_fz = $? ] || fail "a failing compile exits $rc_fz, not like the plain compiler"
ok "a failing compile exits $rc_fz like $FZ_TEST_CC"

# Bad FZ_CC: one line naming the variable and the path tried.
for tried in /nonexistent/cc no-such-compiler-xyz; do
    FZ_CC=$tried "$FZ_BIN/$name" -c x.c -o x.o 2>err.txt && fail "FZ_CC=$tried succeeded"
    [ "$(wc -l <err.txt)" = 1 ] || fail "FZ_CC=$tried: expected one line, got: $(cat err.txt)"
    grep -q "FZ_CC=$tried" err.txt && grep -q "'\?$tried" err.txt ||
        fail "FZ_CC=$tried: message does not name the variable and path: $(cat err.txt)"
    ok "FZ_CC=$tried: $(cat err.txt)"
done
FZ_CXX=/nonexistent/c++ "$FZ_BIN/fz-c++" -c x.c 2>err.txt && fail "FZ_CXX=/nonexistent/c++ succeeded"
grep -q "FZ_CXX=/nonexistent/c++" err.txt || fail "FZ_CXX: message does not name it: $(cat err.txt)"
ok "FZ_CXX: $(cat err.txt)"

# Broken install: a copy of bin/ with a partial lib/fz.
mkdir -p inst/bin inst/lib/fz
cp "$FZ_BIN/fz-cc" inst/bin/
ln -s fz-cc inst/bin/fz-clang
inst/bin/$name --version >/dev/null || fail "--version needs no plugin, yet failed in a broken install"
inst/bin/$name -c x.c -o x.o 2>err.txt && fail "compiling without $plugin succeeded"
[ "$(wc -l <err.txt)" = 1 ] && grep -q "$T/inst/lib/fz/$plugin" err.txt ||
    fail "missing plugin: message does not name $T/inst/lib/fz/$plugin: $(cat err.txt)"
ok "missing plugin: $(cat err.txt)"
plaincc -c x.c -o x.o || fail "plain compile failed"
# Only the runtime missing now (GCC links load the plugin too, for -flto).
cp "$FZ_ROOT/lib/fz/$plugin" inst/lib/fz/
inst/bin/$name x.o -o x 2>err.txt && fail "linking without fz-rt.o succeeded"
grep -q "$T/inst/lib/fz/fz-rt.o" err.txt || fail "missing runtime: message does not name it: $(cat err.txt)"
ok "missing runtime: $(cat err.txt)"

if [ "$FZ_TEST_CC" = clang ]; then
    # A pass built for another LLVM: clang fails to load it, fz-cc explains.
    echo "not an ELF file" >inst/lib/fz/fz-llvm-pass.so
    echo 99 >inst/lib/fz/fz-llvm-pass.version
    inst/bin/fz-clang -c x.c -o x.o 2>err.txt && fail "a broken pass plugin loaded"
    major=$(clang -dumpversion | cut -d. -f1)
    grep "LLVM 99" err.txt | grep "LLVM $major" | grep -q "make clean && make" ||
        fail "version mismatch is not explained: $(cat err.txt)"
    ok "version mismatch: $(grep 'LLVM 99' err.txt)"
fi

# The rest compiles for real and needs the built plugin and runtime.
for f in $plugin fz-rt.o; do
    [ -e "$FZ_ROOT/lib/fz/$f" ] || fz_skip "lib/fz/$f is not built yet; pass-through checks passed"
done

# A compile prints nothing on stdout; the report goes to stderr.
FZ_QUIET= fzcc -O2 -c x.c -o x.o >out.txt 2>err.txt || fail "compile failed: $(cat err.txt)"
[ -s out.txt ] && fail "a compile printed on stdout: $(cat out.txt)"
ok "compile: stdout empty, stderr: $(cat err.txt)"
FZ_QUIET=1 fzcc -O2 -c x.c -o x.o >out.txt 2>err.txt || fail "compile failed"
[ -s out.txt ] || [ -s err.txt ] && fail "FZ_QUIET=1 compile printed: $(cat out.txt err.txt)"
ok "FZ_QUIET=1 compile prints nothing"

# A configure probe prints exactly what the plain compiler prints, even
# without FZ_QUIET, and its program runs like the plain one.
cp x.c conftest.c
FZ_QUIET= fzcc -o conftest -g -O2 conftest.c >fz.out 2>fz.err || fail "conftest link failed: $(cat fz.err)"
plaincc -o conftest.plain -g -O2 conftest.c >plain.out 2>plain.err
cmp -s fz.out plain.out && cmp -s fz.err plain.err ||
    fail "conftest compile printed something extra: $(cat fz.out fz.err)"
[ "$(./conftest)" = "$(./conftest.plain)" ] || fail "conftest output differs"
ok "conftest probe prints nothing extra"
exit 0
