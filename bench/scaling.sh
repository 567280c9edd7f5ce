#!/bin/bash
# bench/scaling.sh - what -j buys on this machine, and fz's libFuzzer driver
# next to libFuzzer itself.
#
# 1. fz-fuzz -j 1 and -j 2 on bench/coverage_target.c, BENCH_SECONDS each
#    (default 60): executions (all instances), the best instance's edges,
#    the -j 2 / -j 1 execution ratio (goal: >= 1.8 on two free cores), and
#    how long a find took to reach the other instance (mean and max, from
#    the campaign's final line).  Instances run unbound (FZ_NO_AFFINITY=1)
#    unless BENCH_AFFINITY=1, so a machine whose cores are taken still
#    runs two; on a shared machine the ratio then measures the share it
#    got, not fz.
# 2. The same checker as a libFuzzer harness: `./h corpus/` built with
#    fz-cc -fsanitize=fuzzer (fz's engine) and with clang -fsanitize=fuzzer
#    (libFuzzer), -max_total_time=BENCH_SECONDS each: runs ("Done N runs")
#    and the edges of the corpus each left, both measured by fz-showmap on
#    one fz build (their own counts are not comparable).  Skipped without
#    clang's libFuzzer.
# Never fails on a number: a loaded machine must not break `make bench`.
cd "$(dirname "$0")/.." || exit 1
root=$PWD
secs=${BENCH_SECONDS:-60}
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-scaling.XXXXXX")
trap 'rm -rf "$w"' EXIT
[ "${BENCH_AFFINITY:-0}" = 1 ] || export FZ_NO_AFFINITY=1
export FZ_QUIET=1

bin/fz-cc -O1 bench/coverage_target.c -o "$w/target" || exit 1
mkdir "$w/seeds" && printf 'let x = 1;\n' >"$w/seeds/a"
val() { awk -F' *: *' -v k="$2" '$1==k{print $2}' "$1/fuzzer_stats"; }

echo "== fz-fuzz -j 1 vs -j 2, ${secs} s each, bench/coverage_target.c ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-6s %12s %10s %8s %s\n' jobs execs execs/s edges "finds passed (mean, max)"
for j in 1 2; do
    (cd "$w" && "$root/bin/fz-fuzz" -q -j $j -V "$secs" -i seeds -o "out$j" -- ./target @@ >"j$j.log" 2>&1)
    execs=0 edges=0
    for d in "$w/out$j"/*/; do
        execs=$((execs + $(val "$d" execs_done)))
        e=$(val "$d" edges_found)
        [ "$e" -gt $edges ] && edges=$e
    done
    eval "execs_$j=$execs"
    passed=$(grep -o 'finds passed [0-9]* (mean [0-9]* ms, max [0-9]* ms)' "$w/j$j.log" | tail -n 1)
    printf '%-6s %12s %10s %8s %s\n' "-j $j" "$execs" $((execs / secs)) "$edges" "${passed#finds passed }"
done
awk -v a="$execs_1" -v b="$execs_2" 'BEGIN { if (a) printf "ratio -j 2 / -j 1 executions: %.2fx (goal >= 1.8 with two free cores)\n", b / a }'

echo "== libFuzzer harness: ./h corpus/ with fz's engine vs clang -fsanitize=fuzzer, ${secs} s each"
bin/fz-cc -O1 -fsanitize=fuzzer -DBENCH_HARNESS bench/coverage_target.c -o "$w/h_fz" || exit 1
have_lf=0
clang -O1 -fsanitize=fuzzer -DBENCH_HARNESS bench/coverage_target.c -o "$w/h_lf" 2>/dev/null && have_lf=1
[ $have_lf = 1 ] || echo "clang's libFuzzer not available: fz only"
# corpus_edges DIR: slots hit by the union of DIR's files, on the fz build.
corpus_edges() {
    local f
    for f in "$1"/*; do
        "$root/bin/fz-showmap" -q -o - -- "$w/target" <"$f" 2>/dev/null | cut -d: -f1
    done | sort -u | wc -l
}
printf '%-22s %12s %10s %8s %8s\n' engine runs runs/s corpus edges
for e in fz lf; do
    [ $e = lf ] && [ $have_lf = 0 ] && continue
    mkdir "$w/corpus_$e" && cp "$w/seeds/a" "$w/corpus_$e/"
    (cd "$w" && "./h_$e" -max_total_time="$secs" -seed=1 "corpus_$e/" >"h_$e.log" 2>&1)
    runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$w/h_$e.log" | tail -n 1)
    name="fz-cc (fz-fuzz)"
    [ $e = lf ] && name="clang (libFuzzer)"
    printf '%-22s %12s %10s %8s %8s\n' "$name" "${runs:-?}" $((${runs:-0} / secs)) \
        "$(ls "$w/corpus_$e" | wc -l)" "$(corpus_edges "$w/corpus_$e")"
done
