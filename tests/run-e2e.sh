#!/bin/bash
# run-e2e.sh - run the end-to-end scripts in tests/e2e/.
#
# A script that contains the line "# matrix: cc" is run once per compiler
# back end, with FZ_TEST_CC=gcc and FZ_TEST_CC=clang; the others run once.
# A script exits 0 to pass, 77 to skip (it prints why), anything else fails.
# Arguments, if any, are glob patterns that select scripts by name.
cd "$(dirname "$0")/.." || exit 1
pass=0 skip=0 failed=()
compilers=(gcc clang)

run_one() { # script cc
    local s=$1 cc=$2 name log rc start
    name=$(basename "$s" .sh)${cc:+[$cc]}
    log=tests/out/logs/$name.log
    mkdir -p tests/out/logs
    start=$(date +%s)
    FZ_TEST_CC=$cc bash "$s" >"$log" 2>&1 </dev/null
    rc=$?
    case $rc in
    0) pass=$((pass + 1)); echo "PASS $name ($(($(date +%s) - start))s)" ;;
    77) skip=$((skip + 1)); echo "SKIP $name: $(tail -n 1 "$log")" ;;
    *) failed+=("$name"); echo "FAIL $name (exit $rc); last lines of $log:"; tail -n 25 "$log" | sed 's/^/    /' ;;
    esac
}

scripts=()
for s in tests/e2e/*.sh; do
    [ -e "$s" ] || continue
    if [ $# -gt 0 ]; then
        keep=0
        for p in "$@"; do [[ $(basename "$s") == $p ]] && keep=1; done
        [ $keep = 1 ] || continue
    fi
    scripts+=("$s")
done

for s in "${scripts[@]}"; do
    if grep -q '^# matrix: cc' "$s"; then
        for cc in "${compilers[@]}"; do run_one "$s" "$cc"; done
    else
        run_one "$s" ""
    fi
done

echo "e2e: $pass passed, $skip skipped, ${#failed[@]} failed"
[ ${#failed[@]} = 0 ] || { echo "failed: ${failed[*]}" >&2; exit 1; }
