#!/bin/bash
# cmin_basic.sh - fz-cmin on a directory with duplicates and redundant
# files keeps fewer files with the same union coverage (checked with
# fz-showmap), leaves crashing inputs out, and refuses a non-empty output
# directory.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"
[ -x "$FZ_BIN/fz-cmin" ] || fail "build fz first (make)"
cd "$T" || exit 1
fzcc -O1 "$FZ_ROOT/testcases/tmin_magic.c" -o magic || fail "fz-cc cannot build tmin_magic.c"

mkdir in
printf 'abc' >in/a1
printf 'abc' >in/a2
printf 'abc' >in/a3
printf 'hello 12345' >in/d1
printf 'hello 12345 again' >in/d2
printf 'ABCDE' >in/u1
printf 'xx ABCDE 99999' >in/u2
printf 'zz ABCDE 99999' >in/u3
printf 'xxBUG!' >in/crash

union() { # dir -> sorted union of tuples
    for f in "$1"/*; do fz-showmap -q -o - -- ./magic @@ <"$f"; done | sort -u
}

fz-cmin -i in -o out -- ./magic @@ 2>log || fail "fz-cmin failed: $(cat log)"
n_in=$(ls in | wc -l)
n_out=$(ls out | wc -l)
[ "$n_out" -ge 1 ] && [ "$n_out" -lt "$n_in" ] || fail "kept $n_out of $n_in files"
[ -e out/crash ] && fail "a crashing input was kept"
[ "$(ls out | grep -c '^a')" = 1 ] || fail "duplicates not collapsed: $(ls out)"
rm in/crash
union in >u.in
union out >u.out
cmp -s u.in u.out || fail "union coverage changed: $(diff u.in u.out | head)"
ok "$n_in files -> $n_out, same union of $(wc -l <u.in) tuples; $(cat log)"

fz-cmin -i in -o out -- ./magic @@ 2>err && fail "non-empty output dir accepted"
grep -q "not empty" err || fail "non-empty out: $(cat err)"
ok "non-empty out refused: $(cat err)"
mkdir emptyin
fz-cmin -i emptyin -o out2 -- ./magic @@ 2>err && fail "empty input dir accepted"
grep -q "no files" err || fail "empty in: $(cat err)"
ok "empty in refused: $(cat err)"
