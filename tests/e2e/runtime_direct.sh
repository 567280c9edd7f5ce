#!/bin/bash
# runtime_direct.sh - fz-fuzz's direct persistent mode (include/fz-protocol.h)
# end to end, on a harness with a planted crash ("C"), a planted hang ("H")
# and an exit() inside the loop ("X"):
#  - the crash and the hang are found and saved, and fuzzing goes on after
#    each (a timeout kill and a crash both end the child, the next run
#    forks a new one) with many executions per child;
#  - the same seed and budget give the same queue, crashes and hangs with
#    direct mode (on one CPU, and with FZ_SPIN=1, which puts the target on
#    a CPU of its own and spins when a second CPU is free) and with the
#    classic SIGSTOP protocol (FZ_NO_DIRECT=1): they judge every run alike.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"
[ -x "$FZ_BIN/fz-fuzz" ] || fz_skip "bin/fz-fuzz is not built yet"
cd "$T" || exit 1

cat >harness.c <<'C'
#include <stdlib.h>
#include <unistd.h>
__AFL_FUZZ_INIT();
int main(void)
{
    __AFL_INIT();
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(1000)) {
        int len = __AFL_FUZZ_TESTCASE_LEN;
        if (len < 1)
            continue;
        if (buf[0] == 'C')
            abort();
        if (buf[0] == 'H')
            for (;;)
                pause();
        if (buf[0] == 'X')
            exit(0);
    }
    return 0;
}
C
fzcc -O1 harness.c -o harness || fail "fz-cc cannot build the harness"
mkdir seeds && printf 'a' >seeds/a

listing() { # dir -> "name-without-time md5" lines
    (cd "$1" && for f in id:*; do
        [ -e "$f" ] || continue
        printf '%s %s\n' "$(printf %s "$f" | sed 's/,time:[0-9]*//')" "$(md5sum <"$f" | cut -c1-32)"
    done)
}
for mode in direct spin classic; do
    nd=0 spin=0
    [ $mode = classic ] && nd=1
    [ $mode = spin ] && spin=1
    rc=0
    FZ_SPIN=$spin FZ_NO_DIRECT=$nd "$FZ_BIN/fz-fuzz" -q -i seeds -o $mode -s 1 -t 200 -E 3000 -- ./harness >$mode.log 2>&1 || rc=$?
    [ $rc = 3 ] || { tail -n 20 $mode.log; fail "$mode: fz-fuzz exit $rc, expected 3 (crash found)"; }
    for d in queue crashes hangs; do listing $mode/default/$d >$mode.$d.txt; done
    grep -q '^id:[^ ]* ' $mode.crashes.txt || fail "$mode: no crash saved"
    grep -q '^id:[^ ]* ' $mode.hangs.txt || fail "$mode: no hang saved"
    [ "$(head -c 1 "$(ls $mode/default/crashes/id:* | head -n 1)")" = C ] || fail "$mode: the crash is not the planted one"
    [ "$(head -c 1 "$(ls $mode/default/hangs/id:* | head -n 1)")" = H ] || fail "$mode: the hang is not the planted one"
    # Each run must really use the protocol it is named after.
    want="v1 direct"
    [ $mode = classic ] && want=v1
    proto=$(awk -F' *: *' '$1=="fsrv_protocol"{print $2}' $mode/default/fuzzer_stats)
    tm=$(awk -F' *: *' '$1=="target_mode"{print $2}' $mode/default/fuzzer_stats)
    [ "$proto" = "$want" ] || fail "$mode: fsrv_protocol is '$proto', expected '$want'"
    [ "$tm" = "shmem_testcase persistent" ] || fail "$mode: target_mode is '$tm'"
    epf=$(awk -F' *: *' '$1=="execs_per_fork"{print int($2)}' $mode/default/fuzzer_stats)
    [ "${epf:-0}" -ge 5 ] || fail "$mode: only ${epf:-?} executions per child"
done
for d in queue crashes hangs; do
    diff direct.$d.txt classic.$d.txt || fail "direct and classic protocols gave different $d"
    diff spin.$d.txt classic.$d.txt || fail "direct mode with FZ_SPIN=1 and the classic protocol gave different $d"
done
ok "crash and hang found, $epf execs per child; direct and classic runs agree ($(wc -l <direct.queue.txt) queue entries)"
