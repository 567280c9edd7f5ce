#!/bin/bash
# bench/value-profile.sh - what value profile buys on a long hash-like
# compare chain (testcases/vp_chain.c: VP_STAGES 32-bit checks on
# bit-permuted input words; BENCH_VP_STAGES, default 4): runs to the
# crash for seeds 1..BENCH_VP_TRIALS (default 3), each capped at
# BENCH_VP_EXECS runs (default 2000000).
#
#   fz                fz-fuzz (comparison feedback on, the default)
#   fz vp             fz-fuzz --value-profile
#   fz nocmp          FZ_NO_CMPLOG=1: edges only
#   fz nocmp vp       FZ_NO_CMPLOG=1 --value-profile: distances only
#   ./h vp            ./harness -use_value_profile=1 corpus/ (fz's driver)
#   libFuzzer         clang's, default flags
#   libFuzzer vp      clang's, -use_value_profile=1
#
# A cell is the runs to the crash, or "none" when the cap came first.
cd "$(dirname "$0")/.." || exit 1
trials=${BENCH_VP_TRIALS:-3}
cap=${BENCH_VP_EXECS:-2000000}
stages=${BENCH_VP_STAGES:-4}
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-vp.XXXXXX")
trap 'rm -rf "$w"' EXIT
mkdir "$w/seeds" && head -c $((4 * stages)) /dev/zero >"$w/seeds/zero"

FZ_QUIET=1 bin/fz-cc -O1 -fsanitize=fuzzer -DVP_STAGES="$stages" testcases/vp_chain.c -o "$w/fz" || exit 1
have_lf=0
clang -O1 -fsanitize=fuzzer -DVP_STAGES="$stages" testcases/vp_chain.c -o "$w/lf" 2>/dev/null && have_lf=1

fz_run() { # SEED ENV... [-- fz-fuzz options]
    local s=$1 o=$w/o-$RANDOM
    shift
    local opts=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
    [ "${1:-}" = -- ] && shift
    env "${opts[@]}" bin/fz-fuzz -q -s "$s" -E "$cap" --until-crash "$@" -i "$w/seeds" -o "$o" \
        -- "$w/fz" >/dev/null 2>&1
    local rc=$?
    local n
    n=$(sed -n 's/^execs_done *: //p' "$o/default/fuzzer_stats")
    [ $rc = 3 ] && echo "$n" || echo "none"
    rm -rf "$o"
}

harness_run() { # SEED: fz's driver with libFuzzer's flag
    local d=$w/h-$RANDOM
    mkdir -p "$d/corpus" && cp "$w/seeds/zero" "$d/corpus/"
    (cd "$d" && "$w/fz" -seed="$1" -runs="$cap" -use_value_profile=1 corpus/ >log 2>&1)
    ls "$d"/crash-* >/dev/null 2>&1 && echo "found" || echo "none"
    rm -rf "$d"
}

lf_run() { # SEED FLAGS...
    local d=$w/l-$RANDOM s=$1
    shift
    mkdir -p "$d/corpus" && cp "$w/seeds/zero" "$d/corpus/"
    (cd "$d" && "$w/lf" -seed="$s" -runs="$cap" -print_final_stats=1 "$@" corpus >log 2>&1)
    local n
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log")
    ls "$d"/crash-* >/dev/null 2>&1 && echo "$n" || echo "none"
    rm -rf "$d"
}

printf '%-5s %-9s %-9s %-9s %-11s %-7s %-10s %-12s\n' seed fz "fz vp" "fz nocmp" "fz nocmp vp" \
    "./h vp" libFuzzer "libFuzzer vp"
for s in $(seq 1 "$trials"); do
    a=$(fz_run "$s")
    b=$(fz_run "$s" -- --value-profile)
    c=$(fz_run "$s" FZ_NO_CMPLOG=1)
    d=$(fz_run "$s" FZ_NO_CMPLOG=1 -- --value-profile)
    e=$(harness_run "$s")
    f=- g=-
    if [ $have_lf = 1 ]; then
        f=$(lf_run "$s")
        g=$(lf_run "$s" -use_value_profile=1)
    fi
    printf '%-5s %-9s %-9s %-9s %-11s %-7s %-10s %-12s\n' "$s" "$a" "$b" "$c" "$d" "$e" "$f" "$g"
done
