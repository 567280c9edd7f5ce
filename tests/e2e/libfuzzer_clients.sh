#!/bin/bash
# libfuzzer_clients.sh - what ClusterFuzz and OSS-Fuzz read from a libFuzzer
# target, from a harness built with fz's driver: the lines and exit codes
# of reproduction (deadly signal, -timeout, -rss_limit_mb, -malloc_limit_mb,
# leaks, a target that writes its input), a crashing corpus file under
# -runs=0, sanitizer reports seen as crashes with OSS-Fuzz's ASAN_OPTIONS
# (no abort_on_error) while fuzzing, -merge=1 with -merge_control_file and
# its summary line, -cleanse_crash=1, -minimize_crash=1, the INFO lines,
# cov:/ft:, stat:: after a crash, dictionaries, the multistep-merge marker,
# driver frames named fuzzer::fz::, bad command lines, and a driver killed
# with kill -9 or SIGHUP (no orphaned fz-fuzz, no work directory left).
# Fuzzing is bounded by -runs and -seed.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -e "$FZ_ROOT/lib/fz/fz-libfuzzer.o" ] && [ -x "$FZ_BIN/fz-fuzz" ] || fail "build fz first (make)"
cd "$T" || exit 1
fzcc -g -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/lf_clients.c" -o h || fail "cannot build lf_clients.c"
fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/lf_ladder.c" -o lad || fail "cannot build lf_ladder.c"
fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/libfuzzer_harness.c" -o lfh || fail "cannot build libfuzzer_harness.c"
unset ASAN_OPTIONS UBSAN_OPTIONS
for k in CRSH HANG RSSM BIGM LEAK OVER WRIT; do printf '%s....' $k >$k; done
printf 'fine' >fine

# --- Reproduction: libFuzzer's lines and exit codes.
./h -runs=5 CRSH >out 2>err
rc=$?
[ $rc = 77 ] || { cat err; fail "reproducing CRSH exited $rc, want 77 (-error_exitcode)"; }
grep -q '^==[0-9]*== ERROR: libFuzzer: deadly signal$' err || fail "no 'deadly signal' line"
grep -q '^SUMMARY: libFuzzer: deadly signal$' err || fail "no 'SUMMARY: libFuzzer: deadly signal'"
grep -q '^    #[0-9]* 0x' err || fail "no stack"
[ "$(grep -c '^Running: CRSH$' err)" = 1 ] || fail "want one 'Running: CRSH' line"
grep -qE '^INFO: Loaded [0-9]+ modules +\([0-9]+ inline 8-bit counters\)' err || fail "no 'INFO: Loaded N modules' line"
ls crash-* >/dev/null 2>&1 && fail "reproduction wrote an artifact (libFuzzer does not)"
./h -error_exitcode=9 CRSH >/dev/null 2>&1
[ $? = 9 ] || fail "-error_exitcode=9 not honoured"
./h -timeout=1 HANG >/dev/null 2>err
rc=$?
[ $rc = 70 ] || fail "reproducing HANG with -timeout=1 exited $rc, want 70"
grep -q '^==[0-9]*== ERROR: libFuzzer: timeout after [0-9]* seconds$' err || fail "no 'timeout after N seconds' line"
grep -q '^SUMMARY: libFuzzer: timeout$' err || fail "no 'SUMMARY: libFuzzer: timeout'"
./h -rss_limit_mb=100 RSSM >/dev/null 2>err
rc=$?
[ $rc = 71 ] || { cat err; fail "300 MB under -rss_limit_mb=100 exited $rc, want 71"; }
grep -q 'ERROR: libFuzzer: out-of-memory (used: [0-9]*Mb; limit: 100Mb)' err || fail "no out-of-memory line"
./h -rss_limit_mb=1000 RSSM fine >/dev/null 2>&1 || fail "300 MB under -rss_limit_mb=1000 failed"
./h WRIT >/dev/null 2>err
[ $? = 77 ] && grep -q 'ERROR: libFuzzer: fuzz target overwrites its const input' err ||
    fail "a harness writing its input was not reported"
./h fine >/dev/null 2>err || fail "./h fine failed"
grep -q '^Executed fine in [0-9]* ms$' err || fail "no 'Executed FILE in N ms' line"
ok "reproduction: deadly signal 77, timeout 70, out-of-memory 71, const input, lines"

