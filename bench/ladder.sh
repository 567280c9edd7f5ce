#!/bin/bash
# bench/ladder.sh - execs/s against program size: generated C programs of
# about 1k, 10k, 100k and 300k edges, each fuzzed by fz-fuzz (fz-cc build)
# and AFL++ 4.2x with CmpLog (afl-clang-fast build plus an
# AFL_LLVM_CMPLOG=1 build given with -c, as AFL++'s docs recommend) side
# by side, each on its own CPU, from the same seed.  The slope is what to
# read: a fuzzer whose per-run work grows with the program falls behind
# as the program grows.
#
#   bench/ladder.sh                     # 1k 10k 100k 300k, 30 s each
#   BENCH_SECONDS=60 bench/ladder.sh 1000 300000
#
# The program: F functions of 50 branches each on input bytes (an
# equality test against a constant, so both fuzzers' comparison logging
# sees it, and a range test), picked by the input's first two bytes, so a
# run executes one or two functions, as a run of a large real program
# touches a small part of it; the edges counted are the fz-cc build's.
# The program is split into units of 60 functions, compiled BENCH_JOBS
# (default 2) at a time, -O1 (BENCH_CFLAGS) by both: a 300k-edge program
# in one unit takes GCC most of an hour.  Builds and their objects are
# cached in bench/out/ladder.  Environment: BENCH_SECONDS (default 30), BENCH_CPUS
# (default "0 1"), BENCH_AFLPP (AFL++'s bin dir, default
# /work/peers/build/aflpp/bin; from bench/peers.sh), BENCH_FZ_ARGS.
# Prints one row per size: edges, binary sizes, compile CPU seconds, execs/s of
# each (execs_done / run_time from fuzzer_stats), their ratio, and the CPU
# time each spent per run (perf stat over fuzzer and target; the figure to
# read on a loaded machine).  It
# never fails on the numbers.
cd "$(dirname "$0")/.." || exit 1
root=$PWD
secs=${BENCH_SECONDS:-30}
read -r -a cpus <<<"${BENCH_CPUS:-0 1}"
cflags=${BENCH_CFLAGS:--O1}
aflpp=${BENCH_AFLPP:-/work/peers/build/aflpp/bin}
sizes=("$@")
[ $# -eq 0 ] && sizes=(1000 10000 100000 300000)
out=$root/bench/out/ladder
mkdir -p "$out"
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-ladder.XXXXXX")
trap '[ -n "${BENCH_KEEP:-}" ] || rm -rf "$w"' EXIT
have_afl=1
[ -x "$aflpp/afl-fuzz" ] || { echo "no AFL++ at $aflpp (bench/peers.sh): fz-fuzz only"; have_afl=0; }

# gen EDGES DIR: the program in DIR, about EDGES edges (3 per branch pair
# + a few): units u*.c of at most 60 functions each (about 9k edges, a few
# seconds to compile) and main.c with the table of all functions, so that
# a 300k-edge program is ~35 units that compile in parallel and get cached
# one by one, instead of one unit that GCC takes many minutes on.
gen() {
    python3 - "$1" "$2" <<'EOF'
import sys, random, os
edges, d = int(sys.argv[1]), sys.argv[2]
per = 50                          # branches per function
nf = max(1, edges // (per * 3))   # ~3 edges per branch (test, then, join)
unit = 60                         # functions per unit
r = random.Random(edges)
os.makedirs(d, exist_ok=True)
hdr = ["#include <stddef.h>", "#include <stdint.h>", ""]
for u in range(0, nf, unit):
    o = list(hdr)
    for f in range(u, min(nf, u + unit)):
        o.append("__attribute__((noinline)) unsigned f%d(const uint8_t *d, size_t n)" % f)
        o.append("{\n    unsigned a = %du;" % r.randrange(1 << 16))
        for b in range(per):
            k = r.randrange(2, 64)
            c = r.randrange(256)
            if b % 2 == 0:
                o.append("    if (n > %d && d[%d] == %d) a = a * 31 + %d; else a ^= %d;" % (k, k, c, b, c))
            else:
                o.append("    if (n > %d && d[%d] > %d) a += %d; else a -= d[%d %% n];" % (k, k, c, b + 1, k))
        o.append("    return a;\n}\n")
    open("%s/u%03d.c" % (d, u // unit), "w").write("\n".join(o) + "\n")
o = ["#include <stdint.h>", "#include <stdio.h>", "#include <stdlib.h>", "",
     "static volatile unsigned sink;", "typedef unsigned (*fn_t)(const uint8_t *, size_t);"]
o += ["unsigned f%d(const uint8_t *, size_t);" % f for f in range(nf)]
o.append("static fn_t const fns[%d] = {%s};" % (nf, ", ".join("f%d" % f for f in range(nf))))
o.append("""
int main(int argc, char **argv)
{
    static uint8_t in[1 << 16];
    FILE *fp = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!fp)
        return 1;
    size_t n = fread(in, 1, sizeof in, fp);
    fclose(fp);
    if (n < 2)
        return 0;
    unsigned i = ((unsigned)in[0] << 8 | in[1]) %% %d;
    unsigned a = fns[i](in, n);
    if (a & 1)
        a += fns[(i * 7 + 1) %% %d](in, n);
    sink = a;
    return 0;
}""" % (nf, nf))
open("%s/main.c" % d, "w").write("\n".join(o) + "\n")
EOF
}

# build NAME SRCDIR CC... : out/NAME from the units in out/SRCDIR, each
# unit compiled once (objects cached in out/NAME.o/, BENCH_JOBS at a
# time, default 2), then linked; the CPU time of all compiles (user+sys)
# in out/NAME.time.
build() {
    local name=$1 src=$2
    shift 2
    if [ ! -x "$out/$name" ]; then
        local ob=$out/$name.o
        mkdir -p "$ob"
        ls "$out/$src" | grep '\.c$' | sed 's/\.c$//' |
            xargs -P "${BENCH_JOBS:-2}" -I{} sh -c '[ -e "$1/$2.o" ] && exit 0
                s=$0 o=$1 u=$2; shift 2
                /usr/bin/time -f "%U %S" -o "$o/$u.cpu" "$@" -w -c -o "$o/$u.o.tmp" "$s/$u.c" >"$o/$u.log" 2>&1 &&
                    mv "$o/$u.o.tmp" "$o/$u.o"' "$out/$src" "$ob" {} "$@" $cflags ||
            { cat "$ob"/*.log >"$out/$name.log"; return 1; }
        cat "$ob"/*.log >"$out/$name.log"
        "$@" $cflags -w -o "$out/$name.tmp" "$ob"/*.o >>"$out/$name.log" 2>&1 || return 1
        mv "$out/$name.tmp" "$out/$name"
        cat "$ob"/*.cpu | awk '{ t += $1 + $2 } END { printf "%.1f\n", t }' >"$out/$name.time"
    fi
}

# CPU time per run (fuzzer, forkserver and children, by perf stat), which
# a loaded machine disturbs far less than runs per second of wall time.
pstat=(env)
command -v perf >/dev/null && perf stat -e task-clock true >/dev/null 2>&1 && pstat=(perf stat -x, -e task-clock)
cpu() { # us of CPU per run of the run in $1 (stats in $1.cpu)
    local n
    n=$(sed -n 's/^execs_done *: *//p' "$1/default/fuzzer_stats" 2>/dev/null)
    awk -F, -v n="${n:-0}" '$3 == "task-clock" { ms = $1 } END { if (n > 0 && ms > 0) printf "%d", 1000 * ms / n; else print "-" }' \
        "$1.cpu" 2>/dev/null || echo -
}

eps() { # execs/s of the run in $1
    local s=$1/default/fuzzer_stats
    awk -F' *: *' '$1 == "execs_done" { e = $2 } $1 == "run_time" { t = $2 }
        END { printf "%d", (t > 0 ? e / t : 0) }' "$s" 2>/dev/null || echo 0
}

printf '%8s %8s %10s %10s %8s %8s %10s %10s %7s %9s %9s\n' target edges fz-size afl-size fz-cc/s afl-cc/s \
    fz-execs/s afl-execs/s ratio fz-us/run afl-us/run
for n in "${sizes[@]}"; do
    src=ladder-$n
    [ -e "$out/$src/main.c" ] || gen "$n" "$out/$src"
    FZ_QUIET=0 build "fz-$n" "$src" "$root/bin/fz-cc" || { echo "$n: fz-cc build failed ($out/fz-$n.log)"; continue; }
    edges=$(sed -n 's/.*: \([0-9]*\) edges instrumented in .*/\1/p' "$out/fz-$n.log" | awk '{ t += $1 } END { print t }')
    fzsize=$(stat -c %s "$out/fz-$n")
    aflsize=- afltime=- aeps=-
    if [ $have_afl = 1 ]; then
        AFL_QUIET=1 build "afl-$n" "$src" "$aflpp/afl-clang-fast" &&
            AFL_QUIET=1 AFL_LLVM_CMPLOG=1 build "aflcmp-$n" "$src" "$aflpp/afl-clang-fast" ||
            echo "$n: afl-clang-fast build failed ($out/afl-$n.log)"
        aflsize=$(stat -c %s "$out/afl-$n" 2>/dev/null || echo -)
        afltime=$(cat "$out/afl-$n.time" 2>/dev/null || echo -)
    fi
    mkdir -p "$w/seeds" && printf '\x00\x01hello fuzzing ladder, 64 bytes of seed text to index into....\n' >"$w/seeds/a"
    rm -rf "$w/fz" "$w/afl"
    (cd "$w" && FZ_NO_AFFINITY=1 taskset -c "${cpus[0]}" "${pstat[@]}" -o fz.cpu "$root/bin/fz-fuzz" -q ${BENCH_FZ_ARGS:-} -s 1 \
        -V "$secs" -i seeds -o fz -- "$out/fz-$n" @@ >fz.log 2>&1) &
    if [ $have_afl = 1 ] && [ -x "$out/aflcmp-$n" ]; then
        (cd "$w" && AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
            taskset -c "${cpus[1]:-${cpus[0]}}" "${pstat[@]}" -o afl.cpu "$aflpp/afl-fuzz" -s 1 -V "$secs" -i seeds -o afl \
            -c "$out/aflcmp-$n" -- "$out/afl-$n" @@ >afl.log 2>&1) &
    fi
    wait
    feps=$(eps "$w/fz")
    [ -e "$w/afl/default/fuzzer_stats" ] && aeps=$(eps "$w/afl")
    printf '%8s %8s %10s %10s %8s %8s %10s %10s %7s %9s %9s\n' "$n" "${edges:--}" "$fzsize" "$aflsize" \
        "$(cat "$out/fz-$n.time")" "$afltime" "$feps" "$aeps" \
        "$(awk -v a="$feps" -v b="$aeps" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "-" }')" \
        "$(cd "$w" && cpu fz)" "$(cd "$w" && cpu afl)"
done
echo "(execs/s: each fuzzer's execs_done / run_time over a -V $secs run; ratio fz / AFL++; us/run:"
echo " CPU time of the fuzzer and its target processes per counted run, by perf stat; AFL++ does not count"
echo " the runs of its CmpLog build, so its figure includes them;"
echo " sizes in bytes; compile times: CPU seconds (user+sys) of all the units' compiles, -O1 by default)"
