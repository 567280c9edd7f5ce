#!/usr/bin/env python3
"""search-lines.py - which source lines one fuzzer's final corpora reach
and the other's do not, from the gcov files bench/search.sh keeps
(SEARCH_KEEP=DIR: DIR/TARGET-FUZZER-SEED.gcov/*.gcov) or bench/coverage.sh
keeps (BENCH_KEEP=DIR: DIR/TARGET-FUZZER-TRIAL.gcov/*.gcov).

    bench/search-lines.py DIR/zlib-lf-fz-{1,2,3}.gcov DIR/zlib-lf-libfuzzer-{1,2,3}.gcov

Arguments: the runs of side A, then "--" or, as above, as many runs of
side B (the list is split in half when there is no "--").  Prints every
line (file, line number, A's runs reaching it, B's, the source) that at
least MIN (default 2) more runs of one side reach than of the other; the
harness files are left out, as search.sh's counts leave them out.
"""
import os
import re
import sys

# The harnesses (bench/real/*.c), as the counts of coverage.sh leave them out.
SKIP = tuple(sorted(f for f in os.listdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "real"))
                    if f.endswith(".c")))


def load(d):
    lines = {}
    for f in sorted(os.listdir(d)):
        if not f.endswith(".gcov") or f.startswith(SKIP):
            continue
        with open(os.path.join(d, f), errors="replace") as fh:
            for l in fh:
                m = re.match(r"\s*([^:]+):\s*(\d+):(.*)", l)
                if not m or m.group(1).strip() == "-":
                    continue
                c = m.group(1).strip()
                hit = not c.startswith(("#", "="))
                lines[(f[:-5], int(m.group(2)))] = (hit, m.group(3).strip())
    return lines


def main(argv):
    least = int(os.environ.get("MIN", "2"))
    if "--" in argv:
        k = argv.index("--")
        a, b = argv[:k], argv[k + 1:]
    else:
        a, b = argv[: len(argv) // 2], argv[len(argv) // 2:]
    if not a or not b:
        sys.exit("usage: search-lines.py A-RUN.gcov... [--] B-RUN.gcov...")
    A, B = [load(d) for d in a], [load(d) for d in b]
    keys = sorted(set().union(*[x.keys() for x in A + B]))
    for k in keys:
        na = sum(1 for x in A if x.get(k, (False,))[0])
        nb = sum(1 for x in B if x.get(k, (False,))[0])
        if abs(na - nb) >= least:
            src = next(x[k][1] for x in A + B if k in x)
            print(f"{k[0]:14s}{k[1]:6d}  A {na}/{len(A)}  B {nb}/{len(B)}  {src[:70]}")


if __name__ == "__main__":
    main(sys.argv[1:])
