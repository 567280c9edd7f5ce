#!/bin/bash
# fuzz_sync.sh - parallel fuzzing: instances sharing one -o (-M main, -S s1)
# import each other's finds as "sync:" entries, keep a per-peer cursor in
# .synced/ so a restart examines only new files, skip garbage in peer
# directories, refuse a second live instance of one name, interoperate with
# afl-fuzz -S in the same -o (when afl++ is installed), and afl-whatsup
# sums them.  Every fuzzing run is bounded by executions with a fixed seed;
# the one live pair asserts only what holds whatever the timing.
. "$(dirname "$0")/../lib.sh"
cd "$T"
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "fz-cc could not build testcases/demo.c"
seeds=$FZ_ROOT/testcases/demo_seeds

stat() { awk -F' *: *' -v k="$2" '$1==k{print $2}' "$1/fuzzer_stats"; }
cursor() { od -An -tu4 "$1" | tr -d ' \n'; }
ids() { ls "$1" | grep -c '^id:'; }
ran() { [ $1 = 0 ] || [ $1 = 3 ] || { cat "$2"; fail "$3 exited $1, want 0 or 3"; }; }

# --- A main alone: like a lone instance, plus the main's marker.
fz-fuzz -q -M main -s 1 -E 2000 -i "$seeds" -o out -- ./demo @@ >a1.log 2>&1
ran $? a1.log "main alone"
[ -e out/main/is_main_node ] || fail "-M wrote no is_main_node (afl-fuzz -S syncs only from mains)"
n_a=$(ids out/main/queue)
e_a=$(stat out/main edges_found)
[ "$n_a" -ge 4 ] || fail "main alone found too little to sync ($n_a entries)"
[ "$(stat out/main sync_execs)" = 0 ] || fail "a main without peers spent runs on syncing"
ls out/main/queue | grep -q ',sync:' && fail "a main without peers imported something"
ok "main alone: $n_a entries, $e_a edges"

# --- B secondary: imports A's finds at start, counted in its -E budget.
fz-fuzz -q -S s1 -s 1 -E 600 -i "$seeds" -o out -- ./demo @@ >b1.log 2>&1
ran $? b1.log "secondary"
imported=$(ls out/s1/queue | grep -c ',sync:main,src:')
[ "$imported" -ge 1 ] || { ls out/s1/queue; fail "the secondary imported nothing from the main"; }
[ "$(stat out/s1 corpus_imported)" = "$imported" ] || fail "corpus_imported is not $imported"
e_b=$(stat out/s1 edges_found)
[ "$e_b" -ge "$e_a" ] || fail "the secondary reached $e_b edges, fewer than the main's $e_a"
[ "$(cursor out/s1/.synced/main)" = "$n_a" ] || fail ".synced/main is $(cursor out/s1/.synced/main), want $n_a"
grep -q "synced from 'main': $n_a new file(s) run, $imported imported" b1.log ||
    { cat b1.log; fail "no sync report for main's $n_a files"; }
sx=$(stat out/s1 sync_execs)
[ "$sx" -ge "$n_a" ] || fail "sync_execs $sx: fewer runs than the $n_a files examined"
done=$(stat out/s1 execs_done)
[ "$done" -ge 600 ] && [ "$done" -le 900 ] || fail "-E 600 with a sync stopped after $done runs"
for f in out/s1/queue/*,sync:main,src:*; do
    src=$(printf %s "$f" | sed 's/.*,src:\([0-9]*\).*/\1/')
    cmp -s "$f" out/main/queue/id:"$src",* || fail "import $f differs from main's id:$src"
done
ls out/s1/queue | grep -E 'op:(flip1|arith8|sweep)' && fail "a secondary ran deterministic stages"
[ -e out/s1/is_main_node ] && fail "a secondary marked itself main"
ok "secondary: imported $imported of $n_a files byte for byte, $e_b >= $e_a edges, $sx sync runs"

