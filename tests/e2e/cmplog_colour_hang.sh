#!/bin/bash
# cmplog_colour_hang.sh - the colour sweep does not split a range whose
# colour hangs the target (testcases/cmp_colour_hang.c: a changed last
# byte starts a loop no timeout waits out): on the seed's first turn the
# coloured run and one sweep run hang (fz-clang: one more run in 600),
# the sweep goes on over the other ranges, and it is not a timeout per
# halving (9-10 hangs in 600 runs without that rule).
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"

stat_of() { sed -n "s/^$1 *: //p" out/default/fuzzer_stats; }

fzcc -O1 -o hang "$FZ_ROOT/testcases/cmp_colour_hang.c" || fail "cannot build cmp_colour_hang.c"
mkdir -p seeds && { printf CH; head -c 1000 /dev/zero | tr '\0' A; } >seeds/a
FZ_HANG_TMOUT=300 fz-fuzz -q -s 1 -E 600 -t 50 -i seeds -o out -- ./hang @@ >log 2>&1
rc=$?
grep -q 'off (the target has no compare hooks)' log &&
    fz_skip "[$FZ_TEST_CC] $FZ_PLUGIN inserts no compare hooks (an fz without comparison instrumentation)"
[ $rc = 0 ] || { cat log; fail "fz-fuzz exited $rc"; }
h=$(stat_of total_hangs) c=$(stat_of colour_execs)
[ "$h" -ge 1 ] || fail "no run hung: the test proves nothing"
# Two more than fz-clang's three, for runs slowed past -t by a busy machine.
[ "$h" -le 5 ] || fail "$h runs hung in 600: the sweep split ranges that hung"
[ "$c" -gt 3 ] || fail "colour_execs $c: the sweep stopped at its first hang"
ok "$h runs hung, the sweep went on for $c runs"
