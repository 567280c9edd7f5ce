#!/bin/bash
# bench/clients.sh - does fz's libFuzzer driver give the infrastructure that
# runs libFuzzer targets the same answers as libFuzzer?  Builds one zlib
# harness (bench/clients/zlib_clients.c, with a planted heap over-read) twice,
# with fz-clang and with clang's libFuzzer, both -fsanitize=fuzzer,address
# (and both again as coverage builds), then drives, against each build:
#   - ClusterFuzz's libFuzzer engine (src/clusterfuzz/_internal/bot/fuzzers/
#     libFuzzer/engine.py), unmodified: prepare+fuzz (with its two-step merge
#     of new units), reproduce (crash, timeout, OOM, leak, with ClusterFuzz's
#     stack analyzer on the output; abort and SEGV also in builds without a
#     sanitizer, where the report is the driver's own), minimize_corpus,
#     minimize_testcase, cleanse.  Packages the engine imports but these jobs never use (Google
#     Cloud clients, generated protos, psutil...) are stood in for at import
#     time by bench/clients/cf_stubs.py; nothing is copied or patched;
#   - OSS-Fuzz's base-runner scripts, unmodified: run_fuzzer, reproduce,
#     bad_build_check and coverage;
# all with OSS-Fuzz's own ASAN_OPTIONS/UBSAN_OPTIONS (base-runner's
# Dockerfile), and prints one row per job: what each build's run gave, and
# whether the two verdicts agree.
#
#   bench/clients.sh [CLUSTERFUZZ_SRC [OSSFUZZ_SRC]]
#       (defaults: /work/peers/src/clusterfuzz /work/peers/src/oss-fuzz;
#        fetch google/clusterfuzz and google/oss-fuzz; never commit them)
#   CLIENTS_FUZZ_SECONDS=30 (ClusterFuzz fuzz job and run_fuzzer), CLIENTS_KEEP=1
#   (keep the scratch directory), CLIENTS_JOBS="cf oss speed" (which parts to
#   run; speed: -merge=1 and -runs=N wall time against libFuzzer's, median of 3).
# Needs clang-14 with libclang-rt (libFuzzer), python3, llvm-profdata and
# llvm-cov (coverage job), zlib's Debian source package (fetched once by
# scripts/debsrc.sh).  Exit status: 0 when every verdict agrees.
cd "$(dirname "$0")/.." || exit 1
root=$PWD
cf=$(realpath "${1:-/work/peers/src/clusterfuzz}")
oss=$(realpath "${2:-/work/peers/src/oss-fuzz}")
secs=${CLIENTS_FUZZ_SECONDS:-30}
jobs=${CLIENTS_JOBS:-cf oss speed}
[ -d "$cf/src/clusterfuzz" ] || { echo "clients.sh: no ClusterFuzz source at $cf" >&2; exit 2; }
[ -d "$oss/infra/base-images/base-runner" ] || { echo "clients.sh: no OSS-Fuzz source at $oss" >&2; exit 2; }
export PATH=$root/bin:$PATH
clang=$(command -v clang-14 || command -v clang)
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-clients.XXXXXX")
[ "${CLIENTS_KEEP:-0}" = 1 ] || trap 'rm -rf "$w"' EXIT
echo "scratch: $w"

# OSS-Fuzz's sanitizer options (base-runner Dockerfile), as every job gets them.
eval "$(sed -n 's/^ENV \(ASAN_OPTIONS\|UBSAN_OPTIONS\|MSAN_OPTIONS\|FUZZER_ARGS\)=/export \1=/p' \
    "$oss/infra/base-images/base-runner/Dockerfile")"

# --- zlib, unpacked once (scripts/debsrc.sh; the package is kept in
# bench/out/src/pkgs, like coverage.sh's).
. "$root/scripts/debsrc.sh"
src=$w/zlib
fz_debsrc_unpack zlib "$root/bench/out/src/pkgs" "$src/s" || { echo "clients.sh: no zlib source" >&2; exit 2; }
zsrcs="adler32 crc32 inflate inffast inftrees zutil"

