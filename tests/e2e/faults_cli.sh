#!/bin/bash
# faults_cli.sh - what a user can get wrong on the command line (issue 12,
# docs/faults.md): a bad value of every option gets one line naming it
# (-V 0 and -E 0 included: 6), -M . says why (15), FZ_CC naming fz-cc
# itself or a wrapper that calls it is refused (7), seeds that are empty,
# huge, FIFOs or directories, and a very long command line.
. "$(dirname "$0")/../lib.sh"
. "$FZ_ROOT/tests/faults-lib.sh"
tgt=(-- ./ft crash @@)

# Every option's bad values: exit 1, one line that names the option.
while IFS='|' read -r args pat; do
    [ -n "$args" ] || continue
    # shellcheck disable=SC2086
    expect "fz-fuzz $args" 1 "$pat" timeout 10 fz-fuzz -q $args -i seeds -o bad "${tgt[@]}"
done <<'EOT'
-V 0|-V 0: a time limit of 0 would be no limit
-E 0|-E 0: a budget of 0 runs would be no limit
-t 0|-t 0: a run needs some time
-t 3|-t 3 is too short
-t x|-t expects a whole number
-m x|-m expects a whole number
-m -1|-m expects a whole number
-V 1x|-V expects a whole number
-E -5|-E expects a whole number
-s abc|-s expects a whole number
-x nodict|nodict
-M .|may not start with '.'
-M ..|may not start with '.'
-S a/b|-S NAME may hold only
-M a -S b|give only one of -M NAME / -S NAME
--nope|unknown option '--nope'
-E 99999999999999999999999|-E expects a whole number
EOT
expect "-o ''" 1 "-o needs a non-empty DIR" fz-fuzz -q -i seeds -o '' "${tgt[@]}"
expect "-f ''" 1 "-f needs a non-empty FILE" fz-fuzz -q -f '' -i seeds -o bad "${tgt[@]}"
expect "no -o" 1 "no output directory" fz-fuzz -q -i seeds "${tgt[@]}"
expect "no target" 1 "no target given" fz-fuzz -q -i seeds -o bad
expect "FZ_HANG_TMOUT=0" 1 "FZ_HANG_TMOUT must be a positive" env FZ_HANG_TMOUT=0 fz-fuzz -q -i seeds -o bad "${tgt[@]}"
expect "FZ_SYNC_SECS=x" 1 "FZ_SYNC_SECS must be a whole number" env FZ_SYNC_SECS=x fz-fuzz -q -i seeds -o bad "${tgt[@]}"
expect "--replay missing" 1 "does not exist" fz-fuzz --replay nodir "${tgt[@]}"
[ -e bad ] && fail "a bad option created the output directory"

# 7. FZ_CC naming fz-cc: refused at once instead of running itself forever.
echo 'int main(void) { return 0; }' >m.c
expect "FZ_CC=fz-cc" 1 "names fz-cc itself" timeout 10 env FZ_CC=fz-cc "$FZ_BIN/fz-cc" m.c -o m
expect "FZ_CXX=fz-c++" 1 "names fz-cc itself" timeout 10 env FZ_CXX=fz-c++ "$FZ_BIN/fz-c++" -x c++ m.c -o m
printf '#!/bin/sh\nexec fz-cc "$@"\n' >wrap && chmod +x wrap
expect "FZ_CC=a wrapper of fz-cc" 1 "calls fz-cc again" timeout 10 env FZ_CC=./wrap "$FZ_BIN/fz-cc" m.c -o m

# Seeds: empty (skipped, said), a FIFO and a directory (skipped), a file
# over 1 MiB (skipped, said; with nothing else left, refused).
mkdir s1 && printf a >s1/a && : >s1/empty && mkfifo s1/fifo && mkdir s1/dir
timeout 20 fz-fuzz -q -s 1 -E 200 -i s1 -o s1out "${tgt[@]}" >s1.log 2>&1
[ $? = 3 ] || { cat s1.log; fail "seeds with an empty file, a FIFO and a directory: want exit 3"; }
grep -q "skipping empty file 's1/empty'" s1.log || { cat s1.log; fail "the empty seed was not said to be skipped"; }
[ "$(ls s1out/default/queue | grep -c orig:)" = 1 ] || fail "want only the one real seed in the queue"
ok "empty, FIFO and directory entries of -i are skipped; the real seed is used"
mkdir s2 && head -c 1100000 /dev/zero >s2/huge
expect "only a huge seed" 1 "skipping 's2/huge' in the seed directory: 1100000 bytes" fz-fuzz -q -i s2 -o s2out "${tgt[@]}"

# A very long command line (about 200 KB of arguments): cmdline keeps
# every word, fuzzer_stats stays a well-formed file.
args=()
x80=$(printf 'x%.0s' $(seq 80))
for i in $(seq 2000); do args+=("argument-$i-$x80"); done
fz-fuzz -q -s 1 -E 200 -i seeds -o longargv -- ./ft crash @@ "${args[@]}" >la.log 2>&1
[ $? = 3 ] || { tail -n 3 la.log; fail "a 200 KB command line: want exit 3"; }
[ "$(wc -l <longargv/default/cmdline)" = 2003 ] || fail "cmdline does not hold every word"
grep -q '^execs_done *: ' longargv/default/fuzzer_stats || fail "fuzzer_stats is not well formed"
ok "a 200 KB command line: cmdline has all 2003 words"
no_tmp_left "command-line faults"
