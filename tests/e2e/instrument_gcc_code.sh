#!/bin/bash
# instrument_gcc_code.sh - what the GCC plugin emits, checked on the
# assembly at every -O level (llvm_pass.sh does the same for the IR of the
# LLVM pass): the module ABI of docs/internals.md (internal scratch
# counters of N bytes, an internal __fz_area pointing at them, a weak
# __fz_register, a constructor of FZ_CTOR_PRIORITY_REGISTER that tests the
# weak symbol and registers N slots), one load of __fz_area per
# instrumented function, inline NeverZero increments (cmpb $-1 / sbbb $-2
# on the counter in memory), and no call added
# per edge.  GCC only, x86-64 assembly.  Built with FZ_NO_CMP=1: the
# comparison hooks (a guarded call per compare, a logging copy of each
# function that has some) are cmplog_hooks.sh's; and FZ_NO_FOLDED=1: the
# folded-branch slots (two per decision, a store each, no increment) are
# instrument_folded.sh's.
. "$(dirname "$0")/../lib.sh"

so=$FZ_ROOT/lib/fz/fz-gcc-plugin.so
[ -e "$so" ] || fz_skip "lib/fz/fz-gcc-plugin.so is not built"
[ "$(gcc -dumpmachine | cut -d- -f1)" = x86_64 ] || skip "the assembly checks are written for x86-64"
prio=$(sed -n 's/^#define FZ_CTOR_PRIORITY_REGISTER \([0-9]*\).*/\1/p' "$FZ_ROOT/include/fz-config.h")
[ -n "$prio" ] || fail "FZ_CTOR_PRIORITY_REGISTER not found in include/fz-config.h"
prio5=$(printf %05d "$prio")

cd "$T"
cp "$FZ_ROOT/testcases/codegen.c" t.c

# calls FILE: call and tail-call instructions, other than to __fz_register
# and the comparison hooks (their own test: cmplog_gcc_code.sh).
calls() { grep -E '^\s(call|jmp)\s+[A-Za-z_]' "$1" | grep -vE '__fz_(register|cmp_)' | sed 's/@PLT//' | sort; }

for O in -O0 -O1 -O2 -O3; do
    FZ_NO_CMP=1 FZ_NO_FOLDED=1 FZ_QUIET=0 gcc $O -fplugin="$so" -S t.c -o fz$O.s 2>r$O || fail "gcc $O with the plugin failed: $(cat r$O)"
    gcc $O -S t.c -o plain$O.s
    n=$(sed -n 's/^fz-cc: \([0-9]*\) edges instrumented in .*/\1/p' r$O)
    [ -n "$n" ] && [ "$n" -gt 0 ] || fail "$O: no report line: $(cat r$O)"
    s=fz$O.s
    grep -qx $'\t.local\t__fz_local_counters' $s && grep -qE "^\s\.comm\s__fz_local_counters,$n," $s ||
        fail "$O: no local scratch counters of $n bytes"
    grep -A1 '^__fz_area:' $s | grep -qE '^\s\.quad\s__fz_local_counters$' ||
        fail "$O: __fz_area does not point at the scratch counters"
    grep -qE '^\s\.globl\s__fz_(area|local_counters)' $s && fail "$O: the counters are not internal"
    grep -qE '^\s\.weak\s__fz_register$' $s || fail "$O: __fz_register is not weak"
    # The constructor named in .init_array.<priority>: tests the weak
    # symbol, passes N, calls (or tail-calls) __fz_register.
    ctor=$(grep -A2 "^\s\.section\s\.init_array\.$prio5," $s | sed -n 's/^\s\.quad\s//p')
    [ -n "$ctor" ] || fail "$O: no constructor of priority $prio"
    body=$(sed -n "/^$ctor:/,/\.cfi_endproc/p" $s)
    echo "$body" | grep -qE '__fz_register@GOTPCREL' || fail "$O: the constructor does not test the weak symbol"
    echo "$body" | grep -qE "movl\s\\\$$n, %esi" || fail "$O: the constructor does not register $n slots"
    echo "$body" | grep -qE '^\s(call|jmp)\s__fz_register' || fail "$O: the constructor does not call __fz_register"
    # No call per edge: the same calls as the plain build.
    diff <(calls plain$O.s) <(calls $s) >calls$O.diff || fail "$O: calls differ from the plain build: $(cat calls$O.diff)"
    # One load of the map pointer per instrumented function.
    fns=$(grep -cE '^\s\.type\s[A-Za-z_][A-Za-z_0-9.]*, @function' $s)
    loads=$(grep -cE 'mov[q]?\s__fz_area\(%rip\)' $s)
    [ "$loads" -ge 1 ] && [ "$loads" -lt "$fns" ] ||
        fail "$O: $loads loads of __fz_area for $fns functions (one per instrumented function)"
    # At every level each increment is cmpb $-1 then sbbb $-2 on the
    # counter in memory (NeverZero through the carry: c + 2 - (c < 255));
    # GCC may duplicate a block, never drop one.
    inc=$(grep -A1 -E '^\scmpb\s\$-1, [0-9]*\(%[a-z0-9]+\)$' $s | grep -cE '^\ssbbb\s\$-2, [0-9]*\(%[a-z0-9]+\)$')
    [ "$inc" -ge "$n" ] || fail "$O: $inc cmpb/sbbb increments for $n slots"
    ok "$O: $n slots, ABI as in docs/internals.md, $loads map loads, no added call"
done
