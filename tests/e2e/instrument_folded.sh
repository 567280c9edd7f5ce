#!/bin/bash
# instrument_folded.sh - branches the optimiser folds into straight-line
# code (a minimum, a choice of constants, a comparison kept as a value:
# testcases/folded.c at -O2) still show in the map: inputs that differ
# only in one such decision give different maps, and the same inputs give
# the same map when FZ_NO_FOLDED=1 drops the folded-branch slots (so the
# target really is folded, and the slots are what tells them apart).
# Comparisons joined before one branch, `(x && y) || z`, get a slot per
# pair of outcomes: with z true, x and y in one run hits a slot that x in
# one run and y in another do not (and nothing new without the slots);
# so do the halves of (u | v) == 0.
# Runs once per back end.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

[ -x "$FZ_BIN/fz-showmap" ] || fz_skip "bin/fz-showmap is not built"
src=$FZ_ROOT/testcases/folded.c
FZ_QUIET= fzcc -O2 "$src" -o "$T/on" 2>"$T/on.rep" || fail "build failed: $(cat "$T/on.rep")"
FZ_QUIET= FZ_NO_FOLDED=1 fzcc -O2 "$src" -o "$T/off" 2>"$T/off.rep" || fail "FZ_NO_FOLDED=1 build failed: $(cat "$T/off.rep")"
slots() { sed -n 's/^fz-cc: \([0-9][0-9]*\) edges instrumented in .*/\1/p' "$1"; }
on=$(slots "$T/on.rep") off=$(slots "$T/off.rep")
[ -n "$on" ] && [ -n "$off" ] || fail "no report line: $(cat "$T/on.rep" "$T/off.rep")"
[ "$on" -gt "$off" ] || fail "folded-branch slots add nothing: $off slots without, $on with"

# map BUILD INPUT: hash of the edges the input hits
map() {
    printf '%s' "$2" | "$FZ_BIN/fz-showmap" -q -e -o "$T/map" -- "$T/$1" || fail "fz-showmap failed on $1 < $2"
    md5sum <"$T/map" | cut -c1-32
}
base_on=$(map on aaa) base_off=$(map off aaa)
# byte 0 above 100: the minimum; byte 2 above 100: the comparison value.
# (Byte 1, the choice of constants, stays a branch under GCC; it is only
# required to differ in the build with slots.)
for input in zaa aza aaz; do
    [ "$(map on $input)" != "$base_on" ] || fail "$FZ_TEST_CC: '$input' and 'aaa' give the same map with folded-branch slots"
done
for input in zaa aaz; do
    [ "$(map off $input)" = "$base_off" ] ||
        fail "$FZ_TEST_CC: '$input' differs from 'aaa' without folded-branch slots: testcases/folded.c no longer folds that decision"
done

# edges BUILD INPUT: the slots the input hits, sorted
edges() {
    printf '%s' "$2" | "$FZ_BIN/fz-showmap" -q -e -o "$T/$1-$2.map" -- "$T/$1" || fail "fz-showmap failed on $1 < $2"
    cut -d: -f1 "$T/$1-$2.map" | sort
}
# new BUILD: slots 'aaaxyz' hits that neither 'aaaxaz' nor 'aaaayz' does
new() { comm -23 <(edges "$1" aaaxyz) <({ edges "$1" aaaxaz; edges "$1" aaaayz; } | sort -u) | wc -l; }
[ "$(new on)" -gt 0 ] || fail "$FZ_TEST_CC: x && y in one run hits nothing that x and y in two runs do not"
[ "$(new off)" -eq 0 ] ||
    fail "$FZ_TEST_CC: x && y in one run is new without folded-branch slots: testcases/folded.c no longer joins x, y and z into one branch"
# Two integers tested for zero together, (u | v) == 0: u nonzero and v
# nonzero take the same edge as both nonzero; the slots of the halves
# tell them apart.
[ "$(map on aaaaaapa)" != "$(map on aaaaaaaa)" ] ||
    fail "$FZ_TEST_CC: one half of (u | v) == 0 nonzero gives the map of both nonzero with folded-branch slots"
[ "$(map off aaaaaapa)" = "$(map off aaaaaaaa)" ] ||
    fail "$FZ_TEST_CC: the halves of (u | v) == 0 differ without folded-branch slots: testcases/folded.c no longer tests them together"
ok "$FZ_TEST_CC: $off -> $on slots; a minimum, a choice, a comparison value, a pair of joined comparisons and the halves of a zero test each tell inputs apart"
