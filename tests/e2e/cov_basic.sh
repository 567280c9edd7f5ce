#!/bin/bash
# cov_basic.sh - fz-cov replays a campaign's inputs through a coverage
# build and reports what the compiler's own tool reports for the same
# inputs run one by one: every line's count equal to gcov's (gcc
# --coverage) or llvm-cov's (clang -fprofile-instr-generate), and the same
# line and branch totals.  Also: a crashing input still counts, instances
# and duplicate files, one forkserver, a build of another program and
# moved sources reported, --version.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
[ -x "$FZ_BIN/fz-cov" ] && [ -e "$FZ_ROOT/lib/fz/fz-cov-rt.so" ] || fail "build fz first (make)"
cd "$T" || exit 1
fz-cov --version | grep -Eq '^fz-cov \(fz\) [0-9]' || fail "fz-cov --version: $(fz-cov --version)"

case $FZ_TEST_CC in
gcc) covflags="--coverage" ;;
clang)
    command -v clang >/dev/null || fz_skip "clang is not installed"
    # Debian installs llvm-cov-14 with clang; the bare name only with "llvm".
    v=$(clang -dumpversion | cut -d. -f1)
    profdata=$(command -v "llvm-profdata-$v" || command -v llvm-profdata)
    llvmcov=$(command -v "llvm-cov-$v" || command -v llvm-cov)
    [ -n "$profdata" ] && [ -n "$llvmcov" ] || fz_skip "llvm-profdata / llvm-cov are not installed (apt-get install llvm-$v)"
    covflags="-fprofile-instr-generate -fcoverage-mapping" ;;
esac
mkdir src ref
cp "$FZ_ROOT/testcases/cov_report.c" src/
# shellcheck disable=SC2086
(cd src && plaincc $covflags -O0 -o prog cov_report.c) || fail "cannot build the coverage build"
# shellcheck disable=SC2086
(cd ref && plaincc $covflags -O0 -o prog ../src/cov_report.c) || fail "cannot build the reference build"

# A two-instance campaign: a file synced into the second instance is run once.
mkdir -p out/main/queue out/s1/queue out/main/crashes
printf 'vowels here'  >out/main/queue/id:000000,orig:a
printf 'd12x34'       >out/main/queue/id:000001,orig:b
printf 'zz'           >out/main/queue/id:000002,orig:c
printf 'vxyz'         >out/s1/queue/id:000000,orig:d
cp out/main/queue/id:000001,orig:b out/s1/queue/id:000001,sync:main,src:000001
printf '!crash'       >out/main/crashes/id:000000,sig:06,src:000001,op:havoc
printf 'readme'       >out/main/crashes/README.txt

