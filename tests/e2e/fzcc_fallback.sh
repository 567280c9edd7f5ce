#!/bin/bash
# fzcc_fallback.sh - the build never breaks because of fz: when the
# compiler crashes with fz's comparison pass or edge pass loaded, fz-cc
# builds the file again without that part, says so in one stderr line
# naming the file and the part, and logs it in FZ_CC_FALLBACK_LOG;
# FZ_CC_NO_FALLBACK=1 keeps the crash an error.  Ordinary compile errors
# and warnings pass through untouched, with no retry.  The crash is forced
# with FZ_TEST_CRASH=PART:FUNCTION, the plugins' test-only fault switch
# (plugin/fz-test-crash.h).
# matrix: cc
. "$(dirname "$0")/../lib.sh"

[ -x "$FZ_BIN/fz-showmap" ] || fz_skip "bin/fz-showmap is not built"
cd "$T"
cat >t.c <<'EOF2'
#include <stdio.h>
#include <string.h>
int check(const char *s)
{
    if (strcmp(s, "MAGIC") == 0)
        return 2;
    return s[0] == 'x' ? 1 : 0;
}
int main(void)
{
    char buf[64] = {0};
    if (!fgets(buf, sizeof buf, stdin))
        return 3;
    buf[strcspn(buf, "\n")] = 0;
    printf("%d\n", check(buf));
    return 0;
}
EOF2
export FZ_CC_FALLBACK_LOG=$T/fallback.log
unset FZ_CC_NO_FALLBACK FZ_NO_CMP
name=$([ $FZ_TEST_CC = gcc ] && echo gcc || echo clang)

# The comparison pass crashes: built again without comparison hooks.
FZ_QUIET=0 FZ_TEST_CRASH=cmp:check fzcc -O2 -g t.c -o t_cmp 2>cmp.err || fail "fallback from the comparison pass failed: $(cat cmp.err)"
[ "$(grep -c 'crashed on' cmp.err)" = 1 ] || fail "not one fallback line: $(cat cmp.err)"
grep -q "warning: $name crashed on t.c with fz's comparison pass (fz-cmp); built it again without comparison hooks" cmp.err ||
    fail "the fallback line does not name the file and the pass: $(cat cmp.err)"
grep -q -e 'internal compiler error' -e 'PLEASE submit' cmp.err && fail "the crash report leaked into a build that succeeded: $(cat cmp.err)"
grep -q 'edges instrumented in t.c' cmp.err || fail "edges not instrumented after dropping the comparison pass: $(cat cmp.err)"
grep -q 'comparison sites hooked' cmp.err && fail "comparison sites still hooked: $(cat cmp.err)"
[ "$(wc -l <fallback.log)" = 1 ] && grep -q "	fallback-cmp	t.c	$name	$T	" fallback.log ||
    fail "FZ_CC_FALLBACK_LOG does not have the one fallback-cmp line: $(cat fallback.log)"
echo MAGIC | ./t_cmp | grep -qx 2 || fail "the fallback build misbehaves"
"$FZ_BIN/fz-showmap" -q -o map -- ./t_cmp <<<"x" || true
[ -s map ] || fail "the fallback build has no coverage map"
ok "comparison pass crash: rebuilt with edges only, one line, logged"

# The edge pass crashes: built again without instrumentation.
FZ_TEST_CRASH=edge:check fzcc -O2 -g t.c -o t_edge 2>edge.err || fail "fallback from the edge pass failed: $(cat edge.err)"
grep -q "warning: $name crashed on t.c with fz's instrumentation; built it again without fz's instrumentation" edge.err ||
    fail "the fallback line does not say the file went uninstrumented: $(cat edge.err)"
tail -n 1 fallback.log | grep -q "	fallback-plain	t.c	$name	" || fail "no fallback-plain line: $(cat fallback.log)"
echo MAGIC | ./t_edge | grep -qx 2 || fail "the uninstrumented fallback build misbehaves"
ok "edge pass crash: rebuilt uninstrumented, one line, logged"

# FZ_CC_NO_FALLBACK=1: the crash is an error, the compiler's report shown.
rm -f t_hard
FZ_CC_NO_FALLBACK=1 FZ_TEST_CRASH=cmp:check fzcc -O2 -c t.c -o t_hard.o 2>hard.err && fail "FZ_CC_NO_FALLBACK=1 still built"
[ -e t_hard.o ] && fail "FZ_CC_NO_FALLBACK=1 left an object"
grep -q -e 'internal compiler error' -e 'PLEASE submit' hard.err || fail "the compiler's crash report is not shown: $(cat hard.err)"
grep -q "error: $name crashed on t.c with fz's instrumentation loaded; FZ_CC_NO_FALLBACK is set" hard.err ||
    fail "no error line naming the file: $(cat hard.err)"
tail -n 1 fallback.log | grep -q "	crash	t.c	$name	" || fail "the crash is not logged: $(cat fallback.log)"
ok "FZ_CC_NO_FALLBACK=1: the crash is an error"

# Ordinary errors and warnings: the compiler's own messages and status, no retry.
lines=$(wc -l <fallback.log)
printf 'int f(void) { return 1 }\n' >bad.c
plaincc -c bad.c -o bad.o 2>bad.plain; want=$?
fzcc -c bad.c -o bad.o 2>bad.err; got=$?
[ $got = $want ] && [ $got != 0 ] || fail "syntax error: status $got, plain $want"
diff bad.plain bad.err >/dev/null || fail "syntax error messages differ from plain: $(diff bad.plain bad.err)"
printf 'int g(int x) { int unused; return x; }\n' >warn.c
plaincc -Wall -c warn.c -o w1.o 2>warn.plain || fail "plain warn.c"
fzcc -Wall -c warn.c -o w2.o 2>warn.err || fail "fz-cc warn.c"
diff warn.plain warn.err >/dev/null || fail "warnings differ from plain: $(diff warn.plain warn.err)"
[ "$(wc -l <fallback.log)" = $lines ] || fail "an ordinary error was logged as a fallback: $(cat fallback.log)"
ok "ordinary errors and warnings pass through unchanged"
