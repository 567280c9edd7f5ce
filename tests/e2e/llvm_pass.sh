#!/bin/bash
# llvm_pass.sh - what the Clang/LLVM pass emits, checked on the IR and on
# running programs: the module ABI of docs/internals.md at -O0..-O3, no call
# per edge (on x86 the cmpb/sbbb increment in the IR and the assembly),
# counters invisible to ASan, the deny-list, a binary linked
# without the runtime, and afl-showmap reading a fz-clang binary.
# Clang only: lib.sh's fzcc is then fz-clang.
FZ_TEST_CC=clang
. "$(dirname "$0")/../lib.sh"

command -v clang >/dev/null || fz_skip "clang is not installed (apt-get install clang llvm-dev)"
so=$FZ_ROOT/lib/fz/fz-llvm-pass.so
[ -e "$so" ] || fz_skip "lib/fz/fz-llvm-pass.so is not built (needs llvm-dev)"

cp "$FZ_ROOT/testcases/codegen.c" "$T/t.c"

# edges LOG: the count from the report line.
edges() {
    sed -n 's/^fz-cc: \([0-9]*\) edges instrumented in .*/\1/p' "$1"
}

# Without the comparison hooks: their logging copies repeat the counters
# and the user's code (cmplog_hooks.sh tests them); without the
# folded-branch slots, a store per decision rather than an increment per
# slot (instrument_folded.sh tests them).
export FZ_NO_CMP=1 FZ_NO_FOLDED=1

