#!/bin/bash
# runtime_libfuzzer.sh - fz-fuzz fuzzes a libFuzzer-style harness built with
# `fz-cc -fsanitize=fuzzer` (fz's driver, persistent + shared memory) to its
# planted crash; LLVMFuzzerInitialize runs before the fork point, so far
# fewer times than there are executions; fz-fuzz negotiated direct
# persistent mode with shared-memory input (fuzzer_stats), and each child
# ran many inputs (the harness logs one line per process).
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-libfuzzer.o" ] || fail "build fz first (make)"
[ -x "$FZ_BIN/fz-fuzz" ] || fz_skip "bin/fz-fuzz is not built yet"
cd "$T" || exit 1

fzcc -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/libfuzzer_harness.c" -o harness ||
    fail "fz-cc -fsanitize=fuzzer cannot build libfuzzer_harness.c"
mkdir seeds && printf 'hello' >seeds/a
rc=0
RT_INIT_LOG=$T/inits RT_FORK_LOG=$T/forks "$FZ_BIN/fz-fuzz" -q -i seeds -o out -s 1 -E 300000 -- ./harness >fz.log 2>&1 || rc=$?
[ $rc = 3 ] || { tail -n 20 fz.log; fail "fz-fuzz exit $rc, expected 3 (crash found)"; }
crash=$(ls out/default/crashes/id:* 2>/dev/null | head -n 1)
[ -n "$crash" ] || fail "exit 3 but nothing in out/default/crashes/"
[ "$(head -c 3 "$crash")" = "LF!" ] || fail "crash file does not start with LF!"
./harness "$crash" >/dev/null 2>rep.err
[ $? = 77 ] || fail "the saved crash does not reproduce with ./harness FILE (want libFuzzer's exit 77)"
grep -q '^SUMMARY: libFuzzer: deadly signal' rep.err || fail "reproducing the crash printed no SUMMARY line"

execs=$(awk -F' *: *' '$1=="execs_done"{print $2}' out/default/fuzzer_stats)
inits=$(wc -l <inits)
[ "$inits" -ge 1 ] || fail "LLVMFuzzerInitialize never ran"
[ "$inits" -lt 10 ] || fail "LLVMFuzzerInitialize ran $inits times: deferred init not used"
stat() { awk -F' *: *' -v k="$1" '$1==k{print $2}' out/default/fuzzer_stats; }
[ "$(stat fsrv_protocol)" = "v1 direct" ] || fail "fsrv_protocol is '$(stat fsrv_protocol)', expected 'v1 direct'"
[ "$(stat target_mode)" = "shmem_testcase persistent" ] ||
    fail "target_mode is '$(stat target_mode)', expected 'shmem_testcase persistent'"
forks=$(wc -l <forks)
per=$((execs / forks))
[ $per -ge 100 ] || fail "only $per executions per child ($execs execs, $forks children)"
epf=$(stat execs_per_fork)
[ "${epf%.*}" -ge 100 ] || fail "fuzzer_stats says execs_per_fork=$epf"
ok "crash found in $execs execs; LLVMFuzzerInitialize ran $inits time(s); $per execs per child (fuzzer_stats: $epf); v1 direct, shmem_testcase persistent"
