#!/bin/bash
# bench/cmplog.sh - time to the first crash on the comparison-feedback
# targets (testcases/cmp_*.c: 32+64-bit magic, memcmp key, strcmp keyword,
# 16-bit switch tag, chained header with length + checksum + tag, and the
# transforms: a size field times 4 plus 10, a size plus 8, xor and sum
# trailer bytes, a checksum checked before the fields it covers), fz-fuzz
# against afl-fuzz -c 0 on an AFL_LLVM_CMPLOG=1 afl-clang-fast build of the
# same source, one after the other, same seeds, printed side by side with
# the ratio afl/fz (above 1: fz was faster).
#
# Each run stops at its first crash (fz-fuzz --until-crash,
# AFL_BENCH_UNTIL_CRASH=1) or after BENCH_CMPLOG_SECS (default 60) seconds,
# timed from outside with a nanosecond clock, start-up included.  A run that
# hit the cap prints ">CAP".  fz's row also shows the runs it needed and how
# many of them the input-to-state stage made (cmplog_execs / execs_done).
# fz builds with fz-cc (gcc; BENCH_CMPLOG_CC=clang for fz-clang).  Neither
# fuzzer binds to a CPU (FZ_NO_AFFINITY=1, AFL_NO_AFFINITY=1): afl-fuzz
# refuses to start when every core is bound already, and a time to crash
# needs no same-CPU wake-ups to be fair.
# Without afl-fuzz / afl-clang-fast only fz's column is printed.
cd "$(dirname "$0")/.." || exit 1
root=$PWD
cap=${BENCH_CMPLOG_SECS:-60}
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-cmplog.XXXXXX")
trap 'rm -rf "$w"' EXIT
targets="magic memcmp strcmp switch chain sized trailer chainsum"
fzcc=bin/fz-cc
[ "${BENCH_CMPLOG_CC:-gcc}" = clang ] && fzcc=bin/fz-clang
have_afl=0
command -v afl-fuzz >/dev/null && command -v afl-clang-fast >/dev/null && have_afl=1

seed() { # the same uninformative seed for every target: nothing to copy from
    case $1 in
    strcmp) printf 'hello world\n' ;;
    *) printf 'AAAAAAAAAAAAAAAAAAAA' ;;
    esac
}

for t in $targets; do
    mkdir -p "$w/seeds-$t" && seed "$t" >"$w/seeds-$t/a"
    FZ_QUIET=1 $fzcc -O1 "testcases/cmp_$t.c" -o "$w/fz-$t" || exit 1
    if [ $have_afl = 1 ]; then
        AFL_QUIET=1 AFL_LLVM_CMPLOG=1 afl-clang-fast -O1 "testcases/cmp_$t.c" -o "$w/afl-$t" \
            >/dev/null 2>&1 || have_afl=0
    fi
done

# secs NS: nanoseconds as seconds with 2 decimals.
secs() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }

# timed OUTVAR CMD...: runs CMD, stores its wall time in ns in OUTVAR.
timed() {
    local var=$1 t0 t1
    shift
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    printf -v "$var" '%s' $((t1 - t0))
}

stat_of() { awk -F' *: *' -v k="$2" '$1==k{print $2}' "$1/default/fuzzer_stats" 2>/dev/null; }
crashed() { ls "$1"/default/crashes/id:* >/dev/null 2>&1; }

printf '%-8s %12s %22s %12s %8s\n' target "fz (s)" "fz execs (i2s)" "afl -c 0 (s)" "afl/fz"
for t in $targets; do
    FZ_NO_AFFINITY=1 timed fz_ns "$root/bin/fz-fuzz" -q -s 1 -V "$cap" --until-crash -i "$w/seeds-$t" \
        -o "$w/out-fz-$t" -- "$w/fz-$t" @@
    fz_s=$(secs "$fz_ns")
    crashed "$w/out-fz-$t" || fz_s=">$cap"
    execs="$(stat_of "$w/out-fz-$t" execs_done) ($(stat_of "$w/out-fz-$t" cmplog_execs))"
    afl_s=- ratio=-
    if [ $have_afl = 1 ]; then
        AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 \
            AFL_BENCH_UNTIL_CRASH=1 timed afl_ns afl-fuzz -s 1 -V "$cap" -c 0 \
            -i "$w/seeds-$t" -o "$w/out-afl-$t" -- "$w/afl-$t" @@
        afl_s=$(secs "$afl_ns")
        crashed "$w/out-afl-$t" || afl_s=">$cap"
        # A capped side counts as the cap: the ratio is then a lower bound.
        ratio=$(awk -v a="$afl_ns" -v f="$fz_ns" 'BEGIN { printf "%.1f", a / (f > 0 ? f : 1) }')
        case $afl_s in ">"*) ratio=">=$ratio" ;; esac
        case $fz_s in ">"*) ratio="<=$ratio" ;; esac
    fi
    printf '%-8s %12s %22s %12s %8s\n' "$t" "$fz_s" "$execs" "$afl_s" "$ratio"
done
[ $have_afl = 1 ] || echo "(afl-fuzz or afl-clang-fast not installed: fz only)"
