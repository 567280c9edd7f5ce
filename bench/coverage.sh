#!/bin/bash
# bench/coverage.sh - coverage over time, fz-fuzz against afl-fuzz, on the
# same bundled target (bench/coverage_target.c) from the same seed, each for
# BENCH_SECONDS (default 20) with -V.
#
# The two fuzzers' own edge counts are not comparable (different
# instrumentation), so coverage is measured one way for both: every queue
# entry is replayed through fz-showmap on the fz-cc build of the target, and
# the union of slots hit by entries whose name says time:<= T ms is the
# coverage at T.  (Both fuzzers put time:MS in queue names.)  Prints a table
# and the final ratio; it never fails on the ratio (a loaded machine should
# not break `make bench`).  Also prints the runs fz-fuzz spent minimizing
# (per new entry, and as a share of all runs).
cd "$(dirname "$0")/.." || exit 1
root=$PWD
secs=${BENCH_SECONDS:-20}
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-cov.XXXXXX")
trap 'rm -rf "$w"' EXIT

# FZ_QUIET is fz-cc's (its per-file report line); fz-fuzz is quiet by -q.
FZ_QUIET=1 bin/fz-cc -O1 bench/coverage_target.c -o "$w/fz-target" || exit 1
mkdir "$w/seeds" && printf 'let x = 1;\n' >"$w/seeds/a"

(cd "$w" && "$root/bin/fz-fuzz" -q -s 1 -V "$secs" -i seeds -o fz -- ./fz-target @@ >fz.log 2>&1)
fuzzers=(fz)
if command -v afl-fuzz >/dev/null && command -v afl-clang-fast >/dev/null; then
    AFL_QUIET=1 afl-clang-fast -O1 bench/coverage_target.c -o "$w/afl-target" >/dev/null 2>&1 &&
        (cd "$w" && AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
            AFL_NO_AFFINITY=1 afl-fuzz -i seeds -o afl -s 1 -V "$secs" -- ./afl-target @@ \
            >afl.log 2>&1) && fuzzers+=(afl)
else
    echo "afl-fuzz / afl-clang-fast not installed: fz-fuzz only"
fi

# slots FUZZER: "time_ms slot" for every slot each queue entry hits.
slots() {
    local f
    for f in "$w/$1"/default/queue/id:*; do
        local t
        t=$(basename "$f" | sed -n 's/.*time:\([0-9]*\).*/\1/p')
        "$root/bin/fz-showmap" -q -e -o - -- "$w/fz-target" @@ <"$f" 2>/dev/null |
            awk -F: -v t="${t:-0}" '{ print t, $1 }'
    done
}
marks="1 2 5 10 20 30 60 120 300"
printf '%-10s' "time (s)"
for m in $marks; do [ "$m" -le "$secs" ] && printf '%8s' "$m"; done
echo "   (edges, measured on the fz-cc build)"
declare -A final
for fz in "${fuzzers[@]}"; do
    slots "$fz" >"$w/$fz.slots"
    printf '%-10s' "$fz"
    for m in $marks; do
        [ "$m" -le "$secs" ] || continue
        printf '%8s' "$(awk -v lim=$((m * 1000)) '$1 <= lim { s[$2] = 1 } END { print length(s) }' "$w/$fz.slots")"
    done
    final[$fz]=$(awk '{ s[$2] = 1 } END { print length(s) }' "$w/$fz.slots")
    echo "   (final $((final[$fz])), queue $(ls "$w/$fz/default/queue" | grep -c '^id:'))"
done
if [ -n "${final[afl]:-}" ]; then
    awk -v a="${final[fz]}" -v b="${final[afl]}" \
        'BEGIN { printf "coverage ratio fz/afl after %s s: %.2f\n", '"$secs"', (b > 0 ? a / b : 0) }'
fi
# What minimization cost fz-fuzz (fuzzer_stats: runs spent shrinking new
# entries and crashes, and the entries fuzzing found).
stat() { sed -n "s/^$1 *: //p" "$w/fz/default/fuzzer_stats"; }
awk -v m="$(stat minimize_execs)" -v n="$(stat corpus_found)" -v e="$(stat execs_done)" \
    'BEGIN { printf "fz minimization: %d runs for %d new entries (%.0f per entry, %.1f%% of %d runs)\n", m, n, (n ? m / n : 0), (e ? 100 * m / e : 0), e }'