# --- Restarting B examines nothing again.
fz-fuzz -q -S s1 -s 2 -E 300 -i - -o out -- ./demo @@ >b2.log 2>&1
ran $? b2.log "secondary restart"
[ "$(stat out/s1 sync_execs)" = 0 ] || fail "the restarted secondary re-ran main's files"
[ "$(ls out/s1/queue | grep -c ',sync:')" = "$imported" ] || fail "the restart imported again"
grep -q 'synced from' b2.log && fail "the restarted secondary synced again: $(grep synced b2.log)"
ok "restart: nothing examined twice"

# --- A grows (its resume syncs B's own finds, not B's copies of A's);
# B's next restart runs exactly the files that are new.
fz-fuzz -q -M main -s 2 -E 20000 -i - -o out -- ./demo @@ >a2.log 2>&1
ran $? a2.log "main resume"
grep -q "synced from 's1'" a2.log || { cat a2.log; fail "the main did not sync from the secondary"; }
[ "$(cursor out/main/.synced/s1)" = "$(ids out/s1/queue)" ] || fail "main's .synced/s1 is not s1's next id"
n_a2=$(ids out/main/queue)
new=$(ls out/main/queue | awk -F'[:,]' -v c="$n_a" '/^id:/ && $2 + 0 >= c && !/,sync:s1,/' | wc -l)
[ "$n_a2" -gt "$n_a" ] || fail "the main found nothing new in 20000 runs (test needs new files)"
fz-fuzz -q -S s1 -s 3 -E 600 -i - -o out -- ./demo @@ >b3.log 2>&1
ran $? b3.log "secondary second restart"
grep -q "synced from 'main': $new new file(s) run" b3.log ||
    { cat b3.log; fail "want exactly the main's $new new files run"; }
[ "$(cursor out/s1/.synced/main)" = "$n_a2" ] || fail ".synced/main did not move to $n_a2"
ok "the main's $new new files (of $n_a2) examined, the rest skipped"

# --- afl-fuzz -S in the same -o imports our main's queue; our main imports
# from it (a main syncs from everyone); afl-whatsup sums all three.
if command -v afl-fuzz >/dev/null; then
    export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
    export AFL_NO_AFFINITY=1 AFL_QUIET=1 AFL_SHUFFLE_QUEUE=0 AFL_IMPORT_FIRST=1
    afl-fuzz -S afl1 -s 1 -E 1000 -i "$seeds" -o out -- ./demo @@ >afl.log 2>&1 ||
        { tail -n 20 afl.log; fail "afl-fuzz -S failed next to fz-fuzz instances"; }
    n=$(ls out/afl1/queue | grep -c ',sync:main,src:')
    [ "$n" -ge 1 ] || { ls out/afl1/queue; fail "afl-fuzz -S imported nothing from fz-fuzz -M"; }
    fz-fuzz -q -M main -s 4 -E 1000 -i - -o out -- ./demo @@ >a3.log 2>&1
    ran $? a3.log "main next to afl-fuzz"
    [ "$(cursor out/main/.synced/afl1)" = "$(ids out/afl1/queue)" ] ||
        fail "fz-fuzz -M did not examine afl-fuzz's queue"
    ok "afl-fuzz -S imported $n of our main's files; our main examined afl-fuzz's queue"
    if command -v afl-whatsup >/dev/null; then
        TERM=dumb afl-whatsup -d -s out >whatsup.log 2>&1 || { cat whatsup.log; fail "afl-whatsup failed"; }
        # Alive + dead, not dead alone: a finished instance's pid may be reused.
        seen=$(awk -F' *: *' '/Fuzzers alive|Dead or remote/ {n += $2} END {print n + 0}' whatsup.log)
        [ "$seen" = 3 ] || { cat whatsup.log; fail "afl-whatsup sees $seen instances, want 3"; }
        ok "afl-whatsup sums the three instances"
    else
        fz_skip_part "afl-whatsup is not installed; its part of the interop check skipped"
    fi
