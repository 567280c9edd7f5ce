#!/bin/bash
# tmin_basic.sh - fz-tmin: the bundled 10 KB crashing input (the crash
# needs the 4 bytes "BUG!") shrinks to at most 16 bytes and still crashes
# with the same signal; a non-crashing input keeps its coverage; the
# executions used are reported.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"
[ -x "$FZ_BIN/fz-tmin" ] || fail "build fz first (make)"
cd "$T" || exit 1
fzcc -O1 "$FZ_ROOT/testcases/tmin_magic.c" -o magic || fail "fz-cc cannot build tmin_magic.c"

crash=$FZ_ROOT/testcases/tmin_magic.crash
[ "$(wc -c <"$crash")" -ge 10000 ] || fail "bundled crash input is missing or short"
fz-tmin -i "$crash" -o min -- ./magic @@ 2>log || fail "fz-tmin failed: $(cat log)"
size=$(wc -c <min)
[ "$size" -le 16 ] || fail "minimized to $size bytes, expected <= 16"
./magic min >/dev/null 2>&1
rc=$?
[ $rc = 139 ] || fail "minimized input does not crash with SIGSEGV (exit $rc)"
grep -q 'executions' log || fail "no execution count reported: $(cat log)"
ok "10 KB crash -> $size bytes, still SIGSEGV; $(cat log)"

# Through stdin too.
fz-tmin -i "$crash" -o min2 -- ./magic 2>log || fail "fz-tmin (stdin) failed: $(cat log)"
[ "$(wc -c <min2)" -le 16 ] || fail "stdin: minimized to $(wc -c <min2) bytes"
ok "stdin delivery: $(cat log)"

# A non-crashing input keeps its coverage (the full classified map).
printf 'hello 1234 5678 ABCD then some filler text that does not matter\n' >cov
fz-tmin -i cov -o covmin -- ./magic @@ 2>log || fail "fz-tmin (coverage) failed: $(cat log)"
fz-showmap -q -o map.before -- ./magic @@ <cov || fail "fz-showmap failed"
fz-showmap -q -o map.after -- ./magic @@ <covmin || fail "fz-showmap failed"
cmp -s map.before map.after || fail "coverage changed: $(diff map.before map.after | head)"
[ "$(wc -c <covmin)" -lt "$(wc -c <cov)" ] || fail "coverage input did not shrink"
ok "coverage kept: $(cat log)"

# A budget is respected and still leaves a crashing input.
fz-tmin -E 10 -i "$crash" -o min3 -- ./magic @@ 2>log || fail "fz-tmin -E failed: $(cat log)"
./magic min3 >/dev/null 2>&1
[ $? = 139 ] || fail "-E 10 result does not crash"
ok "budget: $(cat log)"
