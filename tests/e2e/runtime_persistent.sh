#!/bin/bash
# runtime_persistent.sh - fz-fuzz fuzzes testcases/persistent.c (AFL++'s
# persistent_demo shape: __AFL_INIT, __AFL_FUZZ_TESTCASE_*, __AFL_LOOP) to
# its planted crash, and each child runs many inputs: the harness logs one
# line per process (RT_FORK_LOG), compared with execs_done; fuzzer_stats
# says direct mode, version-1 handshake and shared-memory input were used.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-cc" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"
[ -x "$FZ_BIN/fz-fuzz" ] || fz_skip "bin/fz-fuzz is not built yet"
cd "$T" || exit 1

fzcc -O1 "$FZ_ROOT/testcases/persistent.c" -o harness || fail "fz-cc cannot build persistent.c"
mkdir seeds && printf 'hello' >seeds/a
rc=0
RT_FORK_LOG=$T/forks "$FZ_BIN/fz-fuzz" -q -i seeds -o out -s 1 -E 300000 -- ./harness >fz.log 2>&1 || rc=$?
[ $rc = 3 ] || { tail -n 20 fz.log; fail "fz-fuzz exit $rc, expected 3 (crash found)"; }
crash=$(ls out/default/crashes/id:* 2>/dev/null | head -n 1)
[ -n "$crash" ] || fail "exit 3 but nothing in out/default/crashes/"
[ "$(head -c 3 "$crash")" = "FZ!" ] || fail "crash file does not start with FZ!: $(head -c 16 "$crash" | od -c | head -n 2)"
./harness <"$crash" >/dev/null 2>&1
[ $? = 134 ] || fail "the saved crash does not reproduce (SIGABRT) outside the fuzzer"

execs=$(awk -F' *: *' '$1=="execs_done"{print $2}' out/default/fuzzer_stats)
forks=$(wc -l <forks)
[ "${execs:-0}" -gt 0 ] && [ "$forks" -gt 0 ] || fail "execs_done=$execs, processes=$forks"
per=$((execs / forks))
[ $per -ge 10 ] || fail "only $per executions per child ($execs execs, $forks children): persistent mode not used"
# fz-fuzz's own count (execs_per_fork in fuzzer_stats) must agree.
epf=$(awk -F' *: *' '$1=="execs_per_fork"{print int($2)}' out/default/fuzzer_stats)
[ -z "$epf" ] || [ "$epf" -ge 10 ] || fail "fuzzer_stats says execs_per_fork=$epf"
# ...and the fast path was really taken, not a fallback to the legacy
# handshake, stdin or the SIGSTOP protocol that would also find the crash.
proto=$(awk -F' *: *' '$1=="fsrv_protocol"{print $2}' out/default/fuzzer_stats)
mode=$(awk -F' *: *' '$1=="target_mode"{print $2}' out/default/fuzzer_stats)
[ "$proto" = "v1 direct" ] || fail "fsrv_protocol is '$proto', expected 'v1 direct'"
[ "$mode" = "shmem_testcase persistent" ] || fail "target_mode is '$mode', expected 'shmem_testcase persistent'"
ok "crash found; $execs execs in $forks children ($per per child; fuzzer_stats: ${epf:-n/a})"