# build NAME CC FLAGS...: $w/NAME/zc, the harness and zlib built with CC.
build() {
    local name=$1 cc=$2 d=$w/$1
    shift 2
    mkdir -p "$d"
    for f in $zsrcs; do
        "$cc" -O1 -g "$@" -fsanitize=fuzzer-no-link -c "$src/s/$f.c" -o "$d/$f.o" 2>>"$d/build.log" || return 1
    done
    "$cc" -O1 -g "$@" -fsanitize=fuzzer -I"$src/s" "$root/bench/clients/zlib_clients.c" "$d"/*.o \
        -o "$d/zc" 2>>"$d/build.log"
}
build fz fz-clang -fsanitize=address || { cat "$w/fz/build.log"; exit 2; }
build lf "$clang" -fsanitize=address || { cat "$w/lf/build.log"; exit 2; }
cov="-fprofile-instr-generate -fcoverage-mapping"
build fzcov fz-clang $cov || { cat "$w/fzcov/build.log"; exit 2; }
build lfcov "$clang" $cov || { cat "$w/lfcov/build.log"; exit 2; }
# And without a sanitizer: a crash report is then the driver's own.
build fzplain fz-clang || { cat "$w/fzplain/build.log"; exit 2; }
build lfplain "$clang" || { cat "$w/lfplain/build.log"; exit 2; }

# --- inputs: seeds, the planted bug, the triggers.
mkdir -p "$w/in/seeds"
python3 - "$w/in" <<'PY'
import sys, zlib, os
d = sys.argv[1]
def raw(data):  # first byte 0 -> raw deflate in zlib_clients.c
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return b'\0' + c.compress(data) + c.flush()
def zl(data):
    return b'\x02' + zlib.compress(data)
seeds = [raw(b'BUX and some text to inflate'), zl(b'hello hello hello hello'),
         raw(b'The quick brown fox jumps over the lazy dog' * 3), zl(bytes(range(64)))]
for i, s in enumerate(seeds):
    open(os.path.join(d, 'seeds', 'seed%d' % i), 'wb').write(s)
open(os.path.join(d, 'crash'), 'wb').write(raw(b'BUG' + b'padding-' * 40))
for k in ('OOM', 'LEAK', 'HANG', 'ABRT', 'SEGV'):
    open(os.path.join(d, k.lower()), 'wb').write(b'ZC:' + k.encode() + b'\0\0\0\0')
PY
echo "built: $w/fz/zc (fz-clang) and $w/lf/zc (clang libFuzzer), their coverage builds and builds without a sanitizer (fzplain, lfplain)"

rows=$w/rows
: >"$rows"
# row JOB FZ_VERDICT LF_VERDICT
row() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$rows"; }

# --- ClusterFuzz's engine.
if [[ " $jobs " == *" cf "* ]]; then
    for b in fz lf; do
        python3 "$root/bench/clients/cf_jobs.py" "$cf/src" "$w/$b/zc" "$w/in" "$w/cf-$b" "$secs" \
            >"$w/cf-$b.out" 2>"$w/cf-$b.log" || echo "cf_jobs.py ($b) failed: see $w/cf-$b.log" >&2
        # The reproductions of abort and SEGV in the builds without a sanitizer.
        python3 "$root/bench/clients/cf_jobs.py" "$cf/src" "$w/${b}plain/zc" "$w/in" "$w/cf-${b}plain" \
            "$secs" plain >>"$w/cf-$b.out" 2>"$w/cf-${b}plain.log" ||
            echo "cf_jobs.py (${b}plain) failed: see $w/cf-${b}plain.log" >&2
    done
    join -t $'\t' <(sort "$w/cf-fz.out") <(sort "$w/cf-lf.out") | while IFS=$'\t' read -r job a b; do
        row "clusterfuzz $job" "$a" "$b"
    done
fi

# --- OSS-Fuzz's base-runner scripts.
if [[ " $jobs " == *" oss "* ]]; then
    br=$oss/infra/base-images/base-runner
    for b in fz lf; do
        o=$w/oss-$b
        mkdir -p "$o/out" "$o/tmp"
        cp "$w/$b/zc" "$o/out/zc"
        # run_fuzzer: a seed corpus zip beside the target, as OSS-Fuzz builds ship it.
        (cd "$w/in/seeds" && python3 -c "import zipfile,sys,os; z=zipfile.ZipFile(sys.argv[1],'w'); [z.write(f) for f in sorted(os.listdir('.'))]" "$o/out/zc_seed_corpus.zip")
        mkdir -p "$o/corpus" && cp "$w/in/seeds/"* "$o/corpus/"
        # run_fuzzer (libfuzzer engine): finds the planted bug?
        ( cd "$o" && env PATH="$br:$PATH" OUT="$o/out" FUZZING_ENGINE=libfuzzer SANITIZER=address \
            RUN_FUZZER_MODE=batch CORPUS_DIR="$o/corpus" SKIP_SEED_CORPUS= TMPDIR="$o/tmp" \
            timeout $((secs + 60)) bash "$br/run_fuzzer" zc -max_total_time=$secs -seed=1 \
            >"$o/run_fuzzer.log" 2>&1 )
        rc=$?
        art=$(sed -n "s/.*Test unit written to \(.*crash-[0-9a-f]*\).*/\1/p" "$o/run_fuzzer.log" | head -n 1)
        v="exit $rc"
        grep -q 'ERROR: AddressSanitizer: heap-buffer-overflow' "$o/run_fuzzer.log" && v="$v, heap-buffer-overflow"
        [ -n "$art" ] && v="$v, crash- artifact"
        echo "$v" >"$o/v.run_fuzzer"
        # reproduce: OSS-Fuzz's `reproduce` (run_fuzzer with -runs=100 TESTCASE).
        for t in crash hang oom leak; do
            ( cd "$o" && env PATH="$br:$PATH" OUT="$o/out" TESTCASE="$w/in/$t" ZC_TRIGGERS=1 \
                timeout 120 bash "$br/reproduce" zc -runs=100 -timeout=5 >"$o/reproduce-$t.log" 2>&1 )
            rc=$?
            v="exit $rc"
            for pat in 'AddressSanitizer: heap-buffer-overflow' 'libFuzzer: timeout' \
                'libFuzzer: out-of-memory' 'LeakSanitizer: detected memory leaks'; do
                grep -q "$pat" "$o/reproduce-$t.log" && v="$v, $pat"
            done
            echo "$v" >"$o/v.reproduce-$t"
        done
        # bad_build_check: OSS-Fuzz's checks of a build (instrumentation, edge counts, startup).
        ( cd "$o" && env PATH="$br:$PATH" OUT="$o/out" FUZZING_ENGINE=libfuzzer SANITIZER=address \
            ARCHITECTURE=x86_64 TMPDIR="$o/tmp" timeout 300 bash "$br/bad_build_check" "$o/out/zc" \
            >"$o/bad_build_check.log" 2>&1 )
        rc=$?
        echo "exit $rc$(grep -qi 'BAD BUILD' "$o/bad_build_check.log" && echo ', BAD BUILD')" >"$o/v.bad_build_check"
    done
    for v in run_fuzzer reproduce-crash reproduce-hang reproduce-oom reproduce-leak bad_build_check; do
        row "oss-fuzz $v" "$(cat "$w/oss-fz/v.$v")" "$(cat "$w/oss-lf/v.$v")"
    done
    # coverage: OSS-Fuzz's coverage script on the coverage builds, over the
    # seeds.  Stood in for: llvm-profdata/llvm-cov of clang's own version
    # (the image has one LLVM), profraw_update.py (it rewrites clang-14's
    # .profraw for the newer LLVM of OSS-Fuzz's image, which makes it
    # unreadable here: a no-op), and Chromium's coverage_utils.py, which the
    # script's coverage_helper runs (no shared libraries here; no
    # post-processing of the report).
    shim=$w/shim
    mkdir -p "$shim"
    for t in llvm-profdata llvm-cov; do
        ln -sf "$(command -v "$t-14" || command -v "$t")" "$shim/$t"
    done
    printf 'import sys\nsys.exit(0)\n' >"$shim/coverage_utils.py"
    printf '#!/bin/sh\nexit 0\n' >"$shim/profraw_update.py"
    chmod +x "$shim/profraw_update.py"
    for b in fzcov lfcov; do
        o=$w/oss-$b
        mkdir -p "$o/out" "$o/corpus/zc" "$o/tmp"
        cp "$w/$b/zc" "$o/out/zc"
        cp "$w/in/seeds/"* "$o/corpus/zc/"
        ( cd "$o" && env PATH="$shim:$br:$PATH" OUT="$o/out" CORPUS_DIR="$o/corpus" FUZZING_LANGUAGE=c \
            FUZZING_ENGINE=libfuzzer SANITIZER=coverage COVERAGE_EXTRA_ARGS= HTTP_PORT= \
            CODE_COVERAGE_SRC="$shim" \
            TMPDIR="$o/tmp" SRC="$w/zlib" timeout 300 bash "$br/coverage" zc >"$o/coverage.log" 2>&1 )
        rc=$?
        lines=$(python3 - "$o/out/report/linux/summary.json" <<'PY' 2>/dev/null
import json, sys
t = json.load(open(sys.argv[1]))['data'][0]['totals']
print('%.2f%% lines, %.2f%% functions' % (t['lines']['percent'], t['functions']['percent']))
PY
)
        echo "exit $rc, ${lines:-no report}" >"$o/v.coverage"
    done
    row "oss-fuzz coverage" "$(cat "$w/oss-fzcov/v.coverage")" "$(cat "$w/oss-lfcov/v.coverage")"
fi

# --- speed: -merge=1 over 2x400 files and -runs=100000 from the seeds, each
# build three times (median), the planted bug off (ZC_NOBUG=1).
if [[ " $jobs " == *" speed "* ]]; then
    python3 - "$w/speed" <<'PY'
import os, random, sys, zlib
random.seed(1)
for d in ('A', 'B'):
    os.makedirs(os.path.join(sys.argv[1], d), exist_ok=True)
    for i in range(400):
        data = bytes(random.choice(b'abcdefghij \n<>{}0123') for _ in range(random.randint(1, 300)))
        k = random.randint(0, 2)
        if k == 0:
            c = zlib.compressobj(random.randint(0, 9), zlib.DEFLATED, -15)
            s = b'\0' + c.compress(data) + c.flush()
        elif k == 1:
            s = b'\x02' + zlib.compress(data, random.randint(0, 9))
        else:
            c = zlib.compressobj(6, zlib.DEFLATED, 31)
            s = b'\x01' + c.compress(data) + c.flush()
        if random.random() < 0.3:
            s = s[:random.randint(1, len(s))]
        open(os.path.join(sys.argv[1], d, 'f%d' % i), 'wb').write(s)
PY
    # median SECONDS of three runs of: CMD...
    median() {
        local t=()
        for i in 1 2 3; do
            /usr/bin/time -f %e -o "$w/time.out" "$@" >/dev/null 2>&1
            t+=("$(tail -n 1 "$w/time.out")")
        done
        printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
    }
    for b in fz lf; do
        s=$w/speed
        merge_t=$(cd "$s" && median sh -c "rm -rf out && mkdir out && ZC_NOBUG=1 $w/$b/zc -merge=1 out A B")
        runs_t=$(cd "$s" && median sh -c "rm -rf c && mkdir c && cp $w/in/seeds/* c/ && ZC_NOBUG=1 $w/$b/zc -runs=100000 -seed=1 c")
        echo "$merge_t $runs_t" >"$s/$b"
    done
    read -r fm fr <"$w/speed/fz"
    read -r lm lr <"$w/speed/lf"
    # verdict: within 1.5x of libFuzzer's time (libFuzzer's own row: the reference).
    within() { python3 -c "print('within 1.5x; %.2fx' % ($1 / max($2, 0.01)) if $1 <= 1.5 * max($2, 0.01) else 'SLOWER than 1.5x; %.2fx' % ($1 / max($2, 0.01)))"; }
    row "speed -merge=1 2x400 files" "$(within "$fm" "$lm") (${fm} s)" "within 1.5x; reference (${lm} s)"
    row "speed -runs=100000" "$(within "$fr" "$lr") (${fr} s)" "within 1.5x; reference (${lr} s)"
    echo "speed (median of 3): -merge=1 fz ${fm} s, libFuzzer ${lm} s; -runs=100000 fz ${fr} s, libFuzzer ${lr} s"
fi

# --- the table.
echo
printf '%-34s | %-46s | %-46s | %s\n' "job" "fz (fz-clang)" "libFuzzer (clang)" "same verdict"
printf -- '-%.0s' {1..140}
echo
bad=0
while IFS=$'\t' read -r job a b; do
    # A verdict is what the client decides: the detail after ';' (numbers) may differ.
    same=no
    [ "${a%%;*}" = "${b%%;*}" ] && same=yes
    [ $same = no ] && bad=$((bad + 1))
    printf '%-34s | %-46s | %-46s | %s\n' "$job" "$a" "$b" "$same"
done <"$rows"
echo
echo "$bad job(s) with different verdicts"
[ $bad = 0 ]
