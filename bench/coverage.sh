#!/bin/bash
# bench/coverage.sh - coverage, speed and queue size over time, fz-fuzz
# against afl-fuzz without (afl) and with CmpLog (aflcmp), and on the
# libFuzzer-style targets also against libFuzzer, on real Debian-source
# projects and on the bundled toy target, from the same seeds, one fuzzer
# at a time.
#
#   bench/coverage.sh                       # zlib and expat, 300 s, 3 trials
#   BENCH_SECONDS=90 BENCH_TRIALS=1 bench/coverage.sh zlib
#   bench/coverage.sh zlib-lf expat-lf      # the in-process harnesses
#
# Targets (arguments, default "zlib expat"):
#   zlib      Debian's zlib, bench/real/zlib_inflate.c (inflate into a 4 KiB window)
#   expat     Debian's expat, bench/real/expat_parse.c (XML_Parse in two chunks)
#   zlib-lf   the same work as LLVMFuzzerTestOneInput, bench/real/zlib_fuzzer.c
#   expat-lf  likewise, bench/real/expat_fuzzer.c
#   toy       bench/coverage_target.c, no download
# A file target's harness reads the file @@ names, a new process per run.
# A -lf target is built with -fsanitize=fuzzer three ways and run four:
# fz-fuzz on an fz-cc build (fz's driver: persistent, shared-memory input,
# batches), afl-fuzz and afl-fuzz + CmpLog on afl-clang-fast builds
# (AFL++'s libAFLDriver: persistent, shared-memory input), and libFuzzer
# (clang, in process: `./h -seed=N -max_total_time=S corpus/`, the corpus
# starting as a copy of the seeds; `libfuzzer` row).
# The sources come from `apt-get source` (a deb-src line is added when the
# machine has none; needs root and network once) and are cached under
# bench/out/src, which is never committed.
#
# Environment: BENCH_SECONDS (per run, default 300), BENCH_TRIALS (default
# 3; trial N uses -s N for every fuzzer, -seed=N for libFuzzer), BENCH_FZ
# (the fz-fuzz binary, default bin/fz-fuzz: point it at an older build to
# compare), BENCH_FZ_ARGS (more fz-fuzz options, e.g. -d to measure the
# deterministic stages), BENCH_AFL=0 to skip afl-fuzz, BENCH_LIBFUZZER=0 to
# skip libFuzzer, BENCH_AFFINITY=0 so that neither fz-fuzz nor afl-fuzz
# binds to a CPU (needed where other processes hold every CPU; libFuzzer
# never binds).  The machine should be otherwise idle; runs are sequential.
#
# The fuzzers' own edge counts are not comparable (different
# instrumentation), so coverage is measured one way for all: every queue
# entry is replayed through fz-showmap on one neutral build (fz-cc, GCC,
# -O1; for a -lf target fz's driver, which runs the file @@ names), and the
# union of slots hit by entries whose name says time:<= T ms is the
# coverage at T (fz-fuzz and afl-fuzz put time:MS in queue names).
# libFuzzer's corpus files carry no time, so its corpus is hard-linked at
# each mark while it runs and a file counts from the first snapshot that
# holds it: its last column is its final corpus (plus files it dropped as
# reduced after an earlier mark), and the output says so.  Also per run:
# execs/s over the whole run and in its last minute (each fuzzer's
# fuzzer_stats; libFuzzer's -print_final_stats average, no last minute:
# "-"), fz-fuzz's execs_per_request (runs per hand-over to the target:
# above 1 with batches; "-" for the others), the largest queue entry and
# the queue's total bytes.  Prints one row per run and the median per
# fuzzer; it never fails on the numbers (a loaded machine must not break
# `make bench`).
cd "$(dirname "$0")/.." || exit 1
root=$PWD
secs=${BENCH_SECONDS:-300}
trials=${BENCH_TRIALS:-3}
# fz-fuzz and afl-fuzz bind to a free CPU unless BENCH_AFFINITY=0; on a shared
# machine (no free CPU) afl-fuzz refuses to start, so say 0 there.
affenv=()
[ "${BENCH_AFFINITY:-1}" = 0 ] && affenv=(FZ_NO_AFFINITY=1 AFL_NO_AFFINITY=1)
fzbin=$(realpath "${BENCH_FZ:-bin/fz-fuzz}")
targets=("${@:-zlib}")
[ $# -eq 0 ] && targets=(zlib expat)
src=$root/bench/out/src
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-cov.XXXXXX")
trap 'rm -rf "$w"' EXIT

have_afl=0
if [ "${BENCH_AFL:-1}" != 0 ] && command -v afl-fuzz >/dev/null && command -v afl-clang-fast >/dev/null; then
    have_afl=1
else
    echo "afl-fuzz / afl-clang-fast not installed (or BENCH_AFL=0): afl-fuzz rows skipped"
fi

# fetch PKG: the unpacked Debian source of PKG in $src (cached).
fetch() {
    local d
    d=$(ls -d "$src/$1"-*/ 2>/dev/null | head -n 1)
    if [ -z "$d" ]; then
        mkdir -p "$src"
        if ! grep -rqs '^deb-src\|^Types:.*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
            printf '%s\n' "# Added by fz's bench/coverage.sh: source packages." 'Types: deb-src' \
                'URIs: http://deb.debian.org/debian' 'Suites: bookworm' 'Components: main' \
                'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
                >/etc/apt/sources.list.d/fz-deb-src.sources && apt-get update -qq
        fi
        (cd "$src" && apt-get source -qq "$1") >"$w/apt.log" 2>&1 || {
            tail -n 3 "$w/apt.log" >&2
            return 1
        }
        d=$(ls -d "$src/$1"-*/ | head -n 1)
    fi
    echo "${d%/}"
}

# build TARGET CC OUT: the target's harness built with compiler CC; the
# -lf targets with -fsanitize=fuzzer (fz's driver with fz-cc, libAFLDriver
# with afl-clang-fast, libFuzzer with clang).
build() {
    local t=$1 cc=$2 out=$3 d lf=()
    case $t in *-lf) lf=(-fsanitize=fuzzer) ;; esac
    case $t in
    zlib | zlib-lf)
        d=$(fetch zlib) || return 1
        local h=bench/real/zlib_inflate.c
        [ "$t" = zlib-lf ] && h=bench/real/zlib_fuzzer.c
        $cc "${lf[@]}" -O1 -w -I"$d" -o "$out" "$h" \
            "$d"/{adler32,crc32,inffast,inflate,inftrees,zutil}.c ;;
    expat | expat-lf)
        d=$(fetch expat) || return 1
        local h=bench/real/expat_parse.c
        [ "$t" = expat-lf ] && h=bench/real/expat_fuzzer.c
        $cc "${lf[@]}" -O1 -w -DHAVE_EXPAT_CONFIG_H -Ibench/real -I"$d/expat/lib" -o "$out" \
            "$h" "$d"/expat/lib/{xmlparse,xmlrole,xmltok}.c ;;
    toy)
        $cc -O1 -w -o "$out" bench/coverage_target.c ;;
    esac
}

