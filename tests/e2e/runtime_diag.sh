#!/bin/bash
# runtime_diag.sh - what fz-fuzz cannot see from wait statuses and maps, the
# runtime reports and fz-fuzz explains (runtime/rt-diag.c, fz-fuzz/diag.c):
# testcases/diag_target.c forks, execs, swallows its own SIGSEGV, exits in
# __AFL_LOOP (exit() or _exit()), in a persistent (direct mode) and a
# classic build; each gives
# its warning on stderr and its word in fuzzer_stats' target_warnings, and
# the controls (plain, ASan/UBSan, libFuzzer-style, and a run that closes or
# replaces fds 198/199, which children no longer hold) give none.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-fuzz" ] || fz_skip "bin/fz-fuzz is not built yet"
cd "$T" || exit 1

fzcc -O1 -DPERSISTENT "$FZ_ROOT/testcases/diag_target.c" -o dp || fail "cannot build diag_target.c (persistent)"
fzcc -O1 "$FZ_ROOT/testcases/diag_target.c" -o dc || fail "cannot build diag_target.c (classic)"
fzcc -O1 -fsanitize=address,undefined -DPERSISTENT "$FZ_ROOT/testcases/diag_target.c" -o dsan ||
    fail "cannot build diag_target.c with ASan+UBSan"
fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/libfuzzer_harness.c" -o lf ||
    fail "cannot build libfuzzer_harness.c"
mkdir seeds && printf 'hello' >seeds/a

# fuzz NAME MODE TARGET: 600 runs; leaves the warnings in NAME.warn.
# Without comparison feedback: it would solve the handler mode's "!!!!"
# at once, and the handler's exit(0) in the loop would add exit_in_loop
# (four bytes, so no havoc stream finds them by chance in 600 runs).
fuzz() {
    local rc=0
    FZ_NO_CMPLOG=1 DIAG_MODE=$2 "$FZ_BIN/fz-fuzz" -q -i seeds -o "o-$1" -s 1 -E 600 -- "./$3" >"$1.log" 2>&1 || rc=$?
    [ $rc = 0 ] || { tail -n 5 "$1.log"; fail "$1: fz-fuzz exit $rc"; }
    sed -n 's/^target_warnings *: //p' "o-$1/default/fuzzer_stats" >"$1.warn"
}

# expect NAME WORDS GREP: fuzzer_stats says exactly WORDS, stderr matches GREP.
expect() {
    [ "$(cat "$1.warn")" = "$2" ] || fail "$1: target_warnings is '$(cat "$1.warn")', expected '$2'"
    if [ -n "$3" ]; then
        grep -q "fz-fuzz: warning: .*$3" "$1.log" || { cat "$1.log"; fail "$1: no warning matching '$3'"; }
        [ "$(grep -c 'fz-fuzz: warning:' "$1.log")" = 1 ] || { cat "$1.log"; fail "$1: warned more than once"; }
    elif grep -q 'fz-fuzz: warning:' "$1.log"; then
        cat "$1.log"
        fail "$1: unexpected warning"
    fi
}

for b in dp dc; do
    fuzz "$b-none" none $b && expect "$b-none" none ""
    fuzz "$b-handler" handler $b && expect "$b-handler" "handler:SIGSEGV" "own handler for SIGSEGV"
    fuzz "$b-fork" fork $b && expect "$b-fork" "fork" "forks during runs"
    fuzz "$b-exec" exec $b && expect "$b-exec" "exec:true" "runs exec 'true'"
    fuzz "$b-self" exec_self $b && expect "$b-self" "exec_instrumented:$b" "instrumented program '$b'"
done
fuzz dp-exit exit dp && expect dp-exit "exit_in_loop" "leaves __AFL_LOOP through exit"
# _exit() runs no exit handlers: the forkserver sees the child exit mid-run.
fuzz dp-_exit _exit dp && expect dp-_exit "exit_in_loop" "leaves __AFL_LOOP through exit"
# A child closes 198/199 right after fork() in both modes (direct mode
# talks through the control page): closing or replacing them in a run is
# harmless, and a direct-mode child keeps serving runs.
fuzz dp-close close_fds dp && expect dp-close none ""
fuzz dp-dup dup_fds dp && expect dp-dup none ""
for m in close dup; do
    epf=$(awk -F' *: *' '$1=="execs_per_fork"{print int($2)}' "o-dp-$m/default/fuzzer_stats")
    [ "$epf" -gt 10 ] || fail "dp-$m: execs_per_fork $epf, expected the child to live on"
done
fuzz dc-close close_fds dc && expect dc-close none ""
# In a classic build exit() is how every run ends: nothing to say.
fuzz dc-exit exit dc && expect dc-exit none ""
# Sanitizers install their handlers before the runtime looks: not the program's.
fuzz dsan none dsan && expect dsan none ""
fuzz lf none lf && expect lf none ""
# The swallowed crash really is invisible: that is why the warning matters.
printf '!' >seeds/b
fuzz dc-swallow handler dc
[ -z "$(ls o-dc-swallow/default/crashes/ 2>/dev/null | grep id:)" ] || fail "the handler did not swallow the crash"
ok "fork, exec, exec of an instrumented program, own SIGSEGV handler and exit in the loop each reported once; controls clean"
