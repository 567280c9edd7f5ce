#!/bin/bash
# ci_cannot_lie.sh - docs/ci.md's recipes hold: a resumed cache
# (FZ_AUTORESUME=1) whose saved crashes still crash exits 3, not 0; the end
# of a run and --replay print the first lines of each crash's report (the
# sanitizer's, or the signal and the frame); --artifact-prefix writes every
# crash also as crash-<sha1>, a name CI artifact uploaders accept.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
unset ASAN_OPTIONS UBSAN_OPTIONS
fzcc -g -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "cannot build demo.c"
seeds=$FZ_ROOT/testcases/demo_seeds

# --- The cache recipe, twice: both runs exit 3.
run() { FZ_AUTORESUME=1 fz-fuzz -q -s "$1" -E 20000 -i "$seeds" -o cache --artifact-prefix arts/ -- ./demo @@; }
mkdir arts
run 1 >r1.log 2>&1
rc=$?
[ $rc = 3 ] || { cat r1.log; fail "first cached run exited $rc, want 3"; }
grep -q '^    signal 11 (Segmentation fault)' r1.log || { cat r1.log; fail "no report line for the crash"; }
grep -q 'called from .* (demo+0x' r1.log || { cat r1.log; fail "the report names no frame of the program"; }
n=$(ls arts | grep -c '^crash-[0-9a-f]\{40\}$')
[ "$n" = "$(ls cache/default/crashes | grep -c '^id:')" ] || fail "--artifact-prefix: $n crash-<sha1> files for $(ls cache/default/crashes | grep -c '^id:') crashes"
for f in arts/*; do
    [ "$f" = "arts/crash-$(sha1sum <"$f" | cut -c1-40)" ] || fail "$f is not named by its SHA-1"
done
ls arts | grep -q '[:,]' && fail "an artifact name holds ':' or ','"
run 2 >r2.log 2>&1
rc=$?
[ $rc = 3 ] || { cat r2.log; fail "the resumed cache with a still-crashing input exited $rc, want 3"; }
grep -q 'saved by the earlier run still crash' r2.log || { cat r2.log; fail "no word on the old crashes"; }
ok "cache: exit 3 twice (the second for the saved crash), $n artifact(s), report lines"

# --- --replay: the report's first lines for each crash.
fz-fuzz --replay cache/default/crashes -- ./demo @@ >rep.log 2>&1
[ $? = 3 ] || fail "--replay of the crashes did not exit 3"
[ "$(grep -c '^crash: ' rep.log)" = "$(grep -c '^    signal 11' rep.log)" ] || { cat rep.log; fail "a crash without its report line"; }

# --- A sanitizer's report: its ERROR line and the first frames.
if fzcc -g -O1 -fsanitize=address "$FZ_ROOT/testcases/sanitizer_target.c" -o asan 2>/dev/null; then
    mkdir asan-crashes && printf 'ASxx' >asan-crashes/c
    fz-fuzz --replay asan-crashes -- ./asan >asan.log 2>&1
    [ $? = 3 ] || { cat asan.log; fail "--replay of the ASan crash did not exit 3"; }
    grep -q '^    .*ERROR: AddressSanitizer: heap-buffer-overflow' asan.log || { cat asan.log; fail "no ASan ERROR line"; }
    grep -q '^        #0 ' asan.log || { cat asan.log; fail "no stack frame of the ASan report"; }
    ok "--replay shows the ASan report's first lines"
else
    fz_skip_part "ASan not available with $FZ_TEST_CC"
fi
