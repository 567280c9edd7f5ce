#!/bin/bash
# bench/execs.sh - executions per second, fz-fuzz against afl-fuzz on the
# same binary in the same run, in forkserver mode (testcases/rt_branches.c,
# input file @@) and in persistent + shared-memory mode
# (testcases/persistent.c), printed as ratios; then the same two modes
# under clang, where each fuzzer runs its own compiler's build (fz-fuzz an
# fz-clang build, afl-fuzz an afl-clang-fast build: instrumentation,
# runtime and fuzzer each complete), when clang support and afl-clang-fast
# exist; plus this machine's raw fork()+waitpid() rate, the ceiling for
# forkserver mode.  In persistent mode fz-fuzz is also run with FZ_NO_DIRECT=1 (AFL++'s SIGSTOP protocol
# against the same runtime), to show what the direct loop is worth.
#
# Both fuzzers bind themselves and the target to a free CPU (their default;
# AFL_NO_AFFINITY is not set), so each pays same-CPU wake-ups.
# Each fuzzer runs a fixed number of executions (-E, which both have:
# BENCH_FORK_EXECS, default 20000, in forkserver mode; BENCH_PERSIST_EXECS,
# default 500000, in persistent mode), timed from outside with a
# nanosecond clock, start-up and calibration included for both; the rate is
# execs_done from out/default/fuzzer_stats over that time.  (Whole-second
# run_time over a few seconds made the ratio +-20%.)  The goal is a ratio
# >= 1.0 in both modes; below it the script warns but does not fail (a
# loaded machine should not break `make bench`).
cd "$(dirname "$0")/.." || exit 1
root=$PWD
fork_execs=${BENCH_FORK_EXECS:-20000}
persist_execs=${BENCH_PERSIST_EXECS:-500000}
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-execs.XXXXXX")
trap 'rm -rf "$w"' EXIT
gcc -O2 bench/forkrate.c -o "$w/forkrate" || exit 1
FZ_QUIET=1 bin/fz-cc -O1 testcases/rt_branches.c -o "$w/branches" || exit 1
FZ_QUIET=1 bin/fz-cc -O1 testcases/persistent.c -o "$w/persistent" || exit 1
mkdir "$w/seeds" && printf 'hello' >"$w/seeds/a"

fork_rate=$("$w/forkrate" 20000 | awk '{print $2}')
echo "raw fork()+waitpid(): $fork_rate /s (forkserver ceiling)"

# timed OUT CMD...: runs CMD in $w, leaving its wall time in ns in OUT.ns.
timed() {
    local out=$1 t0 t1
    shift
    t0=$(date +%s%N)
    (cd "$w" && "$@" >"$out.log" 2>&1)
    t1=$(date +%s%N)
    echo $((t1 - t0)) >"$w/$out.ns"
}

# rate OUT: execs_done from OUT's fuzzer_stats over the measured wall time.
rate() {
    awk -F' *: *' -v ns="$(cat "$w/$1.ns")" '$1=="execs_done"{e=$2}
        END { printf "%.0f", e / (ns > 0 ? ns / 1e9 : 1) }' "$w/$1/default/fuzzer_stats"
}

# execs_for MODE: how many executions a run of MODE makes.
execs_for() { case $1 in *persistent*) echo "$persist_execs" ;; *) echo "$fork_execs" ;; esac; }

# run_fz OUT MODE ARGS...: fz-fuzz for MODE's number of executions; prints its rate.
run_fz() {
    local out=$1 n
    n=$(execs_for "$2")
    shift 2
    timed "$out" "$root/bin/fz-fuzz" -q -i seeds -o "$out" -s 1 -E "$n" -- "$@"
    rate "$out"
}

# bench MODE ARGS...: runs both fuzzers on the same command line.
# AFL_TARGET, when set, replaces the first word of it for afl-fuzz (its own
# compiler's build of the same program).
bench() {
    local mode=$1
    shift
    local fz
    fz=$(run_fz "fz-$mode" "$mode" "$@")
    local afl_cmd=("$@")
    [ -n "${AFL_TARGET:-}" ] && afl_cmd[0]=$AFL_TARGET
    if command -v afl-fuzz >/dev/null; then
        AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
            timed "afl-$mode" afl-fuzz -i seeds -o "afl-$mode" -s 1 -E "$(execs_for "$mode")" \
            -- "${afl_cmd[@]}"
        if [ ! -f "$w/afl-$mode/default/fuzzer_stats" ]; then
            # e.g. no free CPU to bind to on a busy machine: say so, go on.
            echo "$mode: fz-fuzz $fz /s, afl-fuzz did not run: $(sed 's/\x1b\[[0-9;]*[a-zA-Z]//g' \
                "$w/afl-$mode.log" | grep -m1 -E 'PROGRAM ABORT|Location' | sed 's/^ *//')"
            return 0
        fi
        local afl
        afl=$(rate "afl-$mode")
        local ratio
        ratio=$(awk -v a="$fz" -v b="$afl" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
        echo "$mode: fz-fuzz $fz /s, afl-fuzz $afl /s, ratio $ratio"
        awk -v r="$ratio" 'BEGIN { exit !(r < 1.0) }' &&
            echo "warning: $mode: fz-fuzz slower than afl-fuzz (goal: ratio >= 1.0)" >&2
    else
        echo "$mode: fz-fuzz $fz /s (afl-fuzz not installed: no ratio)"
    fi
    [ "$mode" = forkserver ] &&
        awk -v a="$fz" -v f="$fork_rate" 'BEGIN { printf "forkserver: %.0f%% of the raw fork rate\n", 100 * a / f }'
    return 0
}

bench forkserver ./branches @@
bench persistent ./persistent
classic=$(FZ_NO_DIRECT=1 run_fz fz-classic persistent ./persistent)
echo "persistent: fz-fuzz with AFL++'s SIGSTOP protocol (FZ_NO_DIRECT=1) $classic /s"

# Clang rows: fz-fuzz on fz-clang builds vs afl-fuzz on afl-clang-fast
# builds of the same sources.  FZ_CC is pinned so a stray one in the
# environment cannot make the fz side a gcc build.
if ! command -v clang >/dev/null || [ ! -e lib/fz/fz-llvm-pass.so ]; then
    echo "clang rows skipped: clang or lib/fz/fz-llvm-pass.so (llvm-dev) is missing"
elif ! command -v afl-clang-fast >/dev/null || ! command -v afl-fuzz >/dev/null; then
    echo "clang rows skipped: afl-clang-fast / afl-fuzz (Debian package afl++) not installed"
else
    for t in rt_branches persistent; do
        FZ_QUIET=1 FZ_CC=clang bin/fz-clang -O1 testcases/$t.c -o "$w/$t-fz-clang" || exit 1
        AFL_QUIET=1 afl-clang-fast -O1 testcases/$t.c -o "$w/$t-afl-clang" >/dev/null 2>&1 ||
            { echo "clang rows skipped: afl-clang-fast cannot build testcases/$t.c"; exit 0; }
    done
    AFL_TARGET=./rt_branches-afl-clang bench clang-forkserver ./rt_branches-fz-clang @@
    AFL_TARGET=./persistent-afl-clang bench clang-persistent ./persistent-fz-clang
fi
