#!/bin/bash
# libfuzzer_env.sh - the harness fuzzed under the driver runs with the
# caller's sanitizer options: ASAN_OPTIONS as the caller set it, and
# LSAN_OPTIONS as the caller set it or, unset, empty (so that fz-fuzz's
# own LSAN_OPTIONS default, fast_unwind_on_malloc=0, which makes ASan take
# every malloc's stack with the slow unwinder, is not applied); the
# driver's own process is left as it was started.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -e "$FZ_ROOT/lib/fz/fz-libfuzzer.o" ] && [ -x "$FZ_BIN/fz-fuzz" ] || fail "build fz first (make)"
cd "$T" || exit 1
fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/lf_env.c" -o h || fail "cannot build lf_env.c"
unset LSAN_OPTIONS UBSAN_OPTIONS
mkdir c1 c2 && printf 'a' >c1/s && printf 'a' >c2/s

ASAN_OPTIONS=detect_leaks=1 LF_ENV_OUT=$T/env1 ./h -runs=200 -seed=1 c1 >/dev/null 2>err ||
    { cat err; fail "fuzzing failed"; }
grep -q '^driver LSAN_OPTIONS=unset ASAN_OPTIONS=detect_leaks=1 ' env1 || { cat env1; fail "the driver's own environment changed"; }
grep -q '^fuzzed ' env1 || { cat env1; fail "the fuzzed harness never started"; }
grep '^fuzzed ' env1 | grep -qv ' LSAN_OPTIONS= ASAN_OPTIONS=detect_leaks=1 ' &&
    { cat env1; fail "the fuzzed harness did not get LSAN_OPTIONS empty and the caller's ASAN_OPTIONS"; }
ok "unset LSAN_OPTIONS reaches the fuzzed harness empty; ASAN_OPTIONS as given"

LSAN_OPTIONS=verbosity=0 ASAN_OPTIONS=detect_leaks=1 LF_ENV_OUT=$T/env2 ./h -runs=200 -seed=1 c2 >/dev/null 2>err ||
    { cat err; fail "fuzzing failed"; }
grep '^fuzzed ' env2 | grep -qv ' LSAN_OPTIONS=verbosity=0 ' && { cat env2; fail "the caller's LSAN_OPTIONS was not kept"; }
grep -q '^fuzzed ' env2 || fail "the fuzzed harness never started"
ok "the caller's LSAN_OPTIONS reaches the fuzzed harness as given"
