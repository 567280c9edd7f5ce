#!/bin/bash
# bench/execs.sh - executions per second, fz-fuzz against afl-fuzz (and
# against libFuzzer for a libFuzzer harness) on the same program, the same
# seeds, in the same run, each ratio printed beside its goal (issue 15):
#
#   row          fz-fuzz runs                  against                      goal
#   forkserver   testcases/rt_branches.c @@    afl-fuzz, same binary        >= 1.2
#   persistent   testcases/persistent.c        afl-fuzz, same binary        >= 5.0
#   forkserver,  testcases/rt_branches.c @@    afl-fuzz on its own build:   >= 1.2
#   own builds   built by fz-cc / fz-clang     afl-gcc-fast / afl-clang-fast
#   libfuzzer    bench/lf_target.c, fz-clang   libFuzzer in-process, the    >= 0.33
#                -fsanitize=fuzzer             same source with clang
#                                              -fsanitize=fuzzer
#
# Each row is measured two ways: as a campaign (each fuzzer fuzzes for
# BENCH_SECONDS, default 10, from the same seeds; the rate is the runs it
# made over the wall time, start-up, calibration and every stage included:
# what a user gets) and as a fixed count of runs (-E / -runs=; 20,000 in
# forkserver mode, 2,000,000 otherwise: BENCH_FORK_EXECS, BENCH_PERSIST_EXECS),
# timed from outside with a nanosecond clock.  The two fuzzers of a row run
# back to back, BENCH_REPEAT times (default 3); the ratio printed is the
# median of the repetitions' ratios, with each of them listed, since this
# machine is shared and a single pair can land on a busy moment.
#
# Also printed: the raw fork()+waitpid() rate (bench/forkrate.c, the
# ceiling for forkserver mode) and the fraction of it each forkserver
# figure reaches; fz-fuzz in persistent mode with AFL++'s SIGSTOP protocol
# (FZ_NO_DIRECT=1) and with one input per hand-over (FZ_NO_BATCH=1), to
# show what the direct loop and its batches (docs/persistent-mode.md) are
# worth; and the forkserver rows with each fuzzer on its own compiler's
# build, where each runtime's cost per run counts: fz-cc against
# afl-gcc-fast (a campaign; Debian's afl-gcc-fast may refuse its GCC, and
# the row then says why), and, when clang support and afl-clang-fast exist,
# fz-clang against afl-clang-fast (a campaign and a fixed count; the
# persistent row too).
#
# Both fuzzers bind themselves and the target to a free CPU (their default).
# In direct mode fz-fuzz can give the target a second free CPU, where both
# sides spin briefly instead of sleeping (docs/persistent-mode.md); it does
# by default only with three free CPUs, so on a 2-CPU machine the
# persistent rows are one CPU against one.  The persistent rows are also
# run with FZ_SPIN=1 (two CPUs for fz-fuzz, when both are free, against
# afl-fuzz's one) and printed as such.  A ratio below its goal gives a warning, never a failure: a
# loaded machine must not break `make bench`.
cd "$(dirname "$0")/.." || exit 1
root=$PWD
secs=${BENCH_SECONDS:-10}
repeat=${BENCH_REPEAT:-3}
fork_execs=${BENCH_FORK_EXECS:-20000}
persist_execs=${BENCH_PERSIST_EXECS:-2000000}
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-execs.XXXXXX")
trap 'rm -rf "$w"' EXIT
gcc -O2 bench/forkrate.c -o "$w/forkrate" || exit 1
FZ_QUIET=1 bin/fz-cc -O1 testcases/rt_branches.c -o "$w/branches" || exit 1
FZ_QUIET=1 bin/fz-cc -O1 testcases/persistent.c -o "$w/persistent" || exit 1
mkdir "$w/seeds" && printf 'hello' >"$w/seeds/a"
mkdir "$w/lf-seeds" && printf '{"a":[1,2.5e3,"x\\n"],"b":true}' >"$w/lf-seeds/a"
have_afl=0
command -v afl-fuzz >/dev/null && have_afl=1
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1

fork_rate=$("$w/forkrate" 20000 | awk '{print $2}')
echo "raw fork()+waitpid(): $fork_rate /s (the forkserver ceiling)"

