#!/bin/bash
# fzcc_build.sh - what fz-cc builds works: AFL++-style persistent +
# shared-memory harnesses compile and link as C and C++, libFuzzer harnesses
# link fz's driver with -fsanitize=fuzzer (alone, split compile/link, and
# with address), sanitizers pass through, an instrumented shared library
# dlopen'ed by an instrumented program registers its edges in the map but
# does not carry the runtime, and the modules of one program (main, two
# more objects, a linked shared library) get disjoint slot ranges.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

for f in "$FZ_PLUGIN" fz-rt.o fz-libfuzzer.o; do
    [ -e "$FZ_ROOT/lib/fz/$f" ] || fz_skip "lib/fz/$f is not built yet"
done
cd "$T"

# --- AFL++ persistent mode with shared-memory test cases, C and C++ ------
cat >afl.c <<'EOF'
#include <stdio.h>
#include <string.h>
__AFL_FUZZ_INIT();
int main(void)
{
#ifdef __AFL_HAVE_MANUAL_CONTROL
    __AFL_INIT();
#endif
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    int runs = 0;
    while (__AFL_LOOP(1000)) {
        int len = __AFL_FUZZ_TESTCASE_LEN;
        runs++;
        if (len >= 3 && !memcmp(buf, "abc", 3))
            printf("abc %d\n", len);
        else
            printf("other %d\n", len);
    }
    return runs == 1 ? 0 : 2;
}
EOF
cp afl.c afl.cc
for o in -O0 -O2; do
    fzcc $o -Wall -Wextra -Werror afl.c -o afl-c || fail "C persistent harness does not build at $o"
    fzcxx $o -Wall -Wextra -Werror afl.cc -o afl-cxx || fail "C++ persistent harness does not build at $o"
    for p in afl-c afl-cxx; do
        [ "$(printf abcdef | ./$p)" = "abc 6" ] || fail "$p $o: wrong output outside the fuzzer: $(printf abcdef | ./$p)"
        [ "$(printf xy | ./$p)" = "other 2" ] || fail "$p $o: wrong output for another input"
        grep -q '##SIG_AFL_PERSISTENT##' $p || fail "$p: no persistent-mode signature in the binary"
        grep -q '##SIG_AFL_DEFER_FORKSRV##' $p || fail "$p: no deferred-init signature in the binary"
    done
done
ok "AFL++ persistent + shared-memory harness builds and runs as C and C++ ($FZ_TEST_CC)"

