# tests/faults-lib.sh - helpers of the fault suite (tests/e2e/faults_*.sh),
# sourced after tests/lib.sh.  Each script builds what it needs in $T and
# keeps every fuzzing run bounded by executions (-s 1 -E N).
#
#   ft              testcases/fault_target.c built with fz-cc (./ft MODE @@)
#   seeds/          one seed, "a"
#   expect NAME RC PATTERN CMD...   CMD exits RC, its output matches PATTERN,
#                   and with RC 1 its stderr has exactly one "error:" line
#   needs_root WHY  the rest of the script needs root: fz_skip otherwise
#                   (CI runs as root, so the skip fails there)
#   no_tmp_left     the private $TMPDIR holds no fz temp file
#   stat_of DIR KEY the value of KEY in DIR/default/fuzzer_stats
cd "$T" || exit 1
export FZ_NO_AFFINITY=1 # many runs in a row: no CPU binding to wait for
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR" seeds
printf a >seeds/a
fzcc -O1 -o ft "$FZ_ROOT/testcases/fault_target.c" || fail "cannot build testcases/fault_target.c"

expect() {
    local name=$1 want=$2 pat=$3
    shift 3
    "$@" >out.log 2>err.log
    local rc=$?
    [ $rc = "$want" ] || { tail -n 5 err.log out.log; fail "$name: exit $rc, want $want"; }
    if [ "$want" = 1 ]; then
        [ "$(grep -c 'error:' err.log)" = 1 ] || { cat err.log; fail "$name: want exactly one error line"; }
    fi
    cat err.log out.log >both.log
    grep -q -- "$pat" both.log || { cat both.log; fail "$name: message does not match '$pat'"; }
    ok "$name: $(grep -m1 -- "$pat" both.log)"
}

needs_root() {
    [ "$(id -u)" = 0 ] || fz_skip "$1 needs root (CI runs as root)"
}

no_tmp_left() {
    local left
    left=$(ls -A "$TMPDIR")
    [ -z "$left" ] || fail "$1: temp files left in \$TMPDIR: $left"
}

stat_of() {
    sed -n "s/^$2 *: //p" "$1/default/fuzzer_stats"
}
