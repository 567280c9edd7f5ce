#!/bin/bash
# cmplog_bulk.sh - the comparison log under load (testcases/cmp_bulk.c):
# three million compares at one site keep FZ_CMP_PAIRS entries and count
# every call; a strcmp of two 4 MiB strings keeps FZ_CMP_STR_MAX bytes of
# each; a persistent target (__AFL_LOOP) logs only the pass the fuzzer
# marked, through the guards of a function that calls __AFL_LOOP itself.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

dump=$FZ_ROOT/build/tests/cmplog-dump
[ -x "$dump" ] || fz_skip "build/tests/cmplog-dump is not built (make)"
cd "$T"
fzcc -O2 -o bulk "$FZ_ROOT/testcases/cmp_bulk.c" || fail "cmp_bulk.c does not build"
printf 'Q' >in

"$dump" -i in -- ./bulk >plain.log || fail "the target failed under the log"
# spin LOG VALUE: "CALLS ENTRIES BAD" of the tight loop's compare with
# VALUE (0x12345600 + the input's first byte), summed over the sites the
# compiler made of it (it may unroll); BAD 1 when a site kept other than
# min(calls, 32) entries.
spin() {
    awk -v v="$2" '$1 == "int" && ($6 == v || $7 == v) { hits[$2] = $3; n[$2]++ }
         END { for (s in hits) { h += hits[s]; e += n[s]; if (n[s] != (hits[s] < 32 ? hits[s] : 32)) bad = 1 }
               print h + 0, e + 0, bad + 0 }' "$1"
}
read -r calls entries bad < <(spin plain.log 0x12345651)
[ "$calls" = 3000000 ] || fail "the tight loop's compare counted $calls calls, not 3000000: $(grep -m3 0x12345651 plain.log)"
[ "$bad" = 0 ] && [ "$entries" -le 96 ] || fail "the tight loop's sites keep $entries entries (at most 32 per site)"
a32=$(printf 'A%.0s' $(seq 32))
grep -qx "str [0-9]* 1 z \"$a32\" \"$a32\"" plain.log ||
    grep -qE "^str [0-9]+ 1 z \"$a32\" \"$a32\"\$" plain.log ||
    fail "the 4 MiB strcmp is not logged as $((32)) bytes of each: $(grep '^str' plain.log)"
ok "3000000 compares at one site: 32 entries kept, all counted; 4 MiB strcmp: 32 bytes each"

"$dump" -f -p -i in -- ./bulk >pers.log || fail "the persistent target failed under the log"
grep -qx 'cmplog_bit 1' pers.log || fail "persistent target: no comparison bit"
grep -qx 'pass1_hits 0' pers.log || fail "the pass with logging off logged: $(grep pass1 pers.log)"
# clang makes strcmp with a known-size buffer a 12-byte bcmp.
grep -qE '^str [0-9]+ 1 [z-] "[^"]*" "persist-key(\\x00)?"$' pers.log ||
    fail "the second pass's strcmp (in the function that calls __AFL_LOOP) is not logged: $(grep '^str' pers.log)"
# The second pass reads an empty stdin: the first byte is 0.
read -r calls entries bad < <(spin pers.log 0x12345600)
[ "$calls" = 3000000 ] || fail "the second pass's loop logged $calls calls, not 3000000"
ok "persistent: the pass with logging off logs nothing, the marked pass logs"