# --- an installed copy finds its lib/fz next to its bin/ -----------------
mkdir -p inst/bin inst/lib/fz
cp "$FZ_BIN/fz-cc" inst/bin/ && ln -s fz-cc inst/bin/fz-clang++ && ln -s fz-cc inst/bin/fz-c++
cp "$FZ_ROOT"/lib/fz/* inst/lib/fz/
case $FZ_TEST_CC in gcc) cxx=inst/bin/fz-c++ ;; clang) cxx=inst/bin/fz-clang++ ;; esac
$cxx -O1 afl.cc -o afl-inst 2>err.txt || fail "a copy of bin/ + lib/fz/ does not build: $(cat err.txt)"
[ "$(printf abcdef | ./afl-inst)" = "abc 6" ] || fail "the installed copy built a wrong program"
ok "a copy of bin/ and lib/fz/ elsewhere builds through a symlinked name"

# --- libFuzzer harnesses -------------------------------------------------
cat >lf.c <<'EOF'
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
int check(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    printf("got %zu %d\n", size, check(data, size));
    return 0;
}
EOF
cat >check.c <<'EOF'
#include <stddef.h>
#include <stdint.h>
int check(const uint8_t *d, size_t n) { return n > 0 && d[0] == 'F'; }
EOF
printf 'Fuzz' >in1
fzcc -fsanitize=fuzzer lf.c check.c -o lf1 || fail "-fsanitize=fuzzer does not link"
[ "$(./lf1 in1)" = "got 4 1" ] || fail "-fsanitize=fuzzer harness: wrong output for a file: $(./lf1 in1)"
[ "$(./lf1 <in1)" = "got 4 1" ] || fail "-fsanitize=fuzzer harness: wrong output for stdin"
fzcc -fsanitize=fuzzer-no-link -c check.c -o check.o || fail "-fsanitize=fuzzer-no-link does not compile"
fzcc -fsanitize=fuzzer -c lf.c -o lf.o || fail "-fsanitize=fuzzer -c does not compile"
fzcc -fsanitize=fuzzer lf.o check.o -o lf2 || fail "-fsanitize=fuzzer link of objects failed"
[ "$(./lf2 in1)" = "got 4 1" ] || fail "split-built -fsanitize=fuzzer harness: wrong output"
fzcc -g -fsanitize=fuzzer,address lf.c check.c -o lf3 || fail "-fsanitize=fuzzer,address does not link"
grep -q __asan_init lf3 || fail "-fsanitize=fuzzer,address lost AddressSanitizer"
[ "$(./lf3 in1)" = "got 4 1" ] || fail "-fsanitize=fuzzer,address harness: wrong output"
ok "-fsanitize=fuzzer, fuzzer-no-link and fuzzer,address build fz's driver"

# --- sanitizers pass through ---------------------------------------------
cat >asan.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    char *p = malloc(4);
    int i = argc > 1 ? atoi(argv[1]) : 0;
    p[i] = 1; /* out of bounds for i >= 4 */
    printf("%d\n", p[0]);
    free(p);
    return 0;
}
EOF
fzcc -g -O1 -fsanitize=address,undefined asan.c -o asan || fail "-fsanitize=address,undefined does not build"
ASAN_OPTIONS=detect_leaks=0 ./asan 0 >/dev/null || fail "ASan build fails on a valid run"
ASAN_OPTIONS=detect_leaks=0 ./asan 8 >/dev/null 2>err.txt && fail "ASan missed a heap overflow"
grep -q 'heap-buffer-overflow' err.txt || fail "no ASan report: $(head -5 err.txt)"
ok "AddressSanitizer works in an fz-cc build"

# --- an instrumented shared library, dlopen'ed ---------------------------
# Calls in the branches keep clang from folding them into a select.
cat >lib.c <<'EOF'
#include <stdio.h>
int lib_branch(const char *s)
{
    if (s[0] == '1') {
        fputs("one\n", stderr);
        return 10;
    }
    if (s[0] == '2') {
        fputs("two\n", stderr);
        return 20;
    }
    return 30;
}
EOF
cat >main.c <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    char buf[16] = {0};
    if (!fgets(buf, sizeof buf, stdin))
        return 1;
    void *h = dlopen(argv[1], RTLD_NOW);
    if (!h)
        return 2;
    int (*f)(const char *) = (int (*)(const char *))dlsym(h, "lib_branch");
    printf("%d\n", f(buf));
    return 0;
}
EOF
fzcc -shared -fPIC -O2 lib.c -o libbranch.so || fail "-shared library does not build"
# has_runtime LIB: LIB defines the runtime's registration function (in any
# symbol table: the runtime's own symbols may be hidden, __fz_register is
# not).  Checked on a library that does link the runtime, so the test
# cannot pass by looking for the wrong thing.
has_runtime() { nm --defined-only "$1" 2>/dev/null | grep -qE ' [TtWw] __fz_register$'; }
plaincc -shared -fPIC lib.c "$FZ_ROOT/lib/fz/fz-rt.o" -o libwithrt.so || fail "cannot link the runtime into a library"
has_runtime libwithrt.so || fail "the runtime check does not see a runtime linked into a library"
has_runtime libbranch.so && fail "fz-cc -shared linked the runtime into the library"
nm -u libbranch.so | grep -qE ' w __fz_register$' || fail "the library does not reference __fz_register weakly"
fzcc -O2 main.c -o dlmain -ldl || fail "dlopen program does not build"
nm -D dlmain | grep -q ' T __fz_register' || fail "__fz_register is not exported for dlopen'ed libraries"
[ "$(echo 1 | ./dlmain ./libbranch.so 2>/dev/null)" = 10 ] || fail "dlopen program: wrong output"
if [ -x "$FZ_BIN/fz-showmap" ]; then
    for i in 1 2; do
        echo $i | "$FZ_BIN/fz-showmap" -o map$i -- ./dlmain ./libbranch.so >/dev/null 2>&1
    done
    [ -s map1 ] || fail "empty map for the dlopen program"
    cmp -s map1 map2 && fail "library edges are not in the map: inputs 1 and 2 give the same map"
    ok "dlopen'ed instrumented library registers: maps differ ($(wc -l <map1) vs $(wc -l <map2) edges)"
