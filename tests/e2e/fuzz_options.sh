#!/bin/bash
# fuzz_options.sh - options whose effect a user checks by hand: repeated -x
# dictionaries reach a crash behind an 8-byte magic token that the same
# budget without them does not; -f puts each input at the given path; -m
# limits the target's memory and says so; FZ_DEBUG_CHILD=1 lets the
# target's output through (it is hidden otherwise).
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"

# 1. A crash behind an 8-byte token anywhere in the input.  Guessing it
# takes ~2^64 tries, so only a dictionary finds it within a budget.
cat >magic.c <<'EOT'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    char buf[256];
    FILE *f = fopen(argv[1], "rb");
    size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
    if (memmem(buf, n, "FZ_MAGIC", 8))
        abort();
    return 0;
}
EOT
fzcc -O1 -o magic magic.c || fail "cannot build magic.c"
mkdir seeds && echo 'hello there' >seeds/a
# Two -x: a file with unrelated tokens and a directory holding the token.
printf '# unrelated\nk1="GET"\nk2="\\x00\\x01"\n' >words.dict
mkdir tokdir && printf 'FZ_MAGIC' >tokdir/magic
fz-fuzz -q -s 1 -E 20000 --until-crash -x words.dict -x tokdir -i seeds -o with -- ./magic @@ >with.log 2>&1
rc=$?
[ $rc = 3 ] || { cat with.log; fail "with -x -x: exit $rc, want 3 (the magic crash)"; }
grep -q 'dictionary: 3 tokens from 2 -x' with.log || { cat with.log; fail "the two -x were not merged"; }
c=$(ls with/default/crashes/id:* | head -n 1)
grep -q FZ_MAGIC "$c" || fail "the saved crash does not hold the token"
ok "crash behind an 8-byte token found with two merged -x dictionaries"
fz-fuzz -q -s 1 -E 20000 -i seeds -o without -- ./magic @@ >without.log 2>&1
rc=$?
[ $rc = 0 ] || { cat without.log; fail "without -x: exit $rc, want 0 (the token cannot be guessed)"; }
ok "the same budget without the dictionary does not find it"

# 2. -f FILE: the target is handed that path (3. shows what it read there);
# fz-fuzz created the file and removes it again.
cat >echo_path.c <<'EOT'
#include <stdio.h>
int main(int argc, char **argv)
{
    char buf[64] = "";
    FILE *f = fopen(argv[1], "rb");
    if (f && fgets(buf, sizeof(buf), f))
        fprintf(stderr, "target-saw path=%s data=%s\n", argv[1], buf);
    return 0;
}
EOT
fzcc -O1 -o echo_path echo_path.c || fail "cannot build echo_path.c"
fz-fuzz -q -s 1 -E 50 -f "$T/the-input" -i seeds -o fdir -- ./echo_path @@ >f.log 2>&1 ||
    { cat f.log; fail "-f run failed"; }
[ -e "$T/the-input" ] && fail "-f: the input file was left behind"
grep -q 'target-saw' f.log && fail "the target's stderr got through without FZ_DEBUG_CHILD"
ok "-f writes the input to the given path"

# 3. FZ_DEBUG_CHILD=1 shows the target's output (and -f's path is what it got).
FZ_DEBUG_CHILD=1 fz-fuzz -q -s 1 -E 50 -f "$T/the-input" -i seeds -o dbg -- ./echo_path @@ >dbg.log 2>&1 ||
    { cat dbg.log; fail "FZ_DEBUG_CHILD run failed"; }
grep -q "target-saw path=$T/the-input data=hello there" dbg.log ||
    { head dbg.log; fail "FZ_DEBUG_CHILD=1 did not show the target's output with the -f path"; }
ok "FZ_DEBUG_CHILD=1 shows the target's output"

# 4. -m: an input that allocates 256 MiB dies under -m 64 (a failed
# malloc, then abort) and the message names the limit; without -m it runs.
cat >mem.c <<'EOT'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    if (f && fgetc(f) == 'M') {
        size_t n = 256u << 20;
        char *p = malloc(n);
        if (!p)
            abort();
        memset(p, 1, n);
        return p[n - 1] - 1;
    }
    return 0;
}
EOT
fzcc -O1 -o mem mem.c || fail "cannot build mem.c"
mkdir mseeds && echo a >mseeds/a && echo M >mseeds/m
fz-fuzz -q -s 1 -E 100 -m 64 -i mseeds -o m1 -- ./mem @@ >m1.log 2>&1
grep -q "seed 'm' crashes the target (signal 6) under the -m 64 MiB memory limit" m1.log ||
    { cat m1.log; fail "-m 64: the allocating seed was not reported as killed under the limit"; }
fz-fuzz -q -s 1 -E 100 -i mseeds -o m2 -- ./mem @@ >m2.log 2>&1
grep -q "crashes the target" m2.log && { cat m2.log; fail "without -m the allocating seed crashed"; }
# A crash found under -m says in README.txt how to reproduce it with the limit.
echo a >mseeds/m
fz-fuzz -q -s 1 -E 3000 -m 64 -i mseeds -o m3 -- ./mem @@ >m3.log 2>&1
rc=$?
[ $rc = 3 ] || { cat m3.log; fail "-m 64: the sweep should find 'M' and crash (exit $rc)"; }
grep -q '(ulimit -v 65536; ./mem CRASH_FILE)' m3/default/crashes/README.txt ||
    fail "crashes/README.txt does not give the -m limit to reproduce with"
c=$(ls m3/default/crashes/id:* | head -n 1)
(ulimit -v 65536; ./mem "$c") >/dev/null 2>&1 && fail "the saved -m crash does not reproduce under the limit"
ok "-m limits the target's memory and is reported"
