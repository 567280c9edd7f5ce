#!/bin/bash
# fuzz_status_term.sh - fz-fuzz on a terminal: the live screen (with the
# last new edge, cycle progress and the time left under -V) for a terminal
# terminfo knows; plain log lines without a single escape code for
# TERM=dumb, an unknown TERM or none.  script(1) provides the terminal.
. "$(dirname "$0")/../lib.sh"
command -v script >/dev/null || fz_skip "script(1) is not installed (apt-get install bsdutils)"
cd "$T" || exit 1
fzcc -O1 -o demo "$FZ_ROOT/testcases/demo.c" 2>/dev/null || fail "fz-cc could not build testcases/demo.c"

run_tty() { # TERM LOG
    # A terminal ends lines with \r\n.  The demo's crash may be found in
    # the 3000 runs (exit 3); only the output is tested here.
    local rc=0
    TERM=$1 script -qec "fz-fuzz -s 1 -E 3000 -V 600 -i '$FZ_ROOT/testcases/demo_seeds' -o 'out-$2' -- ./demo @@" /dev/null >"$2" 2>&1 || rc=$?
    [ $rc = 0 ] || [ $rc = 3 ]
}
esc=$(printf '\033')
for term in dumb no-such-terminal ""; do
    run_tty "$term" "log-${term:-unset}" || { cat "log-${term:-unset}"; fail "fz-fuzz failed with TERM='$term'"; }
    grep -q "$esc" "log-${term:-unset}" && fail "TERM='$term': the output holds escape codes"
    tr -d '\r' <"log-${term:-unset}" | grep -Eq 'last new edge [0-9]+s ago, [0-9]+s left$' ||
        { cat "log-${term:-unset}"; fail "TERM='$term': the log line lacks the last new edge or the time left"; }
done
ok "TERM=dumb, unknown or unset: plain lines, no escape codes, last new edge and time left"

if [ -e /usr/share/terminfo/x/xterm ] || [ -e /lib/terminfo/x/xterm ]; then
    run_tty xterm log-xterm || { cat log-xterm; fail "fz-fuzz failed with TERM=xterm"; }
    grep -q "$esc" log-xterm || fail "TERM=xterm: no live screen"
    sed "s/$esc\[[0-9;?]*[a-zA-Z]//g" log-xterm >screen
    grep -q 'last edge ' screen || fail "the screen has no 'last edge' line"
    grep -Eq 'entry [0-9]+ of [0-9]+ +\(cycle [0-9]+, [0-9]+% done\)' screen || fail "the screen has no cycle progress"
    grep -Eq 'time +[0-9]+h [0-9]+m [0-9]+s left \(-V 600\)' screen || fail "the screen has no time left under -V"
    ok "TERM=xterm: live screen with last edge, cycle progress, time left"
else
    fz_skip_part "no terminfo entry for xterm (apt-get install ncurses-base): live screen not checked"
fi
