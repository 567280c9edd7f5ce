#!/bin/bash
# fuzz_schedule.sh - the power schedule (havoc candidates per turn from
# entries-per-edge counts, first turns, favored set, turns) and the
# first-turn trim decide from counts, never from a clock: with the same -s
# and -E, two runs on a target with many branches give the same queue, with
# and without the deterministic stages (-d).  AFL_DISABLE_TRIM (AFL++'s
# name) leaves the seed as it was.  Work is bounded by -E.
. "$(dirname "$0")/../lib.sh"
cd "$T"
fzcc -O1 -o target "$FZ_ROOT/bench/coverage_target.c" || fail "cannot build bench/coverage_target.c"
mkdir seeds && printf 'let x = 1;\n' >seeds/a && head -c 300 "$FZ_ROOT/bench/coverage_target.c" >seeds/b

listing() { # dir -> "name-without-time md5" lines
    (cd "$1" && for f in id:*; do
        printf '%s %s\n' "$(printf %s "$f" | sed 's/,time:[0-9]*//')" "$(md5sum <"$f" | cut -c1-32)"
    done)
}
for mode in "" "-d"; do
    for run in 1 2; do
        rm -rf out
        fz-fuzz -q -s 7 -E 6000 -t 5000 $mode -i seeds -o out -- ./target @@ >log 2>&1 ||
            { cat log; fail "run $run ${mode:-(default)} failed"; }
        listing out/default/queue >q$run.txt
    done
    n=$(wc -l <q1.txt)
    [ "$n" -ge 10 ] || fail "${mode:-default}: too few entries to compare ($n)"
    diff q1.txt q2.txt || fail "-s 7 -E 6000 ${mode} twice gave different queues"
    # The trim rewrote the 300-byte seed in place: same name, fewer bytes.
    [ "$(find out/default/queue -name '*orig:b' -size -300c | wc -l)" = 1 ] ||
        fail "the 300-byte seed was not trimmed on its first turn"
    ok "${mode:-default}: same seed, same budget, same queue ($n entries)"
done

# AFL++'s switch, honoured: no trim, no warning that it is ignored, the
# 300-byte seed kept whole and no minimization runs spent.
rm -rf out
AFL_DISABLE_TRIM=1 fz-fuzz -q -s 7 -E 6000 -t 5000 -i seeds -o out -- ./target @@ >log 2>&1 ||
    { cat log; fail "AFL_DISABLE_TRIM=1 run failed"; }
grep -q "AFL_DISABLE_TRIM" log && { cat log; fail "AFL_DISABLE_TRIM was named as not honoured"; }
[ "$(find out/default/queue -name '*orig:b' -size 300c | wc -l)" = 1 ] ||
    fail "AFL_DISABLE_TRIM=1: the 300-byte seed was trimmed"
m=$(sed -n 's/^minimize_execs *: *//p' out/default/fuzzer_stats)
[ "$m" = 0 ] || fail "AFL_DISABLE_TRIM=1: minimize_execs $m, want 0"
ok "AFL_DISABLE_TRIM=1: the seed kept its 300 bytes, no minimization runs"
