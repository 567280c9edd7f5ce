#!/bin/bash
# custom_libfuzzer.sh - libFuzzer's mutation interface in fz's driver:
# testcases/lf_inflate.c (LLVMFuzzerCustomMutator that inflates, calls
# LLVMFuzzerMutate and deflates) reaches its bug behind the decompressed
# bytes under fz-fuzz and as `./harness corpus/` within -E, and not with
# FZ_NO_CUSTOM=1 in the same budget; what is saved is what ran (the crash
# file crashes the harness, every queue file inflates); -s reproduces the
# campaign; testcases/lf_crossover.c (LLVMFuzzerCustomCrossOver only, and
# functions named like fz's engine) links, and its crossover is used.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"

printf '#include <zlib.h>\nint main(void){return 0;}\n' >z.c
plaincc z.c -lz -o z 2>/dev/null || fz_skip "zlib headers missing (apt-get install zlib1g-dev)"

fzcc -O1 -fsanitize=fuzzer -o inf "$FZ_ROOT/testcases/lf_inflate.c" -lz || fail "cannot build lf_inflate.c"
budget=60000

fz-fuzz -q -s 1 -E $budget --until-crash -i "$FZ_ROOT/testcases/lf_inflate_seeds" -o on -- ./inf \
    >on.log 2>&1
rc=$?
[ $rc = 3 ] || { cat on.log; fail "exit $rc with the custom mutator, want 3 (crash found)"; }
grep -q 'the harness defines LLVMFuzzerCustomMutator' on.log || fail "no line about the custom mutator"
crash=$(ls on/default/crashes/id:* | head -1)
case $crash in *op:custom*) ;; *) fail "crash not named op:custom: $crash" ;; esac
# The saved bytes are the ones that ran: they crash the harness, and every
# queue entry is a valid zlib stream (byte-mutated ones would not be),
# but for the empty input, which runs once at the start as it is (as under
# libFuzzer, custom mutator or not).
./inf "$crash" >rerun.log 2>&1 && fail "the saved crash does not crash the harness"
for f in on/default/queue/id:*; do
    case $f in *,op:empty*) [ -s "$f" ] && fail "$f is not empty"; continue ;; esac
    printf '#include <zlib.h>\n#include <stdio.h>\nint main(int c,char**v){unsigned char i[1<<16],o[4096];FILE*f=fopen(v[1],"rb");size_t n=fread(i,1,sizeof i,f);uLongf m=sizeof o;return uncompress(o,&m,i,n)!=Z_OK;}\n' >unz.c
    [ -x unz ] || plaincc unz.c -lz -o unz || fail "cannot build the checker"
    ./unz "$f" || fail "queue entry $f is not a zlib stream: not what ran"
done
ok "[$FZ_TEST_CC] custom mutator: crash in $(sed -n 's/^execs_done *: //p' on/default/fuzzer_stats) runs"

FZ_NO_CUSTOM=1 fz-fuzz -q -s 1 -E $budget --until-crash -i "$FZ_ROOT/testcases/lf_inflate_seeds" \
    -o off -- ./inf >off.log 2>&1
rc=$?
[ $rc = 0 ] || { cat off.log; fail "FZ_NO_CUSTOM=1: exit $rc, want 0 (no crash in $budget runs)"; }
grep -q 'FZ_NO_CUSTOM=1' off.log || fail "FZ_NO_CUSTOM=1 not reported"
ok "[$FZ_TEST_CC] without it: no crash in $budget runs"

# Without batches the mutator cannot run: said, not silent.
FZ_NO_BATCH=1 fz-fuzz -q -s 1 -E 2000 -i "$FZ_ROOT/testcases/lf_inflate_seeds" -o nob -- ./inf \
    >nob.log 2>&1
grep -q 'defines a custom mutator, but it runs only in batches' nob.log ||
    { cat nob.log; fail "FZ_NO_BATCH=1: no warning that the custom mutator is not used"; }

# -s reproduces a campaign whose mutations happen in the harness.
fz-fuzz -q -s 1 -E $budget --until-crash -i "$FZ_ROOT/testcases/lf_inflate_seeds" -o again -- ./inf \
    >again.log 2>&1
(cd on/default/queue && md5sum id:* | sed 's/,time:[0-9]*//') >a.sum
(cd again/default/queue && md5sum id:* | sed 's/,time:[0-9]*//') >b.sum
cmp -s a.sum b.sum || { diff a.sum b.sum; fail "-s 1 gave two different queues"; }

# libFuzzer's command line runs fz-fuzz with the same mutator.
mkdir corpus && cp "$FZ_ROOT"/testcases/lf_inflate_seeds/* corpus/
./inf -seed=1 -runs=$budget corpus/ >lf.log 2>&1
rc=$?
[ $rc != 0 ] && ls crash-* >/dev/null 2>&1 || { cat lf.log; fail "./harness corpus/: exit $rc, no crash-* file"; }
./inf crash-* >/dev/null 2>&1 && fail "./harness corpus/: the crash-* file does not crash"
ok "[$FZ_TEST_CC] ./harness -seed=1 -runs=$budget corpus/ finds it"

# A harness with only a custom crossover; fz's engine stays private.
fzcc -O1 -fsanitize=fuzzer -o xo "$FZ_ROOT/testcases/lf_crossover.c" ||
    fail "lf_crossover.c does not link (fz's engine clashes with the harness's names?)"
mkdir xs && printf 'Qabcdefgh' >xs/a && printf 'zzzzzzzzzzzzz' >xs/b
FZ_NO_CMPLOG=1 fz-fuzz -q -s 1 -E 20000 --until-crash -i xs -o xon -- ./xo >xon.log 2>&1
rc=$?
[ $rc = 3 ] || { cat xon.log; fail "custom crossover: exit $rc, want 3"; }
ls xon/default/crashes/*op:custom_xover* >/dev/null || fail "the crash was not the crossover's"
FZ_NO_CUSTOM=1 FZ_NO_CMPLOG=1 fz-fuzz -q -s 1 -E 20000 --until-crash -i xs -o xoff -- ./xo \
    >xoff.log 2>&1
[ $? = 0 ] || { cat xoff.log; fail "the crossover's bug was found without it"; }
ok "[$FZ_TEST_CC] LLVMFuzzerCustomCrossOver used; fz's engine does not clash with the harness"