# timed NAME CMD...: runs CMD in $w, its wall time in ns into NAME.ns.
timed() {
    local name=$1 t0 t1
    shift
    t0=$(date +%s%N)
    (cd "$w" && "$@" >"$name.log" 2>&1)
    t1=$(date +%s%N)
    echo $((t1 - t0)) >"$w/$name.ns"
}

# per_sec NAME EXECS: EXECS over NAME's wall time.
per_sec() { awk -v e="$2" -v ns="$(cat "$w/$1.ns")" 'BEGIN { printf "%.0f", e / (ns > 0 ? ns / 1e9 : 1) }'; }

# stat_of DIR: execs_done from an AFL-layout output directory.
stat_of() { awk -F' *: *' '$1=="execs_done"{print $2}' "$w/$1/default/fuzzer_stats" 2>/dev/null; }

# budget KIND: fz-fuzz / afl-fuzz arguments for a campaign or a fixed count.
budget() {
    case $1 in
    campaign) echo "-V $secs" ;;
    fork) echo "-E $fork_execs" ;;
    *) echo "-E $persist_execs" ;;
    esac
}

# run_aflish TOOL NAME KIND CMD...: one fz-fuzz or afl-fuzz run, prints its rate.
run_aflish() {
    local tool=$1 name=$2 kind=$3
    shift 3
    rm -rf "${w:?}/$name"
    local quiet=()
    [ "$tool" = afl-fuzz ] || quiet=(-q)
    # shellcheck disable=SC2046
    timed "$name" "$tool" "${quiet[@]}" -i "${seeds_dir:-seeds}" -o "$name" -s 1 $(budget "$kind") -- "$@"
    local e
    e=$(stat_of "$name")
    [ -n "$e" ] && per_sec "$name" "$e"
}

# run_libfuzzer NAME KIND BINARY: libFuzzer itself, in-process; prints its rate.
run_libfuzzer() {
    local name=$1 kind=$2 bin=$3 e
    rm -rf "${w:?}/$name.corpus" && cp -r "$w/lf-seeds" "$w/$name.corpus"
    if [ "$kind" = campaign ]; then
        timed "$name" "./$bin" -seed=1 -max_total_time="$secs" "$name.corpus"
    else
        timed "$name" "./$bin" -seed=1 -runs="$persist_execs" "$name.corpus"
    fi
    e=$(sed -n 's/^Done \([0-9]*\) runs in .*/\1/p' "$w/$name.log" | tail -n 1)
    [ -n "$e" ] && per_sec "$name" "$e"
}

# median VALUES...: the middle one (the lower middle for an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END { print v[int((NR + 1) / 2)] }'; }

