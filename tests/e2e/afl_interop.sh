#!/bin/bash
# afl_interop.sh - fz and AFL++ drive each other's binaries (issue 3):
#   afl-showmap on an fz-cc binary: a non-empty map that differs by input;
#   afl-fuzz on an fz-cc binary (forkserver, then persistent + shared
#   memory): it runs, finds paths, and finds the planted crash;
#   fz-fuzz on an afl-clang-fast binary: it runs and finds the crash.
# Work is bounded by executions with a fixed seed (-s 1 -E N).
# matrix: cc
. "$(dirname "$0")/../lib.sh"

command -v afl-fuzz >/dev/null && command -v afl-showmap >/dev/null ||
    fz_skip "afl++ is not installed (apt-get install afl++)"
[ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"

export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
export AFL_NO_AFFINITY=1 AFL_QUIET=1 AFL_SHUFFLE_QUEUE=0
cd "$T" || exit 1

fzcc -O1 "$FZ_ROOT/testcases/rt_branches.c" -o branches || fail "fz-cc cannot build rt_branches.c"
fzcc -O1 "$FZ_ROOT/testcases/persistent.c" -o persistent || fail "fz-cc cannot build persistent.c"

# --- afl-showmap: our legacy handshake and map, read by AFL++'s own tool.
printf 'hello' >in1
printf 'BU\n\n' >in2
afl-showmap -q -o map1 -- ./branches <in1 || fail "afl-showmap failed on in1"
afl-showmap -q -o map2 -- ./branches in2 || fail "afl-showmap failed on in2 (file argument)"
[ -s map1 ] && [ -s map2 ] || fail "afl-showmap wrote an empty map"
cmp -s map1 map2 && fail "two different inputs gave the same map: $(cat map1)"
ok "afl-showmap: $(wc -l <map1) and $(wc -l <map2) tuples, maps differ"

# The persistent + shared-memory harness through afl-showmap too.
afl-showmap -q -o map3 -- ./persistent <in2 || fail "afl-showmap failed on the persistent harness"
[ -s map3 ] || fail "afl-showmap: empty map from the persistent harness"
ok "afl-showmap: persistent harness, $(wc -l <map3) tuples"

# --- afl-fuzz, forkserver mode: runs and finds paths.
mkdir seeds && printf 'hello' >seeds/a
afl-fuzz -i seeds -o afl1 -s 1 -E 3000 -- ./branches @@ >afl1.log 2>&1 ||
    { tail -n 20 afl1.log; fail "afl-fuzz failed on an fz-cc binary"; }
stat=afl1/default/fuzzer_stats
corpus=$(awk -F' *: *' '$1=="corpus_count"{print $2}' $stat)
execs=$(awk -F' *: *' '$1=="execs_done"{print $2}' $stat)
[ "${corpus:-0}" -gt 1 ] || fail "afl-fuzz found no new paths (corpus_count=$corpus)"
ok "afl-fuzz forkserver: $execs execs, corpus $corpus"

# --- afl-fuzz, persistent + shared memory: detects both modes, finds "FZ!".
# The seed is one byte from the bug: this checks that afl-fuzz drives the
# harness and sees its crash, not how soon afl-fuzz's havoc finds a
# three-byte chain (a matter of luck within a fixed -E on some builds).
mkdir seeds2 && printf 'FZa' >seeds2/a
afl-fuzz -i seeds2 -o afl2 -s 1 -E 100000 -- ./persistent >afl2.log 2>&1 ||
    { tail -n 20 afl2.log; fail "afl-fuzz failed on the persistent harness"; }
grep -q 'Persistent mode binary detected' afl2.log || fail "afl-fuzz did not see __AFL_LOOP"
grep -q 'SHARED MEMORY FUZZING' afl2.log || fail "afl-fuzz did not use shared-memory test cases"
ls afl2/default/crashes/id:* >/dev/null 2>&1 || fail "afl-fuzz did not find the planted crash"
ok "afl-fuzz persistent+shm: crash found after $(awk -F' *: *' '$1=="execs_done"{print $2}' afl2/default/fuzzer_stats) execs"

# --- fz-fuzz on afl-clang-fast binaries (AFL++'s own runtime): forkserver
# mode finds paths and the crash (a seed one byte away keeps the budget
# small), persistent + shared memory finds the crash too.
[ -x "$FZ_BIN/fz-fuzz" ] || { ok "fz-fuzz not built yet: afl-clang-fast part not run"; exit 0; }
command -v afl-clang-fast >/dev/null || { ok "no afl-clang-fast: last part not run"; exit 0; }
export AFL_QUIET=1
afl-clang-fast -O1 "$FZ_ROOT/testcases/rt_branches.c" -o afl_branches 2>/dev/null ||
    fail "afl-clang-fast cannot build rt_branches.c"
afl-clang-fast -O1 "$FZ_ROOT/testcases/persistent.c" -o afl_persistent 2>/dev/null ||
    fail "afl-clang-fast cannot build persistent.c"
mkdir seeds2 && printf 'hello' >seeds2/a && printf 'BUx' >seeds2/b
rc=0
"$FZ_BIN/fz-fuzz" -q -i seeds2 -o fz1 -s 1 -E 20000 -- ./afl_branches @@ >fz1.log 2>&1 || rc=$?
[ $rc = 3 ] || { tail -n 20 fz1.log; fail "fz-fuzz on an afl-clang-fast binary: exit $rc, expected 3 (crash)"; }
ls fz1/default/crashes/id:* >/dev/null 2>&1 || fail "fz-fuzz: exit 3 but no file in crashes/"
corpus=$(awk -F' *: *' '$1=="corpus_count"{print $2}' fz1/default/fuzzer_stats)
[ "${corpus:-0}" -gt 2 ] || fail "fz-fuzz found no new paths in an afl-clang-fast binary"
ok "fz-fuzz fuzzed an afl-clang-fast binary: corpus $corpus, crash found"
rc=0
"$FZ_BIN/fz-fuzz" -q -i seeds -o fz2 -s 1 -E 200000 -- ./afl_persistent >fz2.log 2>&1 || rc=$?
[ $rc = 3 ] || { tail -n 20 fz2.log; fail "fz-fuzz on afl-clang-fast persistent.c: exit $rc, expected 3"; }
ok "fz-fuzz fuzzed an afl-clang-fast persistent + shared-memory harness to its crash"
