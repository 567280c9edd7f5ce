#!/bin/bash
# fuzz_crash_sites.sh - crashes are told apart by their site, not their
# coverage (testcases/crash_sites.c):
#  - two aborts, A (short input) and B (deeper, "B!ok", whose cut-down
#    inputs crash in A with the same signal): a reproducer of each is kept,
#    B's minimized into B, not into A;
#  - four paths into one abort ("C" then '1', '2', '4' or '8' at [1..4],
#    each path its own edges): one crash file;
#  - a fault inside the runtime's own handler ("S", x86-64): the run ends,
#    with the first fault's signal (SIGILL), and is still saved;
#  - a crash three calls deep, through a variable-size frame and, for
#    abort(), through libc's frames: its site names leaf < mid < top
#    (testcases/crash_deep.c, -O2);
#  - fz-tmin keeps the site as fz-fuzz does;
#  - the end-of-run lines name each new site with a command that
#    reproduces it; crashes/README.txt lists them; fuzzer_stats counts them.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"
fzcc -O1 -o target "$FZ_ROOT/testcases/crash_sites.c" || fail "fz-cc could not build crash_sites.c"
mkdir seeds && printf 'B!oj' >seeds/b && printf 'C0000' >seeds/c && printf 'zzz' >seeds/z
rc=0
fz-fuzz -q -s 1 -E 12000 -i seeds -o out -- ./target @@ >log 2>&1 || rc=$?
[ $rc = 3 ] || { cat log; fail "fz-fuzz exited $rc, not 3 (crashes found)"; }
C=out/default/crashes

starts() { # prefix -> crash files whose bytes start with it
    for f in "$C"/id:*; do
        [ "$(head -c ${#1} "$f")" = "$1" ] && echo "$f"
    done
}
[ -n "$(starts 'B!ok')" ] || { ls "$C"; fail "no crash file reproduces bug B (B!ok): minimized into bug A?"; }
[ -n "$(starts A)$(for f in "$C"/id:*; do case $(cat "$f") in B | B?) echo "$f" ;; esac; done)" ] ||
    { ls "$C"; fail "no crash file reproduces bug A"; }
n_c=$(starts C | wc -l)
[ "$n_c" = 1 ] || { ls "$C"; fail "four paths into one abort gave $n_c crash files, not 1"; }
case $(uname -m) in
x86_64)
    s=$(starts S)
    [ -n "$s" ] || { ls "$C"; fail "the crash that faults in the runtime's handler was not saved"; }
    case $s in *sig:04*) ;; *) fail "a fault in the handler changed the signal: $s" ;; esac
    ;;
esac

sites=$(sed -n 's/^unique_crash_sites *: //p' out/default/fuzzer_stats)
[ "${sites:-0}" -ge 3 ] || fail "unique_crash_sites is '$sites', expected at least 3 (A, B, C)"
grep -q "^fz-fuzz: $sites new crash sites; to reproduce each:" log ||
    { cat log; fail "no end-of-run line for the $sites new crash sites"; }
grep -q "^Crash sites ($sites):" "$C/README.txt" || fail "crashes/README.txt does not list the sites"
# Every command the summary printed reproduces its crash.
n=0
while read -r cmd; do
    rc=0
    (eval "$cmd") >/dev/null 2>&1 || rc=$?
    [ $rc -gt 128 ] || fail "'$cmd' exited $rc: it did not reproduce a crash"
    n=$((n + 1))
done < <(grep '^    \./target ' log)
[ "$n" = "$sites" ] || fail "$n reproducing commands for $sites sites"
ok "$sites crash sites, $(ls "$C" | grep -c '^id:') files; one for four paths; A and B both kept"

# The frames of a deep crash are the three functions it is in, for a
# fault and for abort() (whose first frames are libc's, skipped).
fzcc -O2 -o deep "$FZ_ROOT/testcases/crash_deep.c" || fail "fz-cc could not build crash_deep.c"
mkdir dseeds && printf 'W' >dseeds/w
rc=0
fz-fuzz -q -s 1 -E 3000 -i dseeds -o dout -- ./deep @@ >dlog 2>&1 || rc=$?
[ $rc = 3 ] || { cat dlog; fail "deep: fz-fuzz exited $rc, not 3 (crashes found)"; }
for sig in SIGSEGV SIGABRT; do
    line=$(grep -m1 "^  $sig at exe+" dlog) || { cat dlog; fail "deep: no $sig site line"; }
    names=$(echo "$line" | grep -o 'exe+0x[0-9a-f]*' | sed 's/exe+//' |
        xargs addr2line -f -e deep | sed -n '1~2p' | sed 's/\..*//' | tr '\n' ' ')
    [ "$names" = "leaf mid top " ] || fail "deep: the $sig site names '$names', not 'leaf mid top' ($line)"
done
ok "a crash three calls deep: leaf < mid < top, for a fault and for abort()"

# fz-tmin keeps the site too: B's input stays B, though "B" alone aborts (A).
printf 'B!okxxxxxxxx' >b.in
fz-tmin -q -i b.in -o b.min -- ./target @@ || fail "fz-tmin failed on B's input"
[ "$(cat b.min)" = 'B!ok' ] || fail "fz-tmin turned B's input into '$(cat b.min)', not 'B!ok'"
ok "fz-tmin keeps B's site: B!okxxxxxxxx -> B!ok"

# A crash whose site moves between runs (testcases/crash_flaky_site.c) is
# saved once, counted in flaky_crash_sites, and said.
fzcc -O1 -o flaky "$FZ_ROOT/testcases/crash_flaky_site.c" || fail "cannot build crash_flaky_site.c"
mkdir fseeds && printf 'E' >fseeds/e
rc=0
fz-fuzz -q -s 1 -E 3000 -i fseeds -o fout -- ./flaky @@ >flog 2>&1 || rc=$?
[ $rc = 3 ] || { cat flog; fail "flaky: fz-fuzz exited $rc, not 3"; }
n_f=$(ls fout/default/crashes | grep -c '^id:')
[ "$n_f" = 1 ] || { ls fout/default/crashes; fail "a crash with a moving site was saved $n_f times"; }
fl=$(sed -n 's/^flaky_crash_sites *: //p' fout/default/fuzzer_stats)
[ "${fl:-0}" -ge 1 ] || fail "flaky_crash_sites is '$fl' after a crash that moves between sites"
grep -q 'flaky site' flog || { cat flog; fail "the flaky site was not said"; }
ok "a crash that moves between two sites: one file, flaky_crash_sites $fl"