# --- A crashing corpus file: -runs=0 ends with crash-<sha1>, as libFuzzer.
mkdir c0 && cp fine CRSH c0/
./h -runs=0 -print_final_stats=1 c0 >/dev/null 2>err
rc=$?
[ $rc = 77 ] || { cat err; fail "-runs=0 over a crashing corpus file exited $rc, want 77"; }
sum=$(sha1sum <CRSH | cut -c1-40)
[ -e "crash-$sum" ] || fail "no crash-$sum"
grep -q "Test unit written to ./crash-$sum" err || fail "no 'Test unit written to' line"
grep -q '^stat::number_of_executed_units: ' err || fail "no stat:: lines after a crash"
grep -q '^INFO: -max_len is not provided; libFuzzer will not generate inputs larger than 4096 bytes$' err ||
    fail "no '-max_len is not provided' line"
grep -qE '^INFO: seed corpus: files: 2 min: [0-9]+b max: [0-9]+b total: [0-9]+b rss: [0-9]+Mb$' err ||
    fail "no 'seed corpus' line"
rm -f crash-*
rm c0/CRSH
./h -runs=0 c0 >/dev/null 2>err || fail "-runs=0 over a fine corpus failed"
grep -qE '^#[0-9]+	INITED cov: [0-9]+ ft: [0-9]+ corp: 1/4b exec/s: [0-9]+ rss: [0-9]+Mb$' err || { cat err; fail "no INITED line"; }
grep -qE '^Done 2 runs in [0-9]+ second' err || fail "-runs=0 over one file: want 'Done 2 runs' (the empty input and the file)"
ok "crashing corpus file: crash-<sha1>, exit 77, stat:: lines; INITED and Done lines"

# --- cov: edges, ft: features (edge and hit-count bucket), growing while fuzzing.
mkdir lc && printf 'x' >lc/x
./lad -runs=30000 -seed=1 lc/ >/dev/null 2>lad.err || { cat lad.err; fail "./lad -runs=30000 failed"; }
python3 - lad.err <<'PY' || fail "cov:/ft: do not behave like libFuzzer's"
import re, sys
rows = [tuple(map(int, m.groups())) for m in
        re.finditer(r'^#\d+\t(?:INITED|NEW|pulse) +cov: (\d+) ft: (\d+)', open(sys.argv[1]).read(), re.M)]
assert len(rows) >= 3, rows
assert all(f >= c for c, f in rows), 'ft below cov'
assert any(f > c for c, f in rows), 'ft never above cov'
assert rows[-1][0] > rows[0][0] and rows[-1][1] > rows[0][1], 'cov/ft never grew'
assert all(b[0] >= a[0] and b[1] >= a[1] for a, b in zip(rows, rows[1:])), 'went backwards'
PY
ok "cov: and ft: differ and grow"

# --- -merge=1, single step and with -merge_control_file, crash-resistant.
mkdir mo mi && cp fine mi/ && printf 'xy' >mi/a && printf 'xy' >mi/dup && cp CRSH mi/
./h -merge=1 -merge_control_file=mcf mo mi >/dev/null 2>err || { cat err; fail "-merge=1 failed"; }
grep -qE '^MERGE-OUTER: [0-9]+ new files with [0-9]+ new features added; [0-9]+ new coverage edges$' err ||
    { cat err; fail "no MERGE-OUTER summary line with new coverage edges"; }
grep -q "MERGE-OUTER: 'mi/CRSH' ends the inner process; skipping it" err || fail "the crashing input was not skipped"
[ -s mcf ] || fail "-merge_control_file=mcf not written"
[ -e "mo/$(sha1sum <CRSH | cut -c1-40)" ] && fail "the crashing input was merged"
n=$(ls mo | wc -l)
[ "$n" -ge 1 ] && [ "$n" -le 2 ] || fail "-merge=1 kept $n files of 3 distinct non-crashing ones"
./h -merge=1 mo missing-dir >/dev/null 2>err && fail "-merge=1 from a missing directory succeeded"
grep -q '^No such file or directory: missing-dir; exiting' err || { cat err; fail "merge from a missing directory: unclear message"; }
ok "-merge=1: summary with edges, control file, crash skipped, missing directory named"

