#!/bin/sh
# run-unit.sh - run each check(1) test program given on the command line and
# report a one-line summary.  Fails if any fails.
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
