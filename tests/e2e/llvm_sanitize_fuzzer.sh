#!/bin/bash
# llvm_sanitize_fuzzer.sh - a libFuzzer harness built with
# `fz-clang -fsanitize=fuzzer` gets fz's driver and fz's edge counters, never
# clang's own libFuzzer or SanitizerCoverage (clang, unlike gcc, would
# happily supply both); with ASan too, and with the fuzzer-no-link compile /
# fuzzer link split that build systems use.
# Clang only (gcc has no libFuzzer to avoid): lib.sh picks fz-clang.
FZ_TEST_CC=clang
. "$(dirname "$0")/../lib.sh"

command -v clang >/dev/null || fz_skip "clang is not installed (apt-get install clang llvm-dev)"
[ -e "$FZ_ROOT/lib/fz/fz-llvm-pass.so" ] || fz_skip "lib/fz/fz-llvm-pass.so is not built (needs llvm-dev)"
[ -e "$FZ_ROOT/lib/fz/fz-libfuzzer.o" ] || fz_skip "lib/fz/fz-libfuzzer.o (runtime) is not built"
[ -x "$FZ_BIN/fz-showmap" ] || fz_skip "bin/fz-showmap is not built"

cat >"$T/h.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n >= 3 && d[0] == 'b' && d[1] == 'u' && d[2] == 'g')
        abort();
    if (n >= 2 && d[0] == 'o' && d[1] == 'v')
        return d[n]; /* one byte past the end: only ASan sees it */
    return 0;
}
EOF
printf 'hello' >"$T/ok"
printf 'bug' >"$T/bug"
printf 'ov' >"$T/ov"

# no_libfuzzer BIN: clang's libFuzzer (namespace fuzzer::) is not linked in.
no_libfuzzer() {
    nm "$1" | grep -v '_ZN6fuzzer2fz' | grep -q '_ZN6fuzzer' && fail "$1 contains clang's libFuzzer" # fuzzer::fz:: is fz's driver (LF_FRAME)
    return 0
}

# no_sancov OBJ: the object has no SanitizerCoverage instrumentation (the
# ASan runtime defines __sancov symbols of its own, so look at objects).
no_sancov() {
    nm "$1" | grep -Eq '__sanitizer_cov_|__sancov_gen_' &&
        fail "$1 has SanitizerCoverage instrumentation: $(nm "$1" | grep -Em3 'sanitizer_cov|sancov')"
    return 0
}

fzcc -O1 -g -fsanitize=fuzzer "$T/h.c" -o "$T/h" || fail "fz-clang -fsanitize=fuzzer failed"
no_libfuzzer "$T/h"
nm "$T/h" | grep -q __fz_register || fail "the harness has no fz runtime"
"$T/h" "$T/ok" 2>/dev/null || fail "harness failed on a good input"
{ "$T/h" "$T/bug"; } 2>/dev/null && fail "harness did not crash on 'bug'"
"$FZ_BIN/fz-showmap" -q -o "$T/m_ok" -- "$T/h" <"$T/ok"
"$FZ_BIN/fz-showmap" -q -o "$T/m_bug" -- "$T/h" <"$T/bug"
[ -s "$T/m_ok" ] || fail "empty coverage map for the harness"
cmp -s "$T/m_ok" "$T/m_bug" && fail "two inputs gave the same map"
ok "-fsanitize=fuzzer: fz driver, $(wc -l <"$T/m_ok") edges on 'hello'"

fzcc -O1 -g -fsanitize=fuzzer,address -c "$T/h.c" -o "$T/ha.o" || fail "-fsanitize=fuzzer,address -c failed"
no_sancov "$T/ha.o"
fzcc -O1 -g -fsanitize=fuzzer,address "$T/h.c" -o "$T/ha" || fail "-fsanitize=fuzzer,address failed"
no_libfuzzer "$T/ha"
"$T/ha" "$T/ok" 2>/dev/null || fail "ASan harness failed on a good input"
"$T/ha" "$T/ov" 2>"$T/asan.log" && fail "ASan harness did not stop on the overflow"
grep -q 'heap-buffer-overflow' "$T/asan.log" || fail "no ASan report: $(tail -n 5 "$T/asan.log")"
ok "-fsanitize=fuzzer,address: ASan catches the overflow"

fzcc -O2 -fsanitize=fuzzer-no-link -c "$T/h.c" -o "$T/h.o" || fail "-fsanitize=fuzzer-no-link compile failed"
nm "$T/h.o" | grep -q __fz_register || fail "fuzzer-no-link object is not instrumented"
no_sancov "$T/h.o"
fzcc -fsanitize=fuzzer "$T/h.o" -o "$T/h2" || fail "-fsanitize=fuzzer link failed"
no_libfuzzer "$T/h2"
"$T/h2" <"$T/ok" 2>/dev/null || fail "split-built harness failed on stdin"
ok "fuzzer-no-link compile + fuzzer link"