else
    ok "dlopen'ed instrumented library runs (bin/fz-showmap not built: map not checked)"
fi

# --- slots are collision-free across modules -----------------------------
# main.c dispatches on the first input byte to a function in a.o, b.o or
# libc3.so, which branches on the second byte; main does not look at the
# second byte.  So the slots that differ between "a1" and "a2" are a.o's
# own, and so on.  Each module registers its own range: those sets must be
# non-empty, lit by no input of another module, and lie in disjoint,
# non-interleaved ranges.
[ -x "$FZ_BIN/fz-showmap" ] || fz_skip "bin/fz-showmap is not built; slot ranges not checked"
for m in a b c; do
    cat >mod_$m.c <<EOF2
#include <stdio.h>
int in_$m(int c)
{
    if (c == '1') {
        fputs("$m one\\n", stderr);
        return 1;
    }
    if (c == '2') {
        fputs("$m two\\n", stderr);
        return 2;
    }
    fputs("$m other\\n", stderr);
    return 3;
}
EOF2
done
cat >slots_main.c <<'EOF2'
#include <stdio.h>
int in_a(int c), in_b(int c), in_c(int c);
int main(void)
{
    char buf[8] = {0};
    if (!fgets(buf, sizeof buf, stdin))
        return 1;
    int (*f)(int) = buf[0] == 'a' ? in_a : buf[0] == 'b' ? in_b : in_c;
    printf("%d\n", f(buf[1]));
    return 0;
}
EOF2
fzcc -O1 -c mod_a.c -o mod_a.o && fzcc -O1 -c mod_b.c -o mod_b.o &&
    fzcc -O1 -shared -fPIC mod_c.c -o libc3.so &&
    fzcc -O1 slots_main.c mod_a.o mod_b.o -L. -lc3 -Wl,-rpath,"$T" -o slots ||
    fail "the four-module program does not build"
[ "$(echo a2 | ./slots 2>/dev/null)" = 2 ] && [ "$(echo c1 | ./slots 2>/dev/null)" = 1 ] ||
    fail "the four-module program runs wrongly"
for i in a1 a2 b1 b2 c1 c2; do
    echo $i | "$FZ_BIN/fz-showmap" -q -e -o - -- ./slots 2>/dev/null | cut -d: -f1 | sort -n >s.$i
    [ -s s.$i ] || fail "empty map for input $i"
done
# own M: slots lit by exactly one of M's two inputs.
own() { comm -3 s.${1}1 s.${1}2 | tr -d '\t' | sort -n; }
for m in a b c; do
    own $m >own.$m
    [ -s own.$m ] || fail "module $m: its two inputs light the same slots"
    others=$(ls s.* | grep -v "^s\.$m" | xargs cat | sort -nu)
    shared=$(comm -12 own.$m <(echo "$others") | tr '\n' ' ')
    [ -z "$shared" ] || fail "module $m's own slots are lit by other modules' inputs too: $shared"
done
ranges=$(for m in a b c; do echo "$(head -n 1 own.$m) $(tail -n 1 own.$m) $m"; done | sort -n)
echo "$ranges" | awk 'NR > 1 && $1 <= last { bad = 1 } { last = $2 } END { exit bad }' ||
    fail "module slot ranges interleave: $(echo "$ranges" | tr '\n' ';')"
ok "main + 2 objects + a shared library: disjoint slot ranges ($(echo "$ranges" | awk '{ printf "%s %s-%s; ", $3, $1, $2 }'))"
exit 0
