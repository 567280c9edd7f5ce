#!/bin/bash
# jobs_parallel.sh - fz-fuzz -j: two instances in one -o (main + sec1, the
# AFL layout) import each other's finds, passed directly and still written
# as queue files; -E is the campaign's; one SIGINT to the command stops both
# with their files written and their locks released; -i - resumes both; an
# instance that dies leaves the other running and the exit status says so
# (5); -j with -M refused; -j above the cores is said, never capped.
# Runs unbound (FZ_NO_AFFINITY=1): the machine running the tests may have
# no free core.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "cannot build demo.c"
fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/lf_ladder.c" -o lad || fail "cannot build lf_ladder.c"
seeds=$FZ_ROOT/testcases/demo_seeds
export FZ_NO_AFFINITY=1
stat() { awk -F' *: *' -v k="$2" '$1==k{print $2}' "$1/fuzzer_stats"; }

# --- Two instances find and exchange: each imports the other's finds.
fz-fuzz -q -j 2 -s 1 -E 40000 -i "$seeds" -o out -- ./demo @@ >j.log 2>j.err
rc=$?
[ $rc = 3 ] || [ $rc = 0 ] || { cat j.log j.err; fail "-j 2 exited $rc"; }
[ -e out/main/is_main_node ] && [ -d out/sec1/queue ] || fail "-j 2 did not make out/main (main) and out/sec1"
# Each examined the other's finds (its cursor for the other is past the
# other's seeds) and kept what was new to it; which finds are new to whom
# depends on timing, so at least one import in all is what is asserted.
cursor() { od -An -tu4 "$1" 2>/dev/null | tr -d ' \n'; }
nseeds=$(ls "$seeds" | wc -l)
[ "$(cursor out/main/.synced/sec1)" -gt "$nseeds" ] 2>/dev/null ||
    { ls out/*/queue; fail "main examined none of sec1's finds (cursor '$(cursor out/main/.synced/sec1)')"; }
[ "$(cursor out/sec1/.synced/main)" -gt "$nseeds" ] 2>/dev/null ||
    { ls out/*/queue; fail "sec1 examined none of main's finds (cursor '$(cursor out/sec1/.synced/main)')"; }
ls out/main/queue out/sec1/queue | grep -q ',sync:' || fail "neither instance kept an import"
e=$(($(stat out/main execs_done) + $(stat out/sec1 execs_done)))
[ $e -ge 40000 ] && [ $e -lt 44000 ] || fail "-E 40000 over two instances ran $e"
grep -qE 'finds passed [1-9]' j.log || { cat j.log; fail "no find was passed directly"; }
grep -q '^fz-fuzz: done. \[' j.log || { cat j.log; fail "no campaign summary line"; }
if [ $rc = 3 ]; then grep -q '^    signal 11' j.log || { cat j.log; fail "no crash report line"; }; fi
ok "-j 2: each examined the other's finds (cursors $(cursor out/main/.synced/sec1), $(cursor out/sec1/.synced/main)), $(ls out/main/queue out/sec1/queue | grep -c ',sync:') imports, $e execs, exit $rc"

# -j with -M, -j above the free cores.
fz-fuzz -j 2 -M x -i "$seeds" -o bad -- ./demo @@ >/dev/null 2>m.err && fail "-j with -M accepted"
grep -q -- "-j starts its own main" m.err || fail "-j with -M: no message"
ncpu=$(nproc)
FZ_NO_AFFINITY= fz-fuzz -q -j $((ncpu + 1)) -s 1 -E 400 -i "$seeds" -o cap -- ./demo @@ >cap.log 2>cap.err
grep -q "oversubscribes" cap.err || { cat cap.err; fail "-j above the cores: no message"; }
[ "$(ls cap | wc -l)" = $((ncpu + 1)) ] || fail "-j $((ncpu + 1)) did not start $((ncpu + 1)) instances"
ok "-j with -M refused; -j $((ncpu + 1)) starts them all, with a warning"

# --- One SIGINT stops both, files written, locks released; -i - resumes both.
wait_running() { # until both instances wrote fuzzer_stats (at most 30 s)
    for _ in $(seq 300); do
        [ -e "$1/main/fuzzer_stats" ] && [ -e "$1/sec1/fuzzer_stats" ] && return 0
        sleep 0.1
    done
    return 1
}
fz-fuzz -q -j 2 -i "$seeds" -o live -- ./lad >live.log 2>&1 &
pid=$!
wait_running live || { kill $pid; fail "the instances never started"; }
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc = 0 ] || { cat live.log; fail "-j 2 stopped by SIGINT exited $rc, want 0"; }
grep -q 'stopped by a signal' live.log || fail "no 'stopped by a signal' summary"
for i in main sec1; do
    p=$(stat live/$i fuzzer_pid)
    kill -0 "$p" 2>/dev/null && fail "instance $i (pid $p) still runs after the SIGINT"
done
# Flushed: the stats files hold the final counts the summary added up.
sum=$(($(stat live/main execs_done) + $(stat live/sec1 execs_done)))
said=$(sed -n 's/^fz-fuzz: stopped by a signal\. .* execs \([0-9]*\) .*/\1/p' live.log)
[ "$sum" = "$said" ] || { cat live.log; fail "fuzzer_stats add up to $sum execs, the summary says $said"; }
q_main=$(ls live/main/queue | wc -l)
fz-fuzz -q -j 2 -s 1 -E 2000 -i - -o live -- ./lad >res.log 2>res.err
rc=$?
[ $rc = 0 ] || { cat res.log res.err; fail "-j 2 -i - exited $rc"; }
[ "$(grep -c 'resuming the campaign' res.err)" = 2 ] || { cat res.err; fail "not both instances resumed"; }
[ "$(ls live/main/queue | wc -l)" -ge "$q_main" ] || fail "the resumed main lost queue entries"
ok "one SIGINT stopped both (exit 0); -i - resumed both"

# --- One instance dies: the other goes on, the exit status says so.
fz-fuzz -q -j 2 -i "$seeds" -o die -- ./lad >die.log 2>die.err &
pid=$!
wait_running die || { kill $pid; fail "the instances never started"; }
kill -9 "$(stat die/sec1 fuzzer_pid)"
sleep 1
kill -0 "$(stat die/main fuzzer_pid)" || fail "main stopped when sec1 died"
kill -INT $pid
wait $pid
rc=$?
[ $rc = 5 ] || { cat die.log die.err; fail "exit $rc after an instance died, want 5"; }
grep -q "instance 'sec1' .*DIED (signal 9); the others go on" die.err || { cat die.err; fail "no message when sec1 died"; }
grep -q "instance 'sec1' DIED" die.log || fail "the summary does not say sec1 died"
ok "sec1 killed: main went on, exit 5"
