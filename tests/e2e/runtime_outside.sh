#!/bin/bash
# runtime_outside.sh - an instrumented program behaves like the plain build
# when no fuzzer is there (issue 3): same output, nothing extra on stderr;
# __AFL_FUZZ_TESTCASE_* fall back to stdin; a libFuzzer harness runs
# `./harness FILE...` once per file (ignoring -flags), reads stdin without
# arguments, and calls LLVMFuzzerInitialize; an inherited fd 199 that is not
# a pipe does not switch the forkserver on.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"
cd "$T" || exit 1

fzcc -O1 "$FZ_ROOT/testcases/persistent.c" -o pers || fail "fz-cc cannot build persistent.c"
plaincc -O1 "$FZ_ROOT/testcases/persistent.c" -o pers_plain || fail "plain build of persistent.c"
fzcc -O1 "$FZ_ROOT/testcases/rt_branches.c" -o br || fail "fz-cc cannot build rt_branches.c"
plaincc -O1 "$FZ_ROOT/testcases/rt_branches.c" -o br_plain || fail "plain build of rt_branches.c"

# Same output as the plain build, for a few inputs, on stdout and stderr.
# (Not the empty input: the plain fallback in persistent.c then runs no pass.)
for input in 'F' 'FZa' 'hello world' 'BU' '42'; do
    printf '%s' "$input" | ./pers >o1 2>e1
    printf '%s' "$input" | ./pers_plain >o2 2>e2
    cmp -s o1 o2 || fail "persistent.c on '$input': fz-cc build printed '$(cat o1)', plain '$(cat o2)'"
    [ -s e1 ] && fail "persistent.c on '$input': fz-cc build wrote to stderr: $(cat e1)"
    printf '%s' "$input" | ./br >o1 2>e1
    printf '%s' "$input" | ./br_plain >o2 2>e2
    cmp -s o1 o2 || fail "rt_branches.c on '$input': outputs differ"
    [ -s e1 ] && fail "rt_branches.c on '$input': fz-cc build wrote to stderr: $(cat e1)"
done
ok "fz-cc builds print what plain builds print (stdin fallback for __AFL_FUZZ_TESTCASE_*)"

# The planted crash reproduces outside the fuzzer as the same signal.
printf 'FZ!' | ./pers >/dev/null 2>&1
rc=$?
[ $rc = 134 ] || fail "persistent.c on 'FZ!': exit $rc, expected 134 (SIGABRT)"
ok "persistent.c crash reproduces from stdin"

# An fd 199 that is a regular file (not the fuzzer's pipe) is left alone.
printf 'hello' | ./br 199>fd199 198<fd199 >o1 || fail "rt_branches with a stray fd 199 failed"
[ -s fd199 ] && fail "the runtime wrote to a stray fd 199 that is not a pipe"
ok "a stray fd 199 does not start the forkserver"

# libFuzzer driver: reproduce mode, stdin, flags, initialize.
fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/libfuzzer_harness.c" -o lf ||
    fail "fz-cc -fsanitize=fuzzer cannot build libfuzzer_harness.c"
printf 'abc' >a
printf 'defgh' >b
printf 'LF!' >crash
RT_INIT_LOG=init.log ./lf -runs=1 a b >out 2>err || fail "./lf a b failed: $(cat err)"
[ "$(cat out)" = "$(printf 'input of 3 bytes\ninput of 5 bytes')" ] ||
    fail "./lf a b ran: $(cat out)"
[ "$(wc -l <init.log)" = 1 ] || fail "LLVMFuzzerInitialize ran $(wc -l <init.log) times, expected 1"
./lf <b >out 2>err || fail "./lf < b failed"
[ "$(cat out)" = "input of 5 bytes" ] || fail "./lf < b ran: $(cat out)"
mkdir corpus && cp a b corpus/
# A directory is a corpus to fuzz, as with libFuzzer (tests/e2e/libfuzzer_cli.sh);
# -runs=0 is libFuzzer's "run the corpus once and stop".
./lf -runs=0 corpus >/dev/null 2>err || fail "./lf -runs=0 DIR failed: $(cat err)"
grep -q '^Done ' err || fail "./lf -runs=0 DIR printed no 'Done N runs' line: $(cat err)"
./lf crash >/dev/null 2>&1
rc=$?
[ $rc = 77 ] || fail "./lf crash: exit $rc, expected 77 (libFuzzer's deadly-signal exit)"
./lf does-not-exist >/dev/null 2>err && fail "./lf on a missing file succeeded"
grep -q 'does-not-exist" does not exist' err || fail "missing file: unclear message: $(cat err)"
ok "libFuzzer driver: FILE... once each, -runs=0 DIR, stdin, initialize once"
