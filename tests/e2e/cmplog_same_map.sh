#!/bin/bash
# cmplog_same_map.sh - a logging run lights the same coverage slots, with
# the same counts, as a plain run of the same input: fz-fuzz judges the
# coverage of logging runs (fz-fuzz/run.c, i2s.c), and the logging copies
# (GCC's -O0 clone NAME.fz.cmplog, LLVM's optnone clone, or the in-function
# copies) must count the original's edge slots.  The cmp_* targets, built
# at -O0, -O2 and -O2 -g, each run on three inputs under
# build/tests/cmplog-dump -m with the log enabled and with it off (-0):
# the map lines must be equal and not empty, and the enabled run must
# have logged.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

dump=$FZ_ROOT/build/tests/cmplog-dump
[ -x "$dump" ] || fz_skip "build/tests/cmplog-dump is not built (make)"
cd "$T"
printf 'hello world, nothing matches here at all, not even close.' >in1
printf 'FUZZ\x5a\xef\xbe\xad\xde 1234 abcdefgh strcmp memcmp' >in2
head -c 600 /dev/zero | tr '\0' 'Z' >in3

for t in cmp_chain cmp_kinds cmp_switch cmp_strcmp cmp_memcmp cmp_heavy cmp_tailcall; do
    for O in "-O0" "-O2" "-O2 -g"; do
        tag="$t ${O// /}"
        # shellcheck disable=SC2086
        fzcc $O -o "t" "$FZ_ROOT/testcases/$t.c" 2>rep || fail "$tag: build failed: $(cat rep)"
        for i in in1 in2 in3; do
            "$dump" -m -i $i -- ./t >on 2>/dev/null
            "$dump" -0 -m -i $i -- ./t >off 2>/dev/null
            grep '^map ' on >on.map
            grep '^map ' off >off.map
            [ -s off.map ] || fail "$tag $i: the plain run lit no slot"
            cmp -s on.map off.map || fail "$tag $i: a logging run lit other slots than a plain run: $(diff off.map on.map | head -5)"
            grep -q '^hits [1-9]' on || fail "$tag $i: the logging run logged nothing"
            grep -q '^hits 0$' off || fail "$tag $i: the run with logging off logged"
        done
    done
done
ok "logging and plain runs light the same slots (7 targets x 3 builds x 3 inputs)"
