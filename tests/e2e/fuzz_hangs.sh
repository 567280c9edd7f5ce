#!/bin/bash
# fuzz_hangs.sh - a run that times out is saved in hangs/ only if it still
# times out when run again with the longer hang timeout (FZ_HANG_CONFIRM_MS,
# 1000 ms): testcases/hang_target.c loops forever on 'H' (a hang, saved) and
# takes 300 ms on 'S' (slow, past -t 100, but not a hang: not saved).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
fzcc -O1 -o target "$FZ_ROOT/testcases/hang_target.c" || fail "cannot build hang_target.c"
mkdir seeds && printf 'xx' >seeds/a
# fuzz OUT [ENV...]: 3000 runs with -t 100 and a fixed seed.
fuzz() {
    local out=$1 rc=0
    shift
    env "$@" "$FZ_BIN/fz-fuzz" -q -s 1 -E 3000 -t 100 -i seeds -o "$out" -- ./target @@ >"$out.log" 2>&1 || rc=$?
    [ $rc = 0 ] || { tail -n 5 "$out.log"; fail "fz-fuzz exited $rc"; }
}
firsts() { for f in "$1"/default/hangs/id:*; do [ -e "$f" ] && head -c 1 "$f"; done; }

# Without confirmation (hang timeout no longer than -t) the slow input is
# saved as a hang: so this seed's run does meet both kinds.
fuzz raw FZ_HANG_TMOUT=100
case $(firsts raw) in *S*) ;; *) fail "the unconfirmed run met no slow input: the test proves nothing" ;; esac
case $(firsts raw) in *H*) ;; *) fail "the unconfirmed run met no real hang" ;; esac

fuzz out
case $(firsts out) in
*S*) fail "a slow input ('S', 300 ms) was saved as a hang" ;;
*H*) ;;
*) fail "the real hang ('H') was not saved" ;;
esac
total=$(sed -n 's/^total_hangs *: //p' out/default/fuzzer_stats)
ok "only the real hang saved ($(firsts out)); unconfirmed: $(firsts raw); $total runs timed out"
