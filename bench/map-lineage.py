#!/usr/bin/env python3
"""map-lineage.py - which steps of a find's ancestry another build's map
would have thrown away.  A queue in AFL++ layout names each entry's parent
(id:NNNNNN,src:MMMMMM,...).  The whole queue is replayed in name order (the
order it was found in) through two fz builds of the same harness with
fz-showmap; for each entry named on the command line, its ancestors are
listed, oldest last, with:

    kept-by-A   whether build A's map would have kept it (a (slot, bucket)
                feature no earlier entry of the queue had under A)
    new-in-B    the (slot, bucket) features it added under build B

    bench/map-lineage.py DIR/zlib-fz-1 ./fz-cc-zlib ./fz-clang-zlib 000513 000621
    bench/map-lineage.py --ll inflate.ll=251 --ll inftrees.ll=876 DIR A B 000513

An ancestor that B kept and A would not is a step A's fuzzer could not
have taken from that parent: the finer map made the path.  --ll FILE=BASE
names B's slots: FILE is one module's LLVM IR from fz-clang -S -emit-llvm
(the same flags as the build), BASE its first slot in the binary (modules
are numbered in link order; each module's count is fz-cc's report line
under FZ_QUIET=0); a slot then prints as function:line, or function:~line
for a block that only splits an edge (it has no line of its own: the line
of the code before it in the IR).
"""
import os
import re
import sys

from fzmap import features, showmap as find_showmap


def slot_names(ll_path, base):
    """Slot -> 'function:line' for one module's IR: each counter is a GEP
    off the function's copy of __fz_area with the block's debug location."""
    text = open(ll_path).read().split("\n")
    lines = {}
    for s in text:
        m = re.match(r"!(\d+) = !DILocation\(line: (\d+)", s)
        if m:
            lines[m.group(1)] = m.group(2)
    names, fn, area, last = {}, "?", None, "?"
    for s in text:
        m = re.match(r"define [^@]*@([\w.]+)\(", s)
        if m:
            fn, area, last = m.group(1).split(".fz.")[0], None, "?"
        m = re.match(r"\s*(%[\w.]+) = load i8\*, i8\*\* @__fz_area", s)
        if m:
            area = m.group(1)
        m = re.search(r"getelementptr inbounds i8, i8\* (%[\w.]+), i64 (\d+)(, !dbg !(\d+))?", s)
        if m and m.group(1) == area:
            # A block made to split an edge has no location: "~" and the
            # line of the code just before it in the IR.
            line = lines.get(m.group(4)) if m.group(4) else None
            names[base + int(m.group(2))] = f"{fn}:{line}" if line else f"{fn}:~{last}"
            continue
        m = re.search(r"!dbg !(\d+)", s)
        if m and m.group(1) in lines and lines[m.group(1)] != "0":
            last = lines[m.group(1)]
    return names


def main(argv):
    lls = []
    while len(argv) > 1 and argv[0] == "--ll":
        path, _, base = argv[1].rpartition("=")
        lls.append((path, int(base)))
        argv = argv[2:]
    if len(argv) < 4:
        sys.exit("usage: bench/map-lineage.py [--ll FILE.ll=BASE]... QUEUE_DIR BUILD_A BUILD_B ID...")
    queue, a, b, wanted = argv[0], os.path.abspath(argv[1]), os.path.abspath(argv[2]), argv[3:]
    showmap = find_showmap(__file__)
    names = {}
    for path, base in lls:
        names.update(slot_names(path, base))
    files = sorted(f for f in os.listdir(queue) if f.startswith("id:"))
    by_id, parent, kept_a, new_b = {}, {}, {}, {}
    seen_a, seen_b = set(), set()
    for f in files:
        i = f[3:9]
        by_id[i] = f
        m = re.search(r",src:(\d+)", f)
        if m:
            parent[i] = m.group(1)
        p = os.path.join(queue, f)
        fa, fb = features(showmap, a, p), features(showmap, b, p)
        kept_a[i] = bool(fa - seen_a)
        new_b[i] = sorted(fb - seen_b)
        seen_a |= fa
        seen_b |= fb
    for w in wanted:
        w = w.zfill(6)
        if w not in by_id:
            print(f"{w}: no such entry in {queue}", file=sys.stderr)
            continue
        print(f"lineage of {w}:  (A = {argv[1]}, B = {argv[2]})")
        i, lost = w, 0
        while i in by_id:
            feat = " ".join(f"{s}:{k}" + (f"({names[s]})" if s in names else "") for s, k in new_b[i])
            if not kept_a[i]:
                lost += 1
            print(f"  {'kept-by-A' if kept_a[i] else 'LOST-by-A'}  {by_id[i]}\n      new in B: {feat or '-'}")
            i = parent.get(i)
        print(f"  {lost} step(s) A's map would not have kept")


if __name__ == "__main__":
    main(sys.argv[1:])
