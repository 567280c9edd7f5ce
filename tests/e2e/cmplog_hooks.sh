#!/bin/bash
# cmplog_hooks.sh - the comparison hooks end to end: testcases/cmp_kinds.c
# built with fz-cc at -O0 and -O2 and run under a real comparison log
# (build/tests/cmplog-dump: a SysV segment, __FZ_CMPLOG_SHM_ID, enabled=1)
# logs the operands of each kind of compare: 8/16/32/64/128-bit integer
# compares with the constant on either side, a signed order, a compare of
# two variables, every case of a 16-bit switch, and memcmp, bcmp, strcmp,
# strncmp, strcasecmp, strncasecmp, strstr, memmem, including the small
# constant ones the compiler inlines at -O2.  Also: a plain run and a
# forkserver run both log; the handshake carries FZ_FS_NEW_OPT_FZ_CMPLOG;
# enabled=0 logs nothing; an FZ_NO_CMP=1 build logs nothing and sends no
# bit.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

dump=$FZ_ROOT/build/tests/cmplog-dump
[ -x "$dump" ] || fz_skip "build/tests/cmplog-dump is not built (make)"
cd "$T"
# An input that matches none of the checks: every compare runs and fails.
printf 'hello world, nothing matches here at all, not even close.' >in

# has LOG PATTERN WHAT: the log has a line matching the extended regexp.
has() { grep -Eq "$2" "$1" || fail "$3 not logged in $1: $(cat "$1")"; }

check_log() { # LOG TAG
    local l=$1
    has $l '^int [0-9]+ [0-9]+ 1 ce 0x68 0x5a$' "$2: 8-bit == 0x5a"
    has $l '^int [0-9]+ [0-9]+ 2 ce 0x6c65 0xbeef$' "$2: 16-bit 0xbeef == x (constant left, normalised)"
    has $l '^int [0-9]+ [0-9]+ 4 ce 0x77206f6c 0xdeadbeef$' "$2: 32-bit == 0xdeadbeef"
    has $l '^int [0-9]+ [0-9]+ 8 ce 0x6f6e202c646c726f 0x1122334455667788$' "$2: 64-bit magic"
    has $l '^int [0-9]+ [0-9]+ 4 c 0x77206f6c 0xffffcfc7$' "$2: signed order < -12345"
    has $l '^int [0-9]+ [0-9]+ 16 ce 0x616d20676e696874 0x90a0b0c0d0e0f10 0x6568207365686374 0x102030405060708$' "$2: 128-bit magic"
    for c in 0x1001 0x2002 0x3003 0x4004 0x7777; do
        has $l "^int [0-9]+ [0-9]+ 2 cs?e 0x6572 $c\$" "$2: switch case $c"
    done
    has $l '^(str [0-9]+ [0-9]+ - "hello world, nothing " "MEMCMP-KEY-0123456789")$' "$2: memcmp 21 bytes"
    has $l '^(str [0-9]+ [0-9]+ - "hell" "INLN"|int [0-9]+ [0-9]+ 4 ce 0x6c6c6568 0x4e4c4e49)$' "$2: memcmp 4 bytes"
    has $l '^(str [0-9]+ [0-9]+ - "hello wo" "BCMPKEY!"|int [0-9]+ [0-9]+ 8 ce 0x6f77206f6c6c6568 0x2159454b504d4342)$' "$2: bcmp 8 bytes"
    has $l '^str [0-9]+ [0-9]+ z "hello world, nothing matches her" "strcmp-keyword"$' "$2: strcmp"
    has $l '^(str [0-9]+ [0-9]+ z "hello world, nothing matches her" "ab"|int .* 0x6568 0x6261)$' "$2: strcmp with a 2-byte constant"
    has $l '^str [0-9]+ [0-9]+ z "hello world" "strncmp-key"$' "$2: strncmp, bounded by n"
    has $l '^str [0-9]+ [0-9]+ nz "hello world, nothing matches her" "CaseKey"$' "$2: strcasecmp"
    has $l '^str [0-9]+ [0-9]+ nz "hello wo" "NCaseKey"$' "$2: strncasecmp, bounded by n"
    has $l '^str [0-9]+ [0-9]+ fz "hello world, nothing matches her" "needle-strstr"$' "$2: strstr"
    has $l '^str [0-9]+ [0-9]+ f "hello world, nothing matches her" "needle-memmem"$' "$2: memmem"
}

for O in -O0 -O2; do
    FZ_QUIET=0 fzcc $O -o k$O "$FZ_ROOT/testcases/cmp_kinds.c" 2>rep$O || fail "$O build failed: $(cat rep$O)"
    grep -Eq "^fz-cc: [1-9][0-9]* comparison sites hooked in .*cmp_kinds.c\$" rep$O ||
        fail "$O: no comparison report line: $(cat rep$O)"
    "$dump" -i in -- ./k$O >plain$O.log || fail "$O: the target failed under the log"
    check_log plain$O.log "$O plain run"
    "$dump" -f -i in -- ./k$O >fsrv$O.log || fail "$O: the target failed in the forkserver"
    grep -qx 'cmplog_bit 1' fsrv$O.log || fail "$O: no FZ_FS_NEW_OPT_FZ_CMPLOG in the handshake"
    check_log fsrv$O.log "$O forkserver run"
    "$dump" -f -0 -i in -- ./k$O >off$O.log
    grep -qx 'hits 0' off$O.log || fail "$O: enabled=0 still logged: $(cat off$O.log)"
    ok "$O: every kind logged, plain and under the forkserver; nothing with enabled=0"
