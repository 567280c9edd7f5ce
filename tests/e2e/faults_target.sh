#!/bin/bash
# faults_target.sh - targets that misbehave (issue 12, docs/faults.md): a
# too-small -m named as such (4) and kept in crashes/README.txt's replay
# command (5); a forking target leaves no process behind (8); a target that
# kills its own forkserver is named and its input saved (14); a 2 GiB
# allocation with and without -m; 100 MB on stdout; an always-hanging
# target; a crash in a constructor; a script and an uninstrumented binary;
# exec'ing, fd-198/199-closing, own-SIGSEGV-handler and exit-in-__AFL_LOOP
# targets; a 600,000-edge target.
. "$(dirname "$0")/../lib.sh"
. "$FZ_ROOT/tests/faults-lib.sh"
run() { fz-fuzz -q -s 1 "$@"; }

# 4. -m too small for the target to start, whatever way it fails.
for m in 1 2 5 10; do
    expect "-m $m" 1 "cannot start under the -m $m MiB memory limit" run -E 300 -m $m -i seeds -o m$m -- ./ft crash @@
done
if fzcc -O1 -fsanitize=address -o ft_asan "$FZ_ROOT/testcases/fault_target.c" 2>/dev/null; then
    expect "-m 200, ASan" 1 "AddressSanitizer build" run -E 300 -m 200 -i seeds -o masan -- ./ft_asan crash @@
else
    fz_skip_part "no ASan runtime for $FZ_TEST_CC (libasan)"
fi
[ -e m1 ] && fail "a failed start created the output directory"

# A 2 GiB allocation: fine without -m; under -m 100 malloc fails, the
# target aborts, and the crash's README replays it with the same -m (5).
run -E 300 -i seeds -o alloc -- ./ft alloc @@ >alloc.log 2>&1 || { cat alloc.log; fail "2 GiB without -m: want exit 0"; }
expect "2 GiB under -m 100" 3 "crash(es) saved" run -E 300 -m 100 -i seeds -o alloc_m -- ./ft alloc @@
grep -q "fz-fuzz --replay alloc_m/default/crashes -m 100 -- ./ft alloc @@" alloc_m/default/crashes/README.txt ||
    { cat alloc_m/default/crashes/README.txt; fail "README.txt's replay command lacks -m 100"; }
fz-fuzz --replay alloc_m/default/crashes -m 100 -- ./ft alloc @@ >replay.log 2>&1
[ $? = 3 ] || { cat replay.log; fail "the README's replay command does not reproduce the crash"; }
ok "2 GiB: runs without -m; under -m 100 it crashes and README.txt replays it with -m 100"

# 8. A target that forks a long-lived child in every run.
# Live ones only: killed orphans are reparented to init, which may take a
# moment to reap them.
count_ft() { ps -eo stat=,comm= | awk '$1 !~ /^Z/ && $2 == "ft"' | wc -l; }
before=$(count_ft)
run -E 500 -i seeds -o forks -- ./ft fork @@ >forks.log 2>&1
[ $? = 3 ] || { cat forks.log; fail "forking target: want exit 3"; }
after=$(count_ft)
[ "$after" -le "$before" ] || fail "the forking target left $((after - before)) processes behind"
grep -q "forks during runs" forks.log || { cat forks.log; fail "no warning about the forks"; }
ok "a target that forks in every run leaves no process behind (500 runs)"

# 14. An input that makes the target kill its forkserver.
mkdir kseed && printf a >kseed/a
expect "kills its forkserver" 3 "kill its own forkserver" run -E 3000 -i kseed -o kill -- ./ft killparent @@
grep -q "(-m)" err.log && fail "the message blames -m, which was not given"
saved=$(grep -o "saved as [^ ]*" err.log | sed 's/saved as //')
[ "$(head -c1 "$saved")" = K ] || fail "the input that killed the forkserver is not saved ($saved)"
[ "$(stat_of kill saved_crashes)" = 1 ] || fail "fuzzer_stats does not count the saved input"
ok "the input that killed the forkserver is in crashes/"

