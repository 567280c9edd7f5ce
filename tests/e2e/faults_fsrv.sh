#!/bin/bash
# faults_fsrv.sh - no found crash or queue entry is lost when an input makes
# the target kill its own forkserver (issue 24 pt 3, issue 26 pt 4;
# docs/faults.md): at each point of fz-fuzz's work (crash minimization,
# trimming, by fz or by an AFL++ custom mutator, calibration, a hang's confirmation, input-to-state, a sync
# import, the seeds, a resume's re-run of saved crashes) and in persistent
# and libFuzzer-harness targets, the input that killed it is saved in
# crashes/ (sig:09), a crash being minimized is saved too, and the run ends
# with exit status 3.  testcases/fsrv_killer.c picks the point.
. "$(dirname "$0")/../lib.sh"
. "$FZ_ROOT/tests/faults-lib.sh"
fzcc -O1 -o fk "$FZ_ROOT/testcases/fsrv_killer.c" || fail "cannot build testcases/fsrv_killer.c"
mkdir s10 s16 s4
printf CRASAAAAAA >s10/a
printf aaaaaaaaaaaaaaaa >s16/a
printf aaaa >s4/a

# killed NAME SEEDS MODE DURING WANT: a run of ./fk MODE from SEEDS ends with
# exit 3 "during DURING", and crashes/ holds an input starting with WANT.
killed() {
    local name=$1 seeds=$2 mode=$3 during=$4 want=$5
    mkdir "w_$name"
    (cd "w_$name" && env ${KILL_ENV:-} fz-fuzz -q -s 1 -E 20000 -t 200 -i "../$seeds" -o out -- ../fk "$mode" @@ >log 2>&1
     echo $? >rc)
    local d=w_$name
    [ "$(cat $d/rc)" = 3 ] || { tail -n 5 $d/log; fail "$name: exit $(cat $d/rc), want 3"; }
    grep -q "during $during; the input is saved as" $d/log || { tail -n 3 $d/log; fail "$name: not killed during $during"; }
    local f found=
    for f in $d/out/default/crashes/id:*sig:09*; do
        [ "$(head -c ${#want} "$f")" = "$want" ] && found=$f
    done
    [ -n "$found" ] || { ls $d/out/default/crashes; fail "$name: no sig:09 crash starting '$want'"; }
    [ "$(sed -n 's/^saved_crashes *: //p' $d/out/default/fuzzer_stats)" -ge 1 ] ||
        fail "$name: fuzzer_stats does not count the saved input"
    # Every queue entry the campaign counted is on disk (none was lost
    # with the forkserver).
    local nq
    nq=$(ls $d/out/default/queue | grep -c '^id:')
    [ "$nq" = "$(sed -n 's/^corpus_count *: //p' $d/out/default/fuzzer_stats)" ] ||
        fail "$name: $nq files in queue/, fuzzer_stats counts $(sed -n 's/^corpus_count *: //p' $d/out/default/fuzzer_stats)"
    ok "$name: the input that killed the forkserver during $during is in crashes/ (exit 3)"
}

# Crash minimization: the crash "CRASIAAAAA" is saved as found, and the
# shorter "CRASI..." that killed the forkserver beside it.
killed min s10 min "crash minimization" CRASI
ls w_min/out/default/crashes/id:*sig:06* >/dev/null 2>&1 || fail "min: the crash being minimized was lost"
[ "$(head -c 10 w_min/out/default/crashes/id:*sig:06*)" = CRASIAAAAA ] || fail "min: the saved crash is not the one found"
ok "min: the crash being minimized is saved too"
# Without comparison feedback: input-to-state solves the length check
# itself, before trimming gets there.
KILL_ENV=FZ_NO_CMPLOG=1 killed trim s16 trim trimming q
killed calib s4 calib calibration q
# An AFL++ custom mutator's trim (fz-fuzz/custom.c) in place of fz's own:
# it drops the last byte of a 'q' entry while coverage stays, down to the
# 8 bytes that kill the forkserver.
cat >ct.c <<'EOT'
#include <stddef.h>
#include <string.h>
static unsigned char cur[64];
static size_t cur_len;
static int done;
void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    (void)seed;
    return cur;
}
int afl_custom_init_trim(void *d, unsigned char *buf, size_t n)
{
    (void)d;
    if (!n || n > sizeof cur || buf[0] != 'q')
        return 0;
    memcpy(cur, buf, n);
    cur_len = n;
    done = 0;
    return (int)n - 1;
}
size_t afl_custom_trim(void *d, unsigned char **out)
{
    (void)d;
    *out = cur;
    return cur_len - 1;
}
int afl_custom_post_trim(void *d, unsigned char ok)
{
    (void)d;
    if (!ok)
        return 1 << 20;
    cur_len--;
    return ++done;
}
EOT
plaincc -shared -fPIC -O2 -o ct.so ct.c || fail "cannot build the trimming mutator"
KILL_ENV="FZ_NO_CMPLOG=1 AFL_CUSTOM_MUTATOR_LIBRARY=$PWD/ct.so" killed ctrim s16 trim trimming q
killed hang s4 hang "a hang's confirmation" h
killed i2s s4 i2s fuzzing 'KILLME!!'