else
    fz_skip_part "afl++ is not installed (apt-get install afl++); interop part skipped"
fi

# --- Garbage in peer directories is skipped without a crash or an error.
mkdir -p bad/junk/queue bad/noqueue "bad/bad,name/queue" bad/.hidden/queue
printf 'FZ\002\001Pa' >"bad/junk/queue/id:000000,src:000000,op:x"
truncate -s 2M "bad/junk/queue/id:000001,too-big"
mkdir "bad/junk/queue/id:000002,a-directory"
printf '\377\000\377garbage\n' >"bad/junk/queue/id:000003,garbage"
printf x >bad/junk/queue/not-an-id
printf x >"bad/junk/queue/.id:000004,being-written.tmp"
printf x >"bad/bad,name/queue/id:000000"
printf x >bad/.hidden/queue/id:000000
echo stray >bad/stray-file
fz-fuzz -q -M m -s 1 -E 500 -i "$seeds" -o bad -- ./demo @@ >bad.log 2>&1
ran $? bad.log "main next to garbage"
grep -q 'error' bad.log && { cat bad.log; fail "garbage in a peer directory caused an error"; }
[ "$(cursor bad/m/.synced/junk)" = 4 ] || fail "bad/m/.synced/junk is $(cursor bad/m/.synced/junk), want 4"
ls -A bad/m/.synced | grep -qv '^junk$' && fail "synced from a non-peer: $(ls -A bad/m/.synced)"
grep -q "synced from 'junk': 2 new file(s) run" bad.log || { cat bad.log; fail "want 2 junk files run"; }
printf 'not a cursor' >bad/m/.synced/junk
fz-fuzz -q -M m -s 1 -E 300 -i - -o bad -- ./demo @@ >bad2.log 2>&1
ran $? bad2.log "main with a damaged cursor"
grep -q 'not a sync cursor' bad2.log || { cat bad2.log; fail "no warning about the damaged cursor"; }
[ "$(cursor bad/m/.synced/junk)" = 4 ] || fail "the damaged cursor was not rewritten"
ok "peer garbage skipped (oversized, directory, bad names, temp files, damaged cursor)"

# --- Live: a second instance of a running name is refused; a secondary
# syncing every turn next to a running main imports only whole files.
fz-fuzz -q -M main -V 120 -i - -o out -- ./demo @@ >live_a.log 2>&1 &
pid=$!
for _ in $(seq 200); do
    grep -qx "$pid" out/main/.fz.lock 2>/dev/null && break
    sleep 0.1
done
grep -qx "$pid" out/main/.fz.lock || { kill $pid; fail "the live main did not take its lock"; }
fz-fuzz -q -M main -s 1 -E 100 -i - -o out -- ./demo @@ >dup.log 2>&1
rc=$?
[ $rc = 1 ] && grep -q "in use by fz-fuzz pid $pid" dup.log ||
    { kill $pid; cat dup.log; fail "a second -M main next to a running one exited $rc"; }
FZ_SYNC_SECS=0 fz-fuzz -q -S s1 -s 5 -E 4000 -i - -o out -- ./demo @@ >live_b.log 2>&1
rc=$?
kill -INT $pid
wait $pid
ran $? live_a.log "the live main"
ran $rc live_b.log "the secondary next to a live main"
ls -A out/*/queue | grep -Ev '^(id:.*|out/.*:|\.state|)$' && fail "temp files left in a queue"
[ "$(cursor out/s1/.synced/main)" -le "$(ids out/main/queue)" ] || fail "cursor past the main's queue"
for f in out/s1/queue/*,sync:main,src:*; do
    src=$(printf %s "$f" | sed 's/.*,src:\([0-9]*\).*/\1/')
    cmp -s "$f" out/main/queue/id:"$src",* || fail "live import $f differs from main's id:$src"
done
ok "live pair: duplicate name refused, $(ls out/s1/queue | grep -c ',sync:main,') whole imports"
