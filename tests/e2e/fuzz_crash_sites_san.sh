#!/bin/bash
# fuzz_crash_sites_san.sh - in sanitizer builds a crash's site comes from the
# sanitizer's report, not from the abort() that follows it (whose stack is
# the sanitizer's own): ASan's first stack (module+offset, libc frames
# skipped), UBSan's source file, line and column.  Seeds one mutation away
# from testcases/sanitizer_target.c's bugs keep it quick; finding them from
# scratch is runtime_sanitizers.sh's job.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
unset ASAN_OPTIONS UBSAN_OPTIONS # fz-fuzz's defaults are under test
fzcc -g -O1 -fsanitize=address "$FZ_ROOT/testcases/sanitizer_target.c" -o asan ||
    fail "fz-cc cannot build sanitizer_target.c with ASan"
fzcc -g -O1 -fsanitize=undefined "$FZ_ROOT/testcases/sanitizer_target.c" -o ubsan ||
    fail "fz-cc cannot build sanitizer_target.c with UBSan"
mkdir seeds && printf 'AR__' >seeds/a && printf 'UA\t' >seeds/u
# site NAME PATTERN: fuzz ./NAME; the end-of-run site line matches PATTERN.
site() {
    local rc=0
    fz-fuzz -q -s 1 -E 4000 -i seeds -o "o-$1" -- "./$1" >"$1.log" 2>&1 || rc=$?
    [ $rc = 3 ] || { tail -n 5 "$1.log"; fail "$1: fz-fuzz exited $rc, not 3"; }
    grep -q "^  SIGABRT at $2" "$1.log" || { cat "$1.log"; fail "$1: no site from the report"; }
    grep -q "^unique_crash_sites *: 1$" "o-$1/default/fuzzer_stats" ||
        fail "$1: one planted bug, but $(grep unique_crash_sites "o-$1/default/fuzzer_stats")"
    ok "$1: $(grep "^  SIGABRT at" "$1.log" | head -n 1)"
}
site asan "asan+0x[0-9a-f]* < asan+0x[0-9a-f]*.* (ASan):$"
site ubsan "sanitizer_target.c:[0-9]*:[0-9]* (UBSan):$"
