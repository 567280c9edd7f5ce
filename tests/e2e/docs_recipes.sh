#!/bin/bash
# docs_recipes.sh - the build recipes the docs give work on the projects a
# user tried (issue 23 point 6), run as the docs spell them:
#  - docs/tools.md's coverage build of a plain Makefile keeps the project's
#    own flags: giflib (Debian's source) links its shared library (it needs
#    -fPIC, which `make CFLAGS="--coverage ..."` dropped) and its tools write
#    gcov data; the replacing form is shown to break, so the test can fail;
#  - libyaml's Debian source has no configure: `autoreconf -fi`, as the docs
#    say, then the docs' configure form of the coverage build;
#  - docs/instrumenting.md says what to do about shared libraries.
# The sources are Debian's (apt-get source, cached by tests/lib.sh's
# fz_apt_source), built in a copy.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
tools=$FZ_ROOT/docs/tools.md
inst=$FZ_ROOT/docs/instrumenting.md

# The shared-library advice is there (the rest of it is tested by
# instrument_shared_libs.sh).
grep -q '^### A program that loads an uninstrumented library' "$inst" || fail "instrumenting.md: no shared-library section"
for w in 'Link the library statically' 'LD_LIBRARY_PATH=' 'instrumented_mods' 'ldd'; do
    grep -qF "$w" "$inst" || fail "instrumenting.md's shared-library section lacks '$w'"
done
ok "instrumenting.md says what to do about uninstrumented shared libraries"

fz_apt_source giflib Makefile || fz_skip "apt-get source giflib failed (no network?)"
gif=$fz_src
recipe=$(grep -o 'make clean && make CC="gcc --coverage -O0 -g"' "$tools" | head -1)
[ -n "$recipe" ] || fail "docs/tools.md has no 'make CC=\"gcc --coverage -O0 -g\"' recipe"
cp -r "$gif" giflib && cd giflib || fail "cannot copy $gif"
# giflib's default target also builds its manual pages (needs xmlto): name
# the library and the tool.  The replacing form drops the Makefile's
# -fPIC: the shared library's link fails.
targets="libgif.so giftext"
nice make -j2 CFLAGS="--coverage -O0 -g" $targets >old.log 2>&1 && fail "make CFLAGS=... built libgif.so: the test cannot tell the recipes apart"
grep -q 'recompile with -fPIC' old.log || { tail old.log; fail "make CFLAGS=... failed, but not for the dropped -fPIC"; }
nice sh -c "$recipe $targets" >new.log 2>&1 || { tail -20 new.log; fail "docs/tools.md's recipe ($recipe) did not build giflib"; }
[ -e libgif.so ] && [ -x giftext ] || fail "the recipe built no libgif.so / giftext"
./giftext pic/fire.gif >/dev/null || fail "giftext failed on pic/fire.gif"
ls ./*.gcda >/dev/null 2>&1 || fail "giftext wrote no gcov data: not a coverage build"
ok "giflib: '$recipe' builds libgif.so and a coverage giftext ($(ls ./*.gcda | wc -l) .gcda files); make CFLAGS=... fails"
cd "$T" || exit 1

fz_apt_source libyaml configure.ac || fz_skip "apt-get source libyaml failed (no network?)"
yaml=$fz_src
command -v autoreconf >/dev/null && command -v libtoolize >/dev/null ||
    { fz_skip_part "autoreconf / libtoolize not installed (apt-get install autoconf automake libtool)"; exit 0; }
grep -qF 'autoreconf -fi' "$tools" || fail "docs/tools.md does not say to run autoreconf -fi"
conf=$(grep -o './configure CC="gcc --coverage" CFLAGS="-O0 -g" --disable-shared' "$tools" | head -1)
[ -n "$conf" ] || fail "docs/tools.md has no configure form of the coverage build"
cp -r "$yaml" libyaml && cd libyaml || fail "cannot copy $yaml"
[ -e configure ] && fail "libyaml's source has a configure now: the autoreconf advice is stale"
nice autoreconf -fi >ar.log 2>&1 || { tail ar.log; fail "autoreconf -fi failed on libyaml"; }
nice sh -c "$conf" >conf.log 2>&1 || { tail conf.log; fail "$conf failed on libyaml"; }
nice make -j2 >make.log 2>&1 || { tail make.log; fail "make failed on libyaml after $conf"; }
ls src/*.gcno >/dev/null 2>&1 || fail "libyaml built without coverage notes"
printf "a: [1, 2]\n" >t.yaml
./tests/run-parser t.yaml >/dev/null 2>&1 || fail "libyaml's run-parser failed"
ls src/*.gcda >/dev/null 2>&1 || fail "running libyaml wrote no gcov data"
ok "libyaml: autoreconf -fi, then '$conf' and make build it with coverage"
