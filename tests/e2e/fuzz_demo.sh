#!/bin/bash
# fuzz_demo.sh - the main job end to end: the bundled demo target (a crash
# behind three nested checks) is built with fz-cc, fuzz-found with exit
# status 3, and the saved crash reproduces when fed to the target by hand;
# the same through stdin; --replay's exit codes; -V stops a run by itself.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "fz-cc could not build testcases/demo.c"
seeds=$FZ_ROOT/testcases/demo_seeds

# 1. Input by file (@@).
fz-fuzz -q -s 1 -E 20000 -i "$seeds" -o out -- ./demo @@ >log 2>&1
rc=$?
[ $rc = 3 ] || { cat log; fail "fuzzing the demo with @@ exited $rc, want 3 (crash found)"; }
n=$(ls out/default/crashes | grep -c '^id:')
[ "$n" -ge 1 ] || fail "exit 3 but no file in out/default/crashes"
[ -s out/default/crashes/README.txt ] || fail "crashes/README.txt missing"
for c in out/default/crashes/id:*; do
    ./demo "$c" >/dev/null 2>&1
    r=$?
    [ $r -gt 128 ] || fail "saved crash '$c' does not crash the target by hand (exit $r)"
    case $c in *sig:*) ;; *) fail "crash name '$c' has no sig: part" ;; esac
done
ok "crash found via @@ ($n saved) and reproduces by hand"
for f in fuzzer_stats fuzzer_setup plot_data cmdline; do
    [ -s out/default/$f ] || fail "out/default/$f missing or empty"
done
grep -q '^saved_crashes *: [1-9]' out/default/fuzzer_stats || fail "fuzzer_stats does not count the crash"
ls out/default/queue | grep -q '^id:000000,time:0,execs:0,orig:' || fail "seed names are not AFL-style"
ls out/default/queue | grep -Eq '^id:[0-9]{6},src:[0-9]{6},time:[0-9]+,execs:[0-9]+,op:[a-z0-9]+(,rep:[0-9]+)?(,\+cov)?$' ||
    fail "no AFL-style find in the queue"
ok "output layout"

# 2. Input on stdin (no @@).
fz-fuzz -q -s 1 -E 20000 -i "$seeds" -o out-stdin -- ./demo >log 2>&1
rc=$?
[ $rc = 3 ] || { cat log; fail "fuzzing the demo via stdin exited $rc, want 3"; }
for c in out-stdin/default/crashes/id:*; do
    ./demo <"$c" >/dev/null 2>&1
    r=$?
    [ $r -gt 128 ] || fail "stdin crash '$c' does not crash the target by hand (exit $r)"
done
ok "crash found via stdin and reproduces by hand"

# 3. --replay: 3 when a file crashes (naming it), 0 on the queue, 4 on a hang.
fz-fuzz --replay out/default/crashes -- ./demo @@ >rlog 2>&1
rc=$?
[ $rc = 3 ] || { cat rlog; fail "--replay on crashes/ exited $rc, want 3"; }
grep -q 'crash: out/default/crashes/id:' rlog || fail "--replay did not name the crashing file"
fz-fuzz --replay out/default/queue -- ./demo @@ >rlog 2>&1
rc=$?
[ $rc = 0 ] || { cat rlog; fail "--replay on the queue exited $rc, want 0"; }
cat >hang.c <<'EOT'
#include <stdio.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    if (f && fgetc(f) == 'H')
        for (;;)
            ;
    return 0;
}
EOT
fzcc -o hang hang.c || fail "cannot build hang.c"
mkdir -p hangdir && echo H >hangdir/loops && echo a >hangdir/fine
fz-fuzz --replay hangdir -t 200 -- ./hang @@ >rlog 2>&1
rc=$?
[ $rc = 4 ] || { cat rlog; fail "--replay on a hanging input exited $rc, want 4"; }
grep -q 'hang: hangdir/loops' rlog || fail "--replay did not name the hanging file"
ok "--replay exit codes 3 / 0 / 4"

# 4. -V stops a run by itself and leaves final stats (no assertion on time).
fz-fuzz -q -s 1 -V 2 -i "$seeds" -o out-v -- ./demo @@ >log 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || { cat log; fail "-V 2 run exited $rc"; }
grep -q '^execs_done *: [1-9]' out-v/default/fuzzer_stats || fail "-V run left no final stats"
ok "-V stops the run"

# 5. The issue's CI gate: the nested-comparison bug is found by -V 60, exit
# 3.  --until-crash ends the run at the first crash instead of after 60 s;
# the bound is the 60 s, the assertion is the exit status and the one crash.
fz-fuzz -q -V 60 --until-crash -i "$seeds" -o out-gate -- ./demo @@ >log 2>&1
rc=$?
[ $rc = 3 ] || { cat log; fail "-V 60 --until-crash exited $rc, want 3"; }
grep -q 'stopped at the first crash' log || { cat log; fail "no 'stopped at the first crash' message"; }
[ "$(ls out-gate/default/crashes | grep -c '^id:')" = 1 ] || fail "--until-crash saved more than one crash"
c=$(ls out-gate/default/crashes/id:*)
./demo "$c" >/dev/null 2>&1
[ $? -gt 128 ] || fail "the -V 60 crash does not reproduce by hand"
ok "-V 60 --until-crash: exit 3 at the first crash, which reproduces"

# 6. make demo's script end to end: it builds, fuzzes, shows the crash and
# the command that reproduces it (FZ_DEMO_SECONDS is only the upper bound).
if [ "$FZ_TEST_CC" = gcc ]; then # demo.sh always builds with fz-cc's default gcc
    FZ_DEMO_DIR=$T/demo FZ_DEMO_SECONDS=60 "$FZ_ROOT/testcases/demo.sh" >demo.log 2>&1 ||
        { cat demo.log; fail "testcases/demo.sh failed"; }
    grep -q 'fz-fuzz exit status: 3' demo.log || { cat demo.log; fail "demo: no exit status 3"; }
    grep -q "reproduce it by hand:" demo.log || { cat demo.log; fail "demo: no reproduce command"; }
    grep -Eq "exit status 1[3-9][0-9] \((SEGV|ABRT|BUS)\)" demo.log ||
        { cat demo.log; fail "demo: the crash did not reproduce"; }
    ok "testcases/demo.sh shows the crash and how to reproduce it"
fi
