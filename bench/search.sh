#!/bin/bash
# bench/search.sh - fz-fuzz's search beside libFuzzer's at an equal number
# of runs: the in-process harnesses of bench/coverage.sh (zlib-lf,
# expat-lf), seeds 1..N, the same starting corpus, then each final
# corpus measured the way coverage.sh measures it (edges on the neutral
# fz-cc -O1 build, line and branch % by one gcov replay, corpus entries,
# largest and total bytes) and the median per fuzzer.  Bounded by runs,
# not seconds, so it means the same on a loaded machine (run it under
# nice) and a change to the search is judged by what it finds per run.
#
#   bench/search.sh                          # zlib-lf expat-lf, 1,000,000 runs, seeds 1 2 3
#   SEARCH_RUNS=2000000 bench/search.sh zlib-lf
#   SEARCH_FUZZERS=fz SEARCH_FZ_ARGS='-p rare' bench/search.sh   # fz only, with options
#   BENCH_FZ_CC=bin/fz-clang bench/search.sh   # fz's target built by fz-clang (LLVM)
#
# Environment: SEARCH_RUNS (per campaign: fz-fuzz -E N, libFuzzer
# -runs=N; default 1000000), SEARCH_SEEDS (default "1 2 3": fz-fuzz -s N,
# libFuzzer -seed=N), SEARCH_FUZZERS (default "fz libfuzzer"),
# SEARCH_FZ_ARGS (more fz-fuzz options), SEARCH_LF_ARGS (more libFuzzer
# options, e.g. -entropic=0 to see what its schedule is worth),
# SEARCH_KEEP=DIR (keep every final corpus in DIR/TARGET-FUZZER-SEED and
# gcov's per-line files of its replay in DIR/TARGET-FUZZER-SEED.gcov, for
# bench/search-lines.py), and coverage.sh's BENCH_FZ, BENCH_FZ_CC,
# BENCH_CFLAGS, BENCH_FZ_CFLAGS.  Builds, sources and the measuring are
# coverage.sh's (sourced); the replay goes into a private copy of its gcov
# build, so two runs may go at once.  Columns: edges, lines and branches
# (counts, summed over the project's .c files), largest and total bytes,
# entries.  Results and what they meant: bench/README.md, "Search, issue 21".
export BENCH_FUZZERS=fz
# shellcheck source=bench/coverage.sh
. "$(dirname "$0")/coverage.sh"
runs=${SEARCH_RUNS:-1000000}
read -r -a sseeds <<<"${SEARCH_SEEDS:-1 2 3}"
read -r -a sfuzzers <<<"${SEARCH_FUZZERS:-fz libfuzzer}"
targets=("$@")
[ $# -eq 0 ] && targets=(zlib-lf expat-lf)
marks=99999 # one mark past the end: the final corpus (measure's edge column)

# srun FUZZER TARGET SEED: one campaign into $w/r-FUZZER, bounded by runs.
srun() {
    local f=$1 t=$2 s=$3 r=$w/r-$1
    rm -rf "$r" "$r".* && mkdir -p "$r"
    cd "$w" || return
    case $f in
    fz)
        env FZ_NO_AFFINITY=1 "$fzbin" -q ${SEARCH_FZ_ARGS:-} -s "$s" -E "$runs" -i "seeds-$t" \
            -o "$r/out" -- "./fz-$t" >fz.log 2>&1 ;;
    libfuzzer)
        mkdir -p "$r/corpus" && cp "seeds-$t"/* "$r/corpus/"
        "./libfuzzer-$t" -seed="$s" -runs="$runs" -print_final_stats=1 ${SEARCH_LF_ARGS:-} "$r/corpus/" \
            >libfuzzer.log 2>&1
        cp -al "$r/corpus" "$r/corpus.snap-$marks" ;;
    esac
}

# The fields of measure's line this script shows, lines and branches as
# counts: the .gcda files of measure's replay are still there.
pick() {
    local m lb
    read -r m
    lb=$(cd "$gcovdir" && gcov -b -n h-*.gcno 2>/dev/null | awk '
        /^File / { c = ($2 ~ /\.c.$/ && $2 !~ /bench\/real/) }
        c && /^Lines executed:/ { split($0, a, ":"); split(a[2], p, "%"); split($0, b, " of "); lh += p[1] * b[2] / 100 }
        c && /^Taken at least once:/ { split($0, a, ":"); split(a[2], p, "%"); split($0, b, " of "); bh += p[1] * b[2] / 100 }
        END { printf "%.0f %.0f", lh, bh }')
    echo "$m" | awk -v lb="$lb" '{ print $1, lb, $(NF-2), $(NF-1), $NF }'
}

for t in "${targets[@]}"; do
    echo "== $t: building"
    FZ_QUIET=1 build "$t" "$w/fz-$t" "$fzcc" $fzcflags >"$w/fz-build.log" 2>&1 ||
        { echo "$t: fz build failed:"; tail -n 5 "$w/fz-build.log"; continue; }
    neutral=$(neutralbuild "$t") || { echo "$t: no neutral build"; continue; }
    privategcov "$t" || { echo "$t: no gcov build"; continue; }
    x=$(cached libfuzzer "$t" clang $cflags) && ln -sf "$x" "$w/libfuzzer-$t" ||
        { echo "$t: no libFuzzer build"; continue; }
    seeds "$t" "$w/seeds-$t"
    echo "== $t: $runs runs, seeds ${sseeds[*]}, fz-fuzz options: ${SEARCH_FZ_ARGS:-none}, libFuzzer options: ${SEARCH_LF_ARGS:-none}"
    printf '%-14s%8s%7s%7s%9s%9s%8s\n' run edges lines branch largest total entries
    for f in "${sfuzzers[@]}"; do
        : >"$w/rows-$f"
        for s in "${sseeds[@]}"; do
            srun "$f" "$t" "$s"
            r=$(measure "$f" "$t" | pick)
            echo "$r" >>"$w/rows-$f"
            printf '%-14s%8s%7s%7s%9s%9s%8s\n' "$f#$s" $r
            [ -n "${SEARCH_KEEP:-}" ] && keep "$f" "$SEARCH_KEEP/$t-$f-$s"
        done
        printf '%-14s%8s%7s%7s%9s%9s%8s\n' "$f med" $(awk '{ for (i = 1; i <= NF; i++) v[i, NR] = $i; nf = NF } END {
            for (i = 1; i <= nf; i++) { n = 0; for (r = 1; r <= NR; r++) a[++n] = v[i, r];
                for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (a[y] + 0 < a[x] + 0) { s = a[x]; a[x] = a[y]; a[y] = s }
                printf "%s ", a[int((n + 1) / 2)] } }' "$w/rows-$f")
    done
done