# row LABEL KIND GOAL FZ_RUNNER... -- OTHER_RUNNER...: BENCH_REPEAT pairs
# of back-to-back runs; prints both median rates and the median ratio
# beside its goal.  A runner prints a rate or nothing (it failed).
row() {
    local label=$1 kind=$2 goal=$3
    shift 3
    local fzr=() other=()
    while [ "$1" != -- ]; do fzr+=("$1"); shift; done
    shift
    other=("$@")
    local fzs=() os=() rs=() i a b unbound=""
    for i in $(seq "$repeat"); do
        a=$("${fzr[@]/@N@/fz-$i}")
        b=$("${other[@]/@N@/other-$i}")
        # afl-fuzz refuses to start when every CPU has a process bound to it
        # (other campaigns on a shared machine): then the pair runs again
        # with neither fuzzer binding, and the row says so.
        if [ -z "$b" ] && grep -q 'No more free CPU cores' "$w/other-$i.log" 2>/dev/null; then
            unbound=" [unbound: no free CPU]"
            a=$(FZ_NO_AFFINITY=1 "${fzr[@]/@N@/fz-$i}")
            b=$(AFL_NO_AFFINITY=1 "${other[@]/@N@/other-$i}")
        fi
        [ -n "$a" ] && fzs+=("$a")
        [ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt 0 ] && {
            os+=("$b")
            rs+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')")
        }
    done
    if [ ${#fzs[@]} = 0 ]; then
        echo "$label: fz-fuzz did not run (see $w)"
        return
    fi
    local fz_m
    fz_m=$(median "${fzs[@]}")
    if [ ${#rs[@]} = 0 ]; then
        # e.g. afl-fuzz finds no free CPU to bind to on a busy machine: say so.
        echo "$label: fz-fuzz $fz_m /s; ${other_name:-the other fuzzer} did not run: $(sed 's/\x1b\[[0-9;]*[a-zA-Z]//g' \
            "$w/other-$repeat.log" 2>/dev/null | grep -m1 -E 'PROGRAM ABORT|ERROR' | sed 's/^ *//')"
        return
    fi
    local r
    r=$(median "${rs[@]}")
    echo "$label: fz-fuzz $fz_m /s, ${other_name:-other} $(median "${os[@]}") /s, ratio $r (goal >= $goal; runs: ${rs[*]})$unbound"
    awk -v r="$r" -v g="$goal" 'BEGIN { exit !(r < g) }' &&
        echo "warning: $label: ratio $r is below its goal $goal" >&2
    if [ "$kind" = fork ] || [ "$kind" = fork-campaign ]; then
        awk -v a="$fz_m" -v f="$fork_rate" -v o="$(median "${os[@]}")" 'BEGIN {
            printf "  fz-fuzz at %.0f%% of the raw fork rate, afl-fuzz at %.0f%%\n", 100 * a / f, 100 * o / f }'
    fi
}

fz=$root/bin/fz-fuzz
if [ $have_afl = 1 ]; then
    other_name=afl-fuzz
    row "forkserver, campaign ${secs} s" fork-campaign 1.2 \
        run_aflish "$fz" @N@ campaign ./branches @@ -- run_aflish afl-fuzz @N@ campaign ./branches @@
    row "forkserver, $fork_execs runs" fork 1.2 \
        run_aflish "$fz" @N@ fork ./branches @@ -- run_aflish afl-fuzz @N@ fork ./branches @@
    row "persistent, campaign ${secs} s" campaign 5.0 \
        run_aflish "$fz" @N@ campaign ./persistent -- run_aflish afl-fuzz @N@ campaign ./persistent
    row "persistent, $persist_execs runs" persistent 5.0 \
        run_aflish "$fz" @N@ persistent ./persistent -- run_aflish afl-fuzz @N@ persistent ./persistent
else
    echo "afl-fuzz (Debian package afl++) is not installed: forkserver and persistent rows skipped"
fi
if [ $have_afl = 1 ]; then
    FZ_SPIN=1 row "persistent, FZ_SPIN=1 (fz-fuzz on two CPUs), campaign ${secs} s" campaign 5.0 \
        run_aflish "$fz" @N@ campaign ./persistent -- run_aflish afl-fuzz @N@ campaign ./persistent
    FZ_SPIN=1 row "persistent, FZ_SPIN=1 (fz-fuzz on two CPUs), $persist_execs runs" persistent 5.0 \
        run_aflish "$fz" @N@ persistent ./persistent -- run_aflish afl-fuzz @N@ persistent ./persistent
fi
classic=$(FZ_NO_DIRECT=1 run_aflish "$fz" fz-classic persistent ./persistent)
echo "persistent: fz-fuzz with AFL++'s SIGSTOP protocol (FZ_NO_DIRECT=1) $classic /s ($persist_execs runs)"
single=$(FZ_NO_BATCH=1 run_aflish "$fz" fz-single persistent ./persistent)
echo "persistent: fz-fuzz direct, one input per hand-over (FZ_NO_BATCH=1) $single /s ($persist_execs runs)"

# The libFuzzer row: the same harness source, libFuzzer in-process against
# fz-fuzz driving fz's -fsanitize=fuzzer build.
if ! command -v clang >/dev/null || [ ! -e lib/fz/fz-llvm-pass.so ]; then
    echo "libfuzzer rows skipped: clang or lib/fz/fz-llvm-pass.so (llvm-dev) is missing"
elif ! clang -O1 -fsanitize=fuzzer bench/lf_target.c -o "$w/lf-libfuzzer" >"$w/lf-build.log" 2>&1; then
    echo "libfuzzer rows skipped: clang -fsanitize=fuzzer does not link (install libclang-rt-14-dev)"
else
    FZ_QUIET=1 FZ_CC=clang bin/fz-clang -O1 -fsanitize=fuzzer bench/lf_target.c -o "$w/lf-fz" || exit 1
    other_name=libFuzzer
    seeds_dir=lf-seeds row "libfuzzer harness, campaign ${secs} s" campaign 0.33 \
        run_aflish "$fz" @N@ campaign ./lf-fz -- run_libfuzzer @N@ campaign lf-libfuzzer
    seeds_dir=lf-seeds row "libfuzzer harness, $persist_execs runs" persistent 0.33 \
        run_aflish "$fz" @N@ persistent ./lf-fz -- run_libfuzzer @N@ persistent lf-libfuzzer
fi

# Own-build rows: each fuzzer on its own compiler's build of the same
# source, so what each runtime costs a run counts too (the rows above share
# one fz-cc binary, where a runtime change helps both fuzzers alike).  GCC:
# fz-fuzz on fz-cc against afl-fuzz on afl-gcc-fast (campaign).
if [ $have_afl = 0 ] || ! command -v afl-gcc-fast >/dev/null; then
    echo "gcc own-build row skipped: afl-gcc-fast / afl-fuzz (Debian package afl++) not installed"
elif ! AFL_QUIET=1 afl-gcc-fast -O1 testcases/rt_branches.c -o "$w/rt_branches-afl-gcc" >"$w/afl-gcc.log" 2>&1; then
    echo "gcc own-build row skipped: afl-gcc-fast cannot build testcases/rt_branches.c: $(sed 's/\x1b\[[0-9;]*[a-zA-Z]//g; s/\x1b[()][A-Z0-9]//g' \
        "$w/afl-gcc.log" | grep -m1 -E 'ABORT|rror' | sed 's/^ *//')"
else
    other_name=afl-fuzz
    row "gcc forkserver, own builds (fz-cc, afl-gcc-fast), campaign ${secs} s" fork-campaign 1.2 \
        run_aflish "$fz" @N@ campaign ./branches @@ -- \
        run_aflish afl-fuzz @N@ campaign ./rt_branches-afl-gcc @@
fi

# Clang rows: fz-fuzz on fz-clang builds vs afl-fuzz on afl-clang-fast
# builds of the same sources (campaign, and fixed counts).  FZ_CC is pinned
# so a stray one in the environment cannot make the fz side a gcc build.
if ! command -v clang >/dev/null || [ ! -e lib/fz/fz-llvm-pass.so ]; then
    echo "clang rows skipped: clang or lib/fz/fz-llvm-pass.so (llvm-dev) is missing"
elif ! command -v afl-clang-fast >/dev/null || [ $have_afl = 0 ]; then
    echo "clang rows skipped: afl-clang-fast / afl-fuzz (Debian package afl++) not installed"
else
    for t in rt_branches persistent; do
        FZ_QUIET=1 FZ_CC=clang bin/fz-clang -O1 testcases/$t.c -o "$w/$t-fz-clang" || exit 1
        AFL_QUIET=1 afl-clang-fast -O1 testcases/$t.c -o "$w/$t-afl-clang" >/dev/null 2>&1 ||
            { echo "clang rows skipped: afl-clang-fast cannot build testcases/$t.c"; exit 0; }
    done
    other_name=afl-fuzz
    row "clang forkserver, own builds (fz-clang, afl-clang-fast), campaign ${secs} s" fork-campaign 1.2 \
        run_aflish "$fz" @N@ campaign ./rt_branches-fz-clang @@ -- \
        run_aflish afl-fuzz @N@ campaign ./rt_branches-afl-clang @@
    row "clang forkserver, $fork_execs runs" fork 1.2 \
        run_aflish "$fz" @N@ fork ./rt_branches-fz-clang @@ -- \
        run_aflish afl-fuzz @N@ fork ./rt_branches-afl-clang @@
    row "clang persistent, $persist_execs runs" persistent 5.0 \
        run_aflish "$fz" @N@ persistent ./persistent-fz-clang -- \
        run_aflish afl-fuzz @N@ persistent ./persistent-afl-clang
fi
exit 0
