#!/bin/bash
# fuzz_slow.sh - a slow target (100 ms a run) is still watched several times
# a second: -V stops it long before the 64 runs after which the clock used to
# be read first, and Ctrl-C during the seed calibration stops it there, with
# nothing written.  The assertions are run counts and messages, not times:
# 64 runs of this target take at least 6.4 s whatever the machine's load.
. "$(dirname "$0")/../lib.sh"
cd "$T"
cat >slow.c <<'EOT'
#include <unistd.h>
int main(void)
{
    usleep(100000);
    return 0;
}
EOT
fzcc -O1 -o slow slow.c || fail "cannot build slow.c"
mkdir seeds && echo a >seeds/a

fz-fuzz -q -s 1 -V 1 -t 1000 -i seeds -o v -- ./slow >v.log 2>&1
rc=$?
[ $rc = 0 ] || { cat v.log; fail "-V 1 on a slow target exited $rc"; }
n=$(sed -n 's/^execs_done *: //p' v/default/fuzzer_stats)
[ -n "$n" ] && [ "$n" -lt 64 ] || { cat v.log; fail "-V 1 ran $n runs of a 100 ms target (want < 64)"; }
ok "-V 1 stops a 100 ms target after $n runs"

# 30 seeds x 4 calibration runs x 100 ms = 12 s of calibration; SIGINT
# after one second must end it there (the bound: -V 60).
for i in $(seq 10 39); do echo "$i" >seeds/s$i; done
fz-fuzz -q -s 1 -V 60 -t 1000 -i seeds -o c -- ./slow >c.log 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc = 0 ] || { cat c.log; fail "SIGINT during calibration: exit $rc, want 0"; }
grep -q 'stopped by a signal while checking the seeds; nothing was written' c.log ||
    { cat c.log; fail "SIGINT did not stop the seed calibration"; }
[ -z "$(ls -A c/default/queue)" ] || fail "SIGINT during calibration left queue files"
[ ! -e c/default/fuzzer_stats ] || fail "SIGINT during calibration left fuzzer_stats"
mkdir one && echo a >one/a
fz-fuzz -q -s 1 -E 5 -t 1000 -i one -o c -- ./slow >c2.log 2>&1 ||
    { cat c2.log; fail "a rerun into the interrupted -o failed"; }
ok "SIGINT during seed calibration stops there; the -o is reusable"

# -V also ends a minimization: here the first find (byte 0 flipped to '`')
# makes every run that keeps that byte take 100 ms, and its minimization
# would spend most of its 256-run budget on such runs (no byte can go: the
# length is part of the new branch) - 20 s or more.  With -V 2 it must stop
# after a few runs.
cat >slowmin.c <<'EOT'
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    char buf[512];
    FILE *f = fopen(argv[1], "rb");
    size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
    static volatile int depth;
    if (n >= 1 && buf[0] == '`') {
        usleep(100000);
        if (n == 200)
            depth = 2;
    }
    return depth;
}
EOT
fzcc -O1 -o slowmin slowmin.c || fail "cannot build slowmin.c"
mkdir mseeds && head -c 200 /dev/zero | tr '\0' a >mseeds/a
fz-fuzz -q -s 1 -V 2 -t 1000 -i mseeds -o m -- ./slowmin @@ >m.log 2>&1
rc=$?
[ $rc = 0 ] || { cat m.log; fail "-V 2 with a slow minimization exited $rc"; }
mn=$(sed -n 's/^minimize_execs *: //p' m/default/fuzzer_stats)
[ -n "$mn" ] && [ "$mn" -ge 1 ] && [ "$mn" -lt 64 ] ||
    { cat m.log; fail "-V 2 let the minimizer run $mn runs of 100 ms (want 1..63)"; }
ok "-V ends a slow minimization after $mn runs"
