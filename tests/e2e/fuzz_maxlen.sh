#!/bin/bash
# fuzz_maxlen.sh - the maximum input length (-l / --max-len, else derived
# from the seeds): on a target whose coverage grows with length, no queue
# entry is ever longer than it; seeds over -l are skipped with a message
# that names the limit, and -l below the smallest seed is an error that
# says so.  Work is bounded by -s/-E, never by time.
. "$(dirname "$0")/../lib.sh"
cd "$T"
fzcc -O1 -o len "$FZ_ROOT/testcases/len_loop.c" || fail "cannot build testcases/len_loop.c"
largest() { find "$1" -maxdepth 1 -name 'id:*' -type f -printf '%s\n' | sort -n | tail -n 1; }

# Derived: the largest seed (100 bytes) is under 4 KiB, so the limit is 4096.
mkdir seeds && head -c 100 /dev/zero | tr '\0' A >seeds/a && printf 'xyz' >seeds/b
fz-fuzz -q -s 1 -E 20000 -i seeds -o d -- ./len @@ >d.log 2>&1 || { cat d.log; fail "derived run failed"; }
big=$(largest d/default/queue)
[ "$big" -le 4096 ] || fail "a queue entry of $big bytes, over the derived maximum of 4096"
[ "$big" -gt 100 ] || fail "nothing grew past the seeds ($big bytes): the target does not push length"
ok "derived maximum: largest entry $big bytes <= 4096"

# -l 64: every entry within it, both spellings.
for opt in "-l 64" "--max-len 64"; do
    rm -rf l
    mkdir -p small && printf 'AAAA' >small/a
    fz-fuzz -q -s 1 -E 10000 $opt -i small -o l -- ./len @@ >l.log 2>&1 || { cat l.log; fail "$opt run failed"; }
    big=$(largest l/default/queue)
    [ "$big" -le 64 ] || fail "$opt: a queue entry of $big bytes"
    [ "$big" -gt 16 ] || fail "$opt: nothing grew ($big bytes): the test does not test the limit"
done
ok "-l 64 / --max-len 64: largest entry $big bytes"

# A seed over -l is skipped with the limit named; the others are used.
fz-fuzz -q -s 1 -E 2000 -l 50 -i seeds -o s -- ./len @@ >s.log 2>&1 || { cat s.log; fail "-l 50 with one seed over it failed"; }
grep -q "seed 'a' is 100 bytes, over the maximum length 50 (-l); skipping it" s.log ||
    { cat s.log; fail "no message for the seed over -l"; }
[ "$(ls s/default/queue | grep -c 'orig:')" = 1 ] || fail "want exactly the one short seed in the queue"
ok "a seed over -l is skipped with the limit named"

# -l below the smallest seed: an error that says so, nothing written.
fz-fuzz -q -s 1 -E 100 -l 2 -i seeds -o e -- ./len @@ >e.log 2>&1 && fail "-l 2 below every seed succeeded"
grep -q -- "-l 2 is below the smallest seed ('b', 3 bytes)" e.log || { cat e.log; fail "no -l message"; }
[ -z "$(ls -A e/default/queue 2>/dev/null)" ] || fail "-l below every seed left queue files"
ok "-l below the smallest seed is refused with the reason"