# 1. The IR at every -O level.
case $(clang -dumpmachine) in x86_64-* | i?86-*) x86=1 ;; *) x86=0 ;; esac
for O in -O0 -O1 -O2 -O3; do
    ll=$T/t$O.ll
    FZ_QUIET=0 clang $O -fpass-plugin="$so" -S -emit-llvm "$T/t.c" -o "$ll" 2>"$T/r$O" ||
        fail "clang $O with the pass failed: $(cat "$T/r$O")"
    n=$(edges "$T/r$O")
    [ -n "$n" ] && [ "$n" -gt 0 ] || fail "$O: no report line: $(cat "$T/r$O")"
    grep -q "^@__fz_local_counters = internal global \[$n x i8\] zeroinitializer" "$ll" ||
        fail "$O: no internal [$n x i8] scratch counters"
    grep -q "^@__fz_area = internal global i8\\* getelementptr inbounds (\[$n x i8\], \[$n x i8\]\\* @__fz_local_counters" "$ll" ||
        fail "$O: __fz_area is not an internal pointer to the scratch counters"
    grep -q '^@llvm.global_ctors = .*{ i32 1, void ()\* @__fz_module_ctor' "$ll" ||
        fail "$O: no registration constructor of priority 1"
    grep -q '^declare extern_weak void @__fz_register(i8\*\*, i32)' "$ll" ||
        fail "$O: __fz_register is not an extern_weak declaration"
    grep -q "call void @__fz_register(i8\\*\\* @__fz_area, i32 $n)" "$ll" ||
        fail "$O: the constructor does not register $n slots"
    grep -q 'icmp ne .*@__fz_register, .*null' "$ll" ||
        fail "$O: the constructor does not test the weak symbol"
    # The map pointer loaded once per instrumented function, one !nosanitize
    # increment per slot (on x86 the asm cmpb $-1 / sbbb $-2 on the counter
    # in memory, elsewhere a load and a store), and no call other than the
    # constructor's.
    fns=$(grep -c '^define ' "$ll")
    loads=$(grep -c 'load i8\*, i8\*\* @__fz_area, align 8, !nosanitize' "$ll")
    [ "$loads" -ge 1 ] && [ "$loads" -lt "$fns" ] ||
        fail "$O: $loads loads of __fz_area for $fns functions (one per instrumented function)"
    if [ "$x86" = 1 ]; then
        incs=$(grep -c 'call void asm "cmpb $$-1, $0\\0A\\09sbbb $$-2, $0", "=\*m,~{flags}".*!nosanitize' "$ll")
    else
        incs=$(grep -c 'store i8 .*!nosanitize' "$ll")
    fi
    [ "$incs" = "$n" ] || fail "$O: $incs counter increments for $n slots"
    clang $O -S -emit-llvm "$T/t.c" -o "$T/plain$O.ll"
    [ "$(grep -v 'call void asm "cmpb' "$ll" | grep -c ' call ')" = "$(($(grep -c ' call ' "$T/plain$O.ll") + 1))" ] ||
        fail "$O: the pass added calls besides the constructor's"
    # On x86 each increment stays those two instructions on the counter in
    # memory down to the assembly (code generation may duplicate a block,
    # never drop one).
    if [ "$x86" = 1 ]; then
        FZ_QUIET=1 clang $O -fpass-plugin="$so" -S "$T/t.c" -o "$T/t$O.s" || fail "clang $O -S with the pass failed"
        inc=$(grep -A1 -E '^\scmpb\s\$-1, [0-9]*\(%[a-z0-9]+\)$' "$T/t$O.s" | grep -cE '^\ssbbb\s\$-2, [0-9]*\(%[a-z0-9]+\)$')
        [ "$inc" -ge "$n" ] || fail "$O: $inc cmpb/sbbb increments in the assembly for $n slots"
    fi
    ok "$O: $n slots, ABI as in docs/internals.md"
done

# 2. ASan must not check the counter accesses: same number of ASan checks
# with and without the pass.
clang -O2 -fsanitize=address -S -emit-llvm "$T/t.c" -o "$T/asan_plain.ll"
clang -O2 -fsanitize=address -fpass-plugin="$so" -S -emit-llvm "$T/t.c" -o "$T/asan_fz.ll" 2>/dev/null
a=$(grep -c '__asan_report' "$T/asan_plain.ll")
b=$(grep -c '__asan_report' "$T/asan_fz.ll")
[ "$a" = "$b" ] || fail "ASan checks: $a plain, $b with the pass (counters are being checked)"
fzcc -O1 -g -fsanitize=address "$T/t.c" -o "$T/t_asan" || fail "fz-clang -fsanitize=address failed"
[ "$("$T/t_asan" FZxx)" = "2 1" ] || fail "ASan build gives wrong output"
ok "ASan: $a checks with or without the pass, binary runs"

# 3. Deny-list: by C name, then by source file.
printf '# helper is noise\nfun:skipped_*\n' >"$T/deny_fun"
printf 'src:t.c\n' >"$T/deny_src"
FZ_QUIET=0 clang -O0 -fpass-plugin="$so" -c "$T/t.c" -o "$T/a.o" 2>"$T/r_all"
FZ_DENYLIST=$T/deny_fun FZ_QUIET=0 clang -O0 -fpass-plugin="$so" -S -emit-llvm "$T/t.c" \
    -o "$T/deny.ll" 2>"$T/r_fun"
FZ_DENYLIST=$T/deny_src FZ_QUIET=0 clang -O0 -fpass-plugin="$so" -c "$T/t.c" -o "$T/c.o" 2>"$T/r_src"
[ "$(edges "$T/r_fun")" -lt "$(edges "$T/r_all")" ] || fail "fun: deny-list did not drop edges"
sed -n '/^define.*@skipped_helper/,/^}/p' "$T/deny.ll" | grep -q __fz_area &&
    fail "denied function skipped_helper is instrumented"
sed -n '/^define.*@classify/,/^}/p' "$T/deny.ll" | grep -q __fz_area ||
    fail "function classify lost its counters to an unrelated deny-list entry"
[ "$(edges "$T/r_src")" = 0 ] || fail "src: deny-list left $(edges "$T/r_src") edges"
nm "$T/c.o" | grep -q __fz_ && fail "a denied file still has fz symbols"
printf 'fnu:typo\n' >"$T/deny_bad"
FZ_DENYLIST=$T/deny_bad clang -fpass-plugin="$so" -c "$T/t.c" -o "$T/d.o" 2>"$T/r_bad" &&
    fail "a bad deny-list was accepted"
grep -q "deny_bad:1: unknown entry kind 'fnu:'" "$T/r_bad" || fail "bad deny-list message: $(cat "$T/r_bad")"
ok "deny-list: $(edges "$T/r_all") edges, $(edges "$T/r_fun") without skipped_*, 0 without t.c"

# 4. Linked without the runtime (a plain program using an instrumented
# object): the weak reference stays null and the program runs unchanged.
clang -O2 -fpass-plugin="$so" "$T/t.c" -o "$T/t_nort" 2>/dev/null
clang -O2 "$T/t.c" -o "$T/t_plain"
[ "$("$T/t_nort" abcd)" = "$("$T/t_plain" abcd)" ] || fail "output differs without the runtime"
ok "runs without the runtime"

# 5. afl-showmap (AFL++) reads a fz-clang binary's map.
if command -v afl-showmap >/dev/null; then
    fzcc -O2 "$T/t.c" -o "$T/t_fz" || fail "fz-clang build failed"
    AFL_QUIET=1 afl-showmap -q -o "$T/afl1" -- "$T/t_fz" FZab >/dev/null 2>&1
    AFL_QUIET=1 afl-showmap -q -o "$T/afl2" -- "$T/t_fz" x >/dev/null 2>&1
    [ -s "$T/afl1" ] || fail "afl-showmap gave an empty map for a fz-clang binary"
    cmp -s "$T/afl1" "$T/afl2" && fail "afl-showmap: two different inputs gave the same map"
    ok "afl-showmap: $(wc -l <"$T/afl1") edges hit"
else
    echo "afl-showmap not installed: interop check not run"
fi
