#!/bin/bash
# bench/custom.sh - the structure-aware example (testcases/lf_inflate.c: a
# zlib stream whose *decompressed* bytes must start with "FUZ"): runs to
# the planted bug, fz against clang's libFuzzer, with and without the
# harness's LLVMFuzzerCustomMutator, for seeds 1..BENCH_CUSTOM_TRIALS
# (default 5), each capped at BENCH_CUSTOM_EXECS runs (default 500000).
#
#   fz-fuzz (fz-cc gcc build)       fz-fuzz -s N -E CAP --until-crash
#   fz-fuzz, FZ_NO_CUSTOM=1         the same binary, the mutator not used
#   ./harness corpus/ (fz driver)   -seed=N -runs=CAP, which runs fz-fuzz
#   libFuzzer (clang)               -seed=N -runs=CAP
#   libFuzzer, no custom mutator    built with -DLF_INFLATE_NO_MUTATOR
#
# fz's binary is built by fz-cc (gcc); BENCH_CUSTOM_CC=clang uses fz-clang.
# Each cell is "runs to the crash / seconds" (runs: fz-fuzz's execs_done,
# libFuzzer's stat::number_of_executed_units), or "none/CAP" when the cap
# came first.  Seconds are wall time on a shared machine: the runs column
# is the comparison that does not depend on load.
cd "$(dirname "$0")/.." || exit 1
root=$PWD
trials=${BENCH_CUSTOM_TRIALS:-5}
cap=${BENCH_CUSTOM_EXECS:-500000}
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-custom.XXXXXX")
trap 'rm -rf "$w"' EXIT
seeds=$root/testcases/lf_inflate_seeds

fzcc=bin/fz-cc
[ "${BENCH_CUSTOM_CC:-gcc}" = clang ] && fzcc=bin/fz-clang
FZ_QUIET=1 $fzcc -O1 -fsanitize=fuzzer testcases/lf_inflate.c -lz -o "$w/fz" || exit 1
have_lf=0
if clang -O1 -fsanitize=fuzzer testcases/lf_inflate.c -lz -o "$w/lf" 2>/dev/null &&
    clang -O1 -fsanitize=fuzzer -DLF_INFLATE_NO_MUTATOR testcases/lf_inflate.c -lz -o "$w/lf0"; then
    have_lf=1
fi

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# fz_run NAME ENV... : one fz-fuzz campaign; prints the cell.
fz_run() {
    local s=$1 o=$w/o-$RANDOM
    shift
    local t0 t1
    t0=$(now)
    env "$@" bin/fz-fuzz -q -s "$s" -E "$cap" --until-crash -i "$seeds" -o "$o" -- "$w/fz" >/dev/null 2>&1
    local rc=$?
    t1=$(now)
    local n
    n=$(sed -n 's/^execs_done *: //p' "$o/default/fuzzer_stats")
    [ $rc = 3 ] && echo "$n/$(secs "$t0" "$t1")s" || echo "none/$n"
    rm -rf "$o"
}

# corpus_run SEED: ./harness corpus/ (fz's driver runs fz-fuzz).
corpus_run() {
    local d=$w/c-$RANDOM t0 t1
    mkdir -p "$d/corpus" && cp "$seeds"/* "$d/corpus/"
    t0=$(now)
    (cd "$d" && "$w/fz" -seed="$1" -runs="$cap" corpus/ >log 2>&1)
    t1=$(now)
    local n
    n=$(sed -n 's/.*#\([0-9]*\).*/\1/p' "$d/log" | tail -1)
    ls "$d"/crash-* >/dev/null 2>&1 && echo "~$n/$(secs "$t0" "$t1")s" || echo "none/$cap"
    rm -rf "$d"
}

# lf_run BINARY SEED: clang's libFuzzer.
lf_run() {
    local d=$w/l-$RANDOM t0 t1
    mkdir -p "$d/corpus" && cp "$seeds"/* "$d/corpus/"
    t0=$(now)
    (cd "$d" && "$1" -seed="$2" -runs="$cap" -print_final_stats=1 corpus >log 2>&1)
    t1=$(now)
    local n
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log")
    ls "$d"/crash-* >/dev/null 2>&1 && echo "$n/$(secs "$t0" "$t1")s" || echo "none/$n"
    rm -rf "$d"
}

printf '%-5s %-16s %-16s %-16s %-16s %-16s\n' seed fz-fuzz "fz NO_CUSTOM" "./harness dir/" libFuzzer \
    "libFuzzer plain"
for s in $(seq 1 "$trials"); do
    a=$(fz_run "$s")
    b=$(fz_run "$s" FZ_NO_CUSTOM=1)
    c=$(corpus_run "$s")
    d=- e=-
    if [ $have_lf = 1 ]; then
        d=$(lf_run "$w/lf" "$s")
        e=$(lf_run "$w/lf0" "$s")
    fi
    printf '%-5s %-16s %-16s %-16s %-16s %-16s\n' "$s" "$a" "$b" "$c" "$d" "$e"
done
