#!/bin/bash
# fzcc_install.sh - `make install` gives a working fz: installed under
# DESTDIR/PREFIX, its fz-cc (and the other names) builds an instrumented
# program from the installed lib/fz alone, whose coverage map is non-empty
# and depends on the input.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

[ -e "$FZ_ROOT/lib/fz/$FZ_PLUGIN" ] || fz_skip "lib/fz/$FZ_PLUGIN is not built"
[ -x "$FZ_BIN/fz-showmap" ] || fz_skip "bin/fz-showmap is not built"
make -C "$FZ_ROOT" --no-print-directory install DESTDIR="$T/dest" PREFIX=/p >"$T/install.log" 2>&1 ||
    fail "make install failed: $(tail -5 "$T/install.log")"
P=$T/dest/p
for f in bin/fz-cc bin/fz-c++ bin/fz-clang bin/fz-clang++ bin/fz-fuzz bin/fz-showmap \
    lib/fz/fz-rt.o lib/fz/fz-gcc-plugin.so lib/fz/fz-gcc-plugin.version; do
    [ -e "$P/$f" ] || fail "make install did not install $f"
done
[ -L "$P/bin/fz-c++" ] || fail "bin/fz-c++ was installed as a copy, not as the symlink it is"
ls "$T/dest" | grep -qv '^p$' && fail "make install wrote outside PREFIX: $(ls "$T/dest")"

case $FZ_TEST_CC in gcc) cc=fz-cc cxx=fz-c++ ;; clang) cc=fz-clang cxx=fz-clang++ ;; esac
cd "$T"
cp "$FZ_ROOT/testcases/cov_c.c" "$FZ_ROOT/testcases/cov_cxx.cc" .
FZ_QUIET=0 env -u FZ_CC -u FZ_CXX "$P/bin/$cc" -O2 cov_c.c -o prog 2>build.log ||
    fail "installed $cc cannot build: $(cat build.log)"
grep -q "edges instrumented in cov_c.c" build.log || fail "installed $cc did not instrument: $(cat build.log)"
env -u FZ_CC -u FZ_CXX "$P/bin/$cxx" -O2 cov_cxx.cc -o progxx 2>buildxx.log ||
    fail "installed $cxx cannot build: $(cat buildxx.log)"
printf 'FUZ!' >in1
printf 'srs7x' >in2
for p in prog progxx; do
    "$P/bin/fz-showmap" -q -o $p.m1 -- ./$p <in1
    "$P/bin/fz-showmap" -q -o $p.m2 -- ./$p <in2
    [ -s $p.m1 ] || fail "$p built by the install has an empty map"
    cmp -s $p.m1 $p.m2 && fail "$p built by the install: two inputs, one map"
done
ok "installed $cc / $cxx build instrumented programs ($(wc -l <prog.m1) and $(wc -l <progxx.m1) slots lit)"

# It uses the installed lib/fz, not the build tree's.
rm "$P/lib/fz/fz-rt.o"
"$P/bin/$cc" cov_c.c -o again 2>err.log && fail "installed $cc linked without its fz-rt.o"
grep -q "$P/lib/fz/fz-rt.o is missing" err.log || fail "installed $cc looked elsewhere: $(cat err.log)"
ok "the install reads its own lib/fz"
