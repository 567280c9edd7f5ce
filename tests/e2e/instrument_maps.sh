#!/bin/bash
# instrument_maps.sh - the instrumentation matrix: testcases/cov_c.c and
# testcases/cov_cxx.cc built with fz-cc/fz-c++ must behave exactly like the
# plain build (same stdout, stderr and exit status), and their coverage maps
# must be non-empty, input-dependent and repeatable.  Runs once per back end.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

[ -x "$FZ_BIN/fz-showmap" ] || fz_skip "bin/fz-showmap is not built"

# Inputs: each pair of them takes visibly different paths through both
# programs (magic ladder, switch cases, shapes, exception or not).
printf 'FUZ!' >"$T/in1"
printf 'ab' >"$T/in2"
printf 'srs7x' >"$T/in3"
: >"$T/in4"

# run BIN INPUT TAG: runs on stdin, records stdout+stderr+status in $T/TAG.out
run() {
    "$1" <"$2" >"$T/$3.out" 2>&1
    echo "status=$?" >>"$T/$3.out"
}

# map BIN INPUT OUT [@@]: the raw edge counts of one run
map() {
    local bin=$1 in=$2 out=$3
    shift 3
    if [ $# -gt 0 ]; then
        "$FZ_BIN/fz-showmap" -q -r -o "$out" -- "$bin" @@ <"$in"
    else
        "$FZ_BIN/fz-showmap" -q -r -o "$out" -- "$bin" <"$in"
    fi || fail "fz-showmap failed on $bin < $in"
}

# check LANG FLAGS...: one cell of the matrix
check() {
    local lang=$1 src fz plain tag
    shift
    tag=$lang$(echo "$*" | tr -d ' =')
    case $lang in
    c) src=$FZ_ROOT/testcases/cov_c.c fz=fzcc plain=plaincc ;;
    cxx) src=$FZ_ROOT/testcases/cov_cxx.cc fz=fzcxx plain=plaincxx ;;
    esac
    $plain "$@" "$src" -o "$T/plain_$tag" || fail "plain $FZ_TEST_CC build failed: $lang $*"
    FZ_QUIET= $fz "$@" "$src" -o "$T/fz_$tag" 2>"$T/report_$tag" ||
        fail "fz build failed: $lang $* ($(cat "$T/report_$tag"))"
    grep -Eq "^fz-cc: [1-9][0-9]* edges instrumented in .*$(basename "$src")\$" "$T/report_$tag" ||
        fail "no report line for $lang $*: $(cat "$T/report_$tag")"

    for i in 1 2 3 4; do
        run "$T/plain_$tag" "$T/in$i" "p_$tag$i"
        run "$T/fz_$tag" "$T/in$i" "f_$tag$i"
        cmp -s "$T/p_$tag$i.out" "$T/f_$tag$i.out" ||
            fail "$lang $*: input $i: instrumented output differs: $(diff "$T/p_$tag$i.out" "$T/f_$tag$i.out")"
    done

    map "$T/fz_$tag" "$T/in1" "$T/m1_$tag"
    map "$T/fz_$tag" "$T/in1" "$T/m1b_$tag"
    map "$T/fz_$tag" "$T/in2" "$T/m2_$tag"
    map "$T/fz_$tag" "$T/in3" "$T/m3_$tag" @@
    [ -s "$T/m1_$tag" ] || fail "$lang $*: empty coverage map"
    cmp -s "$T/m1_$tag" "$T/m1b_$tag" || fail "$lang $*: the same input gave two different maps"
    cmp -s "$T/m1_$tag" "$T/m2_$tag" && fail "$lang $*: two different inputs gave the same map"
    cmp -s "$T/m2_$tag" "$T/m3_$tag" && fail "$lang $*: two different inputs (one by @@) gave the same map"
    ok "$FZ_TEST_CC $lang $*: $(wc -l <"$T/m1_$tag") edges hit, output equal to plain"
}

check c -O0
check c -O2
check cxx -O0
check cxx -O2
check c -O3
check cxx -O3 -fPIC
check c -O2 -fPIC -g
check cxx -O1 -g

# NeverZero: an edge taken 256 (or 512) times must not read as unvisited.
fzcc -O1 "$FZ_ROOT/testcases/nz_loop.c" -o "$T/nz" || fail "cannot build nz_loop.c"
for n in 255 256 512; do
    "$FZ_BIN/fz-showmap" -q -r -o "$T/nz.$n" -- "$T/nz" $n </dev/null || fail "fz-showmap on nz_loop $n"
    cut -d: -f1 "$T/nz.$n" >"$T/nz.$n.slots"
done
cmp -s "$T/nz.255.slots" "$T/nz.256.slots" && cmp -s "$T/nz.255.slots" "$T/nz.512.slots" ||
    fail "slots hit 256/512 times vanished (counter wrapped to 0): $(diff "$T/nz.255.slots" "$T/nz.256.slots" | tr '\n' ' ')"
ok "NeverZero: edges taken 256 and 512 times stay visible"
