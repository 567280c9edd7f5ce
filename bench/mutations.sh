#!/bin/sh
# bench/mutations.sh - mutations per second of the engine alone (no target),
# built -O2, and the reducer's candidate count on a 10 KB input.  The goal
# is >= 10M simple mutations/s; below it the script warns (a loaded machine
# should not fail `make bench`).
cd "$(dirname "$0")/.." || exit 1
make -s build/bench/mutations || exit 1
out=$(build/bench/mutations) || exit 1
echo "$out"
rate=$(echo "$out" | awk '/^simple \(mixed\)/ {print int($3)}')
[ "${rate:-0}" -ge 10 ] || echo "warning: simple mutations below the 10M/s goal" >&2
exit 0
