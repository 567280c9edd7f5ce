#!/bin/bash
# fuzz_afl_tools.sh - AFL++'s monitoring tools accept fz-fuzz's output
# directory unchanged: afl-whatsup reads fuzzer_stats, afl-plot draws
# plot_data.  Skipped when afl++ is not installed; when gnuplot is missing
# the afl-plot part cannot run and the script reports a skip (exit 77), not
# a pass, after the afl-whatsup part has passed.
. "$(dirname "$0")/../lib.sh"
command -v afl-whatsup >/dev/null || fz_skip "afl++ is not installed (apt-get install afl++)"
cd "$T"
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "fz-cc could not build testcases/demo.c"
fz-fuzz -q -s 1 -E 20000 -i "$FZ_ROOT/testcases/demo_seeds" -o out -- ./demo @@ >log 2>&1
rc=$?
[ $rc = 3 ] || { cat log; fail "fuzzing the demo exited $rc, want 3"; }

# -d: count instances that are no longer running (ours has finished).
TERM=dumb afl-whatsup -d -s out >whatsup.log 2>&1 || { cat whatsup.log; fail "afl-whatsup failed"; }
grep -q 'Crashes saved : 1' whatsup.log || { cat whatsup.log; fail "afl-whatsup does not see the crash"; }
grep -Eq 'Total execs : [0-9]+ thousands|Total execs : [1-9]' whatsup.log ||
    { cat whatsup.log; fail "afl-whatsup does not see the executions"; }
ok "afl-whatsup reads fuzzer_stats"

if ! command -v gnuplot >/dev/null; then
    # A visible skip: the run reports SKIP with this line.
    fz_skip "afl-whatsup part passed; afl-plot part skipped: gnuplot is not installed (apt-get install gnuplot-nox)"
fi
# plot_data gets a line every 5 s and at exit; afl-plot wants at least two
# data lines, which the start and the end of any run provide.
afl-plot out/default plot >plot.log 2>&1 || { cat plot.log; fail "afl-plot rejected plot_data"; }
[ -s plot/index.html ] || fail "afl-plot wrote no index.html"
ls plot/*.png >/dev/null 2>&1 || fail "afl-plot drew no graphs"
ok "afl-plot draws plot_data"
