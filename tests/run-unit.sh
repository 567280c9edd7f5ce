#!/bin/sh
# run-unit.sh - run each check(1) test program given on the command line and
# report a one-line summary.  Fails if any fails.
# check(1) kills a test that runs over CK_DEFAULT_TIMEOUT seconds (4 by
# default); on a shared, loaded machine a test that needs 0.2 s of CPU can
# take longer than that in wall time, so the limit only catches real hangs.
export CK_DEFAULT_TIMEOUT="${CK_DEFAULT_TIMEOUT:-120}"
failed=""
for t in "$@"; do
    echo "== unit: $t"
    "$t" || failed="$failed $t"
done
if [ -n "$failed" ]; then
    echo "unit tests FAILED:$failed" >&2
    exit 1
fi
echo "unit tests: all passed ($# programs)"