# --- -cleanse_crash=1 and -minimize_crash=1.
printf 'CRSHabcdefgh' >long
./h -cleanse_crash=1 -exact_artifact_path=cleansed long >/dev/null 2>err || { cat err; fail "-cleanse_crash=1 failed"; }
[ "$(head -c 4 cleansed)" = CRSH ] || fail "-cleanse_crash=1 broke the crash"
[ "$(tail -c 8 cleansed | tr -d ' \377')" = "" ] || fail "-cleanse_crash=1 left bytes that do not matter"
./h -minimize_crash=1 -runs=1000 -exact_artifact_path=min long >/dev/null 2>err || { cat err; fail "-minimize_crash=1 failed"; }
[ "$(cat min)" = CRSH ] || fail "-minimize_crash=1 gave '$(cat min)'"
ok "-cleanse_crash=1 and -minimize_crash=1"

# --- Dictionaries: libFuzzer's format and error line.
printf '# c\nkw="LF"\n"\\x41\\\\"\n\n' >good.dict
printf 'a="ok"\nnot a dict line\n' >bad.dict
./lad -runs=200 -seed=1 -dict=good.dict lc/ >/dev/null 2>err || { cat err; fail "a good dictionary failed"; }
grep -q '^Dictionary: 2 entries$' err || fail "no 'Dictionary: 2 entries' line"
./lad -runs=200 -dict=bad.dict lc/ >/dev/null 2>err && fail "a bad dictionary was accepted"
grep -q '^ParseDictionaryFile: error in line 2$' err || { cat err; fail "no 'ParseDictionaryFile: error in line 2'"; }
ok "dictionaries: entries counted, bad line named"

# --- What ClusterFuzz looks for in the binary and in stacks.
grep -q 'fuzz target overwrites its const input' h || fail "the multistep-merge marker string is not in the binary"
nm h | grep -q '_ZN6fuzzer2fz15ExecuteCallbackEv' || fail "the driver's frames are not named fuzzer::fz::"
nm h | grep -qE ' (run_one|run_file|run_path)$' && fail "driver frames with plain names remain"
ok "marker string; driver frames named fuzzer::fz::"

# --- Bad command lines.
./h -runs=1000 no-such-file >/dev/null 2>err && fail "a missing path succeeded"
[ "$(grep -c 'no-such-file' err)" = 1 ] || fail "a missing path's error repeated: $(grep -c no-such-file err) lines"
./h -max_len=-1 fine >/dev/null 2>err && fail "-max_len=-1 accepted"
grep -q -- '-max_len=-1: give a number of 0 or more' err || fail "-max_len=-1: no message"
./h -artifact_prefix=nodir/ fine >/dev/null 2>err && fail "a missing -artifact_prefix directory accepted"
grep -q 'The required directory "nodir/" does not exist' err || fail "-artifact_prefix: no message"
./h -- -runs=1 fine >/dev/null 2>err || fail "'--' stopped the run"
grep -q "INFO: libFuzzer ignores flags that start with '--'" err || fail "'--' not named as libFuzzer names it"
ok "bad command lines: one error, negatives refused, artifact directory checked, '--' ignored"

# --- The driver killed: fz-fuzz stops, the work directory goes.
mkdir tmp kc && printf 'x' >kc/x
# wait_for COND SECS: polls a shell condition (a bound, not a measurement).
wait_for() { for _ in $(seq $(($2 * 10))); do eval "$1" && return 0; sleep 0.1; done; return 1; }
for sig in KILL HUP; do
    TMPDIR=$T/tmp ./lad -runs=1000000000 -seed=1 kc/ >/dev/null 2>kill.err &
    d=$!
    wait_for '[ -n "$(pgrep -P $d -x fz-fuzz)" ]' 20 || fail "no fz-fuzz under the driver"
    f=$(pgrep -P $d -x fz-fuzz)
    kill -$sig $d
    wait $d
    rc=$?
    wait_for "! kill -0 $f 2>/dev/null" 20 || { kill -9 $f; fail "fz-fuzz ran on after the driver got SIG$sig"; }
    wait_for '[ -z "$(ls tmp)" ]' 20 || fail "the work directory was left after SIG$sig: $(ls tmp)"
    if [ $sig = HUP ]; then
        [ $rc = 72 ] || fail "SIGHUP: exit $rc, want 72 (libFuzzer's interrupted run)"
        grep -q 'libFuzzer: run interrupted; exiting' kill.err || fail "SIGHUP: no 'run interrupted' line"
    fi