# seeds TARGET DIR: a few small, valid inputs.
seeds() {
    mkdir -p "$2"
    case ${1%-lf} in
    zlib)
        # First byte: &3 == 0 raw deflate, 1 gzip, else zlib (the harness).
        python3 - "$2" <<'EOF'
import sys, zlib, gzip
d = sys.argv[1]
texts = [b"hello, hello, hello world\n", bytes(range(64)) * 2, b"a" * 100 + b"b" * 20]
for i, t in enumerate(texts):
    open(f"{d}/zlib{i}", "wb").write(b"\x02" + zlib.compress(t, 9))
c = zlib.compressobj(6, zlib.DEFLATED, -15)
open(f"{d}/raw", "wb").write(b"\x00" + c.compress(texts[0]) + c.flush())
open(f"{d}/gzip", "wb").write(b"\x01" + gzip.compress(texts[1], mtime=0))
EOF
        ;;
    expat)
        printf '<?xml version="1.0"?>\n<a x="1"><b>text &amp; more</b><c/></a>\n' >"$2/simple.xml"
        printf '<!DOCTYPE r [<!ENTITY e "v"><!ATTLIST r a CDATA "d">]>\n<r>&e;<![CDATA[x]]><?pi d?><!-- c --></r>\n' >"$2/dtd.xml"
        printf '<n:r xmlns:n="urn:x" xmlns="urn:y"><n:e n:a="1">&#65;&#x42;</n:e></n:r>\n' >"$2/ns.xml" ;;
    toy)
        printf 'let x = 1;\n' >"$2/a" ;;
    esac
}

