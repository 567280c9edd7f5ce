#!/bin/bash
# faults_disk.sh - a full disk (a small tmpfs as -o; needs root to mount,
# which CI has): while the seeds are first written (10) nothing of the
# campaign is kept and the same command works once there is space; in the
# middle of a campaign (2) the crash already saved is counted in
# fuzzer_stats, the exit status is 3, and the resume after it exits 3
# while that crash still crashes.
. "$(dirname "$0")/../lib.sh"
. "$FZ_ROOT/tests/faults-lib.sh"
needs_root "mounting a small tmpfs"
mkdir small
mount -t tmpfs -o size=64k tmpfs small || fz_skip "cannot mount a tmpfs here (a container without CAP_SYS_ADMIN?)"
cleanup() { umount "$T/small" 2>/dev/null; }

# 10. Seeds that do not fit: nothing of the campaign is kept.
# Random bytes after an 'x': ft's crash mode aborts on a leading 'C', and a
# seed that crashes is skipped (one run in 85 lost a seed that way).
mkdir bigseeds && for i in 1 2 3; do { printf x; head -c 29999 /dev/urandom; } >bigseeds/s$i; done
expect "disk full while seeding" 1 "nothing of it was kept" fz-fuzz -q -s 1 -E 300 -i bigseeds -o small/out -- ./ft crash @@
left=$(ls -A small/out/default/queue)
[ -z "$left" ] || { cleanup; fail "disk full while seeding left queue files: $left"; }
for f in fuzzer_stats cmdline fuzzer_setup plot_data; do
    [ ! -e small/out/default/$f ] || { cleanup; fail "disk full while seeding left $f"; }
done
expect "resume after it" 1 "nothing to resume" fz-fuzz -q -s 1 -E 300 -i - -o small/out -- ./ft crash @@
mount -o remount,size=1m small
fz-fuzz -q -s 1 -E 300 -i bigseeds -o small/out -- ./ft crash @@ >again.log 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || { cat again.log; cleanup; fail "the same command once there is space: exit $rc"; }
[ "$(ls small/out/default/queue | grep -c orig:s)" = 3 ] || { cleanup; fail "not every seed is in the queue: $(ls small/out/default/queue)"; }
ok "once there is space the same command starts with every seed"
rm -rf small/out

# 2. The disk fills after a crash was saved.
fz-fuzz -q -s 1 -V 120 -i seeds -o small/out -- ./ft crash @@ >mid.log 2>&1 &
pid=$!
for i in $(seq 300); do [ "$(stat_of small/out saved_crashes 2>/dev/null)" = 1 ] && break; sleep 0.1; done
[ "$(stat_of small/out saved_crashes)" = 1 ] || { kill $pid; cleanup; fail "the crash was not counted in fuzzer_stats at once"; }
dd if=/dev/zero of=small/filler bs=4k 2>/dev/null
wait $pid
rc=$?
[ $rc = 3 ] || { cat mid.log; cleanup; fail "disk full after a crash: exit $rc, want 3"; }
grep -q "disk full while writing" mid.log || { cat mid.log; cleanup; fail "no disk-full message"; }
[ "$(stat_of small/out saved_crashes)" = 1 ] || { cleanup; fail "fuzzer_stats lost the saved crash"; }
execs=$(stat_of small/out execs_done)
ok "disk full after a crash: exit 3, saved_crashes 1 and $execs execs in fuzzer_stats"
[ -z "$(ls -A small/out/default | grep '^\.fz-tmp')" ] || { cleanup; fail "a temp file was left in -o"; }
# A resume while the disk is still full re-runs the saved crash first:
# exit 3, which the crash still gives, not 1 (issue 26 pt 7).
expect "resume while the disk is still full" 3 "1 still crash" fz-fuzz -q -s 1 -E 300 -i - -o small/out -- ./ft crash @@
grep -q "disk full" both.log || { cat both.log; cleanup; fail "the resume on a full disk does not say so"; }
rm small/filler
expect "resume after the disk was full" 3 "1 still crash" fz-fuzz -q -s 1 -E 300 -i - -o small/out -- ./ft crash @@
[ "$(stat_of small/out execs_done)" -ge "$execs" ] || { cleanup; fail "the resume lost executions"; }
cleanup
no_tmp_left "disk faults"
