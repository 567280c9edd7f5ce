#!/bin/bash
# faults_input.sh - the input file and long waits (issue 26 pts 1-3,
# docs/faults.md): a target that deletes or moves its @@ input (or -f
# file) still gets a file every run and its crash is found; huge -t and
# FZ_HANG_TMOUT values work instead of failing with a false diagnosis; -V
# and SIGINT are honoured within a moment while a hang is confirmed with a
# long FZ_HANG_TMOUT.
. "$(dirname "$0")/../lib.sh"
. "$FZ_ROOT/tests/faults-lib.sh"
run() { fz-fuzz -q -s 1 "$@"; }

# 1. A target that consumes its input file: the crash ('C') is found.
expect "unlink @@" 3 "crash(es) saved" run -E 3000 -i seeds -o unl -- ./ft unlink @@
expect "unlink -f" 3 "crash(es) saved" run -E 3000 -i seeds -o unlf -f "$T/input" -- ./ft unlink @@
[ -e "$T/input" ] && fail "the -f file is left behind"
expect "move @@" 3 "crash(es) saved" run -E 3000 -i seeds -o mv -f "$T/minput" -- ./ft move @@
rm -f "$T/minput.moved"
no_tmp_left "unlink / move"

# 2. Huge timeouts: accepted and working (no overflow into an instant
# timeout or a false "fds 198/199" diagnosis).
expect "-t 2147483646" 3 "crash(es) saved" run -E 3000 -t 2147483646 -i seeds -o t1 -- ./ft crash @@
expect "-t 4294967295" 3 "crash(es) saved" run -E 3000 -t 4294967295 -i seeds -o t2 -- ./ft crash @@
FZ_HANG_TMOUT=2147483647 expect "FZ_HANG_TMOUT=2147483647" 3 "crash(es) saved" run -E 3000 -t 50 -i seeds -o t3 -- ./ft crash @@
grep -q "198/199" both.log && fail "a false diagnosis blaming fds 198/199"

# 3. -V while a hang ('H') is confirmed with a 60 s FZ_HANG_TMOUT: the run
# ends near its -V, not after the confirmation's minute (the point is -V
# itself, so this one is bounded in seconds).
start=$(date +%s)
FZ_HANG_TMOUT=60000 run -V 3 -t 50 -i seeds -o v -- ./ft hangon @@ >v.log 2>&1
rc=$? took=$(($(date +%s) - start))
[ $rc = 0 ] || [ $rc = 3 ] || { cat v.log; fail "-V during a hang's confirmation: exit $rc"; }
[ "$took" -lt 30 ] || fail "-V 3 ended after ${took}s: the hang's confirmation did not honour it"
ok "-V 3 while a hang is confirmed with FZ_HANG_TMOUT=60000: ended after ${took}s"

# The same with SIGINT instead of -V.
FZ_HANG_TMOUT=60000 fz-fuzz -q -s 1 -E 100000000 -t 50 -i seeds -o int -- ./ft hangon @@ >int.log 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    [ "$(ls int/default/queue 2>/dev/null | wc -l)" -ge 1 ] && break
    sleep 0.1
done
sleep 2 # into the confirmation ('H' is found within a few hundred runs)
start=$(date +%s)
kill -INT $pid
wait $pid
rc=$? took=$(($(date +%s) - start))
[ $rc = 0 ] || [ $rc = 3 ] || { cat int.log; fail "SIGINT during a hang's confirmation: exit $rc"; }
[ "$took" -lt 10 ] || fail "SIGINT was honoured only after ${took}s"
ok "SIGINT while a hang is confirmed: stopped after ${took}s"
