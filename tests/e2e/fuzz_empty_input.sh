#!/bin/bash
# fuzz_empty_input.sh - the empty input runs once before the first turn of
# a new campaign, as libFuzzer runs it before its corpus: a target that
# crashes on no input has that crash saved (op:empty, reproducible with an
# empty file); a harness whose no-input path is new coverage gets an empty
# queue entry with no parent in its name; a resume does not run it again,
# and a -j campaign runs it in one instance only.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"
mkdir seeds && printf 'hello' >seeds/a

# 1. A file reader that aborts when the file is empty.
cat >empty_crash.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    char b[64];
    size_t n = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    if (n == 0)
        abort();
    return b[0] == 'x';
}
C
fzcc -O1 -o empty_crash empty_crash.c || fail "fz-cc could not build empty_crash.c"
fz-fuzz -q -s 1 -E 100 -i seeds -o out -- ./empty_crash @@ >log 2>&1
rc=$?
[ $rc = 3 ] || { cat log; fail "a target that crashes on no input: exit $rc, want 3"; }
c=$(ls out/default/crashes | grep ',op:empty$')
[ -n "$c" ] || { ls out/default/crashes; fail "no crash named op:empty"; }
case $c in *,src:*) fail "the empty input's crash '$c' names a parent" ;; esac
[ -f "out/default/crashes/$c" ] && [ ! -s "out/default/crashes/$c" ] ||
    fail "crash '$c' is not an empty file"
./empty_crash "out/default/crashes/$c" >/dev/null 2>&1
[ $? -gt 128 ] || fail "the saved empty crash does not crash the target by hand"
ok "a crash on the empty input is saved as op:empty and reproduces"

# 2. A libFuzzer harness whose size == 0 path is code nothing else reaches.
cat >empty_cov.c <<'C'
#include <stddef.h>
#include <stdint.h>
static volatile int sink;
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n == 0) {
        sink = 1;
        return 0;
    }
    sink = d[0] == 'x' ? 2 : 3;
    return 0;
}
C
fzcc -O1 -fsanitize=fuzzer -o empty_cov empty_cov.c || fail "fz-cc could not build empty_cov.c"
fz-fuzz -q -s 1 -E 2000 -i seeds -o out2 -- ./empty_cov >log 2>&1 || { cat log; fail "fuzzing empty_cov failed"; }
e=$(ls out2/default/queue | grep -E '^id:[0-9]{6},time:[0-9]+,execs:[0-9]+,op:empty,\+cov$')
[ -n "$e" ] || { ls out2/default/queue; fail "no op:empty,+cov queue entry"; }
[ ! -s "out2/default/queue/$e" ] || fail "queue entry '$e' is not empty"
ok "the empty input's new coverage is an empty queue entry ($e)"

# 3. A resume does not run it again.
FZ_AUTORESUME=1 fz-fuzz -q -s 2 -E 3000 -i seeds -o out2 -- ./empty_cov >log 2>&1 ||
    { cat log; fail "resuming failed"; }
n=$(ls out2/default/queue | grep -c ',op:empty')
[ "$n" = 1 ] || { ls out2/default/queue; fail "$n op:empty entries after a resume, want 1"; }
ok "a resumed campaign keeps its one empty entry"

# 4. -j 2: the first instance runs it, the other imports it.
fz-fuzz -q -j 2 -s 1 -E 4000 -i seeds -o out3 -- ./empty_cov >log 2>&1 || { cat log; fail "-j 2 failed"; }
n=$(ls out3/*/queue | grep -c ',op:empty')
[ "$n" = 1 ] || { ls out3/*/queue; fail "$n op:empty entries in a -j 2 campaign, want 1"; }
ok "-j 2 runs the empty input once"
