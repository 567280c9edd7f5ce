#!/bin/bash
# libfuzzer_stack.sh - a crash in a harness built with fz's driver and no
# sanitizer prints a stack a crash-state tool can use, as libFuzzer's does:
# with llvm-symbolizer on PATH (or $LLVM_SYMBOLIZER_PATH) each frame is
# "#N 0xPC in FUNCTION FILE:LINE:COL" for the harness's code and
# "in fuzzer::fz::NAME() (MODULE+0xOFF)" for the driver's, so the first
# frames that are neither the driver's, libc's nor the signal's are the
# harness's functions, crashing one first (ClusterFuzz's crash state);
# without a symbolizer every frame still names its module by absolute
# path and offset, which such tools symbolize afterwards.  abort() shows
# the handler's frames too (as libFuzzer's stack does); a SIGSEGV starts at
# the faulting function (as the sanitizers' does).  Exit -error_exitcode,
# "deadly signal" lines.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -e "$FZ_ROOT/lib/fz/fz-libfuzzer.o" ] || fail "build fz first (make)"
sym=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || command -v llvm-symbolizer-15) ||
    fz_skip "no llvm-symbolizer (apt-get install llvm)"
cd "$T" || exit 1
fzcc -g -O1 -fsanitize=fuzzer "$FZ_ROOT/testcases/lf_stack.c" -o h || fail "cannot build lf_stack.c"
unset ASAN_OPTIONS UBSAN_OPTIONS
printf 'ABRTxxxx' >abrt
printf 'SEGVxxxx' >segv

# The harness's frames of a stack in file $1: the functions of "in F" frames
# that are not the driver's (fuzzer::), libc's or the start-up's, in order.
harness_frames() {
    sed -n 's/^    #[0-9]* 0x[0-9a-f]* in \([^ ]*\).*/\1/p' "$1" |
        grep -vE '^(fuzzer::|__pthread_kill|pthread_kill|raise|gsignal|abort|__libc_start|_start|main$)'
}

for k in abrt segv; do
    LLVM_SYMBOLIZER_PATH=$sym ./h -runs=3 $k >out 2>err
    rc=$?
    [ $rc = 77 ] || { cat err; fail "$k: exit $rc, want 77 (-error_exitcode)"; }
    grep -q '^==[0-9]*== ERROR: libFuzzer: deadly signal$' err || fail "$k: no 'deadly signal' line"
    grep -q '^SUMMARY: libFuzzer: deadly signal$' err || fail "$k: no SUMMARY line"
    got=$(harness_frames err | head -n 3 | tr '\n' ' ')
    [ "$got" = "lf_stack_parse_header lf_stack_process_input LLVMFuzzerTestOneInput " ] ||
        { cat err; fail "$k: the harness's frames are '$got'"; }
    grep -qE "^    #[0-9]+ 0x[0-9a-f]+ in lf_stack_parse_header .*lf_stack\.c:[0-9]+:[0-9]+$" err ||
        { cat err; fail "$k: the crashing frame has no file:line"; }
    grep -qE "^    #[0-9]+ 0x[0-9a-f]+ in fuzzer::fz::ExecuteCallback\(\) \($T/h\+0x[0-9a-f]+\)$" err ||
        { cat err; fail "$k: no driver frame 'in fuzzer::fz::ExecuteCallback() ($T/h+0x...)'"; }
done
grep -qE '^    #0 0x[0-9a-f]+ in lf_stack_parse_header ' err || { cat err; fail "segv: #0 is not the faulting function"; }
ok "abort and SIGSEGV: symbolized frames, harness functions first, driver frames fuzzer::fz::"

# Found on PATH as the sanitizers find it.
mkdir -p bin && ln -s "$sym" bin/llvm-symbolizer
env -u LLVM_SYMBOLIZER_PATH PATH="$T/bin:/usr/bin:/bin" ./h abrt >out 2>err
[ "$(harness_frames err | head -n 1)" = lf_stack_parse_header ] || { cat err; fail "llvm-symbolizer on PATH not used"; }
ok "llvm-symbolizer found on PATH"

# No symbolizer: module and offset for every frame of the program, the
# module by its absolute path (the harness was started as ./h).
env -u LLVM_SYMBOLIZER_PATH PATH=/nonexistent ./h abrt >out 2>err
[ $? = 77 ] || fail "without a symbolizer: exit is not 77"
n=$(grep -cE "^    #[0-9]+ 0x[0-9a-f]+ .*\($T/h\+0x[0-9a-f]+\)$" err)
[ "$n" -ge 5 ] || { cat err; fail "without a symbolizer: $n frames name $T/h+0x..., want at least 5"; }
grep -q '(\./h+' err && fail "a frame names the program as ./h"
ok "without a symbolizer: module+offset frames with the program's absolute path"