done
ok "kill -9 and SIGHUP of the driver: no orphaned fz-fuzz, no work directory left"

# --- Sanitizer builds with OSS-Fuzz's options (no abort_on_error, detect_leaks=1).
if ! fzcc -g -O1 -fsanitize=fuzzer,address "$FZ_ROOT/testcases/lf_clients.c" -o ha 2>/dev/null ||
    ! fzcc -g -O1 -fsanitize=fuzzer,address "$FZ_ROOT/testcases/libfuzzer_harness.c" -o lfa 2>/dev/null; then
    fz_skip_part "no AddressSanitizer runtime for $FZ_TEST_CC: sanitizer part skipped"
    exit 0
fi
export ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=1:handle_abort=1:handle_segv=1:symbolize=1:dedup_token_length=3"
export UBSAN_OPTIONS="print_stacktrace=1:print_summary=1:symbolize=1"
./ha OVER >/dev/null 2>err
rc=$?
[ $rc = 1 ] && grep -q 'AddressSanitizer: heap-buffer-overflow' err || fail "OVER: exit $rc, no ASan report"
grep -q 'in fuzzer::fz::ExecuteCallback' err || fail "the driver's frame is not named fuzzer::fz:: in ASan's stack"
./ha LEAK >/dev/null 2>err
rc=$?
[ $rc != 0 ] && grep -q 'ERROR: LeakSanitizer: detected memory leaks' err || fail "LEAK: exit $rc, no leak report"
./ha -malloc_limit_mb=50 BIGM >/dev/null 2>err
rc=$?
[ $rc = 71 ] && grep -q 'ERROR: libFuzzer: out-of-memory (malloc(104857600))' err || { cat err; fail "BIGM: exit $rc, no malloc limit report"; }
mkdir lk && cp fine LEAK lk/
./ha -runs=0 lk >/dev/null 2>err
rc=$?
[ $rc = 77 ] && ls leak-* >/dev/null 2>&1 || { cat err; fail "a leaking corpus file: exit $rc, want 77 and leak-<sha1>"; }
grep -q 'INFO: a leak has been found in the initial corpus.' err || fail "no 'leak in the initial corpus' line"
mkdir ac && printf 'LFx' >ac/a
./lfa -runs=300000 -seed=1 ac/ >/dev/null 2>err
rc=$?
[ $rc = 1 ] || { tail -20 err; fail "fuzzing an ASan build with OSS-Fuzz's options exited $rc, want 1 (ASan's)"; }
art=$(sed -n 's/.*Test unit written to \.\/\(crash-[0-9a-f]*\)$/\1/p' err | head -n 1)
[ -n "$art" ] && [ "$(head -c 3 "$art")" = "LF!" ] || { tail -20 err; fail "no crash- artifact holding LF!"; }
# Found while fuzzing: the child aborts, the driver names it in process.
fzcc -g -O1 -fsanitize=fuzzer,address "$FZ_ROOT/testcases/lf_mem.c" -o hm || fail "cannot build lf_mem.c"
mkdir fo fl && printf 'BIGx' >fo/a && printf 'LEAx' >fl/a
rm -f oom-* leak-*
./hm -malloc_limit_mb=50 -runs=300000 -seed=1 fo/ >/dev/null 2>err
rc=$?
[ $rc = 71 ] && ls oom-* >/dev/null 2>&1 || { tail -20 err; fail "fuzzing to a 100 MB malloc under -malloc_limit_mb=50: exit $rc, want 71 and oom-<sha1>"; }
./hm -runs=300000 -seed=1 fl/ >/dev/null 2>err
rc=$?
[ $rc = 77 ] && ls leak-* >/dev/null 2>&1 || { tail -20 err; fail "fuzzing to a leak: exit $rc, want 77 and leak-<sha1>"; }
ok "ASan with OSS-Fuzz's options: reports are crashes (fuzzing and reproduction), leaks and malloc limit (reproduction and fuzzing)"