# run FUZZER TARGET TRIAL: one -V run (libFuzzer: -max_total_time) into $w/run.
run() {
    rm -rf "$w/run"
    # A file harness reads the file @@ names; a -lf harness takes its input
    # from shared memory (the fuzzer sees the driver's persistent and
    # deferred signatures).
    local at=(@@)
    case $2 in *-lf) at=() ;; esac
    if [ "$1" = fz ]; then
        (cd "$w" && env "${affenv[@]}" "$fzbin" -q ${BENCH_FZ_ARGS:-} -s "$3" -V "$secs" -i "seeds-$2" -o run -- "./fz-$2" "${at[@]}" \
            >fz.log 2>&1)
    elif [ "$1" = libfuzzer ]; then
        # libFuzzer's corpus files carry no time:, so the corpus is
        # hard-linked at each mark (cheap; a file it later drops as reduced
        # stays in the snapshot) and measure() dates each file by the first
        # snapshot holding it.  libFuzzer binds to no CPU.
        mkdir -p "$w/run/corpus"
        cp "$w/seeds-$2"/* "$w/run/corpus/"
        (cd "$w" && exec "./libfuzzer-$2" -seed="$3" -max_total_time="$secs" -print_final_stats=1 \
            run/corpus/ >libfuzzer.log 2>&1) &
        local pid=$! t0=$SECONDS m
        for m in $marks; do
            [ "$m" -lt "$secs" ] || break
            while [ $((SECONDS - t0)) -lt "$m" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
            kill -0 "$pid" 2>/dev/null || break
            cp -al "$w/run/corpus" "$w/run/snap-$m" 2>/dev/null
        done
        wait "$pid"
        cp -al "$w/run/corpus" "$w/run/snap-$secs"
        grep -q '^stat::number_of_executed_units' "$w/libfuzzer.log" ||
            { echo "libfuzzer did not finish; its log ends:"; tail -n 5 "$w/libfuzzer.log"; } >&2
        return
    else
        # aflcmp: afl-fuzz with CmpLog, the second build AFL++ needs for it
        # (AFL_LLVM_CMPLOG=1) given with -c, as AFL++'s docs recommend.
        local cmp=()
        [ "$1" = aflcmp ] && cmp=(-c "./aflcmp-$2")
        (cd "$w" && env "${affenv[@]}" AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
            afl-fuzz -i "seeds-$2" -o run -s "$3" -V "$secs" "${cmp[@]}" -- "./afl-$2" "${at[@]}" >"$1.log" 2>&1)
    fi
    [ -e "$w/run/default/fuzzer_stats" ] || { echo "$1 did not run; its log ends:"; tail -n 5 "$w/$1.log"; } >&2
}

# measure FUZZER TARGET: "edges@marks... last_min_eps avg_eps runs_per_request largest
# total entries" of $w/run ("-" where the fuzzer has no such figure).
measure() {
    local q=$w/run/default/queue f t m pat='id:*'
    if [ "$1" = libfuzzer ]; then
        # Each file dated by the first snapshot (mark) holding it: by inode,
        # marks in increasing order.
        for m in $marks; do
            [ -d "$w/run/snap-$m" ] && find "$w/run/snap-$m" -type f -printf "%i $m %p\n"
        done | awk '!seen[$1]++ { print $2 * 1000, $3 }'
    else
        for f in "$q"/id:*; do
            [ -e "$f" ] || continue
            t=$(basename "$f" | sed -n 's/.*time:\([0-9]*\).*/\1/p')
            echo "${t:-0} $f"
        done
    fi >"$w/files"
    while read -r t f; do
        "$root/bin/fz-showmap" -q -e -o - -- "$w/neutral-$2" @@ <"$f" 2>/dev/null |
            awk -F: -v t="$t" '{ print t, $1 }'
    done <"$w/files" >"$w/slots"
    for m in $marks; do
        awk -v lim=$((m * 1000)) '$1 <= lim { s[$2] = 1 } END { printf "%d ", length(s) }' "$w/slots"
    done
    if [ "$1" = libfuzzer ]; then
        # No per-minute figure; the average is libFuzzer's own (runs over
        # its whole run, from -print_final_stats).
        local avg
        avg=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$w/libfuzzer.log")
        printf -- '- %s - ' "${avg:-0}"
        q=$w/run/corpus pat='*'
    else
        local stats=$w/run/default/fuzzer_stats
        stat() { sed -n "s/^$1 *: *//p" "$stats" 2>/dev/null | head -n 1; }
        local execs rt last rpr
        execs=$(stat execs_done)
        rt=$(stat run_time)
        last=$(stat execs_ps_last_min | cut -d. -f1)
        # fz-fuzz only: runs per request to the target (above 1 with batches).
        rpr=$(stat execs_per_request)
        printf '%s %s %s ' "${last:-0}" \
            "$(awk -v e="$execs" -v t="$rt" 'BEGIN { printf "%d", (t > 0 ? e / t : 0) }')" "${rpr:--}"
    fi
    find "$q" -maxdepth 1 -type f -name "$pat" -printf '%s\n' 2>/dev/null |
        awk '{ if ($1 > m) m = $1; s += $1; n++ } END { printf "%d %d %d\n", m, s, n }'
}

