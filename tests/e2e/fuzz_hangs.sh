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

# A slow input is confirmed (run again for up to FZ_HANG_CONFIRM_MS) once:
# after that its edges are seen, so the next 'S' input through them, also
# killed at -t, is not run again.  On libpng (inputs declaring 2 GiB
# chunks) those repeats were a sixth of a campaign's time.
slow=$(sed -n 's/^slow_inputs *: //p' out/default/fuzzer_stats)
[ "${slow:-0}" -ge 1 ] || fail "slow_inputs is '${slow:-}': the slow input was never confirmed"
[ "$total" -ge 6 ] || fail "only $total runs timed out: the test proves nothing"
[ "$slow" -le 3 ] || fail "$slow slow runs confirmed, of $total timeouts: the same slow edges were confirmed again"
ok "$slow slow input(s) confirmed of $total timeouts"
