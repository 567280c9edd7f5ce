#!/bin/bash
# real_project.sh - build a real configure-based Debian source package
# (zlib) with fz-cc and show the result is instrumented: configure reaches
# the same conclusions as with the plain compiler, the test suite passes,
# and minigzip's coverage map is non-empty, stable, and input-dependent.
#
# The source is fetched at test time with `apt-get source zlib` (adding a
# bookworm deb-src entry when running as root and none exists) and cached
# unpacked in tests/out/cache/, never committed.  Without network or root
# (and no cache) the test is skipped, and fails under FZ_TEST_STRICT=1
# (CI), where a skip would hide that the real-project build never ran.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

# zlib is on every Debian mirror, so under CI a failed fetch is a failure.
fz_apt_source zlib configure || fz_skip "apt-get source zlib failed (no network?)"
src=$fz_src
echo "source: $src"

case $FZ_TEST_CC in
gcc) export FZ_CC=gcc ;;
clang) export FZ_CC=clang ;;
esac

# The plain build: configure's findings to compare with, and a reference.
cp -r "$src" "$T/plain"
(cd "$T/plain" && CC=$FZ_CC ./configure --static >configure.out 2>&1) || fail "plain configure failed"

cp -r "$src" "$T/fz"
cd "$T/fz"
# FZ_QUIET unset: fz-cc itself must keep the probes quiet (zlib's configure
# fails a probe that prints anything).
FZ_QUIET= CC=fz-cc ./configure --static >configure.out 2>&1 || fail "CC=fz-cc ./configure failed: $(tail -5 configure.out)"
# Line 1 names the compiler; every finding after it must be the same.
diff <(tail -n +2 configure.out) <(tail -n +2 "$T/plain/configure.out") ||
    fail "configure found something different with fz-cc"
ok "CC=fz-cc FZ_CC=$FZ_CC ./configure --static: same findings as plain $FZ_CC"

FZ_QUIET= make -j2 >make.out 2>&1 || fail "make failed: $(tail -20 make.out)"
grep -q 'instrumented in' make.out || fail "make printed no instrumentation report"
grep 'instrumented in' make.out | head -3
make test >test.out 2>&1 || fail "zlib's make test failed: $(tail -20 test.out)"
grep -q 'zlib test OK' test.out || fail "zlib's test did not say OK"
ok "make and make test pass"

# minigzip round-trips data and its coverage depends on the input.
seq 1 3000 >text
gzip -9 -c text >binary
./minigzip <text | ./minigzip -d | cmp -s - text || fail "minigzip does not round-trip"
if [ -x "$FZ_BIN/fz-showmap" ]; then
    showmap() { "$FZ_BIN/fz-showmap" -o "$1" -- ./minigzip >/dev/null 2>&1 <"$2"; }
elif command -v afl-showmap >/dev/null; then
    showmap() { afl-showmap -q -o "$1" -- ./minigzip <"$2"; }
else
    fz_skip "neither bin/fz-showmap nor afl-showmap is available to read coverage maps"
fi
showmap map.text text
showmap map.text2 text
showmap map.binary binary
[ -s map.text ] && [ -s map.binary ] || fail "empty coverage map: minigzip is not instrumented"
cmp -s map.text map.text2 || fail "the same input gave two different maps"
cmp -s map.text map.binary && fail "two different inputs gave the same map"
ok "minigzip maps: $(wc -l <map.text) edges for text, $(wc -l <map.binary) for binary; stable; different"
exit 0
