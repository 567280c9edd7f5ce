#!/bin/bash
# tests/farm/farm.sh - the build farm: real Debian source packages built with
# fz-cc (GCC plugin) and fz-clang (LLVM pass) at the flags their own build
# systems choose, with their own test suites run on the instrumented builds.
#
#   tests/farm/farm.sh [PROJECT...]          (or: make farm FARM_PROJECTS=...)
#
# One recipe per project, tests/farm/NAME.sh, says which source package to
# fetch and how its build system configures, builds and tests (see
# tests/farm/README.md).  For each project and each compiler in
# FARM_COMPILERS the script
#   1. fetches the source with `apt-get source --download-only` into
#      FARM_CACHE (once; a deb-src entry is added when the machine has none)
#      and unpacks a fresh copy with dpkg-source;
#   2. builds it with the plain compiler (for the build-time ratio) and with
#      fz's, using the project's default flags (-g -O2 from ./configure,
#      CMAKE_BUILD_TYPE=RelWithDebInfo, meson's debugoptimized, or what its
#      Makefile says), FZ_CC_NO_FALLBACK=1 and the per-file reports on;
#   3. runs the project's test suite on the instrumented build;
#   4. writes one row of the table to FARM_OUT/table.md and prints it.
# With FARM_SWEEP=1 it then builds each project again under each compiler
# at -O0 -O1 -O2 -O3 -Os, with and without -g (CFLAGS/CXXFLAGS in place of
# the project's own; build only) and writes FARM_OUT/sweep.md.
#
# Environment:
#   FARM_PROJECTS   projects to build (default: every tests/farm/*.sh recipe)
#   FARM_COMPILERS  "gcc clang" (default), or one of them
#   FARM_PLAIN      1 (default): also build with the plain compiler, for the
#                   build-time ratio; 0 skips that (the column shows "-")
#   FARM_SWEEP      1: also run the flag sweep
#   FARM_CACHE      downloaded source packages (default tests/out/farm-cache)
#   FARM_OUT        work trees, logs and tables (default tests/out/farm)
#   FARM_JOBS       parallel jobs for tests and sweep builds (default 2)
#   FARM_TIME_JOBS  parallel jobs for the timed builds, plain and fz at the
#                   project's default flags (default 1: two compiles on the
#                   two CPUs of a small machine slow each other down, and
#                   the CPU seconds of a -j2 build swing by a third from
#                   one run to the next; at -j1 by less, though a small
#                   project's ratio still moves by +-0.3 on a two-CPU VM)
#   FARM_TIME_ROUNDS timed rounds (default 1).  With N > 1 the plain and fz
#                   builds at the project's flags are repeated, build only,
#                   alternating plain and fz, until each has N; the table
#                   shows the medians and their ratio, and the log line each
#                   round's seconds
#   FARM_NO_FALLBACK 1 (default): FZ_CC_NO_FALLBACK=1, a compiler crash with
#                   fz loaded fails the build; 0 lets fz-cc fall back (counted)
#   FARM_KEEP       1: keep the instrumented source trees of passing builds
#
# Exit status: 0 when every build, test suite and sweep build passed with no
# fz-cc fallback; 1 otherwise (the table's "result" column names the step).
set -u
FARM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FZ_ROOT=$(cd "$FARM_DIR/../.." && pwd)
FARM_OUT=${FARM_OUT:-$FZ_ROOT/tests/out/farm}
FARM_CACHE=${FARM_CACHE:-$FZ_ROOT/tests/out/farm-cache}
FARM_COMPILERS=${FARM_COMPILERS:-gcc clang}
FARM_PLAIN=${FARM_PLAIN:-1}
FARM_SWEEP=${FARM_SWEEP:-0}
FARM_JOBS=${FARM_JOBS:-2}
FARM_TIME_JOBS=${FARM_TIME_JOBS:-1}
FARM_TIME_ROUNDS=${FARM_TIME_ROUNDS:-1}
SWEEP_FLAGS=("-O0" "-O1" "-O2" "-O3" "-Os" "-O0 -g" "-O1 -g" "-O2 -g" "-O3 -g" "-Os -g")

die() { echo "farm: $*" >&2; exit 2; }
case $FARM_TIME_ROUNDS in
'' | *[!0-9]* | 0) die "FARM_TIME_ROUNDS must be a whole number of rounds, 1 or more (got '$FARM_TIME_ROUNDS')" ;;
esac
[ -x "$FZ_ROOT/bin/fz-cc" ] || die "bin/fz-cc is not built: run make first (make farm does)"
for c in $FARM_COMPILERS; do
    case $c in
    gcc) ;;
    clang) [ -e "$FZ_ROOT/lib/fz/fz-llvm-pass.so" ] || die "lib/fz/fz-llvm-pass.so is not built (needs clang and llvm-dev)" ;;
    *) die "FARM_COMPILERS takes gcc and clang, not '$c'" ;;
    esac
