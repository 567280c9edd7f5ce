#!/bin/bash
# faults_small.sh - the smaller faults of issue 26 pt 7 (docs/faults.md):
# an empty cmdline; garbage in plot_data (not glued to the next line; fz-plot
# skips a bad first line); queue names after a resume go on counting
# time: and execs:; FZ_AUTORESUME=1 with a new -i says the seeds are not
# used; -f inside the campaign's queue/ is refused; resuming a -j campaign
# without -j names its instances; many seeds with a short -V; strict
# yes-or-no variables; --replay on an empty directory; --artifact-prefix
# to a missing directory; a seed over the size limit is skipped.
. "$(dirname "$0")/../lib.sh"
. "$FZ_ROOT/tests/faults-lib.sh"
run() { fz-fuzz -q -s 1 "$@"; }

run -E 2000 -i seeds -o c -- ./ft crash @@ >/dev/null 2>&1
[ $? = 3 ] || fail "the first campaign did not end with its crash"

# An empty cmdline: said to be damaged, with what to do.
cp c/default/cmdline cmdline.keep
: >c/default/cmdline
expect "empty cmdline" 1 "cmdline' is empty: the file that names the campaign's target is damaged" run -E 100 -i - -o c -- ./ft crash @@
cp cmdline.keep c/default/cmdline

# plot_data whose last line is garbage (no newline): the resume's rows are
# lines of their own.
printf 'garbage!!' >>c/default/plot_data
execs=$(stat_of c execs_done)
last=$(ls c/default/queue | sed -n 's/^id:\([0-9]*\).*/\1/p' | sort -n | tail -n 1)
run -E 3000 -i - -o c -- ./ft crash @@ >resume.log 2>&1
grep -q '^garbage!!$' c/default/plot_data || fail "the garbage line got the next line glued to it"
ok "plot_data: a damaged last line stays a line of its own after a resume"

# New queue names go on from the earlier run's execs (and time).
fzcc -O1 -o br "$FZ_ROOT/testcases/rt_branches.c" || fail "cannot build testcases/rt_branches.c"
run -E 200 -i seeds -o rn -- ./br @@ >/dev/null 2>&1
execs=$(stat_of rn execs_done)
last=$(ls rn/default/queue | sed -n 's/^id:\([0-9]*\).*/\1/p' | sort -n | tail -n 1)
run -E 3000 -i - -o rn -- ./br @@ >/dev/null 2>&1
new=$(ls rn/default/queue | awk -F, -v l="$last" '{ split($1, a, ":"); if (a[2] + 0 > l + 0) print }' | head -n 1)
[ -n "$new" ] || fail "the resume found nothing new to check the name of"
e=$(echo "$new" | sed -n 's/.*execs:\([0-9]*\).*/\1/p')
[ "$e" -ge "$execs" ] || fail "after a resume, '$new' counts execs from 0 (the campaign had $execs)"
ok "after a resume, new names go on counting: $new (the first run made $execs)"

# fz-plot: a plot_data whose first line is garbage is charted, the line
# skipped and counted.
mkdir -p pl/default
{ echo 'garbage!!'; grep -v '^#' c/default/plot_data | grep -v garbage; } >pl/default/plot_data
fz-plot pl plot.out >plot.log 2>&1 || { cat plot.log; fail "fz-plot rejected a plot_data with a bad first line"; }
grep -q "skipped" plot.out/index.html || fail "fz-plot does not say that a line was skipped"
ok "fz-plot charts a plot_data whose first line is garbage, and says so"

# FZ_AUTORESUME=1 with a new -i: said.
mkdir more && printf b >more/b
FZ_AUTORESUME=1 expect "FZ_AUTORESUME with a new -i" 3 "seed(s) in 'more' are not used" run -E 300 -i more -o c -- ./ft crash @@

# -f inside the campaign's own queue/: refused, nothing left there.
expect "-f in queue/" 1 "is inside the campaign's queue/" run -E 300 -i - -o c -f "$T/c/default/queue/cur" -- ./ft crash @@
[ -e c/default/queue/cur ] && fail "-f left its file in queue/"

# A -j 2 campaign resumed without -j: its instances named;
run -j 2 -E 600 -i seeds -o jj -- ./ft crash @@ >/dev/null 2>&1
expect "resume -j 2 without -j" 1 "holds the instances" run -E 300 -i - -o jj -- ./ft crash @@
# ... and with more instances than it had: refused before any starts.
expect "resume -j 2 with -j 3" 1 "holds a -j 2 campaign (main..sec1), and -j 3" run -j 3 -E 300 -i - -o jj -- ./ft crash @@
[ -e jj/sec2 ] && fail "resuming with -j 3 started a third instance"

# Strict yes-or-no variables.
FZ_NO_CMPLOG=no expect "FZ_NO_CMPLOG=no" 0 "comparison feedback: on" fz-fuzz -s 1 -E 100 -i seeds -o b1 -- ./ft alloc @@
FZ_SPIN=abc expect "FZ_SPIN=abc" 1 "FZ_SPIN=abc: a yes-or-no setting" run -E 100 -i seeds -o b2 -- ./ft alloc @@
FZ_BENCH_UNTIL_CRASH=false expect "FZ_BENCH_UNTIL_CRASH=false" 3 "done" fz-fuzz -s 1 -E 3000 -i seeds -o b3 -- ./ft crash @@

# --replay on an empty directory fails; --artifact-prefix to a missing
# directory is refused before anything starts.
mkdir empty
expect "--replay on an empty directory" 1 "holds no input files" fz-fuzz --replay empty -- ./ft crash @@
expect "--artifact-prefix to a missing directory" 1 "is not a writable directory" run -E 100 --artifact-prefix "$T/nodir/x-" -i seeds -o ap -- ./ft crash @@
[ -e ap ] && fail "--artifact-prefix to a missing directory created -o"

# A seed over the 1 MiB limit is skipped, with a warning, and the others run.
mkdir big && printf a >big/a && head -c 1100000 /dev/zero >big/huge
expect "a seed over the limit" 0 "skipping 'big/huge' in the seed directory" fz-fuzz -s 1 -E 100 -i big -o bg -- ./ft alloc @@

# 3,000 seeds and -V 2: only checked seeds reach queue/, and the run ends
# soon after its -V (the point is -V itself, so this one is timed).
mkdir many
for i in $(seq 1 3000); do printf "s%05d" "$i" >many/s$i; done
start=$(date +%s)
run -V 2 -i many -o mv -- ./ft alloc @@ >many.log 2>&1 || { cat many.log; fail "3,000 seeds with -V 2 failed"; }
took=$(($(date +%s) - start))
if grep -q "made it into the queue" many.log; then
    n=$(sed -n 's/.*: \([0-9]*\) of 3000 made it.*/\1/p' many.log)
    [ "$(ls mv/default/queue | wc -l)" = "$n" ] || fail "queue/ holds unchecked seeds ($(ls mv/default/queue | wc -l), $n checked)"
fi
[ "$took" -lt 20 ] || fail "3,000 seeds with -V 2 took ${took}s"
ok "3,000 seeds with -V 2: ended after ${took}s, only checked seeds in queue/"
