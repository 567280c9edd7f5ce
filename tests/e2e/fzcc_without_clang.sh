#!/bin/bash
# fzcc_without_clang.sh - clang support is optional.  A build of fz where
# LLVM is not available (LLVM_CONFIG=no, the same path plugin/llvm.mk takes
# when llvm-config or its headers are missing) succeeds, builds no LLVM
# pass and says why; its fz-cc still instruments with gcc, and fz-clang
# names the missing file.  scripts/deps.sh, with clang and llvm-dev missing,
# succeeds as a user (printing the optional install line) and installs them
# as root; a missing required package still fails.
. "$(dirname "$0")/../lib.sh"

cd "$T"
# A copy of the sources, without anything built.
mkdir src
tar -C "$FZ_ROOT" --exclude=./.git --exclude=./bin --exclude=./lib --exclude=./build \
    --exclude=./tests/out --exclude=./bench/out -cf - . | tar -C src -xf - ||
    fail "cannot copy the source tree"
make -C src -j2 LLVM_CONFIG=no bin/fz-cc bin/fz-clang lib/fz/fz-gcc-plugin.so \
    lib/fz/fz-gcc-plugin.version lib/fz/fz-rt.o lib/fz/fz-llvm-pass.so \
    lib/fz/fz-llvm-pass.version >make.log 2>&1 || fail "make without LLVM fails: $(tail -5 make.log)"
grep -q 'plugin/llvm.mk: LLVM_CONFIG=no: skipping lib/fz/fz-llvm-pass.so (clang support is optional' make.log ||
    fail "make does not say it skipped the LLVM pass: $(cat make.log)"
[ -e src/lib/fz/fz-llvm-pass.so ] || [ -e src/lib/fz/fz-llvm-pass.version ] &&
    fail "an LLVM pass was built with LLVM_CONFIG=no"
ok "make with no LLVM: $(grep -m1 'plugin/llvm.mk' make.log)"

cat >t.c <<'EOF2'
#include <stdio.h>
int main(int argc, char **argv)
{
    if (argc > 1 && argv[1][0] == 'x')
        puts("x");
    else
        puts("other");
    return 0;
}
EOF2
FZ_QUIET=0 FZ_CC=gcc src/bin/fz-cc -O2 t.c -o t 2>rep.log || fail "fz-cc with gcc fails without LLVM: $(cat rep.log)"
grep -q 'fz-cc: [1-9][0-9]* edges instrumented in t.c' rep.log || fail "gcc build is not instrumented: $(cat rep.log)"
[ "$(./t x)" = x ] && [ "$(./t y)" = other ] || fail "the gcc build runs wrongly"
if [ -x "$FZ_BIN/fz-showmap" ]; then
    "$FZ_BIN/fz-showmap" -o m1 -- ./t x >/dev/null 2>&1
    "$FZ_BIN/fz-showmap" -o m2 -- ./t y >/dev/null 2>&1
    [ -s m1 ] && ! cmp -s m1 m2 || fail "the gcc build's map is empty or input-independent"
fi
ok "fz-cc with gcc instruments without LLVM"
src/bin/fz-clang -c t.c -o t.o 2>clang.log && fail "fz-clang compiled without an LLVM pass"
grep -q 'clang support is not built: .*/fz-llvm-pass.so is missing; install clang and llvm-dev' clang.log || fail "fz-clang does not name the missing pass: $(cat clang.log)"
ok "fz-clang: $(cat clang.log)"

# deps.sh against a fake dpkg-query (clang and llvm-dev not installed), id
# and apt-get, so nothing is really installed.
mkdir fake
cat >fake/dpkg-query <<'EOF2'
#!/bin/sh
for p; do :; done
case " $FAKE_MISSING " in *" $p "*) exit 1 ;; esac
printf 'install ok installed'
EOF2
printf '#!/bin/sh\necho "${FAKE_UID:-1000}"\n' >fake/id
printf '#!/bin/sh\necho "$*" >>"%s/apt.log"\n' "$T" >fake/apt-get
chmod +x fake/*
deps() { PATH=$T/fake:$PATH sh "$FZ_ROOT/scripts/deps.sh"; }
gccdev=gcc-$(gcc -dumpversion | cut -d. -f1)-plugin-dev

FAKE_MISSING="clang llvm-dev" deps 2>user.log || fail "deps.sh fails as a user when only clang is missing: $(cat user.log)"
grep -q 'optional packages missing: clang llvm-dev;.*clang back end is not built and its tests are skipped.*sudo apt-get install -y clang llvm-dev' user.log ||
    fail "deps.sh does not say what is optional: $(cat user.log)"
FAKE_MISSING="clang $gccdev" deps 2>req.log && fail "deps.sh succeeds with $gccdev missing"
grep -q "error: missing packages: $gccdev; run: sudo apt-get install -y $gccdev" req.log ||
    fail "deps.sh does not name the required package: $(cat req.log)"
FAKE_UID=0 FAKE_MISSING="clang llvm-dev" deps 2>root.log || fail "deps.sh as root fails: $(cat root.log)"
grep -q 'install -y -qq clang' apt.log && grep -q 'install -y -qq llvm-dev' apt.log ||
    fail "deps.sh as root does not install clang and llvm-dev: $(cat apt.log)"
ok "deps.sh: clang and llvm-dev optional as a user, installed as root"