done
if [ $# -gt 0 ]; then
    projects="$*"
elif [ -n "${FARM_PROJECTS:-}" ]; then
    projects=$FARM_PROJECTS
else
    projects=$(cd "$FARM_DIR" && ls ./*.sh | sed 's|^\./||; s|\.sh$||' | grep -vx farm)
fi
for p in $projects; do
    [ -f "$FARM_DIR/$p.sh" ] && [ "$p" != farm ] || die "no recipe tests/farm/$p.sh (projects: $(cd "$FARM_DIR" && ls | sed -n 's/\.sh$//p' | grep -vx farm | tr '\n' ' '))"
done
mkdir -p "$FARM_OUT" "$FARM_CACHE" || die "cannot create $FARM_OUT or $FARM_CACHE"
FARM_CACHE=$(cd "$FARM_CACHE" && pwd)
FARM_OUT=$(cd "$FARM_OUT" && pwd)

# Builds see only what the recipe and the compiler choice give them.
unset CFLAGS CXXFLAGS CPPFLAGS LDFLAGS FZ_CC FZ_CXX FZ_QUIET FZ_NO_CMP FZ_NO_PRUNE FZ_DENYLIST MAKEFLAGS MFLAGS
# A compiler crash with fz loaded fails the build (FZ_CC_NO_FALLBACK=1)
# instead of being retried without fz: the farm wants none either way.
if [ "${FARM_NO_FALLBACK:-1}" = 1 ]; then export FZ_CC_NO_FALLBACK=1; else unset FZ_CC_NO_FALLBACK; fi
export PATH=$FZ_ROOT/bin:$PATH

# --- sources ---------------------------------------------------------------

. "$FZ_ROOT/scripts/debsrc.sh"

# farm_unpack PKG DIR: a fresh patched source tree of PKG in DIR, from the
# source package kept in FARM_CACHE (downloaded once).
farm_unpack() { fz_debsrc_unpack "$1" "$FARM_CACHE" "$2"; }

# --- the build systems' default steps ---------------------------------------
# A recipe sets pkg, system, lang, and optionally subdir, conf_args,
# cmake_args, meson_args, and overrides any farm_* step below.  Steps run in
# the project's build-system directory with CC/CXX set; FARM_FLAGS is set
# (and exported as CFLAGS/CXXFLAGS) in a sweep build only.

farm_configure() {
    case $system in
    autotools) ./configure $conf_args ;;
    cmake)
        # A sweep build: no build type, so CMAKE_C_FLAGS is just CFLAGS.
        local type=RelWithDebInfo
        [ -z "${FARM_FLAGS:-}" ] || type=
        cmake -S . -B _fzb -G Ninja -DCMAKE_BUILD_TYPE="$type" $cmake_args
        ;;
    meson)
        local type=debugoptimized
        [ -z "${FARM_FLAGS:-}" ] || type=plain
        meson setup _fzb --buildtype="$type" $meson_args
        ;;
    make) : ;;
    esac
}
farm_build() {
    case $system in
    autotools | make) make -j"$FARM_JOBS" ;;
    cmake | meson) ninja -C _fzb -j"$FARM_JOBS" ;;
    esac
}
farm_test() {
    case $system in
    autotools | make) make -j"$FARM_JOBS" check ;;
    cmake) (cd _fzb && ctest -j"$FARM_JOBS" --output-on-failure) ;;
    meson) meson test -C _fzb --num-processes "$FARM_JOBS" --print-errorlogs ;;
    esac
}
# farm_count < test.log: "PASSED TOTAL" from the test suite's own summary.
farm_count() {
    case $system in
    autotools) awk '/^# TOTAL:/ {t += $3} /^# PASS:/ {p += $3} /^# XFAIL:/ {p += $3; } /^# SKIP:/ {t -= $3}
                END {print p + 0, t + 0}' ;;
    cmake) sed -n 's/.*tests passed, \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\).*/\1 \2/p' |
        tail -n 1 | awk '{print $2 - $1, $2}' ;;
    meson) awk '/^Ok:/ {p += $2; t += $2} /^Expected Fail:/ {p += $3; t += $3}
                /^Fail:/ || /^Timeout:/ {t += $2} /^Unexpected Pass:/ {t += $3} END {print p + 0, t + 0}' ;;
    *) echo "? ?" ;;
    esac
}

# --- measuring ---------------------------------------------------------------