done

FZ_NO_CMP=1 FZ_QUIET=0 fzcc -O2 -o k0 "$FZ_ROOT/testcases/cmp_kinds.c" 2>rep0 || fail "FZ_NO_CMP build failed"
grep -q 'comparison sites' rep0 && fail "FZ_NO_CMP=1 still hooked comparisons: $(cat rep0)"
"$dump" -f -i in -- ./k0 >no.log || fail "the FZ_NO_CMP=1 build failed"
grep -qx 'cmplog_bit 0' no.log || fail "FZ_NO_CMP=1 build sent the comparison bit"
grep -qx 'hits 0' no.log || fail "FZ_NO_CMP=1 build logged: $(cat no.log)"
[ "$(./k0 <in)" = "$(./k-O2 <in)" ] || fail "the hooks changed the program's result"
ok "FZ_NO_CMP=1: no hooks, no bit, nothing logged"

# A libFuzzer harness (fz's driver, -fsanitize=fuzzer) logs too: run on a
# file, and under the forkserver (the driver's loop, input on stdin).
fzcc -O1 -fsanitize=fuzzer -o lf "$FZ_ROOT/testcases/libfuzzer_harness.c" || fail "libFuzzer harness does not build"
"$dump" -- ./lf in >lf.log 2>/dev/null || fail "the harness failed under the log"
has lf.log '^int [0-9]+ [0-9]+ 1 ce 0x68 0x4c$' "libFuzzer harness, reproduce mode: data[0] == 'L'"
"$dump" -f -i in -- ./lf >lf-fsrv.log 2>/dev/null || fail "the harness failed in the forkserver"
grep -qx 'cmplog_bit 1' lf-fsrv.log || fail "libFuzzer harness: no comparison bit"
has lf-fsrv.log '^int [0-9]+ [0-9]+ 1 ce 0x68 0x4c$' "libFuzzer harness under the forkserver: data[0] == 'L'"
ok "libFuzzer harness: logged in reproduce mode and under the forkserver"

# The module ABI on the code (docs/internals.md, "Comparison hooks"): an
# internal flag, weak hooks and registration, and no hook call on the
# path a run that is not logging takes (only in the logging copy).
if [ $FZ_TEST_CC = gcc ]; then
    [ "$(gcc -dumpmachine | cut -d- -f1)" = x86_64 ] || skip "the assembly checks are written for x86-64"
    fzcc -O2 -S -o k.s "$FZ_ROOT/testcases/cmp_kinds.c" || fail "-S failed"
    grep -qE '^\s\.globl\s__fz_cmp_(on|base)' k.s && fail "the flag or base is not internal"
    for w in __fz_register_cmp __fz_cmp_int __fz_cmp_mem __fz_cmp_switch; do
        grep -qE "^\s\.weak\s$w\$" k.s || fail "$w is not a weak reference"
    done
    # ints: the original tests the flag once and calls no hook; the hook
    # calls sit in its outlined logging copy ints.fz.cmplog, which it
    # enters when the flag is set.
    hot=$(sed -n '/^ints:/,/\.cfi_endproc/p' k.s)
    echo "$hot" | grep -qE 'call\s+__fz_cmp_' && fail "ints calls a hook outside its logging copy"
    [ "$(echo "$hot" | grep -cE '__fz_cmp_on\(%rip\)')" = 1 ] || fail "ints does not test the flag exactly once"
    echo "$hot" | grep -qE '(jmp|call)\s+ints\.fz\.cmplog' || fail "ints does not enter ints.fz.cmplog"
    sed -n '/^ints\.fz\.cmplog:/,/\.cfi_endproc/p' k.s | grep -qE 'call\s+__fz_cmp_int' ||
        fail "ints.fz.cmplog does not call __fz_cmp_int"
else
    fzcc -O2 -S -emit-llvm -o k.ll "$FZ_ROOT/testcases/cmp_kinds.c" || fail "-emit-llvm failed"
    grep -q '^@__fz_cmp_on = internal global i8 0' k.ll || fail "no internal __fz_cmp_on"
    for w in __fz_register_cmp __fz_cmp_int __fz_cmp_mem __fz_cmp_switch; do
        grep -qE "^declare extern_weak .*@$w\(" k.ll || fail "$w is not extern_weak"
    done
    sed -n '/^define internal .*@ints(/,/^}/p' k.ll | grep -q '@__fz_cmp_' &&
        ! sed -n '/^define internal .*@ints(/,/^}/p' k.ll | grep -q 'call void @__fz_cmp_' ||
        fail "ints tests no flag, or calls a hook itself"
    grep -qE '^define internal .*@ints\.fz\.cmplog\(.*#[0-9]+' k.ll || fail "no logging copy ints.fz.cmplog"
fi
ok "module ABI: internal flag, weak hooks, hooks only in the logging copy"
