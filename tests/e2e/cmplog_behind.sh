#!/bin/bash
# cmplog_behind.sh - the input-to-state stage solves a check on a
# transform of an input field (x * 3 + 0x1111 == K) that sits behind a
# header the seed passes (testcases/cmp_behind.c).  The copy of the seed
# with every byte coloured breaks the header and never reaches the check;
# the logging run on the colour sweep's copy (coloured only where the
# seed's way held) shows which bytes feed it.  Without that run no crash
# in 30,000 runs; with it the seed's first turn crashes (87 runs).
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"

fzcc -O2 -o behind "$FZ_ROOT/testcases/cmp_behind.c" || fail "cannot build cmp_behind.c"
mkdir -p seeds && printf 'FZB1\x10\x20\x30\x40 payload text\n' >seeds/a
fz-fuzz -q -s 1 -E 1000 --until-crash -i seeds -o out -- ./behind @@ >log 2>&1
rc=$?
grep -q 'off (the target has no compare hooks)' log &&
    fz_skip "[$FZ_TEST_CC] $FZ_PLUGIN inserts no compare hooks (an fz without comparison instrumentation)"
[ $rc = 3 ] || { cat log; fail "fz-fuzz exited $rc, want 3 (crash found): the check behind the header was not solved in 1000 runs"; }
c=$(ls out/default/crashes | grep '^id:')
case $c in *op:i2s*) ;; *) fail "the crash came from $c, not the input-to-state stage" ;; esac
ok "solved behind the header: $c"