# farm_edges LOG...: "FILES EDGES CMPS" from the plugins' per-module reports
# ("fz-cc: N edges instrumented in FILE", "fz-cc: M comparison sites hooked
# in FILE"), each file counted once (libtool compiles a file twice, PIC and
# not; the last report wins).
farm_edges() {
    sed -n 's/^fz-cc: \([0-9]*\) edges instrumented in \(.*\)$/e \2 \1/p
            s/^fz-cc: \([0-9]*\) comparison sites hooked in \(.*\)$/c \2 \1/p' "$@" 2>/dev/null |
        awk '$1 == "e" {e[$2] = $3} $1 == "c" {c[$2] = $3}
             END {for (f in e) {files++; ne += e[f]} for (f in c) nc += c[f]; print files + 0, ne + 0, nc + 0}'
}

# farm_fallbacks DIR: compiler crashes with fz loaded during DIR's build and
# tests: the lines fz-cc appended to FZ_CC_FALLBACK_LOG (docs/fz-cc.md).
# Under FZ_CC_NO_FALLBACK=1 (the default here) each one also failed its
# build step; with FARM_NO_FALLBACK=0 fz-cc rebuilt the file with less of
# fz's instrumentation and the build went on.
farm_fallbacks() {
    if [ -f "$1/fallback.log" ]; then wc -l <"$1/fallback.log"; else echo 0; fi
}

# farm_run NAME CC MODE DIR [FLAGS]: configure, build (timed: the CPU
# seconds, user + system, of every process the build step ran) and, for
# MODE fz without FLAGS, test.  Sets r_step (the step that failed, or "ok"),
# r_cpu.  Logs in DIR/{configure,build,test}.log.
farm_run() {
    local name=$1 cc=$2 mode=$3 dir=$4 flags=${5:-} t
    r_step=ok r_cpu=-
    farm_unpack "$pkg" "$dir/src" || { r_step=fetch; return 1; }
    (
        cd "$dir/src/$subdir" || exit 1
        case $cc-$mode in
        gcc-plain) export CC=gcc CXX=g++ ;;
        gcc-fz) export CC=fz-cc CXX=fz-c++ ;;
        clang-plain) export CC=clang CXX=clang++ ;;
        clang-fz) export CC=fz-clang CXX=fz-clang++ ;;
        esac
        if [ -n "$flags" ]; then export FARM_FLAGS=$flags CFLAGS=$flags CXXFLAGS=$flags; fi
        export FZ_CC_FALLBACK_LOG=$dir/fallback.log
        rm -f "$FZ_CC_FALLBACK_LOG"
        farm_configure >"$dir/configure.log" 2>&1 || exit 11
        TIMEFORMAT='%U %S'
        build_jobs=$FARM_JOBS
        [ -n "$flags" ] || build_jobs=$FARM_TIME_JOBS
        { time FARM_JOBS=$build_jobs farm_build >"$dir/build.log" 2>&1; } 2>"$dir/time" || exit 12
        [ "$mode" = fz ] && [ -z "$flags" ] && [ "${r_no_test:-0}" != 1 ] || exit 0
        farm_test >"$dir/test.log" 2>&1 || exit 13
    )
    case $? in
    0) ;;
    11) r_step=configure ;;
    12) r_step=build ;;
    13) r_step=test ;;
    *) r_step=setup ;;
    esac
    [ -s "$dir/time" ] && r_cpu=$(awk 'END {printf "%.1f", $1 + $2}' "$dir/time")
    [ "$r_step" = ok ]
}

