#!/bin/bash
# runtime_handshake.sh - direct mode's shared-memory handshake under the
# bad conditions of a real machine (include/fz-protocol.h, "Direct
# persistent mode"); the word-level cases (crash, exit and hang mid-run,
# kills at any moment) are in tests/check_runtime.c, closing 198/199 in a
# run in runtime_diag.sh.
#  - fz-fuzz killed with SIGKILL while its target waits between runs, and
#    while a run hangs: the forkserver and its child end with it (no
#    orphan left waiting, let alone spinning);
#  - a run that takes long (a hang under a 60 s timeout): fz-fuzz, the
#    forkserver and the child sleep instead of burning CPU while they wait;
#  - two campaigns bound to one CPU: neither spins (there is no second CPU
#    to spin on), both finish their runs with direct mode.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"
[ -x "$FZ_BIN/fz-fuzz" ] || fz_skip "bin/fz-fuzz is not built yet"
cd "$T" || exit 1

cat >harness.c <<'C'
#include <unistd.h>
__AFL_FUZZ_INIT();
int main(void)
{
    __AFL_INIT();
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(100000)) {
        int len = __AFL_FUZZ_TESTCASE_LEN;
        if (len > 0 && buf[0] == 'H')
            for (;;)
                pause();
    }
    return 0;
}
C
fzcc -O1 harness.c -o harness || fail "fz-fuzz cannot build the harness"
mkdir seeds && printf 'a' >seeds/a

# procs: pids of processes running ./harness from this directory.
procs() { pgrep -f "^$T/harness\$|^\./harness\$" -d ' ' -u "$(id -u)" || true; }
# state PID: the state letter in /proc/PID/stat (R, S, Z...), empty if gone.
state() { sed -n 's/.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null; }
# asleep PID: in state S (or D/T/Z) in at least 18 of 20 samples: a spinner
# is R nearly always.
asleep() {
    local n=0
    for _ in $(seq 20); do
        case $(state "$1") in S | D | T | Z | "") n=$((n + 1)) ;; esac
        sleep 0.01
    done
    [ $n -ge 18 ]
}
# all_gone: no harness process left within 5 s (zombies awaiting init count
# as gone).
all_gone() {
    for _ in $(seq 100); do
        local live=""
        for p in $(procs); do
            case $(state "$p") in Z | "") ;; *) live="$live $p" ;; esac
        done
        [ -z "$live" ] && return 0
        sleep 0.05
    done
    echo "left behind:$live"
    return 1
}

# 1. Killed between runs: with a huge -E the campaign is busy, so at any
# moment the child is between runs or in one; SIGKILL takes the fuzzer
# away without any clean-up of its own.
"$FZ_BIN/fz-fuzz" -q -i seeds -o o1 -s 1 -E 100000000 -- ./harness >o1.log 2>&1 &
fz=$!
for _ in $(seq 100); do [ -n "$(procs)" ] && [ -f o1/default/fuzzer_stats ] && break; sleep 0.05; done
[ -n "$(procs)" ] || { cat o1.log; fail "the campaign did not start"; }
sleep 0.3
kill -9 $fz
wait $fz 2>/dev/null
all_gone || fail "fz-fuzz killed mid-campaign left harness processes behind"

# 2. Killed while a run hangs (-t is long, so the child is still in the
# hanging run when the fuzzer dies).
printf 'H' >seeds/h
"$FZ_BIN/fz-fuzz" -q -i seeds -o o2 -s 1 -t 60000 -E 10 -- ./harness >o2.log 2>&1 &
fz=$!
for _ in $(seq 100); do [ "$(procs | wc -w)" -ge 2 ] && break; sleep 0.05; done
[ "$(procs | wc -w)" -ge 2 ] || { cat o2.log; fail "no child started for the hanging run"; }
sleep 0.3
for p in $(procs) $fz; do asleep "$p" || fail "pid $p ($(cat /proc/$p/comm)) spins during a hanging run"; done
kill -9 $fz
wait $fz 2>/dev/null
all_gone || fail "fz-fuzz killed during a hanging run left harness processes behind"
rm seeds/h

# 3. Two campaigns on one CPU: both finish in direct mode.
if command -v taskset >/dev/null; then
    for i in 1 2; do
        taskset -c 0 "$FZ_BIN/fz-fuzz" -q -i seeds -o "c$i" -s $i -E 5000 -- ./harness >"c$i.log" 2>&1 &
        eval "pid$i=$!"
    done
    wait "$pid1" || { cat c1.log; fail "campaign 1 on a shared CPU failed"; }
    wait "$pid2" || { cat c2.log; fail "campaign 2 on a shared CPU failed"; }
    for i in 1 2; do
        grep -q '^fsrv_protocol *: v1 direct' "c$i/default/fuzzer_stats" || fail "campaign $i did not use direct mode"
        grep -q '^execs_done *: 5000' "c$i/default/fuzzer_stats" || fail "campaign $i did not finish its runs"
    done
fi
all_gone || fail "harness processes outlived their campaigns"
ok "no orphans after SIGKILL (idle and mid-run), no spinning in a long run, two campaigns share a CPU"
