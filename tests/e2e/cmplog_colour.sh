#!/bin/bash
# cmplog_colour.sh - the input-to-state stage's colour sweep: a crash that
# needs 1,000 bytes changed at once behind a 2-byte magic
# (testcases/cmp_colour.c) is found by op:colour runs within a small -E
# budget, and not within the same budget with FZ_NO_CMPLOG=1; fuzzer_stats
# counts the sweep's runs and finds apart (colour_execs, colour_finds).
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"

stat_of() { sed -n "s/^$2 *: //p" "$1/default/fuzzer_stats"; }

fzcc -O1 -o colour "$FZ_ROOT/testcases/cmp_colour.c" || fail "cannot build cmp_colour.c"
mkdir -p seeds && { printf CW; head -c 1000 /dev/zero | tr '\0' A; } >seeds/a
fz-fuzz -q -s 1 -E 3000 --until-crash -i seeds -o on -- ./colour @@ >on.log 2>&1
rc=$?
grep -q 'off (the target has no compare hooks)' on.log &&
    fz_skip "[$FZ_TEST_CC] $FZ_PLUGIN inserts no compare hooks (an fz without comparison instrumentation)"
[ $rc = 3 ] || { cat on.log; fail "exit $rc with comparison feedback, want 3 (crash found)"; }
ls on/default/crashes/id:*op:colour* >/dev/null 2>&1 ||
    { ls on/default/crashes; fail "the crash was not found by the colour sweep (op:colour)"; }
c=$(stat_of on colour_execs) f=$(stat_of on colour_finds) all=$(stat_of on cmplog_execs)
[ "$c" -gt 0 ] && [ "$f" -gt 0 ] || fail "colour_execs $c, colour_finds $f: want both > 0"
[ "$c" -le "$all" ] || fail "colour_execs $c is more than cmplog_execs $all (it is a part of them)"
FZ_NO_CMPLOG=1 fz-fuzz -q -s 1 -E 3000 --until-crash -i seeds -o off -- ./colour @@ >off.log 2>&1
rc=$?
[ $rc = 0 ] || { cat off.log; fail "exit $rc with FZ_NO_CMPLOG=1, want 0 (not found)"; }
[ "$(stat_of off colour_execs)" = 0 ] || fail "colour_execs is not 0 with FZ_NO_CMPLOG=1"
ok "found by the colour sweep in $c runs ($(stat_of on execs_done) in all), not in 3000 without it"
