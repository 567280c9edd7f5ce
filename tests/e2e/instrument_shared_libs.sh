#!/bin/bash
# matrix: cc
# instrument_shared_libs.sh - a target linked against a shared library
# (issue 23 point 2): when the library was built with the plain compiler
# fz-fuzz warns once, naming it and the fix, and fuzzer_stats counts one
# instrumented module and one uninstrumented library; the same program
# against an fz-cc build of the library (LD_LIBRARY_PATH) gets no warning,
# two instrumented modules, and sees the library's edges.  Libraries every
# program loads (libc, the loader) are never named.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
mkdir plain instr seeds
cat >lib.c <<'C'
int lib_parse(const unsigned char *d, unsigned long n)
{
    if (n > 0 && d[0] == 'L') {
        if (n > 1 && d[1] == 'I')
            return 2;
        return 1;
    }
    return 0;
}
C
cat >prog.c <<'C'
#include <stdio.h>
int lib_parse(const unsigned char *d, unsigned long n);
int main(int argc, char **argv)
{
    unsigned char buf[64];
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    printf("%d\n", lib_parse(buf, n));
    return 0;
}
C
plaincc -shared -fPIC -O1 lib.c -o plain/libfzt.so || fail "cannot build the plain library"
fzcc -shared -fPIC -O1 lib.c -o instr/libfzt.so || fail "cannot build the fz-cc library"
fzcc -O1 prog.c -Lplain -lfzt -o prog || fail "cannot build the program"
echo x >seeds/a
stat() { awk -F' *: *' -v k="$2" '$1==k{print $2}' "$1/fuzzer_stats"; }

LD_LIBRARY_PATH=$T/plain fz-fuzz -q -s 1 -E 2000 -i seeds -o o1 -- ./prog @@ >p.log 2>p.err ||
    { cat p.err; fail "fuzzing with the plain library failed"; }
[ "$(grep -c 'without fz instrumentation' p.err)" = 1 ] || { cat p.err; fail "not one warning about the plain library"; }
grep 'without fz instrumentation' p.err | grep -q "libfzt.so ($T/plain/libfzt.so)" || { cat p.err; fail "the warning does not name the library"; }
grep 'without fz instrumentation' p.err | grep -q 'link them statically.*fz-cc.*LD_LIBRARY_PATH' || { cat p.err; fail "the warning names no fix"; }
grep 'without fz instrumentation' p.err | grep -qE 'libc\.so|ld-linux' && fail "the warning names a system toolchain library"
[ "$(stat o1/default instrumented_mods)" = 1 ] && [ "$(stat o1/default uninstr_libs)" = 1 ] ||
    { cat o1/default/fuzzer_stats; fail "plain library: fuzzer_stats does not count 1 module and 1 library"; }
ok "plain libfzt.so: one warning naming it, instrumented_mods 1, uninstr_libs 1"

LD_LIBRARY_PATH=$T/instr fz-fuzz -q -s 1 -E 2000 -i seeds -o o2 -- ./prog @@ >i.log 2>i.err ||
    { cat i.err; fail "fuzzing with the fz-cc library failed"; }
grep -q 'without fz instrumentation' i.err && { cat i.err; fail "warned about an instrumented library"; }
[ "$(stat o2/default instrumented_mods)" = 2 ] && [ "$(stat o2/default uninstr_libs)" = 0 ] ||
    { cat o2/default/fuzzer_stats; fail "fz-cc library: fuzzer_stats does not count 2 modules and 0 libraries"; }
[ "$(stat o2/default edges_found)" -gt "$(stat o1/default edges_found)" ] ||
    fail "the instrumented library added no edges ($(stat o2/default edges_found) vs $(stat o1/default edges_found))"
ok "fz-cc libfzt.so: no warning, instrumented_mods 2, edges $(stat o1/default edges_found) -> $(stat o2/default edges_found)"

# Statically linked: one module, nothing to say.
fzcc -O1 prog.c lib.c -o prog_static || fail "cannot build the static program"
fz-fuzz -q -s 1 -E 500 -i seeds -o o3 -- ./prog_static @@ >s.log 2>s.err || { cat s.err; fail "static run failed"; }
grep -q 'without fz instrumentation' s.err && fail "warned about a static program"
[ "$(stat o3/default uninstr_libs)" = 0 ] || fail "static program: uninstr_libs is not 0"
ok "static link: no warning, uninstr_libs 0"
