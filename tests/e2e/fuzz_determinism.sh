#!/bin/bash
# fuzz_determinism.sh - `-s SEED -E N` twice gives the same queue: the same
# file names (apart from the time: field, which is wall-clock) holding the
# same bytes, and the same crashes.  A different seed is allowed to differ.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "fz-cc could not build testcases/demo.c"

listing() { # dir -> "name-without-time md5" lines
    (cd "$1" && for f in id:*; do
        printf '%s %s\n' "$(printf %s "$f" | sed 's/,time:[0-9]*//')" "$(md5sum <"$f" | cut -c1-32)"
    done)
}
for run in 1 2; do
    fz-fuzz -q -s 1 -E 8000 -t 5000 -i "$FZ_ROOT/testcases/demo_seeds" -o out$run -- ./demo @@ >log$run 2>&1
    rc=$?
    [ $rc = 0 ] || [ $rc = 3 ] || { cat log$run; fail "run $run exited $rc"; }
    listing out$run/default/queue >queue$run.txt
    listing out$run/default/crashes >crashes$run.txt 2>/dev/null
done
[ "$(wc -l <queue1.txt)" -ge 4 ] || fail "the run found too little to compare ($(wc -l <queue1.txt) entries)"
diff queue1.txt queue2.txt || fail "-s 1 -E 8000 twice gave different queues"
diff crashes1.txt crashes2.txt || fail "-s 1 -E 8000 twice gave different crashes"
# -E stops at the first check after N runs; a minimization or calibration in
# progress finishes first (bounded: FZ_TRIM_MAX_EXECS + FZ_CALIB_RUNS).
done=$(awk -F' *: *' '$1=="execs_done"{print $2}' out1/default/fuzzer_stats)
[ "$done" -ge 8000 ] && [ "$done" -le 8300 ] || fail "-E 8000 stopped after $done executions"
ok "same seed, same budget: same queue ($(wc -l <queue1.txt) entries) and crashes"
