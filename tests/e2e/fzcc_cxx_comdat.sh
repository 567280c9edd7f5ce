#!/bin/bash
# fzcc_cxx_comdat.sh - C++ inline functions (COMDAT groups) emitted by two
# units link, at every optimisation level, with and without -g.  GCC moves
# a local function that only a group's members use (an IPA-SRA clone of
# a recursive helper) into the group; the logging copy of a member must go
# into the group too, or the linker, keeping the other unit's group,
# leaves the copy calling into a discarded section (yaml-cpp at -Os,
# these units at -O2, -O3 and -Os: "defined in discarded section").  testcases/cxx_comdat.h.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

cd "$T"
export FZ_CC_NO_FALLBACK=1
a=$FZ_ROOT/testcases/cxx_comdat_a.cc b=$FZ_ROOT/testcases/cxx_comdat_b.cc
flagsets=("-O0" "-O1" "-O2" "-O2 -g" "-O3" "-Os" "-Os -g")
for fl in "${flagsets[@]}"; do
    tag=${fl// /}
    plaincxx $fl "$a" "$b" -o plain$tag || fail "plain $FZ_TEST_CC $fl cannot build the two units"
    fzcxx $fl -c "$a" -o a$tag.o 2>/dev/null && fzcxx $fl -c "$b" -o b$tag.o 2>/dev/null ||
        fail "fz-c++ $fl cannot compile the units"
    fzcxx $fl a$tag.o b$tag.o -o fz$tag 2>link$tag ||
        fail "fz-c++ $fl: the link failed: $(grep -m2 -e discarded -e error link$tag)"
    [ "$(./fz$tag Bx yB)" = "$(./plain$tag Bx yB)" ] || fail "fz-c++ $fl: output differs from plain"
done
ok "two units sharing COMDAT groups link and run at ${#flagsets[@]} flag sets"

# Under GCC the copies of a group's members are in the group.
if [ "$FZ_TEST_CC" = gcc ]; then
    readelf -gW a-O2.o >groups || fail "readelf failed"
    # readelf -g lists only the sections that are in a group.
    grep -q '\.text\.unlikely\._ZN7cc_treeIiED2Ev\.fz\.cmplog$' groups ||
        fail "the destructor's logging copy is not in a group: $(cat groups)"
    ok "the logging copies of cc_tree<int>'s members are in its group"
fi
