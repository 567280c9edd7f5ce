#!/bin/bash
# fuzz_bad_input.sh - every mistake a user can make gets one clear line on
# stderr, exit status 1, and nothing already saved is lost: missing /
# non-executable / uninstrumented target, bad seed directories, a bad
# dictionary, a target that crashes at start-up or on every seed, a seed
# that hangs, a full disk.  Also: -n fuzzes an uninstrumented target.
# matrix: cc
. "$(dirname "$0")/../lib.sh"
cd "$T"
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "fz-cc could not build testcases/demo.c"
plaincc -O1 -o plain "$FZ_ROOT/testcases/demo.c" || fail "cannot build the plain demo"
seeds=$FZ_ROOT/testcases/demo_seeds

# expect_error NAME PATTERN fz-fuzz-args...: exit 1, one "error:" line matching PATTERN.
expect_error() {
    local name=$1 pat=$2
    shift 2
    fz-fuzz "$@" >out.log 2>err.log
    local rc=$?
    [ $rc = 1 ] || { cat err.log; fail "$name: exit $rc, want 1"; }
    [ "$(grep -c 'error:' err.log)" = 1 ] || { cat err.log; fail "$name: want exactly one error line"; }
    grep -q -- "$pat" err.log || { cat err.log; fail "$name: message does not match '$pat'"; }
    ok "$name: $(grep 'error:' err.log)"
}

expect_error "missing target" "not found" -i "$seeds" -o o1 -- ./no-such-target @@
echo 'not a program' >notexec
expect_error "not executable" "not an executable" -i "$seeds" -o o1 -- ./notexec @@
expect_error "not instrumented" "use -n" -i "$seeds" -o o1 -- ./plain @@
[ -e o1 ] && fail "a failed start created the output directory"

expect_error "seed dir missing" "does not exist" -i nodir -o o1 -- ./demo @@
mkdir empty
expect_error "seed dir empty" "holds no usable input" -i empty -o o1 -- ./demo @@
mkdir big && head -c 1100000 /dev/zero >big/huge.bin
expect_error "seed too big" "big/huge.bin" -i big -o o1 -- ./demo @@
# An -i path that cannot be read as a directory takes the same path as a
# directory without read permission (opendir fails with something other
# than ENOENT), and unlike chmod 000 it also fails for root.
echo x >notadir
expect_error "seed dir not a directory" "cannot read seed directory 'notadir'" -i notadir -o o1 -- ./demo @@
mkfifo fifo
expect_error "seed dir a FIFO" "cannot read seed directory 'fifo'" -i fifo -o o1 -- ./demo @@
if [ "$(id -u)" != 0 ]; then
    mkdir locked && echo x >locked/a && chmod 000 locked
    expect_error "seed dir unreadable" "cannot read" -i locked -o o1 -- ./demo @@
    chmod 700 locked
else
    echo "note: running as root, which reads a chmod 000 directory; the 'notadir' and 'fifo' cases cover that error path"
fi
[ -e o1 ] && fail "a bad seed directory created the output directory"
printf 'tok="unterminated\n' >bad.dict
expect_error "bad dictionary" "bad.dict:1" -i "$seeds" -o o1 -x bad.dict -- ./demo @@

cat >ctor.c <<'EOT'
#include <stdlib.h>
__attribute__((constructor(101))) static void boom(void) { abort(); }
int main(void) { return 0; }
EOT
fzcc -o ctor ctor.c || fail "cannot build ctor.c"
expect_error "crash at start-up" "start-up" -i "$seeds" -o o2 -- ./ctor
cat >boom.c <<'EOT'
#include <stdlib.h>
int main(void) { abort(); }
EOT
fzcc -o boom boom.c || fail "cannot build boom.c"
expect_error "every seed crashes" "every seed crashes" -i "$seeds" -o o3 -- ./boom

# nothing_saved DIR: a run that failed on its seeds wrote no campaign there
# (no queue file, no stats, no cmdline), so a rerun with the same -o starts.
nothing_saved() {
    local d=$1/default
    [ -z "$(ls -A "$d/queue" 2>/dev/null)" ] || fail "$1: the failed run left queue files: $(ls "$d/queue")"
    for f in fuzzer_stats plot_data cmdline fuzzer_setup; do
        [ ! -e "$d/$f" ] || fail "$1: the failed run left $f"
    done
}
nothing_saved o3
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
mkdir hs && echo H >hs/loops && echo a >hs/fine
expect_error "seed hangs" "hs\|loops" -i hs -o o4 -t 200 -- ./hang @@
grep -q "loops" err.log || fail "the hang message does not name the seed"
# 'fine' was calibrated before 'loops' hung: it must not have been saved.
nothing_saved o4
rm hs/loops
fz-fuzz -q -s 1 -E 200 -i hs -o o4 -t 200 -- ./hang @@ >rerun.log 2>&1 ||
    { cat rerun.log; fail "a rerun with fixed seeds into the same -o failed"; }
ls o4/default/queue | grep -q 'orig:fine' || fail "the rerun did not save its seed"
ok "a seed error leaves nothing behind; the rerun with fixed seeds works"

# A full disk: a 64 KiB tmpfs (needs root and mount; skipped otherwise).
mkdir small
if mount -t tmpfs -o size=64k tmpfs small 2>/dev/null; then
    mkdir bigseeds && for i in 1 2 3; do head -c 30000 /dev/urandom >bigseeds/s$i; done
    expect_error "disk full" "disk full" -q -i bigseeds -o small/out -E 500 -- ./demo @@
    leftovers=$(ls -A small/out/default/queue | grep -v '^id:')
    size_ok=1
    # (A start that fills the disk keeps no queue file at all: faults_disk.sh.)
    for f in small/out/default/queue/id:*; do [ ! -e "$f" ] || [ "$(stat -c %s "$f")" = 30000 ] || size_ok=0; done
    umount small
    [ -z "$leftovers" ] || fail "disk full left temp files: $leftovers"
    [ $size_ok = 1 ] || fail "disk full left a half-written queue file"
else
    echo "note: cannot mount a tmpfs here; disk-full case not tested"
fi

# Blind mode runs an uninstrumented target without a handshake.
fz-fuzz -q -n -s 1 -E 300 -i "$seeds" -o blind -- ./plain @@ >blind.log 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || { cat blind.log; fail "-n on a plain target exited $rc"; }
grep -q '^execs_done *: 300$' blind/default/fuzzer_stats || fail "-n run did not do 300 executions"
grep -q '^target_mode *: blind' blind/default/fuzzer_stats || fail "-n run not reported as blind"
ok "-n fuzzes an uninstrumented target"