# Start-up faults: a constructor crash, a script, an uninstrumented binary,
# an always-hanging target.
cat >ctor.c <<'EOT'
#include <stdlib.h>
__attribute__((constructor)) static void boom(void) { abort(); }
int main(void) { return 0; }
EOT
fzcc -o ctor ctor.c || fail "cannot build ctor.c"
expect "crash in a constructor" 1 "crashed at start-up with signal 6" run -E 300 -i seeds -o c1 -- ./ctor
printf '#!/bin/sh\ncat "$1" >/dev/null\n' >script.sh && chmod +x script.sh
expect "a script" 1 "not instrumented" run -E 300 -i seeds -o c2 -- ./script.sh @@
plaincc -O1 -o plain "$FZ_ROOT/testcases/fault_target.c"
expect "uninstrumented" 1 "use -n" run -E 300 -i seeds -o c3 -- ./plain crash @@
expect "always hangs" 1 "makes the target hang" run -E 300 -t 100 -i seeds -o c4 -- ./ft hang @@

# 100 MB to stdout per run: it goes to /dev/null and the runs go on.
run -E 40 -i seeds -o spew -- ./ft spew @@ >spew.log 2>&1 || { tail -n 3 spew.log; fail "100 MB on stdout: want exit 0"; }
[ "$(stat_of spew execs_done)" -ge 40 ] || fail "100 MB on stdout: the runs did not go on"
ok "100 MB on stdout per run: $(stat_of spew execs_done) runs, nothing in fz-fuzz's output"

# Runtime-diagnosed behaviour (runtime_diag.sh has the details): each is
# warned about once and the run ends normally.
fzcc -O1 -o dc "$FZ_ROOT/testcases/diag_target.c" || fail "cannot build diag_target.c"
fzcc -O1 -DPERSISTENT -o dp "$FZ_ROOT/testcases/diag_target.c" || fail "cannot build diag_target.c (persistent)"
for c in "exec dc runs exec" "handler dc own handler for SIGSEGV" "exit dp leaves __AFL_LOOP through exit"; do
    set -- $c
    mode=$1 bin=$2
    shift 2
    DIAG_MODE=$mode run -E 300 -i seeds -o "d-$mode" -- ./$bin >d.log 2>&1
    [ $? = 0 ] || { cat d.log; fail "$mode: want exit 0"; }
    grep -q "warning: .*$*" d.log || { cat d.log; fail "$mode: no warning '$*'"; }
    ok "$mode: $(grep -m1 warning: d.log | cut -c1-100)..."
done
# Closing fds 198/199 in a run: children get them closed anyway, so the run
# just goes on (runtime_diag.sh).
DIAG_MODE=close_fds run -E 300 -i seeds -o d-close -- ./dp >d.log 2>&1 || { cat d.log; fail "close_fds: want exit 0"; }
ok "close_fds: the run goes on"

# A 600,000-edge target (hand-instrumented like rt_bigmap.c): a map over
# AFL's classic 64 KiB is taken whole.
cat >edges.c <<'EOT'
#include <stdint.h>
#include <stdio.h>
#define SLOTS 600000u
static uint8_t counters[SLOTS];
static uint8_t *area = counters;
void __fz_register(uint8_t **area, uint32_t n) __attribute__((weak));
__attribute__((constructor(101))) static void reg(void) { if (__fz_register) __fz_register(&area, SLOTS); }
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    int c = f ? fgetc(f) : 0;
    area[(unsigned)(c < 0 ? 0 : c) * 2000u + 599000u - 510000u]++;
    return 0;
}
EOT
plaincc -O1 edges.c "$FZ_ROOT/lib/fz/fz-rt.o" -o edges || fail "cannot build edges.c"
run -E 600 -i seeds -o edges_out -- ./edges @@ >edges.log 2>&1 || { cat edges.log; fail "600,000-edge target failed"; }
[ "$(stat_of edges_out total_edges)" -ge 600000 ] || fail "the map is $(stat_of edges_out total_edges) bytes, want >= 600000"
[ "$(stat_of edges_out corpus_count)" -gt 1 ] || fail "no new entry from slots past 64 KiB"
ok "600,000-edge target: map of $(stat_of edges_out total_edges) bytes, $(stat_of edges_out corpus_count) entries"
no_tmp_left "target faults"
