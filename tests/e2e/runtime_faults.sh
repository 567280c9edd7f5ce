#!/bin/bash
# runtime_faults.sh - faults at the forkserver's start and around it, each
# one clear line from fz-fuzz (and no misdiagnosis):
#  - the program closes or replaces (dup2 onto) fds 198/199 before the
#    forkserver starts (in a constructor, or in main before __AFL_INIT), in
#    a deferred persistent and a classic build: the
#    runtime flags it on the diagnostics page, fz-fuzz names it (not "not
#    instrumented");
#  - a module needs a bigger map than fz offers (testcases/rt_bigmap.c,
#    9 MiB), over the version-1 and over the legacy handshake;
#  - an AFL++ 4.20+-style forkserver whose first word is the error word
#    (testcases/rt_fake_fsrv.c): the decoded error is reported;
#  - a process the harness forks carries on with __AFL_LOOP, in direct and
#    in classic (SIGSTOP, FZ_NO_DIRECT=1) mode: its loop ends, it exits,
#    nothing hangs.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-fuzz" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"
cd "$T" || exit 1

fzcc -O1 -DPERSISTENT "$FZ_ROOT/testcases/diag_target.c" -o dp || fail "cannot build diag_target.c (persistent)"
fzcc -O1 "$FZ_ROOT/testcases/diag_target.c" -o dc || fail "cannot build diag_target.c (classic)"
plaincc -O1 "$FZ_ROOT/testcases/rt_bigmap.c" "$FZ_ROOT/lib/fz/fz-rt.o" -o big || fail "cannot build rt_bigmap.c"
plaincc -O1 -I"$FZ_ROOT/include" "$FZ_ROOT/testcases/rt_fake_fsrv.c" -o fake || fail "cannot build rt_fake_fsrv.c"
mkdir seeds && printf 'hello' >seeds/a

# start_fails NAME GREP CMD...: fz-fuzz exits 1 with exactly one line on
# stderr, an error matching GREP, and does not call the target uninstrumented.
start_fails() {
    local name=$1 want=$2 rc=0
    shift 2
    "$@" >"$name.out" 2>"$name.log" || rc=$?
    [ $rc = 1 ] || { cat "$name.log"; fail "$name: fz-fuzz exit $rc, expected 1"; }
    [ "$(wc -l <"$name.log")" = 1 ] || { cat "$name.log"; fail "$name: expected one line on stderr"; }
    grep -q "^fz-fuzz: error: .*$want" "$name.log" || { cat "$name.log"; fail "$name: no error matching '$want'"; }
    ! grep -q "not instrumented" "$name.log" || fail "$name: misdiagnosed as not instrumented"
}

fds_msg="closed or replaced fds 198/199 (the forkserver's pipes) before the forkserver started; leave them open"
for b in dp dc; do
    for m in close_early dup_early; do
        start_fails "$b-$m" "$fds_msg" env DIAG_MODE=$m "$FZ_BIN/fz-fuzz" -q -i seeds -o "o-$b-$m" -s 1 -E 100 -- ./$b
    done
done
for m in close_init dup_init; do
    start_fails "dp-$m" "$fds_msg" env DIAG_MODE=$m "$FZ_BIN/fz-fuzz" -q -i seeds -o "o-dp-$m" -s 1 -E 100 -- ./dp
done
ok "fds 198/199 closed / replaced before start-up (constructor, or main before __AFL_INIT): named, in both builds"

map_fix="instrument fewer files (FZ_DENYLIST) or rebuild fz with a larger FZ_MAP_SIZE_MAX"
start_fails big-v1 "needs a 9437248-byte coverage map, more than fz's limit of 8388608; $map_fix" \
    "$FZ_BIN/fz-fuzz" -q -i seeds -o o-big-v1 -s 1 -E 100 -- ./big
start_fails big-legacy "set-up error 1: its coverage map is bigger than the 8388608 bytes fz offers; $map_fix" \
    env RT_LEGACY=1 "$FZ_BIN/fz-fuzz" -q -i seeds -o o-big-legacy -s 1 -E 100 -- ./big
ok "map bigger than offered: one line with the fix, version-1 and legacy handshakes"

start_fails fake-4 "reported a forkserver set-up error 4: it could not open the shared memory" \
    "$FZ_BIN/fz-fuzz" -q -i seeds -o o-fake-4 -s 1 -E 100 -- ./fake 4
start_fails fake-1 "reported a forkserver set-up error 1: its coverage map is bigger" \
    "$FZ_BIN/fz-fuzz" -q -i seeds -o o-fake-1 -s 1 -E 100 -- ./fake 1
ok "an error word in place of the version word is decoded"

for nd in 0 1; do
    rc=0
    DIAG_MODE=grandchild FZ_NO_DIRECT=$nd "$FZ_BIN/fz-fuzz" -q -i seeds -o o-gc-$nd -s 1 -t 1000 -E 300 -- ./dp \
        >gc-$nd.log 2>&1 || rc=$?
    [ $rc = 0 ] || { tail -n 5 gc-$nd.log; fail "grandchild (FZ_NO_DIRECT=$nd): fz-fuzz exit $rc"; }
    s=o-gc-$nd/default/fuzzer_stats
    hangs=$(awk -F' *: *' '$1=="saved_hangs"{print $2}' $s)
    execs=$(awk -F' *: *' '$1=="execs_done"{print $2}' $s)
    [ "$hangs" = 0 ] || fail "grandchild (FZ_NO_DIRECT=$nd): $hangs hangs: the forked process stopped in __AFL_LOOP"
    [ "${execs:-0}" -ge 300 ] || fail "grandchild (FZ_NO_DIRECT=$nd): only ${execs:-0} execs"
done
ok "a forked process's __AFL_LOOP returns 0 in direct and classic mode: no hang"