# The reference: each distinct queue file run on its own by the plain build.
for f in out/main/queue/* out/s1/queue/id:000000*; do
    (cd ref && LLVM_PROFILE_FILE="ref-%p.profraw" ./prog "../$f" >/dev/null) || fail "reference run on $f failed"
done
if [ "$FZ_TEST_CC" = gcc ]; then
    (cd ref && gcov -b prog-cov_report.gcda >gcov.txt 2>&1) || fail "gcov failed"
    # "  COUNT:  LINE:" with ##### for never run, * for unrun blocks.
    awk -F: '$1 !~ /-/ { c = $1; gsub(/[ *]/, "", c); if (c == "#####") c = 0; l = $2 + 0; if (l) print l, c }' \
        ref/cov_report.c.gcov >want.lines
    want_lines=$(grep -A1 "File '.*cov_report.c'" ref/gcov.txt | sed -n 's/Lines executed:\([0-9.]*\)% of \([0-9]*\)/\1 \2/p')
    want_lines=$(echo "$want_lines" | awk '{ printf "%d/%d", $1 * $2 / 100 + 0.5, $2 }')
    want_br=$(grep -A3 "File '.*cov_report.c'" ref/gcov.txt | sed -n 's/Taken at least once:\([0-9.]*\)% of \([0-9]*\)/\1 \2/p' |
        awk '{ printf "%d/%d", $1 * $2 / 100 + 0.5, $2 }')
else
    (cd ref && "$profdata" merge -sparse -o ref.profdata ref-*.profraw) || fail "llvm-profdata failed"
    (cd ref && "$llvmcov" show -instr-profile=ref.profdata prog >show.txt && "$llvmcov" report -instr-profile=ref.profdata prog >report.txt) ||
        fail "llvm-cov failed"
    # "  LINE|  COUNT|source" (no count: no code).
    awk -F'|' 'NF >= 3 && $2 ~ /[0-9]/ { l = $1 + 0; c = $2; gsub(/ /, "", c); print l, c }' ref/show.txt >want.lines
    # TOTAL regions missed cover functions missed executed lines missed cover branches missed cover
    read -r want_lines want_br < <(awk '/^TOTAL/ { printf "%d/%d %d/%d\n", $8 - $9, $8, $11 - $12, $11 }' ref/report.txt)
fi
[ -s want.lines ] || fail "no reference line counts"

# "LINE COUNT" for each counted line of fz-cov's page of cov_report.c.
page_lines() { grep -o '<span id="L[0-9]*" class="[a-z]*"><i>[0-9][0-9]*</i>' "$1" | sed 's/<span id="L\([0-9]*\)".*<i>\([0-9]*\)<\/i>/\1 \2/'; }

mv out/main/crashes out/crashes.kept
fz-cov out rep -- ./src/prog @@ >cov.out 2>cov.err || { cat cov.err; fail "fz-cov failed"; }
grep -q 'one forkserver' cov.err || { cat cov.err; fail "fz-cov did not replay through one forkserver"; }
grep -q '4 inputs (4 queue, 0 crashes; 1 duplicates skipped) from 2 instance' cov.err ||
    { cat cov.err; fail "wrong inputs replayed"; }
page=$(grep -l 'cov_report.c' rep/files/*.html | head -1)
[ -n "$page" ] || fail "no page for cov_report.c"
page_lines "$page" >got.lines
diff want.lines got.lines >lines.diff || { cat lines.diff; fail "line counts differ from the compiler's tool (< $FZ_TEST_CC's tool, > fz-cov)"; }
grep -q "cov_report.c: lines $want_lines (.*), branches $want_br," cov.out ||
    { cat cov.out; fail "totals differ: want lines $want_lines, branches $want_br"; }
grep -q 'class="miss"><i>0</i>.*return x \* 3 + 1' "$page" || fail "the never-called function is not marked unreached"
ok "$(wc -l <want.lines) line counts and totals (lines $want_lines, branches $want_br) equal $FZ_TEST_CC's own tool"

# A static program cannot take the preloaded forkserver: one process per
# input, same counts (nothing left over from the failed start).
if [ "$FZ_TEST_CC" = gcc ] && (cd src && gcc --coverage -O0 -static -o prog-static cov_report.c) 2>/dev/null; then
    fz-cov out rep-static -- ./src/prog-static @@ >cov.out 2>cov.err || { cat cov.err; fail "fz-cov failed on a static program"; }
    grep -q 'one process per input' cov.err || { cat cov.err; fail "no fallback for a static program"; }
    page_lines "$(grep -l 'cov_report.c' rep-static/files/*.html | head -1)" >got-static.lines
    diff want.lines got-static.lines >lines.diff || { cat lines.diff; fail "static program: counts differ from gcov's"; }
    ok "a static program: replayed one process per input, same counts"
fi

# A crashing input: its lines count too (the replay turns the crash into an exit).
mv out/crashes.kept out/main/crashes
fz-cov out rep2 -- ./src/prog @@ >cov.out 2>cov.err || { cat cov.err; fail "fz-cov failed with crashes"; }
page2=$(grep -l 'cov_report.c' rep2/files/*.html | head -1)
grep -q 'class="hit"><i>1</i>.*abort();' "$page2" || fail "the crashing input's abort() line is not counted"
grep -q '5 inputs (4 queue, 1 crashes' cov.err || { cat cov.err; fail "the crash was not replayed"; }
grep -q 'href="files/' rep2/index.html || fail "index.html links no file page"
ok "a crashing input's lines are counted"

# The queue's target was another program: said, report still written.
plaincc -O1 -o other "$FZ_ROOT/testcases/demo.c"
echo "$T/other" >out/main/cmdline
echo "@@" >>out/main/cmdline
fz-cov out rep3 -- ./src/prog @@ >cov.out 2>cov.err || { cat cov.err; fail "fz-cov failed on a mismatch"; }
grep -q 'does not look like a build of the fuzzed target' cov.err || { cat cov.err; fail "mismatch not reported"; }
grep -q 'does not look like a build' rep3/index.html || fail "mismatch not in the report"
fzcc -O1 -o same "$FZ_ROOT/testcases/cov_report.c" 2>/dev/null || fail "fz-cc cannot build cov_report.c"
echo "$T/same" >out/main/cmdline
fz-cov out rep4 -- ./src/prog @@ >cov.out 2>cov.err || { cat cov.err; fail "fz-cov failed"; }
grep -q 'does not look like' cov.err && { cat cov.err; fail "a matching build was called a mismatch"; }
ok "a coverage build of another program is reported; the right one is not"

# An afl-fuzz output directory (its queue/.state and crashes/README.txt are
# not inputs).
if command -v afl-fuzz >/dev/null; then
    mkdir aseeds && printf 'vowels' >aseeds/a
    AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
        afl-fuzz -i aseeds -o aout -E 2000 -- ./same @@ >alog 2>&1 || { tail -5 alog; fail "afl-fuzz -E 2000 failed"; }
    n=$(find aout/default/queue aout/default/crashes -maxdepth 1 -type f -name 'id:*' | wc -l)
    fz-cov aout rep-afl -- ./src/prog @@ >cov.out 2>cov.err || { cat cov.err; fail "fz-cov failed on afl-fuzz's directory"; }
    grep -q "^fz-cov: $n inputs" cov.err || { cat cov.err; fail "want $n inputs from afl-fuzz's directory"; }
    grep -q 'cov_report.c: lines [1-9]' cov.out || { cat cov.out; fail "no counts from afl-fuzz's queue"; }
    ok "afl-fuzz's output directory: $n inputs replayed"
else
    fz_skip_part "afl-fuzz is not installed (apt-get install afl++): afl-fuzz directory not checked"
fi

# Sources moved since the build: said, counts still there.
mv src moved
fz-cov out rep5 -- ./moved/prog @@ >cov.out 2>cov.err || { cat cov.err; fail "fz-cov failed with moved sources"; }
grep -q 'not where the build put them' cov.err || { cat cov.err; fail "moved sources not reported"; }
grep -q "cov_report.c: lines [1-9]" cov.out || { cat cov.out; fail "no counts with moved sources"; }
grep -q 'class="hit"><i>1</i> *[0-9]*  </span>' rep5/files/*.html || fail "no line counts on the page of a moved source"
ok "moved sources reported, counts kept"

# Not a coverage build.
fz-cov out rep6 -- ./other @@ >cov.out 2>cov.err && fail "fz-cov accepted a program without coverage"
grep -q 'is not a coverage build' cov.err || { cat cov.err; fail "unclear message for a non-coverage build"; }
ok "a program without coverage is refused with the fix"
