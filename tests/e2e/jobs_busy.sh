#!/bin/bash
# jobs_busy.sh - -j N on a busy machine (issue 23 point 1): with a process
# bound to every core, `fz-fuzz -j 2` and a libFuzzer harness's -jobs=2 (which
# runs fz-fuzz -j) still start two instances, warn once that they
# oversubscribe the machine, say they run unbound, and both instances run.
# The -j log line says how much time is left.  The spinners are real
# processes, niced and bounded by timeout(1), killed at the end.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
command -v taskset >/dev/null || fz_skip "taskset (util-linux) is not installed"
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "cannot build demo.c"
fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/lf_ladder.c" -o lad || fail "cannot build lf_ladder.c"
seeds=$FZ_ROOT/testcases/demo_seeds
unset FZ_NO_AFFINITY AFL_NO_AFFINITY
stat() { awk -F' *: *' -v k="$2" '$1==k{print $2}' "$1/fuzzer_stats"; }

spinners=""
for c in $(seq 0 $(($(nproc) - 1))); do
    timeout 300 taskset -c "$c" nice -n 19 sh -c 'while :; do :; done' &
    spinners="$spinners $!"
done
stop_spinners() { [ -n "$spinners" ] && kill $spinners 2>/dev/null; wait $spinners 2>/dev/null; spinners=""; }
trap 'stop_spinners' EXIT INT TERM
sleep 0.5 # let taskset set the masks before fz-fuzz looks

fz-fuzz -q -j 2 -s 1 -E 4000 -i "$seeds" -o out -- ./demo @@ >j.log 2>j.err
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || { cat j.err; stop_spinners; fail "-j 2 on a busy machine exited $rc"; }
for i in main sec1; do
    [ -e out/$i/fuzzer_stats ] || { cat j.err; stop_spinners; fail "-j 2 on a busy machine did not run instance $i"; }
    [ "$(stat out/$i execs_done)" -gt 0 ] || { stop_spinners; fail "instance $i ran nothing"; }
done
[ "$(grep -c 'oversubscribes' j.err)" = 1 ] || { cat j.err; stop_spinners; fail "not exactly one oversubscription warning"; }
grep -q 'only 0 of [0-9]* cores are free' j.err || { cat j.err; stop_spinners; fail "the warning does not say no core is free"; }
grep -q 'all unbound (no free core)' j.err || { cat j.err; stop_spinners; fail "not said that the instances run unbound"; }
ok "-j 2 with every core held: 2 instances ran ($(stat out/main execs_done) + $(stat out/sec1 execs_done) execs), one warning"

# The libFuzzer flag goes through the same coordinator.
mkdir corp
./lad -jobs=2 -runs=3000 -seed=1 corp >lf.log 2>&1
rc=$?
[ $rc = 0 ] || { cat lf.log; stop_spinners; fail "-jobs=2 exited $rc"; }
[ "$(grep -c 'oversubscribes' lf.log)" = 1 ] || { cat lf.log; stop_spinners; fail "-jobs=2: not exactly one oversubscription warning"; }
grep -q 'fz-fuzz\[sec1\]' lf.log || { cat lf.log; stop_spinners; fail "-jobs=2 ran no second instance"; }
ok "-jobs=2 with every core held: two instances, one warning"

# -j above the core count: all of them start (never a silent downgrade).
n=$(($(nproc) + 1))
fz-fuzz -q -j $n -s 1 -E 600 -i "$seeds" -o many -- ./demo @@ >m.log 2>m.err
[ "$(ls -d many/main many/sec* | wc -l)" = $n ] || { cat m.err; stop_spinners; fail "-j $n did not start $n instances"; }
[ "$(grep -c 'oversubscribes' m.err)" = 1 ] || { cat m.err; stop_spinners; fail "-j $n: not exactly one warning"; }
ok "-j $n on $(nproc) cores: $n instances"
stop_spinners

# The periodic -j log line says how long the campaign has left (-V).
fz-fuzz -q -j 2 -s 1 -V 7 -i "$seeds" -o left -- ./lad >left.log 2>left.err
grep -qE '^\[[0-9]+s\] -j 2: .*, [0-9]+s left' left.log || { cat left.log; fail "no time left in the -j log line"; }
ok "-j log line: $(grep -oE '[0-9]+s left' left.log | head -1)"
