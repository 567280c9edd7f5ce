#!/bin/bash
# bench/crosscheck.sh - separate fuzzer-side from binary-side cost on one
# program: fz-fuzz and AFL++'s afl-fuzz each drive the fz-cc build and the
# afl-clang-fast build of it for a fixed number of runs from the same seeds,
# and `perf stat` counts CPU time and page faults over the whole campaign
# (fuzzer, forkserver and every child), divided by the runs made.
#
#   bench/crosscheck.sh FZ_BINARY AFL_BINARY AFL_CMPLOG_BINARY SEED_DIR [RUNS]
#
# Four plain rows (fz-fuzz with FZ_NO_CMPLOG=1, afl-fuzz without -c: the
# same work per run, one fuzzer's loop against the other's, one build
# against the other) and two rows as each is used (fz-fuzz with its
# comparison feedback on its own build; afl-fuzz -c AFL_CMPLOG_BINARY on
# AFL++'s build: afl-fuzz's runs of its CmpLog build are not in its
# execs_done, so its per-run figure includes them, as fz's does).
# CPU time on a loaded machine varies by ~10%; faults by a few per run.
# Needs perf; BENCH_AFLPP (default /work/peers/build/aflpp/bin).
fzb=$(realpath "$1") aflb=$(realpath "$2") cmpb=$(realpath -m "$3") seeds=$(realpath "$4")
cd "$(dirname "$0")/.." || exit 1
root=$PWD
runs=${5:-3000}
aflpp=${BENCH_AFLPP:-/work/peers/build/aflpp/bin}
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-cross.XXXXXX")
trap 'rm -rf "$w"' EXIT

one() { # LABEL FUZZER BINARY [ENV...]: a row
    local label=$1 f=$2 b=$3
    shift 3
    rm -rf "$w/o"
    if [ "$f" = fz ]; then
        env FZ_NO_AFFINITY=1 "$@" perf stat -x, -e task-clock,minor-faults -o "$w/stat" \
            "$root/bin/fz-fuzz" -q -s 1 -E "$runs" -i "$seeds" -o "$w/o" -- "$b" @@ >/dev/null 2>&1
    else
        local cmp=()
        [ "${1:-}" = cmplog ] && cmp=(-c "$cmpb") && shift
        env AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 "$@" \
            perf stat -x, -e task-clock,minor-faults -o "$w/stat" \
            "$aflpp/afl-fuzz" -s 1 -E "$runs" -i "$seeds" -o "$w/o" "${cmp[@]}" -- "$b" @@ >/dev/null 2>&1
    fi
    local n_done
    n_done=$(sed -n 's/^execs_done *: *//p' "$w/o/default/fuzzer_stats" 2>/dev/null)
    awk -F, -v l="$label" -v n="${n_done:-0}" '
        $3 == "task-clock" { ms = $1 } $3 == "minor-faults" { pf = $1 }
        END { if (n > 0) printf "%-44s %7d %9.0f %9.1f\n", l, n, 1000 * ms / n, pf / n;
              else printf "%-44s did not run\n", l }' "$w/stat"
}

printf '%-44s %7s %9s %9s\n' "fuzzer / build" runs "us CPU/run" faults/run
one "fz-fuzz (no cmplog) / fz-cc build" fz "$fzb" FZ_NO_CMPLOG=1
one "fz-fuzz (no cmplog) / afl-clang-fast build" fz "$aflb" FZ_NO_CMPLOG=1
one "afl-fuzz (no -c) / fz-cc build" afl "$fzb"
one "afl-fuzz (no -c) / afl-clang-fast build" afl "$aflb"
one "fz-fuzz (comparison feedback) / fz-cc build" fz "$fzb"
if [ -x "$cmpb" ]; then
    one "afl-fuzz -c cmplog / afl-clang-fast build" afl "$aflb" cmplog
else
    echo "(no AFL++ CmpLog build at $cmpb: its row skipped)"
fi
