#!/bin/bash
# instrument_prune.sh - coverage pruning loses no edge: testcases/prune.c,
# cov_c.c and cov_cxx.cc (exceptions: edges that cannot be split), built
# with pruning (the default) and with FZ_NO_PRUNE=1, must sort a set of
# inputs into the same classes by the edges they take (two inputs give the
# same map with pruning exactly when they give the same map without), and
# pruning must use fewer slots.  Runs once per back end.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

[ -x "$FZ_BIN/fz-showmap" ] || fz_skip "bin/fz-showmap is not built"

# The inputs: every byte the targets test for alone and in pairs, then
# longer ones for the loops and the magic ladders.
mkdir -p "$T/in"
n=0
add() { printf "$1" >"$T/in/$n" && n=$((n + 1)); }
add ''
alpha='a b c d e f g x y 0 1 5 P R U N F Z * . ! \040 \n \377 q'
for c in $alpha; do add "$c"; done
for c in a f 0 x P \* .; do
    for d in $alpha; do add "$c$d"; done
done
for s in PR PRU PRN PRX 'PRU!' 'PR!N' 'PRN ! ' FU FUZ 'FUZ!' ab.cd 'a b c' 'xx*yy' \
    'abc*def*g' 'f*f*f*' 'gggggggg' '....' '  *  ' 'Pa*R' '0123456789' 'aaaa!bbbb' \
    'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' 'q\001\002\377' '\n\n\n\n' s r srs7x 0sr 9rrs; do
    add "$s"
done

# slots REPORTFILE: N from the report line
slots() { sed -n 's/^fz-cc: \([0-9][0-9]*\) edges instrumented in .*/\1/p' "$1"; }

# sigs BIN TAG: one line per input, "INPUT MAPHASH", from the edges hit
sigs() {
    local i
    for ((i = 0; i < n; i++)); do
        "$FZ_BIN/fz-showmap" -q -e -o "$T/map" -- "$1" <"$T/in/$i" || fail "fz-showmap failed on $1 < input $i"
        echo "$i $(md5sum <"$T/map" | cut -c1-32)"
    done >"$T/$2.sigs"
}

# check SRC FLAGS...: one cell
check() {
    local src=$FZ_ROOT/testcases/$1 tag fz=fzcc
    shift
    case $src in *.cc) fz=fzcxx ;; esac
    tag=$(basename "${src%.*}")$(echo "$*" | tr -d ' =')
    FZ_QUIET= FZ_NO_PRUNE=1 $fz "$@" "$src" -o "$T/full_$tag" 2>"$T/full_$tag.rep" ||
        fail "FZ_NO_PRUNE=1 build failed: $src $*"
    FZ_QUIET= $fz "$@" "$src" -o "$T/pruned_$tag" 2>"$T/pruned_$tag.rep" || fail "pruned build failed: $src $*"
    local full pruned
    full=$(slots "$T/full_$tag.rep") pruned=$(slots "$T/pruned_$tag.rep")
    [ -n "$full" ] && [ -n "$pruned" ] || fail "$tag: no report line: $(cat "$T"/*_"$tag".rep)"
    [ "$pruned" -lt "$full" ] || fail "$tag: pruning did not reduce the slots ($full -> $pruned)"

    sigs "$T/full_$tag" "full_$tag"
    sigs "$T/pruned_$tag" "pruned_$tag"
    # Same partition: each class of one build is exactly a class of the other,
    # so the pairs of hashes are as many as the hashes of either build.
    local cf cp cb
    cf=$(cut -d' ' -f2 "$T/full_$tag.sigs" | sort -u | wc -l)
    cp=$(cut -d' ' -f2 "$T/pruned_$tag.sigs" | sort -u | wc -l)
    cb=$(paste -d' ' "$T/full_$tag.sigs" "$T/pruned_$tag.sigs" | cut -d' ' -f2,4 | sort -u | wc -l)
    [ "$cf" -gt 5 ] || fail "$tag: only $cf different maps over $n inputs; the inputs do not exercise the target"
    [ "$cf" = "$cp" ] && [ "$cf" = "$cb" ] ||
        fail "$tag: inputs are told apart differently: $cf classes without pruning, $cp with, $cb pairs"
    ok "$FZ_TEST_CC $tag: $full -> $pruned slots; $n inputs in the same $cf classes of edges hit"
}

check prune.c -O0
check prune.c -O2
check cov_c.c -O0
check cov_c.c -O2
check cov_cxx.cc -O2
