#!/bin/bash
# instrument_sanitize_deny.sh - the instrumentation with sanitizers and with
# the deny-list.  -fsanitize=address,undefined builds of the test programs
# run like the plain sanitizer builds and still give coverage; FZ_DENYLIST
# removes a denied function's edges (also where it was inlined: GCC always,
# clang with -g), a denied
# source file gets no edges, and a bad deny-list file is a one-line error
# naming the file and line.  Runs once per back end.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

[ -x "$FZ_BIN/fz-showmap" ] || fz_skip "bin/fz-showmap is not built"
C=$FZ_ROOT/testcases/cov_c.c
CXX=$FZ_ROOT/testcases/cov_cxx.cc
printf 'FUZ!' >"$T/in1"
printf 'srs7x' >"$T/in2"

# edges FZ-COMPILER ARGS...: compiles to an object and prints the edge count
# from the report line
edges() {
    local out
    out=$(FZ_QUIET= "$@" -c -o "$T/edges.o" 2>&1) || fail "build failed: $* ($out)"
    echo "$out" | sed -n 's/^fz-cc: \([0-9][0-9]*\) edges instrumented in .*/\1/p' | head -n 1
}

# --- sanitizers: same behaviour as the plain sanitizer build, non-empty map
export ASAN_OPTIONS=detect_leaks=0
for lang in c cxx; do
    if [ $lang = c ]; then src=$C fz=fzcc plain=plaincc; else src=$CXX fz=fzcxx plain=plaincxx; fi
    $plain -O1 -g -fsanitize=address,undefined "$src" -o "$T/plain_$lang" ||
        fz_skip "plain $FZ_TEST_CC cannot build with -fsanitize=address,undefined"
    $fz -O1 -g -fsanitize=address,undefined "$src" -o "$T/fz_$lang" ||
        fail "fz build with -fsanitize=address,undefined failed ($lang)"
    for i in 1 2; do
        { "$T/plain_$lang" <"$T/in$i"; echo "status=$?"; } >"$T/p$i" 2>&1
        { "$T/fz_$lang" <"$T/in$i"; echo "status=$?"; } >"$T/f$i" 2>&1
        cmp -s "$T/p$i" "$T/f$i" || fail "sanitized $lang: output differs: $(diff "$T/p$i" "$T/f$i")"
    done
    "$FZ_BIN/fz-showmap" -q -o "$T/map_$lang" -- "$T/fz_$lang" <"$T/in1" ||
        fail "fz-showmap failed on the sanitized $lang build"
    [ -s "$T/map_$lang" ] || fail "sanitized $lang build gives an empty map"
    ok "$FZ_TEST_CC -fsanitize=address,undefined $lang: output equal, $(wc -l <"$T/map_$lang") edges hit"
done

# --- deny-list.  At -O2 checksum() is inlined into main() and has no body
# of its own, so fewer edges there show that inlined code is skipped.  GCC
# knows the inlined origin of every statement; the LLVM pass reads it from
# debug locations, so under clang that needs -g (docs/coverage.md).
for opt in -O0 -O2 "-O2 -g"; do
    all=$(edges fzcc $opt "$C")
    [ -n "$all" ] && [ "$all" -gt 0 ] || fail "no edge count reported for cov_c.c $opt"
    echo 'fun:checksum' >"$T/deny"
    less=$(FZ_DENYLIST=$T/deny edges fzcc $opt "$C")
    inlined=
    case $opt in -O2*)
        nm "$T/edges.o" | grep -q ' checksum' && fail "checksum() was not inlined at $opt: the test shows nothing"
        inlined=" (inlined)" ;;
    esac
    if [ $FZ_TEST_CC = clang ] && [ "$opt" = -O2 ]; then
        [ "$less" = "$all" ] || fail "clang -O2 without -g: $less of $all edges; without debug info nothing should be denied"
        echo "note: clang $opt: $less of $all edges with checksum() denied (no debug locations: inlined code stays)"
    else
        [ "$less" -lt "$all" ] || fail "fun:checksum $opt: $less edges, not fewer than $all"
    fi
    printf '# comment\n\n  src:*cov_c.c  \n' >"$T/deny"
    none=$(FZ_DENYLIST=$T/deny edges fzcc $opt "$C")
    [ "${none:-0}" = 0 ] || fail "src:*cov_c.c $opt: $none edges, expected none"
    ok "$FZ_TEST_CC deny-list $opt: $all edges, $less without checksum()$inlined, ${none:-0} with the file denied"
done

# Denying an inlined callee never hides the caller's own edges: main()'s
# coverage still tells inputs apart at -O2 -g with checksum() denied.
echo 'fun:checksum' >"$T/deny"
FZ_DENYLIST=$T/deny fzcc -O2 -g "$C" -o "$T/c_deny" || fail "build with checksum() denied failed"
"$FZ_BIN/fz-showmap" -q -o "$T/cd1" -- "$T/c_deny" <"$T/in1"
"$FZ_BIN/fz-showmap" -q -o "$T/cd2" -- "$T/c_deny" <"$T/in2"
[ -s "$T/cd1" ] && ! cmp -s "$T/cd1" "$T/cd2" || fail "with checksum() denied the caller's edges are gone too"

allx=$(edges fzcxx -O0 "$CXX")
for pat in 'fun:cov::parse_digit' 'fun:_ZN3cov11parse_digitEc' 'cov::*'; do
    echo "$pat" >"$T/deny"
    n=$(FZ_DENYLIST=$T/deny edges fzcxx -O0 "$CXX")
    [ "$n" -lt "$allx" ] || fail "C++ '$pat': $n edges, not fewer than $allx"
    ok "$FZ_TEST_CC deny-list C++ '$pat': $n of $allx edges"
done

# A denied function's edges are gone from the map too: with parse_digit
# denied, an input that reaches it lights fewer edges.
echo 'fun:cov::parse_digit' >"$T/deny"
fzcxx -O0 "$CXX" -o "$T/x_all" || fail "C++ build failed"
FZ_DENYLIST=$T/deny fzcxx -O0 "$CXX" -o "$T/x_deny" || fail "C++ build with deny-list failed"
"$FZ_BIN/fz-showmap" -q -o "$T/m_all" -- "$T/x_all" <"$T/in2" || fail "fz-showmap failed"
"$FZ_BIN/fz-showmap" -q -o "$T/m_deny" -- "$T/x_deny" <"$T/in2" || fail "fz-showmap failed"
[ "$(wc -l <"$T/m_deny")" -lt "$(wc -l <"$T/m_all")" ] ||
    fail "denying cov::parse_digit did not reduce the edges hit"

# --- a bad deny-list is a clear error naming the file and line
printf 'fun:ok\nbogus:thing\n' >"$T/bad"
if FZ_DENYLIST=$T/bad fzcc -c "$C" -o "$T/bad.o" 2>"$T/err"; then
    fail "a bad deny-list was accepted"
fi
grep -q "$T/bad:2: unknown entry kind 'bogus:'" "$T/err" || fail "unclear error: $(cat "$T/err")"
if FZ_DENYLIST=$T/missing fzcc -c "$C" -o "$T/bad.o" 2>"$T/err"; then
    fail "a missing deny-list was accepted"
fi
grep -q "$T/missing" "$T/err" || fail "error does not name the missing file: $(cat "$T/err")"
ok "$FZ_TEST_CC bad deny-lists are refused with the file and line named"
