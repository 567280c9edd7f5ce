#!/usr/bin/env python3
"""map-kept.py - how fine a build's coverage map is, judged on another
fuzzer's corpus: replay a queue directory in name order (an AFL++ or
fz-fuzz queue is named id:NNNNNN,..., so name order is the order it was
found in) through each build with fz-showmap, and count the entries that
add a (slot, hit-count bucket) feature no earlier entry had: the entries
a fuzzer with that map would have kept from the same sequence of inputs.

    bench/map-kept.py DIR/zlib-aflpp-1 ./fz-zlib ./fzclang-zlib
    bench/map-kept.py -s DIR/zlib-aflpp-1 ./fz-zlib     # stdin instead of a file argument

A build is an fz-cc or fz-clang binary of coverage.sh's harness (one
file argument; -s: the input on stdin).  Prints, per build: entries,
entries kept, features.  A peer's queue was kept by the peer's own map,
so the peer's compiler scores near 100% by construction; what the tool
compares is two fz builds against the same inputs (bench/README.md,
"how fine the GCC map is", session 28).
"""
import os
import sys

from fzmap import features, showmap as find_showmap


def main(argv):
    stdin = False
    if argv and argv[0] == "-s":
        stdin, argv = True, argv[1:]
    if len(argv) < 2:
        sys.exit("usage: bench/map-kept.py [-s] QUEUE_DIR BUILD...")
    queue, builds = argv[0], argv[1:]
    showmap = find_showmap(__file__)
    files = [os.path.join(queue, f) for f in sorted(os.listdir(queue))
             if os.path.isfile(os.path.join(queue, f)) and not f.startswith(".")]
    print(f"{'build':<40} {'entries':>8} {'kept':>6} {'features':>9}")
    for b in builds:
        seen, kept = set(), 0
        for p in files:
            got = features(showmap, os.path.abspath(b), p, stdin)
            if got - seen:
                kept += 1
                seen |= got
        print(f"{b:<40} {len(files):>8} {kept:>6} {len(seen):>9}")


if __name__ == "__main__":
    main(sys.argv[1:])
