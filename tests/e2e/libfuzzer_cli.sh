#!/bin/bash
# libfuzzer_cli.sh - a harness built with `fz-cc -fsanitize=fuzzer` and run
# the libFuzzer way: `./h corpus/` fuzzes with fz's engine to the planted
# bug and writes crash-<sha1> (exit 77, libFuzzer's for a deadly signal),
# new inputs land in the corpus under their SHA-1; -runs=N ends with "Done N
# runs"; -merge=1 adds only inputs with new coverage; -minimize_crash=1;
# bad flags and corpus directories; two harnesses sharing one corpus; @@
# with a harness under fz-fuzz and --replay.  Bounded by -runs and -seed.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -e "$FZ_ROOT/lib/fz/fz-libfuzzer.o" ] && [ -x "$FZ_BIN/fz-fuzz" ] || fail "build fz first (make)"
cd "$T" || exit 1
fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/libfuzzer_harness.c" -o h || fail "cannot build the harness"
fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/lf_ladder.c" -o lad || fail "cannot build lf_ladder"
unset FZ_FUZZ # the driver finds bin/fz-fuzz by itself (built-in path, then PATH)

# --- The planted bug, found by ./h corpus/ (bounded by -runs; -max_total_time too).
# The corpus starts two bytes from the bug ("LF" of "LF!"): the test is
# about the driver (artifacts, corpus, output, exit codes), not the engine's
# search, which tests/e2e/runtime_libfuzzer.sh covers.
mkdir corpus && printf 'LFx' >corpus/a
./h -max_total_time=20 -runs=300000 -seed=1 corpus/ >h.out 2>h.err
rc=$?
[ $rc = 77 ] || { cat h.err; fail "./h corpus/ exited $rc, want 77 (libFuzzer's deadly-signal code)"; }
art=$(ls crash-* 2>/dev/null | head -n 1)
[ -n "$art" ] || { cat h.err; fail "no crash-<sha1> artifact in the working directory"; }
[ "$art" = "crash-$(sha1sum <"$art" | cut -c1-40)" ] || fail "$art is not named by its SHA-1"
[ "$(head -c 3 "$art")" = "LF!" ] || fail "$art does not hold the planted bug"
grep -q "Test unit written to ./$art" h.err || { cat h.err; fail "no 'Test unit written to' line"; }
grep -q "deadly signal" h.err || fail "the crash's report was not shown"
grep -qP '^#\d+\tINITED cov: ' h.err || { cat h.err; fail "no libFuzzer-style INITED line"; }
for f in corpus/*; do
    [ "$f" = corpus/a ] && continue
    [ "${f#corpus/}" = "$(sha1sum <"$f" | cut -c1-40)" ] || fail "corpus file $f not named by its SHA-1"
done
[ "$(ls corpus | wc -l)" -gt 1 ] || fail "no new input was written to the corpus"
ok "./h corpus/: $art (exit 77), $(($(ls corpus | wc -l) - 1)) new corpus files"

# -artifact_prefix / -exact_artifact_path.
mkdir arts
./h -runs=300000 -seed=1 -artifact_prefix=arts/ corpus/ >/dev/null 2>&1
[ -e "arts/$art" ] || fail "-artifact_prefix=arts/ wrote no arts/$art"
./h -runs=300000 -seed=1 -exact_artifact_path=the-crash corpus/ >/dev/null 2>&1
[ "$(head -c 3 the-crash 2>/dev/null)" = "LF!" ] || fail "-exact_artifact_path wrote no the-crash"
ok "-artifact_prefix and -exact_artifact_path"

# --- -runs=N: fuzzes N runs and ends as libFuzzer does.
mkdir c2 && printf 'x' >c2/x
./lad -runs=20000 -seed=1 -print_final_stats=1 c2/ >/dev/null 2>lad.err
rc=$?
[ $rc = 0 ] || { cat lad.err; fail "./lad -runs=20000 exited $rc"; }
grep -qE '^Done [0-9]+ runs in [0-9]+ second' lad.err || { cat lad.err; fail "no 'Done N runs' line"; }
n=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' lad.err)
[ "$n" -ge 20000 ] && [ "$n" -lt 21000 ] || fail "-runs=20000 did $n runs"
grep -q '^stat::number_of_executed_units: ' lad.err || fail "-print_final_stats=1 printed no stat:: lines"
grep -qP '^#\d+\tNEW ' lad.err || fail "no NEW lines"
[ "$(ls c2 | wc -l)" -gt 3 ] || fail "lf_ladder's corpus did not grow"
ok "-runs=20000: Done $n runs, $(ls c2 | wc -l) corpus files"

# -max_len=N: no new input is longer (fz-fuzz -l), longer corpus files are cut.
mkdir c3 && printf 'a-long-seed-of-20-by' >c3/long
./lad -max_len=4 -runs=5000 -seed=1 c3/ >/dev/null 2>ml.err || { cat ml.err; fail "-max_len=4 failed"; }
for f in c3/*; do
    [ "$f" = c3/long ] || [ "$(stat -c %s "$f")" -le 4 ] || fail "-max_len=4 wrote $f of $(stat -c %s "$f") bytes"
done
ok "-max_len=4: $(($(ls c3 | wc -l) - 1)) new files, none over 4 bytes"

# -jobs=2: two fz instances (fz-fuzz -j 2); the corpus gets both's finds.
mkdir cj && printf 'x' >cj/x
FZ_NO_AFFINITY=1 ./lad -jobs=2 -runs=20000 -seed=1 cj/ >/dev/null 2>jobs.err ||
    { cat jobs.err; fail "-jobs=2 failed"; }
grep -qE '^Done [0-9]+ runs' jobs.err || fail "-jobs=2: no Done line"
[ "$(ls cj | wc -l)" -gt 3 ] || fail "-jobs=2: the corpus did not grow"
ok "-jobs=2: $(ls cj | wc -l) corpus files"

# -timeout=S: the first input that runs longer ends the run as libFuzzer's does.
cat >hang.c <<'EOS'
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n >= 2 && d[0] == 'H' && d[1] == '!')
        for (;;)
            pause();
    return 0;
}
EOS
fzcc -O1 -fsanitize=fuzzer hang.c -o hangh || fail "cannot build hang.c"
mkdir ch && printf 'H' >ch/a
./hangh -timeout=1 -runs=50000 -seed=1 ch/ >/dev/null 2>hang.err
rc=$?
[ $rc = 70 ] || { cat hang.err; fail "-timeout=1 on a hanging input exited $rc, want 70"; }
grep -q 'ERROR: libFuzzer: timeout after 1 seconds' hang.err || fail "no timeout report line"
ls timeout-* >/dev/null 2>&1 || fail "no timeout-<sha1> artifact"
ok "-timeout=1: timeout-<sha1>, exit 70"

# Files only: reproduce mode, -runs=N runs each N times, fuzzing flags named.
printf 'abc' >one
[ "$(./h -runs=3 -max_total_time=5 one 2>rep.err | grep -c 'input of 3 bytes')" = 3 ] || fail "-runs=3 FILE did not run it 3 times"
grep -q 'do not apply' rep.err || fail "-max_total_time with files only was dropped silently"
[ "$(grep -c '^Running: one$' rep.err)" = 1 ] || { cat rep.err; fail "-runs=3 FILE: want one 'Running: one' line"; }
ok "reproduce mode: -runs=3 FILE ran it 3 times"

# --- -merge=1: only inputs that add coverage move into the first directory.
mkdir mA mB && printf 'a' >mA/a && printf 'a' >mB/a2 && printf 'b' >mB/b1 && printf 'c' >mB/c && printf 'b' >mB/b2
./lad -merge=1 mA mB >/dev/null 2>merge.err || { cat merge.err; fail "-merge=1 failed"; }
[ "$(ls mA | wc -l)" = 3 ] || { ls mA; cat merge.err; fail "-merge=1 left $(ls mA | wc -l) files in mA, want 3 (a, b, c)"; }
grep -q 'MERGE-OUTER: 2 new files' merge.err || { cat merge.err; fail "no MERGE-OUTER summary"; }
ok "-merge=1: 2 new files of 4"

# --- -minimize_crash=1.
printf 'LF!padding-padding' >big-crash
./h -minimize_crash=1 -runs=2000 -exact_artifact_path=min big-crash >/dev/null 2>min.err ||
    { cat min.err; fail "-minimize_crash=1 failed"; }
[ "$(cat min)" = "LF!" ] || fail "-minimize_crash=1 gave '$(cat min)', want 'LF!'"
ok "-minimize_crash=1: 18 bytes -> 3"

# --- Bad input.
./lad -runs=abc c2/ >/dev/null 2>bad.err && fail "-runs=abc accepted"
grep -q -- "-runs expects a whole number" bad.err || fail "-runs=abc: no message"
./lad -runs c2/ >/dev/null 2>bad.err && fail "-runs without a value accepted"
./lad -runs=100 -no_such_flag=1 -only_ascii=1 c2/ >/dev/null 2>bad.err || fail "an unknown flag stopped the run"
grep -q "unrecognized flag '-no_such_flag=1'" bad.err || fail "the unknown flag was not named"
grep -q "ignores '-only_ascii=1'" bad.err || fail "-only_ascii (not honoured) was not named"
./lad -runs=100 missing/ >/dev/null 2>bad.err && fail "a missing corpus directory was accepted"
grep -q 'directory "missing/" does not exist' bad.err || { cat bad.err; fail "missing dir: no message"; }
if [ "$(id -u)" != 0 ]; then
    mkdir ro && chmod 555 ro
    ./lad -runs=100 ro/ >/dev/null 2>bad.err && fail "a read-only corpus directory was accepted"
    grep -q "not writable" bad.err || fail "read-only dir: no message"
fi
FZ_FUZZ=/nonexistent/fz-fuzz ./lad -runs=100 c2/ >/dev/null 2>bad.err && fail "ran without fz-fuzz"
grep -q "cannot find it" bad.err || fail "no message when fz-fuzz is missing"
ok "bad flags, missing directory, missing fz-fuzz"

# --- Two harness processes sharing one corpus directory.
mkdir shared && printf 'x' >shared/x
./lad -runs=8000 -seed=1 shared/ >/dev/null 2>s1.err &
p1=$!
./lad -runs=8000 -seed=2 shared/ >/dev/null 2>s2.err
r2=$?
wait $p1
r1=$?
[ $r1 = 0 ] && [ $r2 = 0 ] || fail "two harnesses on one corpus exited $r1 and $r2"
ls -a shared | grep -q 'fz-tmp' && fail "a temporary file was left in the shared corpus"
for f in shared/*; do
    [ "$f" = shared/x ] || [ "${f#shared/}" = "$(sha1sum <"$f" | cut -c1-40)" ] || fail "$f is not whole"
done
ok "two harnesses shared one corpus: $(ls shared | wc -l) files, all whole"

# --- @@ with a harness under fz-fuzz: the driver reads the input it is given.
mkdir rc && printf 'LF!' >rc/crash && printf 'abc' >rc/fine
fz-fuzz --replay rc -- ./h @@ >replay.log 2>&1
rc=$?
[ $rc = 3 ] || { cat replay.log; fail "--replay of a crashing file with @@ exited $rc, want 3"; }
grep -q '^crash: rc/crash' replay.log || fail "--replay did not name the crash"
grep -qE '^    (signal 6|==[0-9]+== ERROR: libFuzzer: deadly signal)' replay.log || { cat replay.log; fail "--replay printed no report line"; }
fz-fuzz -q -s 1 -E 100000 --until-crash -i corpus -o out -- ./h @@ >fz.log 2>&1
[ $? = 3 ] || { tail fz.log; fail "fz-fuzz -- ./h @@ found no crash"; }
grep -q 'exit()' fz.log && fail "fz-fuzz warned about exit() with @@"
ok "@@ with a harness: replay exit 3, fuzzing finds the crash"
