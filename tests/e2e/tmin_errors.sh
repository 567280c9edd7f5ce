#!/bin/bash
# tmin_errors.sh - fz-tmin on bad input: an empty file, a missing file, an
# existing output kept until the new one is complete, and a flaky crash
# (stops crashing after the first run, or part-way through).
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"
cd "$T" || exit 1
fzcc -O1 "$FZ_ROOT/testcases/tmin_flaky.c" -o flaky || fail "fz-cc cannot build tmin_flaky.c"

: >empty
fz-tmin -i empty -o out -- ./flaky @@ 2>err && fail "empty input accepted"
grep -q "empty" err || fail "empty input: $(cat err)"
ok "empty: $(cat err)"
fz-tmin -i nope -o out -- ./flaky @@ 2>err && fail "missing input accepted"
grep -q "cannot read 'nope'" err || fail "missing input: $(cat err)"
ok "missing: $(cat err)"

# Crashes once, never again: the minimizer's own first check fails.
head -c 3000 "$FZ_ROOT/testcases/tmin_magic.crash" >in
printf 'BUG!' >>in
FLAKY_STATE=$T/state FLAKY_CRASHES=1 fz-tmin -i in -o out -- ./flaky @@ 2>err && fail "flaky accepted"
grep -q "flaky" err || fail "flaky (once): $(cat err)"
[ -e out ] && fail "an output was written for a flaky input"
ok "crashes once: $(cat err)"

# Crashes for the first 6 runs, then stops part-way through: the result is
# an input that was seen crashing (no larger than the input), no crash of fz.
rm -f state
FLAKY_STATE=$T/state FLAKY_CRASHES=6 fz-tmin -i in -o out -- ./flaky @@ 2>err
rc=$?
[ $rc = 0 ] || fail "flaky part-way: exit $rc: $(cat err)"
[ -s out ] && [ "$(wc -c <out)" -le "$(wc -c <in)" ] || fail "flaky part-way: bad output"
grep -q BUG! out || fail "flaky part-way: result lost the crashing bytes"
ok "stops part-way: $(wc -c <out) bytes; $(tr '\n' ' ' <err)"
