#!/bin/bash
# runtime_sanitizers.sh - fz-fuzz finds bugs that only a sanitizer makes
# crash (testcases/sanitizer_target.c): an ASan heap-buffer-overflow in an
# -fsanitize=address build and a signed overflow in an -fsanitize=undefined
# build.  Each is saved in crashes/ as a SIGABRT (the ASAN_OPTIONS /
# UBSAN_OPTIONS fz-fuzz sets, docs/sanitizers.md), and the saved file, run
# by hand with the sanitizer's own defaults, prints the sanitizer's report.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-fuzz" ] && [ -e "$FZ_ROOT/lib/fz/fz-rt.o" ] || fail "build fz first (make)"
cd "$T" || exit 1
unset ASAN_OPTIONS UBSAN_OPTIONS # fz-fuzz's defaults are under test

fzcc -g -O1 -fsanitize=address "$FZ_ROOT/testcases/sanitizer_target.c" -o asan ||
    fail "fz-cc cannot build sanitizer_target.c with ASan"
fzcc -g -O1 -fsanitize=undefined "$FZ_ROOT/testcases/sanitizer_target.c" -o ubsan ||
    fail "fz-cc cannot build sanitizer_target.c with UBSan"
mkdir seeds && printf 'hi there' >seeds/a
# Without a sanitizer's help the planted inputs do not crash: the check
# below is about the sanitizers, not about a plain fault.
printf 'ASxx' | ./ubsan >/dev/null 2>&1 || fail "ubsan build crashes on the ASan input"

# hunt NAME PREFIX REPORT: fuzz ./NAME to a crash starting with PREFIX whose
# replay prints REPORT.
hunt() {
    local name=$1 prefix=$2 report=$3 rc=0 crash
    "$FZ_BIN/fz-fuzz" -q -i seeds -o "o-$name" -s 1 -E 8000 -- "./$name" >"$name.log" 2>&1 || rc=$?
    [ $rc = 3 ] || { tail -n 5 "$name.log"; fail "$name: fz-fuzz exit $rc, expected 3 (crash found)"; }
    crash=$(ls "o-$name"/default/crashes/id:* 2>/dev/null | head -n 1)
    [ -n "$crash" ] || fail "$name: exit 3 but nothing in crashes/"
    case $(basename "$crash") in *,sig:06,*) ;; *) fail "$name: $crash is not a SIGABRT" ;; esac
    [ "$(head -c 2 "$crash")" = "$prefix" ] || fail "$name: crash starts with '$(head -c 2 "$crash")', not '$prefix'"
    "./$name" <"$crash" >/dev/null 2>"$name.report" || true
    grep -q "$report" "$name.report" || { cat "$name.report"; fail "$name: replay does not print '$report'"; }
    ok "$name: found and saved $(basename "$crash"); replay prints '$report'"
}
hunt asan AS "ERROR: AddressSanitizer: heap-buffer-overflow"
hunt ubsan UB "runtime error: signed integer overflow"
