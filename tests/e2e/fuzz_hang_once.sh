#!/bin/bash
# fuzz_hang_once.sh - hangs are unique by the edges they reach, not by hit
# counts: testcases/hang_loop.c's one infinite loop, met by many inputs and
# killed at a different count each time, gives one hang file.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
fzcc -O1 -o target "$FZ_ROOT/testcases/hang_loop.c" || fail "cannot build hang_loop.c"
mkdir seeds && printf 'A' >seeds/a
# A short confirming run (FZ_HANG_TMOUT) keeps the test fast; it is still
# needed, since on a loaded machine an input that returns at once can
# take longer than -t now and then.
rc=0
FZ_HANG_TMOUT=300 fz-fuzz -q -s 1 -E 150 -t 50 -i seeds -o out -- ./target @@ >log 2>&1 || rc=$?
[ $rc = 0 ] || { cat log; fail "fz-fuzz exited $rc"; }
total=$(sed -n 's/^total_hangs *: //p' out/default/fuzzer_stats)
[ "${total:-0}" -ge 20 ] || fail "only ${total:-0} runs hung: the test proves nothing"
n=$(ls out/default/hangs | grep -c '^id:')
[ "$n" = 1 ] || { ls out/default/hangs; fail "one infinite loop gave $n hang files, not 1"; }
ok "one infinite loop, $total runs that hung, one hang file"
