#!/bin/bash
# fleet_sync_dir.sh - docs/scaling.md's recipe for machines that share no
# file system: two campaigns in separate output directories exchange finds
# through a copied sync directory (cp -a here; rsync between machines).
# Each copies the other's instance directory into its own -o; the next
# sync imports the finds ("sync:PEER" entries) and never re-imports what
# came from itself.  Bounded by -s/-E.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" || fail "cannot build demo.c"
seeds=$FZ_ROOT/testcases/demo_seeds
ran() { [ $1 = 0 ] || [ $1 = 3 ] || { cat "$2"; fail "$3 exited $1"; }; }

# Machine A: a main.  Machine B: a secondary with its own -o.
fz-fuzz -q -M hostA -s 1 -E 3000 -i "$seeds" -o syncA -- ./demo @@ >a.log 2>&1
ran $? a.log "campaign A"
# B runs without comparison feedback and a smaller budget, so that A has
# finds B lacks (with it, both reach the demo's whole map on their own and
# an import adds nothing, so none would be kept).
FZ_NO_CMPLOG=1 fz-fuzz -q -S hostB -s 2 -E 500 -i "$seeds" -o syncB -- ./demo @@ >b.log 2>&1
ran $? b.log "campaign B"
ls syncB/hostB/queue | grep -q ',sync:' && fail "B imported something before any copy"

# Copy A's instance directory to B (the "rsync"), resume B: it imports A's finds.
cp -a syncA/hostA syncB/
FZ_NO_CMPLOG=1 FZ_AUTORESUME=1 fz-fuzz -q -S hostB -s 3 -E 1500 -i "$seeds" -o syncB -- ./demo @@ >b2.log 2>&1
ran $? b2.log "campaign B resumed"
n=$(ls syncB/hostB/queue | grep -c ',sync:hostA,')
[ "$n" -ge 1 ] || { ls syncB/hostB/queue; fail "B imported nothing from A's copied directory"; }

# And back: A imports B's own finds, not the ones B took from A.
cp -a syncB/hostB syncA/
FZ_AUTORESUME=1 fz-fuzz -q -M hostA -s 4 -E 1500 -i "$seeds" -o syncA -- ./demo @@ >a2.log 2>&1
ran $? a2.log "campaign A resumed"
[ -s syncA/hostA/.synced/hostB ] || fail "A kept no cursor for hostB"
ls syncA/hostA/queue | grep -q ',sync:hostB,' ||
    grep -q "synced from 'hostB'" a2.log || { cat a2.log; fail "A never looked at B's copied directory"; }
ok "A -> B: $n imports through a copied sync directory; B -> A: cursor $(od -An -tu4 syncA/hostA/.synced/hostB | tr -d ' ')"
