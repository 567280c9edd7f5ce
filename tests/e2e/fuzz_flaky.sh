#!/bin/bash
# fuzz_flaky.sh - a crash that does not happen again when fz-fuzz reruns it
# (here: only the first time, as a crash that depends on outside state) is
# saved as found, byte for byte, counted in flaky_crashes and reported; and
# it reproduces by hand once the state is back.
. "$(dirname "$0")/../lib.sh"
cd "$T"
cat >flaky.c <<'EOT'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    const char *mark = getenv("FLAKY_MARK");
    if (!f || fgetc(f) != 'C' || !mark)
        return 0;
    /* Crash only while the mark file does not exist yet. */
    FILE *m = fopen(mark, "r");
    if (m) {
        fclose(m);
        return 0;
    }
    m = fopen(mark, "w");
    if (m)
        fclose(m);
    abort();
}
EOT
fzcc -O1 -o flaky flaky.c || fail "cannot build flaky.c"
mkdir seeds && printf 'ab' >seeds/a
FLAKY_MARK=$T/mark fz-fuzz -q -s 1 -E 3000 -i seeds -o out -- ./flaky @@ >log 2>&1
rc=$?
[ $rc = 3 ] || { cat log; fail "exit $rc, want 3 (the one crash)"; }
[ -e mark ] || fail "the target never reached its crash"
grep -q 'did not happen again when rerun; saved unminimized as crashes/id:000000' log ||
    { cat log; fail "no flaky-crash warning"; }
grep -q '^flaky_crashes *: 1$' out/default/fuzzer_stats || fail "flaky_crashes is not 1"
c=$(ls out/default/crashes/id:*)
[ "$(head -c 1 "$c")" = C ] || fail "the saved bytes are not the input that crashed"
grep -q 'flaky' out/default/crashes/README.txt || fail "README.txt does not explain flaky crashes"
rm mark
FLAKY_MARK=$T/mark ./flaky "$c" >/dev/null 2>&1
[ $? -gt 128 ] || fail "the saved flaky crash does not reproduce by hand"
ok "a flaky crash is saved as found, counted and reproduces by hand"
