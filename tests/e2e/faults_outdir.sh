#!/bin/bash
# faults_outdir.sh - the output directory and the files fz-fuzz writes
# (issue 12, docs/faults.md): planted symlinks and another user's entries
# are refused and nothing is written outside -o (1); -f never overwrites a
# file (3); a 250-character seed name (9); a resume with another target is
# refused, a rebuilt one said (12); -o in use, a finished campaign, a
# resume; file modes under umask 000.
. "$(dirname "$0")/../lib.sh"
. "$FZ_ROOT/tests/faults-lib.sh"
run() { fz-fuzz -q -s 1 "$@"; }

# 1. The issue's reproduction: links planted in a prepared -o.
mkdir -p victim/c && echo secret >victim/rootfile
mkdir -p atk/default/queue atk/default/hangs
ln -s ../../victim/c atk/default/crashes
ln -s ../../victim/rootfile atk/default/cmdline
expect "planted cmdline link" 1 "atk/default/cmdline' in the output directory is a symlink" \
    run -E 300 -i seeds -o atk -- ./ft crash @@
rm atk/default/cmdline
expect "planted crashes link" 1 "atk/default/crashes' in the output directory is a symlink" \
    run -E 300 -i seeds -o atk -- ./ft crash @@
[ "$(cat victim/rootfile)" = secret ] || fail "the planted cmdline link was written through"
[ -z "$(ls -A victim/c)" ] || fail "files were written through the planted crashes link: $(ls victim/c)"
for f in .fz.lock fuzzer_stats plot_data fuzzer_setup; do
    rm -rf atk2 && mkdir -p atk2/default && ln -s ../../victim/rootfile "atk2/default/$f"
    expect "planted $f link" 1 "atk2/default/$f' in the output directory is a symlink" \
        run -E 300 -i seeds -o atk2 -- ./ft crash @@
done
rm -rf atk2 && mkdir -p atk2/default/crashes && ln -s ../../../victim/rootfile atk2/default/crashes/README.txt
expect "planted README.txt link" 1 "README.txt' in the output directory is a symlink" \
    run -E 300 -i seeds -o atk2 -- ./ft crash @@
[ "$(cat victim/rootfile)" = secret ] || fail "a planted link was written through"
ln -s atk linked
expect "-o itself a symlink" 1 "output directory 'linked' is a symlink" run -E 300 -i seeds -o linked -- ./ft crash @@

# Another user's directory (the attacker's own mkdir): needs root to make.
if [ "$(id -u)" = 0 ]; then
    mkdir -p other/default && chown -R nobody other
    expect "-o of another user" 1 "'other' belongs to another user" run -E 300 -i seeds -o other -- ./ft crash @@
    chown root other && chown nobody other/default
    expect "-o/default of another user" 1 "other/default' belongs to another user" run -E 300 -i seeds -o other -- ./ft crash @@
    chown root other/default && mkdir other/default/queue && chown nobody other/default/queue
    expect "queue/ of another user" 1 "queue' in the output directory belongs to another user" \
        run -E 300 -i seeds -o other -- ./ft crash @@
else
    fz_skip_part "another user's -o: needs root to chown (CI runs as root)"
fi

# 3. -f never truncates: not the target, not a seed.
cp ft ft.orig
expect "-f the target" 1 "-f './ft' already exists" run -E 300 -f ./ft -i seeds -o f1 -- ./ft crash @@
cmp -s ft ft.orig || fail "-f ./ft changed the target binary"
expect "-f a seed" 1 "already exists" run -E 300 -f seeds/a -i seeds -o f1 -- ./ft crash @@
[ "$(cat seeds/a)" = a ] || fail "-f seeds/a changed the seed"
run -E 300 -f "$T/fresh-input" -i seeds -o f2 -- ./ft crash @@ >f.log 2>&1
[ $? = 3 ] || { cat f.log; fail "-f with a new path: want exit 3 (crash found)"; }
[ -e fresh-input ] && fail "-f: the file fz-fuzz created was left behind"
ok "-f creates its file and removes it; an existing file is refused untouched"

# 9. A 250-character seed name.
mkdir longseeds && long=$(printf 'n%.0s' $(seq 250)) && printf a >"longseeds/$long"
run -E 300 -i longseeds -o long -- ./ft crash @@ >long.log 2>&1
[ $? = 3 ] || { cat long.log; fail "a 250-character seed name: want exit 3"; }
n=$(ls long/default/queue | grep -c "^id:000000,time:0,execs:0,orig:nnnn")
[ "$n" = 1 ] || fail "the long-named seed is not in the queue: $(ls long/default/queue)"
ok "a 250-character seed name is cut to fit (name of $(ls long/default/queue | head -1 | wc -c) bytes)"

# -o in use, a finished campaign, a resume.
fz-fuzz -q -s 1 -V 60 -i seeds -o busy -- ./ft crash @@ >busy.log 2>&1 &
busy=$!
for i in $(seq 200); do [ "$(stat_of busy saved_crashes 2>/dev/null)" = 1 ] && break; sleep 0.1; done
expect "-o in use" 1 "in use by fz-fuzz pid $busy" run -E 300 -i seeds -o busy -- ./ft crash @@
kill -INT $busy
wait $busy
[ $? = 3 ] || { cat busy.log; fail "the campaign stopped with SIGINT: want exit 3 (it had found the crash)"; }
expect "finished campaign" 1 "holds an earlier campaign" run -E 300 -i seeds -o f2 -- ./ft crash @@
expect "resume" 3 "still crash" run -E 300 -i - -o f2 -- ./ft crash @@

# 12. Resume with another target: refused; a rebuilt one: said.
cp ft ft2
expect "resume, another target" 1 "holds a campaign of './ft crash @@'" run -E 300 -i - -o f2 -- ./ft2 crash @@
expect "resume, other arguments" 1 "not of this target" run -E 300 -i - -o f2 -- ./ft fork @@
touch -d '2020-01-01' ft
expect "resume, rebuilt target" 3 "is not the binary this campaign ran before" run -E 300 -i - -o f2 -- ./ft crash @@
grep -q "against the changed target: 1 still crash" err.log || { cat err.log; fail "the re-run crashes are not said to be re-run against the changed target"; }

# Modes under umask 000: the directories and files stay private.
(umask 000 && run -E 300 -i seeds -o modes -- ./ft crash @@ >/dev/null 2>&1)
bad=$(find modes \( -type d ! -perm 700 \) -o \( -type f ! -perm 600 \) | head -3)
[ -z "$bad" ] || fail "umask 000 gave other modes: $bad"
ok "umask 000: directories 0700, files 0600"
no_tmp_left "outdir faults"
