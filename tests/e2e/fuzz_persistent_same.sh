#!/bin/bash
# fuzz_persistent_same.sh - a persistent build and a plain build of the same
# parser (testcases/persist_same.c) give the same queue with the same -s and
# -E, every time, in direct mode and in AFL++'s SIGSTOP mode: code after
# __AFL_LOOP (which writes through the map pointer main cached on entry)
# must not add coverage to the last pass of each child.  Direct mode hands
# the persistent build batches of inputs (docs/persistent-mode.md), which
# must make the same runs in the same order: checked with batches (they
# must be used) and without (FZ_NO_BATCH=1).
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"
fzcc -O1 -o plain "$FZ_ROOT/testcases/persist_same.c" || fail "fz-cc could not build the plain harness"
fzcc -O1 -DPERSIST -o persist "$FZ_ROOT/testcases/persist_same.c" ||
    fail "fz-cc could not build the persistent harness"
mkdir seeds && printf 'aaaaaa' >seeds/a

listing() { # queue dir -> "name-without-time md5" lines
    (cd "$1" && for f in id:*; do
        printf '%s %s\n' "$(printf %s "$f" | sed 's/,time:[0-9]*//')" "$(md5sum <"$f" | cut -c1-32)"
    done)
}
campaign() { # name target [env...]
    local name=$1 target=$2
    shift 2
    env "$@" fz-fuzz -q -s 1 -E 6000 -t 5000 -i seeds -o "out-$name" -- "./$target" @@ >"log-$name" 2>&1 ||
        { cat "log-$name"; fail "$name: fz-fuzz exited $?"; }
    listing "out-$name/default/queue" >"queue-$name.txt"
}
campaign plain plain
[ "$(wc -l <queue-plain.txt)" -ge 4 ] || fail "the plain run found too little to compare"
for run in 1 2; do
    campaign "direct$run" persist
    grep -q 'target_mode *: shmem_testcase persistent' "out-direct$run/default/fuzzer_stats" ||
        fail "the persistent build did not run in persistent mode"
    diff queue-plain.txt "queue-direct$run.txt" ||
        fail "persistent (direct mode) run $run kept another queue than the plain build"
    per=$(awk -F' *: *' '$1=="execs_per_request"{print $2}' "out-direct$run/default/fuzzer_stats")
    awk -v p="$per" 'BEGIN { exit !(p > 2) }' ||
        fail "direct mode ran ${per:-?} inputs per request: batches were not used"
    campaign "single$run" persist FZ_NO_BATCH=1
    diff queue-plain.txt "queue-single$run.txt" ||
        fail "persistent (direct mode, no batches) run $run kept another queue than the plain build"
    campaign "sigstop$run" persist FZ_NO_DIRECT=1
    diff queue-plain.txt "queue-sigstop$run.txt" ||
        fail "persistent (SIGSTOP mode) run $run kept another queue than the plain build"
done
ok "plain and persistent builds: the same queue ($(wc -l <queue-plain.txt) entries), twice, direct mode with and without batches ($per runs per request) and SIGSTOP mode"
