#!/bin/bash
# cmplog_stage.sh - comparison feedback end to end: each testcases/cmp_*.c
# crash (32+64-bit magic, memcmp key, strcmp keyword, 16-bit switch tag,
# chained header with length + checksum + tag, a libFuzzer harness) is
# found within a small -E budget with comparison feedback, and NOT within
# the same budget with FZ_NO_CMPLOG=1, so the stage is what finds them.
# Then: the stage turns itself off, with one line and a fuzzer_stats
# entry, for -n and for a target without compare hooks.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"

seed() {
    case $1 in
    strcmp) printf 'hello world\n' ;;
    *) printf 'AAAAAAAAAAAAAAAAAAAA' ;;
    esac
}

stat_of() { sed -n "s/^$2 *: //p" "$1/default/fuzzer_stats"; }

# budget per target: enough for the stage with a margin, far too few for
# havoc alone (each needs a 16- to 96-bit guess).
for t in magic:3000 memcmp:3000 strcmp:3000 switch:3000 chain:5000; do
    name=${t%%:*} budget=${t#*:}
    fzcc -O1 -o "$name" "$FZ_ROOT/testcases/cmp_$name.c" || fail "cannot build cmp_$name.c"
    mkdir -p "seeds-$name" && seed "$name" >"seeds-$name/a"
    fz-fuzz -q -s 1 -E "$budget" --until-crash -i "seeds-$name" -o "on-$name" -- "./$name" @@ \
        >"on-$name.log" 2>&1
    rc=$?
    # A back end built without comparison instrumentation cannot pass this;
    # CI (FZ_TEST_STRICT=1) must not skip it.
    grep -q 'off (the target has no compare hooks)' "on-$name.log" &&
        fz_skip "[$FZ_TEST_CC] $FZ_PLUGIN inserts no compare hooks (an fz without comparison instrumentation)"
    [ $rc = 3 ] || { cat "on-$name.log"; fail "$name: exit $rc with comparison feedback, want 3 (crash found)"; }
    grep -q 'comparison feedback: on' "on-$name.log" || fail "$name: no 'comparison feedback: on' line"
    [ "$(stat_of "on-$name" cmplog)" = on ] || fail "$name: fuzzer_stats cmplog is not 'on'"
    [ "$(stat_of "on-$name" cmplog_finds)" -gt 0 ] || fail "$name: cmplog_finds is 0"
    ls "on-$name"/default/crashes/id:*op:i2s* >/dev/null 2>&1 ||
        { ls "on-$name"/default/crashes; fail "$name: the crash was not named op:i2s"; }
    FZ_NO_CMPLOG=1 fz-fuzz -q -s 1 -E "$budget" --until-crash -i "seeds-$name" -o "off-$name" \
        -- "./$name" @@ >"off-$name.log" 2>&1
    rc=$?
    [ $rc = 0 ] || { cat "off-$name.log"; fail "$name: exit $rc with FZ_NO_CMPLOG=1, want 0 (not found)"; }
    [ "$(stat_of "off-$name" cmplog)" = "off (FZ_NO_CMPLOG=1)" ] || fail "$name: cmplog state with FZ_NO_CMPLOG=1"
    ok "$name: found in $(stat_of "on-$name" execs_done) runs ($(stat_of "on-$name" cmplog_execs) in the stage), not in $budget without it"
done

# The chained header needs the repair: its crash carries rep:.
ls on-chain/default/crashes/id:*op:i2s,rep:* >/dev/null 2>&1 ||
    { ls on-chain/default/crashes; fail "chain: the crash was not found by a repair (op:i2s,rep:N)"; }
# Compared constants joined the automatic dictionary.
[ "$(stat_of on-chain auto_dict_entries)" -gt 0 ] || fail "chain: auto_dict_entries is 0"
ok "chained checks repaired; automatic dictionary filled"

# A libFuzzer harness (persistent, shared-memory input) gets the same.
fzcc -O1 -fsanitize=fuzzer -o harness "$FZ_ROOT/testcases/cmp_libfuzzer.c" || fail "cannot build the harness"
mkdir -p seeds-h && seed h >seeds-h/a
fz-fuzz -q -s 1 -E 3000 --until-crash -i seeds-h -o on-h -- ./harness >on-h.log 2>&1
rc=$?
[ $rc = 3 ] || { cat on-h.log; fail "libFuzzer harness: exit $rc, want 3"; }
FZ_NO_CMPLOG=1 fz-fuzz -q -s 1 -E 3000 --until-crash -i seeds-h -o off-h -- ./harness >off-h.log 2>&1
rc=$?
[ $rc = 0 ] || { cat off-h.log; fail "libFuzzer harness: exit $rc with FZ_NO_CMPLOG=1, want 0"; }
ok "libFuzzer harness: found with comparison feedback, not without"

# Bad input: a million compares per run in a tight loop and strcmp on two
# 2 MiB strings; the log stays bounded and the key behind them is found.
fzcc -O1 -o heavy "$FZ_ROOT/testcases/cmp_heavy.c" || fail "cannot build cmp_heavy.c"
fz-fuzz -q -s 1 -E 1000 --until-crash -i seeds-magic -o on-heavy -- ./heavy @@ >on-heavy.log 2>&1
rc=$?
[ $rc = 3 ] || { cat on-heavy.log; fail "heavy: exit $rc, want 3 (the key found despite the noise)"; }
ok "a million compares per run and 2 MiB strcmp operands: key found in $(stat_of on-heavy execs_done) runs"

# -n: off, said once, nothing else changes.
fz-fuzz -q -n -s 1 -E 200 -i seeds-magic -o blind -- ./magic @@ >blind.log 2>&1
[ "$(grep -c 'comparison feedback' blind.log)" = 1 ] || { cat blind.log; fail "-n: not one comparison-feedback line"; }
[ "$(stat_of blind cmplog)" = "off (-n blind mode)" ] || fail "-n: cmplog state '$(stat_of blind cmplog)'"
[ "$(stat_of blind cmplog_execs)" = 0 ] || fail "-n: the stage ran"
ok "-n: the stage is off and says so once"

# A target without compare hooks (built with FZ_NO_CMP=1): off, one line.
FZ_NO_CMP=1 fzcc -O1 -o nohooks "$FZ_ROOT/testcases/cmp_magic.c" || fail "cannot build without hooks"
fz-fuzz -q -s 1 -E 500 -i seeds-magic -o out-nohooks -- ./nohooks @@ >nohooks.log 2>&1 ||
    { cat nohooks.log; fail "a target without hooks did not fuzz"; }
[ "$(grep -c 'comparison feedback: off (the target has no compare hooks)' nohooks.log)" = 1 ] ||
    { cat nohooks.log; fail "no-hooks target: not one 'off' line"; }
[ "$(stat_of out-nohooks cmplog)" = "off (the target has no compare hooks)" ] || fail "no-hooks: cmplog state"
[ "$(stat_of out-nohooks cmplog_execs)" = 0 ] || fail "no-hooks: the stage ran"
ok "target without compare hooks: the stage is off and says so once"

# -c: 0 is accepted quietly; another binary is explained, not run.
# (exit 3 is fine: the magic crash is found within the budget.)
fz-fuzz -q -s 1 -E 100 -c 0 -i seeds-magic -o c0 -- ./magic @@ >c0.log 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || { cat c0.log; fail "-c 0: exit $rc"; }
grep -q -- '-c ' c0.log && { cat c0.log; fail "-c 0 warned"; }
fz-fuzz -q -s 1 -E 100 -c ./nohooks -i seeds-magic -o c1 -- ./magic @@ >c1.log 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || { cat c1.log; fail "-c BINARY: exit $rc"; }
grep -q "AFL++'s own log layout" c1.log || { cat c1.log; fail "-c BINARY: no explanation"; }
ok "-c 0 and -c BINARY"