marks=""
for m in 10 30 60 120 300 600 1200; do [ "$m" -lt "$secs" ] && marks="$marks $m"; done
marks="$marks $secs"

for t in "${targets[@]}"; do
    FZ_QUIET=1 build "$t" "$root/bin/fz-cc" "$w/fz-$t" || { echo "$t: cannot build, skipped"; continue; }
    FZ_QUIET=1 build "$t" "$root/bin/fz-cc" "$w/neutral-$t"
    fuzzers=(fz)
    [ $have_afl = 1 ] && AFL_QUIET=1 build "$t" afl-clang-fast "$w/afl-$t" >/dev/null 2>&1 && fuzzers+=(afl) &&
        AFL_QUIET=1 AFL_LLVM_CMPLOG=1 build "$t" afl-clang-fast "$w/aflcmp-$t" >/dev/null 2>&1 && fuzzers+=(aflcmp)
    case $t in
    *-lf)
        if [ "${BENCH_LIBFUZZER:-1}" != 0 ] && build "$t" clang "$w/libfuzzer-$t" >/dev/null 2>&1; then
            fuzzers+=(libfuzzer)
        else
            echo "$t: no libFuzzer build (clang -fsanitize=fuzzer) or BENCH_LIBFUZZER=0: libFuzzer skipped"
        fi ;;
    esac
    seeds "$t" "$w/seeds-$t"
    echo "== $t: $secs s x $trials trial(s), seeds $(ls "$w/seeds-$t" | wc -l) files, edges on the fz-cc build"
    printf '%-14s' run
    for m in $marks; do printf '%7ss' "$m"; done
    printf '%11s%10s%9s%10s%10s%9s\n' last-min/s avg/s runs/req largest total entries
    for fz in "${fuzzers[@]}"; do
        : >"$w/rows-$fz"
        for i in $(seq 1 "$trials"); do
            run "$fz" "$t" "$i"
            row=$(measure "$fz" "$t"); [ -n "${BENCH_DEBUG:-}" ] && echo "raw: $row"
            echo "$row" >>"$w/rows-$fz"
            printf '%-14s' "$fz#$i"
            echo "$row" | awk '{ for (i = 1; i <= NF - 6; i++) printf "%8s", $i;
                printf "%11s%10s%9s%10s%10s%9s\n", $(NF-5), $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF }'
        done
        # Median of each column over the trials (the middle value; the
        # lower middle one for an even count).
        printf '%-14s' "$fz med"
        awk '{ for (i = 1; i <= NF; i++) v[i, NR] = $i; nf = NF } END {
            for (i = 1; i <= nf; i++) { n = 0; for (r = 1; r <= NR; r++) a[++n] = v[i, r];
                for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (a[y] < a[x]) { s = a[x]; a[x] = a[y]; a[y] = s }
                m[i] = a[int((n + 1) / 2)] }
            for (i = 1; i <= nf - 6; i++) printf "%8s", m[i];
            printf "%11s%10s%9s%10s%10s%9s\n", m[nf-5], m[nf-4], m[nf-3], m[nf-2], m[nf-1], m[nf] }' "$w/rows-$fz"
    done
    case " ${fuzzers[*]} " in *" libfuzzer "*)
        echo "(libfuzzer: its corpus files carry no time:, so each mark counts the files its corpus held at"
        echo " that mark (snapshots), the last one its final corpus; no last-minute figure; not bound to a CPU)" ;;
    esac
done
