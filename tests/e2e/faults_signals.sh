#!/bin/bash
# faults_signals.sh - runs that end early (issue 12, docs/faults.md): no
# temp file stays in $TMPDIR after an error exit or a stop in calibration
# (11); kill -9 at random moments loses nothing saved, the resume goes on,
# plot_data's relative_time never goes back, a crash is in fuzzer_stats at
# once, a negative run_time is not taken (13); SIGINT / SIGHUP in
# calibration and in fuzzing; the cursor comes back after a fatal error
# under the live screen (15).
. "$(dirname "$0")/../lib.sh"
. "$FZ_ROOT/tests/faults-lib.sh"
run() { fz-fuzz -q -s 1 "$@"; }

# 11. Error exits and stops leave no temp file in $TMPDIR.
mkdir -p held/default && exec 9>held/default/.fz.lock && flock -n 9 || fail "cannot take a lock for the test"
expect "-o in use" 1 "is in use" run -E 300 -i seeds -o held -- ./ft crash @@
exec 9>&-
no_tmp_left "-o in use"
expect "seed hangs" 1 "makes the target hang" run -E 300 -t 100 -i seeds -o t1 -- ./ft hang @@
no_tmp_left "a seed hangs"
mkdir cseeds && printf C >cseeds/c
expect "every seed crashes" 1 "every seed crashes" run -E 300 -i cseeds -o t2 -- ./ft crash @@
no_tmp_left "every seed crashes"
for sig in INT HUP; do
    fz-fuzz -q -s 1 -t 2000 -i seeds -o "cal$sig" -- ./ft hang @@ >cal.log 2>&1 &
    pid=$!
    sleep 0.5
    kill -$sig $pid
    wait $pid
    rc=$?
    [ $rc = 0 ] || { cat cal.log; fail "SIG$sig in calibration: exit $rc, want 0"; }
    grep -q "stopped by a signal while checking the seeds; nothing was written" cal.log || { cat cal.log; fail "SIG$sig in calibration: no message"; }
    no_tmp_left "SIG$sig in calibration"
    ok "SIG$sig in calibration: nothing written, no temp file left"
done

# SIGINT / SIGHUP while fuzzing: a clean stop, stats up to date.
for sig in INT HUP; do
    fz-fuzz -q -s 1 -V 60 -i seeds -o "fz$sig" -- ./ft crash @@ >fz.log 2>&1 &
    pid=$!
    for i in $(seq 100); do [ "$(stat_of "fz$sig" saved_crashes 2>/dev/null)" = 1 ] && break; sleep 0.1; done
    kill -$sig $pid
    wait $pid
    rc=$?
    [ $rc = 3 ] || { cat fz.log; fail "SIG$sig while fuzzing: exit $rc, want 3 (a crash was saved)"; }
    grep -q "stopped by a signal" fz.log || { cat fz.log; fail "SIG$sig: no stop message"; }
    [ "$(stat_of "fz$sig" fuzzer_pid)" = $pid ] || fail "SIG$sig: fuzzer_stats is not this run's"
    no_tmp_left "SIG$sig while fuzzing"
    ok "SIG$sig while fuzzing: exit 3, stats written"
done

# 13. A crash is in fuzzer_stats at once: kill -9 right after it is saved.
fz-fuzz -q -s 1 -V 60 -i seeds -o k9 -- ./ft crash @@ >k9.log 2>&1 &
pid=$!
for i in $(seq 100); do ls k9/default/crashes 2>/dev/null | grep -q '^id:' && break; sleep 0.05; done
sleep 0.2
kill -9 $pid
wait $pid 2>/dev/null
[ "$(stat_of k9 saved_crashes)" = 1 ] || fail "kill -9 after a crash: fuzzer_stats says saved_crashes $(stat_of k9 saved_crashes)"
ok "kill -9 0.2 s after a crash: fuzzer_stats counts it"

# kill -9 at random moments, then resume: nothing saved is lost.
RANDOM=12
fz-cc -O1 -o demo "$FZ_ROOT/testcases/demo.c" 2>/dev/null || fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "cannot build demo.c"
queue_n=0 crash_n=0
for round in 1 2 3 4 5 6; do
    if [ -d rk/default/queue ] && [ -n "$(ls rk/default/queue)" ]; then from=-; else from=$FZ_ROOT/testcases/demo_seeds; fi
    fz-fuzz -q -i "$from" -o rk -- ./demo @@ >rk.log 2>&1 &
    pid=$!
    sleep "0.$((RANDOM % 9 + 1))"
    kill -9 $pid
    wait $pid 2>/dev/null
    q=$(ls rk/default/queue 2>/dev/null | wc -l)
    c=$(ls rk/default/crashes 2>/dev/null | grep -c '^id:')
    [ "$q" -ge $queue_n ] || fail "round $round: the queue shrank from $queue_n to $q"
    [ "$c" -ge $crash_n ] || fail "round $round: crashes shrank from $crash_n to $c"
    queue_n=$q crash_n=$c
done
fz-fuzz -q -s 1 -E 2000 -i - -o rk -- ./demo @@ >rk.log 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || { cat rk.log; fail "the resume after six kill -9: exit $rc"; }
[ -z "$(find rk -name '.fz-tmp*')" ] || fail "temp files left in -o after the resume: $(find rk -name '.fz-tmp*')"
monotonic() {
    awk -F', ' '!/^#/ { if ($1 + 0 < last) { print "relative_time went back: " last " -> " $1; bad = 1 } last = $1 + 0 } END { exit bad }' \
        rk/default/plot_data
}
monotonic || fail "plot_data's relative_time goes back across resumes"
ok "six kill -9 at random moments: queue $queue_n, crashes $crash_n kept; the resume runs; relative_time never goes back"

# A hand-edited negative run_time is not taken as 2^64 - 2.
sed -i 's/^run_time *: .*/run_time          : -2/' rk/default/fuzzer_stats
# ...and plot_data ahead of it, as after a kill between the two writes.
tail -n 1 rk/default/plot_data | sed 's/^[0-9]*,/100,/' >>rk/default/plot_data
run -E 300 -i - -o rk -- ./demo @@ >neg.log 2>&1
grep -q "ignoring run_time '-2'" neg.log || { cat neg.log; fail "a negative run_time is not refused"; }
[ "$(stat_of rk run_time)" -lt 1000000 ] || fail "run_time is $(stat_of rk run_time) after a negative one"
ok "a negative run_time: said and ignored"
# With run_time ignored, fuzzer_stats is behind plot_data (as after a kill
# between the two writes): relative_time must still not go back.
monotonic || fail "plot_data's relative_time went back after a resume whose fuzzer_stats was behind"
ok "relative_time goes on from plot_data's last line"

# 15. The cursor comes back after a fatal error under the live screen.
mkdir kseed && printf a >kseed/a
script -qec "$FZ_BIN/fz-fuzz -s 1 -E 5000 -i kseed -o tty -- ./ft killparent @@" /dev/null >tty.log 2>&1
grep -q $'\033\[?25l' tty.log || fail "no live screen under a terminal"
grep -q "kill its own forkserver" tty.log || fail "the run did not end on the expected error"
last_hide=$(grep -ob $'\033\[?25l' tty.log | tail -1 | cut -d: -f1)
last_show=$(grep -ob $'\033\[?25h' tty.log | tail -1 | cut -d: -f1)
[ -n "$last_show" ] && [ "$last_show" -gt "$last_hide" ] || fail "the cursor stays hidden after the fatal error"
ok "a fatal error under the live screen shows the cursor again"
no_tmp_left "signal faults"
