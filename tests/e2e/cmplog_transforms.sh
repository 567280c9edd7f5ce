#!/bin/bash
# cmplog_transforms.sh - input-to-state solving of checks whose operands
# are transforms of input bytes, not copies (docs/cmplog.md, "Transforms"):
# testcases/cmp_sized.c (a big-endian magic, words * 4 + 10 == file size,
# a 2-byte key, an xor trailer byte), cmp_trailer.c (magic, size + 8 ==
# file size, key, all bytes adding up to a constant) and cmp_chainsum.c
# (tag, length, an additive checksum checked before the magic and the kind
# it covers, so it must be fixed again after each solved compare).  Built
# at -O2 as a project's build would, fuzzed in file mode from two small
# unrelated seeds: each crash is found within a small -E budget with
# comparison feedback, by the stage (op:i2s), and not within the same
# budget without it.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"

stat_of() { sed -n "s/^$2 *: //p" "$1/default/fuzzer_stats"; }

mkdir -p seeds && printf 'hi' >seeds/a && printf 'hello world\n' >seeds/b
for name in sized trailer chainsum; do
    fzcc -O2 -o "$name" "$FZ_ROOT/testcases/cmp_$name.c" || fail "cannot build cmp_$name.c"
    fz-fuzz -q -s 1 -E 4000 --until-crash -i seeds -o "on-$name" -- "./$name" @@ >"on-$name.log" 2>&1
    rc=$?
    grep -q 'off (the target has no compare hooks)' "on-$name.log" &&
        fz_skip "[$FZ_TEST_CC] $FZ_PLUGIN inserts no compare hooks (an fz without comparison instrumentation)"
    [ $rc = 3 ] || { cat "on-$name.log"; ls "on-$name"/default/queue; fail "$name: exit $rc with comparison feedback, want 3 (crash found)"; }
    ls "on-$name"/default/crashes/id:*op:i2s* >/dev/null 2>&1 ||
        { ls "on-$name"/default/crashes; fail "$name: the crash was not named op:i2s"; }
    # The stage's cost is in fuzzer_stats: its runs are part of execs_done.
    execs=$(stat_of "on-$name" execs_done) i2s=$(stat_of "on-$name" cmplog_execs)
    [ "$i2s" -gt 0 ] && [ "$i2s" -le "$execs" ] || fail "$name: cmplog_execs '$i2s' of execs_done '$execs'"
    FZ_NO_CMPLOG=1 fz-fuzz -q -s 1 -E 4000 --until-crash -i seeds -o "off-$name" -- "./$name" @@ \
        >"off-$name.log" 2>&1
    rc=$?
    [ $rc = 0 ] || { cat "off-$name.log"; fail "$name: exit $rc with FZ_NO_CMPLOG=1, want 0 (not found)"; }
    ok "$name: found in $execs runs ($i2s in the stage), not in 4000 without it"
done

# The chained checksum needed repairs after solved compares.
ls on-chainsum/default/crashes/id:*op:i2s,rep:* on-chainsum/default/queue/id:*op:i2s,rep:* \
    >/dev/null 2>&1 || { ls on-chainsum/default/*; fail "chainsum: no find of a repair (op:i2s,rep:N)"; }
ok "chainsum: the checksum was repaired after solved compares"