# farm_median N...: the median of the numbers (the mean of the middle two
# for an even count).
farm_median() {
    printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
        if (NR % 2) printf "%.1f", v[(NR + 1) / 2]; else printf "%.1f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# farm_rounds NAME CC BASE: FARM_TIME_ROUNDS - 1 more timed builds each of
# plain and fz at the project's flags (build only), alternating, so that a
# change in the machine's speed falls on both.  The first round's seconds
# are in plain_cpu and fz_cpu; sets them to the medians over all rounds and
# prints every round's seconds.
farm_rounds() {
    local name=$1 cc=$2 base=$3 i mode plains=("$plain_cpu") fzs=("$fz_cpu")
    for ((i = 2; i <= FARM_TIME_ROUNDS; i++)); do
        for mode in plain fz; do
            rm -rf "$base-round" && mkdir -p "$base-round"
            r_no_test=1 farm_run "$name" "$cc" $mode "$base-round" || return 1
            if [ $mode = plain ]; then plains+=("$r_cpu"); else fzs+=("$r_cpu"); fi
        done
    done
    rm -rf "$base-round"
    echo "farm: $name [$fzname] timed rounds: plain ${plains[*]} s, fz ${fzs[*]} s"
    plain_cpu=$(farm_median "${plains[@]}") fz_cpu=$(farm_median "${fzs[@]}")
}

# --- the farm ----------------------------------------------------------------

table=$FARM_OUT/table.md
header='| project | build | lang | compiler | files | edges | cmp sites | plain CPU s | fz CPU s | ratio | fallbacks | tests passed | result |'
{
    echo "$header"
    echo '|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|'
} >"$table.tmp"
sweep=$FARM_OUT/sweep.md
status=0
echo "farm: projects: $projects; compilers: $FARM_COMPILERS; logs in $FARM_OUT/<project>/"
rm -f "$sweep.tmp"
for name in $projects; do
    # A subshell per project: a recipe's variables and step overrides stay
    # with its project.
    (
        pkg= system= lang= subdir=. conf_args= cmake_args= meson_args=
        # shellcheck disable=SC1090
        . "$FARM_DIR/$name.sh"
        [ -n "$pkg" ] && [ -n "$system" ] && [ -n "$lang" ] || die "tests/farm/$name.sh must set pkg, system and lang"
        status=0
        for c in $FARM_COMPILERS; do
            base=$FARM_OUT/$name/$c fzname=fz-${c/gcc/cc}
            plain_cpu=-
            if [ "$FARM_PLAIN" = 1 ]; then
                mkdir -p "$base-plain"
                if farm_run "$name" "$c" plain "$base-plain"; then plain_cpu=$r_cpu; else
                    echo "farm: $name [$c plain]: $r_step failed (the plain compiler: not fz's doing); log: $base-plain/$r_step.log"
                fi
                rm -rf "$base-plain/src"
            fi
            mkdir -p "$base-fz"
            farm_run "$name" "$c" fz "$base-fz"
            step=$r_step fz_cpu=$r_cpu
            logs=("$base-fz/build.log" "$base-fz/test.log")
            read -r files edges cmps < <(farm_edges "${logs[@]}")
            fb=$(farm_fallbacks "$base-fz")
            if [ "$FARM_TIME_ROUNDS" -gt 1 ] && [ "$step" = ok ] && [ "$plain_cpu" != - ]; then
                farm_rounds "$name" "$c" "$base" || {
                    echo "farm: $name [$fzname]: a timed round's $r_step failed; log: $base-round/$r_step.log"
                    step=$r_step
                }
            fi
            tests="- / -"
            if [ -s "$base-fz/test.log" ]; then
                read -r tp tt < <(farm_count <"$base-fz/test.log")
                tests="$tp / $tt"
            fi
            ratio=-
            [ "$plain_cpu" != - ] && [ "$fz_cpu" != - ] &&
                ratio=$(awk -v a="$fz_cpu" -v b="$plain_cpu" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')
            result=ok
            [ "$step" = ok ] || result="$step failed"
            [ "$fb" = 0 ] || result="$result, $fb fallbacks"
            [ "$result" = ok ] || status=1
            row="| $name | $system | $lang | $fzname | $files | $edges | $cmps | $plain_cpu | $fz_cpu | $ratio | $fb | $tests | $result |"
            echo "$row" >>"$table.tmp"
            echo "$row"
            [ "$step" = ok ] || echo "farm: $name [$fzname]: $step failed; log: $base-fz/$step.log"
            [ "$step" = ok ] && [ "${FARM_KEEP:-0}" != 1 ] && rm -rf "$base-fz/src"
            if [ "$FARM_SWEEP" = 1 ]; then
                cells=
                for f in "${SWEEP_FLAGS[@]}"; do
                    d=$FARM_OUT/$name/$c-sweep${f// /}
                    mkdir -p "$d"
                    if farm_run "$name" "$c" fz "$d" "$f"; then
                        n=$(farm_fallbacks "$d")
                        if [ "$n" = 0 ]; then cells="$cells ok |"; else
                            cells="$cells $n fallbacks |"
                            status=1
                        fi
                        rm -rf "$d/src"
                    else
                        cells="$cells $r_step failed |"
                        status=1
                        echo "farm: $name [$fzname $f]: $r_step failed; log: $d/$r_step.log"
                    fi
                done
                echo "| $name | $fzname |$cells" >>"$sweep.tmp"
                echo "farm: $name [$fzname] sweep:$cells"
            fi
        done
        exit $status
    ) || status=1
done
mv "$table.tmp" "$table"
echo
echo "Build farm ($(date -u +%Y-%m-%d), $(gcc -dumpfullversion) / clang $(clang -dumpversion 2>/dev/null); CPU s = user + system of the build step; tests on the fz build):"
cat "$table"
echo "(written to $table)"
if [ "$FARM_SWEEP" = 1 ]; then
    {
        printf '| project | compiler |'
        printf ' %s |' "${SWEEP_FLAGS[@]}"
        printf '\n|---|---|'
        printf -- '---|%.0s' "${SWEEP_FLAGS[@]}"
        printf '\n'
        cat "$sweep.tmp" 2>/dev/null
    } >"$sweep"
    rm -f "$sweep.tmp"
    echo
    echo "Flag sweep (build only, CFLAGS/CXXFLAGS replaced):"
    cat "$sweep"
    echo "(written to $sweep)"
fi
exit $status
