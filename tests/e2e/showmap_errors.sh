#!/bin/bash
# showmap_errors.sh - the forkserver client's diagnoses, seen through
# fz-showmap: missing target, not executable, not instrumented (points to
# -n), crash at start-up before the handshake, a timeout (exit 2).
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-showmap" ] || fail "build fz first (make)"
cd "$T" || exit 1

expect_error() { # name pattern command...
    local name=$1 pat=$2
    shift 2
    "$@" </dev/null >out.txt 2>err.txt
    rc=$?
    [ $rc = 1 ] || fail "$name: exit $rc, expected 1; stderr: $(cat err.txt)"
    [ "$(wc -l <err.txt)" = 1 ] || fail "$name: message is not one line: $(cat err.txt)"
    grep -q -- "$pat" err.txt || fail "$name: message lacks '$pat': $(cat err.txt)"
    ok "$name: $(cat err.txt)"
}

expect_error "missing target" "not found" fz-showmap -o m -- ./no-such-target @@
expect_error "missing from PATH" "not found in PATH" fz-showmap -o m -- no-such-target-xyz
printf 'data' >notexec
expect_error "not executable" "not an executable" fz-showmap -o m -- ./notexec
plaincc -O1 "$FZ_ROOT/testcases/exec_branches.c" -o plain || fail "cannot build plain target"
expect_error "not instrumented" "-n" fz-showmap -o m -- ./plain @@
grep -q "not instrumented" err.txt || fail "does not say 'not instrumented'"
printf '#include <signal.h>\nint main(void){raise(SIGSEGV);return 0;}\n' >boom.c
plaincc boom.c -o boom || fail "cannot build boom.c"
expect_error "crash at start-up" "signal 11" fz-showmap -o m -- ./boom
expect_error "bad -t" "-t needs a number" fz-showmap -t abc -o m -- ./plain

if [ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ]; then
    printf '#include <unistd.h>\nint main(void){for(;;)pause();}\n' >sleepy.c
    fzcc sleepy.c -o sleepy || fail "fz-cc cannot build sleepy.c"
    fz-showmap -q -t 200 -o m -- ./sleepy </dev/null
    rc=$?
    [ $rc = 2 ] || fail "timeout: exit $rc, expected 2"
    ok "timeout: exit 2"
fi