# A sync import: a peer's queue file that kills the forkserver.
mkdir -p sync/out/peer/queue
printf Kxx >sync/out/peer/queue/id:000000,orig:k
(cd sync && fz-fuzz -q -s 1 -E 20000 -M main -i ../s4 -o out -- ../fk sync @@ >log 2>&1; echo $? >rc)
[ "$(cat sync/rc)" = 3 ] || { tail -n 3 sync/log; fail "sync: exit $(cat sync/rc), want 3"; }
grep -q "during a sync import" sync/log || { tail -n 3 sync/log; fail "sync: not killed during the import"; }
[ "$(cat sync/out/main/crashes/id:*sync:peer*)" = Kxx ] || fail "sync: the import is not in crashes/"
ok "sync: a peer's input that kills the forkserver is saved in crashes/"

# A resume whose saved crash still kills the forkserver: it counts as
# still crashing and the campaign goes on with a new forkserver.
(cd w_i2s && fz-fuzz -q -s 1 -E 300 -i - -o out -- ../fk i2s @@ >log2 2>&1; echo $? >rc2)
[ "$(cat w_i2s/rc2)" = 3 ] || { tail -n 3 w_i2s/log2; fail "resume: exit $(cat w_i2s/rc2), want 3"; }
grep -q "still makes the target kill its forkserver" w_i2s/log2 || { cat w_i2s/log2; fail "resume: no word of the killing crash"; }
grep -q "1 still crash" w_i2s/log2 || { cat w_i2s/log2; fail "resume: the killing crash is not counted"; }
grep -q "error:" w_i2s/log2 && { cat w_i2s/log2; fail "resume: the campaign did not go on"; }
ok "resume: a saved crash that kills the forkserver still crashes, and the campaign goes on"

# A seed that kills the forkserver is skipped like a crashing seed.
mkdir sk && printf Kx >sk/k && printf aaaa >sk/a
expect "seed that kills" 3 "seed 'k' kills the forkserver" fz-fuzz -q -s 1 -E 300 -i sk -o seedk -- ./fk sync @@

# Persistent (__AFL_LOOP, direct mode) and libFuzzer-harness targets: the
# child answers for itself and dies with its forkserver only when the
# kernel gets round to it (PR_SET_PDEATHSIG), so the killer can be
# hundreds of runs back on a busy machine; it is found by running the
# suspects again, on a forkserver that reports every run.  These targets
# make that late death certain: the child turns its death signal off
# before it kills its forkserver and answers 300 more runs (the old
# history of 64 runs lost the killer then).  Several seeds, since the
# timing varies.
cat >late.h <<'EOT'
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
/* One run: 'K' kills the forkserver; the child dies 300 runs later. */
static void late_kill(const unsigned char *buf, long n)
{
    static int left;
    if (left && --left == 0)
        _exit(0);
    if (!left && n >= 1 && buf[0] == 'K') {
        prctl(PR_SET_PDEATHSIG, 0);
        kill(getppid(), SIGKILL);
        left = 300;
    }
}
EOT
cat >pk.c <<'EOT'
#include "late.h"
__AFL_FUZZ_INIT();
int main(void)
{
    __AFL_INIT();
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(10000))
        late_kill(buf, __AFL_FUZZ_TESTCASE_LEN);
    return 0;
}
EOT
cat >lk.c <<'EOT'
#include <stddef.h>
#include <stdint.h>
#include "late.h"
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    late_kill(d, (long)n);
    return 0;
}
EOT
fzcc -O1 -o pk pk.c || fail "cannot build pk.c"
fzcc -O1 -fsanitize=fuzzer -o lk lk.c || fail "cannot build lk.c"
mkdir hs && printf hello >hs/a
for t in pk lk; do
    for s in 1 2 3 4 5; do
        fz-fuzz -q -s $s -E 20000 -i hs -o "o_${t}_$s" -- ./$t >$t.log 2>&1
        rc=$?
        [ $rc = 3 ] || { tail -n 3 $t.log; fail "$t -s $s: exit $rc, want 3"; }
        f=$(ls "o_${t}_$s"/default/crashes/id:* 2>/dev/null | head -n 1)
        [ -n "$f" ] && [ "$(head -c 1 "$f")" = K ] || { tail -n 2 $t.log; fail "$t -s $s: the input that killed the forkserver is not saved"; }
    done
    ok "$t: the input that kills the forkserver is saved (5 of 5 runs)"
done

# --replay of saved crashes that kill the forkserver: each counts as a
# crash (exit 3) and the others still run, on a new forkserver.
mkdir rp && printf Kx >rp/k1 && printf aa >rp/a && printf Ky >rp/k2
expect "--replay of inputs that kill the forkserver" 3 "replayed 3 files: 2 crashed" fz-fuzz --replay rp -- ./fk sync @@
