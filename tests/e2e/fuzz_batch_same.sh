#!/bin/bash
# fuzz_batch_same.sh - batches (docs/persistent-mode.md) make the same runs
# in the same order as one input per hand-over: on a libFuzzer-style
# harness that keeps finding things (bench/lf_target.c, a JSON-ish checker
# with a planted crash, built with -fsanitize=fuzzer: fz's driver, direct
# mode, shared-memory input), the same -s and -E give the same queue and
# the same crashes with and without them, and batches were really used.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"
fzcc -O1 -fsanitize=fuzzer -o h "$FZ_ROOT/bench/lf_target.c" ||
    fail "fz-cc -fsanitize=fuzzer could not build bench/lf_target.c"
mkdir seeds && printf '{"a":[1,2.5e3,"x\\n"],"b":true}' >seeds/a

listing() { # dir -> "name-without-time md5" lines
    (cd "$1" && for f in id:*; do
        [ -e "$f" ] || continue
        printf '%s %s\n' "$(printf %s "$f" | sed 's/,time:[0-9]*//')" "$(md5sum <"$f" | cut -c1-32)"
    done)
}
campaign() { # name [env...]
    local name=$1
    shift
    env "$@" fz-fuzz -q -s 1 -E 60000 -t 5000 -i seeds -o "out-$name" -- ./h >"log-$name" 2>&1
    local rc=$?
    [ $rc = 0 ] || [ $rc = 3 ] || { cat "log-$name"; fail "$name: fz-fuzz exited $rc"; }
    listing "out-$name/default/queue" >"queue-$name.txt"
    listing "out-$name/default/crashes" >"crashes-$name.txt"
}
stat() { awk -F' *: *' -v k="$2" '$1==k{print $2}' "out-$1/default/fuzzer_stats"; }

campaign single FZ_NO_BATCH=1
[ "$(wc -l <queue-single.txt)" -ge 30 ] || fail "the run found too little to compare ($(wc -l <queue-single.txt) entries)"
[ "$(stat single execs_per_request)" = "1.00" ] || fail "FZ_NO_BATCH=1 still batched: $(stat single execs_per_request)"
campaign batch
per=$(stat batch execs_per_request)
awk -v p="$per" 'BEGIN { exit !(p > 3) }' || fail "batches were not used: ${per:-?} runs per request"
diff queue-single.txt queue-batch.txt || fail "batches kept another queue"
diff crashes-single.txt crashes-batch.txt || fail "batches saved other crashes"
[ "$(stat single execs_done)" = "$(stat batch execs_done)" ] ||
    fail "different run counts: $(stat single execs_done) and $(stat batch execs_done)"
ok "the same queue ($(wc -l <queue-batch.txt) entries) and crashes ($(wc -l <crashes-batch.txt)) with and without batches; $per runs per request with them"
